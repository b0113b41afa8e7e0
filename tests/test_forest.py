"""The array paths for huge constraint systems give what the clue-by-clue paths give.

A compiled board's hundreds of thousands of equations go through arrays and one
compiled union-find (:func:`mscsp.analysis.constraints.unite`); a player's position
goes clue by clue. Both are run here on the same systems, with the threshold moved
so that small positions take the array path, and against a union-find written out
in the test itself.
"""

import gc
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import benchmark, require_built
from strategies import small_positions

from mscsp.analysis import constraints as constraints_module
from mscsp.analysis.consistency import decide
from mscsp.analysis.constraints import (COMPILED_FOREST, Constraint, ConstraintSystem, ParityForest, build_constraints, bulk,
                                        unite)
from mscsp.analysis.solvers import sat as sat_module
from mscsp.analysis.solvers.sat import SatEngine
from mscsp.errors import InconsistentError
from mscsp.position import parse_position
from mscsp.reduction.cnf import CNF
from mscsp.reduction.compile import compile_cnf


def _oracle(n, pairs):
    """Union-find with parity written plainly: labels by search over the pairs kept so far."""
    adjacency = {i: [] for i in range(n)}
    clashes = []
    for a, b, odd in pairs:
        # parity of b against a through the pairs kept so far, if connected
        seen, stack = {a: 0}, [a]
        while stack:
            x = stack.pop()
            for y, o in adjacency[x]:
                if y not in seen:
                    seen[y] = seen[x] ^ o
                    stack.append(y)
        if b in seen:
            clashes.append(seen[b] != odd)
        else:
            clashes.append(False)
            adjacency[a].append((b, odd))
            adjacency[b].append((a, odd))
    return clashes, adjacency


pairs_strategy = st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 1)), max_size=60)))


@settings(max_examples=300, deadline=None)
@given(pairs_strategy)
def test_unite_agrees_with_a_search_over_the_pairs(case):
    n, pairs = case
    a, b, odd = (np.array([p[i] for p in pairs], dtype=np.int64) for i in range(3))
    expected, adjacency = _oracle(n, pairs)
    compiled = constraints_module._forest
    for module in {compiled, None}:  # compiled (where built) and pair by pair in Python
        constraints_module._forest = module
        try:
            roots, parities, clashes = unite(n, a, b, odd.astype(np.uint8))
        finally:
            constraints_module._forest = compiled
        assert clashes.tolist() == expected
        # one class per connected set, each element's parity against its root the path's
        for r in set(roots.tolist()):
            assert roots[r] == r and parities[r] == 0
        for i in range(n):
            for j, o in adjacency[i]:
                assert roots[i] == roots[j] and parities[i] ^ parities[j] == o
        assert len(set(roots.tolist())) == n - sum(len(v) for v in adjacency.values()) // 2


@pytest.mark.skipif(not COMPILED_FOREST, reason="the compiled union-find was not built")
@settings(max_examples=200, deadline=None)
@given(pairs_strategy)
def test_compiled_unite_gives_the_python_classes_their_roots(case):
    n, pairs = case
    forest = ParityForest(n)
    clashes = [not forest.union(x, y, bool(o)) for x, y, o in pairs]
    a, b, odd = (np.array([p[i] for p in pairs], dtype=np.int64) for i in range(3))
    roots, parities, found = unite(n, a, b, odd.astype(np.uint8))
    assert found.tolist() == clashes
    assert [forest.find(i) for i in range(n)] == list(zip(roots.tolist(), parities.tolist()))


def test_the_compiled_union_find_is_built_where_required():
    """MSCSP_REQUIRE_FASTPLAY=1 (CI sets it) requires every C accelerator built."""
    require_built(COMPILED_FOREST, "the compiled union-find")


def test_unite_rejects_pairs_out_of_range():
    with pytest.raises(ValueError):
        unite(3, np.array([0, 5]), np.array([1, 2]))


def _fresh(system: ConstraintSystem) -> ConstraintSystem:
    return ConstraintSystem(system.position, system.constraints, system.covered, system.remaining)


@settings(max_examples=200, deadline=None)
@given(small_positions(max_covered=14))
def test_components_frontier_and_table_are_the_same_from_arrays(position):
    try:
        plain = build_constraints(position)
    except InconsistentError:
        return
    saved = constraints_module.ARRAY_EQUATIONS
    constraints_module.ARRAY_EQUATIONS = 1
    try:
        seeded = build_constraints(position)  # its table left by build_constraints
        arrays = _fresh(plain)  # its table gathered from the equations
        assert seeded.components == arrays.components == plain.components
        assert seeded.frontier == arrays.frontier == plain.frontier
        for comp in plain.components:
            assert arrays.component_cells(comp) == tuple(sorted({c for e in comp for c in plain.constraints[e].cells}))
        for i, con in enumerate(plain.constraints):
            for table in (seeded.table, arrays.table):
                row = table[0][i]
                assert tuple(row[row >= 0].tolist()) == con.cells and table[1][i] == con.count
                assert table[2][i] == con.clue
        # equations read one by one from the arrays, before and after they are all made
        lazy = build_constraints(position)
        assert lazy.size == len(plain.constraints)
        for i, con in enumerate(plain.constraints):
            assert lazy.equation(i) == con and lazy.equation_of(con.clue) == con
        assert lazy.equation_of(-1) is None
        assert all(lazy.equation_of(c) is None for c in plain.covered)
        every = range(plain.size)
        assert lazy.clues_of(every) == tuple(sorted(con.clue for con in plain.constraints))
        assert lazy.constraints == plain.constraints
        assert [lazy.equation(i) for i in every] == list(plain.constraints)
        assert all(lazy.equation_of(con.clue) == con for con in plain.constraints)
        # dataclasses.replace (as minimal explanations use it) gives a system of the equations given
        fewer = replace(build_constraints(position), constraints=plain.constraints[::2])
        assert fewer.size == len(plain.constraints[::2]) and fewer.constraints == plain.constraints[::2]
        assert fewer.clues_of(range(fewer.size)) == tuple(sorted(con.clue for con in plain.constraints[::2]))
        assert fewer.components == _fresh(fewer).components
    finally:
        constraints_module.ARRAY_EQUATIONS = saved


