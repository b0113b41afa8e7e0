"""The guessing policies: functions of the position only, weighed exactly, never
better than the optimum."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from conftest import EXAMPLES, benchmark, unavoidable_sets
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from oracles import brute_force, brute_numbers
from strategies import small_positions

from mscsp.analysis import Survey
from mscsp.board import Layout, Spec
from mscsp.errors import InputError
from mscsp.game import Game
from mscsp.play.optimum import optimal_play, policy_play
from mscsp.play.policies import (
    LIVING_LOOK,
    SECOND_WEIGHT,
    Policy,
    _choose_index,
    _living_least,
    _ranked,
    _roomy,
    choose,
    move,
    outcomes,
)
from mscsp.play.pseudo import fifty_influence
from mscsp.position import Mark, parse_position

POLICIES = [p.value for p in Policy]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_outcomes_split_the_layouts_where_the_cell_is_safe(position):
    truth = brute_force(position, with_layouts=True)
    if truth["count"] == 0 or position.mines is None:
        return
    g = position.geometry
    covered = np.flatnonzero(position.covered).tolist()
    flags = set(np.flatnonzero(position.flagged).tolist())
    for cell in covered[:3]:
        # brute force: every consistent layout with the cell safe, by the number it shows
        by_number: dict[int, int] = {}
        for mines in truth["layouts"]:
            if cell not in mines:
                shown = brute_numbers(g.width, g.height, g.holes, set(mines) | flags)[cell]
                by_number[shown] = by_number.get(shown, 0) + 1
        assert {o.number: o.layouts for o in outcomes(Survey(position), g.coords(cell))} == by_number


@pytest.mark.parametrize("policy", POLICIES)
def test_the_move_depends_on_the_position_not_the_layout(policy):
    # two layouts that look the same after the first click: the move must be the same
    spec = Spec(5, 5, 4)
    seen = {}
    # +deep's own budget takes seconds a move on the first guess here (a million states);
    # a smaller one is cut off there too, which is the path to check
    options = {"endgame_nodes": 20_000} if policy == "+deep" else {}
    for seed in range(40):
        game = Game.deferred(spec, "safe", seed)
        game.reveal((0, 0))
        if game.status.value != "playing":
            continue
        position = game.position()
        key = (position.grid.tobytes(), position.mines)
        move = choose(position, policy, **options)
        assert move in position.covered_xy
        if key in seen:
            assert seen[key] == move
        seen[key] = move
    assert len(seen) < 40  # some positions repeated across layouts


def test_policies_refuse_what_they_cannot_weigh():
    from mscsp.position import parse_position

    with pytest.raises(InputError, match="no covered cell"):
        choose(parse_position("mines: 1\n1F\n"), "least-p")
    with pytest.raises(InputError, match="unknown policy"):
        choose(parse_position("mines: 1\n1.\n.."), "best")
    # without the total the cells away from the 1 have no probability to weigh
    with pytest.raises(InputError, match="needs the mine total"):
        choose(parse_position("1...\n....\n....\n"), "+lookahead")
    assert choose(parse_position("1...\n....\n....\n"), "least-p") in {(x, y) for x in range(4) for y in range(3)}


@pytest.mark.parametrize("spec,rule,click", [(Spec(4, 4, 3), "safe", (0, 0)), (Spec(4, 4, 4), "opening", (0, 0))])
def test_every_policy_is_within_the_optimum_and_the_ladder_is_exact(spec, rule, click):
    best = optimal_play(spec, rule, click).probability
    for policy in POLICIES:
        exact = policy_play(spec, rule, click, lambda p: choose(p, policy)).probability
        assert Fraction(1, 2) < exact <= best


def test_a_lookahead_pick_survives_two_clicks_at_least_as_often_as_least_p():
    # the 1 in the middle of a 3x3 corner of an empty board: least-p and secondary
    # safety disagree; the lookahead's choice must score no worse on its own measure
    layout = Layout.from_rows(["....*", ".....", ".....", "*....", "...*."])
    game = Game(layout)
    game.reveal((0, 0))
    position = game.position()

    def secondary(cell):
        return sum(Fraction(o.layouts) * o.blended_safety(SECOND_WEIGHT) for o in outcomes(Survey(position), cell))

    assert secondary(choose(position, "+lookahead")) >= secondary(choose(position, "least-p"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_weighing_that_stops_early_picks_what_weighing_every_candidate_picks(position):
    # the rungs stop weighing a cell once the numbers left cannot lift it to the best
    # so far; weighing every candidate in full must pick the same cell
    from mscsp.errors import InconsistentError
    from mscsp.play.policies import _pool

    if position.mines is None:
        return
    survey = Survey(position)
    try:
        probs = survey.probabilities
    except InconsistentError:
        return
    ranked = sorted((p, c) for c, p in probs.by_index.items() if p != 1)
    if not probs.exact or not probs.layouts or not ranked or ranked[0][0] == 0:
        return
    pool = _pool(position, survey.system.frontier, ranked, 6, Fraction(1, 20))
    total = probs.layouts

    def secondary(cell):
        outs = outcomes(Survey(position), position.geometry.coords(cell))
        return sum((Fraction(o.layouts, total) * o.blended_safety(SECOND_WEIGHT) for o in outs), Fraction(0))

    def progress(cell):
        return sum(o.layouts for o in outcomes(Survey(position), position.geometry.coords(cell))
                   if o.progress or o.number == 0)

    assert _choose_index(position, "+lookahead") == max(pool, key=lambda c: (secondary(c), -probs.by_index[c], -c))
    # +progress weighs only the cells within the tolerance of the least probability
    window = [c for c in pool if probs.by_index[c] <= ranked[0][0] + Fraction(1, 20)]
    assert _choose_index(position, "+progress") == max(window, key=lambda c: (progress(c), -probs.by_index[c], -c))


def test_a_walled_off_fifty_fifty_is_unavoidable_and_an_open_one_is_not():
    from mscsp.position import parse_position

    # the two covered cells under the 1s: only clicking one of them can tell them apart
    assert unavoidable_sets(parse_position("mines: 1\n11\n..\n")) == [(2, 3)]
    assert unavoidable_sets(parse_position("mines: 1\n.1.\n")) == [(0, 2)]
    # two cells of a 50/50 next to a cell away from the numbers, whose number would tell
    assert unavoidable_sets(parse_position("mines: 2\n.1..\n....\n")) == []


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_no_other_click_nor_the_total_tells_an_unavoidable_set_apart(position):
    if position.mines is None:
        return
    truth = brute_force(position, with_layouts=True)
    if truth["count"] == 0 or truth["safe"]:
        return  # the sets are defined where nothing is left to prove
    g = position.geometry
    flags = set(np.flatnonzero(position.flagged).tolist())
    layouts = [frozenset(lay) for lay in truth["layouts"]]
    for cells in unavoidable_sets(position):
        inside = set(cells)
        assert len({len(lay & inside) for lay in layouts}) == 1  # the total cannot tell
        assert len({lay & inside for lay in layouts}) > 1  # there is something to tell
        for other in np.flatnonzero(position.covered).tolist():
            if other in inside:
                continue
            # the number `other` shows is independent of the set's layout
            joint: dict = {}
            for lay in layouts:
                if other not in lay:
                    key = (lay & inside, brute_numbers(g.width, g.height, g.holes, set(lay) | flags)[other])
                    joint[key] = joint.get(key, 0) + 1
            n = sum(joint.values())
            by_set: dict = {}
            by_number: dict = {}
            for (s, v), k in joint.items():
                by_set[s] = by_set.get(s, 0) + k
                by_number[v] = by_number.get(v, 0) + k
            for s in by_set:
                for v in by_number:
                    assert joint.get((s, v), 0) * n == by_set[s] * by_number[v]


def test_a_move_names_the_rung_that_decided_it():
    from mscsp.play import policies
    from mscsp.position import parse_position

    fifty = parse_position("mines: 1\n.1.\n")  # two layouts, told apart only by a guess
    move = policies.move(fifty, "+endgame")
    assert move.rung is Policy.ENDGAME and move.cell in ((0, 0), (2, 0))
    assert move.endgame.cell == move.cell and move.endgame.probability == Fraction(1, 2)
    assert move.endgame.layouts == 2
    # without the exact search the walled-off pair is the due guess
    due = policies.move(fifty, "+endgame", endgame_layouts=0)
    assert due.rung is Policy.FIFTY and due.walled == ((0, 0), (2, 0)) and due.pseudo is None
    assert policies.move(fifty, "+lookahead").rung is Policy.LOOKAHEAD
    assert policies.move(fifty, "+lookahead").endgame is None
    # one mine beside the 1 leaves [3,0] and [4,0] safe: no rung needs to guess
    safe = policies.move(parse_position("mines: 1\n.1...\n"), "+endgame")
    assert safe.rung is Policy.LEAST_P and safe.cell in ((3, 0), (4, 0))
    assert choose(fifty, "+endgame", endgame_layouts=0) == policies.move(fifty, "+fifty").cell


def test_the_policy_benchmark_finds_both_weighings_agree(capsys):
    # benchmarks/policies.py weighs each rung's candidates in full beside the shipped
    # early stop, on stalls of real Expert games, and fails on any differing move
    module = benchmark("policies")
    assert module.main(["--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert all(f"  {rung} " in out for rung in module.RUNGS)


def test_fifty_guesses_a_pseudo_fifty_before_a_safer_cell():
    from mscsp.analysis.counting import probabilities
    from mscsp.play import policies
    from mscsp.position import parse_position

    # [0,2] is a mine one time in five, and then [0,1] and [1,1] are mines and [0,3]
    # safe: a pair against the wall that nothing could tell apart. [3,0] is safer
    pos = parse_position("mines: 5\n23...\n.....\n.....\n.1...\n")
    assert unavoidable_sets(pos) == []
    probs = probabilities(pos)
    fifty = policies.move(pos, "+fifty")
    assert fifty.rung is Policy.FIFTY and fifty.cell in ((0, 2), (0, 3))
    assert fifty.walled is None and fifty.cell in fifty.pseudo
    assert all(probs.cells[c] == Fraction(1, 5) for c in fifty.pseudo)
    assert probs.cells[fifty.cell] == Fraction(1, 5)
    look = policies.move(pos, "+lookahead")
    assert probs.cells[look.cell] < Fraction(1, 5)
    # the exact search over all 80 layouts takes the riskier pair too
    assert policies.move(pos, "+endgame").cell in ((0, 2), (0, 3))


def test_endgame_plays_a_walled_off_set_exactly_when_the_board_is_too_big():
    from mscsp.play.endgame import solve_walled
    from mscsp.play import policies
    from mscsp.position import parse_position

    # the pair [0,0], [0,1] beside the 3s is walled off by flags; the board has too
    # many layouts for the whole-board search
    pos = parse_position("mines: 12\n.3F" + "." * 9 + "\n.3F" + "." * 9 + "\n")
    sets = unavoidable_sets(pos)
    assert sets
    move = policies.move(pos, "+endgame", endgame_layouts=100)
    walled = tuple(map(pos.geometry.coords, sets[0]))
    assert move.rung is Policy.ENDGAME and move.walled == walled
    assert move.cell == solve_walled(pos, walled).cell
    assert policies.move(pos, "+endgame", endgame_layouts=0).rung is Policy.FIFTY


def test_the_density_rule_starts_the_endgame_past_its_layout_count():
    from mscsp.play import policies
    from mscsp.play.endgame import click_wins
    from mscsp.position import parse_position

    # [0,0] is a proven mine (the 1 at [0,1] has no other covered neighbour); [2,0] and
    # [2,1] hold one mine, the 8 cells right of them the other 5: 2 * C(8,5) = 112
    # layouts. 11 covered cells, 7 mines: 4 safe among the 10 undecided cells
    for text in ("mines: 7\n.2.....\n12.....\n", "mines: 7\nF2.....\n12.....\n"):
        pos = parse_position(text)
        assert brute_force(pos)["count"] == 112
        # 112 * (4/10)**3 = 7.168: the rule holds from 8; counting the proven mine among
        # the cells (4/11) it would hold from 6 (112 * 64 / 1331 = 5.38)
        assert policies._dense_enough(112, 4, 10, 8) and not policies._dense_enough(112, 4, 10, 7)
        assert policies._safe_cells(pos) == 4
        on = policies.move(pos, "+endgame", endgame_layouts=100, endgame_density=8)
        assert on.rung is Policy.ENDGAME and on.endgame.layouts == 112 and on.endgame.complete
        wins = click_wins(pos, layout_limit=10**6, node_limit=None)
        assert on.endgame.probability == max(wins.values()) == wins[on.cell]
        for density in (None, 7):  # off, or a bound the position misses
            off = policies.move(pos, "+endgame", endgame_layouts=100, endgame_density=density)
            assert off.rung is not Policy.ENDGAME and off.endgame is None
        # a search the rule starts that runs out of states falls back like any other
        short = policies.move(pos, "+endgame", endgame_layouts=100, endgame_density=8, endgame_nodes=1)
        assert short.rung is not Policy.ENDGAME and short.endgame is None
        assert short.cell == policies.move(pos, "+fifty").cell
        # +deep follows the same rule
        assert policies.move(pos, "+deep", endgame_layouts=100).rung is not Policy.DEEP
        deep = policies.move(pos, "+deep", endgame_layouts=100, endgame_density=8)
        assert deep.rung is Policy.DEEP and deep.endgame.probability == max(wins.values())


def test_the_web_explanation_says_why_a_fifty_guess_is_due():
    from mscsp.web.jobs import solver_move

    # the same two positions as above: a walled-off pair, and a pseudo-50/50
    walled = solver_move("mines: 1\n.1.\n", "+fifty", "safe", 5.0)
    assert walled["kind"] == "guess" and "walled off" in walled["text"] and "pseudo" not in walled["text"]
    pseudo = solver_move("mines: 5\n23...\n.....\n.....\n.1...\n", "+fifty", "safe", 5.0)
    assert pseudo["open"][0] in ([0, 2], [0, 3]) and "pseudo-50/50" in pseudo["text"]
    assert pseudo["probability"] == 0.2


def test_players_benchmark_reads_its_drivers_and_plays_mscsp(capsys):
    """benchmarks/players.py: the drivers' output read back as written, and mscsp's
    own rows played (Hill's solvers need their checkouts, which tests do not have)."""
    module = benchmark("players")
    start = module.STARTS[0]
    text = "0 1 2000000\n1 0 4000000\nTOTAL 2 1 9000000\n"
    row = module._parse("Hill Java", start, text, 2)
    assert (row.games, row.wins, row.ms_per_game, row.process_ms_per_game) == (2, 1, 3.0, 4.5)
    with pytest.raises(SystemExit):
        module._parse("Hill Java", start, "0 1 5\nTOTAL 1 1 5\n", 2)
    assert module.main(["--games", "4", "--warmup", "0", "--only", "beginner-22", "--policy", "least-p"]) == 0
    lines = [l for l in capsys.readouterr().out.splitlines() if l.startswith("| mscsp")]
    assert len(lines) == 1
    games, wins = (int(v) for v in lines[0].split("|")[3:5])
    assert games == 4 and 0 <= wins <= 4


def test_players_benchmark_deals_the_same_boards_for_both_players():
    """--same-boards: board i of a start depends on the seed and i alone, obeys the
    start's first-click rule, and the Java driver's per-game report is read back."""
    module = benchmark("players")
    start = next(s for s in module.STARTS if s.name == "expert-classic")
    a, b = module.deal(start, 5, 3), module.deal(start, 5, 3)
    assert (a.layout.mines == b.layout.mines).all()
    assert not (module.deal(start, 5, 4).layout.mines == a.layout.mines).all()
    assert not (module.deal(start, 5, -4).layout.mines == module.deal(start, 5, 4).layout.mines).all()
    x, y = start.click
    assert not a.layout.mines[y * start.spec.width + x] and a.layout.mines.sum() == start.spec.mines
    played = module.parse_boards("0 1 2000 3,4;0,15\n1 0 500 -\nTOTAL 2 1 9\n", 2)
    assert played[0] == module.Played(True, 2000, ((3, 4), (0, 15))) and played[1].guesses == ()
    with pytest.raises(SystemExit):
        module.parse_boards("0 1 2000 -\nTOTAL 1 1 9\n", 2)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_the_ranked_candidates_start_with_the_move_and_hold_exact_values(position):
    from mscsp.errors import InconsistentError
    from mscsp.play.policies import rank

    if position.mines is None:
        return
    try:
        probs = Survey(position).probabilities
    except InconsistentError:
        return
    if not probs.exact or not probs.layouts or all(p == 1 for p in probs.by_index.values()):
        return
    total = probs.layouts
    for policy in Policy:
        ranked = rank(position, policy)
        assert ranked[0].cell == choose(position, policy)  # the same cell as without ranking
        assert len({c.cell for c in ranked}) == len(ranked)
        for c in ranked:
            assert c.probability == probs.cells[c.cell]
            cell = position.geometry.index(*c.cell)
            survive = outcomes(Survey(position), c.cell) if c.lookahead is not None or c.progress is not None else []
            if c.lookahead is not None:
                blended = (o.blended_safety(SECOND_WEIGHT) for o in survive)
                two_clicks = sum((Fraction(o.layouts, total) * b for o, b in zip(survive, blended)), Fraction(0))
                assert c.lookahead == two_clicks * (c.credit or 1)
                assert c.dead == (len(survive) == 1)
            if c.credit is not None:  # only +fifty and above credit a cell away from the numbers
                survey = Survey(position)
                assert policy >= Policy.FIFTY and cell not in survey.system.frontier
                influence = fifty_influence(survey, c.cell)  # itself checked against enumeration
                assert influence and c.credit == 1 + Fraction(9, 10) * influence / (total * (1 - c.probability))
            if c.progress is not None:
                assert c.progress == Fraction(sum(o.layouts for o in survive if o.progress or o.number == 0), total)
            if c.win is not None:
                assert 0 <= c.win <= 1 - c.probability


def test_after_a_number_in_the_corner_fifty_guesses_a_far_corner():
    # classic Expert, the first click's corner shows 1: two clicks along the edge is
    # the better look-ahead, but a far corner settles more potential 50/50s and wins
    # more games (measured in the module's docstring); least-p and +lookahead stay
    from mscsp.position import parse_position

    position = parse_position("mines: 99\n1" + "." * 29 + "\n" + ("." * 30 + "\n") * 15)
    assert choose(position, "+lookahead") == (2, 0)
    for policy in ("+fifty", "+endgame"):
        assert choose(position, policy) in ((29, 0), (0, 15), (29, 15))


@pytest.mark.parametrize("column_first, corner", [(False, (29, 0)), (True, (0, 15))])
def test_the_far_corner_is_the_first_in_the_order_of_the_cells(monkeypatch, column_first, corner):
    # the three far corners have the same neighbourhood, none of it next to the number,
    # so they tie; the first of {(29, 0), (0, 15), (29, 15)} row by row is (29, 0)
    # (flat index 29), column by column (0, 15)
    from mscsp.play import policies
    from mscsp.position import parse_position

    monkeypatch.setattr(policies, "COLUMN_FIRST", column_first)
    position = parse_position("mines: 99\n1" + "." * 29 + "\n" + ("." * 30 + "\n") * 15)
    for policy in ("+fifty", "+endgame"):
        assert choose(position, policy) == corner


def test_the_endgame_ranks_every_click_by_its_win_chance():
    from mscsp.play import policies
    from mscsp.play.policies import rank
    from mscsp.position import parse_position

    position = parse_position("mines: 3\n1...\n2...\n....\n")
    move = policies.move(position, "+endgame", rank=True)
    assert move.rung is Policy.ENDGAME
    wins = [c.win for c in move.candidates]
    assert move.candidates[0].cell == move.cell and wins[0] == move.endgame.probability == Fraction(3, 4)
    assert wins == sorted(wins, reverse=True)
    assert len(move.candidates) == 10  # every covered cell: none is a certain mine here
    assert rank(position) == list(move.candidates)


def test_paired_benchmark_deals_the_same_boards_whatever_the_chunking():
    """benchmarks/paired.py: a version set against itself differs in no game, the
    games do not depend on how they are split between processes, and the
    difference is b's wins less a's."""
    module = benchmark("paired")
    same = module.Version(module.TREE, "least-p")
    one = module.compare(same, same, ["beginner-safe"], 12, 0, 5, 2, 12)[0]
    assert one["a_only"] == one["b_only"] == 0 and one["diff"] == 0 and one["a_wins"] == one["b_wins"]
    split = module.play_chunk("beginner-safe", "least-p", 5, 0, 5)["won"] + \
        module.play_chunk("beginner-safe", "least-p", 5, 5, 7)["won"]
    assert split == module.play_chunk("beginner-safe", "least-p", 5, 0, 12)["won"]
    assert one["a_wins"] == split.count("1")
    lower = module.Version(module.TREE, "least-p")
    higher = module.Version(module.TREE, "+endgame")
    row = module.compare(lower, higher, ["beginner-safe"], 12, 0, 5, 2, 6)[0]
    assert row["diff"] == pytest.approx((row["b_only"] - row["a_only"]) / 12)
    assert row["b_wins"] - row["a_wins"] == row["b_only"] - row["a_only"]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 4)), max_size=40), st.randoms(use_true_random=False))
