"""From a position to linear constraints over covered cells.

Every revealed number becomes one equation: among its covered, unflagged neighbours
there are exactly ``number - adjacent flags`` mines (flags are taken as mines). Cells
that touch no clue form the unconstrained remainder; when the mine total is known it
adds one more equation over all covered cells. The clue equations split into
connected components (two clues connect when they share a cell), which the solvers
and counters treat independently except through the total.

This layer sees only cells and equations, never grid geometry beyond the neighbour
function, so holes and irregular boards cost nothing. The formulation is the usual
one (see minesweepr's "supercells and fronts" and JSMinesweeper's witnesses); the
local impossibilities it rejects are the first-order ones of the solver tutorials:
a remainder below zero or above the number of unknown neighbours.

One module, not several: the derived systems (a click away, flags added, cells fixed)
rebuild only what changes of the system's internal tables, and the parity forest merges
its chains of links; all of them write the same private structures.
"""

from __future__ import annotations

import gc
import threading
from array import array
from collections import Counter
from bisect import bisect_left
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import chain, filterfalse
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from ..budget import Budget
from ..errors import Clash, InconsistentError
from ..position import Position
from .words import clash_text

try:
    from . import _forest
except ImportError:  # pragma: no cover - exercised only where no C compiler was found
    _forest = None
try:
    from . import _equations as _compiled_equations
except ImportError:  # pragma: no cover - exercised only where no C compiler was found
    _compiled_equations = None

__all__ = ["Constraint", "ConstraintSystem", "TabledSystem", "ParityForest", "is_link", "build_constraints", "opened_system",
           "conditioned_system", "flagged_system", "unite", "bulk", "COMPILED_FOREST", "COMPILED_EQUATIONS",
           "ARRAY_EQUATIONS"]

#: Whether the compiled union-find (``_forest.c``) was built; :func:`unite` is the same
#: without it, one Python call per pair.
COMPILED_FOREST = _forest is not None

#: Whether the compiled reading of a position's equations (``_equations.c``) was built;
#: :func:`build_constraints` makes the same equations with NumPy without it (and on
#: boards too large to table their neighbours, and wherever a number cannot be met).
COMPILED_EQUATIONS = _compiled_equations is not None

#: From this many equations on, components and chains of links are found over arrays
#: (one compiled union-find) rather than clue by clue, with the same result: below it
#: the arrays cost more than they save (a player's position has tens of equations, a
#: compiled board hundreds of thousands).
ARRAY_EQUATIONS = 2000

#: How many systems each entry point has made ("build" for :func:`build_constraints`,
#: "opened", "flagged", "conditioned" for those derived from another system): read by
#: the tests that check a caller builds its position's equations once.
_BUILDS: Counter = Counter()

#: Each component counted, by the mines left, its cells and its equations ("quick"
#: for the compiled quick path, which keeps none), while a test keeps a Counter here
#: (None otherwise, so that a long run keeps no keys).
_COUNTED: Counter | None = None


def _note_count(remaining: int | None, cells, equations) -> None:
    """One component counted: for the tests that check that none is counted twice."""
    if _COUNTED is not None:
        _COUNTED[remaining, tuple(sorted(cells)), equations] += 1


def _note_component(system: "ConstraintSystem", component: tuple[int, ...]) -> None:
    """:func:`_note_count` for a component of ``system``."""
    if _COUNTED is not None:
        _note_count(system.remaining, system.component_cells(component),
                    tuple(system.equation(e) for e in component))


class Constraint(NamedTuple):
    """``count`` mines among ``cells`` (ascending flat indices of covered cells).

    ``clue`` is the flat index of the number the equation comes from. (A named
    tuple: compiled boards have hundreds of thousands of them.)
    """

    cells: tuple[int, ...]
    count: int
    clue: int


