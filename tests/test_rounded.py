"""The rounded count: probabilities within bounds proven to hold the exact value.

Oracles: brute-force enumeration of small positions (every covered cell's share of
the layouts must lie inside its interval, the layout count inside its bounds, and a
cell must be shown able to hold a mine exactly when some layout puts one there); the
exact layout count of the 30x16 position without a zero, made by the exact programme
in big integers; the compiled and the Python programmes against each other.
"""

from fractions import Fraction

import numpy as np
import pytest
from conftest import benchmark, require_built
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import brute_force
from strategies import small_positions

from mscsp.analysis.constraints import build_constraints
from mscsp.analysis.counting import probabilities, tally_component
from mscsp.analysis.counting import rounded as R
from mscsp.analysis.counting.exact.order import choose_order
from mscsp.analysis.counting.exact.variables import build_problem
from mscsp.analysis.full import analyse
from mscsp.budget import Budget
from mscsp.position import parse_position

#: The layouts of the no-zero position below (``benchmarks/stress.py``'s
#: ``no_zero_lattice(30, 16, 168, seed=1)``), counted by the exact programme in big
#: integers: ``mscsp count`` with ``--memory-limit 6000`` (58 s, 3.3 GB).
NO_ZERO_LAYOUTS = 17017018079069476283002366928050208


def _parts(position, system, comps):
    out = []
    for comp in comps:
        problem = build_problem(system, comp)
        out.append((problem, choose_order(problem, position.geometry.width).order))
    return out


@pytest.fixture(params=["compiled", "python"])
def programme(request, monkeypatch):
    """Each test runs with the compiled programme and with the Python one."""
    if request.param == "compiled":
        require_built(R.COMPILED, "the compiled rounded count")
    else:
        monkeypatch.setattr(R, "_rounded", None)
    return request.param


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=small_positions(max_covered=14, allow_wrong=False), split=st.randoms(use_true_random=False))
def test_every_interval_holds_the_brute_force_share(programme, position, split):
    system = build_constraints(position)
    comps = list(system.components)
    truth = brute_force(position)
    if not comps or not truth["count"]:
        return
    remaining = system.remaining
    # a random part of the board counted exactly, the rest rounded (with a total)
    rounded = [c for c in comps if split.random() < 0.6] or comps[:1]
    exact = ([tally_component(system, c, kmax=remaining) for c in comps if c not in rounded]
             if remaining is not None else [])
    parts = _parts(position, system, rounded if remaining is not None else comps)
    est = R.rounded_estimate(parts, exact, system.unconstrained if remaining is not None else (), remaining, (1, 1),
                             Budget())
    count = truth["count"] if remaining is not None else brute_force(position, use_total=False)["count"]
    per_cell = truth["per_cell"] if remaining is not None else brute_force(position, use_total=False)["per_cell"]
    assert est.cells
    for c, (p, lo, hi) in est.cells.items():
        share = Fraction(per_cell[c], count)
        assert Fraction(lo) <= share <= Fraction(hi), (c, share, lo, hi)
        assert lo <= p <= hi and hi - lo < 1e-9
        assert (c in est.witnessed[0]) == (per_cell[c] > 0)
        assert (c in est.witnessed[1]) == (per_cell[c] < count)
    if remaining is not None:
        low, high = est.layouts_interval
        assert low <= count <= high


def test_positions_from_play_hold_the_exact_fractions_within_their_bounds():
    # Expert positions of seeded games, past what brute force enumerates: many parts,
    # hundreds of cells away from the numbers; half the parts counted exactly
    module = benchmark("probability")
    corpus, _ = module.build_corpus(40, 11)
    rng = np.random.default_rng(3)
    checked = 0
    for position in corpus:
        exact = probabilities(position)
        system = build_constraints(position)
        comps = list(system.components)
        rounded = [c for c in comps if rng.random() < 0.5] or comps[:1]
        tallies = [tally_component(system, c, kmax=system.remaining) for c in comps if c not in rounded]
        est = R.rounded_estimate(_parts(position, system, rounded), tallies, system.unconstrained, system.remaining,
                                 (1, 1), Budget())
        for c, (p, lo, hi) in est.cells.items():
            assert Fraction(lo) <= exact.by_index[c] <= Fraction(hi)
            assert (c in est.witnessed[0]) == (exact.by_index[c] > 0) and (c in est.witnessed[1]) == (exact.by_index[c] < 1)
            checked += 1
        low, high = est.layouts_interval
        assert low <= exact.layouts <= high
    assert checked > 1000


