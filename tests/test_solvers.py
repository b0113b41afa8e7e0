import pickle
import time
from contextlib import contextmanager, nullcontext
from dataclasses import FrozenInstanceError, fields, replace

import numpy as np
import pytest
from conftest import EXAMPLES, benchmark, require_built
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import (
    assert_core_is_inconsistent_and_minimal,
    assert_explanation_is_valid_and_minimal,
    brute_force,
    clues_force,
    flat,
    single_point_closure,
)
from strategies import small_positions

from mscsp.analysis.consistency import decide
from mscsp.analysis.constraints import build_constraints
from mscsp.analysis.solvers import deduce, solve
from mscsp.analysis.solvers import local
from mscsp.analysis.solvers.local import local_reasons, pair_reason
from mscsp.analysis.solvers.propagation import Propagator
from mscsp.analysis.solvers.result import Deduction, Explanation
from mscsp.board import Spec
from mscsp.errors import InconsistentError
from mscsp.game import Game, Status
from mscsp.position import parse_position
from mscsp.rules import generate

SOLVERS = ["single-point", "subset", "sat"]


@contextmanager
def _native_total():
    """The complete solver with the mine total as native cardinality constraints (the
    path of boards whose totalizers would pass their size limit), on any board."""
    from mscsp.analysis.solvers import sat

    with pytest.MonkeyPatch.context() as m:
        m.setattr(sat, "TOTAL_SIZE_LIMIT", -1)
        yield


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_sat_equals_brute_force(position, use_total):
    truth = brute_force(position, use_total=use_total)
    result = solve(position, "sat", use_total=use_total)
    assert result.consistent == (truth["count"] > 0)
    if result.consistent:
        assert set(flat(position, result.safe)) == truth["safe"]
        assert set(flat(position, result.mines)) == truth["mine"]
        assert result.complete


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.sampled_from(["single-point", "subset"]), st.booleans())
def test_cheap_solvers_never_claim_a_wrong_cell(position, solver, use_total):
    truth = brute_force(position, use_total=use_total)
    result = solve(position, solver, use_total=use_total)
    assert result.consistent == (truth["count"] > 0)  # consistency is always decided exactly
    if result.consistent:
        assert set(flat(position, result.safe)) <= truth["safe"]
        assert set(flat(position, result.mines)) <= truth["mine"]


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_ladder_is_monotone(position, use_total):
    results = [solve(position, s, use_total=use_total, explain=False) for s in SOLVERS]
    if results[0].consistent:
        for weaker, stronger in zip(results, results[1:]):
            assert set(weaker.safe) <= set(stronger.safe)
            assert set(weaker.mines) <= set(stronger.mines)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans(), st.booleans())
def test_explanations_really_force_their_cells_and_are_minimal(position, use_total, native):
    with _native_total() if native else nullcontext():
        result = solve(position, "sat", use_total=use_total)
    if not result.consistent:
        return
    explained = set()
    mines = set(flat(position, result.mines))
    for e in result.explanations:
        explained |= set(e.cells)
        assert_explanation_is_valid_and_minimal(position, e, mines)
    assert explained == set(result.safe) | set(result.mines)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_explanations_without_the_compiled_reasons_are_minimal_too(position, use_total):
    # the SAT cores that explain every cell where the C search is not built or gives up
    with pytest.MonkeyPatch.context() as m:
        m.setattr(local, "_reasons", None)
        result = solve(position, "sat", use_total=use_total)
    if not result.consistent:
        return
    mines = set(flat(position, result.mines))
    for e in result.explanations:
        assert_explanation_is_valid_and_minimal(position, e, mines)
    assert {c for e in result.explanations for c in e.cells} == set(result.safe) | set(result.mines)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans(), st.sampled_from(SOLVERS))
