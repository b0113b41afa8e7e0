import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from mscsp.stats import chi2_sf, paired_difference, wilson, z_score


@pytest.mark.parametrize("k,n", [(0, 10), (1, 10), (5, 10), (10, 10), (2, 2000), (1274, 2000), (24815, 200000)])
def test_wilson_equals_scipy(k, n):
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson(k, n)
    assert low == pytest.approx(ci.low, abs=1e-12) and high == pytest.approx(ci.high, abs=1e-12)


@pytest.mark.parametrize("x,df", [(0.5, 1), (3.84, 1), (9.93, 9), (30.0, 9), (100.0, 50), (1e-3, 3), (250.0, 200)])
def test_chi2_tail_equals_scipy(x, df):
    assert chi2_sf(x, df) == pytest.approx(sps.chi2.sf(x, df), rel=1e-9, abs=1e-15)


def test_z_score():
    assert z_score(50, 100, 0.5) == 0
    assert z_score(60, 100, 0.5) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_paired_difference_matches_the_published_example():
    # Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables" (2017),
    # chapter 8: complete response before and after consolidation therapy (Cavo et al.,
    # 2012), Newcombe's square-and-add interval -0.0621 (-0.1186 to -0.0046)
    diff, low, high = paired_difference(59, 6, 16, 80)
    assert (round(diff, 4), round(low, 4), round(high, 4)) == (-0.0621, -0.1186, -0.0046)


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_paired_difference_is_sound_and_antisymmetric(both, first, second, neither):
    if both + first + second + neither == 0:
        with pytest.raises(ValueError):
            paired_difference(both, first, second, neither)
        return
    diff, low, high = paired_difference(both, first, second, neither)
    assert diff == pytest.approx((first - second) / (both + first + second + neither))
    assert -1 <= low <= diff <= high <= 1
    # swapping the two policies negates the difference and mirrors the interval
    d2, l2, h2 = paired_difference(both, second, first, neither)
    assert (d2, l2, h2) == pytest.approx((-diff, -high, -low), abs=1e-12)


def test_paired_difference_covers_about_95_percent():
    # the interval's own promise, checked by simulation: pairs drawn with a known
    # difference (0.03 - 0.02), as two policies on mostly alike games
    rng = np.random.default_rng(12345)
    probs, truth, n = [0.50, 0.03, 0.02, 0.45], 0.01, 1000
    tables = rng.multinomial(n, probs, size=2000)
    covered = sum(low <= truth <= high for _, low, high in (paired_difference(*map(int, t)) for t in tables))
    assert 0.93 <= covered / len(tables) <= 0.97
    # and it is far narrower than the two unpaired Wilson intervals side by side
    _, low, high = paired_difference(500, 30, 20, 450)
    l1, h1 = wilson(530, n)
    l2, h2 = wilson(520, n)
    assert high - low < 0.5 * ((h1 - l1) + (h2 - l2))
