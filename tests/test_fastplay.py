"""The compiled play loop against its Python reference.

The references are tested against brute force elsewhere (tests/test_solvers.py,
tests/test_verify.py); here the compiled loop must open the same cells in the
same rounds on random boards, with holes and at every density, and every cell it
opens or flags must match the true layout. ``MSCSP_REQUIRE_FASTPLAY=1`` (CI sets it) makes a missing
extension fail instead of skipping.
"""

import numpy as np
import pytest
from conftest import EXAMPLES, REQUIRE_COMPILED, require_built
from hypothesis import given, settings
from hypothesis import strategies as st

from mscsp.analysis.solvers.result import SolverName
from mscsp.board import Geometry, Layout, Spec
from mscsp.game import Game, Status
from mscsp.play import fastplay
from mscsp.play.dead import _find_structure, dead_structure
from mscsp.play.loop import Deducer
from mscsp.play.verify import verify
from mscsp.rules import generate

def test_the_extension_is_built_where_required():
    require_built(fastplay.available(), "the C play loop")


needs_c = pytest.mark.skipif(not fastplay.available() and not REQUIRE_COMPILED, reason="the C play loop was not built")


@st.composite
def boards(draw, max_side=9):
    """A layout (holes allowed) and a safe click."""
    w, h = draw(st.integers(2, max_side)), draw(st.integers(2, max_side))
    holes = draw(st.sets(st.integers(0, w * h - 1), max_size=(w * h) // 5))
    mask = np.ones(w * h, dtype=bool)
    mask[list(holes)] = False
    cells = np.flatnonzero(mask).tolist()
    if len(cells) < 2:
        cells = list(range(w * h))
        mask[:] = True
    g = Geometry.from_mask(mask.reshape(h, w))
    density = draw(st.floats(0.0, 0.7))
    mines = set(draw(st.lists(st.sampled_from(cells), max_size=int(len(cells) * density) + 1)))
    safe = [c for c in cells if c not in mines]
    if not safe:
        mines.discard(cells[0])
        safe = [cells[0]]
    return Layout._from_indices(g, mines), draw(st.sampled_from(safe))


def _play(layout, click, solver, use_total):
    """The reference: the Python play loop (Deducer), from the click to its end."""
    game = Game(layout, record=False)
    opened = game._reveal_index(click)
    deducer = Deducer(game, solver, use_total=use_total)
    if game.status is Status.PLAYING:
        deducer._opened_index(opened)
        deducer.run()
    return game, deducer


def _check_sound(layout, result):
    revealed = np.frombuffer(result.revealed, dtype=bool)
    flagged = np.frombuffer(result.flagged, dtype=bool)
    assert not (revealed & layout.mines).any(), "opened a mine"
    assert not (flagged & ~layout.mines).any(), "flagged a safe cell"
    assert int(revealed.sum()) == result.opened


@needs_c
def test_small_boards_play_as_the_python_loop_does():
    @settings(max_examples=EXAMPLES, deadline=None)
    @given(boards(max_side=8))
    def check(case):
        layout, click = case
        for solver in ("sat", "single-point"):
            for use_total in (True, False):
                fast = fastplay.play(layout, layout.geometry.coords(click), solver, use_total=use_total)
                game, deducer = _play(layout, click, SolverName.parse(solver), use_total)
                assert fast is not None
                _check_sound(layout, fast)
                assert (fast.won, fast.opened, fast.steps) == (game.status.value == "won", game.opened_count,
                                                               deducer.steps)
                assert verify(layout, layout.geometry.coords(click), solver, use_total=use_total).engine == "compiled"

    check()


@needs_c
@pytest.mark.parametrize("width,height,mines", [(30, 16, 99), (30, 16, 130), (16, 16, 40), (50, 30, 300)])
def test_played_boards_match_the_python_loop(width, height, mines):
    spec, click = Spec(width, height, mines), (width // 2, height // 2)
    for seed in range(25):
        board = generate(spec, "opening", click, seed)
        for use_total in (True, False):
            fast = fastplay.play(board.layout, board.click, use_total=use_total)
            assert fast is not None
            _check_sound(board.layout, fast)
            # the same stall, flags included (every forced mine): generators perturb from
            # it. (A won game may end with fewer flags: the order of the last proofs differs.)
            game, deducer = _play(board.layout, board.click_index, SolverName.SAT, use_total)
            assert (fast.won, fast.opened, fast.steps) == (game.status.value == "won", game.opened_count,
                                                           deducer.steps)
            assert fast.revealed == game.revealed.tobytes()
            assert fast.won or fast.flagged == game.flagged.tobytes()
            quick = verify(board.layout, board.click, use_total=use_total, quick=True)
            assert quick.solved == fast.won
            assert quick.opened in (None, fast.opened)  # None: a dead structure answered


@needs_c
def test_a_search_past_its_budget_hands_the_board_back():
    board = generate(Spec.preset("expert"), "opening", (15, 8), 3)
    assert fastplay.play(board.layout, board.click, node_limit=0) is None
    assert verify(board.layout, board.click, quick=True).solved == verify(board.layout, board.click).solved


def test_what_the_compiled_loop_does_not_cover_falls_back():
    layout = Layout.from_rows(["*..", "...", "..."])
    assert fastplay.play(layout, (2, 2), "subset") is None  # subset's stalls differ; Python plays it
    assert fastplay.play(layout, (0, 0)) is None  # the click is a mine (rule uniform)
    assert verify(layout, (0, 0), quick=True).opened == 0


def test_quick_mode_names_the_same_structure_either_way():
    layout = Layout.from_rows(["*..", ".*.", "..*"])
    assert dead_structure(layout, (0, 2)) == ("the mines of the 2x2 block at [0, 0] could trade places with its "
                                                "safe cells without any number changing")
    assert not verify(layout, (0, 2), quick=True).solved


@needs_c
@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(), data=st.data(), use_total=st.booleans())
def test_resume_reaches_the_python_closure(board, data, use_total):
    """Deduction resumed after guesses ends where the Python loop ends, and every cell
    it opens or flags matches the layout."""
    layout, click = board
    python, compiled = Game(layout, record=False), Game(layout, record=False)
    deducer = Deducer(python, SolverName.SAT, use_total=use_total)
    deducer._opened_index(python._reveal_index(click))
    compiled._reveal_index(click)
    for _ in range(3):  # a stall, then a guess at a safe cell, three times
        deducer.run()
        if compiled.status is Status.PLAYING:
            fast = fastplay.resume(layout, compiled.revealed.tobytes(), compiled.flagged.tobytes(),
                                   use_total=use_total)
            assert fast is not None
            compiled._adopt_proven(fast.revealed, fast.flagged)
        assert compiled.status is python.status
        assert compiled.revealed.tolist() == python.revealed.tolist()
        assert not (compiled.flagged & ~layout.mines).any()
        if python.status is not Status.PLAYING:
            return  # a won game: the loops may stop flagging at different moments
        assert compiled.flagged.tolist() == python.flagged.tolist()  # what the next guess sees
        covered = np.flatnonzero(~python.revealed & ~python.flagged & ~layout.mines & layout.geometry.mask)
        guess = int(data.draw(st.sampled_from(covered.tolist())))
        deducer._opened_index(python._reveal_index(guess))
        compiled._reveal_index(guess)


def test_adopting_a_mine_is_refused():
    layout = Layout.from_rows(["*..", "..."])
    game = Game(layout, record=False)
    game._reveal_index(5)
    with pytest.raises(Exception, match="hold no mine"):
        game._adopt_proven(bytes([1, 0, 0, 0, 0, 1]), bytes(6))


def _swap(layout, out_of, into):
    """The layout with the mines at ``out_of`` moved to the safe cells ``into``."""
    mines = set(np.flatnonzero(layout.mines).tolist())
    assert set(out_of) <= mines and not set(into) & mines
    return Layout._from_indices(layout.geometry, (mines - set(out_of)) | set(into))


def _check_replay(layout, click, previous, changed, use_total, solver="sat"):
    """A replay after a swap against two independent plays of the new layout from the
    click: the compiled play from scratch and the Python loop."""
    replayed = fastplay._replay_index(layout, click, previous, changed, solver, use_total=use_total)
    scratch = fastplay._play_index(layout, click, solver, use_total=use_total, rounds=True)
    assert (replayed is None) == (scratch is None)
    if scratch is None:
        assert layout.mines[click]  # the click became a mine: the game is lost at once
        return None
    _check_sound(layout, replayed)
    touched = replayed.order >= 0
    assert len(set(replayed.order[touched].tolist())) == int(touched.sum())  # a sequence, for the next replay
    assert (np.diff(replayed.rounds[touched][np.argsort(replayed.order[touched])]) >= 0).all()
    assert (replayed.won, replayed.opened, replayed.steps, replayed.revealed) == (
        scratch.won, scratch.opened, scratch.steps, scratch.revealed)
    opened = np.frombuffer(scratch.revealed, dtype=bool)
    assert replayed.rounds[opened].tolist() == scratch.rounds[opened].tolist()
    if not scratch.won:  # a won game may stop flagging in either order
        assert replayed.flagged == scratch.flagged
        assert replayed.rounds.tolist() == scratch.rounds.tolist()
    game, deducer = _play(layout, click, SolverName.parse(solver), use_total)
    assert (replayed.won, replayed.opened, replayed.steps) == (game.status is Status.WON, game.opened_count,
                                                               deducer.steps)
    assert replayed.revealed == game.revealed.tobytes()
    return replayed


@needs_c
def test_recorded_rounds_follow_the_play():
    """Round 0 is the click's opening; single-point passes are odd rounds and stalls
    even ones, so the rounds that proved something are the steps."""
    for seed in range(10):
        board = generate(Spec.preset("expert"), "opening", (15, 8), seed)
        fast = fastplay.play(board.layout, board.click, rounds=True)
        plain = fastplay.play(board.layout, board.click)
        assert (fast.won, fast.opened, fast.steps, fast.revealed, fast.flagged) == (
            plain.won, plain.opened, plain.steps, plain.revealed, plain.flagged)
        touched = np.frombuffer(fast.revealed, dtype=bool) | np.frombuffer(fast.flagged, dtype=bool)
        assert ((fast.rounds >= 0) == touched).all()
        assert fast.rounds[board.click_index] == 0
        # the zero region of the click is opened by the game at round 0
        game = Game(board.layout, record=False)
        game._reveal_index(board.click_index)
        assert np.flatnonzero(fast.rounds == 0).tolist() == np.flatnonzero(game.revealed).tolist()
        assert len(set(fast.rounds[fast.rounds > 0].tolist())) == fast.steps
        # the order is a sequence of the openings and flags, rounds never going back
        assert ((fast.order >= 0) == touched).all()
        by_order = np.argsort(fast.order[touched])
        assert sorted(fast.order[touched].tolist()) == list(range(int(touched.sum())))
        assert (np.diff(fast.rounds[touched][by_order]) >= 0).all()


@needs_c
@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(), data=st.data(), use_total=st.booleans(), solver=st.sampled_from(["sat", "single-point"]))
def test_replay_after_swaps_equals_a_play_from_scratch(board, data, use_total, solver):
    layout, click = board
    previous = fastplay._play_index(layout, click, solver, use_total=use_total, rounds=True)
    assert previous is not None
    for _ in range(4):  # a short chain of moves, each replayed from the last record
        mines = np.flatnonzero(layout.mines).tolist()
        safe = np.flatnonzero(~layout.mines & layout.geometry.mask).tolist()
        k = data.draw(st.integers(1, 2))
        if min(len(mines), len(safe)) < k:
            return
        out_of = data.draw(st.lists(st.sampled_from(mines), min_size=k, max_size=k, unique=True))
        into = data.draw(st.lists(st.sampled_from(safe), min_size=k, max_size=k, unique=True))
        layout = _swap(layout, out_of, into)
        previous = _check_replay(layout, click, previous, out_of + into, use_total, solver)
        if previous is None:
            return


@needs_c
@pytest.mark.parametrize("mines", [99, 130, 170])
def test_replay_on_expert_boards_with_random_swaps(mines):
    """Swaps away from the click's opening on Expert-sized boards, no-guess or not."""
    rng = np.random.default_rng(mines)
    spec, click = Spec(30, 16, mines), (15, 8)
    for seed in range(8):
        board = generate(spec, "opening", click, seed)
        layout, c = board.layout, board.click_index
        keep = {c, *layout.geometry.neighbour_rows(np.array([c]))[0].tolist()}
        previous = fastplay._play_index(layout, c, rounds=True, use_total=bool(seed % 2))
        for _ in range(6):
            mine = int(rng.choice(np.flatnonzero(layout.mines)))
            free = [x for x in np.flatnonzero(~layout.mines).tolist() if x not in keep]
            cell = int(rng.choice(free))
            layout = _swap(layout, [mine], [cell])
            previous = _check_replay(layout, c, previous, [mine, cell], bool(seed % 2))


def test_replay_refuses_what_it_cannot_resume():
    layout = Layout.from_rows(["*..", "...", "..*"])
    plain = fastplay.play(layout, (0, 2))
    if plain is None:
        pytest.skip("the C play loop was not built")
    with pytest.raises(Exception, match="rounds"):
        fastplay.replay_after_swap(layout, (0, 2), plain, [(0, 0), (1, 0)])
    recorded = fastplay.play(layout, (0, 2), rounds=True)
    moved = _swap(layout, [0], [1])
    with pytest.raises(ValueError, match="mine total"):  # one cell named: the total would change
        fastplay.replay_after_swap(moved, (0, 2), recorded, [(0, 0)])


@needs_c
@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(), use_total=st.booleans(), data=st.data())
def test_the_compiled_structure_search_names_what_the_python_one_does(board, use_total, data):
    """The dead structures found cell by cell in C against mscsp.play.dead's bit sets
    (itself tested in tests/test_verify.py and tests/test_pseudo.py), clicks on mines too."""
    layout, click = board
    if data.draw(st.booleans()):
        click = data.draw(st.sampled_from(layout.geometry.cells.tolist()))
    assert fastplay._structure(layout, click, use_total) == _find_structure(layout, click, use_total=use_total)


