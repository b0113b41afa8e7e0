import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_neighbours

from mscsp.board import Geometry, Layout, Spec
from mscsp.errors import InputError
from mscsp.play.verify import verify
from mscsp.rules import generate


def test_a_fifty_fifty_is_not_solved():
    # two covered cells, one mine, nothing to tell them apart
    layout = Layout.from_rows(["*.", "..", ".."])
    layout2 = Layout.from_rows([".*", "..", ".."])
    for lay in (layout, layout2):
        r = verify(lay, (0, 2))
        assert not r.solved and r.opened == 4 and r.safe_cells == 5


def test_the_total_opens_a_region_no_clue_touches():
    # holes wall off the right half; the 1s hold the only mine, so with the total the
    # right half is safe; the left pair stays a fifty-fifty either way
    layout = Layout.from_rows(["*..-..", "...-.."])
    with_total = verify(layout, (2, 1), "sat")
    without = verify(layout, (2, 1), "sat", use_total=False)
    assert (without.opened, with_total.opened) == (4, 8)
    assert not with_total.solved and not without.solved
    assert verify(layout, (2, 1), "subset").opened == 8  # the simple global rule sees it too
    assert verify(layout, (2, 1), "single-point").opened == 4


def test_single_point_is_weaker_than_sat_on_expert():
    solved = {s: 0 for s in ("single-point", "subset", "sat")}
    for seed in range(12):
        board = generate(Spec.preset("intermediate"), "opening", (8, 8), seed)
        for s in solved:
            solved[s] += verify(board.layout, board.click, s).solved
    assert solved["single-point"] <= solved["subset"] <= solved["sat"]
    assert solved["sat"] > 0


def test_first_click_on_a_mine_is_not_solved():
    r = verify(Layout.from_rows(["*."]), (0, 0))
    assert not r.solved and r.opened == 0


def test_click_must_be_a_cell_given_as_x_y():
    layout = Layout.from_rows(["*."])
    with pytest.raises(InputError, match=r"the click \(5, 0\) is not a cell of this 2x1 board"):
        verify(layout, (5, 0))
    for bad in (1, (1,), (1, 0, 0), (1.0, 0), "1,0", (True, 0), None):
        with pytest.raises(InputError, match=r"the click must be a pair \(x, y\)"):
            verify(layout, bad)


@st.composite
def _layouts_with_click(draw, min_side=2, max_side=6, spare=1):
    """A small layout (at least ``spare`` safe cells) and a safe click."""
    w, h = draw(st.integers(min_side, max_side)), draw(st.integers(min_side, max_side))
    g = Geometry(w, h)
    mines = draw(st.sets(st.integers(0, w * h - 1), min_size=1, max_size=w * h - spare))
    safe = [c for c in range(w * h) if c not in mines]
    return g, mines, safe, draw(st.sampled_from(safe))


def test_dead_pairs_are_really_indistinguishable_and_unsolvable():
    from mscsp.play.dead import dead_pair

    @settings(max_examples=300, deadline=None)
    @given(_layouts_with_click(3, 7, spare=2))
    def check(case):
        g, mines, safe, click = case
        layout = Layout._from_indices(g, mines)
        pair = dead_pair(layout, g.coords(click))
        if pair is None:
            return
        a, b = (g.index(*xy) for xy in pair)
        assert layout.mines[a] and not layout.mines[b] and b != click
        swapped = Layout._from_indices(g, (set(mines) - {a}) | {b})
        for c in safe:
            if c not in (a, b) and not swapped.mines[c]:
                assert swapped.numbers[c] == layout.numbers[c]
        assert not verify(layout, g.coords(click), "sat").solved
        quick = verify(layout, g.coords(click), "sat", quick=True)
        assert not quick.solved and quick.opened is None and quick.reason  # a 2x2 may be named first

    check()


