"""The exact endgame against brute force: its layouts are every consistent layout, its
value is that of plain expectimax over them, and as a policy it plays optimally."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from conftest import EXAMPLES, require_built, unavoidable_sets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import brute_force, brute_numbers
from strategies import small_positions

from mscsp.analysis import list_layouts, list_walled
from mscsp.board import PRESETS, Spec
from mscsp.errors import BudgetExceeded, InconsistentError, InputError
from mscsp.game import Game
from mscsp.play import endgame, policies
from mscsp.play.endgame import solve_endgame, solve_from, solve_walled
from mscsp.play.loop import play_game
from mscsp.play.optimum import optimal_play, policy_play
from mscsp.play.policies import choose
from mscsp.position import Mark, Position, parse_position
from mscsp.rules import generate


def _expectimax(position, layouts, first: int | None = None) -> Fraction:
    """Plain expectimax over explicit layouts: every covered cell tried at every step, no memo
    (with ``first``, that cell is clicked first and the rest played best)."""
    g = position.geometry
    flags = set(np.flatnonzero(position.flagged).tolist())
    covered = np.flatnonzero(position.covered).tolist()
    numbers = {lay: brute_numbers(g.width, g.height, g.holes, set(lay) | flags) for lay in layouts}
    safe_total = len(covered) - len(next(iter(layouts)))

    def value(layouts, opened):
        if len(opened) == safe_total:
            return Fraction(1)
        best = Fraction(0)
        for c in covered:
            if c in opened or (first is not None and not opened and c != first):
                continue
            parts: dict[int, list] = {}
            for lay in layouts:
                if c not in lay:
                    parts.setdefault(numbers[lay][c], []).append(lay)
            v = sum((Fraction(len(p), len(layouts)) * value(p, opened | {c}) for p in parts.values()), Fraction(0))
            best = max(best, v)
        return best

    return value(list(layouts), frozenset())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_the_listed_layouts_are_exactly_the_consistent_ones(position):
    if position.mines is None:
        with pytest.raises(InputError, match="mine total"):
            list_layouts(position, limit=400)
        return
    truth = brute_force(position, with_layouts=True)
    cells, mines = list_layouts(position, limit=10**6)
    assert list(cells) == np.flatnonzero(position.covered).tolist()
    listed = [frozenset(c for c, m in zip(cells, row) if m) for row in mines.tolist()]
    assert len(listed) == len(set(listed))  # no layout twice
    assert set(listed) == {frozenset(lay) for lay in truth["layouts"]}


def _endgame_layouts(position) -> list[frozenset] | None:
    """Every consistent layout (by brute force) of a position with a total and a cell
    left to open, else None."""
    if position.mines is None:
        return None
    layouts = [frozenset(lay) for lay in brute_force(position, with_layouts=True)["layouts"]]
    if not layouts or len(layouts[0]) == len(np.flatnonzero(position.covered).tolist()):
        return None  # nothing consistent, or nothing left to open
    return layouts


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=7, allow_wrong=False))
def test_the_endgame_value_is_plain_expectimax(position):
    layouts = _endgame_layouts(position)
    if layouts is None:
        return
    end = solve_endgame(position, layout_limit=10**6, node_limit=None)
    assert end.layouts == len(layouts)
    assert end.probability == _expectimax(position, layouts)
    # the move is one that reaches that value: safe in some layout, and worth it
    assert any(end.cell_index not in lay for lay in layouts)


def _check_walled(position) -> list[tuple[int, ...]]:
    """Check every walled-off set of ``position`` against expectimax over the whole
    game; returns the sets."""
    truth = brute_force(position, with_layouts=True)
    if truth["count"] == 0 or truth["safe"]:
        return []  # sets are sought where nothing is left to prove
    layouts = [frozenset(lay) for lay in truth["layouts"]]
    whole = _expectimax(position, layouts)
    sets = unavoidable_sets(position)
    for cells in sets:
        end = solve_walled(position, [position.geometry.coords(c) for c in cells], layout_limit=10**6,
                           node_limit=None)
        own = {lay & set(cells) for lay in layouts}
        assert end.layouts == len(own)
        assert end.cell_index in cells
        # the set's own best move is a best move of the whole game
        assert _expectimax(position, layouts, first=end.cell_index) == whole
        # and the whole game is won when both the set and the rest are: a product
        rest = [lay for lay in layouts if lay & set(cells) == next(iter(own))]
        assert whole == end.probability * _expectimax(position, rest)
    return sets


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=7, allow_wrong=False))
def test_a_walled_off_set_played_on_its_own_is_played_optimally(position):
    if position.mines is not None:
        _check_walled(position)


@pytest.mark.parametrize("text, best", [
    # sets bordering a flag, where the first click matters: in the first, [0,2] and
    # [1,2] win 2/3, [1,1] only 1/3
    ("mines: 4\n.F.10\n2..21\n..2..\n", {10, 11}),
    ("mines: 5\n..1..\n23.32\n.F..1\n", {0, 1, 3}),
    ("mines: 5\n.11..\n.23.3\n1..F.\n", {5, 12, 14}),
])
def test_a_walled_off_set_where_the_first_click_matters(text, best):
    position = parse_position(text)
    (cells,) = _check_walled(position)
    assert solve_walled(position, [position.geometry.coords(c) for c in cells]).cell_index in best


def test_the_endgame_policy_plays_as_well_as_the_optimum():
    # solving every position exactly from the start is optimal play itself
    for spec, rule in [(Spec(4, 4, 3), "safe"), (Spec(4, 4, 4), "opening")]:
        best = optimal_play(spec, rule, (0, 0))
        played = policy_play(spec, rule, (0, 0),
                             lambda p: choose(p, "+endgame", endgame_layouts=10**6, endgame_nodes=None))
        assert played.wins == best.wins


def test_limits_are_kept_and_said():
    pos = parse_position("mines: 3\n......\n......\n")
    with pytest.raises(BudgetExceeded, match="more than 10 layouts"):
        list_layouts(pos, limit=10)
    with pytest.raises(BudgetExceeded, match="visited its 3 states"):
        solve_endgame(parse_position("mines: 3\n......\n......\n"), node_limit=3)
    with pytest.raises(InputError, match="every one is a mine"):
        solve_endgame(parse_position("mines: 2\n1..\n"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_a_walled_off_set_lists_exactly_its_own_layouts(position):
    # the set's layouts, listed alone, are the distinct patterns the position's
    # layouts (by brute force) show on its cells; as a policy meets it, the position
    # has its proven mines flagged and no proven safe cell left
    if position.mines is None:
        return
    truth = brute_force(position)
    if not truth["count"] or truth["safe"]:
        return
    grid = position.grid.copy()
    grid[sorted(truth["mine"])] = Mark.FLAG
    position = Position(position.geometry, grid, position.mines)
    truth = brute_force(position, with_layouts=True)
    for cells in unavoidable_sets(position):
        rows = list_walled(position, cells, limit=10**6)
        listed = {tuple(bool(v) for v in row) for row in rows.tolist()}
        assert len(listed) == len(rows)  # each once
        assert listed == {tuple(c in mines for c in cells) for mines in truth["layouts"]}


# -- the compiled search ------------------------------------------------------------------

def test_the_compiled_search_is_built_where_required():
    """MSCSP_REQUIRE_FASTPLAY=1 (CI sets it) requires every C accelerator built."""
    require_built(endgame.COMPILED, "the compiled endgame search")


def _both(position, **options):
    """solve_endgame's answer (or its budget error) compiled, then in Python."""
    answers = []
    for compiled in (endgame._endgame, None):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(endgame, "_endgame", compiled)
            try:
                end = solve_endgame(position, **options)
                answers.append((end.cell, end.layouts, end.wins, end.states))
            except (BudgetExceeded, InputError) as exc:
                answers.append((type(exc), str(exc)))
    return answers


