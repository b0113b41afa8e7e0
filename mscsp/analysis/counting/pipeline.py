"""Which counter answers, within the budget: exact tallies, then the rounded count, then
Monte Carlo estimates, or no number with the reason.

Every component of a position's equations is tallied exactly while it fits its time and
state budget (:mod:`~mscsp.analysis.counting.exact`); the components that do not are
handed, with what is left of the time, to the count in floating point with proven
bounds (:mod:`~mscsp.analysis.counting.rounded`), then to sequential Monte Carlo and
the layout chains (:mod:`~mscsp.analysis.counting.montecarlo`). The shares of the budget
each stage may spend are set here; :class:`Counts` carries the tallies to the
combination, and :func:`probabilities`, :func:`count_layouts` and :func:`forced_cells`
are the questions asked of it.

One module, not several: its subject is the order of the fallbacks and the share of the
budget each may spend, which only reads right when the exact stage, the estimates and
the reasons for giving up are seen together.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from ...budget import DEFAULT_STATE_LIMIT, Budget, give_back
from ...errors import BudgetExceeded, InconsistentError, InputError
from ...position import Position
from .. import constraints as _constraints
from ..constraints import Constraint, ConstraintSystem, build_constraints
from .exact.combine import (
    Group,
    Probabilities,
    Tally,
    density_weights,
    fill_groups,
    plain_weight,
    sum_support,
    support,
    with_total,
    without_total,
)
from .montecarlo.smc import Estimate, rest_of_board, smc_estimate
from .exact.listing import list_layouts, list_walled
from .montecarlo.mcmc import chain_estimate
from .exact.order import Order, choose_order
from .outcomes import EstimateFailure, GaveUp, NoEstimate, NoTotalModel, _note_inexact
from .exact.quick import quick_probabilities
from .rounded import METHOD as _ROUNDED_METHOD
from .rounded import Declined, rounded_estimate
from .exact.search import COMPILED as COMPILED_SEARCH
from .exact.search import TooBig, search, search_by_label
from .exact.sweep import Arithmetic, StateLimit, sweep
from .exact.variables import Problem, build_problem

__all__ = ["Counts", "count_components", "probabilities", "tally_component", "tally_by_label", "count_layouts",
           "forced_cells"]


#: Components are first counted by plain backtracking over the variables' values,
#: which beats setting up the DP on the small parts of ordinary boards; past this
#: many search nodes (the ``backtrack_nodes`` argument) the backtracking gives way
#: to the DP. 0 sends every component to the DP.
BACKTRACK_NODES = 5_000

#: A component whose best processing order bounds its widest table by more than
#: ``state_limit ** HOPELESS_FACTOR`` entries is not swept at all (it gives up at once,
#: as if it had passed ``state_limit``). The tables the programme builds are smaller
#: than the bound, but not by that much: over the lattices of clues and the Expert
#: positions of ``examples/positions``, the log of the peak table is 0.6 to 0.8 times
#: the log of the bound, so a component past this factor passes ``state_limit`` by
#: orders of magnitude, after spending its whole budget trying.
HOPELESS_FACTOR = 2.5
#: Bounds on states below this are left to the programme itself: it passes them within
#: its first steps, as callers that set them to ask for estimates expect.
HOPELESS_FROM = 1 << 10

#: Share of the time left that exact counting may use when some of it must be kept
#: for estimates.
_EXACT_SHARE = 0.6

#: Seconds an estimate may take when the caller sets no deadline.
ESTIMATE_SECONDS = 2.0

_METHOD = "sequential Monte Carlo (resampled importance sampling) along the counting order, 16 runs"
_CHAIN_METHOD = ("Markov chains over layouts (block Gibbs updates of small blocks and of bands of clues "
                 "drawn whole, the rest of the board weighed exactly), {chains} chains, split R-hat and "
                 "effective sample size")

#: Share of the estimates' time that the rounded count may use before the sampling
#: estimates take over (it finishes in a fraction of it, or its tables are too wide).
_ROUNDED_SHARE = 0.8

#: Share of the estimates' time that sequential Monte Carlo may use before the layout
#: chains take over (it is quick where it works, and says so when it does not).
_SMC_SHARE = 0.15

#: An estimate whose widest 95% interval is at most this wide is kept as it is; a
#: wider one is compared with the layout chains' in the time left.
_NARROW = 0.1


def _groups_of(problem: Problem) -> tuple[Group, ...]:
    """The problem's groups of cells, one per kind of each variable (kept in its memo:
    retargeted problems share them)."""
    groups = problem.memo.get("groups")
    if groups is None:
        out = []
        for var in problem.variables:
            cons = tuple(problem.constraint_ids[c] for c in var.clues)
            out.extend(Group(tuple(sorted(kind)), cons) for kind in var.kinds)
        groups = problem.memo["groups"] = tuple(out)
    return groups


def _exact_tally(system: ConstraintSystem, problem: Problem, arith: Arithmetic, budget: Budget,
                 state_limit: int, backtrack_nodes: int = BACKTRACK_NODES, orders: dict | None = None) -> Tally:
    """The tally of one component; the processing order the programme took, when it
    took one, goes into ``orders`` by the problem's clues, so that an estimate of a component that
    gives up need not choose it again."""
    ncells = problem.ncells
    groups = _groups_of(problem)
    length = ncells + 1 if arith.kmax is None else min(ncells, arith.kmax) + 1
    try:
        ways, kinds = search(problem, min(backtrack_nodes, state_limit), length if arith.by_count else None)
        rows = [row for per_var in kinds for row in per_var]
        if arith.by_count:
            return Tally(groups, tuple(ways), tuple(map(tuple, rows)))
        return Tally(groups, (plain_weight(ways, arith.mine, arith.safe, ncells),),
                     tuple((plain_weight(r, arith.mine, arith.safe, ncells),) for r in rows), by_count=False)
    except TooBig:
        pass
    # past the deadline already: the estimate chooses an order in its own time
    budget.check_time("exact counting")
    order = choose_order(problem, system.position.geometry.width, budget)
    if orders is not None:
        orders[problem.constraint_ids] = order
    if (state_limit >= HOPELESS_FROM and math.isfinite(order.width_log2)
            and order.width_log2 > HOPELESS_FACTOR * math.log2(state_limit)):
        # the programme's tables would outgrow the bound on states long before the
        # end: trying costs the whole budget (seconds, a gigabyte) and finds nothing
        raise StateLimit(f"a counting table would pass {state_limit} states "
                         f"(the best order's cuts allow 2^{order.width_log2:.0f})")
    result = sweep(problem, order.order, arith, budget=budget, state_limit=state_limit)
    rows = [row for per_var in result.kinds for row in per_var]
    if arith.by_count:
        return Tally(groups, tuple(arith.unpack(result.total, length)),
                     tuple(tuple(arith.unpack(r, length)) for r in rows))
    return Tally(groups, (result.total,), tuple((r,) for r in rows), by_count=False)


def tally_component(system: ConstraintSystem, component: tuple[int, ...], *,
                    state_limit: int = DEFAULT_STATE_LIMIT, budget: Budget | None = None,
                    kmax: int | None = None, backtrack_nodes: int = BACKTRACK_NODES) -> Tally:
    """Exact tallies of one component by mine count.

    Parameters
    ----------
    kmax : int, optional
        Count layouts of at most this many mines only (the total allows no more).

    Raises
    ------
    BudgetExceeded
        If the budget runs out (:class:`StateLimit` when a table passes
        ``state_limit`` entries).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> s = build_constraints(parse_position(".2.\\n...\\n"))
    >>> t = tally_component(s, s.components[0])
    >>> t.ways  # C(5, 2) assignments, all with two mines
    (0, 0, 10, 0, 0, 0)
    """
    problem = build_problem(system, component)
    _constraints._note_component(system, component)
    return _exact_tally(system, problem, Arithmetic.polynomial(problem, kmax), budget or Budget(), state_limit,
                        backtrack_nodes)


def _cpsat_tally(system: ConstraintSystem, component: tuple[int, ...], arith: Arithmetic, budget: Budget) -> Tally:
    from .exact.cpsat import tally_component_cpsat

    seconds = budget.seconds_left()
    t = tally_component_cpsat(system, component, time_limit=600.0 if seconds == float("inf") else max(seconds, 0.01))
    if arith.by_count:
        return t
    n = len(t.ways) - 1
    return Tally(t.groups, (plain_weight(list(t.ways), arith.mine, arith.safe, n),),
                 tuple((plain_weight(list(r), arith.mine, arith.safe, n),) for r in t.mines), by_count=False)


@dataclass
class Counts:
    """The exact stage of counting: the tally of every component it could finish.

    Made by :func:`count_components`; :meth:`probabilities` weighs the tallies into
    probabilities, estimating the components that gave up (``gave_up``, with the
    budget each ran out of). Split in two so that a caller can see whether counting
    is exact before it spends time on estimates — :func:`mscsp.analysis.analyse`
    proves cells with SAT in between.
    """

    system: ConstraintSystem
    problems: dict[tuple[int, ...], Problem]
    tallies: list[Tally]
    gave_up: list[tuple[tuple[int, ...], BudgetExceeded]]
    density: Fraction | None
    weights: tuple[int, int]
    started: float
    #: the processing order chosen for a problem (by its clues), where one was chosen
    orders: dict[tuple[int, ...], Order] = field(default_factory=dict)
    #: the bound on a table's entries that counting kept, which the estimates keep too
    state_limit: int = DEFAULT_STATE_LIMIT
    _weighed: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def exact(self) -> bool:
        """Whether every component was counted exactly."""
        return not self.gave_up

    def weighed(self) -> tuple[list[tuple[tuple[int, ...], int, int]], int]:
        """The tallies weighed with the mine total, made once:
        :func:`~mscsp.analysis.counting.exact.combine.with_total` without ``strict`` (no
        layout gives 0 layouts and every denominator 0). For exact counts with a total
        (:meth:`probabilities` and :class:`~mscsp.analysis.Survey` both read it)."""
        if self._weighed is None:
            self._weighed = with_total(self.tallies, self.system.unconstrained, self.system.remaining, strict=False)
        return self._weighed

    def probabilities(self, *, samples: int = 20_000, seed: int = 0, budget: Budget | None = None,
                      extra: float = 0.0) -> Probabilities:
        """The probabilities, layout count and model (see :func:`probabilities`); components
        that gave up are estimated within ``budget``, and the layout chains may take
        ``extra`` seconds more once their layouts have shown every cell both ways (a
        caller keeps that time for proofs, which are then left with nothing to prove;
        see :func:`~mscsp.analysis.counting.montecarlo.mcmc.chain_estimate`).

        Raises
        ------
        InconsistentError
            When the components' mine counts cannot meet the total.
        """
        system = self.system
        if self.gave_up:
            return _estimated(system, self.problems, self.tallies, self.gave_up, self.density, self.weights,
                              samples, seed, budget or Budget(), self.started, self.orders, extra, self.state_limit)
        remaining = system.remaining
        unconstrained = system.unconstrained
        cells: dict[int, Fraction | None] = {}
        stats: dict = {}
        if remaining is None:
            model = without_total(self.tallies, unconstrained, self.density, cells)
            layouts = None
            if self.density is None:
                layouts = 2 ** len(unconstrained)
                for t in self.tallies:
                    layouts *= t.ways[0]
            stats["seconds"] = time.perf_counter() - self.started
            return Probabilities(cells, layouts, True, model, stats, geometry=system.position.geometry)
        parts, total = self.weighed()
        if not total:
            raise InconsistentError("no layout satisfies the clues together with the mine total", (), uses_total=True)
        groups = fill_groups(parts, cells)
        stats["seconds"] = time.perf_counter() - self.started
        return Probabilities(cells, total, True, None, stats, geometry=system.position.geometry, groups=groups)


def _cache_key(counter: str, remaining: int | None, density: Fraction | None, system: ConstraintSystem,
               comp: tuple[int, ...]) -> tuple:
    """A component's key in a cache of tallies: its clue equations and what weighs them.

    The mines left cut a tally's mine-count polynomial only when they are fewer than
    its cells; with at least as many as its equations' cells, the key says so instead
    of the number, so that a game's positions share the tally as flags are added."""
    equations = tuple(system.constraints[e] for e in comp)
    return counter, cached_remaining(remaining, equations), density, equations


