"""Counting, stage 5a: the dynamic programme in floating point, with proven bounds.

Where exact counting gives up on a component because its integers grow long (a 30x16
position with no zero holds polynomials of 169 coefficients of 370 bits in each of
thousands of states: a minute and 3 GB in exact arithmetic), the same forward–backward
programme (:mod:`~mscsp.analysis.counting.exact.sweep`) runs in doubles. Every quantity it
forms is a sum of products of non-negative numbers, so each rounding multiplies the
exact value by a factor within ``[1 - u, 1 + u]`` (``u = 2**-53``), provided nothing
overflows or underflows (both are checked). A value formed through at most ``n``
roundings is then within a factor ``1 ± γ(n)``, ``γ(n) = n u / (1 - n u)``, of the
exact one (N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
SIAM 2002, Lemma 3.1 and §4.2 on sums of non-negative terms; Lemma 3.3 for a
quotient); the programme counts each result's roundings, and every probability comes
with an interval that contains the exact value — a proven bound, not a statistical
one. A few thousand roundings give intervals of about ``1e-12``.

Two more facts follow. A sum of non-negative terms is zero in floating point exactly
when it is zero (no underflow), so a cell whose computed mine weight is positive is
proven to hold a mine in some layout, and one whose safe weight is positive to be
safe in some: the *witnessed* cells that the SAT proofs then need not ask about.
And the backward sweep carries the dual of the forward one: given the weight of the
rest of the board for each mine count of the component, an entry's backward value is
the weight of its completions, so a variable's tally is one dot product a state, not
a product of polynomials, and coefficients that cannot reach the total are dropped.

The programme runs in C (``_rounded.c``) where it was built, else in Python (the same
arithmetic, slower). Results are labelled estimates (``exact`` False) with their
intervals; no layout count is claimed exact.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

from ...budget import DEFAULT_STATE_LIMIT, Budget, resident_bytes
from ...errors import BudgetExceeded
from .exact.sweep import Arithmetic, _Plan
from .exact.variables import Problem

try:
    from . import _rounded
except ImportError:  # pragma: no cover - built where a C compiler is found
    _rounded = None

__all__ = ["COMPILED", "METHOD", "Declined", "RoundedCount", "count_rounded", "rounded_estimate", "gamma",
           "share_bounds"]

#: Whether the compiled programme (``_rounded.c``) was built.
COMPILED = _rounded is not None

#: Unit roundoff of IEEE double precision, round to nearest.
UNIT = Fraction(1, 2**53)

#: Bits the packed state may use: the compiled programme keeps it in 64 bits.
STATE_BITS = 63

#: Values of a table above this are refused (see ``_rounded.c``): a product of two
#: stays far from overflow.
CEILING = 2.0**490

#: Factors above this are refused: a value under the ceiling times one stays finite.
FACTOR_CEILING = 2.0**500

#: Weights of the rest of the board are scaled to at most 1; a positive one below this
#: after scaling is refused (the programme's products must not underflow).
FLOOR = 2.0**-1000

#: Statuses of the compiled programme.
_OK, _TIME, _MEMORY, _LARGE, _MANY = 0, 1, 2, 3, 4

#: How the estimates' statistics name the method.
METHOD = "the counting programme in floating point with every rounding bounded (proven bounds, not a sample)"


def gamma(n: int) -> Fraction:
    """``γ(n) = n u / (1 - n u)``: a value formed through ``n`` roundings of
    non-negative terms is within a factor ``1 ± γ(n)`` of the exact one.

    Examples
    --------
    >>> float(gamma(1)) == 2.0**-53 / (1 - 2.0**-53)
    True
    """
    nu = n * UNIT
    if nu >= 1:
        raise ValueError("too many roundings to bound")
    return nu / (1 - nu)


@dataclass(frozen=True)
class RoundedCount:
    """One component counted in floating point.

    ``poly[j - poly_lo]`` approximates the weight of the component's assignments with
    ``j`` mines (within ``1 ± γ(poly_depth)``); with weights, ``total`` approximates
    ``sum_j weight(j) w[j]`` and ``tallies[i][o]`` the part of it whose step ``i``
    takes option ``o`` of the plan, each within ``1 ± γ`` of its depth. ``steps[i]``
    is step ``i``'s variable and the indices of its options, in the tallies' order.
    """

    steps: tuple[tuple[int, tuple[int, ...]], ...]
    poly_lo: int
    poly: tuple[float, ...]
    poly_depth: int
    total: float | None = None
    total_depth: int = 0
    tallies: tuple[tuple[float, ...], ...] | None = None
    tally_depth: int = 0


class Declined(Exception):
    """The rounded count cannot be made here (too wide a state, values out of the
    range of doubles, too many states, or its budget ran out)."""


def _plan(problem: Problem, order, arith: Arithmetic, budget: Budget) -> _Plan:
    try:
        return _Plan(problem, order, arith, budget, "the rounded count")
    except BudgetExceeded as exc:
        raise Declined(str(exc)) from None


def _steps(plan: _Plan, problem: Problem, by_count: bool) -> tuple[list, bool]:
    """The plan as the compiled programme reads it, and whether every factor is a
    double exactly."""
    exact = True
    steps = []
    for step in plan.steps:
        var = problem.variables[step.var]
        opts = []
        for oi, shift, factor, delta, touches in step.options:
            try:
                f = float(factor)
            except OverflowError:  # a long chain's weight under a density
                f = math.inf
            if f > FACTOR_CEILING:
                raise Declined("a variable's weight is too large for doubles")
            exact = exact and f == factor
            opts.append((var.options[oi].mines if by_count else 0, f, delta, [tuple(t) for t in touches]))
        steps.append(opts)
    return steps, exact


def _windows(problem: Problem, plan: _Plan, kmax: int, support: tuple[int, int] | None) -> tuple[list, list]:
    """The coefficients worth keeping after each step: those from which the variables
    left can reach a mine count in ``support`` (and at most ``kmax``).

    The mines the variables left can place lie between the sums of their least and
    most; tighter, a set of clues all of whose variables are still to come, over
    disjoint groups of cells, puts exactly their targets in those cells, and the other
    variables add between their least and most (the set is grown greedily as the steps
    go back, each clue taken when its variables are free; with none taken the bounds are
    the plain sums, and a clue's target lies between its groups' least and most
    whenever some layout meets it). On a lattice of clues that leaves a third of the
    cells free instead of all of them, which narrows every band.
    """
    m = len(plan.steps)
    variables = problem.variables
    position = {step.var: i for i, step in enumerate(plan.steps)}
    members = problem.clue_members()
    first = [min((position[v] for v in vs), default=m) for vs in members]
    opening: dict[int, list[int]] = {}
    for c, i in enumerate(first):
        if i < m and all(variables[v].group for v in members[c]):
            opening.setdefault(i, []).append(c)

    def least_most(v: int) -> tuple[int, int]:
        mines = [o.mines for o in variables[v].options]
        return min(mines), max(mines)

    # the packed clues' exact mines, and the least and most of the variables outside them
    packed_mines, packed_vars = 0, set()
    free_lo = free_hi = 0
    lo_after = [0] * (m + 1)
    hi_after = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        least, most = least_most(plan.steps[i].var)
        free_lo, free_hi = free_lo + least, free_hi + most
        for c in opening.get(i, ()):
            vs = members[c]
            if packed_vars.isdisjoint(vs):
                packed_vars.update(vs)
                packed_mines += problem.targets[c]
                for u in vs:
                    least, most = least_most(u)
                    free_lo, free_hi = free_lo - least, free_hi - most
        lo_after[i], hi_after[i] = packed_mines + free_lo, packed_mines + free_hi
    wlo, whi = support if support is not None else (0, kmax)
    jlo = [max(0, wlo - hi) for hi in hi_after]
    jhi = [min(kmax, whi - lo) for lo in lo_after]
    return jlo, jhi


def _allowance(budget: Budget) -> int:
    """Bytes the tables may take: the budget's allowance and the room its resident
    bound leaves."""
    room = budget.memory if budget.memory is not None else 1 << 40
    if budget.resident is not None:
        held = resident_bytes()
        if held is not None:
            room = min(room, budget.resident - held)
    return max(room, 0)


def count_rounded(problem: Problem, order, kmax: int, weights: list[float] | None, *, by_count: bool = True,
                  mine: int = 1, safe: int = 1, weights_depth: int = 0,
                  budget: Budget | None = None, state_limit: int = DEFAULT_STATE_LIMIT) -> RoundedCount:
    """Count one component in floating point (see the module docstring).

    Parameters
    ----------
    kmax : int
        Coefficients above this (more mines than the total leaves) are dropped.
    weights : list of float, optional
        ``w[0..kmax]``, the weight of the rest of the board when the component holds
        ``j`` mines, each within ``1 ± γ(weights_depth)`` of the exact one, the
        largest at most 1; without them only the forward sweep runs (``poly``).
    by_count : bool
        False for plain weights (no total): each mine weighs ``mine`` and each safe
        cell ``safe``, ``kmax`` is 0.
    state_limit : int
        A table may hold at most this many entries.

    Raises
    ------
    Declined
        When the count cannot be made within ``budget`` or in doubles.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> s = build_constraints(parse_position(".2.\\n...\\n"))
    >>> p = build_problem(s, s.components[0])
    >>> r = count_rounded(p, range(len(p.variables)), 5, None)
    >>> r.poly_lo, r.poly  # C(5, 2) ways with two mines
    (2, (10.0,))
    """
    budget = budget or Budget()
    arith = Arithmetic(1, None) if by_count else Arithmetic(0, mine=mine, safe=safe)
    plan = _plan(problem, order, arith, budget)
    if plan.fields * plan.field_bits > STATE_BITS:
        raise Declined("the counting order's open clues do not fit in 64 bits")
    steps, exact_factors = _steps(plan, problem, by_count)
    if not by_count:
        kmax = 0
    support = None
    if weights is not None:
        nonzero = [j for j, x in enumerate(weights) if x > 0]
        if not nonzero:
            raise Declined("no mine count of this part meets the total")
        support = (nonzero[0], nonzero[-1])
    jlo, jhi = _windows(problem, plan, kmax, support) if by_count else ([0] * (len(steps) + 1),) * 2
    seconds = budget.seconds_left()
    if seconds <= 0:
        raise Declined("out of time")
    allowance = _allowance(budget)
    if _rounded is not None:
        out = _rounded.count(steps, plan.field_mask, kmax, jlo, jhi, weights, weights_depth,
                             0.0 if seconds == float("inf") else seconds, allowance, state_limit)
    else:
        out = _count_python(steps, plan.field_mask, kmax, jlo, jhi, weights, weights_depth, budget, allowance,
                            state_limit)
    status = out[0]
    if status != _OK:
        raise Declined({_TIME: "out of time", _MEMORY: "out of memory",
                        _LARGE: "values past the range of doubles",
                        _MANY: f"a table passed {state_limit} states"}.get(status, "failed"))
    # an inexact factor adds one rounding a step each way
    extra = 0 if exact_factors else 2 * len(steps)
    named = tuple((step.var, tuple(oi for oi, *_ in step.options)) for step in plan.steps)
    if weights is None:
        return RoundedCount(named, out[1], tuple(out[2]), out[3] + extra)
    _, lo, poly, pdepth, total, tdepth, tallies, adepth = out
    return RoundedCount(named, lo, tuple(poly), pdepth + extra, total, tdepth + extra, tuple(map(tuple, tallies)),
                        adepth + extra)


def _count_python(steps, fmask, kmax, jlo, jhi, weights, wdepth, budget: Budget, allowance: int, state_limit: int):
    """The compiled programme's arithmetic in Python (every table kept): the same
    bands, sums and rounding depths."""
    m = len(steps)
    tables: list[dict[int, tuple[int, list[float]]]] = [{0: (0, [1.0])} if jlo[0] <= 0 <= jhi[0] else {}]
    depth_f = [0] * (m + 1)
    held = 0
    for i, opts in enumerate(steps):
        if budget.expired():
            return (_TIME,)
        lo1, hi1 = jlo[i + 1], jhi[i + 1]
        edges = []
        bands: dict[int, list[int]] = {}
        for n, (state, (alo, vals)) in enumerate(tables[i].items()):
            if not n % 4096 and budget.expired():
                return (_TIME,)
            for mines, f, delta, touches in opts:
                if not all(lo <= (state >> off & fmask) + add <= hi for off, add, lo, hi in touches):
                    continue
                blo, bhi = max(alo + mines, lo1), min(alo + len(vals) - 1 + mines, hi1)
                if blo > bhi:
                    continue
                t = state + delta
                band = bands.setdefault(t, [blo, bhi, 0])
                band[0], band[1] = min(band[0], blo), max(band[1], bhi)
                band[2] += 1
                edges.append((alo, vals, mines, f, t))
        if len(bands) > state_limit:
            return (_MANY,)
        nxt = {t: (lo, [0.0] * (hi - lo + 1)) for t, (lo, hi, _) in bands.items()}
        held += sum(len(v) * 8 + 120 for _, v in nxt.values())
        if held > allowance:
            return (_MEMORY,)
        for alo, vals, mines, f, t in edges:
            blo, dst = nxt[t]
            for j in range(max(alo + mines, blo), min(alo + len(vals) - 1 + mines, blo + len(dst) - 1) + 1):
                dst[j - blo] += vals[j - mines - alo] * f
        if any(x > CEILING for _, v in nxt.values() for x in v):
            return (_LARGE,)
        most = max((c for _, _, c in bands.values()), default=0)
        depth_f[i + 1] = depth_f[i] + any(f != 1.0 for _, f, _, _ in opts) + max(most - 1, 0)
        tables.append(nxt)
    lo_end, poly = tables[m].get(0, (0, []))
    if weights is None:
        return (_OK, lo_end, poly, depth_f[m])
    total = 0.0
    for j, x in enumerate(poly):
        total += x * weights[lo_end + j]
    after = {0: [weights[lo_end + j] for j in range(len(poly))]} if 0 in tables[m] else {}
    back_depth = wdepth
    tally_depth = 0
    tallies: list[list[float]] = [[] for _ in range(m)]
    for i in range(m - 1, -1, -1):
        if budget.expired():
            return (_TIME,)
        opts = steps[i]
        acc = [0.0] * len(opts)
        nxt = tables[i + 1]
        before = {}
        widest = 0
        for n, (state, (alo, vals)) in enumerate(tables[i].items()):
            if not n % 4096 and budget.expired():
                return (_TIME,)
            widest = max(widest, len(vals))
            mine_vals = [0.0] * len(vals)
            for o, (mines, f, delta, touches) in enumerate(opts):
                if not all(lo <= (state >> off & fmask) + add <= hi for off, add, lo, hi in touches):
                    continue
                t = state + delta
                if t not in nxt:
                    continue
                blo, bvals = nxt[t]
                nb = after[t]
                part = 0.0
                for j in range(max(alo, blo - mines), min(alo + len(vals) - 1, blo + len(bvals) - 1 - mines) + 1):
                    x = f * nb[j + mines - blo]
                    mine_vals[j - alo] += x
                    part += vals[j - alo] * x
                acc[o] += part
            before[state] = mine_vals
        if any(not x <= CEILING for v in before.values() for x in v) or not all(map(math.isfinite, acc)):
            return (_LARGE,)
        tally_depth = max(tally_depth, depth_f[i] + back_depth + 2 + widest + len(tables[i]))
        back_depth += any(f != 1.0 for _, f, _, _ in opts) + max(len(opts) - 1, 0)
        tallies[i] = acc
        after = before
    return (_OK, lo_end, poly, depth_f[m], total, depth_f[m] + wdepth + 1 + len(poly), tallies, tally_depth)


def _convolve(a: list[float], b: list[float]) -> list[float]:
    """The product of two polynomials of non-negative coefficients, each coefficient one
    correctly rounded sum of rounded products (two roundings deeper than its inputs)."""
    if not a or not b:
        return []
    return [math.fsum(a[i] * b[k - i] for i in range(max(0, k - len(b) + 1), min(k, len(a) - 1) + 1))
            for k in range(len(a) + len(b) - 1)]


def _down(x: Fraction) -> float:
    """The largest double at most ``x`` (``x`` in [0, 1])."""
    f = float(x)
    return math.nextafter(f, -math.inf) if Fraction(f) > x else f


def _up(x: Fraction) -> float:
    """The smallest double at least ``x`` (``x`` in [0, 1])."""
    f = float(x)
    return math.nextafter(f, math.inf) if Fraction(f) < x else f


def share_bounds(mine: float, safe: float, depth: int) -> tuple[float, float, float]:
    """``(p, low, high)`` for ``p = M / (M + S)`` from ``mine`` and ``safe``, each within
    ``1 ± γ(depth)`` of ``M`` and ``S``: the interval contains the exact share.

    The sum adds a rounding and the quotient one: ``p`` is within ``1 ± γ(2 depth + 2)``
    of the exact share (Higham's Lemma 3.3), and so is ``1 - p`` computed the same way
    from ``safe``; the interval is the tighter of the two, rounded outwards.

    Examples
    --------
    >>> p, lo, hi = share_bounds(1.0, 3.0, 10)
    >>> p, lo < 0.25 < hi, hi - lo < 1e-14
    (0.25, True, True)
    >>> share_bounds(0.0, 5.0, 10)
    (0.0, 0.0, 0.0)
    """
    whole = mine + safe
    if mine == 0 or safe == 0:
        p = 1.0 if mine else 0.0
        return p, p, p
    p, q = mine / whole, safe / whole
    g = gamma(2 * depth + 2)
    fp, fq = Fraction(p), Fraction(q)
    lo = max(fp / (1 + g), 1 - fq / (1 - g), Fraction(0))
    hi = min(fp / (1 - g), 1 - fq / (1 + g), Fraction(1))
    return p, _down(lo), _up(hi)


def _scaled(values: list[int]) -> tuple[list[float], int]:
    """Non-negative integers as doubles times ``2**shift``, the largest at most 1, each
    correctly rounded (one rounding)."""
    top = max(values, default=0)
    if not top:
        return [0.0] * len(values), 0
    shift = top.bit_length()
    out = [float(Fraction(v, 1 << shift)) if v else 0.0 for v in values]
    if any(0 < x < FLOOR for x in out):
        raise Declined("the rest of the board's weights span too many powers of two for doubles")
    return out, shift


def _normalised(values: list[float]) -> tuple[list[float], int]:
    """The values times ``2**-exp``, the power of two that brings the largest to at most 1
    (exact), and ``exp``."""
    top = max(values, default=0.0)
    if not top:
        return values, 0
    exp = math.frexp(top)[1]
    out = [math.ldexp(x, -exp) for x in values]
    if any(0 < x < FLOOR for x in out):
        raise Declined("the weights of the other parts span too many powers of two for doubles")
    return out, exp


def _kind_cells(problem: Problem, count: RoundedCount, cells: dict, seen: tuple[set, set]) -> None:
    """Every sampled cell's share from the tallies of its variable's step (each share's
    weights two roundings past the tallies': a product and a correctly rounded sum)."""
    depth = count.tally_depth + 2
    for (v, option_ids), acc in zip(count.steps, count.tallies):
        var = problem.variables[v]
        for k, kind in enumerate(var.kinds):
            mine = math.fsum(var.options[oi].kind_mines[k] * a for oi, a in zip(option_ids, acc))
            safe = math.fsum((len(kind) - var.options[oi].kind_mines[k]) * a for oi, a in zip(option_ids, acc))
            _record(kind, mine, safe, depth, cells, seen)


def _record(kind, mine: float, safe: float, depth: int, cells: dict, seen: tuple[set, set]) -> None:
    """A kind's share with its bounds, and whether it was shown holding a mine and safe."""
    bounds = share_bounds(mine, safe, depth)
    for c in kind:
        cells[c] = bounds
    if mine > 0:
        seen[0].update(kind)
    if safe > 0:
        seen[1].update(kind)


def rounded_estimate(parts: list, exact: list, unconstrained: tuple[int, ...], remaining: int | None,
                     weights: tuple[int, int], budget: Budget,
                     state_limit: int = DEFAULT_STATE_LIMIT) -> "Estimate":
    """Probabilities of the parts that exact counting gave up on (``parts``: problem
    and order), and of the rest of the board given them, by the rounded count: each
    with an interval proven to hold the exact value.

    ``exact`` are the tallies (by mine count, with a total) of the exactly counted
    components; ``weights`` the density's weights of a mine and a safe cell without a
    total; a table may hold at most ``state_limit`` entries.

    Raises
    ------
    Declined
        When a part cannot be counted so within ``budget``.
    """
    from .exact.combine import conditional_given_rest
    from .montecarlo.smc import Estimate, rest_of_board

    started = time.perf_counter()
    cells: dict[int, tuple[float, float, float]] = {}
    seen: tuple[set, set] = (set(), set())
    if remaining is None:
        layouts, worst = 1.0, 0
        for problem, order in parts:
            count = count_rounded(problem, order, 0, [1.0], by_count=False, mine=weights[0], safe=weights[1],
                                  budget=budget, state_limit=state_limit)
            if not count.total:
                raise Declined("no assignment of a part meets its clues")
            _kind_cells(problem, count, cells, seen)
            layouts *= count.total
            worst += count.total_depth
        bound = float(gamma(worst))
        interval = (layouts * (1 - bound), layouts * (1 + bound)) if math.isfinite(layouts) else None
        return Estimate(cells, layouts if math.isfinite(layouts) else None, interval, 0, 0, 0.0,
                        time.perf_counter() - started, details=_details(cells), witnessed=_frozen(seen))
    kmaxes = [min(p.ncells, remaining) for p, _ in parts]
    ktop = min(sum(kmaxes), remaining)
    rest = rest_of_board(exact, unconstrained, remaining, ktop)
    rest_exact = [rest.weight(k) for k in range(ktop + 1)]
    rest_w, shift = _scaled(rest_exact)
    if not any(rest_w):
        raise Declined("no mine count of the parts meets the total")
    polys: list[tuple[list[float], int]] = []
    if len(parts) > 1:
        for (problem, order), kmax in zip(parts, kmaxes):
            c = count_rounded(problem, order, kmax, None, budget=budget, state_limit=state_limit)
            polys.append(([0.0] * c.poly_lo + list(c.poly), c.poly_depth))
    counts = []
    exps = []
    for ci, ((problem, order), kmax) in enumerate(zip(parts, kmaxes)):
        if len(parts) == 1:
            (w, exp), wdepth = (rest_w[:kmax + 1], 0), 1
        else:
            others, odepth = [1.0], 0
            for cj, (poly, pdepth) in enumerate(polys):
                if cj != ci:
                    others, odepth = _convolve(others, poly), odepth + pdepth + 2
            w = [math.fsum(others[k] * rest_w[j + k] for k in range(len(others)) if j + k <= ktop)
                 for j in range(kmax + 1)]
            (w, exp), wdepth = _normalised(w), odepth + 3
        count = count_rounded(problem, order, kmax, w, weights_depth=wdepth, budget=budget, state_limit=state_limit)
        if not count.total:
            raise Declined("no layout meets the clues and the total")
        _kind_cells(problem, count, cells, seen)
        counts.append(count)
        exps.append(exp)
    if len(parts) == 1:
        c = counts[0]
        every, edepth = [0.0] * c.poly_lo + list(c.poly), c.poly_depth
    else:
        every, edepth = [1.0], 0
        for poly, pdepth in polys:
            every, edepth = _convolve(every, poly), edepth + pdepth + 2
    if rest.kinds:
        weight = [every[k] * rest_w[k] if k < len(every) and k <= ktop else 0.0 for k in range(ktop + 1)]
        live = [k for k, x in enumerate(weight) if x > 0]
        probs = {k: conditional_given_rest(exact, unconstrained, remaining, k) for k in live}
        for r, kind in enumerate(rest.kinds):
            mine = math.fsum(weight[k] * float(probs[k][r]) for k in live)
            safe = math.fsum(weight[k] * float(1 - probs[k][r]) for k in live)
            _record(kind, mine, safe, edepth + 4, cells, seen)
    total, tdepth = counts[0].total, counts[0].total_depth
    shift += exps[0]
    bound = float(gamma(tdepth))
    try:
        layouts = math.ldexp(total, shift)
        interval = (math.ldexp(total * (1 - 2 * bound), shift), math.ldexp(total * (1 + 2 * bound), shift))
    except OverflowError:
        layouts, interval = None, None
    return Estimate(cells, layouts, interval, 0, 0, 0.0, time.perf_counter() - started, details=_details(cells),
                    witnessed=_frozen(seen))


def _details(cells: dict) -> dict:
    """What the estimate reports beyond its cells: that it is the rounded count, and its
    widest relative bound."""
    widest = max(((hi - lo) / 2 for _, lo, hi in cells.values()), default=0.0)
    return {"rounded": True, "bound": widest}


def _frozen(seen: tuple[set, set]) -> tuple[frozenset[int], frozenset[int]]:
    return frozenset(seen[0]), frozenset(seen[1])
