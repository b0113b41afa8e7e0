import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mscsp.board import PRESETS, Geometry, Layout, Spec, format_layout, parse_layout
from mscsp.errors import InputError, ParseError
from oracles import brute_neighbours, brute_numbers


@st.composite
def geometries(draw, max_side=7):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    holes = draw(st.sets(st.integers(0, w * h - 1), max_size=w * h - 1))
    return Geometry(w, h, frozenset(holes))


@given(geometries())
def test_neighbours_match_brute_force_and_are_symmetric(g):
    for c in range(g.area):
        got = g.neighbours(c)
        assert set(got) == brute_neighbours(g.width, g.height, g.holes, c)
        assert list(got) == sorted(got)
        for n in got:
            assert c in g.neighbours(n)


@given(geometries(), st.data())
def test_neighbour_count_matches_neighbours(g, data):
    bits = np.array(data.draw(st.lists(st.booleans(), min_size=g.area, max_size=g.area)), dtype=bool)
    counts = g.neighbour_count(bits)
    for c in range(g.area):
        expected = 0 if c in g.holes else sum(bool(bits[n]) and n not in g.holes for n in g.neighbours(c))
        assert counts[c] == expected


@pytest.mark.parametrize(
    "w,h,cell,expected",
    [
        (9, 9, 0, {1, 9, 10}),  # corner
        (9, 9, 8, {7, 16, 17}),  # other corner
        (9, 9, 4, {3, 5, 12, 13, 14}),  # top edge
        (9, 9, 40, {30, 31, 32, 39, 41, 48, 49, 50}),  # interior
        (5, 1, 0, {1}),  # one row
        (5, 1, 2, {1, 3}),
        (1, 5, 2, {1, 3}),  # one column
        (1, 1, 0, set()),  # a single cell
    ],
)
def test_neighbours_at_corners_edges_and_thin_boards(w, h, cell, expected):
    assert set(Geometry(w, h).neighbours(cell)) == expected


def test_holes_are_nobodys_neighbour():
    g = Geometry(3, 3, frozenset({4}))
    assert all(4 not in g.neighbours(c) for c in range(9))
    assert g.neighbours(4) == ()
    assert g.size == 8 and g.cells.tolist() == [0, 1, 2, 3, 5, 6, 7, 8]
    assert not g.contains(1, 1) and g.contains(0, 1)


def test_large_geometry_computes_neighbours_without_a_table():
    g = Geometry(1000, 1000)
    assert g.neighbours(0) == (1, 1000, 1001)
    assert g.neighbours(999_999) == (998_998, 998_999, 999_998)
    assert g._table is None


@pytest.mark.parametrize("w,h", [(0, 3), (3, 0), (-1, 2), (2.5, 3), ("3", 3), (True, 3)])
def test_bad_dimensions_are_input_errors(w, h):
    with pytest.raises(InputError):
        Geometry(w, h)


def test_geometry_rejects_out_of_range_holes_and_all_holes():
    with pytest.raises(InputError):
        Geometry(2, 2, frozenset({4}))
    with pytest.raises(InputError):
        Geometry(1, 2, frozenset({0, 1}))


