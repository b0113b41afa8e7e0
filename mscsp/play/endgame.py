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

The layouts are listed by the analysis (:func:`mscsp.analysis.list_layouts`, or
:func:`mscsp.analysis.list_walled` for a walled-off set): all of them are equally
likely when the mine total is known.

Examples
--------
>>> from mscsp.position import parse_position
>>> end = solve_endgame(parse_position("mines: 1\\n.1..\\n"))
>>> end.layouts, end.wins, end.cell
(2, 2, (3, 0))

The mine is beside the 1, so [3,0] is safe; opened, it shows 1 when the mine is
next to it and 0 when it is not, so both layouts are won.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..analysis import Survey, list_layouts, list_walled
from ..errors import BudgetExceeded, InconsistentError, InputError, Resource
from ..position import Mark, Position
from .optimum import SmallSearch, out_of

try:  # the same search compiled (_endgame.c), built where a C compiler is found
    from . import _endgame
except ImportError:  # pragma: no cover - a build without a C compiler
    _endgame = None

#: Whether the compiled search (``_endgame.c``) was built; without it the endgame is
#: searched in Python, with the same moves.
COMPILED = _endgame is not None

__all__ = ["COMPILED", "DEEP_LAYOUTS", "DEEP_NODES", "Endgame", "ENDGAME_DENSITY", "ENDGAME_LAYOUTS", "ENDGAME_NODES",
           "click_wins", "solve_endgame", "solve_from", "solve_walled"]

#: Layouts at most for which a policy solves the rest of the game exactly (David
#: Hill's solvers start their exact search below 1,000 solutions too): it narrows the
#: small boards' gaps to the optimum (see docs/decisions.md, "Endgame from 1,000 layouts").
ENDGAME_LAYOUTS = 1000
#: Knowledge states the exact search may visit for one move (a budget that gives the
#: same moves on every machine, which a time limit would not); positions of a few hundred
#: layouts over twenty covered cells, on the small boards, need 20,000 to 170,000 (see
#: docs/decisions.md, "Endgame state budget: 50,000").
ENDGAME_NODES = 50000
#: The bound of David Hill's density rule: his solvers also search exactly when
#: ``layouts * density**3`` is at most this, ``density`` the share of safe cells among
#: those left (here the undecided cells), so late positions with few safe cells (small trees) are searched
#: from more layouts. The policies apply it only when asked (``endgame_density`` of
#: :func:`mscsp.play.policies.move`; see docs/decisions.md, "Hill's density trigger
#: for the endgame").
ENDGAME_DENSITY = 250
#: Layouts at most for which the ``+deep`` rung (:mod:`mscsp.play.policies`) solves the
#: rest of the game exactly: a stronger player for more CPU a game, the default top
#: rung ``+endgame`` keeping :data:`ENDGAME_LAYOUTS` (see docs/decisions.md, "A deeper
#: endgame rung: +deep").
DEEP_LAYOUTS = 5000
#: Knowledge states the ``+deep`` rung's search may visit for one move; cut off, it still
#: plays a move the search proved better than the heuristic's (:func:`solve_from`).
DEEP_NODES = 1_000_000


@dataclass(frozen=True)
class Endgame:
    """The optimal move from a position, with the exact win probability it gives.

    Attributes
    ----------
    position : Position
    cell : (int, int)
        The move, ``(x, y)``: a cell safe in every layout if there is one,
        otherwise the optimal guess (the safest of the optimal ones, then row order).
    layouts : int
        Layouts consistent with the position, all equally likely.
    wins : int
        How many of them the optimal strategy wins from here.
    states : int
        Knowledge states searched.
    complete : bool
        Whether the search finished; when it did not (:func:`solve_from`), ``cell`` is
        a move proven better than the one weighed first, ``wins`` what it wins with
        optimal play after, which the optimum may exceed.
    """

    position: Position
    cell: tuple[int, int]
    layouts: int
    wins: int
    states: int
    complete: bool = True

    @property
    def cell_index(self) -> int:
        """:attr:`cell` as a flat index ``y * width + x``, for the play loops."""
        x, y = self.cell
        return y * self.position.geometry.width + x

    @property
    def probability(self) -> Fraction:
        """The optimal win probability from the position."""
        return Fraction(self.wins, self.layouts)


