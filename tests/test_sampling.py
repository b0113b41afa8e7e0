import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from scipy import stats

from mscsp.errors import InputError
from mscsp.sampling import as_generator, bounded, sample_without_replacement, weighted_sample


def test_pinned_sample():
    # Pinned so that any change of the sampler (and so of every board) is noticed.
    assert sample_without_replacement(1000, 8, 99) == [506, 565, 512, 972, 616, 570, 291, 557]


def test_samples_are_distinct_and_in_range():
    rng = as_generator(5)
    for n in (1, 2, 7, 50):
        for k in range(n + 1):
            s = sample_without_replacement(n, k, rng)
            assert len(s) == k == len(set(s)) and all(0 <= v < n for v in s)


def test_every_subset_equally_likely_chi_square():
    n, k = 8, 3
    subsets = list(itertools.combinations(range(n), k))
    draws = 200 * len(subsets)
    rng = as_generator(20261129)
    counts = Counter(tuple(sorted(sample_without_replacement(n, k, rng))) for _ in range(draws))
    observed = [counts[s] for s in subsets]
    assert sum(observed) == draws
    p = stats.chisquare(observed).pvalue
    assert p > 1e-3, p


def test_bounded_is_uniform_for_an_awkward_bound():
    bitgen = as_generator(3).bit_generator
    bound = 3 * 2**62  # rejections are frequent here: the threshold is 2**62
    values = [bounded(bitgen, bound) for _ in range(4000)]
    assert all(0 <= v < bound for v in values)
    thirds = Counter(v * 3 // bound for v in values)
    assert stats.chisquare([thirds[i] for i in range(3)]).pvalue > 1e-3


def test_seed_validation():
    for bad in (-1, 1.5, "1", True):
        with pytest.raises(InputError):
            as_generator(bad)
    with pytest.raises(InputError):
        sample_without_replacement(3, 4, 0)


def test_generator_and_seed_sequence_accepted():
    ss = np.random.SeedSequence(11)
    assert sample_without_replacement(100, 5, ss) == sample_without_replacement(100, 5, np.random.SeedSequence(11))
    g = np.random.default_rng(4)
    assert sample_without_replacement(100, 5, g) == sample_without_replacement(100, 5, np.random.default_rng(4))


def test_all_orders_equally_likely_for_small_case():
    # ordered samples of 2 from 4: 12 orders
    rng = as_generator(77)
    counts = Counter(tuple(sample_without_replacement(4, 2, rng)) for _ in range(12 * 300))
    assert len(counts) == 12 == comb(4, 2) * 2
    assert stats.chisquare(list(counts.values())).pvalue > 1e-3


def test_weighted_draws_follow_the_weights_chi_square():
    # the oracle: for draws of two, P(i then j) = w_i / W * w_j / (W - w_i)
    weights = [1, 0, 4, 2, 3]
    total = sum(weights)
    pairs = [(i, j) for i in range(5) for j in range(5) if i != j and weights[i] and weights[j]]
    expected = [weights[i] / total * weights[j] / (total - weights[i]) for i, j in pairs]
    rng = as_generator(77)
    draws = 12_000
    counts = Counter(tuple(weighted_sample(weights, 2, rng)) for _ in range(draws))
    assert set(counts) <= set(pairs)  # never a zero weight, never the same index twice
    observed = [counts[pair] for pair in pairs]
    assert stats.chisquare(observed, [e * draws for e in expected]).pvalue > 1e-3


def test_weighted_sample_is_pinned_and_checks_its_request():
    # pinned: the perturbation generator's boards depend on it
    assert weighted_sample([5, 1, 1, 9, 2], 3, 2026) == [0, 3, 2]
    assert sorted(weighted_sample([1, 1, 1], 3, 1)) == [0, 1, 2]
    with pytest.raises(InputError):
        weighted_sample([1, 0], 2, 1)
    with pytest.raises(InputError):
        weighted_sample([1, -1], 1, 1)
