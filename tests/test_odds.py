import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from mscsp.board import Geometry
from mscsp.experiments.first_click import simulate_openings
from mscsp.odds import opening_probability
from mscsp.rules import FirstClickRule


def _enumerate(g: Geometry, mines: int, rule: str, click: int) -> Fraction:
    """Exact odds by listing every equally likely draw of the rule's sampler."""
    rule = FirstClickRule(rule)
    excluded = set(rule.excluded(g, click))
    pool = [c for c in g.cells.tolist() if c not in excluded]
    block = set(g.closed_neighbourhood(click))
    hits = total = 0
    for chosen in itertools.combinations(pool, mines):
        placed = set(chosen)
        if rule is FirstClickRule.WINXP and click in placed:
            placed.discard(click)
            placed.add(next(c for c in g.cells.tolist() if c not in placed and c != click))
        total += 1
        hits += not (placed & block)
    return Fraction(hits, total)


@pytest.mark.parametrize("rule", ["uniform", "safe", "opening", "winxp"])
@pytest.mark.parametrize("w,h,holes", [(3, 3, ()), (4, 3, ()), (5, 2, ()), (1, 5, ()), (4, 4, (5, 10))])
def test_closed_forms_equal_exact_enumeration(rule, w, h, holes):
    g = Geometry(w, h, frozenset(holes))
    for click in g.cells.tolist():
        for mines in range(0, 5):
            try:
                got = opening_probability(g, mines, rule, g.coords(click))
            except ValueError:
                continue
            assert got == _enumerate(g, mines, rule, click), (click, mines)


@pytest.mark.parametrize("rule", ["uniform", "safe", "winxp", "opening"])
@pytest.mark.parametrize("click", [(0, 0), (4, 0), (4, 4), (8, 8)])
def test_vectorised_simulation_matches_closed_form(rule, click):
    g = Geometry(9, 9)
    cell = g.index(*click)
    n = 20_000
    hits = simulate_openings(g, 10, rule, cell, n, np.random.default_rng(123))
    exact = float(opening_probability(g, 10, rule, click))
    if exact == 1.0:
        assert hits == n
    else:
        assert stats.binomtest(hits, n, exact).pvalue > 1e-4, (hits / n, exact)


def test_simulation_places_mines_like_the_rules():
    # the vectorised sampler against the game's own sampler, on the distribution of
    # the click's neighbourhood mine count
    from mscsp.rules import place_mines

    g = Geometry(5, 4)
    for rule in ("uniform", "safe", "winxp"):
        sim = simulate_openings(g, 6, rule, 7, 30_000, np.random.default_rng(9)) / 30_000
        direct = np.mean([not place_mines(g, 6, rule, g.coords(7), s).mines[list(g.closed_neighbourhood(7))].any()
                          for s in range(3000)])
        assert abs(sim - direct) < 0.04
