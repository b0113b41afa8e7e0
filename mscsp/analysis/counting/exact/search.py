"""Counting, the small-component path: backtracking over the variables' values.

Most components of real play are a handful of variables; setting up the dynamic
programme costs more than enumerating them. This search takes the variables in the
order of their first cell (which follows the frontier, so clues close early and
prune), tries each value that keeps every clue reachable, and at each complete
assignment adds its weight to the tally of its mine count. It uses an explicit stack
(no recursion, whatever the depth), setup linear in the component, and a node budget:
past it, it gives up and the dynamic programme takes over.

A guessing policy's look-ahead runs this search thousands of times a game, so it is
also compiled (``_search.c``, built where a C compiler is found): the same values in
the same order and the same node budget, with 64-bit counts, which are exact for
components of up to :data:`COMPILED_CELLS` cells; larger ones stay here.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from math import comb

from .variables import Problem, room_after

try:
    from . import _search
except ImportError:  # pragma: no cover - exercised only where no C compiler was found
    _search = None

__all__ = ["TooBig", "search", "search_by_label", "COMPILED", "COMPILED_CELLS"]

#: Whether the compiled search (``_search.c``) was built: it takes the components of
#: at most :data:`COMPILED_CELLS` cells.
COMPILED = _search is not None

#: The largest component the compiled search takes (its counts fit 64-bit integers).
COMPILED_CELLS = 56


class TooBig(Exception):
    """The backtracking ran past its node budget."""


@lru_cache(maxsize=None)
def _binomials(n: int) -> list[int]:
    return [comb(n, j) for j in range(n + 1)]


#: A group's kind holds ``j`` mines when it takes value ``j`` (a clue sees at most eight cells).
_GROUP_LIVE = [[(0, j)] if j else [] for j in range(9)]


def search(problem: Problem, nodes: int, length: int | None = None) -> tuple[list[int], list[list[list[int]]]]:
    """Tallies by backtracking: ``(ways, kinds)``.

    ``ways[k]`` is the weight of the assignments with ``k`` mines and
    ``kinds[v][j][k]`` the weight times the mines of kind ``j`` of variable ``v``
    among them, for ``k`` below ``length`` (default: every count, ``ncells + 1``).

    Raises
    ------
    TooBig
        After ``nodes`` search nodes.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> s = build_constraints(parse_position(".2.\\n...\\n"))
    >>> ways, kinds = search(build_problem(s, s.components[0]), 100)
    >>> ways
    [0, 0, 10, 0, 0, 0]
    """
    variables = problem.variables
    targets = problem.targets
    m = len(variables)
    ncells = problem.ncells
    if m > nodes:  # one leaf takes a node a variable: give up before the linear set-up
        raise TooBig()
    if _search is not None and ncells <= COMPILED_CELLS:
        ways, flat = _compiled(problem, nodes, ncells + 1 if length is None else length)
        return ways, _by_variable(problem, flat)
    # the range each clue's partial sum must stay in after each variable; a group's
    # value is its mine count, added to each of its clues, so its feasible values are
    # one range found without trying each (the common case on real boards)
    after = room_after(problem, range(m))
    group = [v.group for v in variables]
    bounds = [[(c, targets[c] - hi, targets[c] - lo) for c, (lo, hi) in zip(var.clues, after[i])]
              for i, var in enumerate(variables)]
    checks = [[] if group[i] else [(c, tuple(o.adds[k] for o in var.options), lo, hi)
                                   for k, (c, lo, hi) in enumerate(bounds[i])]
              for i, var in enumerate(variables)]
    nopts = [len(v.options) for v in variables]
    weights = [_binomials(v.size) if group[i] else [o.weight for o in v.options] for i, v in enumerate(variables)]
    mines_of = [[o.mines for o in v.options] for v in variables]
    live = [_GROUP_LIVE[:v.size + 1] if group[i] else [[(j, km) for j, km in enumerate(o.kind_mines) if km]
                                                       for o in v.options] for i, v in enumerate(variables)]
    # filled sparsely (few leaves of a search that may still give up), expanded at the end
    ways_at: dict[int, int] = {}
    kinds_at: dict[tuple[int, int, int], int] = {}
    sums = [0] * len(targets)
    choice = [-1] * (m + 1)
    top = [0] * m
    weight = [1] * (m + 1)
    count = [0] * (m + 1)
    left = nodes
    i = 0
    while i >= 0:
        if i == m:
            w, k = weight[m], count[m]
            ways_at[k] = ways_at.get(k, 0) + w
            for v in range(m):
                for j, km in live[v][choice[v]]:
                    key = (v, j, k)
                    kinds_at[key] = kinds_at.get(key, 0) + w * km
            i -= 1
            continue
        o = choice[i]
        if group[i]:
            if o < 0:  # entering: the range of mine counts every clue still allows
                lo, hi = 0, nopts[i] - 1
                for c, clo, chi in bounds[i]:
                    have = sums[c]
                    if clo - have > lo:
                        lo = clo - have
                    if chi - have < hi:
                        hi = chi - have
                top[i] = hi
                o = lo
            else:
                for c, _, _ in bounds[i]:
                    sums[c] -= o
                o += 1
            if o > top[i]:
                choice[i] = -1
                i -= 1
                continue
            for c, _, _ in bounds[i]:
                sums[c] += o
        else:
            # undo the value tried last at this depth, then try the next one that fits
            if o >= 0:
                for c, adds, _, _ in checks[i]:
                    sums[c] -= adds[o]
            o += 1
            while o < nopts[i]:
                for c, adds, lo, hi in checks[i]:
                    v = sums[c] + adds[o]
                    if v < lo or v > hi:
                        break
                else:
                    break
                o += 1
            if o == nopts[i]:
                choice[i] = -1
                i -= 1
                continue
            for c, adds, _, _ in checks[i]:
                sums[c] += adds[o]
        left -= 1
        if left < 0:
            raise TooBig()
        choice[i] = o
        weight[i + 1] = weight[i] * weights[i][o]
        count[i + 1] = count[i] + mines_of[i][o]
        i += 1
        if i < m:
            choice[i] = -1
    length = ncells + 1 if length is None else length
    ways = [0] * length
    for k, w in ways_at.items():
        if k < length:
            ways[k] = w
    kinds = [[[0] * length for _ in v.kinds] for v in variables]
    for (v, j, k), w in kinds_at.items():
        if k < length:
            kinds[v][j][k] = w
    return ways, kinds


def search_by_label(problem: Problem, label: int, nlabels: int, nodes: int, length: int, *,
                    grouped: bool = True) -> list[tuple[list[int], list]]:
    """:func:`search` with local clue ``label``'s target left out, the assignments
    tallied apart by that clue's sum: entry ``s`` of the list is what :func:`search`
    gives when the clue's target is ``s`` (for ``s`` below ``nlabels``), from one search
    instead of one per target.

    A look-ahead asks for the tallies after each number a clicked cell can show; they
    differ only in the target of the cell's own clue, so one search, tallying each
    complete assignment under the sum it gives that clue, serves them all. Compiled
    search only (components of at most :data:`COMPILED_CELLS` cells). With ``grouped``
    False, each entry's rows are not grouped by variable: one list, a row per kind of
    cell, variable by variable (what a :class:`~mscsp.analysis.counting.exact.combine.Tally`
    holds).

    Raises
    ------
    TooBig
        After ``nodes`` search nodes, or when the compiled search cannot take the
        problem (the caller then searches once per target).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> from dataclasses import replace
    >>> s = build_constraints(parse_position(".2.\\n...\\n"))
    >>> p = build_problem(s, s.components[0])
    >>> [ways for ways, _ in search_by_label(p, 0, 6, 100, 6)] == [search(replace(p, targets=(t,)), 100)[0]
    ...                                                             for t in range(6)]
    True
    """
    if _search is None or problem.ncells > COMPILED_CELLS or len(problem.variables) > nodes:
        raise TooBig()
    ways, flat = _compiled(problem, nodes, length, label, nlabels)
    nrows = len(flat) // nlabels
    if not grouped:
        return [(ways[s * length:(s + 1) * length], flat[s * nrows:(s + 1) * nrows]) for s in range(nlabels)]
    return [(ways[s * length:(s + 1) * length], _by_variable(problem, flat[s * nrows:(s + 1) * nrows]))
            for s in range(nlabels)]


def _by_variable(problem: Problem, flat: list[list[int]]) -> list[list[list[int]]]:
    """The compiled search's rows, one list per kind of cell, grouped by variable."""
    rows = problem.memo["compiled"][-1]
    return [flat[rows[i]:rows[i + 1]] for i in range(len(problem.variables))]