def cached_remaining(remaining: int | None, equations: tuple[Constraint, ...]) -> int | str | None:
    """The mines left as a cache key of tallies of ``equations`` holds them: the number
    when it is fewer than the equations' cells (it then cuts the mine-count
    polynomial), otherwise :data:`AMPLE`, so that the positions of a game share
    tallies as flags are added."""
    if remaining is not None and remaining >= sum(len(con.cells) for con in equations):
        return AMPLE
    return remaining


#: The mines left in a cache key when they cannot cut the tally (:func:`cached_remaining`).
AMPLE = "ample"


def count_components(
    position: Position,
    *,
    system: ConstraintSystem | None = None,
    counter: str = "dp",
    state_limit: int = DEFAULT_STATE_LIMIT,
    density: Fraction | None = None,
    budget: Budget | None = None,
    estimate: bool = True,
    backtrack_nodes: int = BACKTRACK_NODES,
    cache: dict | None = None,
    sibling: "Counts | None" = None,
) -> Counts:
    """The exact stage of :func:`probabilities`: every component counted within ``budget``.

    With ``estimate`` True a component that runs out of its budget is set aside for
    estimation (``Counts.exact`` is then False); with False the BudgetExceeded is
    raised. ``cache``, a dict the caller keeps, holds each component's tally by its
    clue equations (and the mines left), so positions that differ in a few clues
    (a guessing policy's look-ahead) count only the components that changed.
    ``sibling``, the counts of a system whose equations are on the same cells (the
    same cell opened showing another number), lends its problems, so that the
    components are not built again, only given their new counts.

    Raises
    ------
    InconsistentError
        When a component has no consistent assignment.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> counts = count_components(parse_position("mines: 1\\n.1...\\n"))
    >>> counts.exact, counts.probabilities().by_index[0]
    (True, Fraction(1, 2))
    """
    started = time.perf_counter()
    budget = budget or Budget()
    if counter not in ("dp", "cpsat"):
        raise InputError(f"unknown counter {counter!r}; choose dp or cpsat")
    system = system if system is not None else build_constraints(position)
    remaining = system.remaining
    weights = density_weights(density) if remaining is None else (1, 1)
    comps = list(system.components)
    problems: dict[tuple[int, ...], Problem] = {}
    tallies: dict[tuple[int, ...], Tally] = {}
    gave_up: list[tuple[tuple[int, ...], BudgetExceeded]] = []
    orders: dict[tuple[int, ...], Order] = {}  # those chosen, for the estimates
    todo = []
    # small components first here too: building a problem of a million cells takes seconds
    for comp in sorted(comps, key=len):
        key = None
        if cache is not None:
            key = _cache_key(counter, remaining, density, system, comp)
            if key in cache:
                tallies[comp] = cache[key]
                continue
        # a cached component needs no problem: building one costs as much as a small count
        lent = sibling.problems.get(comp) if sibling is not None else None
        problem = lent.retargeted(system, sibling.system, comp) if lent is not None else None
        if problem is None:
            try:
                problem = build_problem(system, comp, budget=budget)
            except BudgetExceeded as exc:
                if not estimate:
                    raise
                # no problem to estimate from either: its cells get no number; kept
                # without its traceback, whose frames would hold this one in a cycle
                gave_up.append((comp, exc.with_traceback(None)))
                continue
        problems[comp] = problem
        todo.append((comp, key))
    # small components first, so a hard one meets the deadline last
    for comp, key in sorted(todo, key=lambda ck: problems[ck[0]].ncells):
        problem = problems[comp]
        _constraints._note_component(system, comp)
        arith = (Arithmetic.polynomial(problem, remaining) if remaining is not None
                 else Arithmetic(0, mine=weights[0], safe=weights[1]))
        try:
            if counter == "cpsat":
                tally = _cpsat_tally(system, comp, arith, budget)
            else:
                tally = _exact_tally(system, problem, arith, budget, state_limit, backtrack_nodes, orders)
        except BudgetExceeded as exc:
            if not estimate:
                raise
            gave_up.append((comp, exc.with_traceback(None)))
            give_back()  # the tables it dropped
            continue
        if not any(tally.ways):
            truncated = tally.by_count and len(tally.ways) <= problem.ncells
            if truncated:
                raise InconsistentError("no layout satisfies the clues together with the mine total", (),
                                        uses_total=True)
            raise InconsistentError("no layout satisfies the clues of one part of the board", ())
        tallies[comp] = tally
        if key is not None:
            cache[key] = tally
    return Counts(system, problems, [tallies[c] for c in comps if c in tallies], gave_up, density, weights, started,
                  orders, state_limit)