@pytest.mark.skipif(not endgame.COMPILED, reason="the compiled endgame search was not built")
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=12, allow_wrong=False), nodes=st.sampled_from([None, 1, 3, 10, 40]))
def test_the_compiled_search_finds_the_python_searchs_move(position, nodes):
    """The same move, wins and states, and the same budget spent: the search is the same."""
    if position.mines is None:
        return
    try:
        list_layouts(position, limit=400)
    except (BudgetExceeded, InconsistentError):
        return
    fast, slow = _both(position, node_limit=nodes)
    assert fast == slow


@pytest.mark.skipif(not endgame.COMPILED, reason="the compiled endgame search was not built")
def test_the_compiled_search_on_endgames_of_real_play(monkeypatch):
    """Endgames with a few hundred layouts and many columns (several words per layout
    set), met in seeded Expert games, with and without a state budget."""
    searched, search = [], policies.solve_endgame

    def record(position, **options):
        searched.append(position)
        return search(position, **options)

    monkeypatch.setattr(policies, "solve_endgame", record)
    for i in range(40):  # until a few endgames were met: many games end before one
        board = generate(PRESETS["expert"], "safe", (0, 0), np.random.default_rng(i))
        play_game(Game.from_board(board, record=False), board.click, policy="+endgame")
        if len(searched) >= 3:
            break
    assert len(searched) >= 3
    for position in searched:
        for nodes in (None, 200):
            fast, slow = _both(position, node_limit=nodes)
            assert fast == slow


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=7, allow_wrong=False))
def test_each_clicks_win_chance_is_expectimax_from_that_click(position):
    layouts = _endgame_layouts(position)
    if layouts is None:
        return
    wins = endgame.click_wins(position, layout_limit=10**6, node_limit=None)
    g = position.geometry
    # every cell safe in some layout, none that is a mine in all
    assert set(wins) == {g.coords(c) for c in np.flatnonzero(position.covered).tolist()
                         if any(c not in lay for lay in layouts)}
    for cell, p in wins.items():
        assert p == _expectimax(position, layouts, first=g.index(*cell))
    assert max(wins.values()) == solve_endgame(position, layout_limit=10**6, node_limit=None).probability


