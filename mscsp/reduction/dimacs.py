"""DIMACS CNF export of a position, so outside SAT and #SAT solvers can check us.

Variable ``i`` (1-based) is the i-th covered cell in row order: true means a mine.
Each clue is an exact-k constraint in the binomial encoding (no auxiliary
variables), as the complete solver encodes it; the mine total, when known, is the
complete solver's own encoding (:class:`~mscsp.analysis.solvers.encoding.MineTotal`:
totalizers with defined outputs) over every covered cell, its bounds written as unit
clauses where the solver assumes them. Every layout consistent with the position is
therefore exactly one model: a plain model counter's answer is ``mscsp count``'s. A
``c p show`` line names the cell variables for projected counters, whose count is
exact even past the totalizers' size limit, where the total becomes a cardinality
network with auxiliaries that are not defined (the export's comments say so).

The first comment lines map variables to cells (``c cell VAR X Y``).
"""

from __future__ import annotations

from pysat.formula import IDPool

from ..analysis.constraints import build_constraints
from ..analysis.solvers.encoding import MineTotal, exactly
from ..position import Position
from .cnf import CNF

__all__ = ["position_to_cnf", "format_dimacs"]

#: Said in the export when the total is past the totalizers' size limit.
UNDEFINED = ("the mine total is a cardinality network whose auxiliary variables are not defined: "
             "count models projected on the cell variables (the p show line)")


def position_to_cnf(position: Position, *, use_total: bool = True) -> tuple[CNF, dict[tuple[int, int], int]]:
    """The position's formula and which variable each covered cell ``(x, y)`` is.

    The covered cells in row order are variables 1, 2, ... (named ``("mine", cell)``
    in a PySAT :class:`~pysat.formula.IDPool`); the encodings' auxiliary variables
    come after them.

    Raises
    ------
    InconsistentError
        For a first-order impossibility (the CNF would be trivially false).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> cnf, var = position_to_cnf(parse_position(".1.\\n"), use_total=False)
    >>> cnf.variables, cnf.clauses, var
    (2, ((-1, -2), (1, 2)), {(0, 0): 1, (2, 0): 2})
    """
    if not use_total:
        position = position.with_mines(None)
    system = build_constraints(position)
    pool = IDPool()
    var = {c: pool.id(("mine", c)) for c in system.covered}
    top = pool.top
    clauses: list[list[int]] = []
    notes: tuple[str, ...] = ()
    for con in system.constraints:
        body, top = exactly([var[c] for c in con.cells], con.count, top=top)
        clauses.extend(body)
    if use_total and system.remaining is not None:
        total = MineTotal(list(var.values()), system.remaining, 0, top=top, defined=True)
        bounds = total.assumptions()
        clauses.extend(total.clauses)
        clauses.extend([[lit] for lit in bounds] if bounds is not None else [[]])
        top = total.top
        if not total.shiftable:
            notes = (UNDEFINED,)
    coords = position.geometry.coords
    return CNF(top, tuple(map(tuple, clauses)), notes), {coords(c): v for c, v in var.items()}


def format_dimacs(position: Position, *, use_total: bool = True) -> str:
    """The DIMACS text, with the variable map and a projection line in comments."""
    cnf, var = position_to_cnf(position, use_total=use_total)
    g = position.geometry
    comments = [
        f"mscsp position {g.width}x{g.height}, mines {position.mines if use_total else 'not used'}",
        "variable i is true when its cell holds a mine" + ("" if cnf.comments else "; every layout is exactly one model"),
        *cnf.comments,
    ]
    comments += [f"cell {v} {x} {y}" for (x, y), v in var.items()]
    comments.append("p show " + " ".join(str(v) for v in var.values()) + " 0")
    return CNF(cnf.variables, cnf.clauses, tuple(comments)).to_dimacs()