@needs_c
@pytest.mark.parametrize("mines", [99, 130, 170])
def test_the_compiled_structure_search_on_expert_boards(mines):
    found = 0
    for seed in range(60):
        board = generate(Spec(30, 16, mines), "opening", (15, 8), seed)
        for use_total in (True, False):
            expected = _find_structure(board.layout, board.click_index, use_total=use_total)
            assert fastplay._structure(board.layout, board.click_index, use_total) == expected
            found += expected is not None
    assert found > 10  # the boards hold structures of each kind to compare


@needs_c
def test_the_compiled_call_rejects_a_malformed_neighbour_table():
    layout = Layout.from_rows(["*..", "...", "..."])
    adjacency, mask, width = fastplay._board(layout.geometry)
    mines = layout.mines.tobytes()
    # the click at the far corner is a zero: its opening wins, all eight safe cells
    assert fastplay._fastplay.play(adjacency, mask, mines, width, 8, True, True, 1000)[:2] == (0, 8)
    bad = np.frombuffer(adjacency, dtype=np.int32).copy()
    bad[4 * 9 + 1] = 99  # a neighbour off the board
    with pytest.raises(ValueError):
        fastplay._fastplay.play(bad.tobytes(), mask, mines, width, 8, True, True, 1000)
    bad = np.frombuffer(adjacency, dtype=np.int32).copy()
    bad[4 * 9] = 9  # nine neighbours
    with pytest.raises(ValueError):
        fastplay._fastplay.play(bad.tobytes(), mask, mines, width, 8, True, True, 1000)
    with pytest.raises(ValueError):
        fastplay._fastplay.play(adjacency[:-4], mask, mines, width, 8, True, True, 1000)


@needs_c
def test_quick_verification_answers_as_the_structure_search_and_the_play():
    """verify(quick=True) looks for a dead structure and plays in one compiled call;
    against the Python structure search and a play without the look, on boards whose
    rows fit a word and on boards too wide for one (looked at in Python)."""
    from mscsp.play.dead import _coords, describe_structure

    for spec in (Spec(30, 16, 99), Spec(60, 20, 240)):
        for seed in range(15):
            board = generate(spec, "opening", (spec.width // 2, spec.height // 2), seed)
            for use_total in (True, False):
                quick = verify(board, use_total=use_total, quick=True)
                full = verify(board, use_total=use_total)
                found = _find_structure(board.layout, board.click_index, use_total=use_total)
                assert quick.solved == full.solved
                if found is None:
                    assert (quick.engine, quick.opened, quick.steps) == ("compiled", full.opened, full.steps)
                else:
                    assert quick.engine == "structure" and quick.opened is None
                    assert quick.reason == describe_structure((found[0], _coords(board.layout.geometry, found[1])))
