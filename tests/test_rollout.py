"""Rollouts: layouts drawn uniformly from those a position admits (checked against
brute-force enumeration), candidates played out on them, and the policy option."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from conftest import EXAMPLES, benchmark
from hypothesis import HealthCheck, given, settings
from oracles import brute_force
from strategies import small_positions

from mscsp.analysis import Survey
from mscsp.errors import InputError
from mscsp.play.policies import move, rank
from mscsp.play.rollout import _below, close_candidates, position_seed, rollout_move, rollout_wins, sample_layouts
from mscsp.position import parse_position
from mscsp.stats import chi2_sf


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_every_sampled_layout_fits_the_position(position):
    truth = brute_force(position, with_layouts=True)
    if truth["count"] == 0 or position.mines is None:
        return
    rows = sample_layouts(Survey(position), 20, 5)
    flags = set(np.flatnonzero(position.flagged).tolist())
    allowed = [frozenset(lay) | flags for lay in truth["layouts"]]
    for row in rows:
        assert frozenset(np.flatnonzero(row).tolist()) in allowed


POSITIONS = [
    # a corner 1 and a 2 beside it, the rest away from the numbers
    "mines: 4\n12...\n.....\n.....\n",
    # two components that trade mines through the total
    "mines: 3\n1..1\n....\n....\n",
    # flags and a proven mine
    "mines: 3\nF1..\n11..\n....\n",
]


@pytest.mark.parametrize("text", POSITIONS)
def test_layouts_are_drawn_uniformly(text):
    position = parse_position(text)
    truth = brute_force(position, with_layouts=True)
    flags = frozenset(np.flatnonzero(position.flagged).tolist())
    expected = {frozenset(lay) | flags for lay in truth["layouts"]}
    draws = 40 * len(expected)
    rows = sample_layouts(Survey(position), draws, 2026)
    seen = Counter(frozenset(np.flatnonzero(r).tolist()) for r in rows)
    assert set(seen) <= expected
    # Pearson's statistic against equal frequencies; the seed is fixed, so this either
    # always passes or always fails, and a sampler that favours some layouts fails it
    mean = draws / len(expected)
    stat = sum((seen.get(lay, 0) - mean) ** 2 / mean for lay in expected)
    assert chi2_sf(stat, len(expected) - 1) > 1e-3


def test_a_biased_sampler_fails_the_same_check():
    # the check above can fail: half the draws taken from one layout
    position = parse_position(POSITIONS[1])
    truth = brute_force(position, with_layouts=True)
    expected = [frozenset(lay) for lay in truth["layouts"]]
    draws = 40 * len(expected)
    seen = Counter(expected * 20 + [expected[0]] * (draws // 2))
    mean = sum(seen.values()) / len(expected)
    stat = sum((seen.get(lay, 0) - mean) ** 2 / mean for lay in expected)
    assert chi2_sf(stat, len(expected) - 1) < 1e-3


def test_below_is_uniform_past_64_bits():
    bitgen = np.random.Generator(np.random.PCG64(1)).bit_generator
    bound = 3 * 2**70 + 1
    values = [_below(bitgen, bound) for _ in range(3000)]
    assert all(0 <= v < bound for v in values)
    # thirds of the range each get about a third of the draws
    thirds = Counter(3 * v // bound for v in values)
    assert all(abs(thirds[k] - 1000) < 120 for k in range(3))


def test_sampling_needs_the_total():
    with pytest.raises(InputError):
        sample_layouts(Survey(parse_position("1.\n..\n")), 3, 1)


def test_the_same_seed_draws_the_same_layouts():
    survey = Survey(parse_position(POSITIONS[0]))
    a = sample_layouts(survey, 50, position_seed(survey.position, 9))
    b = sample_layouts(Survey(parse_position(POSITIONS[0])), 50, position_seed(survey.position, 9))
    assert (a == b).all()


def test_rollouts_lose_where_the_cell_is_a_mine_and_never_win_more_than_its_safe_layouts():
    position = parse_position(POSITIONS[0])
    rows = sample_layouts(Survey(position), 40, 11)
    cells = [2, 5, 7]
    wins = rollout_wins(position, cells, rows, "+endgame")
    for cell, won in zip(cells, wins):
        assert won <= int((~rows[:, cell]).sum())


def test_rollouts_on_a_single_layout_follow_the_truth():
    # one sampled layout: the game after each click is the base policy's on that layout,
    # so a cell that is a mine there loses and a 3-cell strip's end cell, safe, wins
    position = parse_position("mines: 1\n...\n")
    g = position.geometry
    for mine in range(3):
        row = np.zeros((1, g.area), dtype=bool)
        row[0, mine] = True
        wins = rollout_wins(position, [0, 2], row, "+endgame")
        assert wins == [int(mine != 0), int(mine != 2)]


def test_rollouts_take_the_close_candidate_that_wins_most(monkeypatch):
    # early on a small board, where (2,2) and (2,4) tie and (2,3) is within 1/50
    import mscsp.play.rollout as rollout

    position = parse_position(EARLY)
    values = {c.cell: c.lookahead for c in rank(position, "+fifty")}
    best = max(values.values())
    calls, original = [], rollout.rollout_wins

    def spy(pos, cells, rows, policy):
        wins = original(pos, cells, rows, policy)
        calls.append((cells, wins))
        return wins

    monkeypatch.setattr(rollout, "rollout_wins", spy)
    rolled = rollout_move(position, "+fifty", samples=8, margin=Fraction(1, 50))
    (cells, wins), = calls
    g = position.geometry
    close = {g.cell(xy) for xy, v in values.items() if best - v <= Fraction(1, 50)}
    assert set(cells) <= close and len(cells) == min(3, len(close)) >= 2
    assert cells == close_candidates(position, "+fifty", margin=Fraction(1, 50))
    assert g.cell(move(position, "+fifty").cell) == cells[0]  # the look-ahead's choice first
    assert g.cell(rolled) == cells[wins.index(max(wins))]


def test_the_same_position_and_seed_give_the_same_rolled_out_move():
    moves = {rollout_move(parse_position(EARLY), "+fifty", samples=8, margin=Fraction(1, 50)) for _ in range(2)}
    assert len(moves) == 1


def test_a_zero_margin_plays_out_exact_ties_only_and_the_endgame_is_never_rolled_out():
    position = parse_position(EARLY)
    g = position.geometry
    values = {g.cell(c.cell): c.lookahead for c in rank(position, "+fifty")}
    best = max(values.values())
    tied = close_candidates(position, "+fifty", margin=Fraction(0))
    assert tied[0] == g.cell(move(position, "+fifty").cell)
    assert sorted(tied) == sorted(c for c, v in values.items() if v == best)
    small = parse_position("mines: 1\n...\n")  # 3 layouts: the exact endgame decides
    assert move(small, "+endgame").rung.value == "+endgame"
    assert close_candidates(small, "+endgame") == [small.geometry.cell(move(small, "+endgame").cell)]
    assert rollout_move(small, "+endgame") == move(small, "+endgame").cell


EARLY = "mines: 12\n" + "\n".join(["." * 8] * 3 + ["...12..."] + ["." * 8] * 4) + "\n"


def test_paired_benchmark_passes_options_to_the_policy():
    """benchmarks/paired.py --options-b: options reach the policy (rollouts off by
    option play the same games as the default; on, they play their own), and a pair
    without ``=`` is refused."""
    module = benchmark("paired")
    plain = module.Version(module.TREE, "+endgame")
    off = module.Version(module.TREE, "+endgame", (("rollouts", "0"),))
    row = module.compare(plain, off, ["beginner-safe"], 8, 0, 5, 2, 8)[0]
    assert row["a_only"] == row["b_only"] == 0
    calls = []
    import mscsp.play.rollout as rollout

    original = rollout.sample_layouts
    try:
        rollout.sample_layouts = lambda *a: calls.append(a[1]) or original(*a)
        module.play_chunk("beginner-safe", "+endgame", 5, 0, 8, {"rollouts": "4", "rollout_margin": "1/10"})
    finally:
        rollout.sample_layouts = original
    assert calls and set(calls) == {4}
    with pytest.raises(SystemExit):
        module.parse_options(["rollouts"])


def test_rollout_benchmark_scores_choices_by_the_reference(capsys):
    """benchmarks/rollouts.py: a choice is scored by the reference estimate against the
    look-ahead's (the first cell), and --quick runs end to end."""
    module = benchmark("rollouts")
    rows = [{"cells": [5, 6, 7], "reference": [10, 20, 5], "picks": [1, 2]},
            {"cells": [1, 2], "reference": [8, 8], "picks": [0, 0]}]
    s = module.summary(rows, 40)
    # position 1: reference prefers 6; the picks score (20-10)/40 and (5-10)/40
    # position 2: a tie, the look-ahead's cell is the reference's choice
    assert s["agree"] == pytest.approx(3 / 4)
    assert s["gain"][0] == pytest.approx(((0.25 - 0.125) / 2 + 0) / 2)
    assert s["best_gain"][0] == pytest.approx((0.25 + 0) / 2)
    assert module.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# beginner-safe:") and "| 8 | 2 |" in out
