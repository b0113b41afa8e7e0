from itertools import product
from math import comb

import pytest
from pysat.solvers import Solver

from mscsp.analysis.solvers.encoding import ENCODINGS, MineTotal, Totalizer, exactly


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


@pytest.mark.parametrize("n", range(1, 8))
def test_totalizer_outputs_are_defined_by_the_inputs(n):
    # each assignment of the inputs extends to exactly one model, whose outputs say
    # "more than k inputs are true": checked on every assignment
    lits = list(range(1, n + 1))
    for ubound in range(1, n + 2):
        t = Totalizer(lits, ubound, top=n, defined=True)
        with Solver(name="g4", bootstrap_with=t.clauses + [[v, -v] for v in range(1, t.top + 1)]) as s:
            for bits in product((0, 1), repeat=n):
                models = list(s.enum_models([v if b else -v for v, b in zip(lits, bits)]))
                assert len(models) == 1, (n, ubound, bits)
                true = set(models[0])
                assert [o in true for o in t.rhs] == [sum(bits) > k for k in range(len(t.rhs))]


@pytest.mark.parametrize("n", [1, 2, 5, 9, 12])
def test_the_mine_total_counts_layouts_and_its_bounds_shift(n):
    # plain model counts (auxiliaries included) against math.comb, for every total,
    # every number of cells left outside, and every shift the solver asks for
    lits = list(range(1, n + 1))
    for remaining in range(-1, n + 2):
        for outside in range(0, 3):
            total = MineTotal(lits, remaining, outside, top=n, defined=True)
            for up, low in ((0, 0), (1, 0), (0, 1)):
                lo, hi = max(0, remaining - outside + low), min(n, remaining - up)
                want = sum(comb(n, k) for k in range(lo, hi + 1))
                bounds = total.assumptions(upper_shift=up, lower_shift=low)
                # a fresh solver each time: enumeration blocks the models it finds
                with Solver(name="g4", bootstrap_with=total.clauses + [[v, -v] for v in range(1, total.top + 1)]) as s:
                    got = 0 if bounds is None else sum(1 for _ in s.enum_models(bounds))
                assert got == want, (n, remaining, outside, up, low)


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_the_solvers_half_of_the_total_bounds_the_same_cells(n):
    # without the definitions, the clauses still allow exactly the assignments of
    # the cells within the bounds (counted projected on the cells)
    lits = list(range(1, n + 1))
    for remaining in range(-1, n + 2):
        for outside in range(0, 3):
            total = MineTotal(lits, remaining, outside, top=n)
            for up, low in ((0, 0), (1, 0), (0, 1)):
                lo, hi = max(0, remaining - outside + low), min(n, remaining - up)
                bounds = total.assumptions(upper_shift=up, lower_shift=low)
                got = 0 if bounds is None else len(_projected_models(total.clauses + [[b] for b in bounds],
                                                                     total.top, lits))
                assert got == sum(comb(n, k) for k in range(lo, hi + 1)), (n, remaining, outside, up, low)


def test_past_its_size_limit_the_total_is_a_network_with_fixed_bounds():
    lits = list(range(1, 9))
    total = MineTotal(lits, 3, 1, top=8, size_limit=10)
    assert not total.shiftable and total.assumptions() == []
    with pytest.raises(ValueError, match="fixed"):
        total.assumptions(upper_shift=1)
    with Solver(name="g4", bootstrap_with=total.clauses) as s:  # projected on the cells: 2 or 3 mines
        cells = {tuple(v > 0 for v in m[:8]) for m in s.enum_models()}
    assert len(cells) == comb(8, 2) + comb(8, 3)


def test_impossible_counts_give_an_empty_clause():
    assert exactly([1, 2], 3, top=2) == ([[]], 2)
    assert MineTotal([1, 2], -1, 0, top=2).assumptions() is None


def test_past_its_size_limit_the_total_can_be_native_cardinality_constraints():
    """Native cardinality constraints (Minicard's): the same projected counts as the
    totalizers for every bound and shift, and no bound at all without the assumptions."""
    n = 6
    lits = list(range(1, n + 1))
    for remaining in range(-1, n + 2):
        for outside in range(0, 3):
            total = MineTotal(lits, remaining, outside, top=n, size_limit=-1, native=True)
            assert total.shiftable and bool(total.at_most) == (0 <= remaining <= n or 0 <= remaining - outside <= n)
            for shifts in ((0, 0), (1, 0), (0, 1), (1, 1), None):
                if shifts is None:  # the bounds not imposed
                    bounds, lo, hi = [], 0, n
                else:
                    bounds = total.assumptions(upper_shift=shifts[0], lower_shift=shifts[1])
                    lo, hi = max(0, remaining - outside + shifts[1]), min(n, remaining - shifts[0])
                got = 0
                if bounds is not None:
                    with Solver(name="mc", bootstrap_with=total.clauses) as s:
                        for group, k in total.at_most:
                            s.add_atmost(group, k)
                        got = sum(s.solve(assumptions=bounds + [v if b else -v for v, b in zip(lits, bits)])
                                  for bits in product((False, True), repeat=n))
                assert got == sum(comb(n, k) for k in range(lo, hi + 1)), (remaining, outside, shifts)