def test_the_compiled_and_the_python_programmes_give_the_same_doubles(monkeypatch):
    require_built(R.COMPILED, "the compiled rounded count")
    position = parse_position(benchmark("stress").no_zero_lattice(12, 8, 28, seed=3))
    system = build_constraints(position)
    parts = _parts(position, system, system.components)
    compiled = R.rounded_estimate(parts, [], system.unconstrained, system.remaining, (1, 1), Budget())
    monkeypatch.setattr(R, "_rounded", None)
    python = R.rounded_estimate(parts, [], system.unconstrained, system.remaining, (1, 1), Budget())
    assert compiled.cells == python.cells and compiled.layouts == python.layouts


def test_the_position_without_a_zero_gets_every_number_within_proven_bounds():
    # the position of issue #31's first goal: every covered cell a number, within 0.05
    position = parse_position(benchmark("stress").no_zero_lattice(30, 16, 168, seed=1))
    a = analyse(position, time_limit=8.0)
    probs = a.probabilities
    covered = np.flatnonzero(position.covered).tolist()
    assert not probs.exact and all(probs.by_index[c] is not None for c in covered)
    assert max(hi - lo for lo, hi in probs.intervals_by_index.values()) < 1e-9
    est = probs.stats["estimate"]
    assert est["bounds"] == "proven"
    low, high = (float(x) for x in est["layouts_interval"])
    assert low <= NO_ZERO_LAYOUTS <= high
    assert a.result.complete and a.best is not None


def test_a_table_past_the_state_limit_or_the_deadline_declines():
    position = parse_position(benchmark("stress").no_zero_lattice(12, 8, 28, seed=3))
    system = build_constraints(position)
    (problem, order), = _parts(position, system, system.components)
    with pytest.raises(R.Declined, match="states"):
        R.count_rounded(problem, order, 28, None, state_limit=10)
    with pytest.raises(R.Declined, match="time"):
        R.count_rounded(problem, order, 28, None, budget=Budget.of(0))


def test_values_past_the_range_of_doubles_decline():
    # 4s on every other cell of a row between two covered rows: 10^96 assignments on
    # 200 columns, past 2^490 on 1,200
    position = parse_position("." * 1200 + "\n" + "4." * 600 + "\n" + "." * 1200 + "\n")
    system = build_constraints(position)
    (problem, order), = _parts(position, system, system.components)
    with pytest.raises(R.Declined, match="range of doubles"):
        R.count_rounded(problem, order, problem.ncells, None)
    # a weight past any double (a long chain's under a density would be): refused, not raised
    with pytest.raises(R.Declined, match="too large for doubles"):
        R.count_rounded(problem, order, 0, None, by_count=False, mine=1, safe=10**400)


def test_estimation_with_the_state_limit_at_zero_still_samples():
    # the sampling estimators stay reachable (their own tests force them this way)
    position = parse_position(benchmark("stress").no_zero_lattice(12, 8, 28, seed=3))
    est = probabilities(position, state_limit=0, samples=200)
    assert not est.exact and est.stats["estimate"].get("bounds") != "proven"


def test_share_bounds_hold_the_exact_share_of_rounded_inputs():
    rng = np.random.default_rng(7)
    for _ in range(2000):
        mine, safe = (int(x) for x in rng.integers(1, 2**62, size=2))
        depth = int(rng.integers(0, 50))
        # inputs off by at most their depth's bound, in the worst direction
        g = float(R.gamma(depth))
        for m_off, s_off in ((1 + g, 1 - g), (1 - g, 1 + g)):
            p, lo, hi = R.share_bounds(float(mine) * m_off, float(safe) * s_off, depth + 4)
            assert Fraction(lo) <= Fraction(mine, mine + safe) <= Fraction(hi)
