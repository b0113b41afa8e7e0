"""Boards saved by other Minesweeper tools, read into positions and layouts.

Two formats players bring from elsewhere:

JSMinesweeper's position text (David Hill's solver: its analysis mode saves and loads it)
    A header line ``WIDTHxHEIGHTxMINES`` (``30x16x99``), then one line per row of
    the board, one character per cell:

    ============  ======================================================
    ``0``-``8``   an open cell showing that number
    ``F``, ``M``  a flag (a mine the player marked)
    ``O``, ``I``  a mine the tool already knows (as a flag here)
    ``H``, ``.``  a covered cell
    ============  ======================================================

    ``MINES`` counts every mine of the board, flagged ones included, as ``mines:``
    does in the position text format. Blank lines after the rows are ignored.

Minesweeper Board Format (``.mbf``, Minesweeper Arbiter's saved boards)
    Binary: the width and the height in one byte each, the number of mines in two
    bytes (high byte first), then each mine's column and row in one byte each. It is
    a full layout, not what a player sees.

Every problem is one :class:`~mscsp.errors.ParseError` naming the line and column
(for the binary format, line 1 and the one-based byte), never a traceback.

Examples
--------
>>> pos = read_jsminesweeper("4x3x2\\nH1HH\\n1F1H\\nHHHH\\n")
>>> pos.mines, pos.rows()
(2, ['.1..', '1F1.', '....'])
>>> layout = read_mbf(bytes([3, 2, 0, 1, 2, 1]))
>>> layout.rows()
['...', '..*']
"""

from __future__ import annotations

import re

import numpy as np

from ..board import Geometry, Layout
from ..errors import ParseError
from ..position import Mark, Position

__all__ = ["read_jsminesweeper", "read_mbf", "looks_like_jsminesweeper", "MAX_SIDE"]

#: The longest side read (the formats allow more; nothing of that size is played).
MAX_SIDE = 1000

# ASCII digits only: ``\d`` would also take other scripts' digits
_HEADER = re.compile(r"\s*([0-9]+)\s*x\s*([0-9]+)\s*x\s*([0-9]+)\s*", re.IGNORECASE)
#: Digits read of one header number (every count in range has fewer).
_DIGITS = 9
_CODES = {"F": Mark.FLAG, "M": Mark.FLAG, "O": Mark.FLAG, "I": Mark.FLAG, "H": Mark.COVERED, ".": Mark.COVERED,
          **{str(d): d for d in range(9)}}


def looks_like_jsminesweeper(text: str) -> bool:
    """Whether ``text`` starts with a JSMinesweeper header line (``WxHxM``).

    Examples
    --------
    >>> looks_like_jsminesweeper("9x9x10\\n"), looks_like_jsminesweeper("mines: 10\\n")
    (True, False)
    """
    first = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    return _HEADER.fullmatch(first) is not None


