"""Board difficulty metrics.

**3BV** (Bechtel's Board Benchmark Value, the standard measure of how much clicking a
board needs; see minesweeper.info's definition): the least number of left clicks
that clears a board without flags — one per *opening* (a connected region of zero
cells with its border, 8-connected) plus one per safe numbered cell that borders no
zero.
"""

from __future__ import annotations

import numpy as np

from .board import Layout

__all__ = ["openings", "bbbv"]


def openings(layout: Layout) -> int:
    """The number of openings: connected regions of safe zero cells.

    Examples
    --------
    >>> openings(Layout.from_rows(["..*..", ".....", "*...."]))  # [0,0] alone, and the right side
    2
    """
    g = layout.geometry
    zero = (layout.numbers == 0) & ~layout.mines & g.mask
    seen = np.zeros(g.area, dtype=bool)
    count = 0
    neighbours = g.neighbours
    is_zero = zero.tolist()
    for start in np.flatnonzero(zero).tolist():
        if seen[start]:
            continue
        count += 1
        seen[start] = True
        stack = [start]
        while stack:  # explicit stack, as the game's flood fill
            c = stack.pop()
            for n in neighbours(c):
                if is_zero[n] and not seen[n]:
                    seen[n] = True
                    stack.append(n)
    return count


def bbbv(layout: Layout) -> int:
    """3BV: openings plus safe numbered cells that border no zero.

    Examples
    --------
    >>> bbbv(Layout.from_rows(["*.", ".."]))  # three 1s, no zero: three clicks
    3
    >>> bbbv(Layout.from_rows(["*....", ".....", "....."]))  # one opening does it all
    1
    """
    g = layout.geometry
    safe = ~layout.mines & g.mask
    zero = safe & (layout.numbers == 0)
    isolated = safe & ~zero & (g.neighbour_count(zero) == 0)
    return openings(layout) + int(isolated.sum())