def test_the_cells_ranked_by_group_are_the_cells_sorted(values, rng):
    """Cells ranked by their groups' shared Fraction objects come out as a plain sort of
    (probability, cell) without the certain mines, also when equal probabilities are
    held by different objects (1/2 and 2/4) and objects are shared in any order."""
    from mscsp.play.policies import _ranked

    objects = [Fraction(min(n, d), d) for n, d in values]  # in [0, 1], 1 included
    cells = {}
    for c in rng.sample(range(200), len(values) * 2):
        cells[c] = rng.choice(objects) if objects and rng.random() < 0.7 else Fraction(rng.randint(0, 4), 4)
    assert _ranked(cells) == sorted((p, c) for c, p in cells.items() if p != 1)
    # and read off the groups counting gives, cells in any order within a group
    groups: dict[int, tuple[list[int], Fraction]] = {}
    for c, p in cells.items():
        groups.setdefault(id(p), ([], p))[0].append(c)
    listed = [(tuple(rng.sample(members, len(members))), p) for members, p in groups.values()]
    assert _ranked(cells, listed) == sorted((p, c) for c, p in cells.items() if p != 1)


def test_instruction_benchmark_hashes_the_guesses_of_the_paired_games():
    """benchmarks/instructions.py: its driver plays the games benchmarks/paired.py
    deals (the same wins) and hashes their guesses the same way each time, and its
    reading of callgrind's report finds the count (or refuses without one)."""
    import hashlib
    import os
    import subprocess
    import sys

    from mscsp.game import Game
    from mscsp.play.loop import play_game

    module = benchmark("instructions")
    paired = benchmark("paired")

    def run(count):
        code = module._driver("beginner-safe", "+endgame", 5, 0, count)
        out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(module.TREE)},
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()

    first, again, fewer = run(6), run(6), run(5)
    assert first == again and len(first) == 64 and fewer != first
    h = hashlib.sha256()
    for board in paired.boards("beginner-safe", 5, 0, 6):
        record = play_game(Game.from_board(board, record=False), board.click, policy="+endgame")
        h.update(repr((record.won, record.guessed)).encode())
    assert h.hexdigest() == first
    assert module.collected("==1== Collected : 12\n==1== Collected : 345\n") == 345
    with pytest.raises(SystemExit):
        module.collected("valgrind: command failed")


