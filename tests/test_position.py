import numpy as np
import pytest
from conftest import POSITIONS, assert_located
from hypothesis import given
from hypothesis import strategies as st

from mscsp.board import Geometry
from mscsp.errors import InputError, ParseError
from mscsp.position import Mark, Position, format_position, parse_position


@st.composite
def positions(draw):
    w = draw(st.integers(1, 6))
    h = draw(st.integers(1, 6))
    chars = []
    for _ in range(h):
        chars.append(draw(st.text(alphabet=".F0123-", min_size=w, max_size=w)))
    text = "\n".join(chars)
    if set(text) <= {"-", "\n"}:
        chars[0] = "." + chars[0][1:]
    g = Geometry(w, h, frozenset(i for i, ch in enumerate("".join(chars)) if ch == "-"))
    # Keep numbers within their neighbour count so the grid is in range.
    rows = []
    for y, row in enumerate(chars):
        out = []
        for x, ch in enumerate(row):
            if ch.isdigit() and int(ch) > g.degree[y * w + x]:
                ch = "."
            out.append(ch)
        rows.append("".join(out))
    mines = draw(st.one_of(st.none(), st.integers(0, 50)))
    return rows, mines


@given(positions())
def test_text_round_trip(case):
    rows, mines = case
    text = ("" if mines is None else f"mines: {mines}\n") + "\n".join(rows) + "\n"
    position = parse_position(text)
    assert position.rows() == rows and position.mines == mines
    assert format_position(position) == text
    assert parse_position(format_position(position, ["again"])) == position


def test_cells_are_classified():
    p = parse_position("# comment\n\nmines: 3\n..1F.\n.122.\n--...\n")
    g = p.geometry
    assert (g.width, g.height, g.size, p.mines) == (5, 3, 13, 3)
    assert np.flatnonzero(p.flagged).tolist() == [3] and p.number((2, 0)) == 1 and p.number((0, 0)) is None
    assert p.grid[10] == Mark.HOLE and g.holes == frozenset({10, 11})
    assert (p.mines - p.flag_count) == 2
    assert p.covered_count == 8


def test_a_cell_is_read_by_x_y_and_a_flat_index_is_refused():
    p = parse_position("mines: 3\n..1F.\n.122.\n--...\n")
    assert [p.number((x, 1)) for x in range(5)] == [None, 1, 2, 2, None]
    assert [p.number((x, 0)) for x in range(5)] == [None, None, 1, None, None]
    with pytest.raises(InputError, match=r"must be a pair \(x, y\)"):
        p.number(7)  # the flat index of (2, 1)
    for bad in ((0, 2), (5, 0), (1,), (1.0, 0), "1,0"):  # (0, 2) is a hole
        with pytest.raises(InputError):
            p.number(bad)


def test_covered_cells_are_listed_as_x_y():
    p = parse_position("mines: 3\n..1F.\n.122.\n--...\n")
    assert p.covered_xy == ((0, 0), (1, 0), (4, 0), (0, 1), (4, 1), (2, 2), (3, 2), (4, 2))


def test_a_cell_is_opened_by_x_y_and_a_flat_index_is_refused():
    p = parse_position("mines: 3\n..1F.\n.122.\n--...\n")
    for x, y in p.covered_xy:
        rows = ["..1F.", ".122.", "--..."]
        rows[y] = rows[y][:x] + "2" + rows[y][x + 1:]
        after = p.opened((x, y), 2)
        assert after == parse_position("mines: 3\n" + "\n".join(rows) + "\n")
        assert after.number((x, y)) == 2 and (x, y) not in after.covered_xy
    with pytest.raises(InputError, match=r"must be a pair \(x, y\)"):
        p.opened(0, 1)
    for bad in ((0, 2), (5, 0), (1,), (1.0, 0), "1,0"):  # (0, 2) is a hole
        with pytest.raises(InputError, match="not a cell|must be a pair"):
            p.opened(bad, 1)
    for taken in ((2, 0), (3, 0)):  # a number and a flag
        with pytest.raises(InputError, match=r"cannot open the cell \(\d, 0\) with 1: it must be covered"):
            p.opened(taken, 1)
    with pytest.raises(InputError, match="the number 0-8"):
        p.opened((0, 0), 9)


