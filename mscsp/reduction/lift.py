"""A compiled board read back into its formula, and the formula's core lifted to the board.

A board that :func:`~mscsp.reduction.compile.compile_cnf` drew is a grid of gadget
tiles: terminals on the top row, one tile row per clause (two for three literals),
buses running down each variable's column. Every tile is one of a few fixed
drawings, so the grid can be read back tile by tile, and from it the formula: each
clause row names its clause gadget's column and sign and the columns and signs of
the taps that feed it.

An inconsistent compiled board has an unsatisfiable formula, and a small reason for
it is found far more cheaply on the formula (tens of clauses) than on the board
(hundreds of thousands of clues): a minimal unsatisfiable subset of the clauses by
deletion (Marques-Silva, "Minimal unsatisfiability: models, algorithms and
applications", ISMVL 2010), each question one SAT call on the formula. The board's
clues that implement those clauses then clash by themselves: the tiles of each
kept clause's rows from the clause gadget to its farthest tap (taps, crossings and
the gadget), and, for each variable of a kept clause, every tile of its column
between the first and the last kept rows that read it (the bus with whatever it
passes through). Any layout of those tiles would give the kept clauses a satisfying
assignment, read off the buses, so no layout exists; the caller checks it anyway
and shrinks it further while time allows.

Examples
--------
>>> from mscsp.reduction.cnf import parse_dimacs
>>> from mscsp.reduction.compile import compile_cnf
>>> board = compile_cnf(parse_dimacs("p cnf 2 4\\n1 2 0\\n-1 0\\n-2 0\\n1 -2 0\\n")).position
>>> tiles = read_tiles(board)
>>> [c.literals for c in tiles.clauses]
[(1, 2), (-1,), (-2,), (1, -2)]
>>> core = formula_core(tiles.clauses)
>>> [c.literals for c in core]
[(1, 2), (-1,), (-2,)]
>>> len(core_clues(board, tiles, core)) < int((board.grid >= 0).sum())
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..position import Mark, Position
from .gadgets import GADGETS, TILE

__all__ = ["TileGrid", "Clause", "read_tiles", "formula_core", "core_clues", "lifted_core"]


@dataclass(frozen=True)
class Clause:
    """One clause as the board draws it: its literals (variable = column + 1, negative
    when negated), the tile rows it occupies and the columns from its gadget to its
    farthest tap."""

    literals: tuple[int, ...]
    rows: tuple[int, ...]
    columns: tuple[int, int]


@dataclass(frozen=True)
class TileGrid:
    """A compiled board's tiles: ``names[row][column]`` (None under a two-row clause)."""

    names: tuple[tuple[str | None, ...], ...]
    clauses: tuple[Clause, ...]


def _chars(position: Position) -> np.ndarray:
    """The board as the tiles' drawing characters: ``-`` no cell, ``.`` covered, digits."""
    grid = position.grid
    g = position.geometry
    out = np.full(grid.shape, ord("."), dtype=np.uint8)
    digits = grid >= 0
    out[digits] = (grid[digits] + ord("0")).astype(np.uint8)
    out[(grid == Mark.HOLE) | ~g.mask.ravel()] = ord("-")
    return out.reshape(g.height, g.width)


def _drawings() -> tuple[dict[bytes, str], dict[bytes, str]]:
    """Each gadget's drawing as bytes -> its name, one-tile and two-tile tall apart."""
    one, two = {}, {}
    for name, gadget in GADGETS.items():
        data = "".join(gadget.rows).encode()
        (two if len(gadget.rows) == 2 * TILE else one)[data] = name
    return one, two


def read_tiles(position: Position) -> TileGrid | None:
    """The tile grid of a board that :func:`~mscsp.reduction.compile.compile_cnf` drew,
    with its clauses; None when the board is not one (a tile matches no gadget, the
    size is not a whole number of tiles, a clause row is malformed, or there are
    flags or a mine total, which compiled boards never have)."""
    g = position.geometry
    if position.mines is not None or (position.grid == Mark.FLAG).any():
        return None
    if g.width % TILE or g.height % TILE or g.height < 2 * TILE:
        return None
    chars = _chars(position)
    one, two = _drawings()
    rows, cols = g.height // TILE, g.width // TILE
    names: list[list[str | None]] = [[None] * cols for _ in range(rows)]
    lower: set[tuple[int, int]] = set()  # the lower halves of two-row clauses
    for ty in range(rows):
        for tx in range(cols):
            if (ty, tx) in lower:
                continue
            name = None
            if ty + 1 < rows:
                name = two.get(chars[ty * TILE:(ty + 2) * TILE, tx * TILE:(tx + 1) * TILE].tobytes())
                if name is not None:
                    lower.add((ty + 1, tx))
            if name is None:
                name = one.get(chars[ty * TILE:(ty + 1) * TILE, tx * TILE:(tx + 1) * TILE].tobytes())
            if name is None:
                return None
            names[ty][tx] = name
    if any(n != "SRC" for n in names[0]):
        return None
    clauses = _clauses(names)
    if clauses is None:
        return None
    return TileGrid(tuple(tuple(r) for r in names), tuple(clauses))


