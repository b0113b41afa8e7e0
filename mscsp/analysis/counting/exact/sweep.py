"""Counting, stage 4: the forward–backward dynamic programme over one component.

Variables are taken in a chosen order (:mod:`mscsp.analysis.counting.exact.order`). The table after
``i`` variables maps each vector of partial sums of the open clues — the *state*,
packed into one int — to the weight of the partial assignments that reach it; a clue
leaves the state once its last variable is decided, and only values that keep every
clue reachable (its partial sum between its target minus what the rest can add at
most and at least) are taken. The forward sweep stores its tables; the backward
sweep walks the same states from the end, giving each the weight of its completions
(the derivative of the total with respect to the state, as in reverse-mode
differentiation), and meets the forward weights at every transition, which tallies
every variable in one pass. Both sweeps visit only states reachable from the start,
so an order that is narrow forwards costs nothing more backwards.

Table entries are exact integers in one of two arithmetics:

- **by mine count**: a polynomial in the number of mines packed into one Python int
  (Kronecker substitution: the coefficient of ``x**k`` sits at bit ``k * bits``), so
  adding a mine is a shift and two polynomials multiply in one big-integer product.
  ``bits`` exceeds every coefficient's bit length, so no carry crosses into a
  neighbour. Coefficients above ``kmax`` (more mines than the total leaves) are cut
  off, which keeps entries short on boards whose total binds;
- **plain**: one integer per entry, each mine weighing ``mine`` and each safe cell
  ``safe`` (1 and 1 to count layouts; a density's odds otherwise), for positions
  without a total.

Setup is linear in the component. Every step checks the time and the memory the
tables will hold against a :class:`~mscsp.budget.Budget` before growing further;
when the stored tables would outgrow half the memory allowance, only every
``ceil(sqrt(m))``-th is kept and the others are recomputed from it when the backward
sweep needs them (checkpointing: more time, a square root of the memory).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from ....budget import UNLIMITED, Budget
from ....errors import BudgetExceeded, Resource
from .combine import unpack
from .variables import Problem, room_after

__all__ = ["Arithmetic", "SweepResult", "StateLimit", "sweep"]

#: Bytes one table entry costs beyond its key's slots and its integer's digits
#: (dict slot and hash, tuple and int headers), measured on CPython 3.11.
_ENTRY_BYTES = 120
#: How many steps of a plan are built between two checks of the budget.
_PLAN_CHECK_EVERY = 1024

#: Bytes of new entries a step builds, at most, between two checks of its budget.
_CHECK_BYTES = 8 << 20

#: How many new entries a step builds between two checks of its budget.
_CHECK_EVERY = 8192


class StateLimit(BudgetExceeded):
    """A component's DP table outgrew its bound on states."""

    def __init__(self, message: str):
        super().__init__(message, Resource.STATES)


@dataclass(frozen=True)
class Arithmetic:
    """How table entries weigh an assignment.

    ``bits`` > 0: polynomials in the mine count, ``bits`` bits a coefficient, cut
    above degree ``kmax`` (None: never cut). ``bits`` == 0: plain integers, each mine
    weighing ``mine`` and each safe cell ``safe``.
    """

    bits: int
    kmax: int | None = None
    mine: int = 1
    safe: int = 1

    @property
    def by_count(self) -> bool:
        return self.bits > 0

    @property
    def mask(self) -> int | None:
        if not self.bits or self.kmax is None:
            return None
        return (1 << (self.bits * (self.kmax + 1))) - 1

    @classmethod
    def polynomial(cls, problem: Problem, kmax: int | None = None) -> "Arithmetic":
        """Polynomials wide enough for this component: a coefficient never exceeds
        the product of the variables' total weights (``2**cells``) times the number
        of terms a product adds up."""
        ncells = problem.ncells
        top = ncells if kmax is None else min(kmax, ncells)
        return cls(ncells + max(top + 1, 1).bit_length() + 2, None if kmax is None or kmax >= ncells else kmax)

    def unpack(self, value: int, length: int) -> list[int]:
        """Coefficients ``0..length-1`` of a packed polynomial (plain: ``[value]``)."""
        if not self.bits:
            return [value]
        return unpack(value, self.bits, length)


class _Step:
    """One variable's transitions.

    ``options`` holds, for each of the variable's values, ``(value index, shift,
    factor, delta, touches)``: a state's entry moves to ``state + delta`` weighted
    ``(entry << shift) * factor`` when every ``(offset, add, lo, hi)`` of ``touches``
    keeps its field's partial sum within ``[lo, hi]``. ``fields`` gives, aligned with
    ``touches``, each clue's field index and whether the clue closes here; ``width``
    counts the clues still open after the step.
    """

    __slots__ = ("var", "options", "fields", "width")

    def __init__(self, var, options, fields, width):
        self.var = var
        self.options = options
        self.fields = fields
        self.width = width