def test_forced_benchmark_plays_on_from_the_other_players_cell(tmp_path, capsys):
    """benchmarks/forced.py: games where the guesses part are replayed from the other
    cell (here a made-up other player who clicks a far corner first), and the classic
    second click is forced; each row counts the games it played."""
    from mscsp.play.loop import play_game

    module = benchmark("forced")
    players = benchmark("players")
    start = next(s for s in players.STARTS if s.name == "expert-classic")
    records = []
    for i in range(6):
        board = players.deal(start, 9, i)
        ours = module.play(board, {})
        game = Game.from_board(board, record=False)
        record = play_game(game, board.click, policy="+endgame")
        assert record.won == ours  # the benchmark's loop plays the ladder's games
        other = [(29, 15) if record.guessed[:1] != [(29, 15)] else (29, 0)] + list(record.guessed[1:])
        records.append({"game": i, "mscsp_won": record.won, "java_won": False,
                        "mscsp_guesses": list(record.guessed), "java_guesses": other if record.guessed else []})
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert module.main(["parted", str(path), "--seed", "9"]) == 0
    out = capsys.readouterr().out
    parted = sum(1 for r in records if r["mscsp_guesses"])
    assert f"| all | {parted} |" in out
    assert module.main(["corner", "--boards", "8", "--cells", "2,0 0,15"]) == 0
    rows = [line.split("|") for line in capsys.readouterr().out.splitlines() if line.startswith("| (")]
    assert [r[1].strip() for r in rows] == ["(2, 0)", "(0, 15)"] and rows[0][2] == rows[1][2]