def tally_by_label(system: ConstraintSystem, component: tuple[int, ...], label: int, *,
                   backtrack_nodes: int = BACKTRACK_NODES) -> list[Tally | None] | None:
    """The tallies of one component of ``system`` (with a mine total) for every count
    its equation ``label`` could have, from one search: entry ``s``, for ``s`` from 0 to
    the equation's cells, is the tally when the equation says ``s`` (None when no
    assignment gives it ``s``). The equation's own count is not read.

    The positions a look-ahead weighs after each number a clicked cell can show
    differ in that cell's equation's count alone, so their tallies come from one
    search (:func:`~mscsp.analysis.counting.exact.search.search_by_label`), each the tally
    :func:`tally_component` gives for that count.

    Returns None when the component is too large for that search (the caller then
    counts each count apart).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> s = build_constraints(parse_position("mines: 2\\n.1.\\n...\\n"))
    >>> [t and t.ways for t in tally_by_label(s, s.components[0], 0)]  # the 1's five cells: 0, 1, 2... mines
    [(1, 0, 0), (0, 5, 0), (0, 0, 10), None, None, None]
    """
    problem = build_problem(system, component)
    if label not in problem.constraint_ids:  # not kept as a clue (merged into a chain)
        return None
    try:
        found = search_by_label(problem, problem.constraint_ids.index(label),
                                len(system.constraints[label].cells) + 1, backtrack_nodes,
                                min(problem.ncells, system.remaining) + 1, grouped=False)
    except TooBig:
        return None
    groups = _groups_of(problem)
    return [Tally(groups, tuple(ways), tuple(map(tuple, rows))) if any(ways) else None for ways, rows in found]


