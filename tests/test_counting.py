from fractions import Fraction
from math import comb

import numpy as np
import pytest
from conftest import EXAMPLES, POSITIONS, require_built
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import brute_force
from strategies import small_positions

from mscsp.analysis.constraints import build_constraints
from mscsp.analysis.counting.exact.quick import quick_probabilities
from mscsp.analysis.counting import (
    NoTotalModel,
    count_components,
    count_layouts,
    forced_cells,
    probabilities,
    tally_component,
)
from mscsp.board import Spec
from mscsp.errors import InconsistentError, InputError
from mscsp.game import Game, Status
from mscsp.position import Mark, parse_position
from mscsp.rules import generate


@pytest.fixture(params=["backtracking", "dp"])
def counting_path(request):
    """Run a test once per counting path: the keyword arguments that choose the
    backtracking for small parts, or the forward-backward DP (forced by a zero node
    budget for the backtracking)."""
    return {"backtrack_nodes": 0} if request.param == "dp" else {}


def _expected(position, truth):
    return {c: Fraction(v, truth["count"]) for c, v in truth["per_cell"].items()}


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=small_positions(max_covered=14))
def test_probabilities_equal_brute_force(counting_path, position):
    truth = brute_force(position)
    if truth["count"] == 0:
        with pytest.raises(InconsistentError):
            probabilities(position, **counting_path)
        return
    result = probabilities(position, **counting_path)
    if position.mines is not None:
        assert result.layouts == truth["count"]
        assert result.by_index == _expected(position, truth)
        assert result.model is None
    else:
        # model: consistent frontier assignments equally likely; cells away from clues unknown
        s = build_constraints(position)
        front = set(s.frontier)
        assert result.layouts == truth["count"]  # all mine counts, unconstrained cells free
        for c, p in result.by_index.items():
            if c in front:
                assert p == _expected(position, truth)[c]
            else:
                assert p is None
        assert result.model == NoTotalModel()


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=small_positions(max_covered=14))
def test_forced_cells_equal_brute_force(counting_path, position):
    if position.mines is None:
        with pytest.raises(InputError):
            forced_cells(position, **counting_path)
        return
    truth = brute_force(position)
    if truth["count"] == 0:
        with pytest.raises(InconsistentError):
            forced_cells(position, **counting_path)
        return
    forced = forced_cells(position, **counting_path)
    assert {c for c, mine in forced.items() if not mine} == truth["safe"]
    assert {c for c, mine in forced.items() if mine} == truth["mine"]


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=small_positions(max_covered=14))
def test_forced_and_best_read_off_the_groups_are_the_brute_force_ones(counting_path, position):
    if position.mines is None or brute_force(position)["count"] == 0:
        return
    truth = brute_force(position)
    expected = _expected(position, truth)
    for result in (probabilities(position, **counting_path), quick_probabilities(position, 10_000)):
        if result is None:  # the quick path declined
            continue
        assert result.groups is not None  # an exact count with the total gives them
        assert {c: p for cells, p in result.groups for c in cells} == result.by_index == expected
        assert result.forced_index() == {c: p == 1 for c, p in expected.items() if p in (0, 1)}
        clickable = [(p, c) for c, p in expected.items() if p != 1]
        assert result.best_index() == (min(clickable)[1] if clickable else None)  # least, then row order
        assert result.best_index({5, 3}) == 3
        # the same answers by (x, y), in row order
        xy = position.geometry.coords
        assert list(result.cells.items()) == [(xy(c), expected[c]) for c in sorted(expected)]
        assert list(result.forced().items()) == [(xy(c), p == 1) for c, p in sorted(expected.items()) if p in (0, 1)]
        assert result.best() == (xy(min(clickable)[1]) if clickable else None)
        if expected:  # a proven-safe list is read in row order
            assert result.best([xy(max(expected)), xy(min(expected))]) == xy(min(expected))


