from itertools import product
from math import comb

import pytest
from pysat.solvers import Solver

from mscsp.analysis.solvers.encoding import ENCODINGS, exact_counter, exactly


def _projected_models(clauses, nv, lits):
    """Distinct assignments of ``lits`` that extend to a model (checked exhaustively)."""
    found = set()
    with Solver(name="g4", bootstrap_with=clauses) as s:
        for bits in product((False, True), repeat=len(lits)):
            assume = [v if b else -v for v, b in zip(lits, bits)]
            if s.solve(assumptions=assume):
                found.add(bits)
    return found


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("n", range(1, 9))
def test_clue_encodings_have_comb_n_k_models(encoding, n):
    lits = list(range(1, n + 1))
    for k in range(n + 1):
        clauses, top = exactly(lits, k, top=n, encoding=encoding)
        models = _projected_models(clauses, top, lits)
        assert len(models) == comb(n, k)
        assert all(sum(m) == k for m in models)


@pytest.mark.parametrize("n", range(1, 9))
def test_binomial_encoding_model_count_is_exact(n):
    lits = list(range(1, n + 1))
    for k in range(n + 1):
        clauses, top = exactly(lits, k, top=n)
        assert top == n  # no auxiliary variables
        with Solver(name="g4", bootstrap_with=clauses) as s:
            s.add_clause([1, -1])  # make sure every variable exists
            assert sum(1 for _ in s.enum_models()) == comb(n, k)


@pytest.mark.parametrize("n", [1, 2, 5, 9, 12])
def test_exact_counter_models_equal_layouts(n):
    lits = list(range(1, n + 1))
    for k in range(n + 1):
        clauses, top = exact_counter(lits, k, top=n)
        with Solver(name="g4", bootstrap_with=clauses + [[v, -v] for v in range(1, top + 1)]) as s:
            assert sum(1 for _ in s.enum_models()) == comb(n, k), (n, k)


def test_impossible_counts_give_an_empty_clause():
    assert exactly([1, 2], 3, top=2) == ([[]], 2)
    assert exact_counter([1, 2], -1, top=2) == ([[]], 2)
