"""Small, dependency-free statistics for the experiments' tables.

- :func:`wilson` — the Wilson score interval for a binomial proportion (E. B. Wilson,
  "Probable inference, the law of succession, and statistical inference", JASA 22,
  1927). Unlike the normal ("Wald") interval it never leaves [0, 1] and behaves at
  0.1%, where the reference article's normal interval dipped below zero.
- :func:`z_score` — how many standard errors an estimate lies from an exact value.
- :func:`chi2_sf` — the upper tail of the chi-square distribution (regularised
  incomplete gamma function, by its series and continued fraction as in Numerical
  Recipes §6.2), for a global goodness-of-fit line over a table's z-scores.

SciPy is not a run-time dependency; the tests check these against it.
"""

from __future__ import annotations

import math

__all__ = ["wilson", "z_score", "chi2_sf", "Z95"]

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
