"""DIMACS CNF export of a position, so outside SAT and #SAT solvers can check us.

Variable ``i`` (1-based) is the i-th covered cell in row order: true means a mine.
Each clue is an exact-k constraint in the binomial encoding (no auxiliary
variables); the mine total, when known, is a sequential counter whose auxiliary
variables are fully defined (:func:`~mscsp.analysis.solvers.encoding.exact_counter`). Every
layout consistent with the position is therefore exactly one model: a plain model
counter's answer is ``mscsp count``'s. A ``c p show`` line names the cell variables
for projected counters as well.

The first comment lines map variables to cells (``c cell VAR X Y``).
"""

from __future__ import annotations

from pysat.formula import IDPool

from ..analysis.constraints import build_constraints
from ..analysis.solvers.encoding import exact_counter, exactly
from ..position import Position
from .cnf import CNF

__all__ = ["position_to_cnf", "format_dimacs"]


def position_to_cnf(position: Position, *, use_total: bool = True) -> tuple[CNF, dict[int, int]]:
    """The position's formula and its cell -> variable map.

    Cell variables are named ``("mine", cell)`` in a PySAT :class:`~pysat.formula.IDPool`
    (the covered cells in row order take 1, 2, ...); the encodings' auxiliary
    variables come after them.

    Raises
    ------
    InconsistentError
        For a first-order impossibility (the CNF would be trivially false).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> cnf, var = position_to_cnf(parse_position(".1.\\n"), use_total=False)
    >>> cnf.variables, cnf.clauses, var
    (2, ((-1, -2), (1, 2)), {0: 1, 2: 2})
    """
    if not use_total:
        position = position.with_mines(None)
    system = build_constraints(position)
    pool = IDPool()
    var = {c: pool.id(("mine", c)) for c in system.covered}
    top = pool.top
    clauses: list[list[int]] = []
    for con in system.constraints:
        body, top = exactly([var[c] for c in con.cells], con.count, top=top)
        clauses.extend(body)
    if use_total and system.remaining is not None:
        body, top = exact_counter(list(var.values()), system.remaining, top=top)
        clauses.extend(body)
    return CNF(top, tuple(map(tuple, clauses))), var


def format_dimacs(position: Position, *, use_total: bool = True) -> str:
    """The DIMACS text, with the variable map and a projection line in comments."""
    cnf, var = position_to_cnf(position, use_total=use_total)
    g = position.geometry
    comments = [
        f"mscsp position {g.width}x{g.height}, mines {position.mines if use_total else 'not used'}",
        "variable i is true when its cell holds a mine; every layout is exactly one model",
    ]
    comments += [f"cell {v} {' '.join(map(str, g.coords(cell)))}" for cell, v in var.items()]
    comments.append("p show " + " ".join(str(v) for v in var.values()) + " 0")
    return CNF(cnf.variables, cnf.clauses, tuple(comments)).to_dimacs()