def probabilities(
    position: Position,
    *,
    system: ConstraintSystem | None = None,
    counter: str = "dp",
    state_limit: int = DEFAULT_STATE_LIMIT,
    density: Fraction | None = None,
    samples: int = 20_000,
    seed: int = 0,
    estimate: bool = True,
    budget: Budget | None = None,
    backtrack_nodes: int = BACKTRACK_NODES,
) -> Probabilities:
    """Mine probability of every covered cell, and the number of layouts.

    Parameters
    ----------
    position : Position
    counter : {'dp', 'cpsat'}
        The dynamic programme, or OR-tools CP-SAT enumeration (an independent
        second counter for cross-checks; exponential, for small components).
    density : Fraction, optional
        Without a mine total, weight each layout as independent mines of this
        density; cells away from clues then get ``density``. Without it, each
        consistent assignment of the clue cells counts once and cells away from
        clues get no number.
    state_limit : int
        A DP table may hold at most this many entries.
    backtrack_nodes : int
        Search nodes the plain backtracking may spend on a component before the
        DP takes it over (0: the DP counts everything).
    budget : Budget, optional
        Time and memory for the whole computation (default: no deadline, the
        default memory allowance). Exact counting uses part of the time; a
        component it cannot finish is estimated in what is left (``samples``
        paths at most, from ``seed``): the result then says ``exact=False``, gives
        95% intervals in ``intervals``, the budget that ran out in ``reason`` (a
        :class:`GaveUp`), and no layout count. An estimate that cannot be made
        leaves its cells None.
    estimate : bool
        With False, a component that cannot be counted raises instead.

    Raises
    ------
    InconsistentError
        When no layout is consistent with the position.
    BudgetExceeded
        With ``estimate=False``, when exact counting runs out of its budget.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> p = probabilities(parse_position("mines: 1\\n.1...\\n"))
    >>> p.layouts, p.by_index[0], p.by_index[4]
    (2, Fraction(1, 2), Fraction(0, 1))
    """
    if system is None and counter == "dp":
        # the usual position (small components): stages 1-4 in one compiled call
        quick = quick_probabilities(position, min(backtrack_nodes, state_limit), density)
        if quick is not None:
            return quick
    budget = budget or Budget()
    counts = count_components(position, system=system, counter=counter, state_limit=state_limit, density=density,
                              budget=budget.share(_EXACT_SHARE) if estimate else budget, estimate=estimate,
                              backtrack_nodes=backtrack_nodes)
    return counts.probabilities(samples=samples, seed=seed, budget=budget)


