"""Exact layout counting and mine probabilities.

A pipeline of pure stages, after minesweepr's and JSMinesweeper's probability
engines (see ``STYLE.md``), with exact integers throughout:

1. **Equations** — :func:`mscsp.constraints.build_constraints`.
2. **Groups** — covered cells touched by exactly the same clues are one weighted
   variable: a group of ``n`` cells holding ``j`` mines counts ``C(n, j)`` ways.
3. **Components** — groups linked through shared clues; independent but for the
   mine total.
4. **Tallies** — for each component and each mine count ``k``, the number of
   consistent assignments ``W[k]`` and, for each group, the number of mines it holds
   summed over them ``M[g][k]``. Counted by dynamic programming along the frontier,
   not by enumerating assignments: groups are processed in an order of small width,
   the table is keyed by the partial sums of the still-open clues (a clue leaves the
   key once all its groups are decided) and each entry is a polynomial in the mine
   count. A backward sweep stores the tables; the forward sweep meets them to give
   every group's tally in one pass (forward–backward, as for hidden Markov chains).
5. **Combination** — components convolve over ``k``; the unconstrained cells add
   ``C(U, u)`` ways for ``u`` mines; the mine total picks the coefficient. Every
   probability is an exact :class:`fractions.Fraction` and the layout count a Python
   int, however large.

Polynomials are packed into single Python integers (Kronecker substitution: the
coefficient of ``x**k`` sits at bit ``k * B``), so shifting by a mine is a bit
shift, weighting by ``C(n, j)`` is one multiplication and the product of two
polynomials is one big-integer product, all in C. ``B`` is chosen above the largest
coefficient any product can reach, so no carry ever crosses into a neighbour.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from .constraints import ConstraintSystem, build_constraints
from .errors import InconsistentError, InputError
from .position import Position

__all__ = [
    "forced_cells",
    "estimate_component",
    "Group",
    "Tally",
    "Probabilities",
    "group_cells",
    "tally_component",
    "probabilities",
    "count_layouts",
    "StateLimit",
]

#: Default bound on the number of DP states of one step before a component is
#: declared too large to count exactly.
DEFAULT_STATE_LIMIT = 200_000


class StateLimit(Exception):
    """A component's DP table outgrew its bound."""


@dataclass(frozen=True)
class Group:
    """Covered cells touched by exactly the same clue equations."""

    cells: tuple[int, ...]
    constraints: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Tally:
    """Exact counts for one component.

    ``ways[k]`` is the number of assignments of the component's cells with ``k``
    mines satisfying its clues; ``mines[g][k]`` sums, over those assignments, the
    mines in group ``g``.
    """

    groups: tuple[Group, ...]
    ways: tuple[int, ...]
    mines: tuple[tuple[int, ...], ...]
    exact: bool = True

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted(c for g in self.groups for c in g.cells))


def group_cells(system: ConstraintSystem, component: tuple[int, ...]) -> list[Group]:
    """Split a component's cells into groups with identical clue sets (ordered by first cell)."""
    by_set: dict[tuple[int, ...], list[int]] = {}
    for c in system.component_cells(component):
        by_set.setdefault(tuple(system.by_cell[c]), []).append(c)
    groups = [Group(tuple(cells), key) for key, cells in by_set.items()]
    groups.sort(key=lambda g: g.cells[0])
    return groups


# -- packed polynomials ------------------------------------------------------------------
def _unpack(value: int, bits: int, length: int) -> list[int]:
    mask = (1 << bits) - 1
    out = []
    for _ in range(length):
        out.append(value & mask)
        value >>= bits
    return out


def _pack(coeffs: list[int], bits: int) -> int:
    value = 0
    for c in reversed(coeffs):
        value = (value << bits) | c
    return value


