"""What a player sees: revealed numbers, covered cells, flags and the mine total.

A :class:`Position` never holds the hidden layout. It is what every solver takes as
input, what ``mscsp solve`` reads from a file, and what a game hands to a player
(:meth:`mscsp.game.Game.position`). The text format (README, "File formats")::

    # a comment line; blank lines are ignored
    mines: 3
    ..1F.
    .122.
    --...

``.`` covered, ``F`` flagged (taken as a mine), ``0``-``8`` a revealed number,
``-`` not a cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

import numpy as np

from .board import Geometry, Layout
from .errors import InputError, ParseError
from .formats.files import check_cells
from .formats.text import parse_count, read_grid_text

__all__ = ["Mark", "Position", "parse_position", "format_position", "POSITION_ALPHABET"]

POSITION_ALPHABET = ".F012345678-"


class Mark(IntEnum):
    """Grid codes of a position for cells that show no number (numbers are 0-8)."""

    COVERED = -1
    FLAG = -2
    HOLE = -3


#: Mark.COVERED as a plain int, for comparisons in loops (an enum member is looked up each time).
_COVERED = int(Mark.COVERED)
_HOLE = int(Mark.HOLE)
#: The codes a grid may hold (Mark.HOLE to 8) and the hole's code, as int8 bytes.
_CODES = bytes(code & 0xFF for code in range(_HOLE, 9))
_HOLE_CODE = bytes([_HOLE & 0xFF])

_CHAR_OF = {Mark.COVERED: ".", Mark.FLAG: "F", Mark.HOLE: "-"}
_CODE_OF = {".": Mark.COVERED, "F": Mark.FLAG, "-": Mark.HOLE, **{str(d): d for d in range(9)}}


@dataclass(frozen=True, eq=False)
class Position:
    """A player's view of a board.

    Parameters
    ----------
    geometry : Geometry
        The board; its holes are exactly the grid's :attr:`Mark.HOLE` codes.
    grid : numpy.ndarray
        Flat ``int8`` array of length ``geometry.area``: 0-8 for a revealed number,
        else a :class:`Mark`. Copied and frozen.
    mines : int or None
        Total number of mines on the board, flagged ones included, when known.

    Examples
    --------
    >>> p = parse_position("mines: 2\\n.1.\\n.F.\\n")
    >>> p.covered_xy, p.flag_count, p.number((1, 0))
    (((0, 0), (2, 0), (0, 1), (2, 1)), 1, 1)
    >>> print(format_position(p), end="")
    mines: 2
    .1.
    .F.
    """

    geometry: Geometry
    grid: np.ndarray
    mines: int | None = None

    def __post_init__(self) -> None:
        grid = np.array(self.grid, dtype=np.int8).ravel()
        g = self.geometry
        if grid.shape != (g.area,):
            raise InputError(f"a {g.width}x{g.height} position needs {g.area} cells, not {grid.size}")
        # the codes checked as bytes, in one pass (a position is made at every step of a
        # game, and numpy's reductions cost more than the whole check on a small board)
        raw = grid.tobytes()
        if raw.translate(None, _CODES):
            raise InputError("position codes must be 0-8 or a Mark")
        if (g.has_holes or _HOLE_CODE in raw) and not np.array_equal(grid == _HOLE, ~g.mask):
            raise InputError("holes of the grid and of the geometry differ")
        if self.mines is not None:
            if isinstance(self.mines, bool) or not isinstance(self.mines, (int, np.integer)):
                raise InputError(f"mines must be an integer or None, not {self.mines!r}")
            if self.mines < 0:
                raise InputError(f"mines must not be negative, not {self.mines}")
            object.__setattr__(self, "mines", int(self.mines))
        grid.flags.writeable = False
        object.__setattr__(self, "grid", grid)

    # -- construction ----------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: list[str], mines: int | None = None) -> "Position":
        """A position from grid rows in the text format's characters.

        Examples
        --------
        >>> Position.from_rows(["1.", ".."], mines=1).covered_count
        3
        """
        header = "" if mines is None else f"mines: {mines}\n"
        return parse_position(header + "\n".join(rows) + "\n")

    @classmethod
    def from_view(
        cls,
        layout: Layout,
        revealed: np.ndarray,
        flagged: np.ndarray,
        *,
        mines_known: bool = True,
    ) -> "Position":
        """What a player sees of ``layout`` given which cells are open and flagged.

        This is the one place where a game's view is cut from its layout: revealed
        cells show their number, flagged cells a flag, everything else is covered.
        A revealed mine (the one that ended a lost game) is shown as a flag, since
        the player knows it is a mine.
        """
        g = layout.geometry
        revealed = np.asarray(revealed, dtype=bool) & g.mask
        flagged = (np.asarray(flagged, dtype=bool) & ~revealed & g.mask) | (revealed & layout.mines)
        shown = revealed & ~layout.mines
        grid = np.full(g.area, Mark.COVERED, dtype=np.int8)
        grid[flagged] = Mark.FLAG
        grid[shown] = layout.numbers[shown]
        grid[~g.mask] = Mark.HOLE
        # valid by construction: skip the checks of __init__ (play loops cut a view
        # at every stall) and keep the masks already at hand
        position = object.__new__(cls)
        object.__setattr__(position, "geometry", g)
        grid.flags.writeable = False
        object.__setattr__(position, "grid", grid)
        object.__setattr__(position, "mines", layout.mine_count if mines_known else None)
        for name, array in (("revealed", shown), ("flagged", flagged), ("covered", g.mask & ~revealed & ~flagged)):
            array.flags.writeable = False
            position.__dict__[name] = array
        return position

    def opened(self, cell: tuple[int, int], number: int) -> "Position":
        """The same view with the covered cell ``(x, y)`` open and showing ``number`` (0-8).

        InputError for anything that is not a cell of the board, for a cell that is
        not covered, and for a number outside 0-8.

        Examples
        --------
        >>> parse_position("mines: 1\\n...\\n").opened((0, 0), 1).covered_xy
        ((1, 0), (2, 0))
        """
        return self._opened_index(self.geometry.cell(cell), number)

    def _opened_index(self, cell: int, number: int) -> "Position":
        """:meth:`opened` by flat index, for code that works in indices.

        A guessing policy's look-ahead makes one such position for every number each
        candidate can show, so the masks are carried over instead of checked again.

        Examples
        --------
        >>> parse_position("mines: 1\\n...\\n")._opened_index(0, 1).covered_xy
        ((1, 0), (2, 0))
        """
        if self.grid[cell] != _COVERED or not 0 <= number <= 8:
            raise InputError(f"cannot open the cell {self.geometry.coords(cell)} with {number}: "
                             "it must be covered and the number 0-8")
        return self._changed([cell], number, (("revealed", True), ("covered", False)))

    def with_flags(self, cells) -> "Position":
        """The same view with the covered cells ``cells``, pairs ``(x, y)``, flagged.

        InputError for anything that is not a cell of the board and for a cell that
        is not covered.

        Examples
        --------
        >>> p = parse_position("mines: 2\\n...\\n").with_flags([(2, 0), (0, 0)])
        >>> p.flag_count, p.covered_xy
        (2, ((1, 0),))
        """
        return self._with_flags_index([self.geometry.cell(cell) for cell in cells])

    def _with_flags_index(self, cells) -> "Position":
        """:meth:`with_flags` by flat indices, for code that works in indices.

        Examples
        --------
        >>> parse_position("mines: 1\\n...\\n")._with_flags_index([2]).flag_count
        1
        """
        cells = list(cells)
        if (self.grid[cells] != Mark.COVERED).any():
            raise InputError("only covered cells can be flagged")
        return self._changed(cells, Mark.FLAG, (("flagged", True), ("covered", False)))

    def _changed(self, cells: list[int], code: int, masks) -> "Position":
        """A copy with ``cells`` set to ``code`` and the named masks set to the values
        given there (the others carried over): valid by construction, so not checked."""
        grid = self.grid.copy()
        grid[cells] = code
        position = object.__new__(Position)
        object.__setattr__(position, "geometry", self.geometry)
        grid.flags.writeable = False
        object.__setattr__(position, "grid", grid)
        object.__setattr__(position, "mines", self.mines)
        changed = dict(masks)
        for name in ("revealed", "covered", "flagged"):
            array = getattr(self, name)
            if name in changed:
                array = array.copy()
                array[cells] = changed[name]
                array.flags.writeable = False
            position.__dict__[name] = array
        return position

    def with_mines(self, mines: int | None) -> "Position":
        """The same view with another (or no) mine total."""
        return Position(self.geometry, self.grid, mines)

    # -- queries -------------------------------------------------------------------
    @cached_property
    def covered(self) -> np.ndarray:
        """Flat boolean array: covered and not flagged."""
        return self._frozen(self.grid == Mark.COVERED)

    @cached_property
    def flagged(self) -> np.ndarray:
        return self._frozen(self.grid == Mark.FLAG)

    @cached_property
    def revealed(self) -> np.ndarray:
        return self._frozen(self.grid >= 0)

    @staticmethod
    def _frozen(a: np.ndarray) -> np.ndarray:
        a.flags.writeable = False
        return a

    @property
    def covered_count(self) -> int:
        return int(self.covered.sum())

    @property
    def flag_count(self) -> int:
        return int(self.flagged.sum())

    @property
    def covered_xy(self) -> tuple[tuple[int, int], ...]:
        """The covered (unflagged) cells as ``(x, y)``, in row order.

        Examples
        --------
        >>> parse_position("1F.\\n..2\\n").covered_xy
        ((2, 0), (0, 1), (1, 1))
        """
        cells = np.flatnonzero(self.covered)
        w = self.geometry.width
        return tuple(zip((cells % w).tolist(), (cells // w).tolist()))

    def number(self, cell: tuple[int, int]) -> int | None:
        """The number shown at the cell ``(x, y)``, or None if it shows none;
        InputError for anything that is not a cell of the board (a hole, a cell off
        it, three numbers).

        Examples
        --------
        >>> p = parse_position("1F.\\n")
        >>> p.number((0, 0)), p.number((1, 0)), p.number((2, 0))
        (1, None, None)
        """
        v = int(self.grid[self.geometry.cell(cell)])
        return v if v >= 0 else None

    def rows(self) -> list[str]:
        """The grid as rows of the text format's characters."""
        lut = np.frombuffer(b"-F.012345678", dtype=np.uint8)  # indexed by code + 3
        chars = lut[self.grid.astype(np.int16) + 3]
        text = chars.tobytes().decode()
        w = self.geometry.width
        return [text[i : i + w] for i in range(0, len(text), w)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.geometry == other.geometry
            and self.mines == other.mines
            and np.array_equal(self.grid, other.grid)
        )

    def __hash__(self) -> int:
        return hash((self.geometry, self.mines, self.grid.tobytes()))

    def __repr__(self) -> str:
        g = self.geometry
        return f"Position({g.width}x{g.height}, mines={self.mines}, covered={self.covered_count})"

    def _repr_svg_(self) -> str | None:
        """The position as a picture in a notebook (:func:`mscsp.draw.position_svg`)."""
        from . import draw
        return draw.notebook_svg(self)