def test_forced_cells_are_the_certain_probabilities_on_played_expert_boards():
    from mscsp.play.loop import Deducer

    checked = 0
    for seed in range(40):
        board = generate(Spec.preset("expert"), "opening", (15, 8), seed)
        game = Game.from_board(board)
        deducer = Deducer(game, "subset")
        deducer.opened(game.reveal(board.click))
        deducer.run()  # stuck for subset reasoning: what is left needs counting
        if game.status is not Status.PLAYING:
            continue
        position = game.position()
        certain = {c: p == 1 for c, p in probabilities(position).by_index.items() if p in (0, 1)}
        forced = forced_cells(position)
        assert forced == certain == probabilities(position).forced_index()
        assert all(board.layout.mines[c] == mine for c, mine in forced.items())
        checked += 1
    assert checked >= 20


def _per_cell(tally, pad):
    """Each cell's mines by mine count (a group's tally shared out among its cells)."""
    return {c: [Fraction(m, g.size) for m in pad(row)] for g, row in zip(tally.groups, tally.mines) for c in g.cells}


@settings(max_examples=EXAMPLES // 2, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=small_positions(max_covered=12, allow_wrong=False))
def test_both_backends_give_identical_integers(counting_path, position):
    s = build_constraints(position)
    from mscsp.analysis.counting.exact.cpsat import tally_component_cpsat

    for comp in s.components:
        dp = tally_component(s, comp, **counting_path)
        cp = tally_component_cpsat(s, comp)
        assert dp.cells == cp.cells
        n = max(len(dp.ways), len(cp.ways))
        pad = lambda xs: list(xs) + [0] * (n - len(xs))  # noqa: E731
        assert pad(dp.ways) == pad(cp.ways)
        assert _per_cell(dp, pad) == _per_cell(cp, pad)
    if position.mines is not None:
        assert probabilities(position, **counting_path) == probabilities(position, counter="cpsat", **counting_path)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_larger_components_against_brute_force(counting_path, seed):
    # a 5x5 board mostly open: up to 18 covered cells in one or two components
    board = generate(Spec(6, 5, 7), "opening", (2, 2), seed)
    game = Game.from_board(board)
    game.reveal(board.click)
    position = game.position()
    if position.covered_count > 18:
        return
    truth = brute_force(position)
    result = probabilities(position, **counting_path)
    assert result.layouts == truth["count"]
    assert result.by_index == _expected(position, truth)


def test_no_clues_gives_m_over_n_everywhere_and_huge_exact_counts():
    p = parse_position("mines: 99\n" + ("." * 30 + "\n") * 16)
    result = probabilities(p)
    assert result.layouts == comb(480, 99) and result.layouts > 2**64
    assert set(result.by_index.values()) == {Fraction(99, 480)}


def test_total_alone_decides_cells():
    result = probabilities(parse_position("mines: 1\n.1...\n"))
    assert result.by_index == {0: Fraction(1, 2), 2: Fraction(1, 2), 3: 0, 4: 0}
    assert result.layouts == 2


def test_unconstrained_cells_weighted_by_the_rest_of_the_board():
    # the 1 sees two cells; four cells far away; two mines in all
    p = parse_position("mines: 2\n.1.---\n---...\n---.-.\n")
    truth = brute_force(p)
    result = probabilities(p)
    assert result.layouts == truth["count"] == 2 * 5
    assert result.by_index[0] == Fraction(1, 2)
    assert result.by_index[9] == Fraction(1, 5)


def test_long_frontier_is_exact_and_fast(counting_path):
    p = parse_position((POSITIONS / "long_frontier.txt").read_text())
    result = probabilities(p, **counting_path)
    assert result.exact and result.layouts > 2**64
    assert sum(result.by_index.values()) == 70  # expected mines = the total, exactly
    assert result.stats["seconds"] < 1.0


def test_expected_mines_equal_the_total_on_expert_positions():
    for seed in range(5):
        board = generate(Spec.preset("expert"), "opening", (15, 8), seed)
        game = Game.from_board(board)
        game.reveal(board.click)
        position = game.position()
        result = probabilities(position)
        assert sum(result.by_index.values()) == (position.mines - position.flag_count)
        assert all(0 <= v <= 1 for v in result.by_index.values())
        # every cell that is a mine in the true layout has positive probability
        assert all(result.by_index[c] > 0 for c in result.by_index if board.layout.mines[c])


def test_density_model_without_total():
    p = parse_position(".1.\n...\n")
    result = probabilities(p, density=Fraction(1, 5))
    assert result.model == NoTotalModel(Fraction(1, 5))
    # brute force with weights (1/5)^k (4/5)^(n-k)
    import itertools

    covered = np.flatnonzero(p.covered).tolist()
    z = Fraction(0)
    acc = {c: Fraction(0) for c in covered}
    for bits in itertools.product((0, 1), repeat=len(covered)):
        mines = {c for c, b in zip(covered, bits) if b}
        if len(mines & {0, 2, 3, 4, 5}) != 1:
            continue
        w = Fraction(1, 5) ** len(mines) * Fraction(4, 5) ** (len(covered) - len(mines))
        z += w
        for c in mines:
            acc[c] += w
    assert result.by_index == {c: acc[c] / z for c in covered}
    assert count_layouts(parse_position("mines: 2\n....\n")) == 6


def test_the_model_is_a_value_that_says_itself_in_words():
    plain = probabilities(parse_position(".1...\n")).model
    weighed = probabilities(parse_position(".1...\n"), density=Fraction(1, 5)).model
    assert (plain, weighed) == (NoTotalModel(None), NoTotalModel(Fraction(1, 5)))
    assert str(plain) == (
        "no mine total: every consistent assignment of the cells next to clues counts once; "
        "cells away from clues get no number")
    assert str(weighed) == (
        "no mine total: each covered cell a mine independently with density 1/5, conditioned on the clues")
    assert probabilities(parse_position("mines: 1\n.1...\n")).model is None


def _strip_layouts(clues: list[int | None], total: int | None) -> int:
    """Layouts of a row of covered cells under a row of clues (clue x sees cells x-1, x
    and x+1 below it; None: no clue there), by a transfer matrix over the last two
    cells and the mines so far: the independent oracle."""
    n = len(clues)
    table = {(0, b0, b0): 1 for b0 in (0, 1)}  # (cell x-1, cell x, mines) -> ways
    for x in range(n):
        nxt: dict[tuple[int, int, int], int] = {}
        for (a, b, k), ways in table.items():
            for c in ((0, 1) if x + 1 < n else (0,)):  # cell x+1, if there is one
                if clues[x] is None or a + b + c == clues[x]:
                    nxt[(b, c, k + c)] = nxt.get((b, c, k + c), 0) + ways
        table = nxt
    return sum(w for (_, _, k), w in table.items() if total is None or k == total)


@pytest.mark.parametrize("length, total", [(1500, False), (300, True)])
def test_a_long_strip_is_counted_exactly_without_recursion(length, total):
    # a clue over every other cell (holes between), so that many layouts fit
    rng = np.random.default_rng(length)
    mines = rng.random(length) < 0.3
    clues = [int(mines[max(x - 1, 0):x + 2].sum()) if x % 2 == 0 else None for x in range(length)]
    top = "".join("-" if c is None else str(c) for c in clues)
    text = (f"mines: {int(mines.sum())}\n" if total else "") + top + "\n" + "." * length + "\n"
    result = probabilities(parse_position(text))
    expected = _strip_layouts(clues, int(mines.sum()) if total else None)
    assert result.exact and result.layouts == expected and expected > 10**6
    if total:
        assert sum(result.by_index.values()) == int(mines.sum())


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_positions(allow_wrong=False))
def test_an_exact_count_proves_exactly_the_forced_cells(position):
    truth = brute_force(position)
    if not truth["count"]:
        return
    forced = probabilities(position).forced_index()
    assert forced == {c: True for c in truth["mine"]} | {c: False for c in truth["safe"]}


