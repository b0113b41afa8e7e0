"""DIMACS CNF export of a position, so outside SAT and #SAT solvers can check us.

Variable ``i`` (1-based) is the i-th covered cell in row order: true means a mine.
Each clue is an exact-k constraint in the binomial encoding (no auxiliary
variables), as the complete solver encodes it. The mine total, when known, is the
complete solver's own encoding (:class:`~mscsp.analysis.solvers.encoding.MineTotal`:
totalizers with defined outputs) over every covered cell, its bounds written as unit
clauses where the solver assumes them, while the totalizers stay within their size
limit (cells times mines). Past it the totalizers would grow with the product, so
the total becomes Batcher's odd-even merge sorting network (Batcher 1968, "Sorting
networks and their applications", AFIPS SJCC 32:307-314) over the cells, its
comparators written in full (each output the AND or the OR of its two inputs, as in
Eén and Sörensson 2006, "Translating pseudo-Boolean constraints into SAT", JSAT
2:1-26, with both directions of every implication): about ``n log2(n)^2 / 4``
comparators of six clauses for ``n`` cells, and every auxiliary variable defined by
the cells. Either way every layout consistent with the position is exactly one
model, so a plain model counter's answer is ``mscsp count``'s; a ``c p show`` line
names the cell variables for projected counters.

:func:`write_dimacs` streams the clauses through a temporary file, so an export of
a large board holds a few megabytes whatever its size, looks at its deadline as it
goes, and writes nothing when it runs out.

The first comment lines map variables to cells (``c cell VAR X Y``).
"""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Iterator
from typing import TextIO

from pysat.formula import IDPool

from ..analysis.constraints import build_constraints
from ..analysis.solvers.encoding import TOTALIZER_LIMIT, MineTotal, exactly
from ..budget import Budget
from ..position import Position
from .cnf import CNF

__all__ = ["position_to_cnf", "format_dimacs", "write_dimacs", "merge_sort_pairs"]

#: Said in the export when the total is a sorting network.
NETWORK = "the mine total is an odd-even merge sorting network whose auxiliary variables are defined by the cells"

#: Clauses written between two looks at the deadline.
_BATCH = 1 << 14


def merge_sort_pairs(n: int) -> Iterator[tuple[int, int]]:
    """The comparators of Batcher's odd-even merge sort on ``n`` wires, in order.

    Each ``(i, j)``, ``i < j``, puts the smaller value on wire ``i``; any ``n``, not
    only powers of two (the comparators that would reach past the last wire are left
    out, which sorts the same as padding with values larger than every input).

    Examples
    --------
    >>> list(merge_sort_pairs(3))
    [(0, 1), (0, 2), (1, 2)]
    >>> values = [3, 1, 2, 0]
    >>> for i, j in merge_sort_pairs(4):
    ...     values[i], values[j] = min(values[i], values[j]), max(values[i], values[j])
    >>> values
    [0, 1, 2, 3]
    """
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        yield i + j, i + j + k
            k //= 2
        p *= 2


def _network(lits: list[int], lower: int, upper: int, top: int, box: list[int]) -> Iterator[tuple[int, ...]]:
    """Clauses bounding ``lower <= sum(lits) <= upper`` through a sorting network whose
    comparators are written in full (each output defined by its inputs); the last
    variable used is left in ``box[0]``."""
    wires = list(lits)
    n = len(wires)
    for i, j in merge_sort_pairs(n):
        a, b = wires[i], wires[j]
        low, high = top + 1, top + 2
        top += 2
        yield (-low, a)
        yield (-low, b)
        yield (-a, -b, low)
        yield (-a, high)
        yield (-b, high)
        yield (a, b, -high)
        wires[i], wires[j] = low, high
    box[0] = top
    # sorted ascending: the last s wires are true when s cells hold mines
    if upper < 0 or lower > n:
        yield ()
        return
    if upper < n:
        yield (-wires[n - 1 - upper],)
    if lower > 0:
        yield (wires[n - lower],)


