"""What one or two clues force on their own, in closed form.

Explaining a proven cell means finding a set of clues that forces it and from
which no clue can be dropped. Most cells of real play need one clue or two, and
whether one or two equations force a cell needs no search:

- one equation (``k`` mines among ``n`` cells) forces its cells exactly when
  ``k == 0`` (all safe) or ``k == n`` (all mines);
- two equations split their cells into the part only the first sees, the part
  they share and the part only the second sees; the mines in the shared part
  range over an interval of counts, and a cell is forced exactly when its part is
  empty, or full, at both ends of that interval (each part's count moves with the
  shared count in one direction).

The SAT engine asks these first and calls the solver only for larger sets.

Larger sets are found here too when the C search (``_reasons.c``) is built:
:func:`local_reasons` grows a set of equations outwards from the cell, a layer at a
time, until it forces the cell, then drops equations one by one while the cell
stays forced (deletion; Marques-Silva, "Minimal unsatisfiability: models,
algorithms and applications", ISMVL 2010). Whether a set forces the cell is
decided by a small backtracking search over the set's cells; sets of more than
256 cells, searches past their node budget and cells the clues alone do not force
are left to the SAT engine.
"""

from __future__ import annotations

import time
from array import array

from ...position import Position
from ..constraints import Constraint, ConstraintSystem

try:  # built where a C compiler is found; without it SAT shrinks every larger reason
    from . import _reasons
except ImportError:  # pragma: no cover - depends on the build
    _reasons = None

#: Whether the compiled search for reasons (``_reasons.c``) was built.
COMPILED = _reasons is not None

#: Search nodes one cell's reason may take in the compiled search before SAT is asked.
REASON_NODES = 20_000

#: Equations above which :func:`local_reasons` is not asked (flattening them would cost
#: more than the cores it saves on a compiled board).
LOCAL_EQUATIONS = 50_000

__all__ = ["COMPILED", "single_clue_reasons", "pair_reason", "local_reasons", "reasons_at_once", "total_reason",
           "REASON_NODES"]


def single_clue_reasons(system: ConstraintSystem) -> dict[int, tuple[int, bool]]:
    """The cells one clue forces on its own: cell -> (clue, mine).

    Such a clue alone is a minimal reason: without it no clue is left, and nothing
    is forced. Of several, the first in the system's order is taken.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> single_clue_reasons(build_constraints(parse_position("0..\\n.2.\\n")))
    {1: (0, False), 3: (0, False)}
    """
    out: dict[int, tuple[int, bool]] = {}
    for con in system.constraints:
        if con.count == 0 or con.count == len(con.cells):
            mine = con.count > 0
            for c in con.cells:
                out.setdefault(c, (con.clue, mine))
    return out


def pair_reason(system: ConstraintSystem, cell: int, mine: bool,
                cell_sets: dict[int, frozenset[int]]) -> tuple[int, int] | None:
    """Two equations (indices into ``system.constraints``) that alone force ``cell``
    to be ``mine``, or None: one through the cell and one sharing a cell with it,
    tried in the system's order. ``cell_sets`` caches each equation's cells.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> s = build_constraints(parse_position("-12-\\n....\\n"))  # a 1-2: [3,1] is a mine
    >>> pair_reason(s, 7, True, {}), pair_reason(s, 5, True, {})
    ((0, 1), None)
    """
    constraints, by_cell = system.constraints, system.by_cell

    def cells_of(e: int) -> frozenset[int]:
        found = cell_sets.get(e)
        if found is None:
            found = cell_sets[e] = frozenset(constraints[e].cells)
        return found

    tried: set[tuple[int, int]] = set()
    for a in by_cell.get(cell, ()):
        in_a = cells_of(a)
        for x in constraints[a].cells:
            for b in by_cell[x]:
                pair = (a, b) if a < b else (b, a)
                if b == a or pair in tried:
                    continue
                tried.add(pair)
                if _two(constraints[a], in_a, constraints[b], cells_of(b), cell) is mine:
                    return pair
    return None


def _two(a: Constraint, in_a: frozenset[int], b: Constraint, in_b: frozenset[int], cell: int) -> bool | None:
    """What the equations ``a`` and ``b`` (with their cells as sets) force on ``cell``."""
    n_shared = len(in_a & in_b)
    n_a, n_b = len(in_a) - n_shared, len(in_b) - n_shared  # the parts only one of them sees
    lo = max(0, a.count - n_a, b.count - n_b)  # mines in the shared part: lo..hi
    hi = min(n_shared, a.count, b.count)
    if lo > hi:
        return None
    if cell in in_a and cell in in_b:
        low, high, size = lo, hi, n_shared
    elif cell in in_a:  # a's own part holds a.count - shared mines: most at lo, fewest at hi
        low, high, size = a.count - hi, a.count - lo, n_a
    elif cell in in_b:
        low, high, size = b.count - hi, b.count - lo, n_b
    else:
        return None
    if high == 0:
        return False
    if low == size:
        return True
    return None