@dataclass(frozen=True, eq=False)
class ConstraintSystem:
    """The equations of a position.

    Attributes
    ----------
    position : Position
    constraints : tuple of Constraint
        One per revealed number that touches a covered cell, in cell order.
    covered : tuple of int
        Every covered, unflagged cell.
    remaining : int or None
        Mines not flagged, when the total is known.
    """

    position: Position
    constraints: tuple[Constraint, ...]
    covered: tuple[int, ...]
    remaining: int | None

    @property
    def size(self) -> int:
        """How many equations there are."""
        return len(self.constraints)

    def equation(self, i: int) -> Constraint:
        """Equation ``i`` (``constraints[i]``)."""
        return self.constraints[i]

    def equation_of(self, clue: int) -> Constraint | None:
        """The equation of the number at flat index ``clue``, if it has one."""
        return self.by_clue.get(clue)

    def clues_of(self, eq_ids) -> tuple[int, ...]:
        """The clues of the equations ``eq_ids``, ascending."""
        return tuple(sorted(self.constraints[e].clue for e in eq_ids))

    @cached_property
    def frontier(self) -> tuple[int, ...]:
        """Covered cells that touch at least one clue, ascending."""
        if self.size >= ARRAY_EQUATIONS:
            return self._cells_of(self.table[0])
        return tuple(sorted(set(chain.from_iterable(map(attrgetter("cells"), self.constraints)))))

    def _cells_of(self, rows: np.ndarray) -> tuple[int, ...]:
        """The cells in rows of :attr:`table`, ascending (marked on the board, not sorted)."""
        seen = np.zeros(self.position.geometry.area + 1, dtype=bool)
        seen[rows] = True  # the padding, -1, marks the spare last entry
        return tuple(np.flatnonzero(seen[:-1]).tolist())

    @cached_property
    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The equations as arrays: ``cells`` (one row per equation, its cells ascending,
        padded with -1 to the widest), ``counts`` and ``clues``. A huge board's are made
        by :func:`build_constraints` first, and its equations from them when asked for.
        """
        width = max((len(con.cells) for con in self.constraints), default=0)
        cells = np.full((len(self.constraints), width), -1, dtype=np.int64)
        for i, con in enumerate(self.constraints):
            cells[i, : len(con.cells)] = con.cells
        m = len(self.constraints)
        return (cells, np.fromiter((con.count for con in self.constraints), dtype=np.int64, count=m),
                np.fromiter((con.clue for con in self.constraints), dtype=np.int64, count=m))

    @cached_property
    def csr(self) -> tuple[bytes, bytes, bytes]:
        """The equations as the compiled searches read them: int32 offsets (one more
        than the equations) into their cells, the cells, and the counts, as bytes.
        (The compiled reading of a position gives them with the equations.)

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> s = build_constraints(parse_position("-1-2\\n....\\n"))
        >>> [array("i", part).tolist() for part in s.csr]
        [[0, 3, 5], [4, 5, 6, 6, 7], [1, 2]]
        """
        ptr, flat = array("i", [0]), array("i")
        for con in self.constraints:
            flat.extend(con.cells)
            ptr.append(len(flat))
        return ptr.tobytes(), flat.tobytes(), array("i", [con.count for con in self.constraints]).tobytes()

    @cached_property
    def unconstrained(self) -> tuple[int, ...]:
        """Covered cells that touch no clue, ascending."""
        return tuple(filterfalse(set(self.frontier).__contains__, self.covered))

    @cached_property
    def by_cell(self) -> dict[int, list[int]]:
        """For each frontier cell, the indices of the constraints on it."""
        out: dict[int, list[int]] = {}
        for i, con in enumerate(self.constraints):
            for c in con.cells:
                out.setdefault(c, []).append(i)
        return out

    @cached_property
    def by_clue(self) -> dict[int, Constraint]:
        """The equation of each clue (flat index of the number) that has one."""
        return {con.clue: con for con in self.constraints}

    @cached_property
    def components(self) -> tuple[tuple[int, ...], ...]:
        """Groups of constraint indices connected through shared cells.

        Ordered by the smallest cell of their first equation, so the order does not
        depend on dict order.
        """
        if self.size >= ARRAY_EQUATIONS:
            return self._array_components()
        parent = list(range(len(self.constraints)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for idx in self.by_cell.values():
            root = find(idx[0])
            for j in idx[1:]:
                rj = find(j)
                if rj != root:
                    parent[rj] = root
        groups: dict[int, list[int]] = {}
        for i in range(len(self.constraints)):
            groups.setdefault(find(i), []).append(i)
        comps = sorted(groups.values(), key=lambda g: min(self.constraints[g[0]].cells))
        return tuple(tuple(g) for g in comps)

    def _array_components(self) -> tuple[tuple[int, ...], ...]:
        """:attr:`components` from :attr:`table`: the equations that share a cell
        are joined pairwise by one :func:`unite` call, then grouped by root."""
        cells = self.table[0]
        m = len(cells)
        eq = np.repeat(np.arange(m, dtype=np.int64), cells.shape[1])
        flat = cells.ravel()
        keep = flat >= 0
        eq, flat = eq[keep], flat[keep]
        order = np.lexsort((eq, flat))  # by cell, then equation
        eq, flat = eq[order], flat[order]
        same = flat[1:] == flat[:-1]  # consecutive equations on one cell
        roots, _, _ = unite(m, eq[:-1][same], eq[1:][same])
        by_root = np.argsort(roots, kind="stable")  # each group's equations ascending
        bounds = np.flatnonzero(np.diff(roots[by_root])) + 1
        groups = np.split(by_root, bounds) if m else []
        # a row's cells are ascending, so its first is its smallest
        groups.sort(key=lambda g: int(cells[g[0], 0]))
        return tuple(tuple(g.tolist()) for g in groups)

    def component_cells(self, component: tuple[int, ...]) -> tuple[int, ...]:
        """The cells of a component, ascending."""
        if len(component) >= ARRAY_EQUATIONS:
            return self._cells_of(self.table[0][np.asarray(component, dtype=np.int64)])
        return tuple(sorted({c for i in component for c in self.constraints[i].cells}))


class TabledSystem(ConstraintSystem):
    """A system of many equations kept as arrays (:attr:`~ConstraintSystem.table`),
    each made into a :class:`Constraint` only when asked for: deciding a compiled
    board reads a few thousand of its hundreds of thousands of equations one by one
    and the rest through the arrays, and making them all took a third of its time.
    ``constraints`` is made whole on first use, and is then the same tuple as
    :func:`build_constraints` would have made; from then on, or when it is given (as
    ``dataclasses.replace`` gives it), the system answers as a plain one.
    """

    def __init__(self, position: Position, constraints: tuple[Constraint, ...] | None, covered: tuple[int, ...],
                 remaining: int | None, table: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None):
        if (constraints is None) == (table is None):
            raise ValueError("a tabled system is made from its table or from its equations, one of them")
        fields = {"position": position, "covered": covered, "remaining": remaining}
        fields.update({"table": table} if constraints is None else {"constraints": constraints})
        for name, value in fields.items():
            object.__setattr__(self, name, value)  # frozen; a missing ``constraints`` is left to the property

    @cached_property
    def constraints(self) -> tuple[Constraint, ...]:  # type: ignore[override]
        cells, counts, clues = self.table
        with bulk():
            return _equations(cells, (cells >= 0).sum(axis=1), counts, clues)

    @property
    def _made(self) -> bool:
        return "constraints" in self.__dict__

    @property
    def size(self) -> int:
        return super().size if self._made else len(self.table[1])

    def equation(self, i: int) -> Constraint:
        if self._made:
            return self.constraints[i]
        cells, counts, clues = self.table
        row = cells[i]
        return Constraint(tuple(row[row >= 0].tolist()), int(counts[i]), int(clues[i]))

    def equation_of(self, clue: int) -> Constraint | None:
        if self._made:
            return super().equation_of(clue)
        clues = self.table[2]  # ascending: build_constraints reads the numbers in cell order
        i = int(np.searchsorted(clues, clue))
        return self.equation(i) if i < len(clues) and clues[i] == clue else None

    def clues_of(self, eq_ids) -> tuple[int, ...]:
        if self._made:
            return super().clues_of(eq_ids)
        return tuple(np.sort(self.table[2][np.asarray(eq_ids, dtype=np.int64)]).tolist())


def opened_system(system: ConstraintSystem, position: Position, cell: int) -> ConstraintSystem:
    """The equations of ``position``, which is ``system``'s position with the covered
    ``cell`` opened, made from ``system``'s: ``cell`` leaves the equations it was in
    (it is safe, so their counts stay) and its number adds one. The same system as
    :func:`build_constraints` makes, at a fraction of the cost (a look-ahead makes
    one for every number each candidate can show).

    Raises
    ------
    InconsistentError
        As :func:`build_constraints` would (it is asked, for its sentence).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 2\\n.1..\\n....\\n")
    >>> opened_system(build_constraints(pos), pos._opened_index(2, 2), 2).constraints
    (Constraint(cells=(0, 4, 5, 6), count=1, clue=1), Constraint(cells=(3, 5, 6, 7), count=2, clue=2))
    """
    _BUILDS["opened"] += 1
    g = position.geometry
    grid = position.grid
    around = g.neighbours(cell)
    cells = tuple(n for n in around if grid[n] == -1)  # Mark.COVERED
    count = int(grid[cell]) - sum(1 for n in around if grid[n] == -2)  # Mark.FLAG
    constraints = _leave(system, (cell,), mines=False)
    if constraints is None or not 0 <= count <= len(cells):
        return build_constraints(position)  # a clash: its sentence is made there
    if cells or count:
        constraints.insert(bisect_left(constraints, cell, key=_clue), Constraint(cells, count, cell))
    after = _derived(system, position, constraints, (cell,), system.remaining, joined=cells)
    return build_constraints(position) if after is None else after


def flagged_system(system: ConstraintSystem, position: Position, cells: tuple[int, ...]) -> ConstraintSystem:
    """The equations of ``position``, which is ``system``'s position with the covered
    ``cells`` flagged, made from ``system``'s: each flag leaves its equations and takes
    one from their counts, and one from the mines left. The same system as
    :func:`build_constraints` makes (an exact count of layouts with some cells mines
    asks for one such system per set of cells). A flag that leaves a clue fewer
    mines than none, or more than room, raises the InconsistentError of
    :func:`build_constraints`, which is asked for its sentence.

    >>> from mscsp.position import parse_position
    >>> before = parse_position("mines: 3\\n1...\\n")
    >>> after = flagged_system(build_constraints(before), before._with_flags_index((1,)), (1,))
    >>> after.constraints, after.remaining, after.unconstrained
    ((), 2, (2, 3))
    """
    _BUILDS["flagged"] += 1
    gone = tuple(sorted(set(cells)))
    constraints = _leave(system, gone, mines=True)
    remaining = None if system.remaining is None else system.remaining - len(gone)
    after = None if constraints is None else _derived(system, position, constraints, gone, remaining)
    return build_constraints(position) if after is None else after


def conditioned_system(system: ConstraintSystem, mines: tuple[int, ...], safes: tuple[int, ...]) -> ConstraintSystem | None:
    """``system`` with its covered cells ``mines`` taken as mines and ``safes`` as safe:
    both leave the equations (a mine takes one from each count it was in, and one from
    the mines left) and the covered cells, so its layouts are exactly ``system``'s
    layouts with those values there. None when no layout can have them (a clue left
    with fewer mines than none or more than its cells, or the mines left not fitting).
    The system keeps ``system``'s position, which still shows the cells covered: it is
    for counting, which reads the equations only.

    >>> from mscsp.position import parse_position
    >>> s = conditioned_system(build_constraints(parse_position("mines: 2\\n1...\\n")), (1,), (2,))
    >>> s.constraints, s.remaining, s.unconstrained
    ((), 1, (3,))
    >>> conditioned_system(build_constraints(parse_position("mines: 2\\n1...\\n")), (), (1,)) is None  # the 1 has no mine
    True
    """
    _BUILDS["conditioned"] += 1
    gone = tuple(sorted(set(mines) | set(safes)))
    constraints = _leave(system, gone, mines=mines)
    remaining = None if system.remaining is None else system.remaining - len(set(mines))
    return None if constraints is None else _derived(system, system.position, constraints, gone, remaining)


def _leave(system: ConstraintSystem, cells: tuple[int, ...], *, mines) -> list[Constraint] | None:
    """``system``'s equations with ``cells`` taken out of them, each taking one from
    the counts of its equations when ``mines`` (True: every cell; or the cells of
    ``mines`` that are mines); None when a clue is left with fewer mines than none
    or more than its cells (a clash)."""
    gone = set(cells)
    mined = gone if mines is True else set(mines or ())
    constraints: list[Constraint | None] = list(system.constraints)
    for i in {i for c in cells for i in system.by_cell.get(c, ())}:
        con = constraints[i]
        rest = tuple(c for c in con.cells if c not in gone)
        count = con.count - sum(1 for c in con.cells if c in mined) if mined else con.count
        if not 0 <= count <= len(rest):
            return None
        constraints[i] = Constraint(rest, count, con.clue) if rest else None
    return [con for con in constraints if con is not None]


def _derived(system: ConstraintSystem, position: Position, constraints: list[Constraint], gone: tuple[int, ...],
             remaining: int | None, joined: tuple[int, ...] = ()) -> ConstraintSystem | None:
    """The system of ``position`` from ``system``'s equations changed as given: the
    ascending ``gone`` cells no longer covered, the ``joined`` ones newly next to a
    number; the frontier and the cells away from it carried over when ``system``
    has them. None when a cell of ``gone`` was not covered or the mines left do not
    fit (a clash)."""
    covered = _without(system.covered, gone)
    if len(covered) != len(system.covered) - len(gone) or (
            remaining is not None and not 0 <= remaining <= len(covered)):
        return None
    after = ConstraintSystem(position, tuple(constraints), covered, remaining)
    known = system.__dict__
    if "frontier" in known:  # the cells gone leave the frontier, the joined ones enter it
        frontier = _without(system.frontier, gone)
        after.__dict__["frontier"] = tuple(sorted(set(frontier).union(joined))) if joined else frontier
        if "unconstrained" in known:
            after.__dict__["unconstrained"] = _without(system.unconstrained, gone + joined)
    return after


def _without(ascending: tuple[int, ...], cells: tuple[int, ...]) -> tuple[int, ...]:
    """An ascending tuple with ``cells`` taken out where they occur (a cut per cell,
    not a pass over the whole tuple)."""
    out = ascending
    for c in cells:
        i = bisect_left(out, c)
        if i < len(out) and out[i] == c:
            out = out[:i] + out[i + 1:]
    return out


_clue = attrgetter("clue")

class ParityForest:
    """Which cells are equal and which are each other's negation, as a union–find.

    A clue touching exactly two covered cells and needing one mine — a *link* —
    says one cell is the negation of the other; chains of links (the wires of
    Kaye-compiled boards, long ``1-1`` borders of real play) put whole sets of cells
    in one class. Each cell stores the parity of its path to its class's root, so
    ``find`` gives the root and whether the cell equals it or its negation (path
    halving keeps chains short). Both the SAT solver and the counter merge links
    through this one structure.

    Examples
    --------
    >>> f = ParityForest(3)
    >>> f.union(0, 1, True), f.union(1, 2, True)  # cell 0 = not 1, 1 = not 2
    (True, True)
    >>> f.find(2) == (f.find(0)[0], 0)  # so 2 = 0
    True
    >>> f.union(0, 2, True)  # 0 = not 2 contradicts it
    False
    """

    def __init__(self, n: int):
        self.parent = list(range(n))
        self.parity = [0] * n

    def find(self, i: int) -> tuple[int, int]:
        """The root of ``i``'s class and the parity of ``i`` against it."""
        parent, parity = self.parent, self.parity
        p = 0
        while parent[i] != i:
            j = parent[i]
            if parent[j] != j:  # halve: point i at its grandparent
                parity[i] ^= parity[j]
                parent[i] = parent[j]
            p ^= parity[i]
            i = parent[i]
        return i, p

    def union(self, a: int, b: int, odd: bool) -> bool:
        """Record ``value(a) XOR value(b) == odd``; False when the classes already
        say otherwise (an odd cycle of links), True when it is new or implied."""
        ra, pa = self.find(a)
        rb, pb = self.find(b)
        if ra == rb:
            return (pa ^ pb) == int(odd)
        self.parent[rb] = ra
        self.parity[rb] = pa ^ pb ^ int(odd)
        return True

    def same(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are in one class."""
        return self.find(a)[0] == self.find(b)[0]

    @classmethod
    def from_roots(cls, roots: np.ndarray, parities: np.ndarray) -> "ParityForest":
        """The forest in which each element hangs straight from its root with its
        parity, as :func:`unite` returns them."""
        forest = cls(0)
        forest.parent = roots.tolist()
        forest.parity = parities.tolist()
        return forest

    def resolved(self) -> tuple[np.ndarray, np.ndarray]:
        """Every element's root and parity against it, as arrays (pointer jumping:
        a few passes over the whole forest rather than one find per element)."""
        parent = np.asarray(self.parent, dtype=np.int64)
        parity = np.asarray(self.parity, dtype=np.uint8)
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                return parent, parity
            parity = parity ^ parity[parent]  # against the grandparent now
            parent = up


def unite(n: int, a: np.ndarray, b: np.ndarray, odd: np.ndarray | None = None,
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Union–find with parity over many pairs: ``value(a[k]) XOR value(b[k]) == odd[k]``
    (``odd`` all 0 by default: plain connected components), in order.

    The same as ``ParityForest(n).union`` called pair by pair, in compiled code where
    it was built: every class gets the root the Python class would give it.

    Returns
    -------
    roots : ndarray of int64
        Each element's root.
    parities : ndarray of uint8
        Each element's parity against its root.
    clashes : ndarray of bool
        Per pair, whether the classes already said otherwise (an odd cycle).

    Examples
    --------
    >>> roots, parities, clashes = unite(4, np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1, 1, 1]))
    >>> roots.tolist(), parities.tolist(), clashes.tolist()  # 0 = not 1 = 2, so 0 = not 2 clashes
    ([0, 0, 0, 3], [0, 1, 0, 0], [False, False, True])
    """
    a = np.ascontiguousarray(a, dtype=np.int64)
    b = np.ascontiguousarray(b, dtype=np.int64)
    odd = np.zeros(len(a), dtype=np.uint8) if odd is None else np.ascontiguousarray(odd, dtype=np.uint8)
    if _forest is not None:
        roots, parities, clashes = _forest.unite(n, a, b, odd)
        return (np.frombuffer(roots, dtype=np.int64), np.frombuffer(parities, dtype=np.uint8),
                np.frombuffer(clashes, dtype=np.uint8).astype(bool))
    forest = ParityForest(n)
    clashes = np.array([not forest.union(x, y, bool(o)) for x, y, o in zip(a.tolist(), b.tolist(), odd.tolist())],
                       dtype=bool)
    roots, parities = forest.resolved()
    return roots, parities, clashes


