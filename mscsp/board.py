"""Board geometry, board sizes and mine layouts.

A board is a set of cells on a ``width`` x ``height`` grid, minus optional *holes*
(cells that do not exist, used for the irregular boards of Kaye-style generalised
instances). Cells are flat indices ``y * width + x``; coordinates ``(x, y)`` appear
only at the edges of the toolkit. :class:`Geometry` owns the one neighbour function
of the whole project, so clue numbers, flood fill, chording and the solvers agree on
what touches what.

A :class:`Layout` is the hidden truth of a game: one mine bit per cell (an immutable
numpy array) and the clue number every cell would show.

One module, not several: the geometry's neighbour function, the sizes and the layouts'
numbers are one model that every other module reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Iterable, Iterator

import numpy as np

from .errors import InputError, ParseError
from .formats.files import check_cells
from .formats.text import parse_count, read_grid_text

__all__ = ["Geometry", "Spec", "Layout", "PRESETS", "parse_layout", "format_layout"]

# Above this many grid positions the neighbour table is not precomputed: a table of
# tuples costs ~300 bytes a cell, and huge generalised boards only ever touch the
# cells near their clues.
_TABLE_LIMIT = 1 << 16

#: The eight ``(dx, dy)`` steps from a cell to its neighbours, row by row: the one
#: definition of "touching" for the whole toolkit (the compiled play loop reads the
#: neighbour table built from it).
NEIGHBOUR_OFFSETS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


def _check_dimension(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{name} must be an integer, not {value!r}")
    if value < 1:
        raise InputError(f"{name} must be at least 1, not {value}")
    return int(value)


class Geometry:
    """The cells of a board and which of them touch.

    Parameters
    ----------
    width, height : int
        Size of the bounding grid, at least 1 each.
    holes : iterable of int, optional
        Flat indices of grid positions that are not cells. A hole is nobody's
        neighbour and never holds a mine.

    A geometry is immutable and hashable; it stores one byte per grid position, so
    even a 1000x1000 board with most positions holes costs a megabyte. Build large
    irregular boards with :meth:`from_mask`.

    Examples
    --------
    >>> g = Geometry(3, 2)
    >>> g.neighbours(0)
    (1, 3, 4)
    >>> g.coords(4), g.index(1, 1)
    ((1, 1), 4)
    >>> Geometry(3, 1, holes={1}).neighbours(0)
    ()
    """


    def __init__(self, width: int, height: int, holes: Iterable[int] = ()):
        width = _check_dimension("width", width)
        height = _check_dimension("height", height)
        area = width * height
        cells = bytearray(b"\x01") * area
        for h in holes:
            h = int(h)
            if not 0 <= h < area:
                raise InputError(f"hole {h} is outside the {width}x{height} grid")
            cells[h] = 0
        self._init(width, height, bytes(cells))

    def _init(self, width: int, height: int, cells: bytes) -> None:
        if not any(cells):
            raise InputError("a board needs at least one cell; every position is a hole")
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "_cells", cells)

    def __setattr__(self, name, value):
        if name in ("width", "height", "_cells"):
            raise AttributeError("Geometry is immutable")
        object.__setattr__(self, name, value)

    @classmethod
    def from_mask(cls, mask: np.ndarray) -> "Geometry":
        """Build a geometry from a ``height`` x ``width`` boolean array of real cells."""
        mask = np.asarray(mask, dtype=bool)
        if mask.ndim != 2:
            raise InputError("a cell mask must be two-dimensional")
        height, width = mask.shape
        g = cls.__new__(cls)
        g._init(_check_dimension("width", width), _check_dimension("height", height),
                mask.astype(np.uint8).tobytes())
        return g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Geometry):
            return NotImplemented
        return self.width == other.width and self.height == other.height and self._cells == other._cells

    def __hash__(self) -> int:
        return hash((self.width, self.height, self._cells))

    def __repr__(self) -> str:
        holes = self.area - self.size
        extra = f", {holes} holes" if holes else ""
        return f"Geometry({self.width}x{self.height}{extra})"

    def __reduce__(self):
        return (_geometry_from_bytes, (self.width, self.height, self._cells))

    # -- sizes ---------------------------------------------------------------------
    @property
    def area(self) -> int:
        """Number of grid positions, holes included."""
        return self.width * self.height

    @cached_property
    def size(self) -> int:
        """Number of cells (grid positions that are not holes)."""
        return self._cells.count(1)

    @cached_property
    def holes(self) -> frozenset[int]:
        """Flat indices of the holes (built on demand; prefer :attr:`mask` on big boards)."""
        return frozenset(np.flatnonzero(~self.mask).tolist())

    @property
    def has_holes(self) -> bool:
        return self.size != self.area

    @cached_property
    def mask(self) -> np.ndarray:
        """Flat read-only boolean array, True where a cell exists."""
        mask = np.frombuffer(self._cells, dtype=np.uint8).astype(bool)
        mask.flags.writeable = False
        return mask

    @cached_property
    def cells(self) -> np.ndarray:
        """Flat indices of all cells, ascending (row by row)."""
        cells = np.flatnonzero(self.mask)
        cells.flags.writeable = False
        return cells

    # -- coordinates ---------------------------------------------------------------
    def index(self, x: int, y: int) -> int:
        """Flat index of the cell at column ``x``, row ``y``; InputError if it is none."""
        if not self.contains(x, y):
            raise InputError(f"[{x}, {y}] is not a cell of this {self.width}x{self.height} board")
        return y * self.width + x

    def cell(self, where, what: str = "cell") -> int:
        """Flat index of ``where``, a pair ``(x, y)``: how every public function
        takes a cell.

        Anything else (a flat index, a float, three numbers, a cell off the
        board) is an InputError that names ``what`` was expected.

        Examples
        --------
        >>> g = Geometry(9, 9)
        >>> g.cell((4, 1))
        13
        >>> g.cell(13, "click")
        Traceback (most recent call last):
        ...
        mscsp.errors.InputError: the click must be a pair (x, y) of cell coordinates, not 13
        """
        if isinstance(where, np.ndarray):
            where = where.tolist()
        if (not isinstance(where, (tuple, list)) or len(where) != 2
                or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in where)):
            raise InputError(f"the {what} must be a pair (x, y) of cell coordinates, not {where!r}")
        x, y = int(where[0]), int(where[1])
        if not self.contains(x, y):
            raise InputError(f"the {what} ({x}, {y}) is not a cell of this {self.width}x{self.height} board")
        return y * self.width + x

    def coords(self, cell: int) -> tuple[int, int]:
        """``(x, y)`` of a flat index."""
        y, x = divmod(int(cell), self.width)
        return x, y

    @cached_property
    def xy(self) -> tuple[tuple[int, int], ...] | None:
        """``(x, y)`` of every flat index, in one tuple (None past 65,536 grid positions):
        code that names many cells of one board reads them here rather than dividing.

        Examples
        --------
        >>> Geometry(3, 2).xy[4]
        (1, 1)
        """
        if self.area > _TABLE_LIMIT:
            return None
        return tuple([(x, y) for y in range(self.height) for x in range(self.width)])

    def contains(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is a cell (inside the grid and not a hole)."""
        return 0 <= x < self.width and 0 <= y < self.height and self._cells[y * self.width + x] == 1

    def is_cell(self, cell: int) -> bool:
        """Whether a flat index names a cell."""
        return 0 <= cell < self.area and self._cells[cell] == 1

    # -- neighbourhoods ------------------------------------------------------------
    def _compute_neighbours(self, cell: int) -> tuple[int, ...]:
        w, h, cells = self.width, self.height, self._cells
        y, x = divmod(cell, w)
        out = []
        for dx, dy in NEIGHBOUR_OFFSETS:
            xx, yy = x + dx, y + dy
            if 0 <= xx < w and 0 <= yy < h:
                j = yy * w + xx
                if cells[j]:
                    out.append(j)
        return tuple(out)

    @cached_property
    def _table(self) -> tuple[tuple[int, ...], ...] | None:
        # the rows of the array table without their padding: one source for both
        if self.area > _TABLE_LIMIT:
            return None
        pad = self.area
        return tuple(tuple(n for n in row if n != pad) for row in self._neighbour_table.tolist())

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The cells touching ``cell`` (up to eight), ascending.

        This is the one neighbour function of the project. A hole has no neighbours
        and is no cell's neighbour.
        """
        table = self._table
        if table is not None:
            return table[cell]
        if not self._cells[cell]:
            return ()
        return self._compute_neighbours(cell)

    def closed_neighbourhood(self, cell: int) -> tuple[int, ...]:
        """``cell`` together with its neighbours, ascending."""
        return tuple(sorted((cell, *self.neighbours(cell))))

    def neighbour_count(self, bits: np.ndarray) -> np.ndarray:
        """For every grid position, how many of its neighbours have their bit set.

        Vectorised twin of :meth:`neighbours`: bits at holes are ignored, and holes
        get 0.

        Parameters
        ----------
        bits : numpy.ndarray
            Flat boolean array of length :attr:`area`.

        Returns
        -------
        numpy.ndarray
            Flat ``int8`` array of length :attr:`area`.

        Examples
        --------
        >>> g = Geometry(3, 3)
        >>> g.neighbour_count(np.eye(1, 9, 4, dtype=bool)[0]).reshape(3, 3).tolist()
        [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
        """
        grid = (np.asarray(bits, dtype=bool) & self.mask).reshape(self.height, self.width)
        padded = np.zeros((self.height + 2, self.width + 2), dtype=np.int8)
        padded[1:-1, 1:-1] = grid
        total = np.zeros((self.height, self.width), dtype=np.int8)
        for dx, dy in NEIGHBOUR_OFFSETS:
            total += padded[1 + dy : 1 + dy + self.height, 1 + dx : 1 + dx + self.width]
        total = total.ravel()
        total[~self.mask] = 0
        return total

    def neighbour_rows(self, cells: np.ndarray) -> np.ndarray:
        """The neighbours of the given positions as a ``(len(cells), 8)`` ``int64`` array.

        Row ``i`` lists the neighbours of ``cells[i]`` in ascending order (as
        :meth:`neighbours`), with the padding value :attr:`area` where a neighbour is
        off the board or a hole. Index an array of length ``area + 1`` whose last
        entry is neutral to gather over neighbourhoods. Small boards keep one table
        for all positions; large ones (a compiled board may span millions of
        positions, mostly holes) compute the rows asked for.

        Examples
        --------
        >>> Geometry(3, 2).neighbour_rows(np.array([0, 4])).tolist()
        [[6, 6, 6, 6, 1, 6, 3, 4], [0, 1, 2, 3, 5, 6, 6, 6]]
        """
        cells = np.asarray(cells, dtype=np.int64)
        if self.area <= _TABLE_LIMIT:
            return self._neighbour_table[cells]
        return self._rows(cells)

    @property
    def neighbour_table(self) -> np.ndarray | None:
        """:meth:`neighbour_rows` of every position at once (read-only, kept), or None
        on a board too large to keep one.

        Examples
        --------
        >>> Geometry(3, 2).neighbour_table.shape
        (6, 8)
        """
        return self._neighbour_table if self.area <= _TABLE_LIMIT else None

    @cached_property
    def _neighbour_table(self) -> np.ndarray:
        table = self._rows(np.arange(self.area, dtype=np.int64))
        table.flags.writeable = False
        return table

    def _rows(self, cells: np.ndarray) -> np.ndarray:
        w, h, area, mask = self.width, self.height, self.area, self.mask
        ys, xs = np.divmod(cells, w)
        out = np.empty((cells.size, 8), dtype=np.int64)
        for k, (dx, dy) in enumerate(NEIGHBOUR_OFFSETS):
            nx, ny = xs + dx, ys + dy
            inside = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h)
            idx = np.where(inside, ny * w + nx, 0)
            out[:, k] = np.where(inside & mask[idx] & mask[cells], idx, area)
        return out

    @cached_property
    def degree(self) -> np.ndarray:
        """Flat ``int8`` array: the number of neighbours of every cell (0 at holes)."""
        degree = self.neighbour_count(self.mask)
        degree.flags.writeable = False
        return degree

    def __iter__(self) -> Iterator[int]:
        return iter(self.cells.tolist())


@lru_cache(maxsize=16)
def _rectangle(width: int, height: int) -> Geometry:
    return Geometry(width, height)


@dataclass(frozen=True)
class Spec:
    """A rectangular board size and mine count, such as Expert's 30x16 with 99 mines.

    Examples
    --------
    >>> Spec.preset("expert")
    Spec(width=30, height=16, mines=99)
    >>> Spec.preset("expert").name, Spec(8, 8, 10).name
    ('expert', '8x8/10')
    """

    width: int
    height: int
    mines: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "width", _check_dimension("width", self.width))
        object.__setattr__(self, "height", _check_dimension("height", self.height))
        mines = self.mines
        if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)):
            raise InputError(f"mines must be an integer, not {mines!r}")
        if mines < 0:
            raise InputError(f"mines must not be negative, not {mines}")
        if mines > self.width * self.height:
            raise InputError(
                f"{mines} mines do not fit on a {self.width}x{self.height} board "
                f"of {self.width * self.height} cells"
            )
        object.__setattr__(self, "mines", int(mines))

    @classmethod
    def preset(cls, name: str) -> "Spec":
        """One of ``beginner``, ``intermediate``, ``expert``."""
        try:
            return PRESETS[name.lower()]
        except KeyError:
            raise InputError(
                f"unknown board {name!r}; choose one of {', '.join(PRESETS)}"
            ) from None

    @property
    def geometry(self) -> Geometry:
        """The rectangular board, shared between calls (a geometry is immutable and
        its neighbour tables are worth computing once per size)."""
        return _rectangle(self.width, self.height)

    @property
    def name(self) -> str:
        """The preset's name, or ``WxH/M`` for any other size."""
        for key, spec in PRESETS.items():
            if spec == self:
                return key
        return f"{self.width}x{self.height}/{self.mines}"


def _geometry_from_bytes(width: int, height: int, cells: bytes) -> Geometry:
    g = Geometry.__new__(Geometry)
    g._init(width, height, cells)
    return g


PRESETS: dict[str, Spec] = {
    "beginner": Spec(9, 9, 10),
    "intermediate": Spec(16, 16, 40),
    "expert": Spec(30, 16, 99),
}


@dataclass(frozen=True, eq=False)
class Layout:
    """Where the mines are: the hidden truth of one game.

    Parameters
    ----------
    geometry : Geometry
        The board.
    mines : numpy.ndarray
        Flat boolean array of length ``geometry.area``; never True at a hole. It is
        copied and frozen.

    Examples
    --------
    >>> lay = Layout.from_rows(["*..", "..*"])
    >>> lay.mine_count, lay.numbers.reshape(2, 3).tolist()
    (2, [[0, 2, 1], [1, 2, 0]])
    >>> lay.rows()
    ['*..', '..*']
    """

    geometry: Geometry
    mines: np.ndarray

    def __post_init__(self) -> None:
        mines = np.array(self.mines, dtype=bool).ravel()
        if mines.shape != (self.geometry.area,):
            raise InputError(
                f"a layout of a {self.geometry.width}x{self.geometry.height} board needs "
                f"{self.geometry.area} mine bits, not {mines.size}"
            )
        if self.geometry.has_holes and (mines & ~self.geometry.mask).any():
            raise InputError("a layout cannot put a mine in a hole")
        mines.flags.writeable = False
        object.__setattr__(self, "mines", mines)

    @classmethod
    def from_cells(cls, geometry: Geometry, cells: Iterable[tuple[int, int]]) -> "Layout":
        """A layout with mines exactly on the cells ``cells``, pairs ``(x, y)``;
        InputError for anything that is not a cell of the board.

        Examples
        --------
        >>> Layout.from_cells(Geometry(3, 2), [(0, 0), (2, 1)]).rows()
        ['*..', '..*']
        """
        return cls._from_indices(geometry, [geometry.cell(c, "mine") for c in cells])

    @classmethod
    def _from_indices(cls, geometry: Geometry, cells: Iterable[int]) -> "Layout":
        """:meth:`from_cells` by flat indices, for the engines."""
        bits = np.zeros(geometry.area, dtype=bool)
        cells = list(cells)
        for c in cells:
            if not geometry.is_cell(c):
                raise InputError(f"mine at {c} is not a cell of the board")
        bits[cells] = True
        return cls(geometry, bits)

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> "Layout":
        """A layout from rows of ``*`` (mine), ``.`` (safe) and ``-`` (no cell)."""
        rows = list(rows)
        width = len(rows[0]) if rows else 0
        if not rows or any(len(r) != width for r in rows):
            raise InputError("layout rows must be non-empty and of equal length")
        flat = "".join(rows)
        if set(flat) - set("*.-"):
            raise InputError("layout rows may hold only '*', '.' and '-'")
        codes = np.frombuffer(flat.encode(), dtype=np.uint8)
        geometry = Geometry.from_mask((codes != ord("-")).reshape(len(rows), width))
        return cls(geometry, codes == ord("*"))

    @cached_property
    def mine_count(self) -> int:
        return int(self.mines.sum())

    @property
    def safe_count(self) -> int:
        """Number of cells without a mine: what a winner must open."""
        return self.geometry.size - self.mine_count

    @cached_property
    def numbers(self) -> np.ndarray:
        """Flat ``int8`` array: the number each cell shows when opened (mines included)."""
        numbers = self.geometry.neighbour_count(self.mines)
        numbers.flags.writeable = False
        return numbers

    def is_mine(self, cell: tuple[int, int]) -> bool:
        """Whether the cell ``(x, y)`` holds a mine; InputError for anything that is not
        a cell of the board (a hole, a cell off it, three numbers).

        Examples
        --------
        >>> lay = Layout.from_rows(["*..", "..*"])
        >>> lay.is_mine((0, 0)), lay.is_mine((1, 0)), lay.is_mine((2, 1))
        (True, False, True)
        """
        return bool(self.mines[self.geometry.cell(cell)])

    def rows(self) -> list[str]:
        """The layout as rows of ``*``, ``.`` and ``-``."""
        chars = np.where(self.mines, ord("*"), ord(".")).astype(np.uint8)
        if self.geometry.has_holes:
            chars[~self.geometry.mask] = ord("-")
        w = self.geometry.width
        text = chars.tobytes().decode()
        return [text[i : i + w] for i in range(0, len(text), w)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.geometry == other.geometry and np.array_equal(self.mines, other.mines)

    def __hash__(self) -> int:
        return hash((self.geometry, self.mines.tobytes()))

    def __repr__(self) -> str:
        g = self.geometry
        return f"Layout({g.width}x{g.height}, {self.mine_count} mines)"

    def _repr_svg_(self) -> str | None:
        """The layout as a picture in a notebook (:func:`mscsp.draw.board_svg`)."""
        from . import draw
        return draw.notebook_svg(self)


LAYOUT_ALPHABET = "*.-"


def parse_layout(text: str, source: str | None = None, *, max_cells: int | None = None,
                   max_area: int | None = None) -> Layout:
    """Read a layout file (README, "File formats"): the position grid with ``*`` mines, ``.`` safe.

    A ``mines`` header, when present, must match the number of ``*`` cells.

    Raises
    ------
    ParseError
        Naming line and column of the first problem.

    Examples
    --------
    >>> parse_layout("# a board\\nmines: 1\\n.*\\n..\\n").rows()
    ['.*', '..']
    """
    try:
        grid = read_grid_text(text, alphabet=LAYOUT_ALPHABET, keys=frozenset({"mines"}), what="layout")
        if max_cells is not None:
            check_cells(grid.width, grid.height, max_cells, "layout", max_area=max_area,
                        holes=sum(row.count("-") for row in grid.rows))
        layout = Layout.from_rows(grid.rows)
        if "mines" in grid.headers:
            header = grid.headers["mines"]
            declared = parse_count(header, "mines")
            if declared != layout.mine_count:
                raise ParseError(
                    f"mines: {declared} but the grid has {layout.mine_count} '*' cells",
                    line=header.line,
                    column=header.column,
                )
    except ParseError as exc:
        raise exc.with_source(source) if source else exc
    return layout


def format_layout(layout: Layout, comments: Iterable[str] = ()) -> str:
    """Write a layout file: comment lines, a ``mines`` header, then the grid.

    Examples
    --------
    >>> print(format_layout(Layout.from_rows(["*.", ".."]), ["seed: 7"]), end="")
    # seed: 7
    mines: 1
    *.
    ..
    """
    lines = [f"# {c}" for c in comments]
    lines.append(f"mines: {layout.mine_count}")
    lines.extend(layout.rows())
    return "\n".join(lines) + "\n"