def read_jsminesweeper(text: str, source: str | None = None) -> Position:
    """A position from JSMinesweeper's text (see the module docstring).

    Raises
    ------
    ParseError
        For a missing or malformed header, a side of 0 or more than :data:`MAX_SIDE`,
        more mines than cells, a row of the wrong length or missing, a row too many,
        a character the format does not have, or a number larger than its cell's
        neighbours, with the line and column of the first problem.

    Examples
    --------
    >>> read_jsminesweeper("2x2x1\\nH1\\nHX\\n")
    Traceback (most recent call last):
    ...
    mscsp.errors.ParseError: line 3:2: unexpected character 'X': a JSMinesweeper board has 0-8, F, M, O, I, H or .
    """
    lines = text.lstrip("\ufeff").split("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]

    def fail(message: str, line: int, column: int = 1):
        raise ParseError(message, line=line, column=column, source=source)

    header = _HEADER.fullmatch(lines[0])
    if header is None:
        fail(f"the first line must be WIDTHxHEIGHTxMINES, like 30x16x99, not {lines[0][:40]!r}", 1)
    for k, v in enumerate(header.groups(), start=1):
        if len(v) > _DIGITS:  # no board is that large, and int() of thousands of digits is refused
            fail(f"{('the width', 'the height', 'the mine count')[k - 1]} has {len(v)} digits; no board is "
                 "that large", 1, header.start(k) + 1)
    width, height, mines = (int(v) for v in header.groups())
    for name, side in (("width", width), ("height", height)):
        if not 1 <= side <= MAX_SIDE:
            fail(f"the {name} must be 1 to {MAX_SIDE}, not {side}", 1, header.start(1 if name == "width" else 2) + 1)
    if mines > width * height:
        fail(f"{mines} mines do not fit on {width * height} cells", 1, header.start(3) + 1)
    rows = lines[1:1 + height]
    if len(rows) < height or any(not row.strip() for row in rows):
        missing = next((i for i, row in enumerate(rows) if not row.strip()), len(rows))
        fail(f"the header promises {height} rows, but row {missing + 1} is missing", missing + 2)
    for extra, line in enumerate(lines[1 + height:], start=height + 2):
        if line.strip():
            fail(f"more rows than the header's height of {height}", extra)
    grid = np.empty(width * height, dtype=np.int8)
    for y, row in enumerate(rows):
        for x, char in enumerate(row.rstrip()):
            if x >= width:
                fail(f"row {y + 1} is longer than the header's width of {width}", y + 2, x + 1)
            code = _CODES.get(char.upper())
            if code is None:
                fail(f"unexpected character {char!r}: a JSMinesweeper board has 0-8, F, M, O, I, H or .", y + 2, x + 1)
            grid[y * width + x] = code
        if len(row.rstrip()) < width:
            fail(f"row {y + 1} has {len(row.rstrip())} cells, but the header's width is {width}", y + 2,
                 len(row.rstrip()) + 1)
    geometry = Geometry(width, height)
    for c in np.flatnonzero(grid >= 0).tolist():
        if grid[c] > len(geometry.neighbours(c)):
            x, y = geometry.coords(c)
            fail(f"a {grid[c]} cannot be shown by a cell with {len(geometry.neighbours(c))} neighbours", y + 2, x + 1)
    return Position(geometry, grid, mines)


def read_mbf(data: bytes, source: str | None = None) -> Layout:
    """A layout from the Minesweeper Board Format (see the module docstring).

    Raises
    ------
    ParseError
        When the data is too short or too long for its mine count, a side is 0, or a
        mine lies off the board or on another; at line 1 and the one-based byte.

    Examples
    --------
    >>> read_mbf(bytes([2, 2, 0, 1, 2, 0]))
    Traceback (most recent call last):
    ...
    mscsp.errors.ParseError: line 1:5: mine 1 is at column 2, off a board 2 wide
    """
    def fail(message: str, byte: int):
        raise ParseError(message, line=1, column=byte, source=source)

    if len(data) < 4:
        fail(f"a board file starts with 4 bytes (width, height, mines), not {len(data)}", len(data) + 1)
    width, height, mines = data[0], data[1], data[2] * 256 + data[3]
    if not width or not height:
        fail("the width and the height must be at least 1", 1 if not width else 2)
    if len(data) != 4 + 2 * mines:
        fail(f"{mines} mines need {4 + 2 * mines} bytes, but the file has {len(data)}",
             min(len(data), 4 + 2 * mines) + 1)
    seen: set[int] = set()
    for i in range(mines):
        x, y = data[4 + 2 * i], data[5 + 2 * i]
        if x >= width:
            fail(f"mine {i + 1} is at column {x}, off a board {width} wide", 5 + 2 * i)
        if y >= height:
            fail(f"mine {i + 1} is at row {y}, off a board {height} high", 6 + 2 * i)
        if y * width + x in seen:
            fail(f"mine {i + 1} is on [{x},{y}], where another mine already is", 5 + 2 * i)
        seen.add(y * width + x)
    return Layout._from_indices(Geometry(width, height), seen)