@settings(max_examples=EXAMPLES)
@given(position=small_positions(max_covered=12), data=st.data())
def test_opened_survey_counts_the_opened_position(position, data):
    """A look-ahead's survey, made from its parent's equations, counts what brute
    force counts on the opened position, and has the equations a fresh build has."""
    from mscsp.analysis import Survey
    from mscsp.analysis.constraints import opened_system
    from mscsp.position import Position

    covered = np.flatnonzero(position.covered).tolist()
    if not covered:
        return
    cell, number = data.draw(st.sampled_from(covered)), data.draw(st.integers(0, 8))
    grid = position.grid.copy()
    grid[cell] = number
    fresh = Position(position.geometry, grid, position.mines)
    assert fresh.grid.tolist() == position._opened_index(cell, number).grid.tolist()
    truth = brute_force(fresh)["count"]
    try:
        system = build_constraints(position)
    except InconsistentError:
        return
    try:
        expected = build_constraints(fresh).constraints
    except InconsistentError:
        with pytest.raises(InconsistentError):
            opened_system(system, position._opened_index(cell, number), cell)
        assert truth == 0
        return
    assert opened_system(system, position._opened_index(cell, number), cell).constraints == expected
    parent = Survey(position)
    parent.system  # noqa: B018 - made first, so the opened survey derives its own from it
    try:
        layouts = parent._opened_index(cell, number).probabilities.layouts
    except InconsistentError:
        layouts = 0
    if position.mines is not None:
        assert layouts == truth
    assert fresh.covered.tolist() == position._opened_index(cell, number).covered.tolist()


