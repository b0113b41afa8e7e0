"""Seeded, exact, machine-independent random sampling.

Every stochastic function in mscsp takes a seed or a :class:`numpy.random.Generator`
and nothing else; there is no global random state. Boards must be the same for the
same seed on every machine and every numpy release, so mine placement does not rely
on ``Generator.choice`` (whose algorithm numpy may change between releases, NEP 19).
It draws raw 64-bit words from the bit generator (PCG64 for :func:`as_generator`,
a stream numpy keeps stable) and turns them into bounded integers with Lemire's
unbiased multiply-and-reject method:

    D. Lemire, "Fast random integer generation in an interval",
    ACM Transactions on Modeling and Computer Simulation 29(1), 2019.

Sampling without replacement is a partial Fisher–Yates shuffle (Durstenfeld's
in-place form), kept sparse in a dictionary so that choosing ``k`` of ``n`` costs
O(k) time and memory, whatever ``n`` is.
"""

from __future__ import annotations

import numpy as np

from .errors import InputError

__all__ = ["as_generator", "fresh_seed", "bounded", "sample_without_replacement", "weighted_sample"]

_MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64


def as_generator(seed: int | np.random.Generator | np.random.SeedSequence) -> np.random.Generator:
    """A generator from a seed (non-negative int or SeedSequence), or the generator itself.

    Examples
    --------
    >>> int(as_generator(7).integers(100)) == int(as_generator(7).integers(100))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"a seed must be a non-negative integer, not {seed!r}")
    return np.random.Generator(np.random.PCG64(int(seed)))


def fresh_seed() -> int:
    """A new seed from the operating system's entropy, to be recorded and reused.

    It is kept below 2**53 so that JSON readers that store numbers as doubles
    (JavaScript among them) read it back exactly.
    """
    return int(np.random.SeedSequence().entropy) & ((1 << 53) - 1)


def bounded(bitgen: np.random.BitGenerator, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` from 64-bit raw draws (Lemire 2019).

    Examples
    --------
    >>> g = as_generator(1).bit_generator
    >>> all(0 <= bounded(g, 6) < 6 for _ in range(100))
    True
    """
    if not 0 < bound <= _TWO64:
        raise InputError(f"bound must be in 1..2**64, not {bound}")
    product = int(bitgen.random_raw()) * bound
    low = product & _MASK64
    if low < bound:
        threshold = (_TWO64 - bound) % bound
        while low < threshold:
            product = int(bitgen.random_raw()) * bound
            low = product & _MASK64
    return product >> 64


def sample_without_replacement(
    n: int, k: int, rng: int | np.random.Generator | np.random.SeedSequence
) -> list[int]:
    """``k`` distinct integers from ``range(n)``, every ``k``-subset equally likely.

    The result is in draw order (a uniformly random ordered sample); sort it for a
    set. The draws are a partial Fisher–Yates shuffle of ``0..n-1``.

    Examples
    --------
    >>> sample_without_replacement(10, 3, 42) == sample_without_replacement(10, 3, 42)
    True
    >>> sorted(sample_without_replacement(5, 5, 0))
    [0, 1, 2, 3, 4]
    """
    if not 0 <= k <= n:
        raise InputError(f"cannot choose {k} of {n} items")
    bitgen = as_generator(rng).bit_generator
    moved: dict[int, int] = {}
    out = []
    for i in range(k):
        j = i + bounded(bitgen, n - i)
        value = moved.get(j, j)
        moved[j] = moved.get(i, i)
        out.append(value)
    return out


def weighted_sample(weights, k: int, rng: int | np.random.Generator | np.random.SeedSequence) -> list[int]:
    """``k`` distinct indices of ``weights``, drawn one by one with probability
    proportional to their (non-negative integer) weights among those not yet drawn.

    Exact and machine-independent like :func:`bounded`: each draw is a uniform
    integer below the remaining total weight, located in the running sums (integer
    arithmetic throughout).

    Examples
    --------
    >>> weighted_sample([1, 0, 5], 2, 3) in ([0, 2], [2, 0])
    True
    >>> weighted_sample([2, 3], 1, 9) == weighted_sample([2, 3], 1, 9)
    True
    """
    left = np.array(weights, dtype=np.int64)
    if (left < 0).any() or not 0 <= k <= int((left > 0).sum()):
        raise InputError(f"cannot draw {k} distinct items by weight from {left.size}")
    bitgen = as_generator(rng).bit_generator
    out = []
    for _ in range(k):
        running = np.cumsum(left)
        i = int(np.searchsorted(running, bounded(bitgen, int(running[-1])), side="right"))
        out.append(i)
        left[i] = 0
    return out
