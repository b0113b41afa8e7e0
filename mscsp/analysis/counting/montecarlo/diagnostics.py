"""Convergence of Markov chains: split R-hat, effective sample size, intervals.

The diagnostics of A. Vehtari, A. Gelman, D. Simpson, B. Carpenter and P.-C. Bürkner,
"Rank-normalization, folding, and localization: an improved R-hat for assessing
convergence of MCMC", Bayesian Analysis 16 (2021), in the form Stan computes them:

- every chain is split in halves, so a chain that drifts disagrees with itself;
- with ``W`` the mean variance within the half-chains and ``B / n`` the variance of
  their means, ``var+ = (n - 1) / n * W + B / n`` over-estimates the variance of a
  draw while the chains have not mixed, and ``R-hat = sqrt(var+ / W)`` tends to 1 as
  they do (Gelman and Rubin, "Inference from iterative simulation using multiple
  sequences", Statistical Science 7, 1992);
- the effective sample size is ``chains * n / tau``, the integrated autocorrelation
  time ``tau`` summed from the chains' autocorrelations (against ``var+``, so that
  chains that disagree also count as correlated) by Geyer's initial monotone sequence
  (C. J. Geyer, "Practical Markov chain Monte Carlo", Statistical Science 7, 1992).

The quantities here are mine fractions in ``[0, 1]``, so the interval of a mean is
Wilson's score interval with the number of Bernoulli draws that would give the same
standard error (Wilson, JASA 22, 1927): it stays inside ``[0, 1]`` and does not
shrink to a point where every draw agrees. No rank normalisation: a mine fraction
takes a few values only, and its mean is what is estimated.

Everything is vectorised over the first axis, one row a quantity.
"""

from __future__ import annotations

import numpy as np

from ....stats import Z95

__all__ = ["Summary", "summarise", "split_rhat", "effective_size", "wilson_intervals"]


def _split(draws: np.ndarray) -> np.ndarray:
    """``(quantities, chains, draws)`` -> ``(quantities, 2 * chains, draws // 2)``: each
    chain cut in two halves (the middle draw of an odd length dropped)."""
    draws = np.asarray(draws, dtype=float)
    if draws.ndim != 3:
        raise ValueError("draws must be shaped (quantities, chains, draws)")
    half = draws.shape[2] // 2
    if half < 2:
        raise ValueError("split diagnostics need at least four draws a chain")
    return np.concatenate([draws[:, :, :half], draws[:, :, draws.shape[2] - half:]], axis=1)


def _moments(split: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean of all draws, ``W`` and ``var+`` of split chains."""
    n = split.shape[2]
    means = split.mean(axis=2)
    within = split.var(axis=2, ddof=1).mean(axis=1)
    between = n * means.var(axis=1, ddof=1)
    return means.mean(axis=1), within, (n - 1) / n * within + between / n


def split_rhat(draws) -> np.ndarray:
    """Split R-hat of each quantity: about 1 when the chains agree, above when not.

    ``nan`` for a quantity that never varies; ``inf`` for one that is constant
    within every half-chain but differs between them (the chains are stuck apart).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> mixed = rng.random((1, 4, 1000))
    >>> float(split_rhat(mixed)[0]) < 1.01
    True
    >>> apart = mixed + np.arange(4)[None, :, None]  # each chain around its own level
    >>> float(split_rhat(apart)[0]) > 2
    True
    """
    _, within, plus = _moments(_split(draws))
    return _rhat(within, plus)


def _rhat(within: np.ndarray, plus: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(plus / within)


def _autocovariance(split: np.ndarray) -> np.ndarray:
    """Each half-chain's autocovariance at every lag (biased, divided by ``n``), by FFT."""
    n = split.shape[2]
    centred = split - split.mean(axis=2, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=2)
    return np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=2)[:, :, :n] / n


def effective_size(draws) -> np.ndarray:
    """Effective sample size of each quantity's mean over all chains.

    ``nan`` for a quantity that never varies.

    Examples
    --------
    >>> rng = np.random.default_rng(2)
    >>> independent = rng.random((1, 4, 500))
    >>> 1500 < float(effective_size(independent)[0]) < 2600
    True
    >>> sticky = np.repeat(independent[:, :, :50], 10, axis=2)  # every value kept ten draws
    >>> 100 < float(effective_size(sticky)[0]) < 350
    True
    """
    split = _split(draws)
    _, within, plus = _moments(split)
    return _effective_size(split, within, plus)


