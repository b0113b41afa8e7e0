"""Exact first-click opening odds under each first-click rule.

A click *opens* when it shows a zero: the clicked cell and its ``K`` neighbours are
free of mines (``K`` is 8 inside, 5 on an edge, 3 in a corner). On a board of ``N``
cells with ``M`` mines (Sheng, "No-Guess Minesweeper Boards", 2026, for the first two):

- ``uniform``:  ``C(N-K-1, M) / C(N, M)``;
- ``safe``:     ``C(N-K-1, M) / C(N-1, M)``;
- ``opening``:  1;
- ``winxp``, derived here: with probability ``(N-M)/N`` the click is free and the
  ``safe`` case applies. Otherwise the other ``M-1`` mines lie uniformly on the
  other ``N-1`` cells and the clicked mine moves to the first free cell in scan
  order. Given free neighbours, that cell is a neighbour exactly when the ``p``
  cells scanned before the first neighbour (the click aside) are all mines, so::

      P = (N-M)/N * C(N-K-1, M)/C(N-1, M)
          + M/N * [C(N-K-1, M-1) - C(N-K-1-p, M-1-p)] / C(N-1, M-1)

  At the top-left corner ``p = 0`` and the second term vanishes: a mine moved from
  [0,0] lands on [1,0], a neighbour. Kostka's published ranges (0.19–0.60 Beginner,
  0.21–0.60 Intermediate, 0.12–0.50 Expert) are this rule's: its minimum sits next to
  the top-left corner (where a moved mine always lands beside the click) and its
  maximum in the other corners; the Beginner figures are those of the older 8x8
  Beginner board with 10 mines.

All results are exact :class:`fractions.Fraction` values.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from .board import Geometry
from .errors import InputError
from .rules import FirstClickRule, max_mines

__all__ = ["opening_probability", "opening_map"]


def _c(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def opening_probability(geometry: Geometry, mines: int, rule: FirstClickRule | str,
                        click: tuple[int, int]) -> Fraction:
    """The exact probability that the first click at ``click``, ``(x, y)``, opens a region.

    Examples
    --------
    >>> g = Geometry(30, 16)
    >>> round(float(opening_probability(g, 99, "uniform", (15, 8))), 4)
    0.1226
    >>> round(float(opening_probability(g, 99, "safe", (15, 8))), 4)
    0.1545
    >>> # beside the top-left corner a moved mine always lands next to the click
    >>> opening_probability(g, 99, "winxp", (1, 1)) == Fraction(381, 480) * opening_probability(g, 99, "safe", (1, 1))
    True
    """
    return _opening(geometry, mines, FirstClickRule.parse(rule), geometry.cell(click, "click"))


def _opening(geometry: Geometry, mines: int, rule: FirstClickRule, click: int) -> Fraction:
    """:func:`opening_probability` of the click at flat index ``click``."""
    if mines > max_mines(geometry, rule, click):
        raise InputError(f"{mines} mines do not fit under rule {rule.value!r}")
    n = geometry.size
    nbrs = geometry.neighbours(click)
    k = len(nbrs)
    if rule is FirstClickRule.OPENING:
        return Fraction(1)
    if rule is FirstClickRule.UNIFORM:
        return Fraction(_c(n - k - 1, mines), _c(n, mines))
    safe = Fraction(_c(n - k - 1, mines), _c(n - 1, mines))
    if rule is FirstClickRule.SAFE:
        return safe
    if mines == 0:
        return safe
    if k == 0:
        # nothing to relocate onto: the moved mine never lands beside the click
        return safe * Fraction(n - mines, n) + Fraction(mines, n)
    first = min(nbrs)
    cells = geometry.cells
    p = int(np.count_nonzero(cells < first)) - (1 if click < first else 0)
    hit = Fraction(_c(n - k - 1, mines - 1) - _c(n - k - 1 - p, mines - 1 - p), _c(n - 1, mines - 1))
    return Fraction(n - mines, n) * safe + Fraction(mines, n) * hit


def opening_map(geometry: Geometry, mines: int, rule: FirstClickRule | str) -> dict[tuple[int, int], Fraction]:
    """The exact opening probability of every cell ``(x, y)`` as first click, in row order.

    Examples
    --------
    >>> m = opening_map(Geometry(3, 3), 1, "safe")
    >>> m[(0, 0)], m[(1, 1)]
    (Fraction(5, 8), Fraction(0, 1))
    """
    rule = FirstClickRule.parse(rule)
    return {geometry.coords(c): _opening(geometry, mines, rule, c) for c in geometry.cells.tolist()}
