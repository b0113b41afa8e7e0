import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from mscsp.stats import (Z95, chi2_sf, kolmogorov_sf, ks_two_sample, mean_interval, paired_difference, standard_error,
                         wilson, z_score)


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


def test_paired_difference_takes_numpy_counts_at_the_records_scale():
    # counts read from a table are numpy int64; at 200,000 paired games the product of the
    # margins is near 10**20, past int64, so the table's counts must give the ints' answer
    import numpy as np

    cells = (65_600, 16_090, 16_500, 101_810)
    want = paired_difference(*cells)
    assert paired_difference(*(np.int64(c) for c in cells)) == want
    # and the interval is the square-and-add one: narrower than the two Wilson intervals
    # side by side, as the pairs are strongly correlated here
    n = sum(cells)
    (l1, u1), (l2, u2) = wilson(cells[0] + cells[1], n), wilson(cells[0] + cells[2], n)
    assert want[2] - want[1] < (u1 - l1) + (u2 - l2) and want[1] < want[0] < want[2] < 0


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


@pytest.mark.parametrize("x", [0.25, 0.5, 0.8, 1.0, 1.2247, 1.358, 1.6276, 2.0, 3.0])
def test_kolmogorov_tail_equals_scipy(x):
    assert kolmogorov_sf(x) == pytest.approx(sps.kstwobign.sf(x), rel=1e-9, abs=1e-15)


@given(st.lists(st.integers(0, 30), min_size=1, max_size=60), st.lists(st.integers(0, 30), min_size=1, max_size=60))
def test_ks_distance_equals_scipy_with_ties(a, b):
    distance, p = ks_two_sample(a, b)
    assert distance == pytest.approx(sps.ks_2samp(a, b, method="asymp").statistic, abs=1e-12)
    assert 0.0 <= p <= 1.0


def test_ks_p_value_is_close_to_scipys_asymptotic_one():
    rng = np.random.default_rng(5)
    for _ in range(20):
        a, b = rng.normal(0, 1, 300), rng.normal(0.1, 1, 250)
        # Stephens' correction moves the p-value by a few per cent of itself at these sizes
        assert ks_two_sample(a, b)[1] == pytest.approx(sps.ks_2samp(a, b, method="asymp").pvalue, rel=0.05, abs=1e-3)


def test_ks_p_values_are_about_uniform_under_the_null():
    rng = np.random.default_rng(11)
    ps = np.array([ks_two_sample(rng.random(200), rng.random(200))[1] for _ in range(400)])
    assert 0.02 <= (ps < 0.05).mean() <= 0.09


def test_standard_error_of_a_small_sample_worked_by_hand():
    # mean 5; squared deviations 9 + 1 + 1 + 1 + 0 + 0 + 4 + 16 = 32; sample variance
    # 32 / 7; standard error sqrt(32 / 7) / sqrt(8) = sqrt(4 / 7) = 2 / sqrt(7)
    assert standard_error([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2 / 7 ** 0.5, rel=1e-15)
    assert standard_error([3, 3]) == 0.0
    assert standard_error(iter([1.0, 3.0])) == 1.0  # sd sqrt(2), over sqrt(2)
    for few in ([], [4]):
        with pytest.raises(ValueError, match="at least two values"):
            standard_error(few)


@given(st.lists(st.integers(0, 500), min_size=2, max_size=60), st.randoms(use_true_random=False))
def test_standard_error_equals_scipys_and_ignores_the_order(values, rng):
    assert standard_error(values) == pytest.approx(sps.sem(values), rel=1e-12, abs=1e-15)
    shuffled = list(values)
    rng.shuffle(shuffled)
    assert standard_error(shuffled) == standard_error(values)  # exact sums: not even the last bit moves


def test_mean_interval_is_the_mean_plus_or_minus_z_standard_errors():
    values = [1, 2, 3, 4]
    mean, low, high = mean_interval(values)
    assert (mean - low, high - mean) == pytest.approx((Z95 * standard_error(values),) * 2, rel=1e-14)


def test_mean_interval_equals_scipys_normal_interval():
    values = np.random.default_rng(3).exponential(2.0, 500)
    mean, low, high = mean_interval(values)
    ref = sps.norm.interval(0.95, loc=values.mean(), scale=sps.sem(values))
    assert mean == pytest.approx(values.mean()) and (low, high) == pytest.approx(ref, rel=1e-9)
    assert mean_interval([7]) == (7.0, 7.0, 7.0)
    with pytest.raises(ValueError):
        mean_interval([])