def _clauses(position: Position, use_total: bool,
             budget: Budget) -> tuple[Iterator[tuple[int, ...]], dict, list[int], tuple[str, ...]]:
    """The position's clauses (lazily), the cells' variables, a box that holds the
    highest variable once the clauses are spent, and the comments the encoding needs."""
    if not use_total:
        position = position.with_mines(None)
    system = build_constraints(position)
    budget.check_time("the DIMACS export")
    pool = IDPool()
    var = {c: pool.id(("mine", c)) for c in system.covered}
    box = [pool.top]
    lits = list(var.values())
    remaining = system.remaining if use_total else None

    def clues() -> Iterator[tuple[int, ...]]:
        for con in system.constraints:
            body, box[0] = exactly([var[c] for c in con.cells], con.count, top=box[0])
            yield from map(tuple, body)

    if remaining is None:
        return clues(), var, box, ()
    if MineTotal.size_of(len(lits), remaining, 0) <= TOTALIZER_LIMIT:
        def with_totalizers() -> Iterator[tuple[int, ...]]:
            yield from clues()
            total = MineTotal(lits, remaining, 0, top=box[0], defined=True)
            bounds = total.assumptions()
            box[0] = total.top
            yield from map(tuple, total.clauses)
            yield from ([(lit,) for lit in bounds] if bounds is not None else [()])

        return with_totalizers(), var, box, ()

    def with_network() -> Iterator[tuple[int, ...]]:
        yield from clues()
        yield from _network(lits, remaining, remaining, box[0], box)

    return with_network(), var, box, (NETWORK,)


def position_to_cnf(position: Position, *, use_total: bool = True) -> tuple[CNF, dict[tuple[int, int], int]]:
    """The position's formula and which variable each covered cell ``(x, y)`` is.

    The covered cells in row order are variables 1, 2, ... (named ``("mine", cell)``
    in a PySAT :class:`~pysat.formula.IDPool`); the encodings' auxiliary variables
    come after them. The formula is held in memory; :func:`write_dimacs` streams it.

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
    clauses, var, box, notes = _clauses(position, use_total, Budget(memory=None))
    body = tuple(clauses)
    coords = position.geometry.coords
    return CNF(box[0], body, notes), {coords(c): v for c, v in var.items()}


def write_dimacs(position: Position, out: TextIO, *, use_total: bool = True, budget: Budget | None = None) -> int:
    """Write the DIMACS text of the position to ``out``; return the clauses written.

    The clauses go to a temporary file first (the header needs their number), so the
    memory held stays small however large the formula, and ``out`` receives nothing
    unless the whole formula was made within ``budget``'s deadline.

    Raises
    ------
    InconsistentError
        For a first-order impossibility.
    BudgetExceeded
        When the deadline passes first (nothing is written).

    Examples
    --------
    >>> import io
    >>> from mscsp.position import parse_position
    >>> buffer = io.StringIO()
    >>> write_dimacs(parse_position(".1.\\n"), buffer, use_total=False)
    2
    >>> buffer.getvalue().splitlines()[-3:]
    ['p cnf 2 2', '-1 -2 0', '1 2 0']
    """
    budget = budget or Budget()
    clauses, var, box, notes = _clauses(position, use_total, budget)
    count = 0
    with tempfile.TemporaryFile("w+", encoding="ascii") as body:
        batch: list[str] = []
        for clause in clauses:
            batch.append(" ".join(map(str, clause)) + " 0" if clause else "0")
            if len(batch) == _BATCH:
                body.write("\n".join(batch) + "\n")
                count += len(batch)
                batch.clear()
                budget.check_time("the DIMACS export")
        if batch:
            body.write("\n".join(batch) + "\n")
            count += len(batch)
        budget.check_time("the DIMACS export")
        g = position.geometry
        comments = [
            f"mscsp position {g.width}x{g.height}, mines {position.mines if use_total else 'not used'}",
            "variable i is true when its cell holds a mine; every layout is exactly one model",
            *notes,
        ]
        comments += [f"cell {v} {x} {y}" for (x, y), v in ((g.coords(c), v) for c, v in var.items())]
        comments.append("p show " + " ".join(str(v) for v in var.values()) + " 0")
        out.write("".join(f"c {c}\n" for c in comments) + f"p cnf {box[0]} {count}\n")
        body.seek(0)
        shutil.copyfileobj(body, out, 1 << 20)
    return count


def format_dimacs(position: Position, *, use_total: bool = True) -> str:
    """The DIMACS text, with the variable map and a projection line in comments."""
    buffer = io.StringIO()
    write_dimacs(position, buffer, use_total=use_total)
    return buffer.getvalue()
