"""Counting, when few layouts are left: every one of them, listed.

An exact endgame (:mod:`mscsp.play.endgame`) needs the layouts themselves, not their
number: when at most a few hundred fit a position they are listed by backtracking over
the cells next to a number, each clue equation kept solvable at every step (the
classic constraint-propagating enumeration; JSMinesweeper's brute-force endgame
lists its solutions the same way), and each completed frontier assignment is spread
over the cells away from the numbers in every way the mine total allows. With the
total known all of them are equally likely. A walled-off set of cells (one whose
other covered neighbours are all proven mines) is listed alone, under its own clues.

Past ``limit`` layouts the listing stops with :class:`~mscsp.errors.BudgetExceeded`:
it never grows beyond what the caller can afford.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np

from ....errors import BudgetExceeded, InconsistentError, InputError, Resource
from ....position import Position
from ...constraints import ConstraintSystem, build_constraints

__all__ = ["list_layouts", "list_walled"]


def list_layouts(position: Position, *, limit: int,
                 system: ConstraintSystem | None = None) -> tuple[tuple[int, ...], np.ndarray]:
    """Every layout of the covered cells consistent with ``position``.

    Returns ``(cells, mines)``: the covered unflagged cells (ascending flat indices)
    and a ``(layouts, len(cells))`` boolean array, one row per layout, rows in a fixed
    order (frontier assignments in backtracking order, then the cells away from the
    numbers in lexicographic order).

    Raises
    ------
    InputError
        When the mine total is unknown (layouts are then not equally likely).
    BudgetExceeded
        When there are more than ``limit`` layouts.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> cells, mines = list_layouts(parse_position("mines: 1\\n.1.\\n"), limit=10)
    >>> cells, mines.astype(int).tolist()
    ((0, 2), [[0, 1], [1, 0]])
    """
    if position.mines is None:
        raise InputError("listing layouts needs the mine total")
    system = build_constraints(position) if system is None else system
    cells = system.covered
    column = {c: j for j, c in enumerate(cells)}
    frontier = list(system.frontier)
    free = [column[c] for c in system.unconstrained]
    remaining = system.remaining
    need = [con.count for con in system.constraints]
    left = [len(con.cells) for con in system.constraints]
    rows: list[np.ndarray] = []
    assigned = np.zeros(len(cells), dtype=bool)
    frontier_columns = [column[c] for c in frontier]
    for mines_at, used in _assignments([system.by_cell[c] for c in frontier], need, left, remaining):
        rest = remaining - used
        if rest > len(free):
            continue
        assigned[frontier_columns] = mines_at
        for chosen in combinations(free, rest):
            if len(rows) >= limit:
                raise BudgetExceeded(f"more than {limit} layouts fit the position", Resource.STATES)
            row = assigned.copy()
            row[list(chosen)] = True
            rows.append(row)
    return cells, np.array(rows, dtype=bool).reshape(len(rows), len(cells))


def list_walled(position: Position, cells: tuple[int, ...] | list[int], *, limit: int,
                system: ConstraintSystem | None = None) -> np.ndarray:
    """Every layout of a walled-off set of cells under its own clues.

    ``cells`` are undecided cells whose other covered neighbours are all proven mines
    (so each clue on them needs its count less those mines). Returns a
    ``(layouts, len(cells))`` boolean array, the cells in ascending order.

    Raises
    ------
    BudgetExceeded
        When there are more than ``limit`` layouts.
    InconsistentError
        When no layout of the set fits its clues.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> list_walled(parse_position("mines: 1\\n1.\\n1.\\n"), (1, 3), limit=10).astype(int).tolist()
    [[0, 1], [1, 0]]
    """
    inside = sorted(set(cells))
    column = {c: j for j, c in enumerate(inside)}
    system = build_constraints(position) if system is None else system
    equations = []
    for con in system.constraints:
        touching = [column[c] for c in con.cells if c in column]
        if touching:  # its other covered cells are proven mines
            equations.append((touching, con.count - (len(con.cells) - len(touching))))
    on_cell: list[list[int]] = [[] for _ in inside]
    for k, (cols, _) in enumerate(equations):
        for j in cols:
            on_cell[j].append(k)
    need = [count for _, count in equations]
    left = [len(cols) for cols, _ in equations]
    rows: list[list[bool]] = []
    for mines_at, _ in _assignments(on_cell, need, left, len(inside)):
        if len(rows) >= limit:
            raise BudgetExceeded(f"more than {limit} layouts fit the walled-off cells", Resource.STATES)
        rows.append(mines_at.copy())
    if not rows:
        raise InconsistentError("no layout of the walled-off cells satisfies their clues", (), uses_total=False)
    return np.array(rows, dtype=bool).reshape(len(rows), len(inside))


def _assignments(on_cell: list[list[int]], need: list[int], left: list[int],
                 cap: int) -> Iterator[tuple[list[bool], int]]:
    """Every way to put mines on slots 0, 1, ... that keeps each equation solvable, by
    backtracking: slot ``i`` is in the equations ``on_cell[i]``, and equation ``k``
    needs ``need[k]`` mines among its ``left[k]`` slots not yet decided. At most
    ``cap`` mines are used. Yields the slots' mines (one list, changed afterwards:
    copy it to keep it) and how many there are; ``need`` and ``left`` are restored
    once the iteration ends."""
    row = [False] * len(on_cell)

    def place(i: int, used: int) -> Iterator[tuple[list[bool], int]]:
        if used > cap:
            return
        if i == len(on_cell):
            yield row, used
            return
        for mine in (False, True):
            ok = True
            for k in on_cell[i]:
                left[k] -= 1
                need[k] -= mine
                ok = ok and 0 <= need[k] <= left[k]
            if ok:
                row[i] = mine
                yield from place(i + 1, used + mine)
                row[i] = False
            for k in on_cell[i]:
                left[k] += 1
                need[k] += mine

    yield from place(0, 0)