def test_index_and_coords_are_inverse():
    g = Geometry(30, 16)
    for c in range(g.area):
        assert g.index(*g.coords(c)) == c
        assert g.xy[c] == (c % 30, c // 30)  # the table names each index as coords does
    assert len(g.xy) == g.area and Geometry(3, 3, frozenset({4})).xy[4] == (1, 1)  # holes are named too
    assert Geometry(257, 256).xy is None  # past 65,536 positions: no table
    with pytest.raises(InputError, match="not a cell"):
        g.index(30, 0)


def test_spec_validation_and_presets():
    assert PRESETS["expert"] == Spec(30, 16, 99)
    assert Spec(4, 4, 16).mines == 16
    with pytest.raises(InputError, match="do not fit"):
        Spec(4, 4, 17)
    with pytest.raises(InputError, match="negative"):
        Spec(4, 4, -1)
    with pytest.raises(InputError, match="unknown board"):
        Spec.preset("huge")


@given(geometries(), st.data())
def test_layout_numbers_equal_adjacent_mine_counts(g, data):
    mines = data.draw(st.sets(st.sampled_from(g.cells.tolist())))
    layout = Layout._from_indices(g, mines)
    assert layout.numbers.tolist() == brute_numbers(g.width, g.height, g.holes, mines)
    assert layout.mine_count == len(mines)
    assert layout.safe_count == g.size - len(mines)


def test_a_layout_is_made_from_mines_named_by_x_y():
    g = Geometry(3, 2, frozenset({2}))  # [2,0] is a hole
    assert Layout.from_cells(g, [(2, 1), (0, 0)]).rows() == ["*.-", "..*"]
    for bad in ([0], [(2, 0)], [(3, 0)], [(0, 0, 0)]):
        with pytest.raises(InputError, match="mine"):
            Layout.from_cells(g, bad)


def test_a_mine_is_looked_up_by_x_y_and_a_flat_index_is_refused():
    layout = Layout.from_rows(["*.-", "..*"])
    assert [layout.is_mine(xy) for xy in ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1))] == [True, False, False, False, True]
    for bad in (0, 5, (2, 0), (3, 1), (0,), (0.0, 0), None):  # 0 and 5 are flat indices, (2, 0) a hole  # (2, 0) is a hole
        with pytest.raises(InputError):
            layout.is_mine(bad)


def test_layout_is_immutable_and_hashable():
    layout = Layout.from_rows(["*.", ".."])
    with pytest.raises(ValueError):
        layout.mines[0] = False
    assert layout == Layout.from_rows(["*.", ".."]) and len({layout, Layout.from_rows(["*.", ".."])}) == 1
    with pytest.raises(InputError, match="hole"):
        Layout(Geometry(2, 1, frozenset({1})), np.array([False, True]))


@given(geometries(), st.data())
def test_layout_file_round_trip(g, data):
    mines = data.draw(st.sets(st.sampled_from(g.cells.tolist())))
    layout = Layout._from_indices(g, mines)
    assert parse_layout(format_layout(layout, ["seed: 1"])) == layout


def test_layout_file_errors_are_located():
    with pytest.raises(ParseError) as err:
        parse_layout("mines: 2\n*.\n.x\n")
    assert (err.value.line, err.value.column) == (3, 2)
    with pytest.raises(ParseError, match="grid has 1") as err:
        parse_layout("mines: 2\n*.\n..\n")
    assert (err.value.line, err.value.column) == (1, 8)


def _bbbv_by_clicking(layout):
    """An independent 3BV: simulate clicks (openings first, then every cell left)."""
    from mscsp.game import Game, Status

    game = Game(layout)
    clicks = 0
    numbers = layout.numbers
    safe = [c for c in layout.geometry.cells.tolist() if not layout.mines[c]]
    for c in [c for c in safe if numbers[c] == 0] + [c for c in safe if numbers[c] != 0]:
        if game.status is Status.PLAYING or game.status is Status.READY:
            xy = layout.geometry.coords(c)
            if not game.is_revealed(xy):
                game.reveal(xy)
                clicks += 1
    return clicks


@given(geometries(), st.data())
def test_bbbv_equals_the_clicks_of_a_perfect_player(g, data):
    from mscsp.metrics import bbbv

    mines = data.draw(st.sets(st.sampled_from(g.cells.tolist()), max_size=g.size - 1))
    layout = Layout._from_indices(g, mines)
    assert bbbv(layout) == _bbbv_by_clicking(layout)


@pytest.mark.parametrize("w,h", [(7, 5), (300, 300)])  # one table / rows computed on demand
def test_neighbour_rows_list_the_neighbours(w, h):
    rng = np.random.default_rng(w)
    holes = frozenset(np.flatnonzero(rng.random(w * h) < 0.2).tolist())
    g = Geometry(w, h, holes)
    cells = rng.choice(w * h, size=min(500, w * h), replace=False)
    rows = g.neighbour_rows(cells)
    for cell, row in zip(cells.tolist(), rows.tolist()):
        assert [n for n in row if n != g.area] == sorted(brute_neighbours(w, h, holes, cell))