def is_link(constraint: "Constraint") -> bool:
    """A clue that makes its two covered cells each other's negation."""
    return len(constraint.cells) == 2 and constraint.count == 1


_paused = 0  # how many bulk() blocks are running
_resume = False  # whether the collector ran when the first of them began
_paused_lock = threading.Lock()


@contextmanager
def bulk():
    """Pause Python's cyclic garbage collector while hundreds of thousands of small
    objects are made (the equations of a compiled board, their encodings): none of them
    is part of a cycle, and each collection pass would walk all the ones made before,
    which took a third of the time of deciding such a board. Nested and threaded uses
    share one pause; the collector runs again when the last of them ends (if it ran before).
    """
    global _paused, _resume
    with _paused_lock:
        if _paused == 0:
            _resume = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0 and _resume:
                gc.enable()


#: A Constraint from a ``(cells, count, clue)`` tuple, made in C (``Constraint._make``
#: is a Python function around the same call).
_constraint = partial(tuple.__new__, Constraint)


def _equations(cells: np.ndarray, sizes: np.ndarray, counts: np.ndarray, clues: np.ndarray) -> tuple[Constraint, ...]:
    """Equations from arrays: row ``i`` of ``cells`` holds equation ``i``'s cells
    ascending in its first ``sizes[i]`` entries (padding after them)."""
    return tuple(map(Constraint._make, zip([tuple(row[:n]) for row, n in zip(cells.tolist(), sizes.tolist())],
                                           counts.tolist(), clues.tolist())))


