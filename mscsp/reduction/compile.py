"""Kaye's reduction: a CNF formula becomes a position consistent exactly when it is satisfiable.

The gadgets of :mod:`mscsp.reduction.gadgets` are composed on a grid of tiles:

- one column per variable that occurs in the formula; its top tile is a terminal
  (``SRC``) whose covered cell *is* the variable (a mine means true), and below it a
  vertical bus carries the value down through every row;
- one tile row per clause (two for a clause of three literals). The clause gadget
  sits on the bus of one of its variables (that literal is taken from the bus, negated
  by the ``_NOT`` variants); every other literal is split off its own bus by a tap
  (``TAP_E``/``TAP_W``, negating for a negative literal) and runs along the row to the
  clause, crossing the buses in between (``CROSS``); all other tiles of the row pass
  the buses on (``V``). A clause of three literals sits on its leftmost or rightmost
  variable, whichever makes fewer crossings;
- literals are normalised first: repeats merged, tautologies (``x OR NOT x``)
  dropped; an empty clause compiles to a pair of numbers that contradict each other.

Because every gadget enforces exactly its relation, a layout of the board is a
satisfying assignment spread over the wires, and conversely; :func:`decode` reads the
assignment off the terminals of a witness layout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ..board import Geometry, Layout
from ..errors import InputError
from ..formats.files import Fields, cell_of, check_cells, load_json
from ..position import Mark, Position
from ..formats.text import excerpt, natural
from .cnf import CNF
from .gadgets import GADGETS, PORT, TILE

__all__ = ["Compiled", "compile_cnf", "CnfMap", "read_map", "decode", "MAP_FORMAT", "DECODE_BYTES"]

MAP_FORMAT = "mscsp-cnf-map/1"


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: the position and where each variable lives.

    ``variables`` maps each variable that occurs to its terminal cell ``(x, y)`` (a
    mine there means true); ``buses`` to every bus cell ``(x, y)`` that carries the
    same value; ``tiles`` is the tile grid (names, or None for empty space).
    """

    cnf: CNF
    position: Position
    variables: dict[int, tuple[int, int]]
    buses: dict[int, tuple[tuple[int, int], ...]]
    tiles: tuple[tuple[str | None, ...], ...]

    def map_json(self) -> str:
        """The ``--map`` file: variable -> cells, as ``[x, y]``."""
        return json.dumps({
            "format": MAP_FORMAT,
            "variables": self.cnf.variables,
            "clauses": len(self.cnf.clauses),
            "true_when": "mine",
            "cells": {str(v): list(xy) for v, xy in sorted(self.variables.items())},
            "buses": {str(v): [list(xy) for xy in cells] for v, cells in sorted(self.buses.items())},
            "tile": TILE,
        }, indent=1)


def _normalise(cnf: CNF) -> tuple[list[tuple[int, ...]], bool]:
    out = []
    empty = False
    for clause in cnf.clauses:
        lits = sorted(set(clause), key=lambda l: (abs(l), l))
        if any(-l in lits for l in lits):
            continue  # a tautology holds in every layout
        if not lits:
            empty = True
            continue
        out.append(tuple(lits))
    return out, empty