def _effective_size(split: np.ndarray, within: np.ndarray, plus: np.ndarray) -> np.ndarray:
    chains, n = split.shape[1], split.shape[2]
    acov = _autocovariance(split).mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        # Stan's estimator: W from unbiased variances, lags from biased autocovariances
        rho = 1.0 - (within[:, None] - acov) / plus[:, None]
    rho[:, 0] = 1.0
    pairs = rho[:, : 2 * (n // 2)].reshape(len(rho), -1, 2).sum(axis=2)
    # Geyer: the sum of adjacent autocorrelations is positive and decreasing for a
    # reversible chain; keep the initial positive run, made monotone
    keep = np.cumprod(pairs > 0, axis=1).astype(bool)
    monotone = np.minimum.accumulate(np.where(keep, pairs, np.inf), axis=1)
    tau = -1.0 + 2.0 * np.where(keep, monotone, 0.0).sum(axis=1)
    # an antithetic chain may have tau below 1; Stan caps the size at M n log10(M n)
    tau = np.maximum(tau, 1.0 / np.log10(chains * n))
    ess = chains * n / tau
    ess[~(plus > 0)] = np.nan
    return ess


def wilson_intervals(mean, plus, ess, reference: float, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """95% intervals ``(low, high)`` of means of quantities in ``[0, 1]``.

    A mean with standard error ``sqrt(plus / ess)`` is worth ``m = mean (1 - mean)
    ess / plus`` Bernoulli draws; its interval is Wilson's for ``m`` draws. Where no
    draw varied (``plus`` 0) the chains saw one value only, and ``reference`` draws
    stand for ``m`` (the caller's effective size of what did vary): the interval then
    reaches ``z**2 / (reference + z**2)`` away from that value, the "rule of three".

    Examples
    --------
    >>> low, high = wilson_intervals(np.array([0.5, 0.0]), np.array([0.25, 0.0]),
    ...                              np.array([400.0, np.nan]), reference=100.0)
    >>> np.round(low, 3).tolist(), np.round(high, 3).tolist()
    ([0.451, 0.0], [0.549, 0.037])
    """
    mean = np.clip(np.asarray(mean, dtype=float), 0.0, 1.0)
    plus = np.asarray(plus, dtype=float)
    ess = np.asarray(ess, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        m = mean * (1.0 - mean) * ess / plus
    # a variance of rounding size is no variance: the draws all agreed
    flat = ~(plus > 1e-12) | ~np.isfinite(m) | (m <= 0)
    m = np.where(flat, max(float(reference), 1.0), m)
    z2 = z * z
    centre = (mean + z2 / (2 * m)) / (1 + z2 / m)
    half = z * np.sqrt(mean * (1 - mean) / m + z2 / (4 * m * m)) / (1 + z2 / m)
    low = np.clip(centre - half, 0.0, 1.0)
    high = np.clip(centre + half, 0.0, 1.0)
    low = np.minimum(low, mean)
    high = np.maximum(high, mean)
    return low, high


class Summary:
    """Mean, ``var+``, split R-hat and effective size of each quantity (see :func:`summarise`)."""

    __slots__ = ("mean", "plus", "rhat", "ess")

    def __init__(self, mean: np.ndarray, plus: np.ndarray, rhat: np.ndarray, ess: np.ndarray):
        self.mean, self.plus, self.rhat, self.ess = mean, plus, rhat, ess


def summarise(draws, batch: int = 512) -> Summary:
    """:func:`split_rhat` and :func:`effective_size` with the means, ``batch``
    quantities at a time (the FFT holds a few copies of a batch's draws).

    The mean is over every draw of every chain.

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> s = summarise((rng.random((3, 4, 1000)) < 0.3).astype(float))
    >>> np.round(s.mean, 1).tolist(), bool((s.rhat < 1.05).all())
    ([0.3, 0.3, 0.3], True)
    """
    draws = np.asarray(draws, dtype=float)
    parts = []
    for start in range(0, len(draws), batch):
        chunk = draws[start:start + batch]
        split = _split(chunk)
        _, within, plus = _moments(split)
        parts.append((chunk.mean(axis=(1, 2)), plus, _rhat(within, plus), _effective_size(split, within, plus)))
    if not parts:
        empty = np.zeros(0)
        return Summary(empty, empty, empty, empty)
    return Summary(*(np.concatenate(column) for column in zip(*parts)))