def solve_endgame(position: Position, *, layout_limit: int = ENDGAME_LAYOUTS,
                  node_limit: int | None = ENDGAME_NODES, time_limit: float | None = None,
                  survey: Survey | None = None) -> Endgame:
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
    survey : Survey, optional
        The position's survey, when the caller has one: the layouts are listed from
        its equations, not from equations built again.

    Raises
    ------
    InconsistentError
        When no layout fits the position.
    InputError
        When the mine total is unknown, or no covered cell is safe in any layout.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    cells, mines = list_layouts(position, limit=layout_limit, system=_system(survey))
    if not len(mines):
        raise InconsistentError("no layout satisfies the clues together with the mine total", (),
                                uses_total=True)
    return _best_move(position, cells, mines, deadline, node_limit)


def solve_from(position: Position, cell: tuple[int, int], *, layout_limit: int = DEEP_LAYOUTS,
               node_limit: int | None = DEEP_NODES, survey: Survey | None = None) -> Endgame | None:
    """The exact search with the guess at ``cell`` weighed first: the optimal move, or,
    cut off, a better one than ``cell`` if the search proved one.

    The guesses are weighed one by one, ``cell`` first and then the others safest first,
    each to its exact win count unless it cannot beat the best so far. When the state
    budget runs out, every guess weighed in full is exact, so one that beat ``cell`` is
    a better move than ``cell`` whatever the rest of the search would have found (David
    Hill's solvers likewise play the best move of an unfinished search when it beats
    the heuristic's).

    Parameters
    ----------
    position : Position
        What the player sees, with the mine total and no covered cell safe in every layout.
    cell : (int, int)
        The move to beat: a covered cell that is not a mine in every layout.
    layout_limit, node_limit : int, int or None
        As for :func:`solve_endgame`.
    survey : Survey, optional
        As for :func:`solve_endgame`.

    Returns
    -------
    Endgame or None
        The optimal move (``complete`` True) when the search finished; cut off, the
        best move it proved better than ``cell`` (``complete`` False), or None when it
        proved none.

    Raises
    ------
    BudgetExceeded
        When more than ``layout_limit`` layouts remain.
    InputError
        When the mine total is unknown, some covered cell is safe in every layout, or
        ``cell`` is not a covered cell that can be safe.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 2\\n.1..\\n....\\n")
    >>> end = solve_from(pos, (1, 1), node_limit=None)
    >>> end.complete, end.cell, end.probability
    (True, (0, 0), Fraction(3, 10))
    >>> end = solve_from(pos, (1, 1), node_limit=40)
    >>> end.complete, end.cell, end.probability
    (False, (0, 0), Fraction(3, 10))
    >>> solve_from(pos, (1, 1), node_limit=20) is None
    True

    [1,1] wins one game in five. Cut off at 40 states, the search has already proved
    that [0,0] wins more (here it is the optimum, which the search did not get to
    prove); at 20 it has proved nothing better, and the caller keeps its move.
    """
    g = position.geometry
    cells, mines = list_layouts(position, limit=layout_limit, system=_system(survey))
    cells = tuple(cells)
    if not len(mines):
        raise InconsistentError("no layout satisfies the clues together with the mine total", (),
                                uses_total=True)
    first = g.cell(cell, "cell")
    column = cells.index(first) if first in cells else -1
    if column < 0 or mines[:, column].all():
        raise InputError(f"cell {cell} cannot be safe: it is not covered, or a mine in every layout")
    if not mines.any(axis=0).all():
        raise InputError("some covered cell is safe in every layout: open it")
    numbers = _numbers(position, cells, mines)
    found, wins, states, complete = _search_first(mines, numbers, node_limit, column)
    if found is None or (not complete and found == column):
        return None
    return Endgame(position, g.coords(cells[found]), len(mines), wins, states, complete)


def solve_walled(position: Position, cells: tuple[tuple[int, int], ...] | list[tuple[int, int]], *,
                 layout_limit: int = ENDGAME_LAYOUTS, node_limit: int | None = ENDGAME_NODES,
                 survey: Survey | None = None) -> Endgame:
    """The optimal play inside a walled-off set of undecided cells.

    ``cells``, as ``(x, y)``, must be a set that :func:`mscsp.play.policies.unavoidable` returns:
    every covered neighbour of its cells outside it is a proven mine, no clue
    touches both it and another undecided cell, and it holds the same number of
    mines in every layout. Its layouts are then equally likely whatever happens
    elsewhere, and what its cells show depends on them alone, so the set is a game
    of its own: the rest of the board neither helps nor is helped by it, and the
    whole game is won with the product of the two win probabilities. The move is
    the exact optimum of that small game (JSMinesweeper's solver plays an
    isolated edge by brute force in the same way); ``layouts`` and ``wins`` count
    the set's own layouts. With ``survey``, the position's survey, the set's clues
    are read from its equations, not from equations built again.

    Raises
    ------
    BudgetExceeded
        When the set has more than ``layout_limit`` layouts, or the search needs
        more than ``node_limit`` knowledge states.
    InconsistentError
        When no layout of the set fits its clues.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> end = solve_walled(parse_position("mines: 1\\n1.\\n1.\\n"), [(1, 0), (1, 1)])
    >>> end.layouts, end.wins
    (2, 1)

    Two cells, one mine, and nothing that could ever tell them apart: a coin toss.
    """
    return _solve_walled(position, [position.geometry.cell(c) for c in cells], layout_limit=layout_limit,
                         node_limit=node_limit, survey=survey)