def test_each_sentence_names_its_cells_and_clues_and_outlives_pickling(position, use_total, solver):
    # sentences are made when first read: pickle one explanation of each pair before reading it
    result = solve(position, solver, use_total=use_total)
    for e in result.explanations:
        copy = pickle.loads(pickle.dumps(e))
        text = e.text
        assert copy == e and copy.text == text and hash(copy) == hash(e)
        assert repr(e).endswith(f"text={text!r})")
        if len(e.cells) <= 8:  # longer lists are cut ("... and 3 more cells")
            assert all(f"[{x},{y}]" in text for x, y in e.cells), (e.cells, text)
        if len(e.clues) + e.uses_total <= 4:  # longer sets name their first three
            assert all(f" at [{x},{y}]" in text for x, y in e.clues), (e.clues, text)


def test_deductions_are_frozen_values_that_copy_and_compare_by_their_fields():
    # Deduction writes its fields itself (the frozen dataclass's own __init__ is slower):
    # it must still behave as the dataclass it declares
    d = Deduction((2, 0), True, ((1, 0),))
    assert d.uses_total is False and d == Deduction(cell=(2, 0), mine=True, clues=((1, 0),), uses_total=False)
    assert pickle.loads(pickle.dumps(d)) == d and hash(pickle.loads(pickle.dumps(d))) == hash(d)
    assert replace(d, mine=False) == Deduction((2, 0), False, ((1, 0),)) != d
    assert repr(d) == "Deduction(cell=(2, 0), mine=True, clues=((1, 0),), uses_total=False)"
    assert [f.name for f in fields(d)] == ["cell", "mine", "clues", "uses_total"]
    with pytest.raises(FrozenInstanceError):
        d.mine = False  # type: ignore[misc]


def test_cells_of_a_board_past_the_coordinate_table_are_named_as_x_y():
    # 300x220 has no coordinate table (over 65,536 positions): the answer divides instead.
    # One 0 near the far corner, everything else covered: its eight neighbours are safe
    rows = ["." * 300] * 220
    rows[218] = "." * 298 + "0."
    result = solve(parse_position("\n".join(rows) + "\n"), "sat", use_total=False)
    around = [(x, y) for y in (217, 218, 219) for x in (297, 298, 299) if (x, y) != (298, 218)]
    assert result.safe == tuple(around) and result.mines == ()
    assert all(d.clues == ((298, 218),) and not d.mine for d in result.deductions)
    (e,) = result.explanations
    assert e.cells == tuple(around) and e.clues == ((298, 218),) and "[299,219]" in e.text


def test_a_sentence_given_as_a_function_is_made_once_and_only_when_read():
    made = []

    def words():
        made.append(1)
        return "the 1 at [1,0] needs one mine at [2,0]: so [2,0] is a mine"

    e = Explanation(((2, 0),), ((1, 0),), False, words)
    assert made == []
    assert e.text == e.text == words() and made == [1, 1]  # once by e, once by the comparison
    assert e != Explanation(((2, 0),), ((1, 0),), False, "another sentence")


def test_the_compiled_search_for_reasons_is_built_where_required():
    """MSCSP_REQUIRE_FASTPLAY=1 (CI sets it) requires every C accelerator built."""
    require_built(local.COMPILED, "the compiled search for reasons")


@pytest.mark.skipif(not local.COMPILED, reason="the compiled search for reasons (_reasons.c) was not built")
@settings(max_examples=EXAMPLES)
@given(small_positions(allow_wrong=False), st.booleans())
def test_compiled_reasons_force_their_cells_minimally_or_say_the_clues_do_not(position, use_total):
    # every cell the brute force proves from the clues and the total, asked of the search in
    # one call (cells away from the clues, forced by the total, and interchangeable cells
    # among them); a small board fits its limits, so each gets an answer
    system = build_constraints(position)
    truth = brute_force(position)
    asked = {c: False for c in truth["safe"]} | {c: True for c in truth["mine"]}
    found = local_reasons(system, asked, float("inf"), use_total=use_total)
    every = [con.clue for con in system.constraints]
    # named by their clues, the same reasons (the clues ascending), twins sharing one answer
    named = local_reasons(system, asked, float("inf"), use_total=use_total, by_clue=True)
    assert named == {c: got if not got else (tuple(sorted(every[e] for e in got[0])), got[1])
                     for c, got in found.items()}
    for cell, mine in asked.items():
        forced = {cell} if mine else set()
        got = found[cell]
        assert got is not None, cell
        if got is False:  # the clues alone leave it free, and the total was not to be used
            assert not (use_total and position.mines is not None)
            assert not clues_force(position, every, False, [cell], forced)
            continue
        clues, total = [system.constraints[e].clue for e in got[0]], got[1]
        assert len(set(clues)) == len(clues) and clues_force(position, clues, total, [cell], forced), (cell, got)
        for drop in clues:
            assert not clues_force(position, [k for k in clues if k != drop], total, [cell], forced), (cell, drop)
        if total:  # the total only when the clues alone (all of them) do not force the cell
            assert use_total and not clues_force(position, every, False, [cell], forced)


