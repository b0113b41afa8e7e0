"""Every no-guess board of a small setting, and how far a sampler is from uniform.

A no-guess generator (:mod:`mscsp.play.noguess`) claims a distribution over the
no-guess boards of a setting — a board size, a mine count, a first-click rule, a click,
a solver and whether it may use the mine total. On a small board that distribution can
be checked against the truth: :func:`census` lists every layout the first-click rule
allows and keeps the ones :func:`~mscsp.play.verify.verify` finishes from the click
without a guess (the compiled play loop decides each, the Python loop any it hands
back), and :func:`uniformity` measures a sample of generated boards against the uniform
distribution over that list: Pearson's χ² statistic with its p-value
(:func:`mscsp.stats.chi2_sf`) and the total variation distance, exact.

This is the proof harness for samplers of no-guess boards: rejection sampling
(``retry``) must pass it, and a biased sampler (``perturb``, after Simon Tatham's Mines)
can be caught by it where its bias is large enough to show at the sample size.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Iterable

import numpy as np

from ..analysis import SolverName
from ..board import Layout, Spec
from ..errors import InputError
from ..rules import FirstClickRule, GeneratedBoard, max_mines
from ..stats import chi2_sf
from . import fastplay
from .verify import verify

__all__ = ["Census", "Fit", "census", "mixing", "row_key", "uniformity", "CANDIDATE_LIMIT"]

#: Candidate layouts a census plays at most by default (about 12 µs each, compiled).
CANDIDATE_LIMIT = 2_000_000

Board = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Census:
    """The no-guess boards of one setting, every one of them.

    Attributes
    ----------
    spec : Spec
    rule : FirstClickRule
    click : (int, int)
    solver : SolverName
    use_total : bool
        The setting: the guarantee is the one :func:`~mscsp.play.verify.verify` checks.
    candidates : int
        Layouts the first-click rule allows (each one played).
    boards : list of tuple of (int, int)
        The no-guess boards, each the tuple of its mines' cells ``(x, y)`` in row
        order; the list in order of those tuples read in row order (:func:`row_key`).
    seconds : float
        Wall time of the enumeration.
    """

    spec: Spec
    rule: FirstClickRule
    click: tuple[int, int]
    solver: SolverName
    use_total: bool
    candidates: int
    boards: list[Board]
    seconds: float


@dataclass(frozen=True)
class Fit:
    """How a sample of boards compares with the uniform distribution over a census.

    Attributes
    ----------
    n : int
        Boards in the sample.
    chi2 : Fraction
        Pearson's statistic over every board of the census, boards never drawn
        included: ``sum((count - n/K)**2 / (n/K))`` for ``K`` boards (over blocks of
        boards, each expected ``n size / K``, when asked).
    df : int
        ``K - 1`` degrees of freedom (blocks less one).
    p_value : float
        ``P(X >= chi2)`` for ``X`` chi-square with ``df`` degrees of freedom; the
        approximation wants ``n/K`` of at least about 5.
    tv : Fraction
        Total variation distance between the empirical distribution and the
        uniform one, ``sum(|count/n - 1/K|) / 2``. Even a perfect sampler leaves
        one of order ``sqrt(K/n)``.
    counts : dict
        Times each board of the census was drawn (boards never drawn: 0).
    """

    n: int
    chi2: Fraction
    df: int
    p_value: float
    tv: Fraction
    counts: dict[Board, int]


def census(
    spec: Spec,
    rule: FirstClickRule | str,
    click: tuple[int, int],
    *,
    solver: SolverName | str = SolverName.SAT,
    use_total: bool = True,
    limit: int = CANDIDATE_LIMIT,
) -> Census:
    """Every no-guess board of a small setting.

    Plays every layout of ``spec.mines`` mines that the first-click rule allows, from
    ``click``, with the solver, and keeps those it finishes without a guess — the
    boards :func:`~mscsp.play.noguess.generate_no_guess` may return.

    Parameters
    ----------
    spec : Spec
        Width, height and mines.
    rule : {'uniform', 'safe', 'opening'}
        The first-click rule: which cells may hold a mine. ``winxp`` is refused: it
        moves a mine off the click to one chosen cell, so its layouts are not
        equally likely and a census has no uniform distribution to stand for.
    click : (int, int)
        ``(x, y)`` of the first click.
    solver : {'single-point', 'subset', 'sat'}
    use_total : bool
        Whether the solver may use the mine total.
    limit : int
        Candidate layouts at most.

    Returns
    -------
    Census

    Raises
    ------
    InputError
        For ``winxp``, a click off the board, too many mines, or more candidate
        layouts than ``limit`` (the message says how many).

    Examples
    --------
    >>> c = census(Spec(3, 3, 1), "safe", (1, 1))
    >>> c.candidates, c.boards  # a lone mine: the centre's 1 leaves 8 cells equally likely
    (8, [])
    >>> c = census(Spec(3, 3, 1), "safe", (0, 0), use_total=False)
    >>> c.candidates, c.boards  # a mine beside the corner leaves a bare 1
    (8, [((2, 0),), ((2, 1),), ((0, 2),), ((1, 2),), ((2, 2),)])
    """
    started = time.perf_counter()
    solver = SolverName.parse(solver)
    rule = FirstClickRule.parse(rule)
    if rule is FirstClickRule.WINXP:
        raise InputError("a census needs a rule whose layouts are equally likely: "
                         "'winxp' moves a mine to a chosen cell (use uniform, safe or opening)")
    geometry = spec.geometry
    cell = geometry.cell(click, "click")
    room = max_mines(geometry, rule, cell)
    if spec.mines > room:
        raise InputError(f"too many mines: rule {rule.value!r} with the click at {list(geometry.coords(cell))} "
                         f"leaves room for {room} on this {spec.width}x{spec.height} board, not {spec.mines}")
    allowed = geometry.mask.copy()
    allowed[list(rule.excluded(geometry, cell))] = False
    free = [int(c) for c in np.flatnonzero(allowed)]
    candidates = math.comb(len(free), spec.mines)
    if candidates > limit:
        raise InputError(f"a census of this setting would play {candidates:,} layouts, "
                         f"more than the limit of {limit:,}")
    boards = []
    for mines in combinations(free, spec.mines):
        layout = Layout._from_indices(geometry, mines)
        fast = fastplay._play_index(layout, cell, solver, use_total=use_total)
        won = fast.won if fast is not None else verify(layout, geometry.coords(cell), solver,
                                                       use_total=use_total).solved
        if won:
            # ascending flat indices are row order, and so is the order of the combinations
            boards.append(tuple(geometry.coords(m) for m in mines))
    return Census(spec, rule, geometry.coords(cell), solver, use_total, candidates, boards,
                  time.perf_counter() - started)


def row_key(board: Board) -> tuple[tuple[int, int], ...]:
    """The key that puts boards (tuples of ``(x, y)`` in row order) in the order of a
    census: their cells compared row first.

    Examples
    --------
    >>> sorted([((0, 1),), ((1, 0),)], key=row_key)
    [((1, 0),), ((0, 1),)]
    """
    return tuple((y, x) for x, y in board)


def _key(board, spec: Spec) -> Board:
    """A sampled board as the tuple of its mines' cells in row order."""
    if isinstance(board, GeneratedBoard):
        board = board.layout
    if isinstance(board, Layout):
        g = board.geometry
        if (g.width, g.height) != (spec.width, spec.height):
            raise InputError(f"a {g.width}x{g.height} board is not of the census's "
                             f"{spec.width}x{spec.height} setting")
        return tuple(g.coords(int(m)) for m in np.flatnonzero(board.mines))
    return tuple(sorted(((int(x), int(y)) for x, y in board), key=lambda c: (c[1], c[0])))