def _solve_walled(position: Position, cells: tuple[int, ...] | list[int], *, layout_limit: int = ENDGAME_LAYOUTS,
                  node_limit: int | None = ENDGAME_NODES, survey: Survey | None = None) -> Endgame:
    """:func:`solve_walled` with the set's cells as flat indices, for the policies."""
    inside = tuple(sorted(set(cells)))
    rows = list_walled(position, inside, limit=layout_limit, system=_system(survey))
    return _best_move(position, inside, rows, None, node_limit)


def click_wins(position: Position, walled: tuple[tuple[int, int], ...] | list[tuple[int, int]] | None = None, *,
               layout_limit: int = ENDGAME_LAYOUTS, node_limit: int | None = ENDGAME_NODES,
               time_limit: float | None = None, survey: Survey | None = None) -> dict[tuple[int, int], Fraction]:
    """The exact win probability of clicking each cell now and playing optimally after.

    A click on a cell safe in some layouts either loses (it is a mine) or shows a
    number; the layouts that show each number are a smaller endgame, solved exactly
    by the same search as :func:`solve_endgame`. The win probability of the click is
    the share of all layouts those endgames win, so the best of them is the
    endgame's own (``solve_endgame(position).probability``).

    Parameters
    ----------
    position : Position
        What the player sees, with the mine total.
    walled : sequence of (int, int), optional
        A walled-off set (as for :func:`solve_walled`): only its cells are weighed,
        and the probabilities are those of winning the set's own game.
    layout_limit, node_limit : int, int or None
        As for :func:`solve_endgame`; the state budget holds for each number's search.
    time_limit : float or None
        Seconds for all the searches; cells not reached in time are left out.
    survey : Survey, optional
        The position's survey, when the caller has one: the layouts are listed from
        its equations, not from equations built again.

    Returns
    -------
    dict
        ``(x, y)`` -> win probability (a Fraction), for every covered cell that is not
        a mine in every layout, except those whose search ran out of states or time.

    Raises
    ------
    BudgetExceeded
        When more than ``layout_limit`` layouts remain.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> click_wins(parse_position("mines: 1\\n.1..\\n"))
    {(0, 0): Fraction(1, 2), (2, 0): Fraction(1, 2), (3, 0): Fraction(1, 1)}

    Opening [3,0] first tells where the mine is; a guess beside the 1 wins half the time.
    """
    g = position.geometry
    walled = None if walled is None else [g.cell(c) for c in walled]
    wins = _click_wins(position, walled, layout_limit=layout_limit, node_limit=node_limit, time_limit=time_limit,
                       survey=survey)
    return {g.coords(c): p for c, p in wins.items()}


