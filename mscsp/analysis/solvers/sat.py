"""The complete solver: every cell the clues (and the mine total) force, proven by SAT.

A covered cell is proven safe when "this cell is a mine" is unsatisfiable together
with every clue equation (and the total), and proven a mine symmetrically. All tests
run on one incremental solver per independent part, under assumptions:

- every clue equation is guarded by a selector literal, so the same solver finds
  unsatisfiable cores over clues — small sets of clues that force a cell (an
  explanation) or that cannot all hold (a contradiction) — shrunk to a minimal set
  by deletion (the classic deletion-based MUS extraction; Marques-Silva, "Minimal
  unsatisfiability: models, algorithms and applications", ISMVL 2010);
- the mine total is two incremental totalizers over the frontier (Bailleux &
  Boufkhad 2003; pysat's ``ITotalizer``), one over the cells and one over their
  negations, so its upper and lower bounds — and the bounds that decide the
  unconstrained cells — are plain assumptions;
- every model found marks the cells it shows as a mine and as safe; a cell already
  seen both ways needs no call (the phase of the next call is set against the last
  model, so each model tends to flip many cells);
- the cheap rules (subset propagation) run first and SAT is called only on what
  they leave; without a binding total, each component gets its own small solver.

Every call has a conflict budget and the whole run a time budget: what is not
finished is reported (``complete = False``), never guessed.

One module, not several: the parts of a run (the encodings, the selectors, the
totalizers, the cores and the models that mark cells) share one incremental solver per
part and its variable pool, and the engine moves parts between solvers as the total
binds them; apart, each would reach into the others' state.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...budget import CHECK_EVERY, Budget, resident_bytes
from ...errors import BudgetExceeded, InconsistentError, Resource
from ..constraints import ARRAY_EQUATIONS, ConstraintSystem, ParityForest, bulk, is_link, unite
from .encoding import TOTALIZER_LIMIT, MineTotal, exactly
from .local import local_reasons, pair_reason, single_clue_reasons
from .propagation import Propagator
from .wires import prune_hanging, wire_clash

__all__ = ["SatEngine", "SatOutcome"]

#: The SAT backend. ``benchmarks/encodings.py`` measured the binomial encoding fastest
#: on every backend; CaDiCaL 1.9.5 was 18% faster than Glucose 4 on Expert positions,
#: but pysat gives it no conflict budgets or interrupts, which the time limits need.
DEFAULT_BACKEND = "g4"

#: The backend when the mine total is too large for totalizers: Minicard, MiniSat 2.2
#: with native cardinality constraints, which take the total over thousands of cells in
#: linear time (a cardinality network there had millions of clauses and took seconds).
#: Gluecard 4 has them too, but did not stop at its interrupt on a 100x100 lattice.
NATIVE_BACKEND = "mc"

#: The totalizers' size past which the mine total becomes native cardinality constraints.
TOTAL_SIZE_LIMIT = TOTALIZER_LIMIT

#: Conflicts a SAT call may spend before it is given a deadline timer.
_QUICK_CONFLICTS = 5_000
#: Seconds between two looks at the clock and the process's memory during a timed call.
_WATCH_EVERY = 0.05

#: Above this many clauses every SAT call runs under a deadline timer.
_TIMER_CLAUSES = 100_000

#: A clash of at most this many clues is shrunk to a minimal one on the plain encoding.
_SHRINK_LIMIT = 400


def _prune_hanging_links(system: ConstraintSystem, eq_ids: list[int]) -> list[int]:
    """The clues without the links left hanging (see :func:`~mscsp.analysis.solvers.wires.prune_hanging`):
    what is left of each wire joins the clues that need it."""
    constraints = system.constraints
    units = [(list(constraints[e].cells), list(constraints[e].cells) if is_link(constraints[e]) else [])
             for e in eq_ids]
    return [eq_ids[i] for i in prune_hanging(units, list(range(len(eq_ids))))]


def _check(limits: Budget | None, what: str) -> None:
    if limits is not None:
        limits.check(what)


class _Unshiftable(Exception):
    """The mine total is encoded with fixed bounds; shifted bounds are unavailable."""


@dataclass
class SatOutcome:
    """What the complete search established."""

    known: dict[int, bool]
    reason: dict[int, tuple[frozenset[int], bool]]
    undecided: list[int]
    complete: bool
    calls: int


def _watch(solver, deadline: float | None, ceiling: int | None, stop: threading.Event) -> None:
    """Interrupt ``solver`` at ``deadline`` or once the process holds more than
    ``ceiling`` bytes, whichever comes first, unless ``stop`` is set.

    One hard call on a large board (the proofs of a 100x100 lattice) grew the
    process by half a gigabyte between two looks at its memory; looking every
    :data:`_WATCH_EVERY` seconds from beside it bounds that."""
    while True:
        wait = _WATCH_EVERY if deadline is None else min(_WATCH_EVERY, max(deadline - time.perf_counter(), 0.0))
        if stop.wait(wait):
            return
        if deadline is not None and time.perf_counter() >= deadline:
            solver.interrupt()
            return
        if ceiling is not None and (resident_bytes() or 0) > ceiling:
            solver.interrupt()
            return


def growth_ceiling(limits: Budget | None, base: int | None = None) -> int | None:
    """The resident bytes past which a SAT call is interrupted: half the room left
    under ``limits``' resident allowance, counted from what the process holds now, and
    no more than half way from ``base`` (what the process held before the solver was
    built) to the allowance.

    The solver compacts its clause database by copying it into a new one before it
    frees the old (and does not look at an interrupt meanwhile): for a moment it holds
    the database twice. On a 100x100 lattice one call grew the process from 78 MB to
    624 MB, then to 1,171 MB in the 0.35 s of one compaction, past an allowance of
    922 MB. Growing by at most half the room, twice the growth still fits; and since
    the database also keeps what earlier calls learnt, the process may hold at most
    half way from ``base``, so that the whole database twice fits too (many calls
    on one lattice grew it a little each, to 1.2 GB at the last compaction).

    Examples
    --------
    >>> growth_ceiling(None) is None and growth_ceiling(Budget(None, None, None)) is None
    True
    >>> held = resident_bytes()
    >>> held is None or held < growth_ceiling(Budget(None, None, held + 2_000_000)) <= held + 1_000_000
    True
    >>> # 2 MB grown since the solver was built, 2 MB of room: no more growth (copying 4 MB would not fit)
    >>> held is None or growth_ceiling(Budget(None, None, held + 2_000_000), base=held - 2_000_000) <= held
    True
    """
    if limits is None or limits.resident is None:
        return None
    held = resident_bytes()
    if held is None:
        return limits.resident
    ceiling = held + max(limits.resident - held, 0) // 2
    return ceiling if base is None else min(ceiling, base + max(limits.resident - base, 0) // 2)


class _Part:
    """One incremental solver over a set of clue equations (and maybe the total)."""

    def __init__(self, system: ConstraintSystem, eq_ids: list[int], cells: list[int], *,
                 total: tuple[int, int] | None, backend: str, encoding: str,
                 lit: dict[int, int] | None = None, encode: list[int] | None = None,
                 limits: Budget | None = None, top: int | None = None):
        """``lit`` maps each cell to its literal (default: cell i is variable i+1);
        ``encode`` lists the equations to encode under selectors (default: all);
        ``top``, the largest variable of ``lit`` when the caller knows it.
        Encoding a huge board takes seconds and memory: when ``limits`` run out it
        stops with BudgetExceeded."""
        # pysat is imported when a solver is built, not with the module: an analysis
        # whose count proves every cell and whose explanations need no SAT call
        # starts faster without it
        from pysat.solvers import Solver

        self.base = resident_bytes()  # before the solver: its database is what grows past this
        self.system = system
        self.eq_ids = eq_ids
        self.cells = cells
        if lit is None:
            self.lit, top = {c: i + 1 for i, c in enumerate(cells)}, len(cells)
        else:
            self.lit = lit
            top = max(map(abs, lit.values()), default=0) if top is None else top
        self.selector: dict[int, int] = {}
        self.eq_of_selector: dict[int, int] = {}
        self.clue_of_selector: dict[int, int] = {}
        # the solver is chosen before the clauses exist (one with native cardinality
        # constraints when the total needs them), and takes them a few thousand clues at
        # a time with a look at the limits between: seven million clauses of a 1000x1000
        # lattice took seconds to load at once, past the deadline, and held the Python
        # list beside the solver's copy (2.1 GB)
        native = total is not None and MineTotal.native_bounds(len(cells), *total, size_limit=TOTAL_SIZE_LIMIT)
        self.solver = Solver(name=NATIVE_BACKEND if native else backend)
        loaded = 0
        clauses: list[list[int]] = []
        literal = self.lit
        for n, e in enumerate(eq_ids if encode is None else encode):
            if n % CHECK_EVERY == CHECK_EVERY - 1:
                self._load(clauses, limits)
                loaded += len(clauses)
                clauses = []
            con = system.equation(e)
            top += 1
            sel = top
            self.selector[e] = sel
            self.eq_of_selector[sel] = e
            self.clue_of_selector[sel] = con.clue
            body, top = exactly([literal[c] for c in con.cells], con.count, top=top, encoding=encoding, guard=-sel)
            clauses += body
        top += 1
        self.false_lit = top  # assumed when a bound is impossible: an immediate conflict
        clauses.append([-self.false_lit])
        self.total = total  # (remaining, unconstrained count)
        # the mine total over the part's cells, the unconstrained ones taking the rest;
        # past the totalizers' size limit, native cardinality constraints
        self.mine_total = (None if total is None
                           else MineTotal([self.lit[c] for c in cells], *total, top=top, native=True,
                                          size_limit=TOTAL_SIZE_LIMIT))
        if self.mine_total is not None:
            clauses.extend(self.mine_total.clauses)
            top = self.mine_total.top
        at_most = [] if self.mine_total is None else self.mine_total.at_most
        self.solver.append_formula(clauses)  # the last few thousand clues: as before, no look
        loaded += len(clauses)
        for lits, k in at_most:
            self.solver.add_atmost(lits, k)
        # a conflict on a native constraint over thousands of cells learns a clause as
        # long, so even a few thousand of them can take seconds: every call is timed
        self.timed = bool(at_most) or loaded >= _TIMER_CLAUSES
        self.calls = 0
        self.limits = limits

    def _load(self, clauses: list[list[int]], limits: Budget | None) -> None:
        """Give the solver ``clauses``, then look at the limits (the solver is deleted
        when they have run out)."""
        self.solver.append_formula(clauses)
        try:
            _check(limits, "encoding the clues for SAT")
        except BudgetExceeded:
            self.solver.delete()
            raise

    # -- assumptions for the total --------------------------------------------------
    @property
    def shiftable(self) -> bool:
        """Whether the total's bounds can be shifted (not a fixed cardinality network)."""
        return self.mine_total is None or self.mine_total.shiftable

    def total_assumptions(self, *, upper_shift: int = 0, lower_shift: int = 0) -> list[int]:
        """Assumptions imposing ``rem - u + lower_shift <= sum(F) <= rem - upper_shift``.

        Raises _Unshiftable when the bounds are hard-coded and a shift is asked for.
        """
        if self.mine_total is None:
            return []
        if not self.mine_total.shiftable and (upper_shift or lower_shift):
            raise _Unshiftable()
        out = self.mine_total.assumptions(upper_shift=upper_shift, lower_shift=lower_shift)
        return [self.false_lit] if out is None else out

    def selectors(self) -> list[int]:
        return list(self.selector.values())

    def fixing(self, known: dict[int, bool]) -> list[int]:
        """Assumptions that give the part's proven cells their values."""
        lit = self.lit
        return sorted({lit[c] if known[c] else -lit[c] for c in self.cells if c in known})

    def solve(self, assumptions: list[int], budget: int, deadline: float | None = None) -> bool | None:
        """Solve under assumptions; None when the conflict budget, the deadline or the
        process's resident allowance (the part's ``limits``) runs out.

        Most calls end within a few thousand conflicts and run without a watch; a
        call that does not gets another go with a watch beside it that interrupts
        the solver at the deadline or once the process has grown by half its room
        (:func:`_watch`, :func:`growth_ceiling`), so a hard instance cannot overrun either.
        """
        self.calls += 1
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        if self.limits is not None and self.limits.resident is not None and self.limits.exceeded():
            return None
        if not self.timed:  # small: conflicts come fast, try without a timer
            quick = min(budget, _QUICK_CONFLICTS)
            self.solver.conf_budget(quick)
            res = self.solver.solve_limited(assumptions=assumptions)
            if res is not None or quick >= budget:
                return res
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            return None
        self.solver.conf_budget(budget)
        ceiling = growth_ceiling(self.limits, self.base)
        if ceiling is not None and (resident_bytes() or 0) >= ceiling:
            return None  # its database, copied whole when compacted, would not fit twice
        if remaining is None and ceiling is None:
            return self.solver.solve_limited(assumptions=assumptions)
        stop = threading.Event()
        watch = threading.Thread(target=_watch, args=(self.solver, deadline, ceiling, stop), daemon=True)
        watch.start()
        try:
            return self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            stop.set()
            watch.join()
            self.solver.clear_interrupt()

    def model_values(self) -> dict[int, bool]:
        model = self.solver.get_model()
        return {c: (model[abs(v) - 1] > 0) == (v > 0) for c, v in self.lit.items()}

    def delete(self) -> None:
        self.solver.delete()