def _compiled(problem: Problem, nodes: int, length: int, label: int = -1,
              nlabels: int = 1) -> tuple[list[int], list[list[int]]]:
    """:func:`search` in C: the same values tried in the same order, so the same
    tallies and the same node budget: ``ways`` and one row per kind of cell (with a
    ``label``, see :func:`search_by_label`, every label value's block in turn)."""
    variables = problem.variables
    arrays = problem.memo.get("compiled")  # the variables as arrays: shared by retargeted problems
    if arrays is None:
        group, size = array("i"), array("i")
        starts, clues = array("i", [0]), array("i")
        options, mines, adds, kinds = array("i", [0]), array("i"), array("i"), array("i")
        rows = array("i", [0])
        for v in variables:
            group.append(v.group)
            size.append(v.size)
            clues.extend(v.clues)
            starts.append(len(clues))
            if not v.group:  # a chain: its two options spelled out
                for o in v.options:
                    mines.append(o.mines)
                    adds.extend(o.adds)
                    kinds.extend(o.kind_mines)
            options.append(len(mines))
            rows.append(rows[-1] + len(v.kinds))
        arrays = problem.memo["compiled"] = (group, size, starts, clues, options, mines, adds, kinds, rows)
    group, size, starts, clues, options, mines, adds, kinds, rows = arrays
    out = _search.search(group, size, starts, clues, array("i", problem.targets), options, mines, adds, kinds, rows,
                         nodes, length, label, nlabels)
    if out is None:
        raise TooBig()
    return out
