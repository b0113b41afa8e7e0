"""The census of no-guess boards against brute force and a hand count, and the samplers
against the census: retry is uniform, perturb is caught."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import pytest

scipy_stats = pytest.importorskip("scipy.stats")

from mscsp.board import Layout, Spec
from mscsp.errors import InputError
from mscsp.play import fastplay
from mscsp.play.census import census, uniformity
from mscsp.play.noguess import generate_no_guess
from mscsp.play.verify import verify
from mscsp.rules import FirstClickRule

#: 5x5 with 5 mines, the click in the middle under ``opening``: 16 cells may hold a mine.
SMALL = (Spec(5, 5, 5), "opening", (2, 2))


def _brute(spec, rule, click, use_total=True):
    """Every layout the rule allows, each played by ``verify`` with the compiled loop
    switched off, so the Python reference loop decides: (no-guess, not no-guess)."""
    g = spec.geometry
    banned = {g.coords(c) for c in FirstClickRule.parse(rule).excluded(g, g.cell(click))}
    cells = [(x, y) for y in range(spec.height) for x in range(spec.width) if (x, y) not in banned]
    good, bad = set(), set()
    for mines in combinations(cells, spec.mines):
        solved = verify(Layout.from_cells(g, mines), click, use_total=use_total).solved
        (good if solved else bad).add(tuple(sorted(mines, key=lambda c: (c[1], c[0]))))
    return good, bad


@pytest.mark.parametrize("spec, rule, click, use_total", [
    (Spec(3, 3, 2), "safe", (0, 0), True),
    (Spec(3, 3, 2), "safe", (1, 1), False),
    (Spec(4, 3, 3), "safe", (0, 0), True),
    (Spec(4, 3, 3), "opening", (1, 1), True),
    (Spec(4, 3, 3), "uniform", (3, 2), False),
])
def test_the_census_is_brute_force(spec, rule, click, use_total, monkeypatch):
    c = census(spec, rule, click, use_total=use_total)
    monkeypatch.setattr(fastplay, "_play_index", lambda *args, **kwargs: None)
    good, bad = _brute(spec, rule, click, use_total)
    assert c.boards == sorted(good, key=lambda b: [(y, x) for x, y in b])
    assert c.candidates == len(good) + len(bad)
    assert not set(c.boards) & bad


def test_a_lone_mine_by_hand():
    # From the corner of 3x3: with the total, the corner's number tells whether the
    # mine is beside it, and the rest follows; without it, a mine beside the corner
    # (3 cells) leaves a bare 1, while any of the 5 others gives a 0 whose opening
    # pins the mine.
    assert len(census(Spec(3, 3, 1), "safe", (0, 0)).boards) == 8
    without = census(Spec(3, 3, 1), "safe", (0, 0), use_total=False).boards
    assert without == [((2, 0),), ((2, 1),), ((0, 2),), ((1, 2),), ((2, 2),)]  # row order
    # from the centre the 1 sees all eight cells alike: no board is no-guess
    assert census(Spec(3, 3, 1), "safe", (1, 1)).boards == []


def test_the_census_refuses_what_it_cannot_do():
    with pytest.raises(InputError, match="134,596 layouts"):
        census(Spec(5, 5, 6), "safe", (0, 0), limit=100_000)
    assert math.comb(24, 6) == 134_596
    with pytest.raises(InputError, match="winxp"):
        census(Spec(3, 3, 1), "winxp", (0, 0))
    with pytest.raises(InputError, match="too many mines"):
        census(Spec(3, 3, 1), "opening", (1, 1))


def test_uniformity_by_hand_and_outside_boards():
    c = census(Spec(3, 3, 1), "safe", (0, 0), use_total=False)  # 5 boards, as counted by hand
    sample = [b for b in c.boards for _ in range(2)] + [c.boards[0]] * 5
    f = uniformity(sample, c)
    # counts 7, 2, 2, 2, 2 against 3 each: (16 + 4 * 1) / 3
    assert (f.n, f.df, f.chi2) == (15, 4, Fraction(20, 3))
    assert f.tv == Fraction(1, 2) * (abs(Fraction(7, 15) - Fraction(1, 5)) + 4 * abs(Fraction(2, 15) - Fraction(1, 5)))
    assert f.p_value == pytest.approx(scipy_stats.chi2.sf(20 / 3, 4), rel=1e-9)
    with pytest.raises(InputError, match="not a no-guess board"):
        uniformity([[(1, 1)]], c)


def _draws(method):
    spec, rule, click = SMALL
    c = census(spec, rule, click)
    n = 6 * len(c.boards)  # at least 5 expected per board
    return c, uniformity((generate_no_guess(spec, rule, click, seed=s, method=method) for s in range(n)), c)


def test_retry_is_uniform_over_the_census():
    c, f = _draws("retry")
    assert len(c.boards) > 1000 and f.n >= 5 * len(c.boards)
    assert f.p_value > 0.001


def test_perturb_is_caught():
    _, f = _draws("perturb")
    assert f.p_value < 1e-6