@settings(max_examples=EXAMPLES)
@given(small_positions(max_covered=12, allow_wrong=False))
@example(parse_position("mines: 4\n1..1\n2...\n.2..\n"))  # the safest cell, [2,1], shows one number only
@example(parse_position("mines: 4\n.2.1\n2...\n....\n"))
def test_the_living_least_is_the_safest_cell_that_can_show_two_numbers(position):
    # brute force: every layout, and the number each covered cell shows where it is safe
    if position.mines is None:
        return
    truth = brute_force(position, with_layouts=True)
    if not truth["count"]:
        return
    survey = Survey(position)
    ranked = _ranked(survey.probabilities.by_index)
    if not ranked or ranked[0][0] == 0:
        return
    g = position.geometry
    flagged = set(np.flatnonzero(position.flagged).tolist())
    shows = {c: set() for _, c in ranked}
    for mines in truth["layouts"]:
        numbers = brute_numbers(g.width, g.height, g.holes, mines | flagged)
        for c in shows:
            if c not in mines:
                shows[c].add(numbers[c])
    living = [p for p, c in ranked[:LIVING_LOOK] if len(shows[c]) > 1]
    assert _living_least(survey, ranked) == (living[0] if living else ranked[0][0])


# -- +deep: the endgame with a larger search ----------------------------------------------