def test_each_clicks_win_chance_inside_a_walled_off_set():
    position = parse_position("mines: 4\n.F.10\n2..21\n..2..\n")
    (cells,) = unavoidable_sets(position)
    cells = [position.geometry.coords(c) for c in cells]
    wins = endgame.click_wins(position, cells)
    assert set(wins) <= set(cells)
    # [0,2] and [1,2] win 2/3 of the set's layouts, [1,1] only 1/3
    assert wins[0, 2] == wins[1, 2] == Fraction(2, 3) and wins[1, 1] == Fraction(1, 3)
    assert max(wins.values()) == solve_walled(position, cells).probability


def test_click_wins_leaves_out_what_it_had_no_time_for():
    position = parse_position("mines: 3\n1...\n2...\n....\n")
    assert endgame.click_wins(position, time_limit=0.0) == {}
    assert len(endgame.click_wins(position)) == 10


# -- the search that weighs a given move first (the +deep rung) ---------------------------

def _solve_from_both(position, cell, **options):
    """solve_from's answer compiled, then in Python: (cell, wins, states, complete) or None."""
    answers = []
    for compiled in (endgame._endgame, None):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(endgame, "_endgame", compiled)
            end = solve_from(position, cell, **options)
            answers.append(None if end is None else (end.cell, end.wins, end.states, end.complete))
    return answers


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=7, allow_wrong=False), nodes=st.sampled_from([None, 1, 3, 10, 40]),
       pick=st.integers(0, 6))
def test_a_cut_off_search_plays_only_a_move_proven_better_than_the_first(position, nodes, pick):
    layouts = _endgame_layouts(position)
    if layouts is None:
        return
    covered = np.flatnonzero(position.covered).tolist()
    if any(all(c not in lay for lay in layouts) for c in covered):
        return  # a cell safe in every layout is opened, not guessed
    can_be_safe = [c for c in covered if any(c not in lay for lay in layouts)]
    first = can_be_safe[pick % len(can_be_safe)]
    g = position.geometry
    end = solve_from(position, g.coords(first), layout_limit=10**6, node_limit=nodes)
    best = _expectimax(position, layouts)
    if end is None:  # nothing proven better: only when cut off, or when no guess can win
        assert nodes is not None or best == 0
        return
    played = _expectimax(position, layouts, first=end.cell_index)
    assert end.probability == played  # the move's wins are exact, complete or not
    if end.complete:
        assert played == best
    else:
        assert end.cell_index != first and played > _expectimax(position, layouts, first=first)
    if endgame.COMPILED:
        fast, slow = _solve_from_both(position, g.coords(first), layout_limit=10**6, node_limit=nodes)
        assert fast == slow


def test_the_first_move_must_be_one_to_guess():
    with pytest.raises(InputError, match="cannot be safe"):
        solve_from(parse_position("mines: 1\n.1F\n"), (2, 0))
    with pytest.raises(InputError, match="safe in every layout"):
        solve_from(parse_position("mines: 1\n.1..\n"), (0, 0))
