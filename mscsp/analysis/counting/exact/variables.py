"""Counting, stage 2: a component's cells become a few weighted variables.

Two reductions, both exact (the counts they give are the counts of the cells):

- **Groups.** Covered cells touched by exactly the same clues are interchangeable: a
  group of ``n`` cells holding ``j`` mines is one variable with values ``0..n`` and
  weight ``C(n, j)`` (minesweepr's "supercells", JSMinesweeper's "boxes").
- **Chains.** A clue that touches exactly two covered cells and needs one mine says
  that one is the negation of the other. A union–find that tracks parity merges such
  links into one two-valued variable per chain — equivalent-literal substitution, as
  the SAT solver does — so the wires of Kaye-compiled boards and long runs of ``1``
  links cost one variable each. The links then hold by construction and leave the
  clue set; a link that closes an odd cycle stays, and no value satisfies it.

A :class:`Var` has *kinds* of cells that share one mine probability (a group: all its
cells; a chain: the cells that are mines when the chain is "on", and the others) and
*options* (its values), each with a mine count, a weight and what it adds to each
clue it touches. The later stages see only variables, clues and targets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import NamedTuple

from ....budget import CHECK_EVERY, UNLIMITED, Budget
from ...constraints import ConstraintSystem, ParityForest, is_link

__all__ = ["Option", "Var", "Problem", "build_problem", "room_after"]


class Option(NamedTuple):
    """One value of a variable.

    Attributes
    ----------
    mines : int
        Mines among the variable's cells.
    weight : int
        Assignments of the cells that realise it (``C(n, j)`` for a group, 1 for a chain).
    adds : tuple of int
        Mines it puts under each of the variable's clues, aligned with :attr:`Var.clues`.
    kind_mines : tuple of int
        Mines among the cells of each kind, aligned with :attr:`Var.kinds`.
    """

    mines: int
    weight: int
    adds: tuple[int, ...]
    kind_mines: tuple[int, ...]


class Var(NamedTuple):
    """A group of interchangeable cells (``group`` True: its value is its mine count,
    added to each of its clues), or a chain of linked ones. Built by :func:`build_problem`."""

    kinds: tuple[tuple[int, ...], ...]
    clues: tuple[int, ...]
    options: tuple[Option, ...]
    size: int
    first_cell: int
    group: bool


@dataclass(frozen=True)
class Problem:
    """A component as weighted variables over clue equations.

    ``targets[c]`` mines must fall under local clue ``c``, which is
    ``system.constraints[constraint_ids[c]]``, the number at cell ``clue_cells[c]``.
    Variables come in the order of their first cell.
    """

    variables: tuple[Var, ...]
    targets: tuple[int, ...]
    constraint_ids: tuple[int, ...]
    clue_cells: tuple[int, ...] = ()
    ncells: int = field(init=False)
    #: what later stages derive from the variables alone, kept for the problems that
    #: share them (see :meth:`retargeted`)
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ncells", sum(v.size for v in self.variables))

    def retargeted(self, system: ConstraintSystem, template: ConstraintSystem,
                   component: tuple[int, ...]) -> "Problem | None":
        """This problem of ``component``, built from ``template``'s equations, for
        ``system``'s: the same variables with ``system``'s counts, when the
        component's equations are on the same cells in both and the same of them are
        links (so :func:`build_problem` would build the same variables); None
        otherwise.

        The numbers one cell can show give such systems: a look-ahead counts each.
        """
        new, old = system.constraints, template.constraints
        if len(new) != len(old):
            return None
        for e in component:
            a, b = new[e], old[e]
            if a.cells != b.cells or (a.count != b.count and (is_link(a) or is_link(b))):
                return None
        return Problem(self.variables, tuple(new[e].count for e in self.constraint_ids), self.constraint_ids,
                       self.clue_cells, self.memo)

    def clue_members(self) -> list[list[int]]:
        """For each clue, the variables that touch it."""
        members: list[list[int]] = [[] for _ in self.targets]
        for vi, var in enumerate(self.variables):
            for c in var.clues:
                members[c].append(vi)
        return members


@lru_cache(maxsize=None)
def _group_options(n: int, width: int) -> tuple[Option, ...]:
    return tuple(Option(j, comb(n, j), (j,) * width, (j,)) for j in range(n + 1))


def _group(cells: tuple[int, ...], clues: tuple[int, ...]) -> Var:
    return Var((cells,), clues, _group_options(len(cells), len(clues)), len(cells), cells[0], True)


def build_problem(system: ConstraintSystem, component: tuple[int, ...], *, merge_chains: bool = True,
                  budget: Budget = UNLIMITED) -> Problem:
    """The variables and clue equations of one component (linear in its size).

    Raises
    ------
    BudgetExceeded
        When ``budget``'s deadline passes first (a component of a million cells
        takes seconds).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> s = build_constraints(parse_position(".1.1.\\n"))  # two links: [0,0] = [4,0] = not [2,0]
    >>> p = build_problem(s, s.components[0])
    >>> [(v.kinds, [o.mines for o in v.options]) for v in p.variables], p.targets
    ([(((0, 4), (2,)), [1, 2])], ())
    """
    constraints = system.constraints
    cells = system.component_cells(component)
    # only a component of thousands of cells takes long enough to look at the clock
    big = len(cells) + len(component) >= CHECK_EVERY
    if not merge_chains or not any(is_link(constraints[e]) for e in component):
        # no links: groups straight from the system's clue sets
        local = {e: k for k, e in enumerate(component)}
        by_set: dict[tuple[int, ...], list[int]] = {}
        for n, c in enumerate(cells):
            if big and not n % CHECK_EVERY:
                budget.check("building the counting problem")
            by_set.setdefault(tuple(system.by_cell[c]), []).append(c)
        variables = []
        for key, members in by_set.items():
            if big and not len(variables) % CHECK_EVERY:
                budget.check("building the counting problem")
            variables.append(_group(tuple(members), tuple(local[e] for e in key)))
        return Problem(tuple(variables), tuple(constraints[e].count for e in component), tuple(component),
                       tuple(constraints[e].clue for e in component))
    index = {c: i for i, c in enumerate(cells)}
    forest = ParityForest(len(cells))
    kept: list[int] = []
    linked = [False] * len(cells)
    for n, e in enumerate(component):
        if big and not n % CHECK_EVERY:
            budget.check("building the counting problem")
        con = constraints[e]
        if merge_chains and is_link(con):
            a, b = index[con.cells[0]], index[con.cells[1]]
            linked[a] = linked[b] = True
            if forest.union(a, b, True):
                continue  # the chain now says it (or already did)
        kept.append(e)  # an odd cycle of links stays a clue: no value satisfies it
    local = {e: k for k, e in enumerate(kept)}
    targets = tuple(constraints[e].count for e in kept)
    by_cell: dict[int, list[int]] = {}
    for e in kept:
        for c in constraints[e].cells:
            by_cell.setdefault(c, []).append(local[e])

    groups: dict[tuple[int, ...], list[int]] = {}
    chains: dict[int, tuple[list[int], list[int]]] = {}
    for i, c in enumerate(cells):
        if big and not i % CHECK_EVERY:
            budget.check("building the counting problem")
        if linked[i]:
            root, p = forest.find(i)
            chains.setdefault(root, ([], []))[p].append(c)
        else:
            groups.setdefault(tuple(by_cell.get(c, ())), []).append(c)
    variables = []
    for key, members in groups.items():
        if big and not len(variables) % CHECK_EVERY:
            budget.check("building the counting problem")
        variables.append(_group(tuple(members), key))
    for on, off in chains.values():
        # "on": the root's side holds the mines; "off": the other side does
        adds: dict[int, list[int]] = {}
        for side, members in ((0, on), (1, off)):
            for c in members:
                for k in by_cell.get(c, ()):
                    adds.setdefault(k, [0, 0])[side] += 1
        clues = tuple(sorted(adds))
        kinds = (tuple(on), tuple(off))
        variables.append(Var(kinds, clues, (
            Option(len(off), 1, tuple(adds[k][1] for k in clues), (0, len(off))),
            Option(len(on), 1, tuple(adds[k][0] for k in clues), (len(on), 0)),
        ), len(on) + len(off), min(on[0], off[0]), False))
    variables.sort(key=lambda v: v.first_cell)
    return Problem(tuple(variables), targets, tuple(kept), tuple(constraints[e].clue for e in kept))


def room_after(problem: Problem, order, budget: Budget = UNLIMITED) -> list[list[tuple[int, int]]]:
    """For each step of ``order``, aligned with its variable's clues: the least and the
    most the variables after it can still add to each clue (linear in the component).

    A clue's partial sum after the step must lie between its target minus the most
    and its target minus the least: the range both the search and the dynamic
    programme keep every state in.
    """
    lo = [0] * len(problem.targets)
    hi = [0] * len(problem.targets)
    variables = problem.variables
    out: list[list[tuple[int, int]]] = [[] for _ in order]
    for i in range(len(order) - 1, -1, -1):
        if not i % CHECK_EVERY:
            budget.check("building the counting plan")
        var = variables[order[i]]
        out[i] = [(lo[c], hi[c]) for c in var.clues]
        for k, c in enumerate(var.clues):
            adds = [o.adds[k] for o in var.options]
            lo[c] += min(adds)
            hi[c] += max(adds)
    return out