@pytest.mark.skipif(not local.COMPILED, reason="the compiled search for reasons (_reasons.c) was not built")
def test_compiled_reasons_leave_a_set_past_their_limits_to_sat():
    # a chain of 1s, each between two covered cells, ended by a 1 that sees one: the mine at
    # the end forces every other cell along it, so the first cell needs the whole chain
    def chain(n):
        return parse_position(".-" * n + "\n" + "-1" * n + "\n")

    short, long = build_constraints(chain(100)), build_constraints(chain(300))
    got = local_reasons(short, {0: False}, float("inf"))[0]
    assert sorted(got[0]) == list(range(100)) and got[1] is False  # every link is needed
    assert local_reasons(long, {0: False}, float("inf")) == {0: None}  # 300 cells: past the 256 of a set
    assert local_reasons(short, {0: False}, float("inf"), node_limit=0) == {0: None}
    assert local_reasons(short, {0: False}, 0.0) == {0: None}  # no time at all
    # SAT explains what the search left, minimally (brute force cannot check 300 cells:
    # the sentence names every link)
    (e,) = [e for e in solve(chain(300), "sat").explanations if (0, 0) in e.cells]
    assert len(e.clues) == 300


@st.composite
def positions_often_against_their_total(draw):
    """Small positions, half of them with a mine total drawn at random: the clash with
    the total is the case that the clue-only cores do not exercise."""
    position = draw(small_positions())
    if draw(st.booleans()):
        position = position.with_mines(draw(st.integers(0, position.geometry.size)))
    return position


@settings(max_examples=EXAMPLES)
@given(positions_often_against_their_total(), st.sampled_from(SOLVERS), st.booleans())
def test_contradiction_cores_are_inconsistent_and_minimal(position, solver, use_total):
    result = solve(position, solver, use_total=use_total)
    assert result.consistent == (brute_force(position, use_total=use_total)["count"] > 0)
    if not result.consistent:
        assert_core_is_inconsistent_and_minimal(position, result.contradiction, use_total)


@settings(max_examples=EXAMPLES)
@given(positions_often_against_their_total(), st.booleans())
def test_consistency_cores_are_inconsistent_and_minimal(position, use_total):
    if not use_total:
        position = position.with_mines(None)
    verdict = decide(position)
    assert verdict.consistent == (brute_force(position)["count"] > 0)
    if not verdict.consistent:
        assert_core_is_inconsistent_and_minimal(position, verdict.contradiction, use_total)


