"""Playing a layout with a solver: does it open every safe cell without a guess?

Only this play loop holds the layout. The solver sees the player's position (numbers,
flags, covered cells and, when allowed, the mine total), proves cells, and the loop
opens the proven-safe ones and flags the proven mines, until the board is won or the
solver proves nothing new — in the manner of Simon Tatham's Mines, whose solver gets a
knowledge grid and an ``open`` callback and never reads the mines.

The single-point rules are kept up to date incrementally as cells open (each event
touches only the clues around it); subset reasoning runs when they stall, and the
complete solver only when subset reasoning stalls too. That changes the speed but
not the answer: knowledge only grows, so a sound solver's final set of opened cells
does not depend on the order in which its deductions are applied. The same fact lets
``verify(..., quick=True)`` hand the board to the compiled loop of
:mod:`mscsp.fastplay`, which skips the subset stage, after a search for dead
structures that no solver can get past.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import fastplay
from ..board import Layout
from ..fastplay import Structure
from ..game import Game, Status
from .loop import Deducer
from ..solvers.result import SolverName

__all__ = ["VerifyResult", "verify", "dead_pair", "dead_square", "walled_off_safe", "dead_structure"]


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of one verification.

    Attributes
    ----------
    solved : bool
        Every safe cell was opened without a guess.
    opened, safe_cells : int
        Cells opened, and safe cells on the board.
    steps : int
        Deduction rounds that proved something: a single-point pass to its fixed
        point, or one stronger-solver call at a stall.
    complete : bool
        False when a bounded search gave up somewhere (``solved`` is then a lower
        bound: a stronger search might have finished).
    seconds : float
    reason : str or None
        The dead structure that decided the board without playing, if one did.
    engine : {'compiled', 'python'}
        What decided the board: the compiled play loop and structure search of
        :mod:`mscsp.fastplay`, or the Python ones (the reference, and the fallback
        when the extension is missing or hands a board back).
    """

    solved: bool
    opened: int | None
    safe_cells: int
    steps: int
    complete: bool = True
    seconds: float = 0.0
    reason: str | None = None
    engine: str = "python"

    def to_dict(self) -> dict:
        out = {
            "solved": self.solved,
            "opened": self.opened,
            "safe_cells": self.safe_cells,
            "steps": self.steps,
            "complete": self.complete,
            "seconds": round(self.seconds, 6),
            "engine": self.engine,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


_KING = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


class _BitBoard:
    """A layout's mines, cells and safe cells as Python ints, one bit per position of
    a grid padded by three.

    Moving a whole set by an offset is one shift, so the structure checks below
    cost a few hundred integer operations per board instead of as many array passes.
    Bit order follows the board's row-major order, so the lowest bit of a set is its
    first cell.
    """

    PAD = 3  # the farthest offset the checks look at

    def __init__(self, layout: Layout):
        g = layout.geometry
        self.width, self.height = g.width, g.height
        self.stride = self.width + 2 * self.PAD
        self.mines = self.of(layout.mines)
        self.cells = self.of(g.mask)
        self.safe = self.cells & ~self.mines

    def of(self, flat: np.ndarray) -> int:
        """The set of positions where a flat boolean array is True."""
        p = self.PAD
        grid = np.zeros((self.height + 2 * p, self.stride), dtype=bool)
        grid[p : p + self.height, p : p + self.width] = flat.reshape(self.height, self.width)
        return int.from_bytes(np.packbits(grid.ravel(), bitorder="little").tobytes(), "little")

    def at(self, bits: int, dx: int, dy: int) -> int:
        """The set whose bit at a position is the bit of ``bits`` at (dx, dy) from it."""
        off = dy * self.stride + dx
        return bits >> off if off >= 0 else bits << -off

    def beside(self, bits: int) -> int:
        """The positions next to some position of ``bits`` (the eight directions)."""
        out = 0
        for dx, dy in _KING:
            out |= self.at(bits, dx, dy)
        return out

    def position(self, cell: int) -> int:
        y, x = divmod(cell, self.width)
        return (y + self.PAD) * self.stride + x + self.PAD

    def cell(self, position: int) -> int:
        y, x = divmod(position, self.stride)
        return (y - self.PAD) * self.width + x - self.PAD

    def members(self, bits: int) -> list[int]:
        out = []
        while bits:
            low = bits & -bits
            out.append(self.cell(low.bit_length() - 1))
            bits ^= low
        return out


@lru_cache(maxsize=None)
def _telling_offsets() -> tuple[tuple[tuple[int, int], tuple[tuple[int, int], ...]], ...]:
    """For each offset ``d`` of a second cell within distance two, the offsets of the
    cells adjacent to exactly one of the two (the only cells whose numbers differ
    when a mine moves from the first cell to the second)."""
    king = set(_KING)
    out = []
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            if not (dx or dy):
                continue
            shifted = {(x + dx, y + dy) for x, y in king}
            telling = (king ^ shifted) - {(0, 0), (dx, dy)}
            out.append(((dx, dy), tuple(sorted(telling))))
    return tuple(out)


def dead_pair(layout: Layout, click: int) -> tuple[int, int] | None:
    """A mine and a safe cell that no number on the board can ever tell apart.

    If no safe cell lies next to exactly one of them (each such cell is a mine, a
    hole or off the board), the layout with the two swapped shows the same number on
    every other safe cell and has the same mine total. A player who opens only
    proven cells then never opens the safe one: in the swapped layout it is a mine
    and nothing seen distinguishes the two. So the board cannot be finished without
    a guess by any sound solver, with or without the mine total. (The click itself
    is opened without proof, so it is never the safe cell of a pair.)

    Returns ``(mine, safe)`` flat indices, or None.

    Examples
    --------
    >>> lay = Layout.from_rows(["*.*", "***", "..."])
    >>> dead_pair(lay, 8)  # a corner mine and the safe cell beside it
    (2, 1)
    """
    return _dead_pair(_BitBoard(layout), click)


def _dead_pair(bits: _BitBoard, click: int) -> tuple[int, int] | None:
    w, mines, safe = bits.width, bits.mines, bits.safe
    other = safe & ~(1 << bits.position(click))
    near_safe = bits.beside(safe)
    # a safe cell with no safe neighbour and a mine with no safe neighbour, anywhere
    sealed_safe = bits.members(other & ~near_safe)
    sealed_mine = bits.members(mines & ~near_safe)
    if sealed_safe and sealed_mine:
        for b in sealed_safe:
            for a in sealed_mine:
                ay, ax = divmod(a, w)
                by, bx = divmod(b, w)
                if max(abs(ax - bx), abs(ay - by)) > 2:
                    return a, b
    at = bits.at
    for (dx, dy), telling in _telling_offsets():
        hit = mines & at(other, dx, dy)
        for rx, ry in telling:
            if not hit:
                break
            hit -= hit & at(safe, rx, ry)  # drop pairs a safe cell could tell apart
        if hit:
            a = bits.cell((hit & -hit).bit_length() - 1)
            ay, ax = divmod(a, w)
            return a, (ay + dy) * w + ax + dx
    return None


def dead_square(layout: Layout, click: int, *, use_total: bool = True) -> tuple[int, int, int, int] | None:
    """A 2x2 block whose mines could be swapped for its safe cells, unseen.

    Turn every mine of the block into a safe cell and every safe cell into a mine.
    The four cells diagonally off its corners each touch one cell of the block, so
    each must be a mine, a hole or off the board; a cell beside one side touches
    both cells of that side, so if it is safe, that side must hold exactly one mine.
    Then no number outside the block changes, and a sound solver never opens the
    block's safe cells (as for :func:`dead_pair`). With the mine total the swap must
    also keep the count: two mines on a diagonal (the players' "box 50/50") or on
    one side. Without the total, one or three mines do too.

    Returns the block's cells ``(top-left, top-right, bottom-left, bottom-right)``
    as flat indices, or None.

    Examples
    --------
    >>> lay = Layout.from_rows(["*..", ".*.", "..*"])
    >>> dead_square(lay, 6)  # mines at [0,0] and [1,1], or at [1,0] and [0,1]
    (0, 1, 3, 4)
    >>> lay = Layout.from_rows(["*..*", "**.*", "***."])  # the corner block: 3 mines or 1
    >>> dead_square(lay, 11), dead_square(lay, 11, use_total=False)
    (None, (0, 1, 4, 5))
    """
    return _dead_square(_BitBoard(layout), click, use_total)


def _dead_square(bits: _BitBoard, click: int, use_total: bool) -> tuple[int, int, int, int] | None:
    mines, cells, safe, at = bits.mines, bits.cells, bits.safe, bits.at
    whole = cells & at(cells, 1, 0) & at(cells, 0, 1) & at(cells, 1, 1)
    m00, m01, m10, m11 = mines, at(mines, 1, 0), at(mines, 0, 1), at(mines, 1, 1)

    def walled(*offsets: tuple[int, int]) -> int:  # none of these cells is safe
        seen = 0
        for dx, dy in offsets:
            seen |= at(safe, dx, dy)
        return ~seen

    sides = (
        ((m00 ^ m01) | walled((0, -1), (1, -1)))
        & ((m10 ^ m11) | walled((0, 2), (1, 2)))
        & ((m00 ^ m10) | walled((-1, 0), (-1, 1)))
        & ((m01 ^ m11) | walled((2, 0), (2, 1)))
    )
    hit = whole & walled((-1, -1), (2, -1), (-1, 2), (2, 2)) & sides
    if use_total:
        hit &= ((m00 & m11 & ~m01 & ~m10) | (m01 & m10 & ~m00 & ~m11)  # two mines: the count stays
                | (m00 & m01 & ~m10 & ~m11) | (m10 & m11 & ~m00 & ~m01)
                | (m00 & m10 & ~m01 & ~m11) | (m01 & m11 & ~m00 & ~m10))
    else:
        hit &= ~(m00 & m01 & m10 & m11)  # some safe cell must become a mine
    c = bits.position(click)
    for top in (c, c - 1, c - bits.stride, c - bits.stride - 1):  # the click is opened without proof
        hit &= ~(1 << top)
    if not hit:
        return None
    top = bits.cell((hit & -hit).bit_length() - 1)
    w = bits.width
    return top, top + 1, top + w, top + w + 1


def walled_off_safe(layout: Layout, click: int) -> int | None:
    """A safe cell that no chain of safe cells links to the click.

    Every cell around such a pocket of safe cells is a mine (or a hole, or off the
    board), so no number outside the pocket touches it and no cell in it is ever
    opened by a proof that uses the numbers alone: without the mine total the board
    cannot be finished. (With the total it may be, when everything else is decided.)
    A single safe cell walled in by mines is the smallest pocket.

    Returns the pocket's first cell, or None.

    Examples
    --------
    >>> walled_off_safe(Layout.from_rows(["*.*", "***", "..."]), 8)
    1
    """
    return _walled_off_safe(_BitBoard(layout), click)


def _walled_off_safe(bits: _BitBoard, click: int) -> int | None:
    safe = bits.safe
    reach = 1 << bits.position(click)
    while True:  # grow the click's region of safe cells to its fixed point
        grown = (reach | bits.beside(reach)) & safe
        if grown == reach:
            break
        reach = grown
    pocket = safe & ~reach
    return bits.cell((pocket & -pocket).bit_length() - 1) if pocket else None


def dead_structure(layout: Layout, click: int, *, use_total: bool = True) -> str | None:
    """Why no sound solver can finish ``layout`` from ``click``, if a quick look shows it.

    Checks for a :func:`dead_square`, a :func:`dead_pair` and, without the mine
    total, a :func:`walled_off_safe` cell; returns a sentence naming the cells, or
    None when none is found (which proves nothing either way). The compiled search
    (:func:`mscsp.fastplay.dead_structure`) answers when it was built; it looks in the
    same order and names the same cells.
    """
    found = _first_structure(layout, click, use_total)
    return None if found is None else _describe(layout, found)


def _describe(layout: Layout, found: tuple[Structure, tuple[int, ...]]) -> str:
    kind, cells = found
    g = layout.geometry
    if kind is Structure.SQUARE:
        return (f"the mines of the 2x2 block at {list(g.coords(cells[0]))} could trade places with its "
                "safe cells without any number changing")
    if kind is Structure.PAIR:
        return (f"the mine at {list(g.coords(cells[0]))} and the safe cell at {list(g.coords(cells[1]))} "
                "look the same to every number on the board")
    return (f"the safe cell at {list(g.coords(cells[0]))} is walled off from the click by mines, and "
            "without the mine total nothing can prove it safe")


def _first_structure(layout: Layout, click: int, use_total: bool) -> tuple[Structure, tuple[int, ...]] | None:
    if fastplay.available():
        return fastplay.dead_structure(layout, click, use_total=use_total)
    return _python_structure(layout, click, use_total)


def _python_structure(layout: Layout, click: int, use_total: bool) -> tuple[Structure, tuple[int, ...]] | None:
    """The reference search of :func:`dead_structure`, on bit boards in Python."""
    bits = _BitBoard(layout)
    # cheapest first: the answer is the same whichever structure is named
    square = _dead_square(bits, click, use_total)
    if square is not None:
        return Structure.SQUARE, square
    pair = _dead_pair(bits, click)
    if pair is not None:
        return Structure.PAIR, pair
    if not use_total:
        pocket = _walled_off_safe(bits, click)
        if pocket is not None:
            return Structure.WALLED, (pocket,)
    return None


def verify(
    layout: Layout,
    click: tuple[int, int],
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    time_limit: float = 30.0,
    quick: bool = False,
    memory_limit: int | None = None,
) -> VerifyResult:
    """Play ``layout`` from ``click`` with a solver and report whether it finishes.

    Parameters
    ----------
    layout : Layout
        The hidden board (read only by the game, never by the solver).
    click : (int, int)
        ``(x, y)`` of the first click.
    solver : {'single-point', 'subset', 'sat'}
    use_total : bool
        Whether the solver may use the mine total (a player sees the mine counter).
    time_limit : float
        Seconds for the whole verification: past them the play stops and the
        result says ``complete=False``.
    memory_limit : int, optional
        Bytes the process may hold while it plays; past them BudgetExceeded.
    quick : bool
        First look for a :func:`dead_structure`; if there is one, answer "not solved"
        at once, without playing (``opened`` is then None and ``reason`` says why).
        Otherwise play with the compiled loop (:mod:`mscsp.fastplay`) where it can
        answer. ``solved`` and ``opened`` are the same as without ``quick``;
        ``steps`` then counts the compiled loop's rounds, which skip subset reasoning.

    Examples
    --------
    >>> lay = Layout.from_rows(["*..*", "....", "...."])
    >>> r = verify(lay, (1, 2))  # a zero; the 1s and 2s then decide the top row
    >>> r.solved, r.opened, r.safe_cells
    (True, 10, 10)
    """
    started = time.perf_counter()
    solver = SolverName.parse(solver)
    click = layout.geometry.cell(click, "click")
    if quick:
        found = fastplay.quick(layout, click, solver, use_total=use_total)
        if isinstance(found, fastplay.FastResult):
            return VerifyResult(found.won, found.opened, layout.safe_count, found.steps, True,
                                time.perf_counter() - started, engine="compiled")
        engine = "compiled" if found is not None else "python"
        reason = _describe(layout, found) if found is not None else dead_structure(layout, click,
                                                                                    use_total=use_total)
        if reason is not None:
            return VerifyResult(False, None, layout.safe_count, 0, True, time.perf_counter() - started, reason,
                                engine)
    game = Game(layout, record=False)
    first = game.reveal_index(click)
    if game.status is Status.LOST:  # the first click itself hit a mine (rule ``uniform``)
        return VerifyResult(False, 0, layout.safe_count, 0, True, time.perf_counter() - started)
    deducer = Deducer(game, solver, use_total=use_total, time_limit=time_limit, memory_limit=memory_limit)
    deducer.opened(first)
    deducer.run()
    if game.status is Status.LOST:  # pragma: no cover - a sound solver never opens a mine
        raise AssertionError("the solver opened a mine: it is unsound")
    steps, complete = deducer.steps, deducer.complete
    return VerifyResult(
        solved=game.status is Status.WON,
        opened=game.opened_count,
        safe_cells=layout.safe_count,
        steps=steps,
        complete=complete,
        seconds=time.perf_counter() - started,
    )
