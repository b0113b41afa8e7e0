"""Counting, stage 3: the order in which the dynamic programme takes the variables.

The programme keeps one table entry per distinct vector of partial sums of the
*open* clues — those with some but not all of their variables decided — so its cost
is set by the widest cut of the order. No single heuristic is best on every shape,
so several cheap candidates are scored and the cheapest is kept:

- ``greedy``: grow from an end, always taking the variable that closes the most open
  clues and opens the fewest (the classic frontier heuristic);
- ``rows`` and ``columns``: sweeps of the board by the variables' first cells, which
  keep a long strip or a lattice one row (or column) of clues wide;
- ``clue rows`` and ``clue columns``: the clues in board order, each bringing in all
  its variables not yet taken, so that a clue closes as soon as it opens — the sweep
  that keeps a compiled circuit narrow, whose long wires would otherwise be decided
  long before the gadgets that constrain them;
- ``rcm``: reverse Cuthill–McKee over the graph of variables sharing a clue
  (E. Cuthill and J. McKee, "Reducing the bandwidth of sparse symmetric matrices",
  1969, from a pseudo-peripheral variable as in A. George and J. W. H. Liu, "An
  implementation of a pseudoperipheral node finder", ACM TOMS 1979), a bandwidth
  heuristic that follows the component's own shape, such as the wires of a compiled
  board.

An order is scored by a bound on the entries of the table at each cut: the product
of the open clues' ranges, or of the option counts of the decided variables that
still touch an open clue, whichever is smaller. The score is the largest log2 bound
over the cuts (then the log2 of their sum); it is a bound, and the tables the
programme actually builds are usually far smaller.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Callable

from ....budget import CHECK_EVERY, UNLIMITED, Budget
from ....errors import BudgetExceeded
from .variables import Problem

__all__ = ["Order", "score_order", "choose_order", "greedy_order",
           "reverse_cuthill_mckee", "neighbourhoods", "bfs_levels", "pseudo_peripheral", "by_clues"]

#: Above this many variables the greedy candidate (quadratic in the worst case) is skipped.
GREEDY_LIMIT = 4_000


@dataclass(frozen=True)
class Order:
    """A processing order and its score (log2 of the widest and of the summed table bounds)."""

    name: str
    order: tuple[int, ...]
    width_log2: float
    work_log2: float


def score_order(problem: Problem, order: list[int] | tuple[int, ...], name: str = "",
                budget: Budget = UNLIMITED) -> Order:
    """The table-size bound of an order (see the module docstring); linear in the component.

    Raises
    ------
    BudgetExceeded
        When ``budget``'s deadline passes first (a component of a hundred thousand
        variables takes a second).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> s = build_constraints(parse_position("1" * 12 + "\\n" + "." * 12 + "\\n"))  # a strip
    >>> p = build_problem(s, s.components[0])
    >>> score_order(p, range(len(p.variables))).width_log2  # two open clues of range 2 at most
    2.0
    """
    m = len(order)
    pos = [0] * m
    for i, v in enumerate(order):
        pos[v] = i
    variables = problem.variables
    first = [m] * len(problem.targets)
    last = [-1] * len(problem.targets)
    for v, var in enumerate(variables):
        if not v % CHECK_EVERY:
            budget.check("choosing a counting order")
        p = pos[v]
        for c in var.clues:
            if p < first[c]:
                first[c] = p
            if p > last[c]:
                last[c] = p
    clue_delta = [0.0] * (m + 1)
    for c, t in enumerate(problem.targets):
        if first[c] < last[c]:
            w = math.log2(t + 1)
            clue_delta[first[c]] += w
            clue_delta[last[c]] -= w
    var_delta = [0.0] * (m + 1)
    for v, var in enumerate(variables):
        if not v % CHECK_EVERY:
            budget.check("choosing a counting order")
        reach = max((last[c] for c in var.clues), default=pos[v])
        if reach > pos[v]:
            w = math.log2(len(var.options))
            var_delta[pos[v]] += w
            var_delta[reach] -= w
    open_clues = decided = 0.0
    widest = 0.0
    work = 0.0
    for i in range(m):
        open_clues += clue_delta[i]
        decided += var_delta[i]
        bound = min(open_clues, decided)
        widest = max(widest, bound)
        work += 2.0 ** min(bound, 1000.0)
    return Order(name, tuple(order), widest, math.log2(max(work, 1.0)))


def _greedy(problem: Problem, members: list[list[int]]) -> list[int]:
    """:func:`greedy_order` of the variables over their clues."""
    return greedy_order([v.clues for v in problem.variables], members)


def greedy_order(clues: list, members: list[list[int]], start: int | None = None) -> list[int]:
    """Grow from ``start`` (default: a variable of fewest clues), taking the one that
    closes most and opens fewest; ``clues`` lists each variable's clues, ``members``
    each clue's variables.

    Examples
    --------
    >>> greedy_order([(0,), (0, 1), (1, 2), (2,)], [[0, 1], [1, 2], [2, 3]])  # a path
    [0, 1, 2, 3]
    """
    m = len(clues)
    remaining = [len(ms) for ms in members]
    neighbours: list[set[int]] = [set() for _ in range(m)]
    for ms in members:
        for v in ms:
            neighbours[v].update(ms)
    opened = [False] * len(members)
    done = [False] * m
    order: list[int] = []

    def score(v: int) -> tuple[int, int, int]:
        closes = sum(1 for c in clues[v] if remaining[c] == 1)
        opens = sum(1 for c in clues[v] if not opened[c] and remaining[c] > 1)
        return (opens - closes, -closes, v)

    if start is None:
        start = min(range(m), key=lambda v: (len(clues[v]), len(neighbours[v]), v))
    frontier = {start}
    while len(order) < m:
        if not frontier:
            frontier = {next(v for v in range(m) if not done[v])}
        v = min(frontier, key=score)
        frontier.discard(v)
        done[v] = True
        order.append(v)
        for c in clues[v]:
            remaining[c] -= 1
            opened[c] = remaining[c] > 0
        frontier.update(n for n in neighbours[v] if not done[n])
    return order


def _rcm(problem: Problem, members: list[list[int]]) -> list[int]:
    """:func:`reverse_cuthill_mckee` of the variables, neighbours when they share a clue."""
    return reverse_cuthill_mckee(len(problem.variables), members)


def neighbourhoods(m: int, members: list[list[int]], budget: Budget = UNLIMITED) -> tuple[list[int], list[list[int]]]:
    """Each of ``m`` nodes' degree and neighbours (least connected first, then by
    index), each list of ``members`` a set of mutual neighbours."""
    adjacent: list[set[int]] = [set() for _ in range(m)]
    for i, ms in enumerate(members):
        if not i % CHECK_EVERY:
            budget.check("ordering the variables")
        for v in ms:
            adjacent[v].update(ms)
    for v in range(m):
        adjacent[v].discard(v)
    degree = [len(a) for a in adjacent]
    return degree, [sorted(a, key=lambda w: (degree[w], w)) for a in adjacent]


def bfs_levels(children: list[list[int]], root: int) -> list[list[int]]:
    """The breadth-first levels of ``root``'s connected part."""
    seen, level, out = {root}, [root], []
    while level:
        out.append(level)
        level = [w for v in level for w in children[v] if w not in seen and not seen.add(w)]
    return out