def _widest(est: Estimate) -> float:
    """The widest 95% interval of an estimate (infinite when there is none)."""
    if est.cells is None:
        return float("inf")
    return max((hi - lo for _, lo, hi in est.cells.values()), default=0.0)


def _estimate(system: ConstraintSystem, parts: list, components: list, rest, weights: tuple[int, int],
              samples: int, seed: int, budget: Budget, extra: float = 0.0) -> tuple[Estimate, Estimate | None]:
    """The estimate kept and, when the layout chains were kept, the sequential Monte
    Carlo estimate made before them (for its count of layouts). The kept estimate
    carries the chains' ``witnessed`` cells whichever is kept; ``extra`` is the
    chains' (see :func:`~mscsp.analysis.counting.montecarlo.mcmc.chain_estimate`).

    Sequential Monte Carlo goes first, in a share of the time: where its paths
    survive it is quick and honest. When it gives no estimate, or one with an
    interval wider than ``_NARROW``, the layout chains take the time left, and the
    estimate with the narrower widest interval is kept (both are honest; the chains
    converge where the paths die, on lattices of clues).
    """
    arith = Arithmetic(0, mine=weights[0], safe=weights[1])
    try:
        smc = smc_estimate(parts, rest, samples=samples, rng=np.random.default_rng(seed),
                           budget=budget.share(_SMC_SHARE), arith=arith)
    except BudgetExceeded:  # pragma: no cover - the estimator checks its deadline itself
        smc = Estimate(None, None, None, 0, 0, 0.0, 0.0, NoEstimate(EstimateFailure.PILOT_OUT_OF_TIME))
    if _widest(smc) <= _NARROW or (budget.expired() and (smc.cells is not None or extra <= 0)):
        # past the deadline the chains still start when there is no estimate yet and
        # ``extra`` time to start them in
        return smc, None
    chain = chain_estimate([p for p, _ in parts], components, system, rest, seed=seed, budget=budget,
                           weights=weights, extra=extra)
    if chain.cells is None or _widest(smc) <= _widest(chain):
        return (replace(smc, witnessed=chain.witnessed), None) if smc.cells is not None else (chain, None)
    return chain, smc