def test_cells_are_flagged_by_x_y_and_flat_indices_are_refused():
    p = parse_position("mines: 3\n..1F.\n.122.\n--...\n")
    cells = [(0, 0), (4, 2), (4, 0)]
    flagged = p.with_flags(cells)
    assert flagged.flag_count == 4 and not set(cells) & set(flagged.covered_xy)
    assert flagged == parse_position("mines: 3\nF.1FF\n.122.\n--..F\n")
    with pytest.raises(InputError, match=r"must be a pair \(x, y\)"):
        p.with_flags([0, 14])
    assert p.with_flags([]) == p
    with pytest.raises(InputError, match="not a cell"):
        p.with_flags([(0, 0), (1, 2)])  # (1, 2) is a hole
    with pytest.raises(InputError, match="only covered cells can be flagged"):
        p.with_flags([(2, 1)])


@given(positions())
def test_covered_xy_names_exactly_the_covered_cells_in_row_order(case):
    p = parse_position("\n".join(case[0]) + "\n")
    xy = p.covered_xy
    assert list(xy) == sorted(xy, key=lambda c: (c[1], c[0]))
    assert [p.geometry.index(x, y) for x, y in xy] == np.flatnonzero(p.grid == Mark.COVERED).tolist()


@pytest.mark.parametrize(
    "text,line,column,fragment",
    [
        ("..\n.x\n", 2, 2, "unexpected character 'x'"),
        ("..\n.9\n", 2, 2, "unexpected character '9'"),
        ("...\n..\n", 2, 3, "row has 2 cells"),
        ("...\n....\n", 2, 4, "row has 4 cells"),
        ("mines: 3\nwidth: 4\n..\n", 2, 1, "unknown header 'width'"),
        ("..\nmines: 1\n", 2, 1, "header line after the grid"),
        ("mines: 3\n# only a comment\n", 2, 1, "no grid"),
        ("", 1, 1, "no grid"),
        ("mines: lots\n..\n", 1, 8, "non-negative integer"),
        ("mines: -1\n..\n", 1, 8, "non-negative integer"),
        ("mines: 1\nmines: 2\n..\n", 2, 1, "given twice"),
        ("..\n4.\n", 2, 1, "out of range"),
        ("-.-\n.8.\n...\n", 2, 2, "out of range"),
        ("...\n.\t.\n", 2, 2, "U+0009"),
        ("---\n", 1, 1, "no cells"),
    ],
)
def test_bad_input_is_located(text, line, column, fragment):
    with pytest.raises(ParseError) as err:
        parse_position(text, source="pos.txt")
    assert_located(err.value, "pos.txt", line, column, fragment)


def test_windows_line_endings_and_trailing_spaces_are_fine():
    assert parse_position("mines: 1\r\n.1 \r\n..\r\n").rows() == [".1", ".."]


@pytest.mark.parametrize("path", sorted(POSITIONS.glob("*.txt")), ids=lambda p: p.name)
def test_sample_positions_parse(path):
    position = parse_position(path.read_text(), source=path.name)
    assert position.mines is not None
    assert format_position(position).count("\n") == position.geometry.height + 1


def test_position_validation():
    g = Geometry(2, 1)
    with pytest.raises(ValueError):
        Position(g, np.array([9, 0]))
    with pytest.raises(ValueError):
        Position(g, np.array([Mark.HOLE, 0]))
    with pytest.raises(ValueError):
        Position(g, np.array([0, 0]), mines=-1)


@given(seed=st.integers(0, 10**6))
def test_views_cut_from_a_layout_pass_the_checks_and_agree_with_their_grid(seed):
    from mscsp.board import Layout

    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(1, 7)), int(rng.integers(1, 7))
    holes = frozenset(np.flatnonzero(rng.random(w * h) < 0.15).tolist()) - {0}  # keep one cell
    g = Geometry(w, h, holes)
    mines = (rng.random(w * h) < 0.3) & g.mask
    layout = Layout(g, mines)
    revealed = rng.random(w * h) < 0.4  # a mine may be open: the one that ended a lost game
    flagged = rng.random(w * h) < 0.2
    view = Position.from_view(layout, revealed, flagged, mines_known=bool(seed % 2))
    checked = Position(g, view.grid, view.mines)  # runs every check of the constructor
    assert checked == view
    for name in ("covered", "flagged", "revealed"):
        assert np.array_equal(getattr(view, name), getattr(checked, name)), name
    open_safe = revealed & ~mines & g.mask
    assert np.array_equal(view.grid[open_safe], layout.numbers[open_safe])
    assert (view.grid[revealed & mines & g.mask] == Mark.FLAG).all()