@given(position=small_positions(max_covered=12), data=st.data())
def test_every_number_a_cell_can_show_counts_as_brute_force_does(position, data):
    """The surveys of one cell opened with each number in turn share their first
    one's components and problems (only the counts of the cell's equation change):
    each still counts what brute force counts on its own position, and each lent
    problem is the one a fresh build makes."""
    from mscsp.analysis import Survey
    from mscsp.analysis.counting.exact.variables import build_problem

    covered = np.flatnonzero(position.covered).tolist()
    if not covered or position.mines is None:
        return
    try:
        build_constraints(position)
    except InconsistentError:
        return
    cell = data.draw(st.sampled_from(covered))
    parent = Survey(position)
    parent.system  # noqa: B018 - made first, so the opened surveys derive theirs from it
    for number in data.draw(st.permutations(range(9))):
        try:
            after = parent._opened_index(cell, number)
            layouts = after.counts.probabilities().layouts or 0
        except InconsistentError:
            after, layouts = None, 0
        grid = position.grid.copy()
        grid[cell] = number
        assert layouts == brute_force(type(position)(position.geometry, grid, position.mines))["count"]
        if after is not None and "counts" in after.__dict__:
            for comp, problem in after.counts.problems.items():
                fresh = build_problem(after.system, comp)
                assert (problem.variables, problem.targets, problem.constraint_ids) == (
                    fresh.variables, fresh.targets, fresh.constraint_ids)


def _least_by_brute_force(position, cell, number):
    """Layouts and the least mine probability among covered cells that are not certain
    mines, of ``position`` with ``cell`` opened showing ``number``, by enumeration."""
    grid = position.grid.copy()
    grid[cell] = number
    truth = brute_force(type(position)(position.geometry, grid, position.mines))
    if truth["count"] == 0:
        return 0, None
    risks = [Fraction(k, truth["count"]) for k in truth["per_cell"].values() if k != truth["count"]]
    return truth["count"], min(risks) if risks else None