@pytest.mark.parametrize("text", [
    # the total alone allows one layout (four covered cells, four mines): the 1 is needed
    "mines: 4\n-..\n1..\n",
    # the 0 at [0,0] leaves two other covered cells for the two mines: not a clash alone
    "mines: 2\n0.-\n00.\n.00\n",
])
def test_clash_with_the_total_names_the_clues_it_needs(text):
    position = parse_position(text)
    for core in (decide(position).contradiction, solve(position).contradiction):
        assert core.clues and core.uses_total
        assert_core_is_inconsistent_and_minimal(position, core, True)


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("3.1\n.11\n", "the 3 at [0,0] has only two covered neighbours"),
        ("1F\nF.\n", "the 1 at [0,0] already touches two flags"),
        ("mines: 1\nFF\n..\n", "two flags are placed but the board has only one mine"),
        ("mines: 0\nF.\n", "one flag is placed but the board has no mines"),
        ("mines: 1\n0\n", "one mine is left to place but no cell is covered"),
        ("mines: 5\n1.\n..\n", "five mines are left to place but only three cells are covered"),
        ("mines: 1\n1F\nF0\n", "the 1 at [0,0] already touches two flags"),
        ("mines: 2\nF1\n", "one mine is left to place but no cell is covered"),
    ],
)
def test_first_order_contradictions_are_said_in_words(text, fragment):
    result = solve(parse_position(text))
    assert not result.consistent and fragment in result.contradiction.text


def test_contradiction_of_two_clues():
    # the 1 and the 3 see the same four covered cells
    p = parse_position(".1.\n.3.\n")
    result = solve(p)
    assert not result.consistent and result.contradiction.clues == ((1, 0), (1, 1))
    assert brute_force(p)["count"] == 0
    assert result.contradiction.text == (
        "the 1 at [1,0] needs one mine among [0,0], [2,0], [0,1] and [2,1]; "
        "the 3 at [1,1] needs three mines among [0,0], [2,0], [0,1] and [2,1]: no layout satisfies them all"
    )


def test_global_count_decides_far_cells():
    p = parse_position("mines: 1\n.1...\n")
    r = solve(p)
    assert r.safe == ((3, 0), (4, 0)) and r.explanations[0].uses_total
    assert solve(p, use_total=False).safe == ()
    assert solve(p, "subset").safe == ((3, 0), (4, 0))
    assert solve(p, "single-point").safe == ()


def test_unconstrained_cells_forced_by_the_total():
    # the 2 needs both its covered neighbours; with 3 mines the far cells hold exactly one
    p = parse_position("mines: 2\n.2.\n...\n...\n")
    truth = brute_force(p)
    r = solve(p)
    assert set(flat(p, r.safe)) == truth["safe"] and set(flat(p, r.mines)) == truth["mine"]


def _play_with_checks(board, use_total=True):
    """Play from the click with the complete solver, checking every proven cell."""
    game = Game.from_board(board)
    game.reveal(board.click)
    layout = board.layout
    proven = 0
    while game.status is Status.PLAYING:
        answer = deduce(game.position(mines_known=use_total), "sat", use_total=use_total)
        assert answer.complete
        known = answer.by_index
        assert (answer.safe, answer.mines) == (tuple(game.geometry.coords(c) for c in sorted(known) if not known[c]),
                                               tuple(game.geometry.coords(c) for c in sorted(known) if known[c]))
        for c, mine in known.items():
            assert layout.mines[c] == mine, c
        proven += len(known)
        safe = [c for c, m in known.items() if not m]
        if not safe:
            break
        for c, m in known.items():
            if m and not game.flagged[c]:
                game.flag(game.geometry.coords(c))
        for c in safe:
            if game.status is Status.PLAYING:
                game.reveal(game.geometry.coords(c))
    assert game.status is not Status.LOST
    return proven


@pytest.mark.parametrize("seed", range(8))
def test_every_proven_cell_matches_the_true_layout_on_expert(seed):
    board = generate(Spec.preset("expert"), "opening", (15, 8), seed)
    assert _play_with_checks(board, use_total=seed % 2 == 0) > 0


def test_time_limit_marks_the_result_incomplete_without_lying():
    p = parse_position(open(__file__.replace("test_solvers.py", "../examples/positions/long_frontier.txt")).read())
    r = solve(p, time_limit=1e-9)
    full = solve(p)
    assert set(r.safe) <= set(full.safe) and set(r.mines) <= set(full.mines)
    assert not r.complete or (r.safe, r.mines) == (full.safe, full.mines)