def local_reasons(system: ConstraintSystem, asked: dict[int, bool], deadline: float,
                  node_limit: int = REASON_NODES, *, use_total: bool = False, by_clue: bool = False,
                  ) -> dict[int, tuple[tuple[int, ...], bool] | bool | None]:
    """Minimal reasons by the compiled search.

    ``asked`` maps covered cells to what they are proven to be, True for a mine. Each
    gets ``(equations, uses_total)``: indices into ``system.constraints`` that force
    it, from which none can be dropped, and whether the mine total is part of the
    reason (only when the clues alone do not force the cell, and only with
    ``use_total`` and a known total: then every equation and the total are searched
    together, and the frontier must fit the search's 256 cells). A cell that one
    equation forces takes the first such equation alone; a cell in exactly the
    equations of a cell asked before it, with the same value, takes that cell's
    answer (the two are interchangeable); a cell in no equation takes
    :func:`total_reason`'s equations with ``uses_total`` True (found once for each
    value). False when the clues alone do not force it and the total is not used;
    None when the search did not finish (more than 256 cells, ``node_limit`` nodes,
    or ``deadline`` on the ``time.perf_counter`` clock): the caller then asks SAT.
    With ``by_clue`` a reason names its equations by their clues (flat indices of the
    numbers), ascending, as the solvers' answers do; cells with the same reason
    share one answer object.
    Without the compiled search, or on a system of more than
    :data:`LOCAL_EQUATIONS` equations, every cell gets None.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> s = build_constraints(parse_position("-121-\\n.....\\n"))  # a 1-2-1: mines under the 1s
    >>> found = local_reasons(s, {6: True, 7: False}, float("inf"))  # [1,1] a mine, [2,1] safe
    >>> {c: sorted(r[0]) for c, r in found.items()} if COMPILED else "needs _reasons.c"  # the 2 and a 1; all three
    {6: [1, 2], 7: [0, 1, 2]}
    >>> s = build_constraints(parse_position("mines: 1\\n.1..\\n"))  # one mine, and it is next to the 1
    >>> local_reasons(s, {3: False}, float("inf")), local_reasons(s, {3: False}, float("inf"), use_total=True)
    ({3: False}, {3: ((0,), True)})
    >>> local_reasons(s, {3: False}, float("inf"), use_total=True, by_clue=True)  # the 1 is at [1,0]
    {3: ((1,), True)}
    """
    if _reasons is None or not asked or system.size > LOCAL_EQUATIONS:
        return dict.fromkeys(asked)
    remaining = system.remaining if use_total and system.remaining is not None else -1
    cells = list(asked)
    names = array("i", [con.clue for con in system.constraints]) if by_clue else None
    found = _reasons.reasons(*_flat(system), array("i", cells), bytes([bool(asked[c]) for c in cells]),
                             remaining, len(system.covered), node_limit, max(0.0, deadline - time.perf_counter()),
                             names)
    return dict(zip(cells, found))


def reasons_at_once(position: Position, found: tuple, known: dict[int, bool], deadline: float, *,
                    use_total: bool, node_limit: int = REASON_NODES) -> dict[int, tuple[tuple[int, ...], bool]] | None:
    """:func:`local_reasons` by clue, on the equations as
    :func:`~mscsp.analysis.constraints.read_equations` reads them (``found``), for a
    caller that has no system and needs none when the compiled search answers: the
    same answers, in ascending order of cell, when it answers every cell of ``known``
    (with the total when ``use_total`` and the position has one), else None (and
    the caller makes the system and asks :meth:`~mscsp.analysis.solvers.sat.SatEngine.explain`).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints, read_equations
    >>> position = parse_position("mines: 1\\n.1..\\n")
    >>> found = read_equations(position)
    >>> at_once = None if found is None else reasons_at_once(position, found, {3: False}, float("inf"), use_total=True)
    >>> at_once is None or at_once == local_reasons(build_constraints(position), {3: False}, float("inf"),
    ...                                              use_total=True, by_clue=True)
    True
    """
    if not known:
        return {}
    equations, covered, flags, csr = found
    if _reasons is None or len(equations) > LOCAL_EQUATIONS:
        return None
    remaining = position.mines - flags if use_total and position.mines is not None else -1
    cells = sorted(known)
    got = _reasons.reasons(*csr, len(position.grid), array("i", cells), bytes([bool(known[c]) for c in cells]),
                           remaining, len(covered), node_limit, max(0.0, deadline - time.perf_counter()),
                           array("i", [e[2] for e in equations]))
    return dict(zip(cells, got)) if all(got) else None


def total_reason(system: ConstraintSystem, mine: bool, deadline: float,
                 node_limit: int = REASON_NODES) -> tuple[int, ...] | bool | None:
    """A minimal reason, by the compiled search, for the cells away from the clues when
    the total forces them (all alike: ``mine`` says which way).

    With ``u`` such cells, one of them can be safe only if the frontier holds at least
    ``remaining - u + 1`` mines, and a mine only if it holds at most ``remaining - 1``;
    they are forced when that bound holds no layout. The reason is a set of equations (indices into
    ``system.constraints``) under which that shifted bound holds no layout, from which
    none can be dropped. False when every equation together allows it (the cells are
    not forced); None without the compiled search or a total, past 256 frontier cells,
    ``node_limit`` nodes or ``deadline``.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> s = build_constraints(parse_position("mines: 1\\n.1..\\n...-\\n"))  # the 1 holds the only mine
    >>> total_reason(s, False, float("inf")) if COMPILED else (0,)
    (0,)
    """
    if _reasons is None or system.remaining is None or system.size > LOCAL_EQUATIONS:
        return None
    return _reasons.total_reason(*_flat(system), system.remaining, len(system.covered), mine, node_limit,
                                 max(0.0, deadline - time.perf_counter()))


def _flat(system: ConstraintSystem) -> tuple[bytes, bytes, bytes, int]:
    """The equations as the compiled search reads them (:attr:`ConstraintSystem.csr`),
    and the number of flat indices."""
    return (*system.csr, len(system.position.grid))
