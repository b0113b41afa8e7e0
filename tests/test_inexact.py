"""The tally of analyses that were not exact: it counts every fallback, and nothing else.

Oracles: the position without a zero of ``tests/test_rounded.py``, whose exact count
needs 3.3 GB and a minute (more than the budgets given here), so that no analysis
within them can be exact; positions counted by brute force, whose every counting
table holds fewer entries than the ``2**n`` assignments of their ``n`` covered
cells, below the bound on states, so that every analysis must be exact (and equal
the brute-force count); and the frontier read off the grid by hand, which says
which guesses had anything to count when counting is made to give up.
"""

import functools

import numpy as np
import pytest
from conftest import benchmark
from oracles import brute_force, brute_neighbours

import mscsp.analysis.survey as survey_module
from mscsp.analysis import Inexact, Survey, inexact_answers
from mscsp.analysis.counting import pipeline, probabilities
from mscsp.board import PRESETS, Spec
from mscsp.budget import DEFAULT_STATE_LIMIT, Budget
from mscsp.errors import BudgetExceeded, InputError, Resource
from mscsp.experiments import winrate
from mscsp.experiments.runner import Chunk
from mscsp.game import Game
from mscsp.play.loop import play_game
from mscsp.play.policies import choose
from mscsp.position import Mark, parse_position
from mscsp.rules import generate

from test_rounded import NO_ZERO_LAYOUTS


def _has_frontier(position) -> bool:
    """Whether some covered cell touches an open number (by the grid, not the engine)."""
    g = position.geometry
    covered = set(np.flatnonzero(position.grid == Mark.COVERED.value).tolist())
    return any(brute_neighbours(g.width, g.height, g.holes, c) & covered
               for c in np.flatnonzero(position.revealed).tolist())


def _memory_out(*args, **kwargs):
    """The exact stage as if every component had outgrown its memory allowance."""
    raise BudgetExceeded("exact counting needs more memory than its allowance", Resource.MEMORY)


@pytest.fixture
def estimated(monkeypatch):
    """Every survey's exact stage allowed no table at all: its parts are estimated."""
    monkeypatch.setattr(survey_module, "count_components",
                        functools.partial(survey_module.count_components, state_limit=0))


@pytest.fixture
def rounded(monkeypatch):
    """Every component's exact count out of memory: the rounded count takes over."""
    monkeypatch.setattr(pipeline, "_exact_tally", _memory_out)


def test_the_position_without_a_zero_is_counted_rounded_within_a_budget_exact_counting_cannot_meet():
    position = parse_position(benchmark("stress").no_zero_lattice(30, 16, 168, seed=1))
    before = inexact_answers()
    probs = probabilities(position, budget=Budget.of(8.0))
    assert inexact_answers() - before == Inexact(rounded=1)
    low, high = (float(x) for x in probs.stats["estimate"]["layouts_interval"])
    assert low <= NO_ZERO_LAYOUTS <= high and not probs.exact


def test_a_count_allowed_no_table_is_estimated_and_tallied_so():
    position = parse_position(benchmark("stress").no_zero_lattice(12, 8, 28, seed=3))
    before = inexact_answers()
    probs = probabilities(position, state_limit=0, samples=200)
    assert inexact_answers() - before == Inexact(estimated=1) and not probs.exact
    # an exact count of the same position adds nothing
    assert probabilities(position).exact and inexact_answers() - before == Inexact(estimated=1)


@pytest.mark.parametrize("kind", ["estimated", "rounded"])
def test_a_game_counts_each_guess_that_had_a_frontier_to_count(kind, request):
    request.getfixturevalue(kind)
    seen = []

    def guess(position, k):
        seen.append(position)
        return choose(position, "least-p")

    records = []
    for seed in range(4):
        board = generate(Spec(9, 9, 10), "safe", (0, 0), seed=seed)
        seen.clear()
        record = play_game(Game.from_board(board, record=False), board.click, guess=guess)
        expected = sum(map(_has_frontier, seen))
        assert (record.rounded, record.estimated) == ((expected, 0) if kind == "rounded" else (0, expected))
        assert record.exact == (expected == 0)
        records.append(record)
    assert sum(r.rounded + r.estimated for r in records) > 0  # the boards did reach a fallback