@pytest.mark.parametrize("spec,nodes", [(Spec(4, 4, 4), 300), (Spec(4, 4, 3), 1000)])
def test_deep_plays_the_optimum_where_the_endgames_budget_falls_short(spec, nodes):
    # every layout played from the corner: with this few states a move +endgame falls
    # back on its heuristic and loses games the optimum wins; +deep, with its own
    # budget, is optimal play itself
    best = optimal_play(spec, "safe", (0, 0)).wins
    short = policy_play(spec, "safe", (0, 0), lambda p: choose(p, "+endgame", endgame_nodes=nodes)).wins
    deep = policy_play(spec, "safe", (0, 0), lambda p: choose(p, "+deep")).wins
    assert short < best and deep == best


def test_deep_cut_off_plays_a_guess_proven_better_than_the_heuristics():
    from mscsp.play import policies
    from mscsp.play.endgame import click_wins
    from mscsp.position import parse_position

    position = parse_position("mines: 4\n01...\n13...\n.....\n.....\n")
    wins = click_wins(position, node_limit=None)  # each click's exact win chance
    heuristic = policies.move(position, "+fifty").cell
    assert wins[heuristic] < max(wins.values())
    # +endgame out of states plays the heuristic's guess
    assert policies.move(position, "+endgame", endgame_nodes=800).cell == heuristic
    cut = policies.move(position, "+deep", endgame_nodes=800)
    assert cut.rung is Policy.DEEP and not cut.endgame.complete
    assert cut.endgame.probability == wins[cut.cell] > wins[heuristic]
    # nothing proven better within the budget: the heuristic's guess stands
    assert policies.move(position, "+deep", endgame_nodes=100).cell == heuristic
    whole = policies.move(position, "+deep")
    assert whole.rung is Policy.DEEP and whole.endgame.complete
    assert whole.endgame.probability == max(wins.values())
    # below its layout trigger the rung below decides
    assert policies.move(position, "+deep", endgame_layouts=10).rung is Policy.LOOKAHEAD