def _estimated(system: ConstraintSystem, problems: dict, exact_tallies: list[Tally],
               gave_up: list[tuple[tuple[int, ...], BudgetExceeded]], density, weights: tuple[int, int],
               samples: int, seed: int, budget: Budget, started: float,
               orders: dict[tuple[int, ...], Order] | None = None, extra: float = 0.0,
               state_limit: int = DEFAULT_STATE_LIMIT) -> Probabilities:
    """Probabilities when some components could not be counted: estimates with intervals
    (``extra`` as :meth:`Counts.probabilities` takes it).

    The rounded count goes first (:mod:`~mscsp.analysis.counting.rounded`): where the
    exact integers were what grew too long, it gives every probability within proven
    bounds in a share of the time; where it cannot (its tables too wide, its time out),
    the sampling estimates take what is left."""
    remaining = system.remaining
    unconstrained = system.unconstrained
    est_budget = budget if budget.deadline is not None else Budget.of(ESTIMATE_SECONDS, budget.memory)
    unbuilt = [comp for comp, _ in gave_up if comp not in problems]
    if unbuilt:
        # a part too large to gather in the time: the total couples it to every other
        # cell, so no cell away from the exactly counted parts gets a number
        return _not_estimated(system, problems, exact_tallies, gave_up, unbuilt, density, seed, started)
    parts = []
    for comp, _ in gave_up:
        problem = problems[comp]
        # the order serves sequential Monte Carlo only, so it is chosen within its share
        order = (orders or {}).get(problem.constraint_ids) or choose_order(
            problem, system.position.geometry.width, est_budget.share(_SMC_SHARE))
        parts.append((problem, order.order))
    try:
        est = rounded_estimate(parts, exact_tallies, unconstrained, remaining, weights,
                               est_budget.share(_ROUNDED_SHARE), state_limit)
        smc = None
    except Declined:
        give_back()  # the tables it dropped
        sampled_max = sum(p.ncells for p, _ in parts)
        if remaining is not None:
            rest = rest_of_board(exact_tallies, unconstrained, remaining, sampled_max)
        else:
            rest = rest_of_board([], (), None, sampled_max)
        est, smc = _estimate(system, parts, [comp for comp, _ in gave_up], rest, weights, samples, seed, est_budget,
                             extra)
    proven = bool(est.details.get("rounded"))  # the rounded count's bounds, not a sample's
    _note_inexact(proven)
    cells: dict[int, Fraction | float | None] = {}
    intervals: dict[int, tuple[float, float]] = {}
    model = None
    if remaining is None:
        model = without_total(exact_tallies, unconstrained, density, cells)
    sampled_cells = [c for p, _ in parts for v in p.variables for kind in v.kinds for c in kind]
    if est.cells is None:
        for c in sampled_cells + ([] if remaining is None else [c for k in rest.kinds for c in k]):
            cells[c] = None
    else:
        for c, (p, lo, hi) in est.cells.items():
            if proven and lo == hi:  # the rounded count's zeros are exact (0 or 1)
                cells[c] = Fraction(p)
                continue
            cells[c] = p  # an estimate is a float: only exact values are Fractions
            intervals[c] = (lo, hi)
    if proven:
        stats = {
            "estimate": {
                "method": _ROUNDED_METHOD,
                "bounds": "proven",
                "widest_bound": est.details["bound"],
                "seconds": round(est.seconds, 3),
                "confidence": 1.0,
                "layouts": None if est.layouts is None else f"{est.layouts:.15g}",
                "layouts_interval": None if est.layouts_interval is None
                else [f"{x:.15g}" for x in est.layouts_interval],
            },
            "seconds": time.perf_counter() - started,
        }
        return Probabilities(cells, None, False, model, stats, intervals, _gave_up(gave_up, None),
                             geometry=system.position.geometry, witnessed=est.witnessed)
    counted = smc if smc is not None else est
    stats = {
        "estimate": {
            "method": _CHAIN_METHOD.format(**est.details) if "chains" in est.details else _METHOD,
            "samples": est.samples,
            "paths_satisfying": est.live,
            "effective_runs": round(est.effective, 1),
            "seed": seed,
            "seconds": round(est.seconds + (smc.seconds if smc is not None else 0.0), 3),
            "confidence": 0.95,
            "layouts": None if counted.layouts is None else f"{counted.layouts:.4g}",
            "layouts_interval": None if counted.layouts_interval is None
            else [f"{x:.4g}" for x in counted.layouts_interval],
            **{k: v for k, v in est.details.items() if k in ("chains", "sweeps", "rhat", "effective_size",
                                                               "converged", "start")},
        },
        "seconds": time.perf_counter() - started,
    }
    if est.reason:
        stats["estimate"]["failed"] = str(est.reason)
    return Probabilities(cells, None, False, model, stats, intervals, _gave_up(gave_up, est.reason or None),
                         geometry=system.position.geometry, witnessed=est.witnessed)


