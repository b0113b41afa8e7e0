"""Counting, stages 1 to 4 in one compiled call: the quick path of :func:`probabilities`.

Most positions a player meets have small components (a few dozen cells along the
openings). For those, the equations, their components, the groups
of cells touched by the same clues and every component's tallies come from one call
into the compiled search (``_search.position``): the clues read off the grid, the
components joined by union–find, each counted by the backtracking of
:mod:`~mscsp.analysis.counting.exact.search` (same node budget, groups only: chains of links
stay clues). The tallies are the same exact integers the general pipeline finds, and
they are weighed with the total by the sums of stage 6
(:func:`~mscsp.analysis.counting.exact.combine.weigh_total`): in the compiled module's
128-bit integers while every number fits (``_search.weigh``: small boards), in
Python's otherwise.

Without a total each component is weighed alone, one per consistent assignment or as
independent mines of a density. The quick path declines, and the general pipeline
takes over, wherever it could differ from it: a clue or a total that cannot be met (the general path says
what cannot be true), a component of more than
:data:`~mscsp.analysis.counting.exact.search.COMPILED_CELLS` cells or past the node budget, a
board too large to table its neighbours, a total outside 0 to the number of cells (one
the compiled integers could not hold, too), or no compiled search at all.
"""

from __future__ import annotations

import time
from fractions import Fraction

from ....position import Position
from ... import constraints as _constraints
from .combine import Probabilities, density_weights, fill_groups, plain_weight, weigh_total
from ..outcomes import NoTotalModel
from .search import _search

__all__ = ["quick_probabilities"]


def quick_probabilities(position: Position, nodes: int, density: Fraction | None = None) -> Probabilities | None:
    """The exact probabilities of a position, or None where the general pipeline must
    count (see the module's description).

    ``nodes`` is the backtracking's budget per component; ``density``, without a mine
    total, weighs layouts as independent mines of that density
    (:class:`~mscsp.analysis.counting.outcomes.NoTotalModel`), as
    :func:`~mscsp.analysis.counting.probabilities` does.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> p = quick_probabilities(parse_position("mines: 1\\n.1...\\n"), 10_000)
    >>> p.layouts, p.by_index[0], p.by_index[4]
    (2, Fraction(1, 2), Fraction(0, 1))
    >>> p = quick_probabilities(parse_position(".1...\\n"), 10_000)  # no total
    >>> p.layouts, p.by_index[0], p.by_index[4], p.model
    (8, Fraction(1, 2), None, NoTotalModel(density=None))
    """
    started = time.perf_counter()
    g = position.geometry
    table = g.neighbour_table
    if _search is None or table is None or (density is not None and position.mines is not None):
        return None
    if position.mines is not None and not 0 <= position.mines <= len(position.grid):
        # a total the compiled call cannot hold (a C long long) is also one no board of
        # this size can meet: the general path says what cannot be true
        return None
    _constraints._BUILDS["quick"] += 1  # the equations, made in the compiled call
    found = _search.position(position.grid, table, -1 if position.mines is None else position.mines, nodes)
    if found is None:
        return None
    remaining, unconstrained, components = found
    if _constraints._COUNTED is not None:  # each component counted
        for groups, _, _ in components:
            _constraints._note_count(remaining, [c for group in groups for c in group], "quick")
    cells: dict[int, Fraction | None] = {}
    if remaining is None:
        return _without_total(components, unconstrained, density, cells, g, started)
    # the same sums in 128-bit integers where they fit (small boards), else in Python's
    weighed = _search.weigh(components, len(unconstrained), remaining)
    if weighed is not None:
        total, fractions = weighed
        every = [group for groups, _, _ in components for group in groups]
        if unconstrained:
            every.append(unconstrained)
        parts = [(group, num, den) for group, (num, den) in zip(every, fractions)]
    else:
        parts, total = weigh_total([(ways, tuple(zip(groups, rows))) for groups, ways, rows in components],
                                   unconstrained, remaining, strict=False)
    if not total:
        return None  # no layout meets the total: the general path says why
    groups = fill_groups(parts, cells)
    return Probabilities(cells, total, True, None, {"seconds": time.perf_counter() - started}, geometry=g,
                         groups=groups)


def _without_total(components, unconstrained, density, cells, geometry, started) -> Probabilities:
    """Each component weighed alone (one per consistent assignment, or as independent
    mines of ``density``), as :func:`~mscsp.analysis.counting.exact.combine.without_total` does
    with the general pipeline's plain sums; cells away from the numbers get ``density``."""
    mine, safe = density_weights(density)
    layouts = 2 ** len(unconstrained) if density is None else None
    for groups, ways, rows in components:
        n = sum(map(len, groups))
        whole = plain_weight(ways, mine, safe, n)
        if layouts is not None:
            layouts *= whole
        for group, row in zip(groups, rows):
            p = Fraction(plain_weight(row, mine, safe, n), len(group) * whole)
            for c in group:
                cells[c] = p
    for c in unconstrained:
        cells[c] = density
    return Probabilities(cells, layouts, True, NoTotalModel(density), {"seconds": time.perf_counter() - started},
                         geometry=geometry)
