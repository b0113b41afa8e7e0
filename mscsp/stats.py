"""Small, dependency-free statistics for the experiments' tables.

- :func:`wilson` — the Wilson score interval for a binomial proportion (E. B. Wilson,
  "Probable inference, the law of succession, and statistical inference", JASA 22,
  1927). Unlike the normal ("Wald") interval it never leaves [0, 1] and behaves at
  0.1%, where the reference article's normal interval dipped below zero.
- :func:`paired_difference` — the difference between two proportions measured on
  the same trials, with Newcombe's interval for paired data (R. G. Newcombe,
  "Improved confidence intervals for the difference between binomial proportions
  based on paired data", Statistics in Medicine 17, 1998, method 10): the two
  Wilson intervals combined by "square and add", corrected for the correlation of
  the pairs. Where two policies play the same boards, most games end alike, and
  the paired interval is several times narrower than the two Wilson intervals.
- :func:`z_score` — how many standard errors an estimate lies from an exact value.
- :func:`chi2_sf` — the upper tail of the chi-square distribution (regularised
  incomplete gamma function, by its series and continued fraction as in Numerical
  Recipes §6.2), for a global goodness-of-fit line over a table's z-scores.
- :func:`standard_error` — the standard error of a sample mean.
- :func:`mean_interval` — a sample mean with its normal-approximation 95% interval.
- :func:`ks_two_sample` — the two-sample Kolmogorov–Smirnov distance and its
  asymptotic p-value (Kolmogorov's limiting distribution with Stephens' small-sample
  correction, M. A. Stephens, "Use of the Kolmogorov–Smirnov, Cramér–von Mises and
  related statistics without extensive tables", JRSS B 32, 1970; as in Numerical
  Recipes §14.3). On samples with ties, such as 3BV counts, the p-value is
  conservative (too large).
- :func:`cells_chi2` — whether each cell of a board holds a mine as often in two
  samples of boards: Pearson's chi-square of every cell's 2 x 2 table, summed;
  :func:`cells_chi2_permutation`, its permutation p-value (exact whatever the
  dependence between the cells of a board).
- :func:`two_proportions` — the difference of two independent proportions and the
  p-value of the pooled two-proportion z test (the 2 x 2 chi-square without
  continuity correction).

SciPy is not a run-time dependency; the tests check these against it.
"""

from __future__ import annotations

import math
import operator