def _not_estimated(system: ConstraintSystem, problems: dict, exact_tallies: list[Tally],
                   gave_up: list[tuple[tuple[int, ...], BudgetExceeded]], unbuilt: list[tuple[int, ...]], density,
                   seed: int, started: float) -> Probabilities:
    """Probabilities when a part that gave up was not even built: no number for its
    cells, nor (with a total, which couples them) for any cell outside the exact parts."""
    failed = NoEstimate(EstimateFailure.NOT_BUILT)
    _note_inexact(False)
    cells: dict[int, Fraction | float | None] = {}
    model = None
    if system.remaining is None:
        model = without_total(exact_tallies, system.unconstrained, density, cells)
    else:
        cells.update(dict.fromkeys(system.unconstrained))
    for comp, _ in gave_up:
        if comp in problems:
            cells.update(dict.fromkeys(c for v in problems[comp].variables for kind in v.kinds for c in kind))
    for comp in unbuilt:
        cells.update(dict.fromkeys(system.component_cells(comp)))
    if system.remaining is not None:
        # the exactly counted parts' cells too: their weights depend on the mines the others hold
        for tally in exact_tallies:
            for group in tally.groups:
                cells.update(dict.fromkeys(group.cells))
    stats = {"estimate": {"seed": seed, "failed": str(failed)}, "seconds": time.perf_counter() - started}
    return Probabilities(cells, None, False, model, stats, {}, _gave_up(gave_up, failed),
                         geometry=system.position.geometry)