def compile_cnf(cnf: CNF, *, max_cells: int | None = None) -> Compiled:
    """Compile a formula into a position (no mine total) built from the gadgets.

    Raises InputError, before drawing anything, when the board would have more
    than ``max_cells`` grid positions.

    Examples
    --------
    >>> from mscsp.reduction.cnf import parse_dimacs
    >>> c = compile_cnf(parse_dimacs("p cnf 2 2\\n1 2 0\\n-1 0\\n"))
    >>> c.position.geometry.width, c.position.geometry.height
    (42, 63)
    """
    clauses, empty = _normalise(cnf)
    used = sorted({abs(l) for c in clauses for l in c})
    col = {v: i for i, v in enumerate(used)}
    ncols = len(used)
    grid_rows: list[list[str | None]] = []
    if ncols:
        grid_rows.append(["SRC"] * ncols)
    for clause in clauses:
        cols = [col[abs(l)] for l in clause]
        sign = {col[abs(l)]: l < 0 for l in clause}
        if len(clause) == 3:
            a, b, c = cols
            west = (c - a - 1) + (c - b - 1) <= (b - a - 1) + (c - a - 1)
            site, sources = (c, [a, b]) if west else (a, [b, c])
        elif len(clause) == 2:
            site, sources, west = cols[1], [cols[0]], True
        elif len(clause) == 1:
            site, sources, west = cols[0], [], True
        else:
            raise InputError(f"clauses of {len(clause)} literals are not supported; split them into 3-CNF first")
        height = 2 if len(sources) == 2 else 1
        rows = [["V"] * ncols for _ in range(height)]
        kind = f"CLAUSE_{len(sources)}{('W' if west else 'E') if sources else ''}"
        rows[0][site] = kind + ("_NOT" if sign[site] else "")
        if height == 2:
            rows[1][site] = None  # the lower half of the two-row clause tile
        for r, src in enumerate(sources):
            tap = "TAP_E" if west else "TAP_W"
            rows[r][src] = tap + ("_NOT" if sign[src] else "")
            lo, hi = (src, site) if west else (site, src)
            for k in range(lo + 1, hi):
                rows[r][k] = "CROSS"
        grid_rows.extend(rows)
    width = max(ncols, 1) * TILE
    height = max(len(grid_rows), 1) * TILE
    if max_cells is not None:
        check_cells(width, height + 1, max_cells, f"compiled board ({ncols} variables, {len(clauses)} clauses)")
    chars = np.full((height, width), ord("-"), dtype=np.uint8)
    for ty, row in enumerate(grid_rows):
        for tx, name in enumerate(row):
            if name is None:
                continue
            drawing = GADGETS[name].rows
            block = np.frombuffer("".join(drawing).encode(), dtype=np.uint8).reshape(len(drawing), TILE)
            chars[ty * TILE: ty * TILE + len(drawing), tx * TILE: (tx + 1) * TILE] = block
    if empty or not ncols:
        # a 0 and a 1 sharing their only covered cell: contradict each other (empty clause);
        # or, for a formula with no clause left, one free cell so the board is not empty
        extra = np.full((1, width), ord("-"), dtype=np.uint8)
        if empty:
            extra[0, :3] = np.frombuffer(b"0.1", dtype=np.uint8)
        else:
            extra[0, 0] = ord(".")
        chars = np.vstack([chars, extra]) if grid_rows else extra
    flat = chars.ravel()
    grid = np.full(flat.shape, Mark.COVERED, dtype=np.int8)
    digits = (flat >= ord("0")) & (flat <= ord("8"))
    grid[digits] = (flat[digits] - ord("0")).astype(np.int8)
    grid[flat == ord("-")] = Mark.HOLE
    geometry = Geometry.from_mask(flat.reshape(chars.shape) != ord("-"))
    position = Position(geometry, grid, None)
    variables = {v: (col[v] * TILE + PORT, TILE - 1) for v in used}
    buses = {}
    for v in used:
        x = col[v] * TILE + PORT
        cells = []
        for r, row in enumerate(grid_rows):
            name = row[col[v]]
            if name is not None and name.startswith("CLAUSE_2"):
                continue  # the south port of a two-row clause is on the next row
            cells.append((x, (r + 1) * TILE - 1))
        buses[v] = tuple(cells)
    return Compiled(cnf, position, variables, buses, tuple(tuple(r) for r in grid_rows))


@dataclass(frozen=True)
class CnfMap:
    """What a ``--map`` file says: the formula's variable count and the terminal cell
    ``(x, y)`` (a mine means true) of each variable that occurs."""

    variables: int
    cells: dict[int, tuple[int, int]]


#: Bytes that decoding takes per variable of the formula, at its peak: the
#: assignment, sorted, and printed as a DIMACS line or JSON (measured: about 360).
DECODE_BYTES = 400


def read_map(text: str, geometry: Geometry, source: str = "map", *, memory: int | None = None) -> CnfMap:
    """Read and check a ``--map`` file against the board it is meant for.

    ``memory`` bounds the bytes that decoding through the map may take: its
    ``variables`` field, not the file's size, sets that (every variable is printed,
    those in no clause as false), so a map of a few bytes could ask for gigabytes.

    Raises
    ------
    InputError
        When it is not JSON, not a map of this format, has fields of the wrong type,
        names cells off the board or on a hole, or has more variables than
        ``memory`` bytes can decode.

    Examples
    --------
    >>> from mscsp.reduction.cnf import parse_dimacs
    >>> c = compile_cnf(parse_dimacs("p cnf 2 1\\n1 -2 0\\n"))
    >>> read_map(c.map_json(), c.position.geometry).cells == c.variables
    True
    """
    fields = Fields(load_json(text, source), source)
    if fields.data.get("format") != MAP_FORMAT:
        raise InputError(f"{source}: not an {MAP_FORMAT} map (its 'format' field differs)")
    variables = fields.integer("variables", low=0)
    if memory is not None and variables * DECODE_BYTES > memory:
        raise InputError(f"{source}: decoding its {variables} variables would take about "
                         f"{variables * DECODE_BYTES >> 20} MB, more than the {memory >> 20} MB memory limit")
    cells: dict[int, tuple[int, int]] = {}
    for name, where in fields.object("cells").items():
        try:
            number = natural(name, "a variable")
        except InputError:
            number = 0  # not a number at all: said as a variable out of range
        if not 1 <= number <= variables:
            raise InputError(f"{source}: 'cells' names variable {excerpt(name)}, not one of 1 to {variables}")
        x, y = cell_of(where, geometry.width, geometry.height, f"{source}: the cell of variable {name}")
        if not geometry.mask.ravel()[y * geometry.width + x]:
            raise InputError(f"{source}: the cell of variable {name}, [{x}, {y}], is not a cell of the board")
        cells[number] = (x, y)
    return CnfMap(variables, cells)


def decode(layout: Layout, mapping: CnfMap) -> dict[int, bool]:
    """Read a satisfying assignment off a witness layout through a checked ``--map``.

    Variables that do not occur in any clause are reported false.
    """
    out = {v: False for v in range(1, mapping.variables + 1)}
    for v, (x, y) in mapping.cells.items():
        out[v] = layout.is_mine((x, y))
    return out
