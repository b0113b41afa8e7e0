import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES
from mscsp.board import Spec
from mscsp.errors import InconsistentError
from mscsp.game import Game, Status
from mscsp.position import parse_position
from mscsp.rules import generate
from mscsp.solvers import deduce, solve
from oracles import brute_force
from strategies import small_positions

SOLVERS = ["single-point", "subset", "sat"]


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_sat_equals_brute_force(position, use_total):
    truth = brute_force(position, use_total=use_total)
    result = solve(position, "sat", use_total=use_total)
    assert result.consistent == (truth["count"] > 0)
    if result.consistent:
        assert set(result.safe) == truth["safe"]
        assert set(result.mines) == truth["mine"]
        assert result.complete


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.sampled_from(["single-point", "subset"]), st.booleans())
def test_cheap_solvers_never_claim_a_wrong_cell(position, solver, use_total):
    truth = brute_force(position, use_total=use_total)
    result = solve(position, solver, use_total=use_total)
    assert result.consistent == (truth["count"] > 0)  # consistency is always decided exactly
    if result.consistent:
        assert set(result.safe) <= truth["safe"]
        assert set(result.mines) <= truth["mine"]


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_ladder_is_monotone(position, use_total):
    results = [solve(position, s, use_total=use_total, explain=False) for s in SOLVERS]
    if results[0].consistent:
        for weaker, stronger in zip(results, results[1:]):
            assert set(weaker.safe) <= set(stronger.safe)
            assert set(weaker.mines) <= set(stronger.mines)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_explanations_really_force_their_cells_and_are_minimal(position, use_total):
    result = solve(position, "sat", use_total=use_total)
    if not result.consistent:
        return
    explained = set()
    for e in result.explanations:
        explained |= set(e.cells)
        assert e.text
        sub = brute_force(position, clues=e.clues, use_total=e.uses_total)
        for c in e.cells:
            mine = c in result.mines
            assert c in (sub["mine"] if mine else sub["safe"]), (e, c)
        # minimal: without any one clue (or without the total) the cells are no longer all forced
        for drop in e.clues:
            rest = [k for k in e.clues if k != drop]
            sub = brute_force(position, clues=rest, use_total=e.uses_total)
            assert not all(c in (sub["mine"] if c in result.mines else sub["safe"]) for c in e.cells)
        if e.uses_total:
            sub = brute_force(position, clues=e.clues, use_total=False)
            assert not all(c in (sub["mine"] if c in result.mines else sub["safe"]) for c in e.cells)
    assert explained == set(result.safe) | set(result.mines)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.sampled_from(SOLVERS))
def test_contradiction_cores_are_inconsistent_and_minimal(position, solver):
    result = solve(position, solver)
    if result.consistent:
        return
    core = result.contradiction
    assert core.text
    assert brute_force(position, clues=core.clues, use_total=core.uses_total)["count"] == 0
    for drop in core.clues:
        rest = [k for k in core.clues if k != drop]
        assert brute_force(position, clues=rest, use_total=core.uses_total)["count"] > 0
    if core.uses_total:
        assert brute_force(position, clues=core.clues, use_total=False)["count"] > 0


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("3.1\n.11\n", "the 3 at [0,0] has only two covered neighbours"),
        ("1F\nF.\n", "the 1 at [0,0] already touches two flags"),
        ("mines: 1\nFF\n..\n", "1 mines in all but 2 flags"),
        ("mines: 5\n1.\n..\n", "5 mines are left to place but only 3 cells are covered"),
    ],
)
def test_first_order_contradictions_are_said_in_words(text, fragment):
    result = solve(parse_position(text))
    assert not result.consistent and fragment in result.contradiction.text


def test_contradiction_of_two_clues():
    # the 1 and the 3 see the same four covered cells
    p = parse_position(".1.\n.3.\n")
    result = solve(p)
    assert not result.consistent and result.contradiction.clues == (1, 4)
    assert brute_force(p)["count"] == 0
    assert result.contradiction.text == (
        "the 1 at [1,0] needs one mine among [0,0], [2,0], [0,1] and [2,1]; "
        "the 3 at [1,1] needs three mines among [0,0], [2,0], [0,1] and [2,1]: no layout satisfies them all"
    )


def test_global_count_decides_far_cells():
    p = parse_position("mines: 1\n.1...\n")
    r = solve(p)
    assert set(r.safe) == {3, 4} and r.explanations[0].uses_total
    assert solve(p, use_total=False).safe == ()
    assert set(solve(p, "subset").safe) == {3, 4}
    assert solve(p, "single-point").safe == ()


def test_unconstrained_cells_forced_by_the_total():
    # the 2 needs both its covered neighbours; with 3 mines the far cells hold exactly one
    p = parse_position("mines: 2\n.2.\n...\n...\n")
    truth = brute_force(p)
    r = solve(p)
    assert set(r.safe) == truth["safe"] and set(r.mines) == truth["mine"]


def _play_with_checks(board, use_total=True):
    """Play from the click with the complete solver, checking every proven cell."""
    game = Game.from_board(board)
    game.reveal(board.click)
    layout = board.layout
    proven = 0
    while game.status is Status.PLAYING:
        known, complete = deduce(game.position(mines_known=use_total), "sat", use_total=use_total)
        assert complete
        for c, mine in known.items():
            assert layout.is_mine(c) == mine, c
        proven += len(known)
        safe = [c for c, m in known.items() if not m]
        if not safe:
            break
        for c, m in known.items():
            if m and not game.is_flagged(c):
                game.flag(c)
        for c in safe:
            if game.status is Status.PLAYING:
                game.reveal(c)
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


def test_inconsistent_error_from_deduce():
    with pytest.raises(InconsistentError):
        deduce(parse_position("mines: 1\n2.\n..\n"), "sat")


