"""Other tools' boards: JSMinesweeper's position text and the Minesweeper Board Format.

The samples are written from the formats' descriptions: a ``WxHxM`` header and one
character per cell for JSMinesweeper, and width, height, a two-byte mine count and one
(column, row) byte pair per mine for ``.mbf``.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_located
from hypothesis import given
from hypothesis import strategies as st

from mscsp.board import Geometry, Layout
from mscsp.errors import ParseError
from mscsp.formats.foreign import looks_like_jsminesweeper, read_jsminesweeper, read_mbf
from mscsp.position import Mark, Position, parse_position

EXPERT_CORNER = """\
8x4x10
HHHH1001
H2F21001
H2112110
HHHHHHHH
"""


def test_a_jsminesweeper_board_reads_as_the_same_position():
    position = read_jsminesweeper(EXPERT_CORNER)
    assert position.mines == 10
    assert position.rows() == ["....1001", ".2F21001", ".2112110", "........"]
    assert np.array_equal(position.grid, parse_position("mines: 10\n" + "\n".join(position.rows()) + "\n").grid)


@pytest.mark.parametrize("text", [
    "3x2x1\r\nH1H\r\n111\r\n",  # Windows line ends
    "3X2X1\nh1h\n111\n\n\n",  # either case, blank lines after the rows
    "\ufeff3x2x1\n.1.\n111\n",  # a byte-order mark, dots for covered cells
    " 3 x 2 x 1 \nH1H\n111",  # spaces in the header, no final line end
])
def test_what_a_jsminesweeper_reader_tolerates(text):
    assert read_jsminesweeper(text).rows() == [".1.", "111"]


@pytest.mark.parametrize("char", ["F", "M", "O", "I", "f"])
def test_every_kind_of_known_mine_is_a_flag(char):
    assert read_jsminesweeper(f"2x1x1\n{char}1\n").grid.tolist() == [Mark.FLAG, 1]


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("", 1, 1, "WIDTHxHEIGHTxMINES"),
    ("mines: 3\n...\n", 1, 1, "WIDTHxHEIGHTxMINES"),
    ("3x2\nHHH\nHHH\n", 1, 1, "WIDTHxHEIGHTxMINES"),
    ("\u0663x2x1\nHHH\nHHH\n", 1, 1, "WIDTHxHEIGHTxMINES"),  # an Arabic-Indic 3 is no digit here
    ("3x2x" + "9" * 5000 + "\nHHH\nHHH\n", 1, 5, "the mine count has 5000 digits"),
    ("0x2x0\n\n\n", 1, 1, "width must be 1"),
    ("3x1001x1\n", 1, 3, "height must be 1"),
    ("2x2x5\nHH\nHH\n", 1, 5, "do not fit on 4 cells"),
    ("3x3x1\nHHH\nHHH\n", 4, 1, "row 3 is missing"),
    ("3x3x1\nHHH\n\nHHH\n", 3, 1, "row 2 is missing"),
    ("3x1x1\nHHH\nHHH\n", 3, 1, "more rows than the header's height of 1"),
    ("3x1x1\nHHHH\n", 2, 4, "longer than the header's width of 3"),
    ("3x1x1\nHH\n", 2, 3, "has 2 cells, but the header's width is 3"),
    ("3x2x1\nH1H\n1?1\n", 3, 2, "unexpected character '?'"),
    ("3x2x1\nH6H\n111\n", 2, 2, "a 6 cannot be shown by a cell with 5 neighbours"),
])
def test_bad_jsminesweeper_text_is_one_located_message(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        read_jsminesweeper(text, source="board.txt")
    assert_located(caught.value, "board.txt", line, column, words)


def test_the_header_is_what_tells_the_formats_apart():
    assert looks_like_jsminesweeper(EXPERT_CORNER) and looks_like_jsminesweeper("9X9X10\r\n")
    assert not looks_like_jsminesweeper("mines: 10\n...\n") and not looks_like_jsminesweeper("..1\n")


def _jsminesweeper_text(position: Position) -> str:
    """A position written as JSMinesweeper writes it: H covered, F flag, digits."""
    rows = [row.replace(".", "H") for row in position.rows()]
    g = position.geometry
    return f"{g.width}x{g.height}x{position.mines}\n" + "\n".join(rows) + "\n"


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_written_in_jsminesweepers_way_a_position_reads_back(width, height, data):
    g = Geometry(width, height)
    mines = data.draw(st.sets(st.integers(0, g.area - 1)))
    layout = Layout._from_indices(g, mines)
    numbers = layout.numbers
    grid = [data.draw(st.sampled_from([int(numbers[c]), Mark.COVERED] if c not in mines else [Mark.COVERED, Mark.FLAG]))
            for c in range(g.area)]
    position = Position(g, np.array(grid, dtype=np.int8), len(mines))
    back = read_jsminesweeper(_jsminesweeper_text(position))
    assert back.mines == position.mines and np.array_equal(back.grid, position.grid)


def _mbf(width: int, height: int, mines: list[tuple[int, int]]) -> bytes:
    return bytes([width, height, len(mines) >> 8, len(mines) & 255] + [v for xy in mines for v in xy])


def test_an_mbf_board_reads_as_its_layout():
    layout = read_mbf(_mbf(4, 3, [(0, 0), (3, 2), (1, 2)]))
    assert layout.rows() == ["*...", "....", ".*.*"]


@given(st.integers(1, 255), st.integers(1, 40), st.data())
def test_any_layout_written_as_mbf_reads_back(width, height, data):
    cells = data.draw(st.lists(st.integers(0, width * height - 1), unique=True, max_size=300))
    layout = read_mbf(_mbf(width, height, [(c % width, c // width) for c in cells]))
    assert (layout.geometry.width, layout.geometry.height) == (width, height)
    assert sorted(np.flatnonzero(layout.mines).tolist()) == sorted(cells)


@pytest.mark.parametrize(("data", "column", "words"), [
    (b"\x09\x09", 3, "starts with 4 bytes"),
    (bytes([0, 9, 0, 0]), 1, "at least 1"),
    (bytes([9, 0, 0, 0]), 2, "at least 1"),
    (bytes([9, 9, 0, 2, 1, 1]), 7, "2 mines need 8 bytes, but the file has 6"),
    (bytes([9, 9, 0, 0, 1]), 5, "0 mines need 4 bytes, but the file has 5"),
    (bytes([9, 9, 0, 1, 9, 0]), 5, "column 9, off a board 9 wide"),
    (bytes([9, 9, 0, 2, 0, 0, 0, 9]), 8, "row 9, off a board 9 high"),
    (bytes([9, 9, 0, 2, 3, 4, 3, 4]), 7, "mine 2 is on [3,4], where another mine already is"),
])
def test_a_bad_mbf_board_is_one_located_message(data, column, words):
    with pytest.raises(ParseError) as caught:
        read_mbf(data)
    assert (caught.value.line, caught.value.column) == (1, column)
    assert words in str(caught.value)