def test_deep_is_a_rung_above_the_endgame_that_every_tool_accepts():
    from mscsp.play import policies
    from mscsp.position import parse_position

    assert Policy.parse("+deep") is Policy.DEEP and Policy.DEEP >= Policy.ENDGAME
    assert not Policy.ENDGAME >= Policy.DEEP
    fifty = parse_position("mines: 1\n.1.\n")
    move = policies.move(fifty, "+deep")
    assert move.rung is Policy.DEEP and move.endgame.probability == Fraction(1, 2)
    # the walled-off pair is solved on its own when the whole is not searched
    walled = policies.move(fifty, "+deep", endgame_layouts=0)
    assert walled.rung is Policy.FIFTY and walled.walled == ((0, 0), (2, 0))
    players = benchmark("players")
    assert players.main(["--games", "2", "--warmup", "0", "--only", "beginner-22", "--policy", "+deep"]) == 0
    paired = benchmark("paired")
    row = paired.compare(paired.Version(paired.TREE, "+endgame"), paired.Version(paired.TREE, "+deep"),
                         ["beginner-safe"], 4, 0, 5, 1, 4)[0]
    assert row["games"] == 4 and row["b_wins"] - row["a_wins"] == row["b_only"] - row["a_only"]


def test_edge_candidates_admit_an_edge_cell_the_pool_leaves_out():
    # two interior 1s give 16 cells next to the numbers at 1/8; the pair of 1s on the
    # left edge gives its outer cells (0,4), (0,7) and (1,4), (1,7) a chance just
    # within the tolerance, but the pool's cap of twice ``candidates`` is full first
    from mscsp.play.policies import _on_edge, _pool, rank

    rows = ["............"] * 9
    rows[2] = "...1...1...."
    rows[5] = rows[6] = "1..........."
    position = parse_position("mines: 20\n" + "\n".join(rows) + "\n")
    g = position.geometry
    survey = Survey(position)
    ranked = _ranked(survey.probabilities.by_index)
    frontier = survey.system.frontier
    # the closed form: 82 cells touch no number; the edge pair holds one mine in one of
    # the two cells it shares (2 ways) or one in each of its two outer pairs (4 ways,
    # (0,4) the mine in 2), the interior 1s one mine each
    free, mines = 82, 20
    outer = Fraction(2 * comb(free, mines - 4), 2 * comb(free, mines - 3) + 4 * comb(free, mines - 4))
    assert ranked[0][0] == Fraction(1, 8) and Fraction(1, 8) < outer <= Fraction(1, 8) + Fraction(1, 20)
    assert survey.probabilities.by_index[g.index(0, 4)] == outer
    safer = [c for p, c in ranked if c in frontier and p < outer]
    assert len(safer) == 16

    def on_edge(cell):
        x, y = g.coords(cell)
        return x in (0, g.width - 1) or y in (0, g.height - 1)

    today = _pool(position, frontier, ranked, 6, Fraction(1, 20))
    assert today == _pool(position, frontier, ranked, 6, Fraction(1, 20), edges=0)
    assert len(today) == 12 and set(today) <= set(safer)
    wider = _pool(position, frontier, ranked, 6, Fraction(1, 20), edges=4)
    added = set(wider) - set(today)
    assert added == {g.index(0, 4), g.index(0, 7)}  # (1,4) and (1,7) are interior
    assert all(on_edge(c) and _on_edge(g, c) for c in added)
    assert set(_pool(position, frontier, ranked, 6, Fraction(1, 20), edges=1)) - set(today) == {g.index(0, 4)}
    # 0.17 is not within 1/25 of 1/8
    assert _pool(position, frontier, ranked, 6, Fraction(1, 25), edges=4) == today
    # the option reaches the pool the look-ahead weighs
    for policy in ("+lookahead", "+endgame"):
        weighed = {c.cell for c in rank(position, policy, edge_candidates=4)}
        assert {(0, 4), (0, 7)} <= weighed
        assert not {(0, 4), (0, 7)} & {c.cell for c in rank(position, policy, edge_candidates=0)}


