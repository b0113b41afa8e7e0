"""Pseudo-50/50s: cells whose only danger is a guess the game will force anyway.

Two covered cells side by side, one of them a mine, are a *dead pair* when every
cell that touches exactly one of them is a mine (or off the board): then the two
layouts that differ by swapping them show the same number on every safe cell and
have the same mine total, so no click and no deduction can ever tell them apart,
and one of the two must be guessed at even odds (:func:`mscsp.play.dead.dead_pair`
states the same on a layout). A 2x2 block with its mines on one diagonal is a
*dead square* the same way when its four diagonal neighbours are mines
(:func:`mscsp.play.dead.dead_square`).

A covered cell ``t`` is a *pseudo-50/50* when, in every layout where ``t`` is a
mine, it is the mine side of one such structure: the same pair or block, with the
same cells around it mines. Where the structure is not yet visible, the position
still implies it. Its layouts then come in swapped twins of equal number, so a
player loses at least ``P(t is a mine)`` on them whatever they do, and guessing
``t`` risks exactly that. Taking the guess now spends no risk that is not already
committed, and the number it shows (when ``t`` is safe) helps the rest of the
board at once. David Hill's JSMinesweeper solver calls these "pseudo-50/50s" and
plays them before any other guess (its ``LongTermRiskHelper``); the test here is
exact: with ``t`` flagged, the engine's exact probabilities must put a mine on every
other mine and wall of the structure and none on its safe side.

Examples
--------
>>> from mscsp.analysis import Survey
>>> from mscsp.position import parse_position
>>> pos = parse_position("mines: 3\\n01..\\n12..\\n..2.\\n")
>>> pseudo_fifties(Survey(pos))
[(3, 0)]

[3,0] is a mine in one layout in five, and in each of them [2,1] and [1,2] are mines
and [2,0] and [3,1] safe: the block of [2,0], [3,0], [2,1], [3,1] with its mines on a
diagonal, walled at its one open corner by [1,2]; its twin, mines on the other
diagonal, shows every number the same. Guessing [3,0] risks one in five, the risk
those twin layouts already hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from ..analysis import Survey
from ..board import NEIGHBOUR_OFFSETS
from ..errors import InputError
from ..position import Mark

__all__ = ["pseudo_fifties", "fifty_influence", "INFLUENCE_SCALE", "PATTERNS", "MAX_MISSING"]

def _structure(mines: tuple[tuple[int, int], ...], safes: tuple[tuple[int, int], ...]):
    """A structure as offsets from its first cell: its mine side, its safe side, and
    its walls, the cells that touch the two sides unequally (only they would show a
    different number were the sides swapped, so each must be a mine)."""
    inside = set(mines) | set(safes)
    around = {(x + dx, y + dy) for x, y in inside for dx, dy in NEIGHBOUR_OFFSETS} - inside

    def touching(cell: tuple[int, int], side: tuple[tuple[int, int], ...]) -> int:
        return sum((cell[0] - x, cell[1] - y) in NEIGHBOUR_OFFSETS for x, y in side)

    walls = tuple(sorted(c for c in around if touching(c, mines) != touching(c, safes)))
    return mines, safes, walls


#: The structures looked for: a pair side by side (either cell the mine, both ways
#: round) and a 2x2 block with its mines on either diagonal.
PATTERNS = tuple(_structure(m, s) for m, s in (
    (((0, 0),), ((1, 0),)),
    (((1, 0),), ((0, 0),)),
    (((0, 0),), ((0, 1),)),
    (((0, 1),), ((0, 0),)),
    (((0, 0), (1, 1)), ((1, 0), (0, 1))),
    (((1, 0), (0, 1)), ((0, 0), (1, 1))),
))

#: Every way to lay a structure over a cell ``t`` on its mine side: the offsets from
#: ``t`` of its mines, its safe cells and its walls.
PLACEMENTS = tuple(
    tuple(tuple((dx - ox, dy - oy) for dx, dy in part) for part in (mines, safes, walls))
    for mines, safes, walls in PATTERNS for ox, oy in mines)

_UNDECIDED, _MINE, _BLOCKED = 0, 1, 2  # what a cell can be in a structure
_UNREAD = 3  # a covered cell whose state is not yet read
_COVERED, _FLAG, _HOLE = int(Mark.COVERED), int(Mark.FLAG), int(Mark.HOLE)

#: A structure needing more than this many walls that are not yet proven mines is
#: not counted (each count is a full one; such structures almost never qualify).
MAX_MISSING = 3


def pseudo_fifties(survey: Survey) -> list[tuple[int, int]]:
    """The covered cells that are mines only as the mine side of a dead pair or square.

    Parameters
    ----------
    survey : Survey
        The position, counted exactly with its mine total; the counts of each
        structure share its cache, so the parts of the board a structure leaves alone
        are counted once.

    Raises
    ------
    InputError
        Without the mine total or exact counts.

    Returns
    -------
    list of (int, int)
        ``(x, y)`` cells, in row order. Every cell returned qualifies: the layouts with it
        a mine number exactly the layouts with one structure's mines, safe cells and
        walls as that structure needs (one exact count, with it flagged). Some qualifying cells may
        be missed, because a structure is skipped when more than
        :data:`MAX_MISSING` of its walls are not yet proven mines, or when it ties
        cells of different clue components (or cells away from the numbers) while
        the cells away from the numbers outnumber the mines left: a mine there can
        then move to any other cell away from the numbers, so no tie holds through
        them, and ties between components through the mine total alone are rare.
    """
    return list(map(survey.position.geometry.coords, _pseudo_fifties(survey)))


def _pseudo_fifties(survey: Survey) -> list[int]:
    """:func:`pseudo_fifties` as flat indices, ascending, for the policies."""
    probs, system = survey.probabilities, survey.system
    if system.remaining is None or probs.layouts is None or not probs.exact:
        raise InputError("pseudo-50/50s need exact counts with the mine total")
    p = probs.by_index
    board = _Board(survey)

    component = survey._component_of
    # Cells away from the numbers are interchangeable: while they outnumber the mines
    # left (``loose`` > 0, discounting the structure's own safe cells among them), a
    # mine on one of them can move to another, so none is tied to t.
    free = set(system.unconstrained)
    loose = len(free) - system.remaining
    # a structure's safe side holds two cells at most, so with more room than that
    # only cells next to the numbers can qualify
    candidates = sorted(c for c in (p if loose <= 2 else component)
                        if c in p and board.state(board.padded(c), c) == _UNDECIDED)

    found: list[int] = []
    given: dict[int, dict | None] = {}  # t -> the probabilities with t a mine
    for t in candidates:
        pt = p[t]
        k = component.get(t)
        for _, mines, safes, missing in board.lay_all(t):
            tied = missing + [m for m in mines if m != t]
            if (k is None or any(component.get(c) != k for c in tied)) and loose - sum(
                    c in free for c in safes) > 0:
                continue
            # necessary: each tied cell at least as likely a mine, each safe one at most 1 - p(t)
            if any(p[c] < pt for c in tied) or any(p[c] > 1 - pt for c in safes):
                continue
            if _implied(survey, t, mines + missing, safes, given):
                found.append(t)
                break
    return found


#: The share of a cell's potential 50/50 layouts credited to clicking it now
#: (:func:`fifty_influence`), as in David Hill's solvers.
INFLUENCE_SCALE = Fraction(9, 10)


def fifty_influence(survey: Survey, cell: tuple[int, int]) -> int:
    """The layouts in which ``cell`` is the mine side of a dead pair or square that the
    position does not yet show: its long-term 50/50 risk, which clicking it now settles.

    The structures are those of :func:`pseudo_fifties`, laid over ``cell`` on its mine
    side, each counted exactly (its mines and not-yet-mine walls mines, its safe side
    safe). As in David Hill's solvers (his ``LongTermRiskHelper``; the idea, not his
    code), the larger of the two pairs is taken across and the larger of the two
    down, and added to the largest square; the sum is capped at the layouts with
    ``cell`` a mine and at those with it safe. In those layouts a guess between twins
    is due sooner or later anyway, so a click on ``cell`` now risks less than its mine
    probability says; a policy credits :data:`INFLUENCE_SCALE` of them to it.

    Parameters
    ----------
    survey : Survey
        The position, counted exactly with its mine total.
    cell : (int, int)
        A covered cell, ``(x, y)``.

    Returns
    -------
    int
        A number of layouts; 0 when no structure can be laid over ``cell`` with at most
        :data:`MAX_MISSING` walls still to be mines.

    Raises
    ------
    InputError
        Without the mine total or exact counts, or when ``cell`` is not covered.

    Examples
    --------
    >>> from mscsp.analysis import Survey
    >>> from mscsp.position import parse_position
    >>> survey = Survey(parse_position("mines: 3\\n...\\n...\\n..1\\n"))
    >>> survey.probabilities.layouts, fifty_influence(survey, (0, 0))
    (30, 2)

    The corner [0,0] is the mine of a dead pair with [1,0] beside it when [2,0] and
    [2,1] are mines (the 1's mine is then [2,1]: one layout), and of one with [0,1]
    below it when [0,2] and [1,2] are (one layout): two of the 30 layouts.
    """
    return _fifty_influence(survey, survey.position.geometry.cell(cell))


def _fifty_influence(survey: Survey, cell: int) -> int:
    """:func:`fifty_influence` by flat index."""
    return _fifty_influences(survey, [cell])[0]


def _fifty_influences(survey: Survey, cells: list[int]) -> list[int]:
    """:func:`fifty_influence` of each flat cell of ``cells``, for the policies: the
    board's structure states are read once for them all."""
    probs = survey.probabilities
    if survey.system.remaining is None or probs.layouts is None or not probs.exact:
        raise InputError("the 50/50 influence needs exact counts with the mine total")
    board = _Board(survey)
    out = []
    for cell in cells:
        if cell not in probs.by_index:
            raise InputError(f"cell {list(survey.position.geometry.coords(cell))} is not a covered cell of the position")
        across = down = square = 0
        for kind, mines, safes, missing in board.lay_all(cell):
            n = survey._layouts_with(mines + missing, safes)
            if kind == _SQUARE:
                square = max(square, n)
            elif kind == _ACROSS:
                across = max(across, n)
            else:
                down = max(down, n)
        mine = probs.layouts * probs.by_index[cell]
        out.append(int(min(across + down + square, mine, probs.layouts - mine)))
    return out


#: The kinds of structure of a placement, for :func:`fifty_influence`.
_ACROSS, _DOWN, _SQUARE = 0, 1, 2

#: How far a placement reaches from its cell ``t``: a square's walls lie up to two
#: cells away.
_REACH = 2


class _Board:
    """What each cell of a position can be in a structure: undecided, a wall that is
    already a mine, or neither (a number, a proven safe cell: no structure there), on
    the board widened by :data:`_REACH` cells of wall all round, so that a placement
    is a set of fixed flat offsets with no bounds to check (off the board and in a
    hole a cell is a wall, as a mine is, and never undecided). A covered cell's state
    is read from its probability when a structure first looks at it: most cells of
    a board never are."""

    __slots__ = ("states", "width", "offsets", "_by_index", "_by_value")

    def __init__(self, survey: Survey):
        g = survey.position.geometry
        w, h = g.width, g.height
        wide = self.width = w + 2 * _REACH
        grid = survey._grid
        states = [_MINE] * (wide * (h + 2 * _REACH))
        for y in range(h):
            at = (y + _REACH) * wide + _REACH
            states[at:at + w] = [_UNREAD if v == _COVERED else _MINE if v == _FLAG or v == _HOLE else _BLOCKED
                                 for v in grid[y * w:(y + 1) * w]]
        self.states = states
        self.offsets = _offsets(w)
        self._by_index = survey.probabilities.by_index
        self._by_value: dict[int, int] = {}  # the cells of a group share one Fraction: read once

    def padded(self, cell: int) -> int:
        """A flat cell's index on the widened board."""
        w = self.width - 2 * _REACH
        return (cell // w + _REACH) * self.width + cell % w + _REACH

    def state(self, at: int, cell: int) -> int:
        """The state of ``cell``, at ``at`` on the widened board."""
        s = self.states[at]
        if s == _UNREAD:
            q = self._by_index.get(cell)
            if q is None:
                s = _BLOCKED
            else:
                s = self._by_value.get(id(q))
                if s is None:
                    s = self._by_value[id(q)] = _MINE if q == 1 else (_UNDECIDED if q else _BLOCKED)
            self.states[at] = s
        return s

    def lay_all(self, t: int) -> Iterator[tuple[int, list[int], list[int], list[int]]]:
        """Each placement of :data:`PLACEMENTS` that can be laid over ``t`` on its mine
        side, in their order, as ``(kind, mines, safes, missing)`` (flat indices;
        ``missing``: the walls not yet mines). A placement is passed over when a cell
        of either side is not undecided, a wall is open or proven safe, or more than
        :data:`MAX_MISSING` walls are not yet mines."""
        states, state = self.states, self.state
        at = self.padded(t)
        for kind, nmines, inside, walls in self.offsets:
            for wide, narrow in inside:
                s = states[at + wide]
                if s != _UNDECIDED and (s != _UNREAD or state(at + wide, t + narrow) != _UNDECIDED):
                    break
            else:
                missing: list[int] = []
                for wide, narrow in walls:
                    s = states[at + wide]
                    if s == _UNREAD:
                        s = state(at + wide, t + narrow)
                    if s == _MINE:
                        continue
                    if s == _BLOCKED or len(missing) == MAX_MISSING:
                        break
                    missing.append(t + narrow)
                else:
                    cells = [t + narrow for _, narrow in inside]
                    yield kind, cells[:nmines], cells[nmines:], missing


@lru_cache(maxsize=None)
def _offsets(width: int) -> tuple:
    """:data:`PLACEMENTS` as flat offsets on a board ``width`` cells wide: per placement
    its kind, its number of mines, and its cells (mine side, then safe side) and its
    walls as ``(offset on the widened board, offset on the board)`` pairs."""
    wide = width + 2 * _REACH
    out = []
    for mines, safes, walls in PLACEMENTS:
        kind = _SQUARE if len(mines) == 2 else _ACROSS if safes[0][1] == 0 else _DOWN
        out.append((kind, len(mines), tuple((ry * wide + rx, ry * width + rx) for rx, ry in mines + safes),
                    tuple((ry * wide + rx, ry * width + rx) for rx, ry in walls)))
    return tuple(out)


def _implied(survey: Survey, t: int, mines: list[int], safes: list[int], given: dict) -> bool:
    """Whether every layout with ``t`` a mine has ``mines`` mines and ``safes`` safe.

    That is the test of the module's docstring, layouts with the structure equal to
    layouts with ``t`` a mine, asked of one count: with ``t`` flagged, each cell of
    ``mines`` must be a mine with probability 1 and each of ``safes`` with 0. The
    count with ``t`` flagged serves every structure tried for ``t`` (``given``
    keeps it); where it is not exact the two counts are compared instead.
    """
    if t not in given:
        probs = survey._flagged_index([t]).probabilities
        given[t] = probs.by_index if probs.exact else None
    cells = given[t]
    if cells is None:
        return survey._layouts_with(mines, safes) == survey.probabilities.layouts * survey.probabilities.by_index[t]
    return all(c == t or cells[c] == 1 for c in mines) and all(cells[c] == 0 for c in safes)

