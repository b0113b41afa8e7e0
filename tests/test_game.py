import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import flood_region

from mscsp.board import Geometry, Layout, Spec
from mscsp.errors import IllegalMove, InputError
from mscsp.game import Action, ActionKind, Game, Replay, Status
from mscsp.position import Mark, Position


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@st.composite
def boards(draw, max_side=7):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    holes = draw(st.sets(st.integers(0, w * h - 1), max_size=(w * h) // 4))
    if len(holes) == w * h:
        holes = set()
    g = Geometry(w, h, frozenset(holes))
    mines = draw(st.sets(st.sampled_from(g.cells.tolist()), max_size=g.size - 1))
    return Layout._from_indices(g, mines)


@given(boards(), st.data())
def test_flood_fill_opens_exactly_the_zero_region_and_its_boundary(layout, data):
    g = layout.geometry
    safe = [c for c in g.cells.tolist() if not layout.mines[c]]
    start = data.draw(st.sampled_from(safe))
    flags = data.draw(st.sets(st.sampled_from(g.cells.tolist())).map(lambda s: s - {start}))
    game = Game(layout)
    for f in sorted(flags):
        game.flag(game.geometry.coords(f))
    opened = [g.index(*xy) for xy in game.reveal(game.geometry.coords(start))]
    expected = flood_region(g.width, g.height, g.holes, set(np.flatnonzero(layout.mines).tolist()), flags, start)
    assert set(opened) == expected
    assert len(opened) == len(set(opened))  # each cell once
    assert not any(layout.mines[c] for c in opened)
    assert not any(c in flags for c in opened)
    assert set(np.flatnonzero(game.revealed).tolist()) == expected


def test_flood_fill_on_a_huge_empty_board_needs_no_recursion():
    g = Geometry(1000, 1000)
    layout = Layout._from_indices(g, [999_999])
    game = Game(layout)
    opened = game.reveal(game.geometry.coords(0))
    assert len(opened) == 999_999 and game.status is Status.WON


def test_reveal_mine_loses_and_game_is_then_over():
    game = Game(Layout.from_rows(["*.", ".."]))
    assert game.reveal((0, 0)) == ((0, 0),)
    assert game.status is Status.LOST and game.exploded == (0, 0)
    with pytest.raises(IllegalMove, match="over"):
        game.reveal(game.geometry.coords(1))
    assert game.position().grid[0] == Mark.FLAG  # the player saw the mine


def test_reveal_flagged_or_open_cell_does_nothing():
    game = Game(Layout.from_rows(["*..", "..."]))
    game.flag(game.geometry.coords(2))
    assert game.reveal(game.geometry.coords(2)) == ()
    assert game.reveal((1, 0)) == ((1, 0),)
    assert game.reveal((1, 0)) == ()
    assert game.status is Status.PLAYING


def test_chord_only_when_flags_match_the_number():
    #  * . .
    #  . . .
    game = Game(Layout.from_rows(["*..", "...", "..."]))
    game.reveal(game.geometry.coords(4))  # the centre shows 1
    assert game.chord(game.geometry.coords(4)) == ()  # no flag yet: nothing happens
    game.flag(game.geometry.coords(0))
    opened = game.chord(game.geometry.coords(4))
    assert (0, 0) not in opened and len(opened) == 7 and game.status is Status.WON


def test_chord_with_a_wrong_flag_loses():
    game = Game(Layout.from_rows(["*..", "...", "..."]))
    game.reveal(game.geometry.coords(4))
    game.flag(game.geometry.coords(1))  # wrong flag
    game.chord(game.geometry.coords(4))
    assert game.status is Status.LOST and game.exploded == (0, 0)


def test_chord_needs_an_open_cell_and_flag_needs_a_covered_one():
    game = Game(Layout.from_rows(["*..", "...", "..."]))
    with pytest.raises(IllegalMove):
        game.chord(game.geometry.coords(4))
    game.reveal(game.geometry.coords(4))
    with pytest.raises(IllegalMove):
        game.flag(game.geometry.coords(4))
    with pytest.raises(IllegalMove):
        game.reveal(game.geometry.coords(9))


def test_win_needs_every_safe_cell_open_and_flags_are_optional():
    game = Game(Layout.from_rows(["*.*", "..."]))
    for c in (1, 3, 4, 5):
        game.reveal(game.geometry.coords(c))
    assert game.status is Status.WON


def test_elapsed_runs_from_first_reveal_to_the_end():
    clock = FakeClock()
    game = Game(Layout.from_rows(["*..", "..."]), clock=clock)
    clock.now += 5
    game.flag(game.geometry.coords(0))
    assert game.elapsed == 0.0  # not started: flags before the first reveal do not start it
    clock.now += 1
    game.reveal(game.geometry.coords(1))  # a 1: opens only itself
    clock.now += 3
    assert game.elapsed == 3.0 and game.status is Status.PLAYING
    game.reveal(game.geometry.coords(2))  # a 0: opens 4 and 5 with it
    game.reveal(game.geometry.coords(3))
    clock.now += 50
    assert game.status is Status.WON and game.elapsed == 3.0


def test_deferred_placement_follows_the_first_click():
    game = Game.deferred(Spec(9, 9, 60), "opening", seed=4)
    assert game.position().covered_count == 81 and game.position().mines == 60
    with pytest.raises(InputError):
        game.layout()
    game.reveal(game.geometry.coords(0))
    assert game.position().number((0, 0)) == 0


def test_position_never_shows_covered_truth():
    game = Game.deferred(Spec(16, 16, 40), "safe", seed=8)
    game.reveal(game.geometry.coords(100))
    position = game.position()
    layout = game.layout()
    revealed = game.revealed
    assert np.array_equal(position.grid[revealed], layout.numbers[revealed])
    assert (position.grid[~revealed] == Mark.COVERED).all()
    # Moving a mine between covered cells that touch no open cell changes nothing visible.
    g = layout.geometry
    touching = {n for c in np.flatnonzero(revealed).tolist() for n in g.neighbours(c)}
    far = [c for c in np.flatnonzero(~revealed).tolist() if c not in touching]
    mine = next(c for c in far if layout.mines[c])
    free = next(c for c in far if not layout.mines[c])
    moved = Layout._from_indices(g, (set(np.flatnonzero(layout.mines).tolist()) - {mine}) | {free})
    assert Position.from_view(moved, revealed, game.flagged) == position


@st.composite
def action_lists(draw):
    kinds = st.sampled_from(list(ActionKind))
    cells = st.tuples(st.integers(0, 8), st.integers(0, 8))
    return draw(st.lists(st.tuples(kinds, cells), max_size=40))


@given(st.integers(0, 10**6), st.sampled_from(["uniform", "safe", "opening", "winxp"]), action_lists())
def test_replay_round_trips_to_the_identical_state(seed, rule, actions):
    clock = FakeClock()
    game = Game.deferred(Spec(9, 9, 12), rule, seed, clock=clock)
    for kind, (x, y) in actions:
        clock.now += 0.25
        try:
            game.apply((kind, (x, y)))
        except IllegalMove:
            if game.status.over:
                break
    clock.now += 1
    replay = Replay.from_json(game.replay().to_json())
    again = replay.play()
    assert again.position() == game.position()
    assert again.status is game.status
    assert again.actions == game.actions
    assert again.exploded == game.exploded
    assert again.elapsed == pytest.approx(game.elapsed, abs=1e-5)
    assert again.replay().to_json() == game.replay().to_json()


def test_replay_of_a_fixed_layout_game():
    game = Game(Layout.from_rows(["*..-", "...."]))
    game.reveal(game.geometry.coords(3 - 1))
    game.flag(game.geometry.coords(0))
    again = Replay.from_json(game.replay().to_json()).play()
    assert again.position() == game.position()


def test_replay_detects_a_changed_layout_and_bad_json():
    game = Game.deferred(Spec(5, 5, 3), "safe", 1)
    game.reveal(game.geometry.coords(12))
    data = game.replay()
    tampered = Replay(**{**data.__dict__, "layout": ("*" + data.layout[0][1:],) + data.layout[1:]})
    with pytest.raises(InputError, match="sampler"):
        tampered.play()
    with pytest.raises(InputError, match="not JSON"):
        Replay.from_json("{")
    with pytest.raises(InputError, match="format"):
        Replay.from_json("{}")
    with pytest.raises(InputError):
        Replay.from_json('{"format": "mscsp-replay/1", "width": 2}')


def test_actions_are_recorded_as_distinct_kinds():
    game = Game(Layout.from_rows(["*..", "..."]))
    game.flag(game.geometry.coords(0))
    game.unflag(game.geometry.coords(0))
    game.reveal(game.geometry.coords(2))
    game.chord(game.geometry.coords(2))
    assert [a.kind for a in game.actions] == [ActionKind.FLAG, ActionKind.UNFLAG, ActionKind.REVEAL, ActionKind.CHORD]
    assert all(isinstance(a, Action) for a in game.actions)


def test_actions_take_x_y_and_refuse_anything_else():
    # [2, 0] on a 3x2 board: the zero there opens the two right columns
    game = Game(Layout.from_rows(["*..", "..."]))
    assert sorted(game.reveal((2, 0))) == [(1, 0), (1, 1), (2, 0), (2, 1)]
    for bad in (2, (2,), (2, 0, 0), (2.0, 0), "2,0", (False, 0), None):
        with pytest.raises(IllegalMove, match=r"must be a pair \(x, y\)"):
            game.reveal(bad)
    with pytest.raises(IllegalMove, match=r"\(3, 0\) is not a cell of this 3x2 board"):
        game.flag((3, 0))
    assert game.status is Status.PLAYING and game.actions[0].cell == (2, 0)


def _clocked_game():
    now = [0.0]

    def clock():
        now[0] += 0.5
        return now[0]

    return Game(Layout.from_rows(["*..", "...", ".-."]), clock=clock)


def test_actions_record_x_y_and_the_replay_file_is_as_before():
    game = _clocked_game()
    game.flag((0, 0)); game.reveal((2, 0)); game.unflag((0, 0)); game.flag((0, 0)); game.chord((1, 0))
    assert [(a.kind, a.cell) for a in game.actions] == [
        (ActionKind.FLAG, (0, 0)), (ActionKind.REVEAL, (2, 0)), (ActionKind.UNFLAG, (0, 0)),
        (ActionKind.FLAG, (0, 0)), (ActionKind.CHORD, (1, 0))]
    # the file a replay writes did not change when actions took (x, y)
    assert game.replay().to_dict()["actions"] == [
        {"action": "flag", "cell": [0, 0], "t": 0.5}, {"action": "reveal", "cell": [2, 0], "t": 1.0},
        {"action": "unflag", "cell": [0, 0], "t": 2.0}, {"action": "flag", "cell": [0, 0], "t": 2.5},
        {"action": "chord", "cell": [1, 0], "t": 3.0}]
    loaded = Replay.from_json(game.replay().to_json())
    assert loaded.actions == game.actions and all(type(a.cell) is tuple for a in loaded.actions)


def test_apply_takes_x_y_and_refuses_a_flat_index():
    game = _clocked_game()
    moves = [(ActionKind.FLAG, (0, 0)), ("unflag", (0, 0)), ("flag", (0, 0)), ("reveal", (2, 0)),
             (ActionKind.CHORD, (1, 1))]
    opened = [game.apply((kind, xy)) for kind, xy in moves]
    # by hand on the board of _clocked_game: the 0 at [2,0] opens its region, the
    # chord on the 1 at [1,1] (its mine flagged) the two cells left of it
    assert opened[:3] == [(), (), ()] and opened[3][0] == (2, 0)
    assert set(opened[3]) == {(2, 0), (1, 0), (1, 1), (2, 1), (2, 2)} and set(opened[4]) == {(0, 1), (0, 2)}
    assert game.status is Status.WON
    assert [(a.kind, a.cell) for a in game.actions] == [(ActionKind(k), xy) for k, xy in moves]
    for bad in ((2.0, 0), 2):
        with pytest.raises(IllegalMove, match=r"must be a pair \(x, y\)"):
            _clocked_game().apply(("reveal", bad))


def test_an_action_takes_its_cell_as_x_y_only():
    with pytest.raises(InputError, match=r"must be a pair \(x, y\)"):
        Action(ActionKind.REVEAL, 2)
    assert Action(ActionKind.FLAG, [1, 2]).cell == (1, 2)  # a JSON pair is kept as a tuple
    assert type(Action(ActionKind.FLAG, np.array([1, 2])).cell[0]) is int


def test_a_cell_is_read_by_x_y_and_a_flat_index_is_refused():
    game = Game(Layout.from_rows(["*..", "...", ".-."]))
    game.reveal((2, 0))
    assert [game.shown((x, 0)) for x in range(3)] == [None, 1, 0]
    assert [game.is_revealed((x, 1)) for x in range(3)] == [False, True, True]
    for flat in (0, 2):
        with pytest.raises(InputError, match=r"must be a pair \(x, y\)"):
            game.shown(flat)
        with pytest.raises(InputError, match=r"must be a pair \(x, y\)"):
            game.is_revealed(flat)
    for bad in ((1, 2), (3, 0), (0,), (0.0, 0), None):  # (1, 2) is a hole
        with pytest.raises(InputError):
            game.shown(bad)
        with pytest.raises(InputError):
            game.is_revealed(bad)