def _gave_up(gave_up: list[tuple[tuple[int, ...], BudgetExceeded]], failed: NoEstimate | None) -> GaveUp:
    """Why counting was not exact: the parts that gave up, their budgets, and why there
    is no estimate, if there is none."""
    resources = tuple(sorted({exc.resource for _, exc in gave_up}, key=lambda r: r.value))
    return GaveUp(len(gave_up), resources, str(gave_up[0][1]), failed)


def forced_cells(position: Position, *, system: ConstraintSystem | None = None,
                 state_limit: int = DEFAULT_STATE_LIMIT, budget: Budget | None = None,
                 backtrack_nodes: int = BACKTRACK_NODES, cache: dict | None = None) -> dict[int, bool]:
    """The covered cells that the clues and the mine total force: True for a mine.

    Exactly the cells whose mine probability is 0 or 1, found without weighing: the
    probability of a group is a sum of positive terms, one per mine count ``k`` of its
    component that the rest of the board can complete to the total, so it is 0 when
    the group is empty in every such ``k`` and 1 when it is full in every such ``k``.
    Only which counts are achievable matters — bit sets, not the big integers of
    :func:`probabilities` — which is what a play loop needs at a stall.

    ``cache`` is a cache of component tallies as :func:`count_components` keeps it
    (a :class:`~mscsp.analysis.Survey`'s): the tallies are looked up there and put
    there, so that the probabilities a guess at the same stall needs count no
    component again.

    Raises
    ------
    InputError
        When the position has no mine total.
    BudgetExceeded
        When a component cannot be counted within the budget (:class:`StateLimit`
        when a table would exceed ``state_limit`` entries); this function never
        estimates.
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
    tallies = []
    for comp in system.components:
        key = None if cache is None else _cache_key("dp", remaining, None, system, comp)
        tally = None if key is None else cache.get(key)
        if tally is None:
            # the tally count_components makes: the same polynomial, cut at the mines left
            tally = tally_component(system, comp, state_limit=state_limit, budget=budget, kmax=remaining,
                                    backtrack_nodes=backtrack_nodes)
            if key is not None:
                cache[key] = tally
        tallies.append(tally)
    supports = [support(t.ways) for t in tallies]
    if not all(supports):
        raise InconsistentError("no layout satisfies the clues of one part of the board, with the mine total", (),
                                uses_total=True)
    prefix = [1]
    for bits in supports:
        prefix.append(sum_support(prefix[-1], bits))
    suffix = [1]
    for bits in reversed(supports):
        suffix.append(sum_support(suffix[-1], bits))
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
        others = sum_support(prefix[ci], suffix[ci + 1])
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


def count_layouts(position: Position, **kwargs) -> int | None:
    """The exact number of layouts consistent with a position (and its total).

    Without a total, every covered cell is free beyond the clues: the count is over
    all mine counts. None when the count could not be finished within the budget
    (see :func:`probabilities`).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> count_layouts(parse_position("mines: 10\\n" + "." * 30 + "\\n"))
    30045015
    """
    return probabilities(position, **kwargs).layouts