@given(position=small_positions(max_covered=12), data=st.data())
def test_the_least_risk_after_a_click_is_what_brute_force_finds(position, data):
    """``Survey.least_after`` weighs a click without building the position after it
    (a cell away from the numbers as a component of its own, any other from one
    search for every number): its layouts and least probability are brute force's,
    for every number the cell can show; so are ``least_two_after``'s two least."""
    from mscsp.analysis import Survey

    covered = np.flatnonzero(position.covered).tolist()
    if not covered or position.mines is None:
        return
    try:
        survey = Survey(position)
        survey.layouts  # noqa: B018 - an impossible position has no look-ahead
    except InconsistentError:
        return
    cell = data.draw(st.sampled_from(covered))
    around = position.grid[list(position.geometry.neighbours(cell))].tolist()
    flags, hidden = around.count(Mark.FLAG.value), around.count(Mark.COVERED.value)
    for number in range(flags, flags + hidden + 1):  # the numbers the look-ahead asks about
        try:
            got = survey.least_after(position.geometry.coords(cell), number)
            two = survey.least_two_after(position.geometry.coords(cell), number)
        except InconsistentError:
            got, two = (0, None), (0, None, None)
        expected = _least_by_brute_force(position, cell, number)
        assert (got[0], got[1] if got[0] else None) == expected
        # and the second least beside it (the least again when two cells share it)
        assert (two if two[0] else (0, None, None)) == _two_least_by_brute_force(position, cell, number)


@given(position=small_positions(max_covered=12), data=st.data())
def test_surveys_sharing_a_cache_across_mine_totals_count_as_brute_force(position, data):
    """A game's guesses share one cache of tallies while flags change the mines left
    (its keys drop the number when it cannot cut a tally): each survey's layouts,
    probabilities and look-ahead are still brute force's, whatever totals came before."""
    from mscsp.analysis import Survey
    from mscsp.position import Position

    covered = np.flatnonzero(position.covered).tolist()
    if not covered or position.mines is None:
        return
    cell = data.draw(st.sampled_from(covered))
    totals = data.draw(st.lists(st.integers(0, len(covered) + 1), min_size=2, max_size=4))
    cache: dict = {}
    around = position.grid[list(position.geometry.neighbours(cell))].tolist()
    flags, hidden = around.count(Mark.FLAG.value), around.count(Mark.COVERED.value)
    for total in totals:
        at = Position(position.geometry, position.grid, total + int(position.flagged.sum()))
        truth = brute_force(at)
        try:
            survey = Survey(at, cache=cache)
            layouts = survey.probabilities.layouts
        except InconsistentError:
            assert truth["count"] == 0
            continue
        assert layouts == truth["count"]
        if not layouts:
            continue
        assert survey.probabilities.by_index == _expected(at, truth)
        for number in range(flags, flags + hidden + 1):
            try:
                two = survey.least_two_after(position.geometry.coords(cell), number)
            except InconsistentError:
                two = (0, None, None)
            assert (two if two[0] else (0, None, None)) == _two_least_by_brute_force(at, cell, number)


def _two_least_by_brute_force(position, cell, number):
    """Layouts and the two least mine probabilities of cells that are not certain mines
    (the second the least again when two cells share it), by enumeration."""
    grid = position.grid.copy()
    grid[cell] = number
    truth = brute_force(type(position)(position.geometry, grid, position.mines))
    if truth["count"] == 0:
        return 0, None, None
    risks = sorted(Fraction(k, truth["count"]) for k in truth["per_cell"].values() if k != truth["count"])
    return truth["count"], *(risks[:2] + [None, None])[:2]


def test_the_blended_safety_weighs_the_second_best_click():
    """A fifth of the weight on the second-best click: by hand."""
    from mscsp.play.policies import Outcome

    o = Outcome(1, 10, Fraction(1, 10), Fraction(1, 2))
    assert o.blended_safety(Fraction(0)) == Fraction(9, 10)
    assert o.blended_safety(Fraction(1, 5)) == Fraction(4, 5) * Fraction(9, 10) + Fraction(1, 5) * Fraction(1, 2)
    assert Outcome(1, 10, Fraction(1, 10)).blended_safety(Fraction(1, 5)) == Fraction(9, 10)  # one cell left
    assert Outcome(1, 10, None).blended_safety(Fraction(1, 5)) == 1  # won


