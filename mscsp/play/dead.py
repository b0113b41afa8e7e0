"""Dead structures: parts of a layout that no sound solver can ever get past.

A quick look at the hidden layout, used by the verifier before it plays: when a
2x2 block's mines could trade places with its safe cells, or a mine and a safe cell
look the same to every number, or (without the mine total) a safe pocket is walled
off from the click, no solver that opens only proven cells can finish the board,
whatever it deduces. Finding one answers "not solvable" without playing; finding
none proves nothing either way. These are the dead configurations players know from
the endgame ("box 50/50"), stated exactly; the checks run on whole-board bit sets
(Python ints), so one board costs a few hundred integer operations.

Like the rest of :mod:`mscsp.play`, this reads the layout; the solvers never do.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

import numpy as np

from ..board import NEIGHBOUR_OFFSETS, Layout

__all__ = ["Structure", "dead_pair", "dead_square", "walled_off_safe", "find_structure", "describe_structure",
           "dead_structure"]


class Structure(IntEnum):
    """The kinds of dead structure, in the order they are looked for."""

    SQUARE = 1
    PAIR = 2
    WALLED = 3


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
        for dx, dy in NEIGHBOUR_OFFSETS:
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
    king = set(NEIGHBOUR_OFFSETS)
    out = []
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            if not (dx or dy):
                continue
            shifted = {(x + dx, y + dy) for x, y in king}
            telling = (king ^ shifted) - {(0, 0), (dx, dy)}
            out.append(((dx, dy), tuple(sorted(telling))))
    return tuple(out)


def dead_pair(layout: Layout, click: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A mine and a safe cell that no number on the board can ever tell apart.

    If no safe cell lies next to exactly one of them (each such cell is a mine, a
    hole or off the board), the layout with the two swapped shows the same number on
    every other safe cell and has the same mine total. A player who opens only
    proven cells then never opens the safe one: in the swapped layout it is a mine
    and nothing seen distinguishes the two. So the board cannot be finished without
    a guess by any sound solver, with or without the mine total. (The click itself
    is opened without proof, so it is never the safe cell of a pair.)

    Returns ``(mine, safe)`` as ``(x, y)`` cells, or None; ``click`` is ``(x, y)`` too.

    Examples
    --------
    >>> lay = Layout.from_rows(["*.*", "***", "..."])
    >>> dead_pair(lay, (2, 2))  # a corner mine and the safe cell beside it
    ((2, 0), (1, 0))
    """
    g = layout.geometry
    return _coords(g, _dead_pair(_BitBoard(layout), g.cell(click, "click")))


def _coords(g, cells: tuple[int, ...] | None) -> tuple[tuple[int, int], ...] | None:
    """Flat cells as ``(x, y)`` (None stays None)."""
    return None if cells is None else tuple(map(g.coords, cells))


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


def dead_square(layout: Layout, click: tuple[int, int], *,
                use_total: bool = True) -> tuple[tuple[int, int], ...] | None:
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
    as ``(x, y)``, or None; ``click`` is ``(x, y)`` too.

    Examples
    --------
    >>> lay = Layout.from_rows(["*..", ".*.", "..*"])
    >>> dead_square(lay, (0, 2))  # mines at [0,0] and [1,1], or at [1,0] and [0,1]
    ((0, 0), (1, 0), (0, 1), (1, 1))
    >>> lay = Layout.from_rows(["*..*", "**.*", "***."])  # the corner block: 3 mines or 1
    >>> dead_square(lay, (3, 2)), dead_square(lay, (3, 2), use_total=False)
    (None, ((0, 0), (1, 0), (0, 1), (1, 1)))
    """
    g = layout.geometry
    return _coords(g, _dead_square(_BitBoard(layout), g.cell(click, "click"), use_total))


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


def walled_off_safe(layout: Layout, click: tuple[int, int]) -> tuple[int, int] | None:
    """A safe cell that no chain of safe cells links to the click.

    Every cell around such a pocket of safe cells is a mine (or a hole, or off the
    board), so no number outside the pocket touches it and no cell in it is ever
    opened by a proof that uses the numbers alone: without the mine total the board
    cannot be finished. (With the total it may be, when everything else is decided.)
    A single safe cell walled in by mines is the smallest pocket.

    Returns the pocket's first cell (in row order) as ``(x, y)``, or None; ``click``
    is ``(x, y)`` too.

    Examples
    --------
    >>> walled_off_safe(Layout.from_rows(["*.*", "***", "..."]), (2, 2))
    (1, 0)
    """
    g = layout.geometry
    pocket = _walled_off_safe(_BitBoard(layout), g.cell(click, "click"))
    return None if pocket is None else g.coords(pocket)


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


def dead_structure(layout: Layout, click: tuple[int, int], *, use_total: bool = True) -> str | None:
    """Why no sound solver can finish ``layout`` from the click ``(x, y)``, if a quick
    look shows it.

    Checks for a :func:`dead_square`, a :func:`dead_pair` and, without the mine
    total, a :func:`walled_off_safe` cell; returns a sentence naming the cells, or
    None when none is found (which proves nothing either way).

    Examples
    --------
    >>> dead_structure(Layout.from_rows(["*..", ".*.", "..*"]), (0, 2))
    'the mines of the 2x2 block at [0, 0] could trade places with its safe cells without any number changing'
    """
    found = find_structure(layout, click, use_total=use_total)
    return None if found is None else describe_structure(found)


def describe_structure(found: tuple[Structure, tuple[tuple[int, int], ...]]) -> str:
    """A sentence for what :func:`find_structure` found."""
    kind, cells = found
    if kind is Structure.SQUARE:
        return (f"the mines of the 2x2 block at {list(cells[0])} could trade places with its "
                "safe cells without any number changing")
    if kind is Structure.PAIR:
        return (f"the mine at {list(cells[0])} and the safe cell at {list(cells[1])} "
                "look the same to every number on the board")
    return (f"the safe cell at {list(cells[0])} is walled off from the click by mines, and "
            "without the mine total nothing can prove it safe")


def find_structure(layout: Layout, click: tuple[int, int], *,
                   use_total: bool = True) -> tuple[Structure, tuple[tuple[int, int], ...]] | None:
    """The first dead structure as ``(kind, cells)``: a 2x2 block's four cells, a
    ``(mine, safe)`` pair or a walled-off safe cell, as ``(x, y)``; None if there is
    none. ``click`` is ``(x, y)`` too.

    Examples
    --------
    >>> find_structure(Layout.from_rows(["*..", ".*.", "..*"]), (0, 2))
    (<Structure.SQUARE: 1>, ((0, 0), (1, 0), (0, 1), (1, 1)))
    """
    g = layout.geometry
    found = _find_structure(layout, g.cell(click, "click"), use_total=use_total)
    return None if found is None else (found[0], _coords(g, found[1]))


def _find_structure(layout: Layout, click: int, *,
                    use_total: bool = True) -> tuple[Structure, tuple[int, ...]] | None:
    """:func:`find_structure` from a flat click, with flat cells, for the verifier."""
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