@pytest.mark.parametrize("policy", ["least-p", "+lookahead", "+endgame"])
def test_games_on_boards_brute_force_enumerates_stay_exact(policy):
    # at most 16 covered cells: every table of the programme holds fewer than 2**16
    # entries, under the bound on states, and no deadline is set
    assert 2**16 < DEFAULT_STATE_LIMIT
    seen = []

    def guess(position, k):
        seen.append(position)
        return choose(position, policy)

    rng = np.random.default_rng(11)
    games = 0
    for spec, rule in ((Spec(4, 4, 3), "safe"), (Spec(4, 4, 4), "opening"), (Spec(5, 3, 4), "safe")):
        for _ in range(15):
            board = generate(spec, rule, (0, 0), rng)
            seen.clear()
            record = play_game(Game.from_board(board, record=False), board.click, guess=guess)
            assert record.exact and (record.rounded, record.estimated) == (0, 0)
            for position in seen:
                assert Survey(position).layouts == brute_force(position)["count"]
            games += bool(seen)
    assert games > 10  # most games guessed at least once


def test_the_winrate_columns_count_the_games_that_fell_back(estimated):
    spec = PRESETS["beginner"]
    chunk = Chunk(winrate.NAME, 0, 0, 0, 6, 5, {"kind": "games", "spec": spec.__dict__, "size": "beginner",
                                                "rule": "safe", "click": (0, 0), "policy": "least-p", "start": 1})
    out = winrate._games(chunk)
    # the same boards again, each guess's position kept
    fell_back, guesses = 0, 0
    for ss in winrate._board_seeds(chunk):
        board = generate(spec, "safe", (0, 0), np.random.Generator(np.random.PCG64(ss)))
        seen = []
        play_game(Game.from_board(board, record=False), board.click,
                  guess=lambda position, k: seen.append(position) or choose(position, "least-p"))
        counted = sum(map(_has_frontier, seen))
        fell_back += counted > 0
        guesses += counted
    assert out["tallied"] == out["n"] == 6
    assert (out["inexact_games"], out["rounded"], out["estimated"]) == (fell_back, 0, guesses)
    assert fell_back > 0
    summary, _ = winrate._rows([winrate.Unit("beginner/safe/0,0/least-p", chunk.params, 6)], [out])
    assert summary.loc[0, "inexact_games"] == fell_back and summary.loc[0, "estimated"] == guesses


def test_rows_of_chunks_without_the_tally_leave_the_columns_empty():
    spec = PRESETS["beginner"]
    params = {"kind": "games", "spec": spec.__dict__, "size": "beginner", "rule": "safe", "click": (0, 0),
              "policy": "least-p", "start": 1}
    # a chunk of a run made before the tally: no ``tallied`` key
    old = {"n": 2, "k": 1, "guesses": 3, "seconds": 0.1, "guess_seconds": 0.0, "guess_histogram": [0, 1, 1] + [0] * 8}
    summary, _ = winrate._rows([winrate.Unit("old", params, 2)], [old])
    assert summary.loc[0, ["inexact_games", "rounded", "estimated"]].isna().all()


@pytest.mark.parametrize("policy", ["+progress", "+lookahead", "+endgame"])
def test_a_rung_above_least_p_refuses_estimates_a_click_away_and_they_are_tallied(policy, monkeypatch):
    # a position whose own count is exact, every position a click away counted with no table
    board = generate(Spec(9, 9, 10), "safe", (0, 0), seed=2)
    seen = []
    play_game(Game.from_board(board, record=False), board.click,
              guess=lambda position, k: seen.append(position) or choose(position, "least-p"))
    position = next(p for p in seen if _has_frontier(p))
    count = survey_module.count_components

    def counted(pos, **kwargs):
        return count(pos, **kwargs) if pos is position else count(pos, **{**kwargs, "state_limit": 0})

    monkeypatch.setattr(survey_module, "count_components", counted)
    monkeypatch.setattr(survey_module, "tally_by_label", lambda *args, **kwargs: None)
    before = inexact_answers()
    assert Survey(position).probabilities.exact
    with pytest.raises(InputError, match="need an exact count"):
        choose(position, policy)
    assert (inexact_answers() - before).estimated >= 1


def test_the_exactness_benchmark_watches_and_puts_every_function_back(capsys):
    import mscsp.analysis.counting as counting_package
    import mscsp.play.loop as loop
    from mscsp.play import fastplay

    originals = [pipeline._exact_tally, pipeline.search, pipeline.sweep, pipeline.choose_order, fastplay.resume,
                 loop.deduce, counting_package.forced_cells]
    module = benchmark("exactness")
    assert module.main(["--games", "3", "--size", "beginner", "--policy", "least-p"]) == 0
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines() if line.startswith("| opening")
            or line.startswith("| safe")]
    assert len(rows) == 2 and all(row[1] == "3" for row in rows)
    assert [pipeline._exact_tally, pipeline.search, pipeline.sweep, pipeline.choose_order, fastplay.resume,
            loop.deduce, counting_package.forced_cells] == originals
    with pytest.raises(SystemExit) as exit_:
        module.main(["--games", "0"])
    assert exit_.value.code == 2
