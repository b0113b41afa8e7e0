"""Hypothesis strategies for positions small enough to enumerate."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from mscsp.board import Geometry, Layout
from mscsp.position import Mark, Position


@st.composite
def small_positions(draw, max_covered=12, allow_wrong=True, holes=True):
    """A position cut from a random layout: revealed numbers, flags (maybe wrong),
    maybe a total, maybe a corrupted number (so some positions are inconsistent)."""
    w = draw(st.integers(1, 6))
    h = draw(st.integers(1, 5))
    area = w * h
    hole_set = set()
    if holes and area > 2 and draw(st.booleans()):
        hole_set = draw(st.sets(st.integers(0, area - 1), max_size=area // 4))
    if len(hole_set) >= area:
        hole_set = set()
    g = Geometry(w, h, frozenset(hole_set))
    cells = g.cells.tolist()
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells)))
    layout = Layout._from_indices(g, mines)
    safe = [c for c in cells if c not in mines]
    revealed = set(draw(st.sets(st.sampled_from(safe), max_size=len(safe)))) if safe else set()
    covered = [c for c in cells if c not in revealed]
    flags = set(draw(st.sets(st.sampled_from(covered), max_size=len(covered)))) if covered else set()
    if not allow_wrong:
        flags &= mines
    # keep enumeration small: reveal more safe cells until few are covered
    unknown = [c for c in covered if c not in flags]
    while len(unknown) > max_covered:
        c = unknown.pop(draw(st.integers(0, len(unknown) - 1)))
        if c in mines:
            flags.add(c)
        else:
            revealed.add(c)
    grid = np.full(g.area, Mark.COVERED, dtype=np.int8)
    for c in flags:
        grid[c] = Mark.FLAG
    for c in revealed:
        grid[c] = layout.numbers[c]
    grid[~g.mask] = Mark.HOLE
    if allow_wrong and revealed and draw(st.integers(0, 9)) == 0:
        c = draw(st.sampled_from(sorted(revealed)))
        grid[c] = draw(st.integers(0, int(g.degree[c])))
    total = None
    if draw(st.booleans()):
        total = len(mines)
        if allow_wrong and draw(st.integers(0, 9)) == 0:
            total = draw(st.integers(0, len(cells)))
    return Position(g, grid, total)