@given(position=small_positions(max_covered=12), data=st.data())
def test_one_search_by_label_is_one_search_per_target(position, data):
    """The compiled search that tallies a clue's assignments apart by the clue's sum
    gives, for each sum, what the search with that sum as the clue's target gives."""
    from dataclasses import replace

    from mscsp.analysis.counting.exact.search import COMPILED, search, search_by_label
    from mscsp.analysis.counting.exact.variables import build_problem

    if not COMPILED:
        pytest.skip("no compiled search here")
    try:
        system = build_constraints(position)
    except InconsistentError:
        return
    if not system.components:
        return
    problem = build_problem(system, data.draw(st.sampled_from(system.components)))
    if not problem.targets:
        return
    label = data.draw(st.integers(0, len(problem.targets) - 1))
    nlabels = problem.ncells + 1
    length = data.draw(st.integers(1, problem.ncells + 1))
    found = search_by_label(problem, label, nlabels, 10_000, length)
    for s, got in enumerate(found):
        targets = list(problem.targets)
        targets[label] = s
        assert got == search(replace(problem, targets=tuple(targets)), 10_000, length)


@given(position=small_positions(max_covered=12), data=st.data())
def test_weighing_one_changing_tally_is_weighing_them_all(position, data):
    """The layouts and least probability with one component's tally changing are
    those :func:`with_total` gives for the whole list."""
    from mscsp.analysis.counting.exact.combine import OneChanging, with_total

    if position.mines is None:
        return
    try:
        counts = count_components(position)
    except InconsistentError:
        return
    tallies = counts.tallies
    if not tallies or not counts.exact:
        return
    k = data.draw(st.integers(0, len(tallies) - 1))
    system = counts.system
    others = tallies[:k] + tallies[k + 1:]
    weighing = OneChanging(others, len(tallies[k].ways), len(system.unconstrained), system.remaining)
    got = weighing.least(tallies[k])
    parts, total = with_total(tallies, system.unconstrained, system.remaining, strict=False)
    risks = [Fraction(n, d) for _, n, d in parts if d and n != d]
    assert got == ((total, min(risks) if risks else None) if total else (0, None))
    # the two least, each group counted once per cell
    cells = sorted(Fraction(n, d) for g, n, d in parts if d and n != d for _ in range(min(len(g), 2)))
    two = weighing.least_two(tallies[k])
    assert two == ((total, *(cells[:2] + [None, None])[:2]) if total else (0, None, None))


def test_a_cell_next_to_the_numbers_is_weighed_from_one_search(monkeypatch):
    """A cell beside a number: every number it can show is weighed from one search
    (the position after the click is never built), each agreeing with brute force."""
    from mscsp.analysis import Survey
    from mscsp.analysis.counting.exact.search import search_by_label as labelled

    position = parse_position("mines: 4\n.......\n.......\n...1...\n")
    survey = Survey(position)
    survey.layouts  # noqa: B018
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return labelled(*args, **kwargs)

    def refuse(*args):
        raise AssertionError("the position after the click was built")

    monkeypatch.setattr(Survey, "_opened_index", refuse)
    monkeypatch.setattr("mscsp.analysis.counting.pipeline.search_by_label", counted)
    index = position.geometry.index(2, 1)  # above-left of the 1, seven covered cells around
    for number in range(8):
        try:
            got = survey.least_after((2, 1), number)
        except InconsistentError:
            got = (0, None)
        assert (got[0], got[1] if got[0] else None) == _least_by_brute_force(position, index, number)
    assert len(calls) == 1


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (0, 1), (3, 0)])
def test_a_cell_away_from_the_numbers_is_weighed_as_its_own_component(cell, monkeypatch):
    """On a 7x3 board with one 1 in the corner and four mines, the cells at the left are
    away from the number: their outcomes are weighed without the position after the
    click (``_opened_index`` is never called), and agree with brute force."""
    from mscsp.analysis import Survey

    position = parse_position("mines: 4\n.......\n.......\n......1\n")
    survey = Survey(position)
    survey.layouts  # noqa: B018
    index = position.geometry.index(*cell)

    def refuse(*args):
        raise AssertionError("the position after the click was built")

    monkeypatch.setattr(Survey, "_opened_index", refuse)
    for number in range(len(position.geometry.neighbours(index)) + 1):
        got = survey.least_after(cell, number)
        assert (got[0], got[1] if got[0] else None) == _least_by_brute_force(position, index, number)