# -- ordering ----------------------------------------------------------------------------
def _order(groups: list[Group], constraints: dict[int, list[int]]) -> list[int]:
    """A processing order of small width: grow from an end, always taking the group
    that closes the most open clues and opens the fewest new ones."""
    m = len(groups)
    if m <= 2:
        return list(range(m))
    remaining_of = {c: len(gs) for c, gs in constraints.items()}
    neighbours: list[set[int]] = [set() for _ in range(m)]
    for gs in constraints.values():
        for g in gs:
            neighbours[g].update(gs)
    start = min(range(m), key=lambda g: (len(groups[g].constraints), len(neighbours[g]), g))
    order = []
    done = [False] * m
    open_cons: set[int] = set()
    frontier = {start}
    while len(order) < m:
        if not frontier:
            frontier = {next(g for g in range(m) if not done[g])}
        best = None
        best_score = None
        for g in frontier:
            closes = sum(1 for c in groups[g].constraints if remaining_of[c] == 1)
            opens = sum(1 for c in groups[g].constraints if c not in open_cons and remaining_of[c] > 1)
            score = (opens - closes, -closes, g)
            if best_score is None or score < best_score:
                best, best_score = g, score
        g = best
        frontier.discard(g)
        done[g] = True
        order.append(g)
        for c in groups[g].constraints:
            remaining_of[c] -= 1
            if remaining_of[c] == 0:
                open_cons.discard(c)
            else:
                open_cons.add(c)
        frontier.update(n for n in neighbours[g] if not done[n])
    return order


# -- the dynamic programme -----------------------------------------------------------------
def _layout(system: ConstraintSystem, component: tuple[int, ...],
            groups: list[Group] | None = None) -> tuple[list[Group], dict[int, int], list[int]]:
    """A component's groups, its clues' targets and a processing order of small width."""
    groups = groups if groups is not None else group_cells(system, component)
    targets = {c: system.constraints[c].count for c in component}
    members: dict[int, list[int]] = {c: [] for c in component}
    for gi, g in enumerate(groups):
        for c in g.constraints:
            members[c].append(gi)
    return groups, targets, _order(groups, members)


class _Sweep:
    """Precomputed transitions for one direction of processing."""

    def __init__(self, groups: list[Group], order: list[int], targets: dict[int, int], bits: int):
        self.groups = groups
        self.order = order
        self.targets = targets
        self.bits = bits
        pos = {g: i for i, g in enumerate(order)}
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for g in order:
            for c in groups[g].constraints:
                first[c] = min(first.get(c, pos[g]), pos[g])
                last[c] = max(last.get(c, pos[g]), pos[g])
        cap_after: list[dict[int, int]] = []  # capacity of each clue among groups after step i
        cap: dict[int, int] = {c: 0 for c in targets}
        for i in range(len(order) - 1, -1, -1):
            cap_after.append(dict(cap))
            for c in groups[order[i]].constraints:
                cap[c] += groups[order[i]].size
        cap_after.reverse()
        self.interfaces: list[tuple[int, ...]] = []  # interface before step i
        self.steps = []
        current: tuple[int, ...] = ()
        for i, g in enumerate(order):
            self.interfaces.append(current)
            starts = sorted(c for c in groups[g].constraints if first[c] == i)
            ext = tuple(sorted(set(current) | set(starts)))
            src = tuple(current.index(c) if c in current else -1 for c in ext)
            hit = tuple(k for k, c in enumerate(ext) if c in groups[g].constraints)
            ends = tuple((k, targets[c]) for k, c in enumerate(ext) if last[c] == i)
            nxt = tuple(c for c in ext if last[c] != i)
            keep = tuple(ext.index(c) for c in nxt)
            bounds = tuple((targets[c], targets[c] - cap_after[i][c]) for c in nxt)
            self.steps.append((g, ext, src, hit, ends, keep, bounds))
            current = nxt
        self.interfaces.append(current)

    def transitions(self, i: int, state: tuple[int, ...]):
        """Yield ``(j, next_state)`` for every mine count of step ``i``'s group that
        keeps every clue satisfiable."""
        g, ext, src, hit, ends, keep, bounds = self.steps[i]
        base = [state[k] if k >= 0 else 0 for k in src]
        n = self.groups[g].size
        for j in range(n + 1):
            vals = base[:]
            for k in hit:
                vals[k] += j
            if any(vals[k] != t for k, t in ends):
                continue
            nxt = tuple(vals[k] for k in keep)
            if any(v > hi or v < lo for v, (hi, lo) in zip(nxt, bounds)):
                continue
            yield j, nxt


#: Components are first counted by plain backtracking over group mine counts, which
#: beats setting up the DP on the small parts of ordinary boards; past this many search
#: nodes the backtracking gives way to the DP.
_BACKTRACK_NODES = 5_000