class _Plan:
    """The steps of one processing order, built in time linear in the component.

    A state is one int: each open clue's partial sum sits in a field of
    ``field_bits`` bits. Fields are handed out when a clue opens and given back when
    it closes (its field reset to zero), so ``fields`` — the widest cut — of them
    serve the whole order, and adding a value to a state is one addition.
    """

    def __init__(self, problem: Problem, order: list[int] | tuple[int, ...], arith: Arithmetic,
                 budget: Budget = UNLIMITED, what: str = "exact counting"):
        variables = problem.variables
        targets = problem.targets
        m = len(order)
        first = [m] * len(targets)
        last = [-1] * len(targets)
        for i, v in enumerate(order):
            for c in variables[v].clues:
                first[c] = min(first[c], i)
                last[c] = max(last[c], i)
        after = room_after(problem, order, budget)
        bits = max(max(targets, default=1), 1).bit_length()
        self.field_bits = bits
        self.field_mask = (1 << bits) - 1
        free: list[int] = []
        used = 0
        field: dict[int, int] = {}
        width = 0
        self.steps: list[_Step] = []
        for i, v in enumerate(order):
            if not i % _PLAN_CHECK_EVERY:
                # a plan of tens of thousands of steps takes a good part of a second
                budget.check(what)
            var = variables[v]
            for c in var.clues:
                if first[c] == i:
                    if free:
                        field[c] = heapq.heappop(free)
                    else:
                        field[c] = used
                        used += 1
                    width += 1
            closing = [last[c] == i for c in var.clues]
            options = []
            for oi, opt in enumerate(var.options):
                touches = []
                delta = 0
                for k, c in enumerate(var.clues):
                    lo_add, hi_add = after[i][k]
                    t = targets[c]
                    off = field[c] * bits
                    touches.append((off, opt.adds[k], t - hi_add, t - lo_add))
                    delta += (opt.adds[k] - (t if closing[k] else 0)) << off
                if arith.bits:
                    shift, factor = arith.bits * opt.mines, opt.weight
                else:
                    shift, factor = 0, opt.weight * arith.mine ** opt.mines * arith.safe ** (var.size - opt.mines)
                options.append((oi, shift, factor, delta, tuple(touches)))
            fields = tuple((field[c], closing[k]) for k, c in enumerate(var.clues))
            for k, c in enumerate(var.clues):
                if closing[k]:
                    heapq.heappush(free, field.pop(c))
                    width -= 1
            self.steps.append(_Step(v, options, fields, width))
        self.fields = used


@dataclass(frozen=True)
class SweepResult:
    """What the sweep counted.

    ``total`` is the weight of every assignment (a packed polynomial by mine count,
    or a plain integer); ``kinds[v][k]`` is the weight summed over assignments times
    the mines they put in kind ``k`` of variable ``v``, in the same arithmetic.
    """

    total: int
    kinds: tuple[tuple[int, ...], ...]
    peak_states: int
    checkpoints: bool


class _Meter:
    """Bytes held by stored tables, checked against the budget before growing."""

    def __init__(self, budget: Budget, what: str):
        self.budget = budget
        self.what = what
        self.stored = 0

    @staticmethod
    def table_bytes(table: dict) -> int:
        return len(table) * _ENTRY_BYTES + sum(p.bit_length() + s.bit_length() for s, p in table.items()) // 8

    def check(self, growing: int) -> None:
        self.budget.check(self.what)  # the deadline, and the process's memory where it is bounded
        self.budget.check_memory(self.stored + growing, self.what)