def _merged(system):
    engine = SatEngine(system, time_limit=30)
    engine._build(merged=True)
    parts = [(p.lit, p.links, p.parity_ids, p.parity_merges, p.root_of, p.eq_ids) for p in engine.parts]
    engine.close()
    return parts


@pytest.mark.parametrize("seed", range(6))
def test_a_compiled_board_merges_its_wires_the_same_from_arrays(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    clauses = tuple(tuple(int(v) * int(s) for v, s in zip(rng.choice(5, 3, replace=False) + 1, rng.choice([-1, 1], 3)))
                    for _ in range(12 + seed))
    position = compile_cnf(CNF(5, clauses)).position
    plain_parts = _merged(build_constraints(position))
    plain = decide(position, explain=False)
    monkeypatch.setattr(constraints_module, "ARRAY_EQUATIONS", 1)
    monkeypatch.setattr(sat_module, "ARRAY_EQUATIONS", 1)
    assert _merged(build_constraints(position)) == plain_parts
    arrays = decide(position, explain=False)
    assert arrays.consistent == plain.consistent
    if plain.consistent:
        assert np.array_equal(arrays.witness.mines, plain.witness.mines)
    else:
        assert arrays.contradiction.clues == plain.contradiction.clues


@settings(max_examples=200, deadline=None)
@given(small_positions(max_covered=14))
def test_positions_are_decided_the_same_from_arrays(position):
    """Witness and clash alike, also where links close an odd cycle (a clue left to encode)."""
    plain = decide(position, explain=False)
    saved = constraints_module.ARRAY_EQUATIONS, sat_module.ARRAY_EQUATIONS
    constraints_module.ARRAY_EQUATIONS = sat_module.ARRAY_EQUATIONS = 1
    try:
        arrays = decide(position, explain=False)
    finally:
        constraints_module.ARRAY_EQUATIONS, sat_module.ARRAY_EQUATIONS = saved
    assert arrays.consistent == plain.consistent
    if plain.consistent:
        assert np.array_equal(arrays.witness.mines, plain.witness.mines)
    else:
        assert arrays.contradiction.clues == plain.contradiction.clues


@pytest.mark.parametrize("through_arrays", [False, True])
def test_an_odd_cycle_of_links_is_left_for_the_solver_to_see(through_arrays, monkeypatch):
    """Three links making cells 0, 1 and 2 pairwise opposite: the third cannot be merged
    and must be encoded, or a layout would be claimed."""
    if through_arrays:
        monkeypatch.setattr(constraints_module, "ARRAY_EQUATIONS", 1)
        monkeypatch.setattr(sat_module, "ARRAY_EQUATIONS", 1)
    position = parse_position("...\n111\n")  # only its clue cells name the equations below
    links = (Constraint((0, 1), 1, 3), Constraint((1, 2), 1, 4), Constraint((0, 2), 1, 5))
    system = ConstraintSystem(position, links, (0, 1, 2), None)
    with pytest.raises(InconsistentError) as err:
        SatEngine(system, time_limit=10).witness(shrink=False)
    assert set(err.value.clues) == {3, 4, 5}
    even = ConstraintSystem(position, links[:2], (0, 1, 2), None)
    values = SatEngine(even, time_limit=10).witness()
    assert values[0] != values[1] != values[2]


def test_bulk_pauses_the_collector_and_gives_it_back():
    assert gc.isenabled()
    with bulk():
        assert not gc.isenabled()
        with bulk():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), bulk():
        raise RuntimeError("inside")
    assert gc.isenabled()
    gc.disable()
    try:
        with bulk():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_the_benchmark_s_three_ways_agree_and_leave_the_settings_as_they_were(capsys):
    """benchmarks/consistency.py decides each board with and without the array paths
    and the collector pause, and fails if the verdicts or witnesses differ."""
    before = (constraints_module.ARRAY_EQUATIONS, sat_module.ARRAY_EQUATIONS, sat_module.bulk)
    assert benchmark("consistency").main(["--variables", "6", "--boards", "3", "--ratio", "5"]) == 0
    assert "x 1.00" in capsys.readouterr().out
    assert (constraints_module.ARRAY_EQUATIONS, sat_module.ARRAY_EQUATIONS, sat_module.bulk) == before