def _safe_reach(g, mines, click):
    """The oracle: the safe cells linked to the click by safe cells (brute-force neighbours)."""
    reach, todo = {click}, [click]
    while todo:
        for n in brute_neighbours(g.width, g.height, g.holes, todo.pop()):
            if n not in mines and n not in reach:
                reach.add(n)
                todo.append(n)
    return reach


def test_dead_squares_and_walled_off_cells_really_defeat_every_solver():
    from mscsp.play.dead import dead_square, walled_off_safe

    @settings(max_examples=400, deadline=None)
    @given(_layouts_with_click())
    def check(case):
        g, mines, safe, click = case
        layout = Layout._from_indices(g, mines)
        for total in (True, False):
            square = dead_square(layout, g.coords(click), use_total=total)
            if square is None:
                continue
            square = tuple(g.index(*xy) for xy in square)
            a, b, c, d = square
            assert click not in square and (b, c, d) == (a + 1, a + g.width, a + g.width + 1)
            assert set(square) - mines  # a safe cell of the block becomes a mine
            swapped = Layout._from_indices(g, set(mines) ^ set(square))
            if total:
                assert swapped.mine_count == layout.mine_count
            for cell in safe:
                if not swapped.mines[cell]:
                    assert swapped.numbers[cell] == layout.numbers[cell]
            assert not verify(layout, g.coords(click), "sat", use_total=total).solved
            quick = verify(layout, g.coords(click), "sat", use_total=total, quick=True)  # a dead pair may come first
            assert not quick.solved and quick.reason
        pocket = walled_off_safe(layout, g.coords(click))
        if pocket is not None:
            pocket = g.index(*pocket)
            assert not layout.mines[pocket] and pocket not in _safe_reach(g, mines, click)
            assert not verify(layout, g.coords(click), "sat", use_total=False).solved
        else:
            assert _safe_reach(g, mines, click) == set(safe)

    check()


def test_dead_pair_across_the_board():
    # two sealed cells far apart: a safe one walled in by mines, and a mine walled in too
    rows = ["***....***", "*.*....***", "***....***"]
    layout = Layout.from_rows(rows)
    from mscsp.play.dead import dead_pair

    assert dead_pair(layout, (4, 0)) == ((8, 0), (1, 1))


@pytest.mark.parametrize("total", [True, False])
def test_every_engine_opens_the_same_cells_in_the_same_rounds(total):
    """The complete rung decided by counting or by SAT, in the Python loop or the
    compiled one: the same cells open in the same number of rounds."""
    from mscsp.game import Game
    from mscsp.play import fastplay
    from mscsp.play.loop import Deducer

    counters = ("dp", None, "auto") if total else (None, "auto")
    for seed in range(25):
        board = generate(Spec(16, 16, 40), "opening", (8, 8), seed)
        seen = set()
        for counter in counters:
            game = Game(board.layout, record=False)
            deducer = Deducer(game, "sat", use_total=total, counter=counter)
            deducer.opened(game.reveal(board.click))
            deducer.run()
            assert not (game.revealed & board.layout.mines).any()
            seen.add((game.opened_count, deducer.steps))
        if fastplay.available():
            fast = fastplay.play(board.layout, board.click, "sat", use_total=total)
            seen.add((fast.opened, fast.steps))
        result = verify(board.layout, board.click, "sat", use_total=total)
        seen.add((result.opened, result.steps))
        assert len(seen) == 1, seen


@pytest.mark.parametrize("total", [True, False])
def test_quick_verification_gives_the_full_answer_on_expert_boards(total):
    from mscsp.play.dead import dead_square

    squares = 0
    for seed in range(80):
        board = generate(Spec.preset("expert"), "opening", (15, 8), seed)
        quick = verify(board.layout, board.click, "sat", use_total=total, quick=True)
        full = verify(board.layout, board.click, "sat", use_total=total)
        assert quick.solved == full.solved
        squares += dead_square(board.layout, board.click) is not None
    assert squares >= 5  # the box 50/50 is common on Expert