def test_a_corner_and_an_edge_cell_are_on_the_edge_and_an_inner_cell_is_not():
    from mscsp.board import Geometry
    from mscsp.play.policies import _on_edge

    g = Geometry(5, 4)
    for x in range(5):
        for y in range(4):
            assert _on_edge(g, g.index(x, y)) == (x in (0, 4) or y in (0, 3)), (x, y)
    assert _on_edge(g, g.index(0, 0)) and _on_edge(g, g.index(4, 3))  # corners
    assert _on_edge(g, g.index(2, 0)) and not _on_edge(g, g.index(2, 1))


@settings(max_examples=EXAMPLES, deadline=None)
@given(position=small_positions(max_covered=30), data=st.data())
def test_roomy_cells_are_those_whose_area_is_large_enough(position, data):
    # the oracle: connected components of the open cells, two of them joined when they
    # touch or share a revealed neighbour, counted by scipy rather than a flood fill
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    g = position.geometry
    covered = np.flatnonzero(position.covered).tolist()
    mined = set(data.draw(st.sets(st.sampled_from(covered)))) if covered else set()
    open_cells = [c for c in covered if c not in mined]
    threshold = data.draw(st.integers(1, 12))
    index = {c: i for i, c in enumerate(open_cells)}
    rows, cols = [], []
    for c in open_cells:
        for n in g.neighbours(c):
            if n in index:
                rows.append(index[c]), cols.append(index[n])
            elif position.revealed[n]:
                for k in g.neighbours(n):
                    if k in index:
                        rows.append(index[c]), cols.append(index[k])
    n = len(open_cells)
    if n == 0:
        return
    _, label = connected_components(coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)), directed=False)
    size = np.bincount(label)
    asked = data.draw(st.lists(st.sampled_from(open_cells), unique=True))
    assert _roomy(position, sorted(mined), asked, threshold) == [c for c in asked if size[label[index[c]]] >= threshold]


@pytest.mark.parametrize("room, pocket", [(0, True), (6, True), (7, False), (8, False)])
def test_room_passes_over_a_walled_in_area_while_a_larger_one_is_left(room, pocket):
    # a wall of flags leaves 6 covered cells on the left and 15 on the right; without
    # the rule the look-ahead guesses the left corner
    pos = parse_position("mines: 5\n..F.....\n..F.....\n..F.....\n")
    m = move(pos, "+fifty", room=room)
    assert m.rung is Policy.LOOKAHEAD
    assert (m.cell == (0, 0)) is pocket and (m.cell[0] < 2) is pocket


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_room_changes_nothing_when_every_area_or_none_is_large_enough(position):
    try:
        base = choose(position, "+fifty")
    except InputError:
        return
    assert choose(position, "+fifty", room=1) == base
    assert choose(position, "+fifty", room=position.geometry.area + 1) == base