def pseudo_peripheral(children: list[list[int]], degree: list[int], start: int) -> tuple[int, list[list[int]]]:
    """A pseudo-peripheral node of ``start``'s part and its breadth-first levels, as
    George and Liu find it (1979): from ``start``, jump to the least connected node
    of the farthest level while that lengthens the reach."""
    reach = bfs_levels(children, start)
    while True:
        candidate = min(reach[-1], key=lambda v: (degree[v], v))
        further = bfs_levels(children, candidate)
        if len(further) <= len(reach):
            return start, reach
        start, reach = candidate, further


def reverse_cuthill_mckee(m: int, members: list[list[int]], peripheral: bool = True) -> list[int]:
    """Reverse Cuthill–McKee of ``m`` nodes, each list of ``members`` a set of mutual
    neighbours (without ``peripheral``, each part starts from its least connected
    node instead): each connected part from a pseudo-peripheral variable
    (found as George and Liu do, 1979: from a variable, jump to the least connected
    one of the farthest level while that lengthens the reach), breadth first, each
    variable's neighbours least connected first (then by index), and the whole
    order reversed. Written here rather than taken from networkx, whose ordering
    spent 1.3 s on the 7,000 variables of a 100x100 lattice (this one 0.1 s), or
    SciPy, whose import alone takes 0.47 s.

    Examples
    --------
    >>> reverse_cuthill_mckee(4, [[0, 2], [2, 3], [3, 1]])  # a path 0-2-3-1
    [1, 3, 2, 0]
    """
    degree, children = neighbourhoods(m, members)
    placed = [False] * m
    order: list[int] = []
    for first in range(m):
        if placed[first]:
            continue
        if not peripheral:
            part = [v for ring in bfs_levels(children, first) for v in ring]
            start = min(part, key=lambda v: (degree[v], v))
        else:
            start, _ = pseudo_peripheral(children, degree, first)
        placed[start] = True
        queue, head = [start], 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for w in children[v]:
                if not placed[w]:
                    placed[w] = True
                    queue.append(w)
        order.extend(queue)
    order.reverse()
    return order


