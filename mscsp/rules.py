"""First-click rules and seeded mine placement.

Placement waits until the first click is known (as in Simon Tatham's Mines and every
modern clone), then draws the mines with the exact sampler of :mod:`mscsp.sampling`
from the cells the rule allows, in index order. The rules:

``uniform``
    Mines anywhere; the first click may hit one.
``safe``
    The clicked cell is excluded.
``opening``
    The clicked cell and its neighbours are excluded, so the click opens a region.
``winxp``
    Mines placed uniformly on all cells; a mine on the click then moves to the first
    free cell scanning the top row from the left, as Windows up to XP did (see the
    first-click page of minesweepergame.com). If the top row is full the scan goes on
    row by row, so the move is always possible when a free cell exists.

The opening odds of a centre click, ``C(N-9, M)/C(N, M)`` for ``uniform`` and
``C(N-9, M)/C(N-1, M)`` for ``safe``, are those of the reference article
(Sheng, "No-Guess Minesweeper Boards: First-Click Rules and Solver Verification", 2026).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .board import Geometry, Layout, Spec
from .errors import Choice, InputError
from .sampling import as_generator, fresh_seed, sample_without_replacement

__all__ = ["FirstClickRule", "GeneratedBoard", "GENERATOR_VERSION", "place_mines", "generate", "max_mines"]

#: Names the sampling procedure; it changes whenever the same seed would give another board.
GENERATOR_VERSION = "mscsp-fisher-yates/1"


class FirstClickRule(Choice, what="first-click rule"):
    """How the first click constrains mine placement."""

    UNIFORM = "uniform"
    SAFE = "safe"
    OPENING = "opening"
    WINXP = "winxp"


    def excluded(self, geometry: Geometry, click: int) -> tuple[int, ...]:
        """Cells that may not hold a mine when placement starts."""
        if self is FirstClickRule.SAFE:
            return (click,)
        if self is FirstClickRule.OPENING:
            return geometry.closed_neighbourhood(click)
        return ()

    def first_click(self, geometry: Geometry) -> tuple[int, int]:
        """Where mscsp's players click first under this rule, ``(x, y)``.

        Under ``opening``, (3,3): the modern start of David Hill's JSMinesweeper, an
        opening away from the edges but near a corner. Otherwise the corner (0,0), the
        classic start: fewest neighbours, so the best chance that a safe click opens an
        area (under ``uniform`` every first click risks the same). On a board too
        small for (3,3), the cell nearest to it.

        Examples
        --------
        >>> [r.first_click(Geometry(30, 16)) for r in FirstClickRule]
        [(0, 0), (0, 0), (3, 3), (0, 0)]
        >>> FirstClickRule.OPENING.first_click(Geometry(3, 2))
        (2, 1)
        """
        x, y = _FIRST_CLICKS[self]
        return min(x, geometry.width - 1), min(y, geometry.height - 1)


_FIRST_CLICKS = {FirstClickRule.UNIFORM: (0, 0), FirstClickRule.SAFE: (0, 0), FirstClickRule.OPENING: (3, 3),
                 FirstClickRule.WINXP: (0, 0)}


def max_mines(geometry: Geometry, rule: FirstClickRule, click: int) -> int:
    """The largest mine count the rule can place for a first click at flat index ``click``.

    ``winxp`` needs one free cell to move a mine to; ``uniform`` may fill the board.

    Examples
    --------
    >>> g = Geometry(9, 9)
    >>> [max_mines(g, r, 40) for r in FirstClickRule]
    [81, 80, 72, 80]
    >>> max_mines(g, FirstClickRule.OPENING, 0)
    77
    """
    rule = FirstClickRule.parse(rule)
    if not geometry.is_cell(click):
        raise InputError(f"the click {click!r} is not a cell of the board")
    if rule is FirstClickRule.WINXP:
        return geometry.size - 1
    return geometry.size - len(rule.excluded(geometry, click))


def place_mines(
    geometry: Geometry,
    mines: int,
    rule: FirstClickRule | str,
    click: tuple[int, int],
    rng: int | np.random.Generator | np.random.SeedSequence,
) -> Layout:
    """Draw a layout of ``mines`` mines under a first-click rule.

    Parameters
    ----------
    geometry : Geometry
        The board (holes allowed).
    mines : int
        How many mines.
    rule : FirstClickRule or str
        The first-click rule.
    click : (int, int)
        ``(x, y)`` of the first click.
    rng : int, SeedSequence or numpy.random.Generator
        The randomness; the same seed gives the same layout on every machine.

    Raises
    ------
    InputError
        When the click is not a cell or the mines do not fit.

    Examples
    --------
    >>> lay = place_mines(Geometry(9, 9), 10, "opening", (4, 4), 42)
    >>> lay.mine_count, bool(lay.mines[[30, 31, 32, 39, 40, 41, 48, 49, 50]].any())
    (10, False)
    """
    rule = FirstClickRule.parse(rule)
    click = geometry.cell(click, "click")
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)) or mines < 0:
        raise InputError(f"mines must be a non-negative integer, not {mines!r}")
    limit = max_mines(geometry, rule, click)
    if mines > limit:
        raise InputError(
            f"too many mines: rule {rule.value!r} with the click at "
            f"{list(geometry.coords(click))} leaves room for {limit} on this "
            f"{geometry.width}x{geometry.height} board, not {mines}"
        )
    allowed = geometry.mask.copy()
    allowed[list(rule.excluded(geometry, click))] = False
    candidates = np.flatnonzero(allowed)
    picks = sample_without_replacement(candidates.size, int(mines), rng)
    bits = np.zeros(geometry.area, dtype=bool)
    bits[candidates[picks]] = True
    if rule is FirstClickRule.WINXP and bits[click]:
        bits[click] = False
        free = np.flatnonzero(geometry.mask & ~bits)
        free = free[free != click]
        bits[free[0]] = True
    return Layout(geometry, bits)


@dataclass(frozen=True)
class GeneratedBoard:
    """A layout with what is needed to make it again.

    Attributes
    ----------
    layout : Layout
    rule : FirstClickRule
    click : (int, int)
        ``(x, y)`` of the first click.
    seed : int or None
        The seed, or None when the caller passed a generator of their own.
    generator : str
        :data:`GENERATOR_VERSION` at the time it was made.
    seconds : float
        Wall time spent generating.
    """

    layout: Layout
    rule: FirstClickRule
    click: tuple[int, int]
    seed: int | None
    generator: str = GENERATOR_VERSION
    seconds: float = 0.0

    @property
    def click_index(self) -> int:
        """:attr:`click` as a flat index ``y * width + x``, for play loops."""
        x, y = self.click
        return y * self.layout.geometry.width + x

    @property
    def spec(self) -> Spec:
        g = self.layout.geometry
        return Spec(g.width, g.height, self.layout.mine_count)

    def _repr_svg_(self) -> str | None:
        """The board as a picture in a notebook, its click ringed (:func:`mscsp.draw.no_guess_svg`)."""
        from . import draw
        return draw.notebook_svg(self)


def generate(
    spec: Spec,
    rule: FirstClickRule | str,
    click: tuple[int, int],
    seed: int | np.random.Generator | None = None,
) -> GeneratedBoard:
    """Generate a board of ``spec`` for a first click at ``(x, y)``.

    With ``seed=None`` a fresh seed is drawn from the system and recorded, so every
    board can be made again.

    Examples
    --------
    >>> b = generate(Spec(9, 9, 10), "safe", (4, 4), seed=1)
    >>> b.layout == generate(Spec(9, 9, 10), "safe", (4, 4), seed=1).layout
    True
    >>> b.layout.is_mine((4, 4))
    False
    """
    start = time.perf_counter()
    geometry = spec.geometry
    cell = geometry.cell(click, "click")
    if seed is None:
        seed = fresh_seed()
    recorded = None if isinstance(seed, np.random.Generator) else int(seed)
    layout = place_mines(geometry, spec.mines, rule, click, as_generator(seed))
    return GeneratedBoard(
        layout,
        FirstClickRule.parse(rule),
        geometry.coords(cell),
        recorded,
        GENERATOR_VERSION,
        time.perf_counter() - start,
    )