def test_the_complete_solver_keeps_its_time_limit_on_a_clue_lattice():
    """A 1 on every other cell both ways of a 100x100 board, a quarter of it mines: the
    total, over 7,500 covered cells, is a native cardinality constraint, whose conflicts
    learn clauses thousands of literals long; every call must still stop at the
    deadline (a backend that ignored its interrupt ran on for minutes)."""
    p = parse_position(benchmark("stress").ones_lattice(100))
    started = time.perf_counter()
    proven = deduce(p, "sat", counter=None, time_limit=1.0)
    assert time.perf_counter() - started < 1.0 + 2.0  # the limit, and building the encoding
    assert not proven.complete


def test_inconsistent_error_from_deduce():
    with pytest.raises(InconsistentError):
        deduce(parse_position("mines: 1\n2.\n..\n"), "sat")





@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_single_point_reasons_are_what_single_point_needs(position, use_total):
    """Each reason forces its cells (brute force), single-point proves them from it
    (an independent fixed point of the two rules), and from no smaller set."""
    result = solve(position, "single-point", use_total=use_total)
    if not result.consistent:
        return
    mines = set(flat(position, result.mines))
    for e in result.explanations:
        clues, cells = flat(position, e.clues), flat(position, e.cells)
        assert not e.uses_total
        assert clues_force(position, clues, False, cells, mines)
        closure = single_point_closure(position, clues)
        assert all(closure.get(c) == (c in mines) for c in cells)
        for drop in clues:
            closure = single_point_closure(position, [k for k in clues if k != drop])
            assert not all(closure.get(c) == (c in mines) for c in cells), (e, drop)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_subset_reasons_force_their_cells_and_cannot_lose_a_clue(position, use_total):
    result = solve(position, "subset", use_total=use_total)
    if not result.consistent:
        return
    mines = set(flat(position, result.mines))
    system = build_constraints(position if use_total else position.with_mines(None))
    for e in result.explanations:
        clues, cells = flat(position, e.clues), flat(position, e.cells)
        assert clues_force(position, clues, e.uses_total, cells, mines)
        for drop in [*clues, None] if e.uses_total else clues:
            keep = [k for k in clues if k != drop]
            sub = replace(system, constraints=tuple(system.by_clue[k] for k in keep))
            prop = Propagator(sub, subset=True, use_total=e.uses_total and drop is not None).run()
            assert not all(prop.known.get(c) == (c in mines) for c in cells), (e, drop)


def test_single_point_reason_is_shrunk_to_the_clues_it_needs():
    # the 1 at [3,0] makes [2,1] a mine, so the 1 at [1,0] clears [0,1]: the 1 at [2,0] is not needed
    p = parse_position("-111\n...-\n")
    (e,) = [e for e in solve(p, "single-point").explanations if (0, 1) in e.cells]
    assert e.clues == ((1, 0), (3, 0))


@settings(max_examples=EXAMPLES)
@given(small_positions(allow_wrong=False))
def test_pair_reason_finds_a_forcing_pair_when_no_single_clue_forces_the_cell(position):
    position = position.with_mines(None)
    system = build_constraints(position)
    truth = brute_force(position)
    for cell, mine in [(c, False) for c in truth["safe"]] + [(c, True) for c in truth["mine"]]:
        through = [con.clue for con in system.constraints if cell in con.cells]
        if any(clues_force(position, [a], False, [cell], {cell} if mine else set()) for a in through):
            continue  # one clue forces it: explained without a pair
        forcing = {(a, b) for a in through for b in np.flatnonzero(position.revealed).tolist() if b != a
                   and clues_force(position, [a, b], False, [cell], {cell} if mine else set())}
        pair = pair_reason(system, cell, mine, {})
        if pair is None:
            assert not forcing
        else:
            a, b = (system.constraints[e].clue for e in pair)
            assert (a, b) in forcing or (b, a) in forcing


def test_a_clue_with_one_covered_cell_names_that_cell_alone():
    from mscsp.analysis.explain import _need

    one = parse_position("1.\n")
    assert _need(one, build_constraints(one), 0) == "the 1 at [0,0] needs one mine at [1,0]"
    many = parse_position("1.\n..\n")
    assert _need(many, build_constraints(many), 0).endswith("needs one mine among [1,0], [0,1] and [1,1]")


