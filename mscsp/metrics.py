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

__all__ = ["openings", "opening_regions", "bbbv"]


def openings(layout: Layout) -> int:
    """The number of openings: connected regions of safe zero cells.

    Examples
    --------
    >>> openings(Layout.from_rows(["..*..", ".....", "*...."]))  # [0,0] alone, and the right side
    2
    """
    return sum(1 for _ in _zero_regions(layout))


def opening_regions(layout: Layout) -> list[tuple[int, ...]]:
    """Every opening as the cells one click in it opens: its zero cells and the
    numbers around them, ascending (flat indices), in the order of their first zero.

    Examples
    --------
    >>> layout = Layout.from_rows(["..*..", ".....", "*...."])
    >>> [[layout.geometry.coords(c) for c in cells] for cells in opening_regions(layout)]
    [[(0, 0), (1, 0), (0, 1), (1, 1)], [(3, 0), (4, 0), (1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (2, 2), (3, 2), (4, 2)]]
    """
    neighbours = layout.geometry.neighbours
    return [tuple(sorted({n for c in zeros for n in neighbours(c)} | set(zeros))) for zeros in _zero_regions(layout)]


def _zero_regions(layout: Layout):
    """Each connected region of safe zero cells (8-connected) as a list of its cells,
    in the order of their first cell."""
    g = layout.geometry
    zero = (layout.numbers == 0) & ~layout.mines & g.mask
    seen = np.zeros(g.area, dtype=bool)
    neighbours = g.neighbours
    is_zero = zero.tolist()
    for start in np.flatnonzero(zero).tolist():
        if seen[start]:
            continue
        seen[start] = True
        stack, region = [start], [start]
        while stack:  # explicit stack, as the game's flood fill
            c = stack.pop()
            for n in neighbours(c):
                if is_zero[n] and not seen[n]:
                    seen[n] = True
                    stack.append(n)
                    region.append(n)
        yield region


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
