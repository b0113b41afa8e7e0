import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force
from pysat.formula import CNF
from pysat.solvers import Solver
from strategies import small_positions

from mscsp.analysis import build_constraints, count_layouts, deduce
from mscsp.analysis.solvers.encoding import MineTotal
from mscsp.board import Spec
from mscsp.errors import InconsistentError
from mscsp.game import Game, Status
from mscsp.position import parse_position
from mscsp.reduction.dimacs import format_dimacs, position_to_cnf
from mscsp.rules import generate


@settings(max_examples=150)
@given(small_positions(max_covered=9), st.booleans())
def test_model_count_of_the_export_equals_the_layout_count(position, use_total):
    try:
        text = format_dimacs(position, use_total=use_total)
    except InconsistentError:
        assert brute_force(position, use_total=use_total)["count"] == 0
        return
    cnf = CNF(from_string=text)
    nv = int(next(line for line in text.splitlines() if line.startswith("p cnf")).split()[2])
    with Solver(name="g4", bootstrap_with=cnf.clauses + [[v, -v] for v in range(1, nv + 1)]) as s:
        models = sum(1 for _ in s.enum_models())
    assert models == brute_force(position, use_total=use_total)["count"]


@pytest.mark.parametrize("n", range(1, 11))
def test_the_merge_sort_network_sorts_every_zero_one_input(n):
    # Knuth's 0-1 principle: a comparator network that sorts every 0/1 input sorts everything
    from mscsp.reduction.dimacs import merge_sort_pairs

    pairs = list(merge_sort_pairs(n))
    assert all(0 <= i < j < n for i, j in pairs)
    for bits in range(1 << n):
        wires = [(bits >> k) & 1 for k in range(n)]
        for i, j in pairs:
            wires[i], wires[j] = min(wires[i], wires[j]), max(wires[i], wires[j])
        assert wires == sorted(wires)


@settings(max_examples=120, deadline=None)
@given(small_positions(max_covered=9))
def test_the_sorting_network_total_has_one_model_per_layout(position):
    """Past the totalizers' size limit the total is a sorting network with defined
    auxiliaries: a plain model count is still the layout count (limit forced to 0)."""
    import mscsp.reduction.dimacs as dimacs

    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(dimacs, "TOTALIZER_LIMIT", 0)
            text = dimacs.format_dimacs(position)
    except InconsistentError:
        assert brute_force(position, use_total=True)["count"] == 0
        return
    if position.mines is not None and brute_force(position, use_total=False)["count"]:
        assert dimacs.NETWORK in text or not any(True for _ in dimacs.merge_sort_pairs(len(position.covered_xy)))
    cnf = CNF(from_string=text)
    nv = int(next(line for line in text.splitlines() if line.startswith("p cnf")).split()[2])
    with Solver(name="g4", bootstrap_with=cnf.clauses + [[v, -v] for v in range(1, nv + 1)]) as s:
        models = sum(1 for _ in s.enum_models())
    assert models == brute_force(position, use_total=True)["count"]


def test_an_export_past_its_deadline_writes_nothing():
    import io

    from mscsp.budget import Budget
    from mscsp.errors import BudgetExceeded
    from mscsp.reduction.dimacs import write_dimacs

    out = io.StringIO()
    with pytest.raises(BudgetExceeded):
        write_dimacs(parse_position("mines: 2\n" + "." * 30 + "\n"), out, budget=Budget.of(0))
    assert out.getvalue() == ""


def test_header_maps_variables_to_cells():
    text = format_dimacs(parse_position("mines: 1\n.1.\n"))
    assert "c cell 1 0 0" in text and "c cell 2 2 0" in text
    assert "c p show 1 2 0" in text
    assert any(line.startswith("p cnf ") for line in text.splitlines())


def _stalled_expert_positions(seeds):
    """Where the complete solver stops on seeded Expert boards (the mine total known)."""
    for seed in seeds:
        board = generate(Spec.preset("expert"), "opening", (15, 8), seed)
        game = Game.from_board(board)
        game.reveal(board.click)
        while game.status is Status.PLAYING:
            proven = deduce(game.position())
            if not proven.safe:
                yield game.position()
                break
            for xy in proven.safe:
                if game.status is Status.PLAYING:
                    game.reveal(xy)


def test_a_model_counter_counts_the_layouts_of_stalled_expert_positions():
    # Ganak counts the export, auxiliaries and all; the count must be mscsp's, and
    # the export's total must be the very encoding the complete solver runs
    import pyganak

    # boards 1 to 3 stall with 100 to 130 covered cells, which Ganak counts in well under
    # a second; the stalls of boards 4 and 5 (143 and 191 cells) take it 20 s and more
    checked = 0
    for position in _stalled_expert_positions(range(1, 4)):
        cnf, var = position_to_cnf(position)
        counter = pyganak.Counter()
        counter.new_vars(cnf.variables)
        counter.add_clauses([list(c) for c in cnf.clauses])
        assert counter.count() == count_layouts(position)
        system = build_constraints(position)
        # the clues' binomial encoding adds no variable, so the total starts after the cells
        total = MineTotal(list(var.values()), system.remaining, 0, top=len(var))
        assert set(cnf.clauses) >= set(map(tuple, total.clauses)) | {(lit,) for lit in total.assumptions()}
        checked += 1
    assert checked >= 3



@pytest.mark.parametrize("use_total", [True, False])
@pytest.mark.parametrize("text", [
    "mines: 4\n1....\n.2...\n...1.\n.....\n",
    "mines: 3\nF1..\n.2..\n....\n",  # a flag, so the total left to place is 2
    "mines: 5\n..1..\n.....\n2...1\n.....\n",
])
def test_d4_in_the_counters_benchmark_counts_the_layouts(text, use_total):
    """benchmarks/counters.py's D4 runner, in its own process as the benchmark runs it:
    its projected count is the number of layouts enumeration finds (cells far from
    every clue included, each free without the total)."""
    pytest.importorskip("py_d4")
    from conftest import benchmark

    counters = benchmark("counters")
    seconds, count = counters._timed(counters._run_d4, text, use_total, 60.0)
    assert seconds is not None, count
    assert count == brute_force(parse_position(text), use_total=use_total)["count"]


@settings(max_examples=60, deadline=None)
@given(small_positions(max_covered=9), st.booleans())
def test_d4_projected_count_of_the_export_is_the_layout_count(position, use_total):
    import queue

    pytest.importorskip("py_d4")
    from conftest import benchmark

    from mscsp.position import format_position

    counters = benchmark("counters")
    expected = brute_force(position, use_total=use_total)["count"]
    if position.covered.sum() == 0:
        return  # no variable, which D4 cannot take (the runner says so)
    found = queue.SimpleQueue()
    try:
        counters._run_d4(format_position(position), use_total, found)
    except InconsistentError:
        assert expected == 0
        return
    assert found.get()[1] == expected
