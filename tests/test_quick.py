"""The quick path of the probabilities (one compiled call from grid to tallies) against
brute force, against the general pipeline, and where it must decline."""

import random
from fractions import Fraction

import numpy as np
import pytest
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force
from strategies import small_positions

from mscsp.analysis.counting import NoTotalModel, count_components
from mscsp.analysis.counting.exact.combine import poly_mul, unpack, weigh_total
from mscsp.analysis.counting.exact.quick import quick_probabilities
from mscsp.analysis.constraints import build_constraints
from mscsp.analysis.counting.exact.search import COMPILED, COMPILED_CELLS, _search
from mscsp.board import Geometry, Spec
from mscsp.game import Game, Status
from mscsp.position import Mark, Position, parse_position
from mscsp.rules import generate

pytestmark = pytest.mark.skipif(not COMPILED, reason="the compiled search was not built")

NODES = 100_000


@settings(max_examples=EXAMPLES)
@given(position=small_positions(max_covered=14))
def test_quick_path_equals_brute_force(position):
    quick = quick_probabilities(position, NODES)
    truth = brute_force(position)
    if truth["count"] == 0:
        assert quick is None  # the general path says what cannot be true
        return
    assert quick is not None  # 14 cells at most: never past the node budget
    assert quick.exact and quick.layouts == truth["count"]
    expected = {c: Fraction(v, truth["count"]) for c, v in truth["per_cell"].items()}
    if position.mines is None:
        # each consistent assignment once: cells away from the numbers get no number
        front = {c for k in range(len(position.grid)) if 0 <= position.grid[k] <= 8
                 for c in position.geometry.neighbours(k)}
        expected = {c: p if c in front else None for c, p in expected.items()}
        assert quick.model == NoTotalModel()
    assert quick.by_index == expected


@settings(max_examples=EXAMPLES)
@given(position=small_positions(max_covered=14), density=st.sampled_from([Fraction(1, 5), Fraction(2, 3)]))
def test_quick_path_with_a_density_equals_the_general_pipeline(position, density):
    """Without a total, layouts weighed as independent mines of a density."""
    quick = quick_probabilities(position, NODES, density)
    if position.mines is not None:
        assert quick is None  # the total decides; the general path ignores the density
        return
    if brute_force(position)["count"] == 0:
        assert quick is None
        return
    general = count_components(position, density=density).probabilities()
    assert quick.by_index == general.by_index and quick.layouts is None is general.layouts
    assert quick.model == general.model == NoTotalModel(density)


def _positions_from_play(spec: Spec, rule: str, click: tuple[int, int], games: int, seed: int):
    """Every position of seeded games, the proven cells (or the least likely one) opened
    next: the play loop holds the layout; the probabilities do not."""
    root = np.random.SeedSequence(seed)
    for ss in root.spawn(games):
        board = generate(spec, rule, click, np.random.default_rng(ss))
        game = Game.from_board(board)
        game.reveal(board.click)
        while game.status is Status.PLAYING:
            position = game.position()
            yield position
            p = count_components(position).probabilities()
            proven = sorted(c for c, v in p.by_index.items() if v == 0)
            for c in proven or [p.best_index()]:
                if game.status is Status.PLAYING:
                    game.reveal(game.geometry.coords(c))


@pytest.mark.parametrize(("preset", "rule", "click"), [("expert", "opening", (15, 8)),
                                                       ("expert", "safe", (0, 0)),
                                                       ("beginner", "opening", (2, 2))])
def test_quick_path_equals_general_pipeline(preset, rule, click):
    spec = Spec.preset(preset)
    seen = 0
    for position in _positions_from_play(spec, rule, click, games=12, seed=31):
        general = count_components(position).probabilities()
        quick = quick_probabilities(position, NODES)
        if quick is None:
            # declined only for a component too large for 64-bit counts
            system = build_constraints(position)
            assert max(len(system.component_cells(k)) for k in system.components) > COMPILED_CELLS
            continue
        seen += 1
        assert quick.by_index == general.by_index
        assert quick.layouts == general.layouts
    assert seen >= 20


def test_quick_path_on_a_board_with_holes():
    text = "mines: 3\n1-..\n..2.\n-.1.\n"
    position = parse_position(text)
    truth = brute_force(position)
    quick = quick_probabilities(position, NODES)
    assert quick.layouts == truth["count"]
    assert quick.by_index == {c: Fraction(v, truth["count"]) for c, v in truth["per_cell"].items()}


@pytest.mark.parametrize("text", [
    "mines: 2\n.3.\n111\n",    # a clue its cells cannot meet
    "mines: 1\nF2...\n",      # nor with its flag
    "mines: 5\n.1.\n",        # more mines than covered cells
    "mines: 1\nFF1\n",        # fewer mines than flags
    "mines: 0\n.1.\n",        # the clue against the total: no layout
])
def test_quick_path_declines_what_the_general_path_must_answer(text):
    assert quick_probabilities(parse_position(text), NODES) is None