def read_equations(position: Position) -> tuple | None:
    """The compiled reading of a position's equations, before they are made into a
    system: ``(equations, covered, flags, csr)``, each equation a ``(cells, count,
    clue)`` tuple, ``csr`` as :attr:`ConstraintSystem.csr`. None where
    :func:`build_constraints` reads them otherwise: without the compiled module or a
    neighbour table, where a number clashes, or past :data:`ARRAY_EQUATIONS`
    equations. :func:`system_of` makes the system :func:`build_constraints` would
    (a caller that needs only the flat form, the compiled search for reasons, makes
    no system). Counts as one build of the position's equations.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> position = parse_position("mines: 2\\n.1.\\nF2.\\n")
    >>> found = read_equations(position)
    >>> found is None or (found[0], found[1:3]) == ([((0, 2, 5), 0, 1), ((0, 2, 5), 1, 4)], ((0, 2, 5), 1))
    True
    """
    _BUILDS["build"] += 1
    g = position.geometry
    if _compiled_equations is None or g.neighbour_table is None:
        return None
    found = _compiled_equations.equations(position.grid, g.neighbour_table)  # None where a number clashes
    return found if found is not None and len(found[0]) < ARRAY_EQUATIONS else None


def system_of(position: Position, found: tuple) -> ConstraintSystem:
    """The system of :func:`read_equations`'s ``found``: the one :func:`build_constraints`
    makes (and raises as it does when the total cannot be met)."""
    equations, covered_cells, flags, csr = found
    system = _with_total(position, tuple(map(_constraint, equations)), None, covered_cells, flags)
    system.__dict__["csr"] = csr  # what the cached property would make, made in the same pass
    return system