class _MergedPart(_Part):
    """A part whose two-cell ``1`` links are merged away before encoding.

    Each clue touching exactly two covered cells with one mine says ``y = not x``;
    such chains (the wires of generalised boards and of Kaye's gadgets) are merged
    into one variable per chain with a union–find that tracks parity — equivalent
    literal substitution, a standard SAT preprocessing. Unit propagation then sees
    through every wire, which plain CDCL on the chains does not (an XOR gadget's
    doubled cell hides behind a long chain). Only the other clues get selectors, so
    cores name non-link clues; :meth:`links_of` gives the links a core leans on.
    """

    def __init__(self, system: ConstraintSystem, eq_ids: list[int], cells: list[int], *,
                 total: tuple[int, int] | None, backend: str, encoding: str, limits: Budget | None = None):
        _check(limits, "merging the chains of links")
        unite_links = self._unite_arrays if len(eq_ids) >= ARRAY_EQUATIONS else self._unite
        forest, links, others, local = unite_links(system, eq_ids, cells)
        self.parity_ids: list[int] = []
        _check(limits, "merging the chains of links")
        self.parity_merges = self._merge_parities(local, [system.equation(e).count for e in others],
                                                  others, forest, self.parity_ids)
        _check(limits, "merging the chains of links")
        roots, parities = forest.resolved()
        # one variable per class, numbered in the order of the classes' first cells
        uniq, first = np.unique(roots, return_index=True)
        number = np.zeros(len(cells) + 1, dtype=np.int64)
        number[uniq[np.argsort(first)]] = np.arange(1, len(uniq) + 1)
        variables = number[roots]
        lit = dict(zip(cells, np.where(parities.astype(bool), -variables, variables).tolist()))
        self.links = links
        self._roots = roots
        super().__init__(system, eq_ids, cells, total=total, backend=backend, encoding=encoding,
                         lit=lit, encode=others, limits=limits, top=len(uniq))

    @staticmethod
    def _unite(system: ConstraintSystem, eq_ids: list[int], cells: list[int],
               ) -> tuple[ParityForest, list[int], list[int], list[list[int]]]:
        """The links united clue by clue: the forest over the part's cells (by their
        place in ``cells``), the links, the other clues (an odd cycle's last link
        among them: the encoding must see the clash) and those clues' cells' places."""
        index = {c: i for i, c in enumerate(cells)}
        forest = ParityForest(len(cells))
        links: list[int] = []
        others: list[int] = []
        constraints = system.constraints
        for e in eq_ids:
            con = constraints[e]
            if is_link(con):
                if not forest.union(index[con.cells[0]], index[con.cells[1]], True):
                    others.append(e)  # an odd cycle of links: let the encoding see the clash
                links.append(e)
            else:
                others.append(e)
        return forest, links, others, [[index[c] for c in constraints[e].cells] for e in others]

    @staticmethod
    def _unite_arrays(system: ConstraintSystem, eq_ids: list[int], cells: list[int],
                      ) -> tuple[ParityForest, list[int], list[int], list[list[int]]]:
        """:meth:`_unite` over the system's arrays, every link in one :func:`unite`
        call: the same forest, links, clues and places, in the same order, for a
        compiled board's hundreds of thousands of links."""
        table, counts, _ = system.table
        ids = np.asarray(eq_ids, dtype=np.int64)
        rows = table[ids]
        sizes = (rows >= 0).sum(axis=1)
        link = (sizes == 2) & (counts[ids] == 1)
        place = np.searchsorted(np.asarray(cells, dtype=np.int64), rows)  # the padding's places are cut off below
        pairs = place[link]
        roots, parities, clashes = unite(len(cells), pairs[:, 0], pairs[:, 1], np.ones(len(pairs), dtype=np.uint8))
        kept = ~link
        kept[np.flatnonzero(link)[clashes]] = True
        local = [row[:k] for row, k in zip(place[kept].tolist(), sizes[kept].tolist())]
        return ParityForest.from_roots(roots, parities), ids[link].tolist(), ids[kept].tolist(), local

    @cached_property
    def root_of(self) -> dict[int, int]:
        """Each cell's class (the place of its root in the part's cells)."""
        return dict(zip(self.cells, self._roots.tolist()))

    @staticmethod
    def _merge_parities(cell_lists, counts, ids, forest: ParityForest, used: list[int]) -> int:
        """Merge the cells that XOR gadgets make equal.

        A clue whose cells include two of the same chain with the same sign counts
        that chain twice, so the rest of its cells hold a number of mines of fixed
        parity: with three of them, ``a XOR b XOR c`` is known. Two such three-cell
        parities sharing two chains make the third ones equal (or opposite), as in
        the crossover (``c = a+b``, ``a' = c+b`` give ``a' = a``); merging them lets
        unit propagation do what resolution cannot do cheaply (Tseitin-like chains
        of XORs). Every merge is implied by the clues, so models are unchanged.
        Returns the number of merges.
        """
        equations = []
        for local, count, e in zip(cell_lists, counts, ids):
            seen: dict[tuple[int, int], int] = {}
            for i in local:
                key = forest.find(i)
                seen[key] = seen.get(key, 0) + 1
            if not any(n >= 2 for n in seen.values()):
                continue
            # drop one doubled pair; the rest holds count - 2t mines: parity count mod 2
            rest, par, dropped = [], count, False
            for (r, p), n in seen.items():
                if n >= 2 and not dropped:
                    n -= 2
                    dropped = True
                for _ in range(n):
                    rest.append(r)
                    par ^= p  # a negated cell contributes 1 - x
            if len(rest) == 3 and len(set(rest)) == 3:
                equations.append((frozenset(rest), par & 1))
                used.append(e)
        merges = 0
        changed = True
        while changed:
            changed = False
            by_pair: dict[frozenset, tuple[frozenset, int]] = {}
            current = []
            for vars_, par in equations:
                resolved = {}
                for v in vars_:
                    r, p = forest.find(v)
                    resolved[r] = resolved.get(r, 0) ^ 1
                    par ^= p
                live = frozenset(r for r, odd in resolved.items() if odd)
                if len(live) == 3:
                    current.append((live, par))
            for live, par in current:
                for drop in live:
                    pair = live - {drop}
                    other = by_pair.get(pair)
                    if other is None:
                        by_pair[pair] = (live, par)
                        continue
                    o_live, o_par = other
                    if o_live == live:
                        continue
                    (x,) = tuple(live - pair)
                    (y,) = tuple(o_live - pair)
                    if not forest.same(x, y):
                        forest.union(x, y, bool(par ^ o_par))
                        merges += 1
                        changed = True
            equations = current
        return merges

    def links_of(self, clues: list[int]) -> list[int]:
        """The links and parity clues behind the merged chains the given clues touch."""
        cons = self.system.constraints
        pool = self.links + self.parity_ids
        by_root: dict[int, list[int]] = {}
        for e in pool:
            for c in cons[e].cells:
                by_root.setdefault(self.root_of[c], []).append(e)
        touched: set[int] = set()
        frontier = [self.root_of[c] for e in clues for c in cons[e].cells]
        support: set[int] = set()
        while frontier:  # close under "a merge leans on these clues, whose cells lean on more"
            r = frontier.pop()
            if r in touched:
                continue
            touched.add(r)
            for e in by_root.get(r, ()):
                if e not in support:
                    support.add(e)
                    frontier.extend(self.root_of[c] for c in cons[e].cells)
        return sorted(support)


