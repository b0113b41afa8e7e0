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
"""

from __future__ import annotations

from ..constraints import Constraint, ConstraintSystem

__all__ = ["single_clue_reasons", "pair_reason"]


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
