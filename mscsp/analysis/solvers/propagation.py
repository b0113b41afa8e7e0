"""The cheap, sound rungs of the solver ladder: single-point and subset propagation.

*single-point* applies the two per-clue rules of the reference article (Sheng 2026,
"No-Guess Minesweeper Boards", after the classic solver tutorials) to a fixed point:

- a clue whose remaining mines equal its unknown neighbours makes them all mines;
- a clue whose remaining mines are zero makes its unknown neighbours safe.

*subset* adds pairwise subset reduction — when one equation's cells lie inside
another's, the difference carries the difference of the counts, and becomes an
equation of its own — and the simple global-count rules: no mines left means every
unknown cell is safe, as many mines as unknown cells means all are mines, and
pairwise-disjoint equations that use up every remaining mine make all other cells
safe.

The engine is incremental: a play loop keeps one for the whole game and tells it what
happens as it happens — a cell opened (:meth:`Propagator.observe`), a number come into
view (:meth:`Propagator.add_clue`) — and each :meth:`Propagator.run` reasons only from
the equations those events touched, taking back the cells it newly proved with
:meth:`Propagator.take_proven`. The analysis builds one for a position and runs it
once. Both get the same closure: knowledge only grows, so neither the order of events
nor of rules changes which cells end up proven.

Each deduction keeps its provenance: the clues (and whether the mine total) whose
equations produced it, so every proven cell arrives with a set of clues that forces
it, and every contradiction with a set of clues that cannot all hold. The set that
propagation accumulates depends on the order the rules fired in and may hold clues
the cell does not need; :func:`minimal_reason` shrinks it by deletion to a set from
which the same rung still proves the cell and none of whose clues can be dropped.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace

from ...budget import CHECK_EVERY, Budget
from ...errors import InconsistentError
from ..constraints import ConstraintSystem

__all__ = ["Propagator", "minimal_reason"]

#: The cause of a value learned from outside the clues: no equation, no cell, no total.
_GIVEN: tuple = ((), (), False)


class _Equation:
    """One equation: ``count`` mines among ``cells``.

    Its provenance is a node of the derivation graph: the clue it comes from
    (``origin``), the equations a subset step derived it from (``parents``) and the
    proven cells substituted into it since (``facts``). Reasons are read off this
    graph when asked for, so a long chain of deductions costs memory linear in its
    length, not quadratic as sets copied at every step would.
    """

    __slots__ = ("cells", "count", "alive", "origin", "parents", "facts")

    def __init__(self, cells: set[int], count: int, origin: int | None,
                 parents: tuple[tuple[int, int], ...] = ()):
        self.cells = cells
        self.count = count
        self.alive = True
        self.origin = origin
        self.parents = parents
        self.facts: list[int] = []


class _Reasons(Mapping):
    """cell -> (clues, uses_total) for every proven cell, computed when asked for."""

    def __init__(self, prop: "Propagator"):
        self._prop = prop

    def __getitem__(self, cell: int) -> tuple[frozenset[int], bool]:
        if not self._prop._track:
            raise ValueError("this propagator keeps no reasons (made with reasons=False)")
        if cell not in self._prop.known:
            raise KeyError(cell)
        return self._prop._collect([], [cell])

    def __iter__(self):
        return iter(self._prop.known)

    def __len__(self) -> int:
        return len(self._prop.known)


class Propagator:
    """Forward reasoning over the equations of one position.

    Parameters
    ----------
    system : ConstraintSystem or None
        The position's equations; None for a play loop that adds its clues as they
        come into view (:meth:`add_clue`).
    subset : bool
        False for single-point, True for subset reasoning and the global-count rules.
    use_total : bool
        Whether the global-count rules may use the mine total (subset only).
    derived_limit : int
        At most this many derived equations are kept (subset reasoning is bounded
        so it never explodes; it may then miss deductions, never invent them).
    reasons : bool
        Keep each proven cell's provenance (the default); a play loop, which never
        asks why, runs faster without it (``reason`` is then not available).
    budget : Budget, optional
        Its deadline, and its resident allowance where it has one, stop taking in the
        equations and propagating (see :attr:`finished`): on a board of a million
        cells either takes seconds.

    Attributes
    ----------
    known : dict
        cell -> True (mine) / False (safe) for every proven cell.
    finished : bool
        False when the budget stopped the work: every cell in ``known`` is still
        proven (each equation taken in holds, and the rules are sound on any set of
        true equations), but more may follow from the clues.
    reason : Mapping
        cell -> (clues, uses_total) that prove it, read off the derivation graph on
        demand.

    Examples
    --------
    A play loop's use: a 1 comes into view beside two covered cells, then one of them
    opens, which proves the other a mine.

    >>> prop = Propagator(None, subset=False)  # no equations yet: they come with the game
    >>> prop.observe(1, False)
    >>> prop.add_clue(1, [0, 2], 1)
    >>> prop.run().take_proven()
    []
    >>> prop.observe(0, False)
    >>> prop.run().take_proven(), prop.known[2]
    ([2], True)
    """

    def __init__(self, system: ConstraintSystem | None, *, subset: bool, use_total: bool = True,
                 derived_limit: int | None = None, reasons: bool = True, budget: Budget | None = None):
        self.system = system
        self.budget = budget
        self.finished = True
        self.subset = subset
        self.use_total = use_total and system is not None and system.remaining is not None and subset
        self.known: dict[int, bool] = {}
        self._track = reasons
        # why each proven cell is proven: the equations and proven cells it follows
        # from, and whether the mine total was counted
        self._cause: dict[int, tuple] = {}
        self._eqs: list[_Equation] = []
        self._by_cell: dict[int, set[int]] = {}
        self._keys: set[frozenset[int]] = set()
        constraints = () if system is None else system.constraints
        self._derived_left = derived_limit if derived_limit is not None else 8 * len(constraints) + 64
        for n, con in enumerate(constraints):
            if budget is not None and not n % CHECK_EVERY and budget.exceeded():
                self.finished = False
                break
            self._add(set(con.cells), con.count, con.clue)
        self._work: list[int] = list(range(len(self._eqs)))  # equations to look at again
        self._proven: list[int] = []  # cells the rules proved since take_proven last ran

    @property
    def reason(self) -> Mapping:
        """cell -> (clues, uses_total) for every proven cell (see the class's attributes)."""
        # made when asked for: a reference back from the propagator would make a cycle
        # that only the garbage collector frees (over a second on a million-cell board)
        return _Reasons(self)

    # -- events ----------------------------------------------------------------------
    def observe(self, cell: int, mine: bool) -> None:
        """Learn a cell's value from outside the clues (a cell that opened, say): no
        clue is its reason, and it is not reported by :meth:`take_proven`."""
        self._set(cell, mine, _GIVEN, self._work, given=True)

    def add_clue(self, clue: int, cells, count: int) -> None:
        """A number come into view: ``count`` mines among ``cells`` (its neighbours that
        are not open; cells already known are taken out, with their mines)."""
        known = self.known
        left, facts = set(), []
        for c in cells:
            value = known.get(c)
            if value is None:
                left.add(c)
            else:
                facts.append(c)
                count -= value
        i = self._add(left, count, clue)
        if self._track:
            self._eqs[i].facts.extend(facts)
        self._work.append(i)

    @property
    def pending(self) -> bool:
        """Whether events have touched equations that :meth:`run` has not looked at yet."""
        return bool(self._work)

    def take_proven(self) -> list[int]:
        """The cells the rules proved since the last call, in the order they were proved."""
        out, self._proven = self._proven, []
        return out

    # -- bookkeeping -----------------------------------------------------------------
    def _add(self, cells: set[int], count: int, origin: int | None,
             parents: tuple[tuple[int, int], ...] = ()) -> int:
        i = len(self._eqs)
        self._eqs.append(_Equation(cells, count, origin, parents))
        if self.subset:  # only subset reasoning derives equations, and asks whether one is new
            self._keys.add(frozenset(cells))
        by_cell = self._by_cell
        for c in cells:
            found = by_cell.get(c)
            if found is None:
                by_cell[c] = {i}
            else:
                found.add(i)
        return i

    def _collect(self, eqs: list[tuple[int, int | None]], cells: list[int]) -> tuple[frozenset[int], bool]:
        """The clues (and whether the total) behind some equations and proven cells.

        An equation comes as ``(index, facts)``: only its first ``facts`` substituted
        cells count (None: all of them), the ones it held when it was used."""
        clues: set[int] = set()
        total = False
        seen_eq: dict[int, int] = {}  # equation -> how many of its facts were taken
        seen_cell: set[int] = set()
        eq_stack = list(eqs)
        cell_stack = list(cells)
        while eq_stack or cell_stack:
            while cell_stack:
                c = cell_stack.pop()
                if c in seen_cell:
                    continue
                seen_cell.add(c)
                from_eqs, from_cells, used_total = self._cause[c]
                total = total or used_total
                eq_stack.extend(from_eqs)
                cell_stack.extend(from_cells)
            while eq_stack:
                i, upto = eq_stack.pop()
                eq = self._eqs[i]
                upto = len(eq.facts) if upto is None else upto
                done = seen_eq.get(i)
                if done is None:
                    if eq.origin is not None:
                        clues.add(eq.origin)
                    eq_stack.extend(eq.parents)
                    done = 0
                if upto > done:
                    cell_stack.extend(eq.facts[done:upto])
                    seen_eq[i] = upto
                else:
                    seen_eq.setdefault(i, done)
        return frozenset(clues), total

    def _fail(self, eqs: list[tuple[int, int | None]], cells: list[int], total: bool, text: str) -> None:
        clues, used = self._collect(eqs, cells)
        raise InconsistentError(text, tuple(sorted(clues)), uses_total=total or used)

    def _set(self, cell: int, mine: bool, cause: tuple, work: list[int], given: bool = False) -> None:
        """Record a proven cell and why: ``cause`` is (equations as ``(index, facts)``,
        proven cells, whether the total was counted); ``given`` for a value learned
        from outside."""
        if cell in self.known:
            if self.known[cell] != mine:
                eqs, cells, total = cause
                self._fail(list(eqs), [*cells, cell], total, "these clues force a cell to be both a mine and safe")
            return
        self.known[cell] = mine
        track = self._track
        if track:
            self._cause[cell] = cause
        if not given:
            self._proven.append(cell)
        eqs = self._eqs
        for i in self._by_cell.pop(cell, ()):
            eq = eqs[i]
            if not eq.alive:
                continue
            eq.cells.discard(cell)
            if mine:
                eq.count -= 1
            if track:
                eq.facts.append(cell)
            work.append(i)

    # -- rules -----------------------------------------------------------------------
    def _trivial(self, i: int, work: list[int]) -> bool:
        eq = self._eqs[i]
        n = len(eq.cells)
        if eq.count < 0 or eq.count > n:
            self._fail([(i, None)], [], False, "these clues need more mines, or fewer, than their cells allow")
        if n and (eq.count == 0 or eq.count == n):
            eq.alive = False
            mine = eq.count == n
            cause = (((i, len(eq.facts)),), (), False)  # the same for every cell: eq is settled
            for c in sorted(eq.cells):
                self._set(c, mine, cause, work)
            return True
        if not n:
            eq.alive = False
        return False

    def _subsets(self, i: int, work: list[int]) -> None:
        a = self._eqs[i]
        if not a.alive or not a.cells:
            return
        others: set[int] = set()
        for c in a.cells:
            others |= self._by_cell.get(c, set())
        others.discard(i)
        for j in sorted(others):
            b = self._eqs[j]
            if not b.alive or not a.alive:
                continue
            if len(a.cells) < len(b.cells) and a.cells <= b.cells:
                small, big = a, b
            elif len(b.cells) < len(a.cells) and b.cells <= a.cells:
                small, big = b, a
            elif a.cells == b.cells and a.count != b.count:
                self._fail([(i, None), (j, None)], [], False,
                           "these clues need different numbers of mines in the same cells")
            else:
                continue
            rest = big.cells - small.cells
            key = frozenset(rest)
            if key in self._keys:
                continue
            if self._derived_left <= 0:
                return
            self._derived_left -= 1
            k = self._add(set(rest), big.count - small.count, None,
                          ((i, len(a.facts)), (j, len(b.facts))))
            work.append(k)

    def _global(self, work: list[int]) -> None:
        """The simple rules that use the mine total."""
        system = self.system
        known = self.known
        unknown = [c for c in system.covered if c not in known]
        if not unknown:
            return
        mines = tuple(c for c, mine in known.items() if mine)
        left = system.remaining - len(mines)
        if left < 0 or left > len(unknown):
            self._fail([], list(known), True, "the mine total cannot be met with these clues")
        if left == 0:
            for c in unknown:
                self._set(c, False, ((), mines, True), work)
            return
        if left == len(unknown):
            everything = tuple(known)
            for c in unknown:
                self._set(c, True, ((), everything, True), work)
            return
        # Pairwise-disjoint equations that already hold every remaining mine.
        used: set[int] = set()
        held = 0
        chosen = []
        for i, eq in sorted(((i, e) for i, e in enumerate(self._eqs) if e.alive and e.cells),
                            key=lambda ie: (-ie[1].count, min(ie[1].cells))):
            if eq.cells & used:
                continue
            used |= eq.cells
            held += eq.count
            chosen.append(i)
        if held == left:
            cause = (tuple((i, len(self._eqs[i].facts)) for i in chosen), mines, True)
            for c in unknown:
                if c not in used:
                    self._set(c, False, cause, work)

    def run(self) -> "Propagator":
        """Propagate to a fixed point, or until the budget runs out (:attr:`finished` is
        then False).

        Raises
        ------
        InconsistentError
            With the clues whose equations clash.
        """
        work = self._work
        budget = self.budget
        if not self.finished:
            return self
        looked = 0
        while True:
            while work:
                if budget is not None:
                    looked += 1
                    if not looked % CHECK_EVERY and budget.exceeded():
                        self.finished = False
                        return self
                i = work.pop()
                eq = self._eqs[i]
                if not eq.alive:
                    continue
                if self._trivial(i, work):
                    continue
                if self.subset:
                    self._subsets(i, work)
            if not self.use_total:
                break
            before = len(self.known)
            self._global(work)
            if len(self.known) == before and not work:
                break
        return self


def minimal_reason(system: ConstraintSystem, cell: int, mine: bool, reason: tuple[frozenset[int], bool], *,
                   subset: bool, use_total: bool, deadline: float | None = None) -> tuple[frozenset[int], bool]:
    """Shrink the reason of a proven cell to one that the same rung needs whole.

    Deletion, as for unsatisfiable cores: drop one clue (then the total) and run the
    rung on what is left; when it still proves the cell, keep the smaller set — the
    reason that run gives, which may be smaller still. The result proves the cell by
    the rung's own rules, and no clue of it (nor the total) can be dropped without the
    rung losing the deduction (the total is tried first: with fewer clues it is only
    more needed). Past ``deadline`` the set shrunk so far is returned; it is still
    sufficient.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> s = build_constraints(parse_position("-111\\n...-\\n"))
    >>> p = Propagator(s, subset=True).run()
    >>> sorted(p.reason[4][0])  # [0,1] is safe: three clues accumulated on the way
    [1, 2, 3]
    >>> sorted(minimal_reason(s, 4, False, p.reason[4], subset=True, use_total=False)[0])
    [1, 3]
    """
    clues, total = reason
    by_clue = system.by_clue

    def proves(keep: frozenset[int], with_total: bool) -> tuple[frozenset[int], bool] | None:
        sub = replace(system, constraints=tuple(by_clue[c] for c in sorted(keep) if c in by_clue))
        try:
            prop = Propagator(sub, subset=subset, use_total=use_total and with_total).run()
        except InconsistentError:  # pragma: no cover - a subset of consistent clues is consistent
            return None
        if prop.known.get(cell) is not mine:
            return None
        return prop.reason[cell]

    # the total first: fewer clues only make it more needed, so it stays decided
    if total:
        smaller = proves(clues, False)
        if smaller is not None:
            clues, total = smaller
    for drop in sorted(clues):
        if drop not in clues:
            continue
        if deadline is not None and time.perf_counter() > deadline:
            break
        smaller = proves(clues - {drop}, total)
        if smaller is not None:
            clues, total = smaller
    return clues, total