def parse_position(text: str, source: str | None = None, *, max_cells: int | None = None,
                   max_area: int | None = None) -> Position:
    """Read the position text format.

    Besides the syntax, a number larger than its count of neighbouring cells is
    out of range and rejected here, with its line and column: no board of this shape
    can show it. Other impossibilities (a 3 with two covered neighbours) are left to
    the solvers, which report them as contradictions.

    Raises
    ------
    ParseError
        One located message for the first problem found.
    InputError
        When the grid has more than ``max_cells`` cells (holes aside) or
        ``max_area`` positions in all (checked before the board is built).

    Examples
    --------
    >>> parse_position("4.\\n..\\n")
    Traceback (most recent call last):
    ...
    mscsp.errors.ParseError: line 1:1: number 4 out of range: this cell has only 3 neighbouring cells
    """
    try:
        parsed = read_grid_text(text, alphabet=POSITION_ALPHABET, keys=frozenset({"mines"}))
        if max_cells is not None:
            check_cells(parsed.width, parsed.height, max_cells, "position", max_area=max_area,
                        holes=sum(row.count("-") for row in parsed.rows))
        mines = None
        if "mines" in parsed.headers:
            mines = parse_count(parsed.headers["mines"], "mines")
        flat = "".join(parsed.rows)
        codes = np.frombuffer(flat.encode(), dtype=np.uint8)
        grid = np.full(codes.shape, Mark.COVERED, dtype=np.int8)
        digits = (codes >= ord("0")) & (codes <= ord("8"))
        grid[digits] = codes[digits] - ord("0")
        grid[codes == ord("F")] = Mark.FLAG
        grid[codes == ord("-")] = Mark.HOLE
        try:
            geometry = Geometry.from_mask((grid != Mark.HOLE).reshape(parsed.height, parsed.width))
        except InputError:
            raise ParseError("the grid has no cells, only '-'", line=parsed.row_lines[0], column=1) from None
        too_big = np.flatnonzero(digits & (grid > geometry.degree))
        if too_big.size:
            cell = int(too_big[0])
            x, y = geometry.coords(cell)
            raise ParseError(
                f"number {grid[cell]} out of range: this cell has only "
                f"{geometry.degree[cell]} neighbouring cells",
                line=parsed.row_lines[y],
                column=x + 1,
            )
        return Position(geometry, grid, mines)
    except ParseError as exc:
        raise exc.with_source(source) if source else exc


def format_position(position: Position, comments: list[str] | tuple[str, ...] = ()) -> str:
    """Write a position in the text format, with optional comment lines first."""
    lines = [f"# {c}" for c in comments]
    if position.mines is not None:
        lines.append(f"mines: {position.mines}")
    lines.extend(position.rows())
    return "\n".join(lines) + "\n"