__all__ = ["wilson", "paired_difference", "z_score", "chi2_sf", "standard_error", "mean_interval",
           "ks_two_sample", "kolmogorov_sf", "cells_chi2", "cells_chi2_permutation", "two_proportions", "Z95"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval ``(low, high)`` for ``k`` successes in ``n`` trials.

    Examples
    --------
    >>> low, high = wilson(2, 2000)
    >>> round(low, 5), round(high, 5)
    (0.00027, 0.00364)
    >>> wilson(0, 10)[0]
    0.0
    """
    if n <= 0:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes out of {n} trials")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at k = 0 and k = n the bounds are exactly 0 and 1; rounding must not move them
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def paired_difference(both: int, first_only: int, second_only: int, neither: int,
                      z: float = Z95) -> tuple[float, float, float]:
    """The difference ``(first_only - second_only) / n`` between two proportions
    measured on the same ``n`` trials, with Newcombe's 95% interval: ``(diff, low, high)``.

    ``both`` trials succeed under both, ``first_only`` only under the first, and so on.

    Examples
    --------
    >>> d, low, high = paired_difference(59, 6, 16, 80)
    >>> round(d, 4), round(low, 4), round(high, 4)
    (-0.0621, -0.1186, -0.0046)
    """
    # Python ints: the product of the margins passes 2**63 near n = 55,000, where numpy's
    # fixed-width integers (counts read from a table) would overflow silently
    both, first_only, second_only, neither = (operator.index(c) for c in (both, first_only, second_only, neither))
    cells = (both, first_only, second_only, neither)
    if any(c < 0 for c in cells):
        raise ValueError(f"negative count in the paired table {cells}")
    n = sum(cells)
    if n == 0:
        raise ValueError("a paired difference needs at least one trial")
    k1, k2 = both + first_only, both + second_only
    p1, p2 = k1 / n, k2 / n
    l1, u1 = wilson(k1, n, z)
    l2, u2 = wilson(k2, n, z)
    # phi estimates the correlation of the pairs, shrunk by n/2 towards 0 when positive
    # (Newcombe's correction, so that the interval is not too narrow on small tables)
    margins = k1 * (n - k1) * k2 * (n - k2)
    phi = 0.0
    if margins:
        a = both * neither - first_only * second_only
        phi = (a - n / 2 if a > n / 2 else min(a, 0)) / math.sqrt(margins)
    d = p1 - p2
    low = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = d + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return d, max(-1.0, low), min(1.0, high)


def z_score(k: int, n: int, exact: float) -> float:
    """``(k/n - exact) / sqrt(exact (1 - exact) / n)``: the error in standard errors
    under the exact value (0 when the exact value is 0 or 1 and matched)."""
    var = exact * (1 - exact) / n
    if var == 0:
        return 0.0 if k / n == exact else math.copysign(math.inf, k / n - exact)
    return (k / n - exact) / math.sqrt(var)


def _gamma_series(a: float, x: float) -> float:
    total = term = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """``P(X >= x)`` for ``X`` chi-square with ``df`` degrees of freedom.

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05
    """
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if x <= 0:
        return 1.0
    a, y = df / 2, x / 2
    if y < a + 1:
        return max(0.0, 1 - _gamma_series(a, y))
    return _gamma_fraction(a, y)


def standard_error(values) -> float:
    """The standard error of the mean of ``values``: the sample standard deviation
    (with ``n - 1`` in its denominator) over the square root of ``n``.

    The sums are exact (:func:`math.fsum`), so the answer does not depend on the
    order of the values.

    Parameters
    ----------
    values : iterable of float
        At least two values.

    Returns
    -------
    float
        ``sqrt(sum((v - mean)**2) / (n - 1)) / sqrt(n)``.

    Raises
    ------
    ValueError
        For fewer than two values, which have no sample standard deviation.

    Examples
    --------
    The values 1, 2, 3, 4 have mean 2.5, squared deviations adding up to 5, a sample
    variance of 5/3 and so a standard error of sqrt(5/3) / 2:

    >>> round(standard_error([1, 2, 3, 4]), 6)
    0.645497
    """
    values = [float(v) for v in values]
    n = len(values)
    if n < 2:
        raise ValueError(f"a standard error needs at least two values, not {n}")
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) / math.sqrt(n)


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` with its normal-approximation 95% interval:
    ``(mean, low, high)``, the half-width ``z`` standard errors (sample standard
    deviation over the square root of ``n``). One value gives a zero-width interval
    around it; no value is a ValueError.

    Examples
    --------
    >>> [round(v, 4) for v in mean_interval([1, 2, 3, 4])]
    [2.5, 1.2348, 3.7652]
    """
    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean, mean
    half = z * standard_error(values)
    return mean, mean - half, mean + half


def kolmogorov_sf(x: float) -> float:
    """``P(K > x)`` for Kolmogorov's limiting distribution,
    ``2 * sum((-1)**(k-1) * exp(-2 k**2 x**2))``.

    Examples
    --------
    >>> round(kolmogorov_sf(1.3580986393225507), 4)  # the 5% critical value
    0.05
    >>> kolmogorov_sf(0.0)
    1.0
    """
    if x <= 0:
        return 1.0
    if x < 0.2:
        # the series converges slowly here and the tail is 1 to double precision
        return 1.0
    total, sign = 0.0, 1.0
    for k in range(1, 101):
        term = sign * math.exp(-2.0 * k * k * x * x)
        total += term
        if abs(term) < 1e-16 * abs(total):
            break
        sign = -sign
    return min(1.0, max(0.0, 2.0 * total))


def ks_two_sample(a, b) -> tuple[float, float]:
    """The two-sample Kolmogorov–Smirnov distance between samples ``a`` and ``b``
    (the largest gap between their empirical distribution functions) and its
    asymptotic p-value: ``(distance, p)``.

    Examples
    --------
    >>> d, p = ks_two_sample(range(100), range(50, 150))
    >>> d, p < 1e-10
    (0.5, True)
    """
    xs, ys = sorted(float(v) for v in a), sorted(float(v) for v in b)
    n, m = len(xs), len(ys)
    if not n or not m:
        raise ValueError("both samples need at least one value")
    i = j = 0
    distance = 0.0
    while i < n and j < m:
        # step past every copy of the smaller value in both samples, so ties move together
        v = min(xs[i], ys[j])
        while i < n and xs[i] == v:
            i += 1
        while j < m and ys[j] == v:
            j += 1
        distance = max(distance, abs(i / n - j / m))
    effective = math.sqrt(n * m / (n + m))
    return distance, kolmogorov_sf((effective + 0.12 + 0.11 / effective) * distance)


def cells_chi2(a, n_a: int, b, n_b: int) -> tuple[float, int, float]:
    """Whether every cell holds a mine as often in one sample of boards as in another:
    ``a[c]`` of ``n_a`` boards have a mine on cell ``c``, ``b[c]`` of ``n_b``. The
    statistic is Pearson's chi-square of each cell's 2 x 2 table (mine or not, one
    sample or the other) summed over the cells; returns ``(statistic, degrees of
    freedom, p-value)``. Every board holds the same number of mines, so the cells'
    differences sum to zero: ``df`` is the number of informative cells less one (cells
    with a mine on every board or on none are left out). Counting the mines as one
    multinomial draw instead would ignore that a cell holds at most one mine a board,
    and understate the statistic by the share of safe cells.

    Examples
    --------
    >>> cells_chi2([10, 20, 0], 40, [10, 20, 0], 40)
    (0.0, 1, 1.0)
    """
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    if len(a) != len(b):
        raise ValueError("the two samples need the same cells")
    if not n_a or not n_b:
        return float("nan"), 0, float("nan")
    stat, informative = 0.0, 0
    for x, y in zip(a, b):
        pooled = (x + y) / (n_a + n_b)
        if pooled in (0.0, 1.0):
            continue
        informative += 1
        diff = x / n_a - y / n_b
        stat += diff * diff / (pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    df = informative - 1
    if df < 1:
        return float("nan"), max(df, 0), float("nan")
    return stat, df, chi2_sf(stat, df)

def two_proportions(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """The difference ``k1/n1 - k2/n2`` of two independent proportions and the
    two-sided p-value of the pooled two-proportion z test; NaN for an empty sample.

    Examples
    --------
    >>> two_proportions(5, 10, 5, 10)
    (0.0, 1.0)
    """
    if not n1 or not n2:
        return float("nan"), float("nan")
    diff = k1 / n1 - k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var == 0:
        return diff, 1.0
    return diff, chi2_sf(diff * diff / var, 1)


def cells_chi2_permutation(a, b, rng, permutations: int = 999) -> float:
    """The permutation p-value of :func:`cells_chi2` for two samples of boards
    (``a`` and ``b``: one row of mine indicators a board, a column a cell; ``rng`` a
    numpy Generator): the boards pooled and split at random into
    samples of the same sizes ``permutations`` times; ``(1 + splits scoring at least
    the observed statistic) / (1 + permutations)``. Exact under the null hypothesis
    whatever the dependence between the cells of a board.

    Examples
    --------
    >>> import numpy as np
    >>> same = np.eye(4, dtype=bool)
    >>> cells_chi2_permutation(same, same, np.random.default_rng(1), 99)
    1.0
    """
    import numpy as np

    pooled = np.vstack([a, b]).astype(np.float64)
    n_a, n = len(a), len(a) + len(b)
    total = pooled.sum(axis=0)
    informative = (total > 0) & (total < n)
    pooled, total = pooled[:, informative], total[informative]
    if not informative.any():
        return float("nan")
    share = total / n
    scale = share * (1 - share) * (1 / n_a + 1 / (n - n_a))

    def statistic(in_a: np.ndarray) -> np.ndarray:  # in_a: n x k indicators, one split a column
        ka = pooled.T @ in_a
        diff = ka / n_a - (total[:, None] - ka) / (n - n_a)
        return (diff * diff / scale[:, None]).sum(axis=0)

    observed = statistic(np.r_[np.ones(n_a), np.zeros(n - n_a)][:, None])[0]
    splits = np.zeros((n, permutations))
    order = rng.permuted(np.tile(np.arange(n), (permutations, 1)), axis=1)
    np.put_along_axis(splits, order[:, :n_a].T, 1.0, axis=0)
    at_least = int((statistic(splits) >= observed * (1 - 1e-12)).sum())
    return (1 + at_least) / (1 + permutations)