def test_quick_path_declines_past_its_budget_and_size():
    position = parse_position("mines: 1\n.1...\n")
    assert quick_probabilities(position, 0) is None
    assert quick_probabilities(position, 1_000) is not None
    # one component of 60 cells: two rows of 1s over a row of 60 covered cells
    wide = parse_position("mines: 20\n" + "1" * 60 + "\n" + "." * 60 + "\n" + "." * 60 + "\n")
    assert quick_probabilities(wide, NODES) is None
    general = count_components(wide).probabilities()
    assert general.exact  # the general pipeline counts it


@st.composite
def tallies(draw, big: bool):
    """Components as the compiled reading gives them, (groups, ways, rows), with counts
    up to 2^64 - 1 (big) or 1,000, and the cells away from the clues and the mines left."""
    components, cell = [], 0
    for _ in range(draw(st.integers(0, 3))):
        ways = draw(st.lists(st.integers(0, 2**64 - 1 if big else 1000), min_size=1, max_size=6))
        groups, rows = [], []
        for _ in range(draw(st.integers(1, 3))):
            size = draw(st.integers(1, 3))
            groups.append(tuple(range(cell, cell + size)))
            cell += size
            rows.append([draw(st.integers(0, min(w * size, 2**64 - 1))) for w in ways])
        components.append((tuple(groups), ways, rows))
    unconstrained = draw(st.integers(0, 400 if big else 64))
    return components, unconstrained, draw(st.integers(0, 120 if big else 60))


@settings(max_examples=EXAMPLES)
@given(tallies(big=False) | tallies(big=True))
def test_the_compiled_weighing_gives_weigh_totals_fractions_or_declines_past_128_bits(case):
    components, u, remaining = case
    got = _search.weigh(components, u, remaining)
    parts, total = weigh_total([(ways, tuple(zip(groups, rows))) for groups, ways, rows in components],
                               tuple(range(10_000, 10_000 + u)), remaining, strict=False)
    if got is None:
        # declined: no layout, or some number past 128 bits; counts up to 1,000 and at most
        # 64 cells away from the clues keep every number below 2^110, so those never decline
        small = all(max(ways) <= 1000 for _, ways, _ in components) and u <= 64
        assert total == 0 or not small
        return
    layouts, fractions = got
    assert layouts == total
    assert len(fractions) == len(parts)
    assert [Fraction(num, den) for num, den in fractions] == [Fraction(num, den) for _, num, den in parts]


def test_the_compiled_weighing_rejects_what_is_not_a_tally():
    with pytest.raises(TypeError):
        _search.weigh([("groups", [1])], 0, 1)  # not (groups, ways, rows)
    with pytest.raises(ValueError):
        _search.weigh([(((0,), (1,)), [1, 1], [[0, 1]])], 0, 1)  # two groups, one row
    assert _search.weigh([(((0, 1),), [0, 2], [[0, 2]])], 0, 1) == (2, [(2, 4)])  # two cells, one mine
    assert _search.weigh([(((0, 1),), [0, 2], [[0, 2]])], 0, 5) is None  # no layout: 5 mines in 2 cells


def test_compiled_call_rejects_a_malformed_neighbour_table():
    g = Geometry(3, 3)
    grid = np.full(9, Mark.COVERED, dtype=np.int8)
    grid[4] = 1
    with pytest.raises(ValueError):
        _search.position(grid, np.zeros((9, 7), dtype=np.int64), 1, NODES)
    bad = np.array(g.neighbour_table)
    bad[4, 0] = 99
    with pytest.raises(ValueError):
        _search.position(grid, bad, 1, NODES)
    assert _search.position(grid, g.neighbour_table, 1, NODES) is not None


def test_poly_mul_equals_the_schoolbook_product_packed_either_way():
    rng = random.Random(5)
    for n, bits in [(1, 3), (3, 8), (20, 40), (60, 300), (150, 120)]:  # the last two packed in bytes
        a = [rng.getrandbits(bits) for _ in range(n)]
        b = [rng.getrandbits(bits) for _ in range(rng.randint(1, n))]
        school = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                school[i + j] += x * y
        assert poly_mul(a, b) == school
    assert unpack((7 << 16) | 5, 8, 4) == [5, 0, 7, 0]
    assert unpack((7 << 10) | 5, 5, 4) == [5, 0, 7, 0]


def test_positions_keep_their_checks():
    g = Geometry(3, 1)
    with pytest.raises(Exception, match="codes"):
        Position(g, np.array([1, 9, -1], dtype=np.int8))
    with pytest.raises(Exception, match="codes"):
        Position(g, np.array([1, -4, -1], dtype=np.int8))
    with pytest.raises(Exception, match="holes"):
        Position(g, np.array([1, Mark.HOLE, -1], dtype=np.int8))
    with pytest.raises(Exception, match="holes"):
        Position(Geometry(3, 1, frozenset({1})), np.array([1, 0, -1], dtype=np.int8))