def _advance(plan: _Plan, i: int, table: dict, arith: Arithmetic, meter: _Meter, state_limit: int,
             per_entry: int) -> dict:
    """The table after step ``i`` of ``plan``, from the table before it."""
    options = plan.steps[i].options
    fmask = plan.field_mask
    mask = arith.mask
    cur: dict = {}
    get = cur.get
    # entries between two checks: fewer where each holds a long polynomial, so that a
    # table outgrows its allowance by some megabytes at most
    every = max(64, min(_CHECK_EVERY, _CHECK_BYTES // (_ENTRY_BYTES + per_entry)))
    budget_at = every
    for state, poly in table.items():
        for _, shift, factor, delta, touches in options:
            for off, add, lo, hi in touches:
                v = (state >> off & fmask) + add
                if v < lo or v > hi:
                    break
            else:
                nxt = state + delta
                term = (poly << shift) * factor
                if mask is not None:
                    term &= mask
                cur[nxt] = get(nxt, 0) + term
        if len(cur) >= budget_at:
            budget_at += every
            if len(cur) > state_limit:
                raise StateLimit(f"a counting table passed {state_limit} states")
            meter.check(len(cur) * (_ENTRY_BYTES + per_entry))
    if len(cur) > state_limit:
        raise StateLimit(f"a counting table passed {state_limit} states")
    return cur


def sweep(problem: Problem, order: list[int] | tuple[int, ...], arith: Arithmetic, *,
          budget: Budget = UNLIMITED, state_limit: int | None = None) -> SweepResult:
    """Count one component by dynamic programming, forward then backward.

    The forward sweep stores its tables; the backward sweep walks the same states
    from the end, giving each the weight of its completions (the derivative of the
    total with respect to the state, as in reverse-mode differentiation), and meets
    the forward weights at every transition to tally every variable. Both sweeps
    only visit states reachable from the start, so a good order is good both ways.

    Raises
    ------
    BudgetExceeded
        When the budget's time or memory runs out (:class:`StateLimit` when one
        table passes ``state_limit`` entries).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> s = build_constraints(parse_position(".2.\\n...\\n"))
    >>> p = build_problem(s, s.components[0])
    >>> arith = Arithmetic.polynomial(p)
    >>> arith.unpack(sweep(p, range(len(p.variables)), arith).total, 6)  # C(5, 2) with two mines
    [0, 0, 10, 0, 0, 0]
    """
    limit = state_limit if state_limit is not None else 1 << 62
    m = len(order)
    meter = _Meter(budget, "exact counting")
    plan = _Plan(problem, order, arith, budget)

    def per_entry(table: dict) -> int:
        return _Meter.table_bytes(table) // max(len(table), 1) - _ENTRY_BYTES if table else 8

    # forward sweep: table i holds the weights of the states after i variables
    stored: dict[int, dict] = {0: {0: 1}}
    sizes: dict[int, int] = {0: 0}
    stride = 1
    table = stored[0]
    peak = 1
    for i in range(m):
        meter.check(0)
        nxt = _advance(plan, i, table, arith, meter, limit, per_entry(table))
        peak = max(peak, len(nxt))
        nbytes = _Meter.table_bytes(nxt)
        if stride == 1 and meter.stored + nbytes > (budget.memory or float("inf")) / 2:
            stride = max(2, math.isqrt(m - 1) + 1)
            for old in [k for k in stored if k % stride]:
                meter.stored -= sizes.pop(old)
                del stored[old]
        if (i + 1) % stride == 0 and i + 1 < m:
            meter.check(nbytes)
            stored[i + 1] = nxt
            sizes[i + 1] = nbytes
            meter.stored += nbytes
        table = nxt
    total = table.get(0, 0)

    segment: dict[int, dict] = {}
    segment_bytes: dict[int, int] = {}

    def drop(i: int) -> None:
        if i in segment:
            del segment[i]
            meter.stored -= segment_bytes.pop(i)

    def forward(i: int) -> dict:
        """Forward table ``i``, recomputed from its checkpoint when it was not kept."""
        if i in stored:
            return stored[i]
        if i not in segment:
            for old in list(segment):
                drop(old)
            base = (i // stride) * stride
            tab = stored[base]
            for u in range(base, i):
                tab = _advance(plan, u, tab, arith, meter, limit, per_entry(tab))
                nbytes = _Meter.table_bytes(tab)
                meter.check(nbytes)
                segment[u + 1] = tab
                segment_bytes[u + 1] = nbytes
                meter.stored += nbytes
        return segment[i]

    # backward sweep over the same states: completions of each state, and the tallies
    mask = arith.mask
    kinds: list[tuple[int, ...]] = [()] * len(problem.variables)
    after: dict = {0: 1}
    fmask = plan.field_mask
    for i in range(m - 1, -1, -1):
        meter.check(0)
        step = plan.steps[i]
        var = problem.variables[step.var]
        options = step.options
        live = [bool(any(var.options[oi].kind_mines)) for oi, _, _, _, _ in options]
        acc = [0] * len(options)
        before: dict = {}
        get = after.get
        for state, poly in forward(i).items():
            completions = 0
            for n, (_, shift, factor, delta, touches) in enumerate(options):
                for off, add, lo, hi in touches:
                    v = (state >> off & fmask) + add
                    if v < lo or v > hi:
                        break
                else:
                    rest = get(state + delta)
                    if rest:
                        term = (rest << shift) * factor
                        if mask is not None:
                            term &= mask
                        completions += term
                        if live[n]:
                            acc[n] += poly * term
            if completions:
                before[state] = completions
        if mask is not None:
            acc = [a & mask for a in acc]
        kinds[step.var] = tuple(
            sum(var.options[oi].kind_mines[k] * a for (oi, _, _, _, _), a in zip(options, acc))
            for k in range(len(var.kinds)))
        after = before
        drop(i)
    return SweepResult(total, tuple(kinds), peak, stride > 1)