def by_clues(m: int, members: list[list[int]], clue_order) -> list[int]:
    """The ``m`` variables in the order their clues come (``members``: each clue's
    variables): each clue in turn brings in all its variables not yet taken, so it
    closes as soon as it opens; variables on no clue last.

    Examples
    --------
    >>> by_clues(4, [[0, 2], [2, 3]], [1, 0])
    [2, 3, 0, 1]
    """
    taken = [False] * m
    order = []
    for c in clue_order:
        for v in members[c]:
            if not taken[v]:
                taken[v] = True
                order.append(v)
    order.extend(v for v in range(len(taken)) if not taken[v])
    return order


def _candidates(problem: Problem, width: int) -> list[tuple[str, Callable[[], list[int]]]]:
    """The candidate orders as (name, maker), cheapest first: an order is only made
    when it is about to be scored."""
    variables = problem.variables
    m = len(variables)
    members = problem.clue_members()
    firsts = [v.first_cell for v in variables]
    out = [
        ("rows", lambda: sorted(range(m), key=lambda v: (firsts[v] // width, firsts[v] % width))),
        ("columns", lambda: sorted(range(m), key=lambda v: (firsts[v] % width, firsts[v] // width))),
    ]
    clue_cells = problem.clue_cells
    if clue_cells:
        k = range(len(clue_cells))
        out.append(("clue rows", lambda: by_clues(m, members, sorted(k, key=lambda c: divmod(clue_cells[c], width)))))
        out.append(("clue columns", lambda: by_clues(m, members, sorted(
            k, key=lambda c: (clue_cells[c] % width, clue_cells[c] // width)))))
    if m <= GREEDY_LIMIT:
        out.append(("greedy", lambda: _greedy(problem, members)))
    out.append(("rcm", lambda: _rcm(problem, members)))
    return out


def _candidate_orders(problem: Problem, width: int) -> dict[str, list[int]]:
    """The candidate orders, by name; ``width`` is the board's, for the sweeps."""
    return {name: make() for name, make in _candidates(problem, width)}


def choose_order(problem: Problem, width: int, budget: Budget = UNLIMITED) -> Order:
    """The candidate order with the smallest score (widest cut, then total work).

    Candidates are scored until ``budget``'s deadline passes: on a component of tens
    of thousands of variables scoring all of them takes a good part of a second,
    which a caller near its deadline does not have. When the deadline passes while
    the first is scored, the first is returned with infinite scores.
    """
    scored: list[Order] = []
    for name, make in _candidates(problem, width):
        if scored and budget.expired():
            break
        order = make()
        try:
            scored.append(score_order(problem, order, name, budget))
        except BudgetExceeded:
            if not scored:  # out of time on the first: it is taken unscored
                return Order(name, tuple(order), math.inf, math.inf)
            break
    return heapq.nsmallest(1, scored, key=lambda o: (round(o.width_log2, 6), o.work_log2, o.name))[0]