def _click_wins(position: Position, walled: tuple[int, ...] | list[int] | None = None, *,
                layout_limit: int = ENDGAME_LAYOUTS, node_limit: int | None = ENDGAME_NODES,
                time_limit: float | None = None, survey: Survey | None = None) -> dict[int, Fraction]:
    """:func:`click_wins` in flat indices, for the policies."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    if walled is None:
        cells, mines = list_layouts(position, limit=layout_limit, system=_system(survey))
        cells = tuple(cells)
        if not len(mines):
            raise InconsistentError("no layout satisfies the clues together with the mine total", (),
                                    uses_total=True)
    else:
        cells = tuple(sorted(set(walled)))
        mines = list_walled(position, cells, limit=layout_limit, system=_system(survey))
    numbers = _numbers(position, cells, mines)
    total = len(mines)
    wins: dict[int, Fraction] = {}
    for j, c in enumerate(cells):
        safe = mines[:, j] == 0
        won = 0
        try:
            for v in np.unique(numbers[safe, j]).tolist():
                rows = safe & (numbers[:, j] == v)
                # the click's own column stays: safe in every row, it is opened for free
                won += _search(mines[rows], numbers[rows], deadline, node_limit)[1] if rows.sum() > 1 else 1
        except BudgetExceeded:
            if deadline is not None and time.perf_counter() >= deadline:
                break  # out of time: the cells after it are not reached either
            continue  # out of states for this cell only
        if safe.any():
            wins[c] = Fraction(won, total)
    return wins


def _search_first(mines: np.ndarray, numbers: np.ndarray, node_limit: int | None,
                  first: int) -> tuple[int | None, int, int, bool]:
    """The root's guesses searched column ``first`` first, the others safest first (no
    column is safe in every layout): ``(column, wins, states, complete)``, the column
    the best guess fully searched (None when none was), compiled when built."""
    if _endgame is not None:
        status, column, wins, states = _endgame.best_move(
            np.ascontiguousarray(mines, dtype=np.uint8).tobytes(), np.ascontiguousarray(numbers, dtype=np.uint8).tobytes(),
            len(mines), mines.shape[1], -1 if node_limit is None else node_limit, -1.0, first)
        return (None if column < 0 else column), wins, states, status == 0
    search = SmallSearch(mines, numbers, node_limit=node_limit)
    everything = search.everything()
    covered, mine_count = search.covered(everything, ())
    order = sorted(range(len(covered)), key=mine_count.__getitem__)  # stable: safest, then leftmost
    order.remove(covered.index(first))
    total, value, best = search.count(everything), 0, None
    # the compiled root loop (best_guess) with ``first`` moved to the front
    for t, i in enumerate([covered.index(first)] + order):
        if total - mine_count[i] <= value:  # a guess wins at most where it is safe
            if t == 0:
                continue
            break  # so does every cell after this one
        try:
            won, done = search.sum_parts(everything, (), covered[i], None, value)
        except BudgetExceeded:
            return best, value, len(search.memo), False
        if done:
            value, best = won, covered[i]
    return best, value, len(search.memo), True


def _system(survey: Survey | None):
    """The equations of a survey's position, or None (then the listing builds them)."""
    return None if survey is None else survey.system


def _numbers(position: Position, cells: tuple[int, ...], mines: np.ndarray) -> np.ndarray:
    """The number each of ``cells`` shows in each layout of ``mines`` (rows)."""
    g = position.geometry
    column = {c: j for j, c in enumerate(cells)}
    # a flag, or a covered cell left out of ``cells`` (a proven mine), is a mine in every layout
    fixed = (position.grid == Mark.FLAG) | (position.grid == Mark.COVERED)
    fixed[list(cells)] = False
    numbers = np.zeros(mines.shape, dtype=np.int8)
    for j, c in enumerate(cells):
        around = g.neighbours(c)
        cols = [column[n] for n in around if n in column]
        numbers[:, j] = int(fixed[list(around)].sum()) + (mines[:, cols].sum(axis=1) if cols else 0)
    return numbers


def _best_move(position: Position, cells: tuple[int, ...], mines: np.ndarray, deadline: float | None,
               node_limit: int | None) -> Endgame:
    """The optimal move over the layouts ``mines`` of ``cells`` (rows equally likely):
    a cell safe in all of them if there is one, else the best guess."""
    numbers = _numbers(position, cells, mines)
    if mines[0].sum() == len(cells):  # every layout fills every cell
        raise InputError("no covered cell can be clicked: every one is a mine")
    column, wins, states = _search(mines, numbers, deadline, node_limit)
    return Endgame(position, position.geometry.coords(cells[column]), len(mines), wins, states)


def _search(mines: np.ndarray, numbers: np.ndarray, deadline: float | None,
            node_limit: int | None) -> tuple[int, int, int]:
    """The optimal first column over equally likely layouts, the layouts it wins and the
    states searched (compiled when built); BudgetExceeded past the budgets."""
    if _endgame is not None:
        seconds = -1.0 if deadline is None else max(deadline - time.perf_counter(), 0.0)
        status, column, wins, states = _endgame.best_move(
            np.ascontiguousarray(mines, dtype=np.uint8).tobytes(), np.ascontiguousarray(numbers, dtype=np.uint8).tobytes(),
            len(mines), mines.shape[1], -1 if node_limit is None else node_limit, seconds)
        if status:
            raise out_of(Resource.STATES if status == 1 else Resource.TIME, node_limit)
        return column, wins, states
    search = SmallSearch(mines, numbers, deadline=deadline, node_limit=node_limit)
    everything = search.everything()
    covered, mine_count = search.covered(everything, ())
    safe = [c for c, m in zip(covered, mine_count) if m == 0]
    if safe:  # deduction left something: opening it loses nothing
        column = safe[0]
        wins, _ = search.sum_parts(everything, (), column, None, -1)
    else:
        wins, _, column = search.best_guess(everything, (), covered, mine_count)
    return column, wins, len(search.memo)