def _clauses(names: list[list[str | None]]) -> list[Clause] | None:
    out = []
    ty = 1
    while ty < len(names):
        row = names[ty]
        sites = [tx for tx, n in enumerate(row) if n is not None and n.startswith("CLAUSE_")]
        if len(sites) != 1:
            return None
        site = sites[0]
        kind = row[site]
        sources = int(kind[len("CLAUSE_")])
        height = 2 if sources == 2 else 1
        if ty + height > len(names):
            return None
        literals = [-(site + 1) if kind.endswith("_NOT") else site + 1]
        lo = hi = site
        for r in range(ty, ty + height):
            taps = [tx for tx, n in enumerate(names[r]) if n is not None and n.startswith("TAP_")]
            if len(taps) != (1 if sources else 0):
                return None
            for tx in taps:
                literals.append(-(tx + 1) if names[r][tx].endswith("_NOT") else tx + 1)
                lo, hi = min(lo, tx), max(hi, tx)
        out.append(Clause(tuple(sorted(literals, key=lambda l: (abs(l), l))), tuple(range(ty, ty + height)), (lo, hi)))
        ty += height
    return out


def formula_core(clauses: tuple[Clause, ...] | list[Clause], *, deadline: float | None = None) -> list[Clause] | None:
    """A minimal unsatisfiable subset of ``clauses`` (deletion, one SAT call a clause);
    None when they are satisfiable or the deadline passes first (the set found so far
    is then not minimal, and the caller keeps its own)."""
    from pysat.solvers import Solver

    clauses = list(clauses)
    top = max((abs(l) for c in clauses for l in c.literals), default=0)
    selectors = [top + 1 + i for i in range(len(clauses))]
    with Solver(name="m22", bootstrap_with=[list(c.literals) + [-s] for c, s in zip(clauses, selectors)]) as solver:
        if solver.solve(assumptions=selectors):
            return None
        keep = set(solver.get_core() or selectors)
        for s in sorted(keep):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            trial = [t for t in keep if t != s]
            if not solver.solve(assumptions=trial):
                keep = set(solver.get_core() or trial)
    return [c for c, s in zip(clauses, selectors) if s in keep]


def core_clues(position: Position, tiles: TileGrid, core: list[Clause]) -> list[tuple[int, int]]:
    """The open numbers of the tiles that implement ``core``, as ``(x, y)`` in row order:
    each clause's rows from its gadget to its farthest tap, and each of its
    variables' columns from the first to the last row of ``core`` reading it."""
    chosen: set[tuple[int, int]] = set()
    span: dict[int, tuple[int, int]] = {}  # column -> the first and last rows reading it
    for clause in core:
        lo, hi = clause.columns
        for r in clause.rows:
            chosen.update((r, tx) for tx in range(lo, hi + 1))
        for lit in clause.literals:
            column = abs(lit) - 1
            first, last = span.get(column, (clause.rows[0], clause.rows[-1]))
            span[column] = min(first, clause.rows[0]), max(last, clause.rows[-1])
    # above its first use a bus only carries the terminal's free value down: any value
    # fits it, so only the stretch between the uses is part of the clash
    for column, (first, last) in span.items():
        chosen.update((r, column) for r in range(first, last + 1))
    g = position.geometry
    grid = position.grid.reshape(g.height, g.width)
    out = []
    for ty, tx in sorted(chosen):
        block = grid[ty * TILE:(ty + 1) * TILE, tx * TILE:(tx + 1) * TILE]
        ys, xs = np.nonzero(block >= 0)
        out.extend((int(tx * TILE + x), int(ty * TILE + y)) for y, x in zip(ys, xs))
    return sorted(out, key=lambda xy: (xy[1], xy[0]))


def lifted_core(position: Position, *, deadline: float | None = None) -> list[tuple[int, int]] | None:
    """On a board compiled from a formula, the open numbers of the tiles that implement
    a minimal unsatisfiable subset of its clauses (see :func:`core_clues`); None on any
    other board, when the formula is satisfiable (the board then has a layout), or
    when ``deadline`` (a ``time.perf_counter()`` value) passes first.

    Examples
    --------
    >>> from mscsp.analysis.consistency import decide
    >>> from mscsp.reduction.cnf import parse_dimacs
    >>> from mscsp.reduction.compile import compile_cnf
    >>> board = compile_cnf(parse_dimacs("p cnf 1 2\\n1 0\\n-1 0\\n")).position
    >>> verdict = decide(board, hint=lifted_core(board))
    >>> verdict.consistent, verdict.contradiction.minimal
    (False, True)
    """
    tiles = read_tiles(position)
    if tiles is None:
        return None
    core = formula_core(tiles.clauses, deadline=deadline)
    if core is None:
        return None
    return core_clues(position, tiles, core)