@pytest.mark.parametrize("numbers", [(1, 0, 2), (0, 1, 2), (2, 1, 0)])
def test_a_link_shown_by_one_number_is_no_link_for_the_next(numbers):
    """[1,0] of five covered cells in a row, opened: a 1 links its two neighbours
    (one two-valued chain), a 0 or a 2 does not, so no problem is lent between them.
    Counted by hand, two mines in all: a 0 leaves both to [3,0] and [4,0] (one
    layout), a 1 puts one on [0,0] or [2,0] and one on [3,0] or [4,0] (four), a 2
    both on [0,0] and [2,0] (one)."""
    from mscsp.analysis import Survey

    parent = Survey(parse_position("mines: 2\n.....\n"))
    parent.system  # noqa: B018 - made first, so the opened surveys derive theirs from it
    expected = {0: 1, 1: 4, 2: 1}
    for n in numbers:
        layouts = parent._opened_index(1, n).counts.probabilities().layouts
        assert layouts == expected[n], n


@settings(max_examples=EXAMPLES)
@given(position=small_positions(max_covered=12), data=st.data())
def test_opened_system_keeps_frontier_and_remainder(position, data):
    """The frontier and the cells away from the numbers carried over to an opened
    system are those a fresh build finds."""
    from mscsp.analysis.constraints import opened_system

    covered = np.flatnonzero(position.covered).tolist()
    try:
        system = build_constraints(position)
    except InconsistentError:
        return
    if not covered:
        return
    system.frontier, system.unconstrained  # noqa: B018 - made, so the opened system carries them over
    cell, number = data.draw(st.sampled_from(covered)), data.draw(st.integers(0, 8))
    try:
        fresh = build_constraints(position._opened_index(cell, number))
    except InconsistentError:
        return
    after = opened_system(system, position._opened_index(cell, number), cell)
    assert (after.frontier, after.unconstrained, after.covered) == (fresh.frontier, fresh.unconstrained, fresh.covered)


_search_module = __import__("importlib").import_module("mscsp.analysis.counting.exact.search")


def test_compiled_search_is_built_where_required():
    """MSCSP_REQUIRE_FASTPLAY=1 (CI sets it) requires every C accelerator built."""
    require_built(_search_module.COMPILED, "the compiled counting search")


@pytest.mark.skipif(not _search_module.COMPILED, reason="the compiled search was not built")
@settings(max_examples=EXAMPLES, deadline=None)
@given(position=small_positions(max_covered=16), nodes=st.sampled_from([0, 1, 3, 10, 100, 10**6]), data=st.data())
def test_compiled_search_is_the_python_search(position, nodes, data):
    """The C search gives the Python search's tallies, and runs out of nodes exactly
    where it does, on every component (groups and chains of links alike)."""
    from mscsp.analysis.counting.exact.variables import build_problem

    try:
        system = build_constraints(position)
    except InconsistentError:
        return
    for comp in system.components:
        problem = build_problem(system, comp)
        length = data.draw(st.one_of(st.none(), st.integers(1, problem.ncells + 1)))
        results = []
        for compiled in (True, False):
            saved = _search_module._search
            if not compiled:
                _search_module._search = None
            try:
                results.append(_search_module.search(problem, nodes, length))
            except _search_module.TooBig:
                results.append("too big")
            finally:
                _search_module._search = saved
        assert results[0] == results[1]