class SatEngine:
    """Complete deduction on a constraint system.

    Parameters
    ----------
    system : ConstraintSystem
    use_total : bool
        Use the mine total when the position gives one.
    time_limit : float
        Seconds for the whole search; cells not settled by then stay undecided
        and the outcome says ``complete=False``.
    conflict_budget : int
        Conflicts allowed per SAT call.
    memory_limit : int, optional
        Bytes the process may hold while the clues are encoded; past it the
        encoding stops with BudgetExceeded (memory).
    """

    def __init__(self, system: ConstraintSystem, *, use_total: bool = True, time_limit: float = 30.0,
                 conflict_budget: int = 200_000, backend: str = DEFAULT_BACKEND, encoding: str = "binomial",
                 memory_limit: int | None = None,
                 witnessed: tuple[frozenset[int], frozenset[int]] | None = None):
        """``witnessed``: cells that layouts meeting every clue (and the total, when it
        is used) showed holding a mine, and cells they showed safe; a value shown is
        not asked of SAT, and a part with a cell shown needs no first model to be known
        consistent. Pass only what such layouts showed."""
        self.system = system
        self.witnessed = witnessed
        self.use_total = use_total and system.remaining is not None
        self.deadline = time.perf_counter() + time_limit
        self.limits = Budget(self.deadline, None, memory_limit)
        self.budget = conflict_budget
        self.backend = backend
        self.encoding = encoding
        self.parts: list[_Part] = []
        self.calls = 0

    # -- structure ------------------------------------------------------------------
    def _total_binds(self) -> bool:
        s = self.system
        if not self.use_total:
            return False
        f, u, r = len(s.frontier), len(s.unconstrained), s.remaining
        # Unbinding when every frontier count is allowed and unconstrained cells can go either way.
        return not (f <= r - 1 and r <= u - 1)

    def _groups(self) -> tuple[list[list[int]], tuple[int, int] | None]:
        """The equations of each part (one part when the total binds), and the total."""
        s = self.system
        if self._total_binds():
            return [list(range(s.size))], (s.remaining, len(s.unconstrained))
        return [list(comp) for comp in s.components], None

    def _build(self, merged: bool = False) -> None:
        """One solver per part: plain (every clue under a selector, for cores and
        explanations) or with chains merged (for proofs: one question per chain)."""
        s = self.system
        groups, total = self._groups()
        kind = _MergedPart if merged else _Part
        self.parts = []
        with bulk():
            for eq_ids in groups:
                self.parts.append(kind(s, eq_ids, list(s.component_cells(eq_ids)), total=total, backend=self.backend,
                                       encoding=self.encoding, limits=self.limits))

    def close(self) -> None:
        for p in self.parts:
            p.delete()
        self.parts = []

    # -- cores ------------------------------------------------------------------------
    def _shrink(self, part: _Part, extra: list[int], include_total: bool) -> tuple[frozenset[int], bool] | None:
        """A minimal set of clues (and whether the total) that, with ``extra``, is unsatisfiable.

        Deletion-based: start from the solver's core, drop each clue in turn and keep
        it dropped when the rest stays unsatisfiable (using each new, smaller core).
        Returns None when out of time or budget.
        """
        return self._clues(part, self._deletion(part, extra, include_total))

    @staticmethod
    def _clues(part: _Part, found: tuple[list[int], bool, bool] | None) -> tuple[frozenset[int], bool] | None:
        """The clues (and whether the total) of a finished deletion; None if it did not finish."""
        if found is None or not found[2]:
            return None
        keep, use_total, _ = found
        return frozenset(part.clue_of_selector[x] for x in keep), use_total

    def _deletion(self, part: _Part, extra: list[int], include_total: bool,
                  deadline: float | None = None, single_and_pairs_fail: bool = False,
                  ) -> tuple[list[int], bool, bool] | None:
        """Deletion-based core shrinking: ``(selectors, uses total, finished)``.

        Every set it returns is unsatisfiable with ``extra``; ``finished`` says
        whether each of its clues was shown to be needed before ``deadline``
        (default: the engine's). None when ``extra`` and the clues are satisfiable or
        the first call runs out of time. When the core explains a cell that no clue
        and no pair of clues forces on their own (the caller has checked, see
        :func:`~mscsp.analysis.solvers.local.pair_reason`), ``single_and_pairs_fail`` says so:
        sets of at most two clues without the total then need no SAT call.
        """
        deadline = self.deadline if deadline is None else deadline
        cands = part.selectors()
        t_lits = part.total_assumptions() if include_total else []
        res = part.solve(extra + cands + t_lits, self.budget, deadline)
        if res is not False:
            return None
        core = set(part.solver.get_core() or cands + t_lits)
        keep = [x for x in cands if x in core]
        use_total = bool(t_lits) and any(x in core for x in t_lits)
        if use_total and part.solve(extra + keep, self.budget, deadline) is False:
            use_total = False
            core = set(part.solver.get_core() or keep)
            keep = [x for x in keep if x in core]
        t_used = t_lits if use_total else []
        i = 0
        while i < len(keep):
            if time.perf_counter() > deadline:
                return keep, use_total, False
            trial = keep[:i] + keep[i + 1 :]
            if single_and_pairs_fail and not use_total and len(trial) <= 2:
                i += 1  # such a set does not force the cell: this clue is needed
                continue
            res = part.solve(extra + trial + t_used, self.budget, deadline)
            if res is False:
                core = set(part.solver.get_core() or trial)
                keep = [x for x in trial if x in core]
            elif res is None:
                return keep, use_total, False
            else:
                i += 1
        return keep, use_total, True

    def _clash(self, part: _Part) -> InconsistentError:
        small = self._shrink(part, [], include_total=True)
        if small is None:
            return InconsistentError("no layout satisfies these clues together",
                                     tuple(sorted(part.clue_of_selector.values())), uses_total=part.total is not None,
                                     minimal=False)
        clues, total = small
        return InconsistentError("no layout satisfies these clues together", tuple(sorted(clues)), uses_total=total)

    def contradiction(self) -> InconsistentError | None:
        """Check consistency; return a minimal clash if there is one.

        Raises
        ------
        BudgetExceeded
            When the time limit runs out before consistency is decided.
        """
        try:
            self._build()
            for part in self.parts:
                res = part.solve(part.selectors() + part.total_assumptions(), self.budget, self.deadline)
                if res is None:
                    raise BudgetExceeded("deciding consistency ran out of the time limit", Resource.TIME)
                if res is False:
                    return self._clash(part)
            return None
        finally:
            self.close()

    def witness(self, *, shrink: bool = True, hint: list[int] | None = None) -> dict[int, bool]:
        """One assignment of the frontier satisfying every clue (and the total's bounds).

        Wires are merged first (:class:`_MergedPart`). On a contradiction the core of
        the merged encoding, with the links its chains lean on, is shrunk by deletion
        on the plain encoding while time allows (so small cores come out minimal).
        With ``shrink`` False the clues of the whole unsatisfiable part are named at
        once (``minimal`` False): a verdict without the search for a small reason.
        ``hint``, equations believed to clash by themselves (a compiled board's
        clues lifted from its formula's core, :mod:`mscsp.reduction.lift`), is checked
        and shrunk first when it lies in the part that clashes; the part's own core
        is looked for only when the hint is not a clash.

        Raises
        ------
        InconsistentError
            With a small set of clues (and whether the total) that cannot all hold.
        """
        values: dict[int, bool] = {}
        try:
            self._build(merged=True)
            for part in self.parts:
                res = part.solve(part.selectors() + part.total_assumptions(), self.budget, self.deadline)
                if res is None:
                    raise BudgetExceeded("the SAT search for a witness ran out of its time limit", Resource.TIME)
                if res is False:
                    if not shrink:
                        raise InconsistentError("no layout satisfies these clues together",
                                                self.system.clues_of(part.eq_ids),
                                                uses_total=part.total is not None, minimal=False)
                    if hint is not None and set(hint) <= set(part.eq_ids) and part.total is None:
                        clash = self._hinted_clash(part, hint)
                        if clash is not None:
                            raise clash
                    raise self._merged_clash(part)
                values.update(part.model_values())
        finally:
            self.close()
        return values

    def _hinted_clash(self, part: "_MergedPart", hint: list[int]) -> InconsistentError | None:
        """The clash within ``hint``: checked on its own (None when it is not a clash or
        the check runs out of time), then shrunk wire by wire and by deletion while time
        allows; what is left when time runs out is still a clash (``minimal`` False)."""
        s = self.system
        if not self._clashes_alone(hint, None):
            return None
        left = max(self.deadline - time.perf_counter(), 0.0)
        found = wire_clash(s, sorted(hint), deadline=time.perf_counter() + 0.8 * left)
        eq_ids, minimal = found if found is not None else (sorted(hint), False)
        if not minimal and len(eq_ids) <= _SHRINK_LIMIT:
            return self._shrink_candidate(eq_ids, None, eq_ids)
        return InconsistentError("no layout satisfies these clues together",
                                 s.clues_of(eq_ids), minimal=minimal)

    def witnesses(self, count: int, rng, more_until: float | None = None) -> list[dict[int, bool]]:
        """Up to ``count`` assignments of the frontier satisfying every clue (and the
        total's bounds), each found with random phases (a numpy Generator's coin for
        every variable's first value), so that they tend to differ: starts for the
        layout chains, several so that chains stuck apart show it. Fewer when the
        time limit passes (none when not even the first was found).

        Raises
        ------
        InconsistentError
            When no assignment exists (naming every clue of the part that has none).
        """
        found: list[dict[int, bool]] = []
        try:
            self._build(merged=True)
            for _ in range(count):
                if found and more_until is not None and time.perf_counter() > more_until:
                    break
                values: dict[int, bool] = {}
                for part in self.parts:
                    top = part.solver.nof_vars()
                    part.solver.set_phases([v if flip else -v for v, flip in
                                            zip(range(1, top + 1), (rng.random(top) < 0.5).tolist())])
                    res = part.solve(part.selectors() + part.total_assumptions(), self.budget, self.deadline)
                    if res is None:
                        return found
                    if res is False:
                        raise InconsistentError("no layout satisfies these clues together",
                                                self.system.clues_of(part.eq_ids),
                                                uses_total=part.total is not None, minimal=False)
                    values.update(part.model_values())
                found.append(values)
        finally:
            self.close()
        return found

    def _merged_clash(self, part: "_MergedPart") -> InconsistentError:
        """The clash of an unsatisfiable merged part, made small.

        Its clues other than links are shrunk by deletion on the merged encoding
        (each question is cheap there) in half the time left; the links their chains
        lean on are added, and links left hanging — a cell that no other clue of the
        set touches, which any layout of the rest can satisfy — are pruned, which
        keeps only the stretch of each wire between the gadgets that clash. The set
        is then checked on its own, and shrunk further where it is small.
        """
        left = max(self.deadline - time.perf_counter(), 0.0)
        found = self._deletion(part, [], include_total=True, deadline=time.perf_counter() + left / 3)
        if found is None:  # pragma: no cover - the part was just found unsatisfiable
            keep, use_total, finished = part.selectors(), part.total is not None, False
        else:
            keep, use_total, finished = found
        chosen = set(keep)
        kept = [e for e, sel in part.selector.items() if sel in chosen]
        if not use_total and len(part.eq_ids) > _SHRINK_LIMIT:
            # a board of long wires: the merged encoding leaned on every chain; shrink
            # the wires themselves, stretch by stretch, within the time left
            wires = wire_clash(self.system, sorted(set(kept) | set(part.links) | set(part.parity_ids)),
                               deadline=time.perf_counter() + 0.8 * max(self.deadline - time.perf_counter(), 0.0),
                               needed=frozenset(kept) if finished else frozenset())
            if wires is not None:
                eq_ids, minimal = wires
                return InconsistentError("no layout satisfies these clues together",
                                         self.system.clues_of(eq_ids), minimal=minimal)
        if time.perf_counter() > self.deadline:  # no time to check a smaller set: the whole part clashes
            return InconsistentError("no layout satisfies these clues together",
                                     self.system.clues_of(part.eq_ids), uses_total=part.total is not None,
                                     minimal=False)
        candidate = _prune_hanging_links(self.system, sorted(set(kept) | set(part.links_of(kept))))
        return self._shrink_candidate(candidate, part.total if use_total else None, part.eq_ids)

    def _total_over(self, cells: list[int], total: tuple[int, int] | None) -> tuple[int, int] | None:
        """The total as seen by a part over ``cells`` only: every other covered cell,
        frontier or not, is free to hold the mines the part does not."""
        if total is None:
            return None
        return total[0], len(self.system.covered) - len(cells)

    def _clashes_alone(self, eq_ids: list[int], total) -> bool:
        """Whether ``eq_ids`` (and the total, when given) hold no layout by themselves,
        checked on a merged encoding of their own; False when the check runs out of time."""
        s = self.system
        cells = list(s.component_cells(eq_ids))
        try:
            check = _MergedPart(s, eq_ids, cells, total=self._total_over(cells, total), backend=self.backend,
                                encoding=self.encoding, limits=self.limits)
        except BudgetExceeded:
            return False
        try:
            return check.solve(check.selectors() + check.total_assumptions(), self.budget, self.deadline) is False
        finally:
            check.delete()

    def _shrink_candidate(self, eq_ids: list[int], total, group: list[int]) -> InconsistentError:
        """A clash among ``eq_ids`` (and the total), checked and shrunk as time allows.

        The candidate is checked with a merged encoding of its own clues only (merges
        then follow from the candidate itself); if it is not a clash, the whole group
        is. Small candidates are then shrunk to a minimal clash on the plain encoding.
        """
        s = self.system
        chosen = group
        if 2 * len(eq_ids) < len(group):  # otherwise checking costs as much as it can save
            if time.perf_counter() > self.deadline:
                return InconsistentError("no layout satisfies these clues together",
                                         s.clues_of(group), uses_total=total is not None, minimal=False)
            if self._clashes_alone(eq_ids, total):  # else (or no time to check) the group clashes
                chosen = eq_ids
        if len(chosen) <= _SHRINK_LIMIT:
            cells = list(s.component_cells(chosen))
            try:
                part = _Part(s, chosen, cells, total=self._total_over(cells, total), backend=self.backend,
                             encoding=self.encoding, limits=self.limits)
            except BudgetExceeded:
                part = None
            if part is not None:
                try:
                    return self._clash(part)
                finally:
                    part.delete()
        return InconsistentError("no layout satisfies these clues together", s.clues_of(chosen),
                                 uses_total=total is not None, minimal=False)

    # -- the search ---------------------------------------------------------------------
    def run(self, *, explain: bool = False) -> SatOutcome:
        """Settle every covered cell the equations force.

        Without ``explain``, cells proven by SAT carry no reason (``None``); with it,
        every proven cell carries a minimal set of clues and whether the total is
        needed.

        Raises
        ------
        InconsistentError
            When no layout satisfies the clues (and the total), with a minimal core.
        """
        s = self.system
        try:
            cheap = Propagator(s, subset=True, use_total=self.use_total, budget=self.limits).run()
        except InconsistentError:
            clash = self.contradiction()
            if clash is None:  # pragma: no cover - the cheap rules are sound
                raise
            raise clash from None
        known = dict(cheap.known)
        reason: dict[int, tuple[frozenset[int], bool] | None] = {}
        settled = len(known) == len(s.covered) and (
            not self.use_total or sum(known.values()) == s.remaining)
        complete = cheap.finished
        unconstrained = None
        if not settled and cheap.finished:
            try:
                self._build(merged=True)
                for part in self.parts:
                    complete = self._settle_part(part, known) and complete
                unconstrained, decided = self._decide_unconstrained(known)
                complete = complete and decided
            except BudgetExceeded:  # out of time while encoding: what is proven stays proven
                complete = False
            finally:
                self.calls = sum(p.calls for p in self.parts)
                self.close()
            if unconstrained is not None:
                for c in s.unconstrained:
                    known[c] = unconstrained[0]
        if explain and known and time.perf_counter() < self.deadline:
            reason.update(self.explain(known))  # what it leaves out is said as such
        for c in known:  # not explained (not asked for, or not within the time limit)
            reason.setdefault(c, None)
        undecided = [c for c in s.covered if c not in known]
        return SatOutcome(known, reason, undecided, complete, self.calls)

    def _settle_part(self, part: "_MergedPart", known: dict[int, bool]) -> bool:
        """Prove every variable of a part that the clues force, both ways, one
        question per variable (a whole chain of linked cells at once)."""
        base = part.selectors() + part.total_assumptions()
        lit = part.lit
        fixed = part.fixing(known)
        seen: set[int] = set()  # literals true in some model
        variables = sorted({abs(x) for x in lit.values()})

        def absorb() -> None:
            model = part.solver.get_model()
            values = [model[v - 1] for v in variables]
            seen.update(values)
            # Prefer the opposite values next time, so one model flips many variables.
            part.solver.set_phases([-x for x in values])

        if self.witnessed is not None:
            # a cell is a mine exactly when its literal is true: a layout that showed it
            # a mine makes lit[c] true in a model, one that showed it safe -lit[c]
            mines, safes = self.witnessed
            seen.update(lit[c] for c in part.cells if c in mines)
            seen.update(-lit[c] for c in part.cells if c in safes)
        if not seen:  # no layout known: the first model shows the part consistent
            res = part.solve(base + fixed, self.budget, self.deadline)
            if res is None:
                return False
            if res is False:
                raise self._merged_clash(part)
            absorb()
        cells_of: dict[int, list[int]] = {}
        for c in part.cells:
            if c not in known:
                cells_of.setdefault(abs(lit[c]), []).append(c)
        complete = True
        for v, cells in cells_of.items():
            for x in (v, -v):
                if x in seen or cells[0] in known:
                    continue
                if time.perf_counter() > self.deadline:
                    return False
                res = part.solve(base + fixed + [x], self.budget, self.deadline)
                if res is True:
                    absorb()
                elif res is False:
                    fixed.append(-x)
                    for c in cells:  # -x holds: a cell is a mine when its literal is -x
                        known[c] = lit[c] == -x
                else:
                    complete = False
        return complete

    def explain(self, known: dict[int, bool]) -> dict[int, tuple[Collection[int], bool] | None]:
        """A minimal set of clues (and whether the total) for every cell of ``known``:
        a frozenset, or a tuple in ascending order where the compiled search found it.

        ``known`` must hold only cells that the clues (and the total) force. Every
        cell is asked of the compiled search of
        :func:`~mscsp.analysis.solvers.local.local_reasons` in one call: a cell that
        one clue forces alone takes that clue, a cell in exactly the clues of one
        asked before it takes that one's reason, a cell away from the clues the
        total's (as :func:`~mscsp.analysis.solvers.local.total_reason` gives it), and
        the others a set of equations grown outwards from the cell and shrunk by
        deletion, with the total only when the clues together leave the cell free.
        What the search leaves (past its cells, nodes or time, or without a C
        compiler) takes one clue when one forces it, else a pair of clues when one
        forces it (closed form, see
        :func:`~mscsp.analysis.solvers.local.pair_reason`), else a core shrunk by
        deletion on a plain encoding: first of the cell's component alone, without
        the total, and only when that does not force the cell, of the whole frontier
        with the total. Solvers are built only for the components that need one, and
        no set of two clues is asked of them.
        Cells touched by exactly the same clues are interchangeable (swapping two
        maps layouts to layouts), so a minimal reason of one is a minimal reason of
        the others: one core serves them all. Cells not explained within the time
        limit get None.
        """
        s = self.system
        reason: dict[int, tuple[frozenset[int], bool] | None] = {}
        cells = sorted(known)
        # the compiled search answers every cell in one call (one clue, a twin, the total
        # away from the clues, then the search); what it leaves is asked below
        local = local_reasons(s, {c: known[c] for c in cells}, self.deadline, use_total=self.use_total, by_clue=True)
        if all(local.values()):  # the usual case: the search answered every cell
            return local
        rest = []
        for c in cells:
            near = local[c]
            if near:
                reason[c] = near  # (clues ascending, uses total)
            else:
                rest.append(c)
        if not rest:
            return reason
        alone = single_clue_reasons(s)  # what one clue forces, where the search was not asked
        for c in rest:
            found = alone.get(c)
            if found is not None and found[1] == known[c]:
                reason[c] = (frozenset((found[0],)), False)
        rest = [c for c in rest if c not in reason]
        if not rest:
            return reason
        component_of: dict[int, int] = {}  # filled when SAT first needs a component
        parts: dict[int, _Part] = {}
        whole: list[_Part] = []  # built once, when a cell needs the total

        def whole_part() -> _Part:
            if not whole:
                eq_ids = list(range(len(s.constraints)))
                whole.append(_Part(s, eq_ids, list(s.frontier), total=(s.remaining, len(s.unconstrained)),
                                   backend=self.backend, encoding=self.encoding, limits=self.limits))
                self.parts.append(whole[0])
            return whole[0]

        twins: dict[tuple[tuple[int, ...], bool], int] = {}  # (clues, value) -> the cell explained
        twin_of = {c: twins.setdefault((tuple(s.by_cell[c]), known[c]), c) for c in rest if c in s.by_cell}
        cell_sets: dict[int, frozenset[int]] = {}
        try:
            for c in rest:
                if time.perf_counter() > self.deadline:
                    break
                if c in s.by_cell:
                    twin = twin_of[c]
                    if twin != c:
                        reason[c] = reason.get(twin)
                        continue
                    near = local[c]
                    if near is None:
                        pair = pair_reason(s, c, known[c], cell_sets)  # minimal: no clue forces c alone
                        if pair is not None:
                            reason[c] = (frozenset(s.constraints[e].clue for e in pair), False)
                            continue
                        if not component_of:
                            component_of.update((e, i) for i, comp in enumerate(s.components) for e in comp)
                        i = component_of[s.by_cell[c][0]]
                        part = parts.get(i)
                        if part is None:
                            comp = list(s.components[i])
                            part = parts[i] = _Part(s, comp, list(s.component_cells(s.components[i])), total=None,
                                                    backend=self.backend, encoding=self.encoding, limits=self.limits)
                            self.parts.append(part)
                        found = self._deletion(part, [-part.lit[c] if known[c] else part.lit[c]],
                                               include_total=False, single_and_pairs_fail=True)
                    else:  # the clues alone leave it free, and the search had no total
                        part, found = None, None
                    if found is None and self.use_total and time.perf_counter() < self.deadline:
                        part = whole_part()  # the clues alone do not force it: the total is needed
                        found = self._deletion(part, [-part.lit[c] if known[c] else part.lit[c]],
                                               include_total=True, single_and_pairs_fail=True)
                    reason[c] = self._clues(part, found)
                elif c not in reason and self.use_total:
                    # a cell away from clues, forced by the total: all of them are, together,
                    # by the bound shifted by one that leaves one of them the other way (the
                    # compiled search's answer was not found, or there is no search)
                    if local[c] is None and whole_part().shiftable:
                        part = whole_part()
                        shift = {"lower_shift": 1} if known[c] else {"upper_shift": 1}
                        small = self._clues(part, self._deletion(part, part.total_assumptions(**shift),
                                                                 include_total=False))
                    else:
                        small = None
                    for u in s.unconstrained:
                        reason[u] = None if small is None else (small[0], True)
        except BudgetExceeded:  # out of time while encoding: the rest stays unexplained
            pass
        finally:
            self.calls += sum(p.calls for p in self.parts)
            self.close()
        return reason

    def _decide_unconstrained(self, known: dict[int, bool]) -> tuple[tuple[bool, dict] | None, bool]:
        """Cells touching no clue: all alike, so decided together, only by the total.

        One of them can be a mine exactly when the frontier can hold at most
        ``remaining - 1`` mines; one can be safe exactly when it can hold at least
        ``remaining - u + 1``. Returns ``((mine, shift), True)`` when they are forced
        (``shift`` names the shifted bound that proves it), ``(None, complete)``
        otherwise.
        """
        s = self.system
        if not s.unconstrained or not self.use_total or not self._total_binds():
            return None, True
        part = self.parts[0]
        if not part.shiftable:
            return None, False
        fixed = part.fixing(known)
        for mine, shift in ((False, {"upper_shift": 1}), (True, {"lower_shift": 1})):
            res = part.solve(part.selectors() + fixed + part.total_assumptions(**shift), self.budget, self.deadline)
            if res is None:
                return None, False
            if res is False:
                return (mine, shift), True
        return None, True
