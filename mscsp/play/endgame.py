"""The end of a game played exactly: expectimax over every consistent layout.

When few layouts of the covered cells are consistent with what the player sees
(the numbers, the proven mines and the mine total), they can be listed, and the
best strategy from there computed exactly by the memoised expectimax search of
:mod:`mscsp.play.optimum`: the win probability of a move is the share of layouts
it wins, a guess is worth the sum over the numbers it can show, and cells safe in
every remaining layout are opened for free. The move chosen is therefore optimal
from this position on, which the heuristic rungs of :mod:`mscsp.play.policies`
are not; JSMinesweeper's solver does the same with a brute-force search once few
solutions remain.

The layouts are listed from the clue equations (:mod:`mscsp.constraints`) by
backtracking over the cells next to a number, each completed frontier assignment
spread over the cells away from the numbers in every way the mine total allows;
all of them are equally likely.

Examples
--------
>>> from mscsp.position import parse_position
>>> end = solve_endgame(parse_position("mines: 1\\n.1..\\n"))
>>> end.layouts, end.wins, end.position.geometry.coords(end.cell)
(2, 2, (3, 0))

The mine is beside the 1, so [3,0] is safe; opened, it shows 1 when the mine is
next to it and 0 when it is not, so both layouts are won.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from ..constraints import build_constraints
from ..errors import BudgetExceeded, InconsistentError, InputError, Resource
from ..position import Mark, Position
from .optimum import Search

__all__ = ["Endgame", "ENDGAME_LAYOUTS", "ENDGAME_NODES", "list_layouts", "solve_endgame"]

#: Layouts at most for which a policy solves the rest of the game exactly.
ENDGAME_LAYOUTS = 400
#: Knowledge states the exact search may visit for one move (a budget that gives the
#: same moves on every machine, which a time limit would not).
ENDGAME_NODES = 5000


@dataclass(frozen=True)
class Endgame:
    """The optimal move from a position, with the exact win probability it gives.

    Attributes
    ----------
    position : Position
    cell : int
        Flat index of the move: a cell safe in every layout if there is one,
        otherwise the optimal guess (the safest of the optimal ones, then row order).
    layouts : int
        Layouts consistent with the position, all equally likely.
    wins : int
        How many of them the optimal strategy wins from here.
    states : int
        Knowledge states searched.
    """

    position: Position
    cell: int
    layouts: int
    wins: int
    states: int

    @property
    def probability(self) -> Fraction:
        """The optimal win probability from the position."""
        return Fraction(self.wins, self.layouts)


def list_layouts(position: Position, limit: int = ENDGAME_LAYOUTS) -> tuple[tuple[int, ...], np.ndarray]:
    """Every layout of the covered cells consistent with ``position``.

    Returns ``(cells, mines)``: the covered unflagged cells (ascending) and a
    ``(layouts, len(cells))`` boolean array, one row per layout, rows in a fixed
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
    >>> cells, mines = list_layouts(parse_position("mines: 1\\n.1.\\n"))
    >>> cells, mines.astype(int).tolist()
    ((0, 2), [[0, 1], [1, 0]])
    """
    if position.mines is None:
        raise InputError("listing layouts needs the mine total")
    system = build_constraints(position)
    cells = system.covered
    column = {c: j for j, c in enumerate(cells)}
    frontier = list(system.frontier)
    free = [column[c] for c in system.unconstrained]
    remaining = system.remaining
    constraints = system.constraints
    on_cell = system.by_cell
    need = [con.count for con in constraints]
    left = [len(con.cells) for con in constraints]
    rows: list[np.ndarray] = []
    assigned = np.zeros(len(cells), dtype=bool)

    def emit(mines_used: int) -> None:
        rest = remaining - mines_used
        if rest < 0 or rest > len(free):
            return
        for chosen in combinations(free, rest):
            if len(rows) >= limit:
                raise BudgetExceeded(f"more than {limit} layouts fit the position", Resource.STATES)
            row = assigned.copy()
            row[list(chosen)] = True
            rows.append(row)

    def place(i: int, mines_used: int) -> None:
        if mines_used > remaining:
            return
        if i == len(frontier):
            emit(mines_used)
            return
        cell = frontier[i]
        for mine in (False, True):
            ok = True
            for k in on_cell[cell]:
                left[k] -= 1
                need[k] -= mine
                ok = ok and 0 <= need[k] <= left[k]
            if ok:
                assigned[column[cell]] = mine
                place(i + 1, mines_used + mine)
                assigned[column[cell]] = False
            for k in on_cell[cell]:
                left[k] += 1
                need[k] += mine

    place(0, 0)
    return cells, np.array(rows, dtype=bool).reshape(len(rows), len(cells))


def solve_endgame(position: Position, *, layout_limit: int = ENDGAME_LAYOUTS,
                  node_limit: int | None = ENDGAME_NODES, time_limit: float | None = None) -> Endgame:
    """The optimal move from ``position`` and its exact win probability.

    Parameters
    ----------
    position : Position
        What the player sees, with the mine total.
    layout_limit : int
        Layouts at most; past them BudgetExceeded (states).
    node_limit : int or None
        Knowledge states the search may visit; past them BudgetExceeded (states).
    time_limit : float or None
        Seconds for the search; past them BudgetExceeded (time).

    Raises
    ------
    InconsistentError
        When no layout fits the position.
    InputError
        When the mine total is unknown, or no covered cell is safe in any layout.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    cells, mines = list_layouts(position, layout_limit)
    if not len(mines):
        raise InconsistentError("no layout satisfies the clues together with the mine total", (),
                                uses_total=True)
    g = position.geometry
    column = {c: j for j, c in enumerate(cells)}
    flags = position.grid == Mark.FLAG
    numbers = np.zeros(mines.shape, dtype=np.int8)
    for j, c in enumerate(cells):
        around = g.neighbours(c)
        cols = [column[n] for n in around if n in column]
        numbers[:, j] = int(flags[list(around)].sum()) + (mines[:, cols].sum(axis=1) if cols else 0)
    search = Search(mines, numbers, deadline=deadline, node_limit=node_limit)
    everything = np.arange(len(mines))
    covered, mine_count = search.covered(everything, ())
    if search.safe_total == 0:
        raise InputError("no covered cell can be clicked: every one is a mine")
    safe = covered[mine_count == 0]
    if safe.size:  # deduction left something: opening it loses nothing
        cell = int(safe[0])
        wins, _ = search.sum_parts(everything, (), cell, None, -1)
    else:
        wins, _, cell = search.best_guess(everything, (), covered, mine_count)
    return Endgame(position, cells[cell], len(mines), wins, len(search.memo))