def uniformity(samples: Iterable, of: Census, *, groups: int | None = None) -> Fit:
    """Pearson's χ² and the total variation distance of a sample against the uniform
    distribution over the boards of a census.

    Parameters
    ----------
    samples : iterable
        Generated boards, layouts, or mine sets (iterables of ``(x, y)``).
    of : Census
        The boards the sample should be uniform over.
    groups : int, optional
        Pool the census into this many blocks of consecutive boards (in the census's
        row order, so boards that share their first mines pool together; sizes differ
        by one at most) and test the blocks' counts against their sizes: for a census
        too large to expect five draws of every board. The total variation distance
        is always the boards'.

    Returns
    -------
    Fit

    Raises
    ------
    InputError
        For an empty sample or census, or a sampled board outside the census (a board
        that is not no-guess in the setting).

    Examples
    --------
    >>> c = census(Spec(3, 3, 1), "safe", (0, 0), use_total=False)  # 5 boards
    >>> f = uniformity(c.boards * 2, c)
    >>> f.chi2, f.df, f.p_value, f.tv
    (Fraction(0, 1), 4, 1.0, Fraction(0, 1))
    >>> uniformity(c.boards + [c.boards[0]] * 5, c).tv  # 6/10 on one board against 1/5
    Fraction(2, 5)
    >>> uniformity(c.boards * 2, c, groups=2).chi2  # blocks of 2 and 3 boards drew 4 and 6
    Fraction(0, 1)
    """
    known = of.boards
    if not known:
        raise InputError("the census holds no no-guess board: there is nothing to be uniform over")
    counts = dict.fromkeys(known, 0)
    drawn = Counter(_key(b, of.spec) for b in samples)
    for board, times in drawn.items():
        if board not in counts:
            raise InputError(f"the sampled board with mines at {[list(c) for c in board]} is not a no-guess board "
                             f"of the setting (it is not in the census)")
        counts[board] = times
    n = sum(drawn.values())
    if n == 0:
        raise InputError("an empty sample says nothing about uniformity")
    k = len(known)
    tv = sum((abs(Fraction(c, n) - Fraction(1, k)) for c in counts.values()), Fraction(0)) / 2
    if groups is None:
        cells = [(c, 1) for c in counts.values()]
    else:
        if not 1 <= groups <= k:
            raise InputError(f"groups must be between 1 and the census's {k} boards, not {groups}")
        ordered = [counts[b] for b in known]
        edges = [k * g // groups for g in range(groups + 1)]
        cells = [(sum(ordered[a:b]), b - a) for a, b in zip(edges, edges[1:])]
    chi2 = sum((Fraction((c * k - n * size) ** 2, k * n * size) for c, size in cells), Fraction(0))
    df = len(cells) - 1
    p = chi2_sf(float(chi2), df) if df > 0 else 1.0
    return Fit(n, chi2, df, p, tv, counts)


def mixing(of: Census, steps: int, *, jump: float, starts: Iterable | None = None) -> list[float]:
    """Total variation to uniform after each step of the no-guess chain, computed exactly
    from its transition matrix over the census.

    The matrix is the kernel of :class:`~mscsp.play.chain.NoGuessChain` written out
    from its definition, not from its code: from a board with ``m`` mines among ``F``
    cells the rule allows, each of the ``m (F - m)`` swaps is proposed with probability
    ``(1 - jump) / (m (F - m))`` and each of the ``C(F, m)`` layouts of a fresh draw
    with probability ``jump / C(F, m)``; a proposal is taken when it is a board of the
    census, else the chain stays. Distributions are pushed through it in floating
    point (sums of at most a few thousand terms: exact to about 1e-12).

    Parameters
    ----------
    of : Census
    steps : int
        Steps to follow.
    jump : float
        Share of fresh draws.
    starts : iterable of boards, optional
        Boards the chain starts from (a point mass each; the worst distance is
        reported). Every board of the census by default.

    Returns
    -------
    list of float
        The largest total variation distance over the starts after ``1..steps`` steps.

    Examples
    --------
    >>> c = census(Spec(3, 3, 1), "safe", (0, 0), use_total=False)  # 5 of 8 layouts
    >>> d = mixing(c, 40, jump=0.5)
    >>> d[0] > d[-1], d[-1] < 1e-6
    (True, True)
    """
    known = of.boards
    if not known:
        raise InputError("the census holds no no-guess board: there is no chain to follow")
    if not 0 <= jump <= 1:
        raise InputError(f"jump must be a share between 0 and 1, not {jump!r}")
    g = of.spec.geometry
    index = {frozenset(b): i for i, b in enumerate(known)}
    allowed = g.mask.copy()
    allowed[list(of.rule.excluded(g, g.cell(of.click, "click")))] = False
    cells = [g.coords(int(c)) for c in np.flatnonzero(allowed)]
    m, k = of.spec.mines, len(known)
    layouts = math.comb(len(cells), m)
    swap = (1 - jump) / (m * (len(cells) - m))
    # dense: a census small enough to list is small enough to hold K x K
    kernel = np.full((k, k), jump / layouts)
    for board, i in index.items():
        for out in board:
            for into in cells:
                j = index.get((board - {out}) | {into}) if into not in board else None
                if j is not None:
                    kernel[i, j] += swap
    kernel[np.diag_indices(k)] += 1.0 - kernel.sum(axis=1)
    picks = list(range(k)) if starts is None else [index[frozenset(_key(b, of.spec))] for b in starts]
    dist = np.zeros((len(picks), k))
    dist[np.arange(len(picks)), picks] = 1.0
    out = []
    for _ in range(steps):
        dist = dist @ kernel
        out.append(float(np.abs(dist - 1.0 / k).sum(axis=1).max() / 2))
    return out