class _TooBig(Exception):
    """The backtracking count ran past its node budget."""


def _tally_small(groups: list[Group], targets: dict[int, int], order: list[Group], nodes: int) -> Tally:
    """Tallies by backtracking over group mine counts; raises _TooBig past its budget."""
    cons = sorted(targets)
    at = {c: i for i, c in enumerate(cons)}
    need = [targets[c] for c in cons]
    members = [[at[c] for c in g.constraints] for g in order]
    # room left in each clue after the first i groups
    room = [[0] * len(cons) for _ in range(len(order) + 1)]
    for i in range(len(order) - 1, -1, -1):
        room[i] = list(room[i + 1])
        for c in members[i]:
            room[i][c] += order[i].size
    ncells = sum(g.size for g in groups)
    ways = [0] * (ncells + 1)
    position = {id(g): gi for gi, g in enumerate(groups)}
    rows = [position[id(g)] for g in order]
    sizes = [g.size for g in order]
    mines = [[0] * (ncells + 1) for _ in groups]
    sums = [0] * len(cons)
    choice = [0] * len(order)
    binoms = [[comb(g.size, j) for j in range(g.size + 1)] for g in order]
    depth = len(order)
    budget = [nodes]

    def walk(i: int, weight: int, k: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig()
        if i == depth:
            ways[k] += weight
            for oi in range(depth):
                if choice[oi]:
                    mines[rows[oi]][k] += weight * choice[oi]
            return
        rest = room[i + 1]
        here = members[i]
        # the mine counts this group may take: every clue on it must stay reachable
        lo, hi = 0, sizes[i]
        for c in here:
            left = need[c] - sums[c]
            if left < hi:
                hi = left
            if left - rest[c] > lo:
                lo = left - rest[c]
        for j in range(lo, hi + 1):
            for c in here:
                sums[c] += j
            choice[i] = j
            walk(i + 1, weight * binoms[i][j], k + j)
            for c in here:
                sums[c] -= j
        choice[i] = 0

    walk(0, 1, 0)
    return Tally(tuple(groups), tuple(ways), tuple(tuple(row) for row in mines))


def tally_component(
    system: ConstraintSystem, component: tuple[int, ...], *, state_limit: int = DEFAULT_STATE_LIMIT
) -> Tally:
    """Exact tallies of one component by forward–backward dynamic programming.

    Raises
    ------
    StateLimit
        If a DP table would exceed ``state_limit`` entries.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> s = build_constraints(parse_position(".2.\\n...\\n"))
    >>> t = tally_component(s, s.components[0])
    >>> t.ways  # C(5, 2) assignments, all with two mines
    (0, 0, 10, 0, 0, 0)
    """
    groups = group_cells(system, component)
    try:
        # groups come in cell order, which follows the frontier: good enough to prune
        return _tally_small(groups, {c: system.constraints[c].count for c in component}, groups,
                            min(_BACKTRACK_NODES, state_limit))
    except _TooBig:
        pass
    groups, targets, order = _layout(system, component, groups)
    ncells = sum(g.size for g in groups)
    bits = ncells + max(ncells, 1).bit_length() + 2
    binom = [[comb(g.size, j) for j in range(g.size + 1)] for g in groups]

    # backward sweep: tables keyed by the right-hand partial sums at every cut
    back = _Sweep(groups, order[::-1], targets, bits)
    m = len(order)
    tables: list[dict[tuple[int, ...], int]] = [dict() for _ in range(m + 1)]
    tables[0] = {(): 1}
    for t in range(m):
        g = back.steps[t][0]
        cur: dict[tuple[int, ...], int] = {}
        for state, poly in tables[t].items():
            for j, nxt in back.transitions(t, state):
                cur[nxt] = cur.get(nxt, 0) + ((poly << (bits * j)) * binom[g][j])
        if len(cur) > state_limit:
            raise StateLimit(f"{len(cur)} states")
        tables[t + 1] = cur
    total = tables[m].get((), 0)

    # forward sweep, meeting the stored backward tables to tally every group
    fwd = _Sweep(groups, order, targets, bits)
    marg = [0] * len(groups)
    table: dict[tuple[int, ...], int] = {(): 1}
    for i in range(m):
        g = fwd.steps[i][0]
        interface = fwd.interfaces[i + 1]
        right = tables[m - i - 1]
        need = tuple(targets[c] for c in interface)
        cur = {}
        acc = 0
        for state, poly in table.items():
            for j, nxt in fwd.transitions(i, state):
                term = (poly << (bits * j)) * binom[g][j]
                cur[nxt] = cur.get(nxt, 0) + term
                if j:
                    other = right.get(tuple(t - v for t, v in zip(need, nxt)))
                    if other:
                        acc += j * term * other
        if len(cur) > state_limit:
            raise StateLimit(f"{len(cur)} states")
        marg[g] = acc
        table = cur
    length = ncells + 1
    return Tally(
        tuple(groups),
        tuple(_unpack(total, bits, length)),
        tuple(tuple(_unpack(marg[gi], bits, length)) for gi in range(len(groups))),
    )


def estimate_component(
    system: ConstraintSystem, component: tuple[int, ...], *, samples: int = 20_000, seed: int = 0,
    seconds: float = 2.0,
) -> tuple[Tally, float]:
    """Unbiased estimates of a component's tallies by sequential importance sampling.

    Knuth's estimator for the size of a search tree (D. E. Knuth, "Estimating the
    efficiency of backtrack programs", Math. Comp. 29, 1975), run along the DP's
    processing order: each group draws its mine count among the values that keep
    every clue satisfiable, with probability proportional to ``C(n, j)``; the path's
    weight is the product of the normalisers, and zero if a clue fails at the end.
    The mean weight with ``k`` mines is an unbiased estimate of ``W[k]`` (and of
    ``M[g][k]`` when multiplied by group ``g``'s draw).

    Sampling stops after ``samples`` paths or ``seconds`` (at least 100 paths), so an
    estimate never takes long. Returns the estimated tally (``exact=False``) and the
    relative standard error of the estimated total count.
    """
    import numpy as np

    groups, targets, order = _layout(system, component)
    sweep = _Sweep(groups, order, targets, 1)
    ncells = sum(g.size for g in groups)
    rng = np.random.default_rng(seed)
    ways = [Fraction(0)] * (ncells + 1)
    mines = [[Fraction(0)] * (ncells + 1) for _ in groups]
    totals = []
    deadline = time.perf_counter() + seconds
    for drawn in range(samples):
        if drawn >= 100 and time.perf_counter() > deadline:
            break
        state: tuple[int, ...] = ()
        weight = 1
        k = 0
        draws = []
        for i in range(len(order)):
            g = sweep.steps[i][0]
            options = list(sweep.transitions(i, state))
            if not options:
                weight = 0
                break
            w = [comb(groups[g].size, j) for j, _ in options]
            norm = sum(w)
            pick = int(rng.choice(len(options), p=[x / norm for x in w]))
            j, state = options[pick]
            weight *= norm
            k += j
            draws.append((g, j))
        totals.append(weight)
        if weight:
            ways[k] += weight
            for g, j in draws:
                if j:
                    mines[g][k] += weight * j
    drawn = len(totals)
    n = Fraction(drawn)
    mean = Fraction(sum(totals), drawn)
    var = sum((t - mean) ** 2 for t in totals) / max(drawn - 1, 1)
    rel = float((var / drawn) ** 0.5 / mean) if mean else float("inf")
    tally = Tally(
        tuple(groups),
        tuple(w / n for w in ways),
        tuple(tuple(m / n for m in row) for row in mines),
        exact=False,
    )
    return tally, rel


# -- combination -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Probabilities:
    """Exact mine probabilities of a position.

    Attributes
    ----------
    cells : dict
        Covered (unflagged) cell -> :class:`~fractions.Fraction` (or None where the
        model gives no number: cells away from clues when the total is unknown).
    layouts : int or None
        Exact number of layouts of the covered cells consistent with everything
        visible (and the total, when given).
    exact : bool
        False when a component was estimated rather than counted.
    model : str or None
        How layouts are weighted when the mine total is unknown; None when it is
        known (then every consistent layout of the whole board counts once).
    """

    cells: dict[int, Fraction | None]
    layouts: int | None
    exact: bool = True
    model: str | None = None
    stats: dict = field(default_factory=dict, compare=False)

    def best(self, proven_safe: set[int] | frozenset[int] = frozenset()) -> int | None:
        """The suggested next click.

        A proven-safe cell if there is one (the first in row order); otherwise the
        covered cell with the least mine probability, ties broken by row order
        (smallest ``y``, then ``x``). None when nothing is covered or every
        probability is unknown.
        """
        if proven_safe:
            return min(proven_safe)
        known = [(p, c) for c, p in self.cells.items() if p is not None]
        if not known:
            return None
        return min(known)[1]


def _poly_mul(a: list, b: list) -> list:
    """Exact product of two coefficient lists, through one big-integer product.

    Estimated tallies carry Fractions; they take the plain quadratic product.
    """
    if not a or not b:
        return []
    if min(len(a), len(b)) <= 2 or any(not isinstance(v, int) for v in a) or any(not isinstance(v, int) for v in b):
        # short factors (the [1] that starts every prefix product) and Fractions: plain product
        zero = 0 if all(isinstance(v, int) for v in a + b) else Fraction(0)
        out = [zero] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out
    top = max(max(a), max(b))
    bits = 2 * max(top.bit_length(), 1) + max(len(a), len(b)).bit_length() + 1
    prod = _pack(a, bits) * _pack(b, bits)
    return _unpack(prod, bits, len(a) + len(b) - 1)


def probabilities(
    position: Position,
    *,
    system: ConstraintSystem | None = None,
    backend: str = "dp",
    state_limit: int = DEFAULT_STATE_LIMIT,
    density: Fraction | None = None,
    samples: int = 20_000,
    seed: int = 0,
    estimate: bool = True,
) -> Probabilities:
    """Exact mine probability of every covered cell, and the number of layouts.

    Parameters
    ----------
    position : Position
    backend : {'dp', 'cpsat'}
        The dynamic programme, or OR-tools CP-SAT enumeration (an independent
        second backend for cross-checks; exponential, for small components).
    density : Fraction, optional
        Without a mine total, weight each layout as independent mines of this
        density; cells away from clues then get ``density``. Without it, each
        consistent assignment of the clue cells counts once and cells away from
        clues get no number.
    state_limit : int
        A component whose DP table outgrows this many states is not counted but
        estimated (:func:`estimate_component`, ``samples`` paths, ``seed``); the
        result then says ``exact=False`` and gives no layout count.
    estimate : bool
        With False, such a component raises :class:`StateLimit` instead.

    Raises
    ------
    InconsistentError
        When no layout is consistent with the position.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> p = probabilities(parse_position("mines: 1\\n.1...\\n"))
    >>> p.layouts, p.cells[0], p.cells[4]
    (2, Fraction(1, 2), Fraction(0, 1))
    """
    started = time.perf_counter()
    system = system if system is not None else build_constraints(position)
    tallies: list[Tally] = []
    errors: list[float] = []
    for comp in system.components:
        if backend == "dp":
            try:
                tallies.append(tally_component(system, comp, state_limit=state_limit))
            except StateLimit:
                if not estimate:
                    raise
                tally, rel = estimate_component(system, comp, samples=samples, seed=seed)
                tallies.append(tally)
                errors.append(rel)
        elif backend == "cpsat":
            from .cpsat_count import tally_component_cpsat

            tallies.append(tally_component_cpsat(system, comp))
        else:
            raise InputError(f"unknown counting backend {backend!r}; choose dp or cpsat")
    for t in tallies:
        if t.exact and not any(t.ways):
            raise InconsistentError("no layout satisfies the clues of one part of the board", ())
    exact = all(t.exact for t in tallies)
    stats: dict = {}
    if any(not t.exact and not any(t.ways) for t in tallies):
        # no sampled path reached a full assignment: there is nothing to weigh with
        stats["estimate"] = {"method": "sequential importance sampling (Knuth 1975) along the DP order",
                             "samples": samples, "seed": seed, "failed": "no sampled path satisfied every clue"}
        stats["seconds"] = time.perf_counter() - started
        return Probabilities({c: None for c in system.covered}, None, False, None, stats)
    if not exact:
        stats["estimate"] = {
            "method": "sequential importance sampling (Knuth 1975) along the DP order",
            "samples": samples,
            "seed": seed,
            "relative_standard_errors": errors,
        }
    unconstrained = system.unconstrained
    u = len(unconstrained)
    cells: dict[int, Fraction | None] = {}
    remaining = system.remaining
    if remaining is None:
        model = _model_without_total(tallies, unconstrained, density, cells)
        layouts = None
        if density is None and exact:
            layouts = 1
            for t in tallies:
                layouts *= sum(t.ways)
            layouts *= 2**u
        stats["seconds"] = time.perf_counter() - started
        return Probabilities(cells, layouts, exact, model, stats)

    parts, total = _with_total(tallies, unconstrained, remaining, exact)
    for group_cells_, num, den in parts:
        p = Fraction(num, den)
        for c in group_cells_:
            cells[c] = p
    stats["seconds"] = time.perf_counter() - started
    return Probabilities(cells, total, exact, None, stats)


def _support(values) -> int:
    """The mine counts with a nonzero entry, as the bits of an int."""
    bits = 0
    for k, v in enumerate(values):
        if v:
            bits |= 1 << k
    return bits


def _sum_support(a: int, b: int) -> int:
    """The achievable sums of one count from ``a`` and one from ``b`` (bit sets)."""
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out


def forced_cells(position: Position, *, system: ConstraintSystem | None = None,
                 state_limit: int = DEFAULT_STATE_LIMIT) -> dict[int, bool]:
    """The covered cells that the clues and the mine total force: True for a mine.

    Exactly the cells whose mine probability is 0 or 1, found without weighing: the
    probability of a group is a sum of positive terms, one per mine count ``k`` of its
    component that the rest of the board can complete to the total, so it is 0 when
    the group is empty in every such ``k`` and 1 when it is full in every such ``k``.
    Only which counts are achievable matters — bit sets, not the big integers of
    :func:`probabilities` — which is what a play loop needs at a stall.

    Raises
    ------
    InputError
        When the position has no mine total.
    StateLimit
        When a component's DP table would exceed ``state_limit`` entries (this
        function never estimates).
    InconsistentError
        When no layout is consistent with the position.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> forced_cells(parse_position("mines: 1\\n.1..\\n"))
    {3: False}
    """
    if position.mines is None or (system is not None and system.remaining is None):
        raise InputError("forced cells by counting need the mine total")
    system = system if system is not None else build_constraints(position)
    remaining = system.remaining
    tallies = [tally_component(system, comp, state_limit=state_limit) for comp in system.components]
    supports = [_support(t.ways) for t in tallies]
    if not all(supports):
        raise InconsistentError("no layout satisfies the clues of one part of the board", ())
    prefix = [1]
    for bits in supports:
        prefix.append(_sum_support(prefix[-1], bits))
    suffix = [1]
    for bits in reversed(supports):
        suffix.append(_sum_support(suffix[-1], bits))
    suffix.reverse()
    unconstrained = system.unconstrained
    u = len(unconstrained)
    # the frontier may hold j mines when the unconstrained cells can take the rest
    lo, hi = max(0, remaining - u), remaining
    if hi < lo or not prefix[-1] >> lo & ((1 << (hi - lo + 1)) - 1):
        raise InconsistentError("no layout satisfies the clues together with the mine total", (), uses_total=True)
    window = ((1 << (hi - lo + 1)) - 1) << lo
    out: dict[int, bool] = {}
    for ci, t in enumerate(tallies):
        others = _sum_support(prefix[ci], suffix[ci + 1])
        feasible = [k for k in range(len(t.ways)) if t.ways[k] and (others << k) & window]
        for gi, g in enumerate(t.groups):
            row = t.mines[gi]
            if all(row[k] == 0 for k in feasible):
                for c in g.cells:
                    out[c] = False
            elif all(row[k] == g.size * t.ways[k] for k in feasible):
                for c in g.cells:
                    out[c] = True
    if u:
        totals = [j for j in range(lo, hi + 1) if prefix[-1] >> j & 1]
        if all(j == remaining for j in totals):
            for c in unconstrained:
                out[c] = False
        elif all(remaining - j == u for j in totals):
            for c in unconstrained:
                out[c] = True
    return out


def _with_total(tallies: list[Tally], unconstrained: tuple[int, ...], remaining: int,
                exact: bool) -> tuple[list[tuple[tuple[int, ...], int, int]], int | None]:
    """Weigh the components' tallies with the mine total.

    Returns ``(parts, layouts)``: for every group of cells with one probability, and
    for the unconstrained cells, ``(cells, numerator, denominator)`` of that
    probability (not reduced), and the exact number of layouts (None when a tally is
    an estimate).
    """
    u = len(unconstrained)
    parts: list[tuple[tuple[int, ...], int, int]] = []
    # prefix / suffix products of the components' mine-count polynomials
    polys = [list(t.ways) for t in tallies]
    prefix = [[1]]
    for p in polys:
        prefix.append(_poly_mul(prefix[-1], p))
    suffix = [[1]]
    for p in reversed(polys):
        suffix.append(_poly_mul(suffix[-1], p))
    suffix.reverse()
    every = prefix[-1]

    # Ways to place the rest among the u unconstrained cells when the frontier holds j
    # mines, C(u, R - j), up to one common factor: E[j] = C(u, R - j) * D / C(u, L0)
    # with L0 = R - jmax and D = R! / L0!. E[j] has about jmax * log2(R) bits whatever
    # u is, so a 1000x1000 board weighs its frontier as cheaply as an Expert one.
    span = len(every)
    jmin, jmax = max(0, remaining - u), min(span - 1, remaining)
    rest = [0] * span
    if jmin <= jmax:
        e = 1
        for i in range(remaining - jmax + 1, remaining + 1):
            e *= i
        rest[jmax] = e
        for j in range(jmax, jmin, -1):  # E[j-1] = E[j] * (u - L_j) / (L_j + 1), exactly
            left = remaining - j
            e = e * (u - left) // (left + 1)
            rest[j - 1] = e
    scaled_total = sum(w * r for w, r in zip(every, rest))
    if scaled_total == 0 and exact:
        raise InconsistentError("no layout satisfies the clues together with the mine total", (), uses_total=True)
    total = None
    if exact and jmin <= jmax:
        base, factor = divmod(comb(u, remaining - jmax) * scaled_total, rest[jmax])
        if factor:  # pragma: no cover - E is built so that this division is exact
            raise ArithmeticError("layout count is not an integer")
        total = base
    for ci, t in enumerate(tallies):
        others = _poly_mul(prefix[ci], suffix[ci + 1])
        # weight of the rest of the board when this component holds k mines
        support = [(m, w) for m, w in enumerate(others) if w]
        weight = [sum(w * rest[k + m] for m, w in support if k + m < span) for k in range(len(t.ways))]
        for gi, g in enumerate(t.groups):
            num = sum(mk * wk for mk, wk in zip(t.mines[gi], weight) if mk)
            parts.append((g.cells, num, g.size * scaled_total))
    if u:
        # expected mines among the unconstrained cells: sum of (R - j) C(u, R - j) weights
        num = sum(w * (remaining - k) * rest[k] for k, w in enumerate(every) if w)
        parts.append((unconstrained, num, u * scaled_total))
    return parts, total


def _model_without_total(tallies, unconstrained, density, cells) -> str:
    if density is None:
        for t in tallies:
            z = sum(t.ways)
            for gi, g in enumerate(t.groups):
                p = Fraction(sum(t.mines[gi]), g.size * z)
                for c in g.cells:
                    cells[c] = p
        for c in unconstrained:
            cells[c] = None
        return (
            "no mine total: every consistent assignment of the cells next to clues "
            "counts once; cells away from clues get no number"
        )
    density = Fraction(density)
    if not 0 < density < 1:
        raise InputError(f"a mine density must lie strictly between 0 and 1, not {density}")
    odds = density / (1 - density)
    for t in tallies:
        weights = [w * odds**k for k, w in enumerate(t.ways)]
        z = sum(weights)
        for gi, g in enumerate(t.groups):
            num = sum(m * odds**k for k, m in enumerate(t.mines[gi]))
            p = num / (g.size * z)
            for c in g.cells:
                cells[c] = p
    for c in unconstrained:
        cells[c] = density
    return f"no mine total: each covered cell a mine independently with density {density}, conditioned on the clues"


def count_layouts(position: Position, **kwargs) -> int:
    """The exact number of layouts consistent with a position (and its total).

    Without a total, every covered cell is free beyond the clues: the count is over
    all mine counts.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> count_layouts(parse_position("mines: 10\\n" + "." * 30 + "\\n"))
    30045015
    """
    return probabilities(position, **kwargs).layouts