def build_constraints(position: Position, *, limits: Budget | None = None) -> ConstraintSystem:
    """The clue equations of a position, rejecting first-order impossibilities.

    Raises
    ------
    InconsistentError
        When a clue's remainder is negative or exceeds its covered neighbours, or the
        mine total is below the flags or above flags plus covered cells; the error
        carries the clue and a sentence saying what cannot be true.
    BudgetExceeded
        When ``limits`` run out while the equations of a huge board are made.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> s = build_constraints(parse_position("mines: 2\\n.1.\\nF2.\\n"))
    >>> [(c.cells, c.count, c.clue) for c in s.constraints]
    [((0, 2, 5), 0, 1), ((0, 2, 5), 1, 4)]
    >>> s.remaining, s.unconstrained
    (1, ())
    """
    found = read_equations(position)
    if found is not None:
        return system_of(position, found)
    g = position.geometry
    covered = position.covered
    flagged = position.flagged
    # gather over the neighbourhoods of open cells only: a frontier is a small
    # part of a board, and one fancy index replaces eight shifted copies of it
    open_cells = np.flatnonzero(position.revealed)
    rows = g.neighbour_rows(open_cells)
    is_covered = np.append(covered, False)[rows]
    n_covered = is_covered.sum(axis=1)
    n_flags = np.append(flagged, False)[rows].sum(axis=1)
    remainder = position.grid[open_cells].astype(np.int16) - n_flags
    keep = (n_covered > 0) | (remainder != 0)
    relevant, bad, unknown_all = open_cells[keep], remainder[keep], n_covered[keep]
    clash = np.flatnonzero((bad < 0) | (bad > unknown_all))
    if clash.size:
        k = int(clash[0])
        clue, rem, unknown = int(relevant[k]), int(bad[k]), int(unknown_all[k])
        flags_here = int(n_flags[keep][k])
        kind = Clash.OVERFLAGGED if rem < 0 else Clash.UNDERCOVERED
        raise InconsistentError(clash_text(position, kind, clue=clue, flags=flags_here, covered=unknown), (clue,),
                                clash=kind)
    # each row's covered neighbours, ascending, then the padding (the largest value):
    # a row's first n_covered entries are its cells, cut by a slice, not a filter
    cells_first = np.sort(np.where(is_covered[keep], rows[keep], g.area), axis=1)
    if len(relevant) < ARRAY_EQUATIONS:
        constraints = _equations(cells_first, unknown_all, bad, relevant)
    else:  # a huge board: the arrays now, each equation when it is asked for
        if limits is not None:
            limits.check("reading the clues")
        table = (np.where(cells_first < g.area, cells_first, -1).astype(np.int64), bad.astype(np.int64),
                 relevant.astype(np.int64))
    if len(relevant) < ARRAY_EQUATIONS:
        return _with_total(position, constraints, None)
    return _with_total(position, None, table)


def _with_total(position: Position, constraints: tuple[Constraint, ...] | None, table,
                covered_cells: tuple[int, ...] | None = None, flags: int | None = None) -> ConstraintSystem:
    """The system of ``constraints`` (or, on a huge board, of its ``table`` of arrays),
    with the mines the total leaves, checked against the flags and the covered cells
    (read off the position unless given)."""
    if covered_cells is None:
        covered_cells = tuple(np.flatnonzero(position.covered).tolist())
    remaining = None
    if position.mines is not None:
        flags = int(position.flagged.sum()) if flags is None else flags
        remaining = position.mines - flags
        if remaining < 0:
            raise InconsistentError(clash_text(position, Clash.FLAGS_OVER_TOTAL, flags=flags), (), uses_total=True,
                                    clash=Clash.FLAGS_OVER_TOTAL)
        n_cov = len(covered_cells)
        if remaining > n_cov:
            raise InconsistentError(clash_text(position, Clash.TOTAL_OVER_COVERED, remaining=remaining, covered=n_cov),
                                    (), uses_total=True, clash=Clash.TOTAL_OVER_COVERED)
    if table is None:
        return ConstraintSystem(position, constraints, covered_cells, remaining)
    return TabledSystem(position, None, covered_cells, remaining, table=table)