@settings(max_examples=EXAMPLES)
@given(positions_often_against_their_total())
def test_the_total_as_native_constraints_proves_what_brute_force_proves(position):
    truth = brute_force(position)
    with _native_total():
        if truth["count"] == 0:
            with pytest.raises(InconsistentError):
                deduce(position, "sat", counter=None)
            verdict = decide(position)
            assert not verdict.consistent
            assert_core_is_inconsistent_and_minimal(position, verdict.contradiction, True)
            return
        proven = deduce(position, "sat", counter=None).by_index
    assert {c for c, mine in proven.items() if not mine} == truth["safe"]
    assert {c for c, mine in proven.items() if mine} == truth["mine"]


def test_a_sat_call_stops_once_the_process_is_over_its_resident_allowance():
    """A part whose process is over its allowance answers None (not finished) at
    once; with room, the same question is answered. (The watch beside a long call
    interrupts it the same way; here the allowance is one byte, so it is over.)"""
    from mscsp.analysis.solvers.sat import _Part
    from mscsp.budget import Budget

    system = build_constraints(parse_position("mines: 2\n1.1\n...\n"))
    cells = sorted({c for e in range(len(system.constraints)) for c in system.equation(e).cells})
    eq_ids = list(range(len(system.constraints)))
    tight = _Part(system, eq_ids, cells, total=None, backend="g4", encoding="seqcounter",
                  limits=Budget(None, None, 1))
    roomy = _Part(system, eq_ids, cells, total=None, backend="g4", encoding="seqcounter",
                  limits=Budget(None, None, None))
    assert tight.solve(tight.selectors(), 10_000, time.perf_counter() + 5) is None
    assert roomy.solve(roomy.selectors(), 10_000, time.perf_counter() + 5) is True
    tight.delete()
    roomy.delete()


@settings(max_examples=EXAMPLES)
@given(small_positions(allow_wrong=False), st.booleans())
def test_proofs_given_by_a_count_are_explained_as_sat_explains_its_own(position, use_total):
    # the cells brute force proves, handed to solve as an exact count hands them (the
    # compiled search then explains them without a system): every explanation forces
    # its cells minimally, by brute force, and reads as SAT's own proof reads
    truth = brute_force(position, use_total=use_total)
    if not truth["count"]:
        return
    proven = dict.fromkeys(truth["safe"], False) | dict.fromkeys(truth["mine"], True)
    given = solve(position, "sat", use_total=use_total, proven=proven)
    own = solve(position, "sat", use_total=use_total)
    assert set(flat(position, given.safe)) == truth["safe"] and set(flat(position, given.mines)) == truth["mine"]
    for e in given.explanations:
        assert_explanation_is_valid_and_minimal(position, e, truth["mine"])
    assert given.explanations == own.explanations and given.deductions == own.deductions


def test_a_result_read_late_copies_pickles_and_compares_as_one_read_at_once():
    # the deductions and explanations are put together on first reading: a copy, a
    # pickle, a replace or a comparison made before any reading sees them all
    pos = parse_position("mines: 2\n.....\n.121.\n")
    proven = {1: True, 3: True, 0: False, 2: False, 4: False, 5: False, 9: False}  # the 1-2-1, by hand
    fresh = [solve(pos, "sat", proven=proven) for _ in range(4)]
    read = solve(pos, "sat", proven=proven)
    assert sum(len(e.cells) for e in read.explanations) == len(read.deductions) == len(proven)
    assert pickle.loads(pickle.dumps(fresh[0])) == read
    assert replace(fresh[1], complete=True) == read
    assert fresh[2] == read and repr(fresh[3]).split("stats=")[0] == repr(read).split("stats=")[0]
    assert [d.cell for d in read.deductions] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (4, 1)]
    with pytest.raises(AttributeError):
        fresh[0].no_such_field  # noqa: B018
