import pytest
from scipy import stats as sps

from mscsp.stats import chi2_sf, wilson, z_score


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