@settings(max_examples=EXAMPLES)
@given(position=small_positions(max_covered=12), data=st.data())
def test_flagged_survey_counts_the_flagged_position(position, data):
    """A survey with cells flagged, made from its parent's equations, has the equations
    a fresh build has and counts what brute force counts."""
    from mscsp.analysis import Survey
    from mscsp.analysis.constraints import flagged_system
    from mscsp.position import Mark, Position

    covered = np.flatnonzero(position.covered).tolist()
    if not covered:
        return
    cells = data.draw(st.lists(st.sampled_from(covered), min_size=1, max_size=3, unique=True))
    grid = position.grid.copy()
    grid[cells] = Mark.FLAG
    fresh = Position(position.geometry, grid, position.mines)
    assert fresh.grid.tolist() == position._with_flags_index(cells).grid.tolist()
    assert fresh.covered.tolist() == position._with_flags_index(cells).covered.tolist()
    assert fresh.flagged.tolist() == position._with_flags_index(cells).flagged.tolist()
    try:
        system = build_constraints(position)
    except InconsistentError:
        return
    system.frontier, system.unconstrained  # noqa: B018 - made, so the flagged system carries them over
    try:
        expected = build_constraints(fresh)
    except InconsistentError:
        with pytest.raises(InconsistentError):
            flagged_system(system, position._with_flags_index(cells), tuple(cells))
        assert brute_force(fresh)["count"] == 0
        return
    after = flagged_system(system, position._with_flags_index(cells), tuple(cells))
    assert (after.constraints, after.remaining, after.covered) == (expected.constraints, expected.remaining,
                                                                   expected.covered)
    assert (after.frontier, after.unconstrained) == (expected.frontier, expected.unconstrained)
    if position.mines is not None:
        parent = Survey(position)
        parent.system  # noqa: B018 - made first, so the flagged survey derives its own from it
        try:
            layouts = parent._flagged_index(cells).layouts
        except InconsistentError:
            layouts = 0
        assert layouts == brute_force(fresh)["count"]


def test_the_probability_benchmark_sorts_positions_by_stage_and_start():
    """benchmarks/probability.py --stages: a stage is the share of safe cells open
    (worked out by hand here), and each corpus keeps its start's first click."""
    from conftest import benchmark

    from mscsp.position import parse_position

    module = benchmark("probability")
    # 9 cells, 1 mine: 8 safe; 2 open is a quarter (early), 3 is 3/8 (mid), 6 is 3/4 (late)
    assert module.stage(parse_position("mines: 1\n01.\n...\n...\n")) == "early"
    assert module.stage(parse_position("mines: 1\n011\n...\n...\n")) == "mid"
    assert module.stage(parse_position("mines: 1\n011\n011\n...\n")) == "late"
    spec, rule, click = module.STARTS["classic Expert"]
    corpus, games = module.build_corpus(3, 7, spec=spec, rule=rule, click=click)
    assert len(corpus) == 3 and games >= 1
    assert all(p.revealed.reshape(spec.height, spec.width)[click[1], click[0]] for p in corpus)


@given(position=small_positions(max_covered=12), data=st.data())
def test_layouts_with_cells_fixed_are_what_brute_force_counts(position, data):
    """``Survey.layouts_with`` (a sum over the mines the numbers' cells hold when every
    fixed cell is away from the numbers, one count of the equations with those cells
    taken out otherwise) counts the layouts brute force finds with those cells mines
    and safe."""
    from mscsp.analysis import Survey

    covered = np.flatnonzero(position.covered).tolist()
    if not covered or position.mines is None:
        return
    try:
        survey = Survey(position)
        survey.layouts  # noqa: B018 - an impossible position counts nothing
    except InconsistentError:
        return
    free = sorted(survey.system.unconstrained)
    pool = data.draw(st.sampled_from([free, covered])) if free else covered
    cells = data.draw(st.lists(st.sampled_from(pool), unique=True, max_size=4))
    k = data.draw(st.integers(0, len(cells)))
    mines, safes = set(cells[:k]), set(cells[k:])
    truth = brute_force(position, with_layouts=True)
    g = position.geometry
    assert survey.layouts_with([g.coords(c) for c in sorted(mines)], [g.coords(c) for c in sorted(safes)]) == sum(
        mines <= lay and not safes & lay for lay in truth["layouts"])
