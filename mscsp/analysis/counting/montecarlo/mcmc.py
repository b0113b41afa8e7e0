"""Counting, stage 5: estimates from Markov chains over layouts, with their diagnostics.

Where exact counting gives up, several chains (:mod:`~mscsp.analysis.counting.montecarlo.chain`)
sample the layouts of the components it could not count, each layout weighed by the
exact weight of the rest of the board; a cell's mine probability is its mean mine
fraction over the draws, and a cell of the exactly counted part (or away from every
clue) gets the mean of its exact conditional probability given the sampled mine count
(a Rao–Blackwellised mean; A. E. Gelfand and A. F. M. Smith, "Sampling-based approaches
to calculating marginal densities", JASA 85, 1990).

The chains start from layouts found by SAT without the mine total, as many different
ones as the time allows (:mod:`~mscsp.analysis.counting.montecarlo.start`): each chain first walks its mine count into
the range the total allows (block updates tilted towards more or fewer mines, see
:meth:`~mscsp.analysis.counting.montecarlo.chain.Chains.walk`). A sweep redraws bands of clues whole
(:mod:`~mscsp.analysis.counting.montecarlo.windows`) and, every other sweep, the small blocks. The first half of what follows is
warm-up, discarded; the second half gives the estimates. The
convergence diagnostics are split R-hat and the effective sample size of every
probability (:mod:`~mscsp.analysis.counting.montecarlo.diagnostics`, after Vehtari et al. 2021),
and each 95% interval is Wilson's for the effective number of draws: chains that
disagree, or that move slowly, give wide intervals rather than false precision.
``tests/test_estimate.py`` measures how often these intervals cover the exact value.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from ....budget import Budget
from ....errors import BudgetExceeded
from ...constraints import ConstraintSystem
from .blocks import Model, build_classes, build_model
from .chain import Chains
from .diagnostics import summarise, wilson_intervals
from ..outcomes import EstimateFailure as Why
from ..outcomes import NoEstimate
from .smc import Estimate, RestOfBoard
from .start import witness_values
from .windows import build_windows
from ..exact.variables import Problem

__all__ = ["chain_estimate", "CHAINS", "RHAT_CONVERGED"]

#: Chains run side by side. Few chains run more sweeps each in the time, which matters
#: more than their number: on a dense 30x16 lattice of clues, in 1.5 s, 8 chains give
#: widest intervals of 0.28-0.70 where 16 give 0.73-0.93 and 32 give 1.0 (three seeds).
CHAINS = 8
#: Split R-hat below which every probability counts as converged (Vehtari et al. 2021
#: recommend 1.01 with an effective size of 400; a wider bar for a time-bounded run).
RHAT_CONVERGED = 1.05
#: Share of the time left that finding starts and walking to the total may use.
_START_SHARE = 0.5
#: Share of that which the solver may spend on more starting layouts after the first
#: (which may take all of it).
_WITNESS_SHARE = 0.2
#: Random partitions of the clues into blocks (a class of updates each).
TILINGS = 8
#: Partitions on a large component: listing a tiling's blocks of a 100x100 lattice
#: takes a third of a second, and the windows do most of the mixing there.
TILINGS_LARGE = 2
#: Joint values a block may have before its clues prune them: larger blocks mix
#: faster on lattices of clues but cost more to list, so large components get smaller ones.
BLOCK_RAW = 1 << 12
BLOCK_RAW_LARGE = 1 << 9
#: Variables from which a component counts as large.
LARGE = 2000
#: Levels of the clue graph a window spans (:mod:`~mscsp.analysis.counting.montecarlo.windows`):
#: on a dense 30x16 lattice of clues, two cost a twentieth of three a sweep and mix
#: better in the same time.
WINDOW_WIDTH = 2
#: Most variables a window holds: longer bands are cut into pieces (a band of a
#: 100x100 lattice holds up to 488 variables, and its draw kept the band's mine count,
#: as a fixed total requires, 15% of the time).
WINDOW_PIECE = 64
#: Sweeps the chains make, past the budget's deadline into ``extra`` if need be, before
#: they stop at it (four draws a chain give R-hat and an effective size).
_LEAST_SWEEPS = 4
#: Sweeps before the first look at whether the chains may stop (then at every doubling).
_FIRST_CHECK = 64
#: Bytes the recorded draws may hold.
_DRAW_BYTES = 1 << 27


@dataclass
class _Run:
    """The recorded draws: variables' values ``(draws, chains, variables)`` and the
    mine counts ``(draws, chains)``, thinned by two whenever the store fills."""

    values: np.ndarray
    mines: np.ndarray
    held: int = 0
    every: int = 1
    seen: int = 0

    def record(self, chains: Chains) -> None:
        self.seen += 1
        if (self.seen - 1) % self.every:
            return
        if self.held == len(self.values):
            self.values[: self.held // 2] = self.values[0:self.held:2].copy()
            self.mines[: self.held // 2] = self.mines[0:self.held:2].copy()
            self.held //= 2
            self.every *= 2
            if (self.seen - 1) % self.every:
                return
        self.values[self.held] = chains.values()
        self.mines[self.held] = chains.k
        self.held += 1


class _Witness:
    """Which kinds of cells the chains have shown able to hold a mine, and able to be
    safe: in a state whose mine count the rest of the board can complete (a chain's
    state meets every clue, so such a state is part of a layout meeting the total). A
    kind's cells are interchangeable, so a state with some but not all of them mines
    shows each of them both ways. No estimate is needed for this: it is a proof, by
    example, that those cells are not forced."""

    def __init__(self, model: Model, log_rest: np.ndarray):
        self.model = model
        self.log_rest = log_rest
        self.var = model.kind_var
        self.slot = model.kind_slot
        self.mine = np.zeros(len(model.kinds), dtype=bool)
        self.safe = np.zeros(len(model.kinds), dtype=bool)
        self.complete = not len(model.kinds)

    def see(self, chains: Chains) -> None:
        """Takes the chains' current states."""
        if self.complete:
            return
        ok = np.isfinite(self.log_rest[chains.k])
        if not ok.any():
            return
        values = chains.values()[ok]  # (chains, variables)
        fraction = self.model.fraction[self.var[None, :], values[:, self.var], self.slot[None, :]]
        # a fraction is j / n: exactly 0.0 with no mine, exactly 1.0 with all n
        self.mine |= (fraction > 0).any(axis=0)
        self.safe |= (fraction < 1).any(axis=0)
        self.complete = bool(self.mine.all() and self.safe.all())

    def cells(self) -> tuple[frozenset[int], frozenset[int]]:
        """The cells shown able to hold a mine, and those shown able to be safe."""
        kinds = self.model.kinds
        return (frozenset(c for k in np.flatnonzero(self.mine).tolist() for c in kinds[k]),
                frozenset(c for k in np.flatnonzero(self.safe).tolist() for c in kinds[k]))


def _walk(chains: Chains, log_rest: np.ndarray, budget: Budget) -> int:
    """:meth:`Chains.walk`; when the deadline passes with some chains at the total,
    the others take their states. The sweeps it took.

    Raises
    ------
    BudgetExceeded
        When no chain meets the total by the deadline.
    """
    try:
        return chains.walk(budget)
    except BudgetExceeded:
        inside = np.flatnonzero(np.isfinite(log_rest[chains.k]))
        if not len(inside):
            raise
        outside = np.flatnonzero(~np.isfinite(log_rest[chains.k]))
        donors = inside[np.arange(len(outside)) % len(inside)]
        chains.x[outside] = chains.x[donors]
        chains.k[outside] = chains.k[donors]
        return -1


def _kind_draws(model: Model, values: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Mine fractions of ``kinds`` in every draw: ``(kinds, chains, draws)``."""
    var = model.kind_var[kinds]
    chosen = values[:, :, var]  # (draws, chains, kinds)
    return model.fraction[var[None, None, :], chosen, model.kind_slot[kinds][None, None, :]].transpose(2, 1, 0)


def _rest_draws(rest: RestOfBoard, mines: np.ndarray) -> np.ndarray:
    """The exact part's conditional probabilities given each draw's mine count:
    ``(rest kinds, chains, draws)``."""
    out = np.zeros((len(rest.kinds), mines.shape[1], mines.shape[0]))
    for k in np.unique(mines).tolist():
        where = mines.T == k
        out[:, where] = np.asarray(rest.conditional(int(k)))[:, None]
    return out


def chain_estimate(problems: list[Problem], components: list[tuple[int, ...]], system: ConstraintSystem,
                   rest: RestOfBoard, *, seed: int | np.random.SeedSequence, budget: Budget,
                   weights: tuple[int, int] = (1, 1), chains: int | None = None,
                   sweeps: int | None = None, precision: float = 0.05, extra: float = 0.0) -> Estimate:
    """Probabilities of the sampled components and of the rest, from Markov chains.

    Parameters
    ----------
    problems, components
        The components to sample, as counting's problems and as clue indices.
    system : ConstraintSystem
        The whole position's equations (a start layout is found on them).
    rest : RestOfBoard
        The exactly known rest of the board.
    seed : int or SeedSequence
        Every chain's stream is a child of it (``SeedSequence.spawn``).
    budget : Budget
        The chains stop at its deadline; what they drew by then is the estimate.
    weights : (int, int)
        The weights of a mine and of a safe cell (a density's odds without a total).
    chains, sweeps : int, optional
        How many chains, and how many sweeps after the walk to the total (by
        default, until the deadline or until ``precision`` is met).
    precision : float
        Without ``sweeps``, the chains stop early once they have converged (split
        R-hat below ``RHAT_CONVERGED`` everywhere) and every 95% interval is at most
        ``2 * precision`` wide.
    extra : float
        Seconds past the budget's deadline that the chains may also take once their
        states have shown every sampled cell both ways (a mine in one layout, safe in
        another) and ``rest`` has no cells: a caller keeps that time back for proofs,
        and the draws have then left nothing to prove. Starting the chains and their
        first :data:`_LEAST_SWEEPS` sweeps may also reach into it when the deadline
        passes first (a busy machine): a few draws give every cell a number.

    Returns
    -------
    Estimate
        ``cells`` maps every cell of ``problems`` and of ``rest.kinds`` to ``(p, low,
        high)``; ``layouts`` is None (a chain weighs layouts against each other, never
        counts them). ``reason`` says why there is no estimate when there is none.
        ``witnessed`` names the sampled cells that some chain's state (a layout meeting
        every clue and the total) showed holding a mine, and those it showed safe.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> from mscsp.analysis.counting.montecarlo.smc import rest_of_board
    >>> from mscsp.analysis.counting import probabilities
    >>> position = parse_position("mines: 3\\n.1.2..\\n......\\n")
    >>> s = build_constraints(position)
    >>> problems = [build_problem(s, c) for c in s.components]
    >>> rest = rest_of_board([], s.unconstrained, s.remaining, sum(p.ncells for p in problems))
    >>> est = chain_estimate(problems, list(s.components), s, rest, seed=1, budget=Budget.of(5), sweeps=300)
    >>> exact = probabilities(position).by_index
    >>> all(low - 1e-9 <= exact[c] <= high + 1e-9 for c, (p, low, high) in est.cells.items())
    True
    >>> est.details["converged"], est.layouts
    (True, None)
    """
    started = time.perf_counter()
    details: dict = {"chains": chains or 0, "sweeps": 0, "start": None}  # none ran yet
    # the chains' start and their first sweeps may also take ``extra``: a few draws give
    # every cell a number (with a wide interval), which a busy machine must not lose to
    # the time kept for the proofs
    setup = budget
    if extra > 0 and budget.deadline is not None:
        setup = replace(budget, deadline=budget.deadline + extra)

    def failed(why: NoEstimate) -> Estimate:
        return Estimate(None, None, None, 0, 0, 0.0, time.perf_counter() - started, why, details)

    try:
        model = build_model(problems, math.log(weights[0]), math.log(weights[1]), budget=setup)
    except BudgetExceeded:
        return failed(NoEstimate(Why.NO_TIME_TO_START))
    log_rest = rest.log_weights(model.ncells)
    n = chains or CHAINS
    details["chains"] = n
    children = (seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)).spawn(n + 1)
    streams = [np.random.default_rng(c) for c in children]

    if not np.isfinite(log_rest).any():
        return failed(NoEstimate(Why.TOTAL_OUT_OF_REACH))
    try:
        windows = build_windows(model, WINDOW_WIDTH, budget=setup, piece=WINDOW_PIECE)
        large = model.size >= LARGE
        # on a large component, the variables inside a window get no small block of
        # their own when no tiling made them interior (listing those took seconds)
        covered = None
        if large:
            covered = np.zeros(model.size, dtype=bool)
            for variables in windows.variable:
                covered[variables] = True
        classes = build_classes(model, streams[-1], budget=setup, tilings=TILINGS_LARGE if large else TILINGS,
                                max_raw=BLOCK_RAW_LARGE if large else BLOCK_RAW, covered=covered)
    except BudgetExceeded:
        return failed(NoEstimate(Why.NO_TIME_TO_START))
    details["windows"] = sum(len(windows.sizes(i)) for i in range(windows.classes))
    start_budget = setup.share(_START_SHARE)
    # several layouts, so that chains stuck in different places disagree (and R-hat says so)
    starts = witness_values(model, system, components, start_budget, total=False, count=n, rng=streams[-1],
                            more=start_budget.share(_WITNESS_SHARE))
    details["start"] = f"{len(starts)} SAT layouts without the total"
    if not starts:
        return failed(NoEstimate(Why.NO_START if start_budget.seconds_left() > 0 else Why.NO_TIME_TO_START,
                                 total=False))
    run = Chains(model, classes, log_rest, np.asarray(starts), streams, windows)
    try:
        details["walk_sweeps"] = _walk(run, log_rest, start_budget)
    except BudgetExceeded:
        # the chains could not reach the total: ask the solver for layouts that meet it
        starts = witness_values(model, system, components, setup.share(0.5), total=True, count=n,
                                rng=streams[-1])
        if not starts:
            return failed(NoEstimate(Why.NO_START_WITH_TOTAL))
        details["start"] = f"{len(starts)} SAT layouts with the total"
        run = Chains(model, classes, log_rest, np.asarray(starts), streams, windows)
    capacity = max(8, _DRAW_BYTES // max(n * model.size, 1))
    store = _Run(np.zeros((capacity, n, model.size), dtype=np.int8), np.zeros((capacity, n), dtype=np.int64))
    witness = _Witness(model, log_rest)
    witness.see(run)
    first = time.perf_counter()
    check = _FIRST_CHECK
    look = 0.0  # what the last look at the diagnostics took
    while sweeps is None or store.seen < sweeps:
        first_few = store.seen < _LEAST_SWEEPS
        try:
            run.sweep(setup if first_few else budget)
        except BudgetExceeded:
            break
        store.record(run)
        witness.see(run)
        if extra > 0 and witness.complete and not rest.kinds and budget.deadline is not None:
            # nothing is left for the proofs after us: their time is the chains'
            budget = replace(budget, deadline=budget.deadline + extra)
            extra = 0.0
        if sweeps is None and store.seen >= check and budget.seconds_left() > 4 * look:
            # enough once converged with every interval within the precision asked;
            # looked at when the sweeps double, so the looks cost less than the sweeps
            check *= 2
            looked = time.perf_counter()
            found = _summary(model, rest, store, dict(details), started)
            look = time.perf_counter() - looked
            if found.details["converged"] and _widest(found) <= 2 * precision:
                details["sweeps"] = store.seen
                return replace(found, details={**found.details, "sweeps": store.seen,
                                               "window_draws": _window_draws(run)},
                               witnessed=witness.cells())
        if budget.deadline is not None and not first_few:
            # keep back about one sweep and the last look at the diagnostics (twice:
            # the draws grow), and a little for the rest of the analysis
            per = (time.perf_counter() - first - look) / max(store.seen, 1)
            if budget.seconds_left() < 2 * per + 2 * look + 0.02 * max(budget.deadline - started, 0.0):
                break
    details["sweeps"] = store.seen
    details["window_draws"] = _window_draws(run)
    return replace(_summary(model, rest, store, details, started), witnessed=witness.cells())


def _window_draws(run: Chains) -> dict[str, int]:
    """The chains' window draws taken, refused by the mine total, and skipped."""
    return dict(zip(("taken", "refused", "skipped"), run.window_draws.tolist()))


def _widest(est: Estimate) -> float:
    return max((hi - lo for _, lo, hi in est.cells.values()), default=0.0) if est.cells else float("inf")


def _summary(model: Model, rest: RestOfBoard, store: _Run, details: dict, started: float) -> Estimate:
    """Means, diagnostics and intervals of what the chains drew (the first half is warm-up)."""
    held = store.held
    n = store.values.shape[1]
    keep = slice(held // 2, held) if held >= 8 else slice(0, held)
    values, mines = store.values[keep], store.mines[keep]
    draws = values.shape[0]
    details["draws"] = draws * n
    if draws == 0:
        return Estimate(None, None, None, 0, 0, 0.0, time.perf_counter() - started,
                        NoEstimate(Why.NO_SWEEP), details)
    kinds = np.arange(len(model.kinds))
    columns: tuple[list, ...] = ([], [], [], [], [], [])
    for lo in range(0, len(kinds), 256):
        _collect(_kind_draws(model, values, kinds[lo:lo + 256]), columns, draws)
    if rest.kinds:
        _collect(_rest_draws(rest, mines), columns, draws)
    mean, plus, ess, rhat, least, most = (np.concatenate(c) if c else np.zeros(0) for c in columns)
    varying = np.isfinite(ess)
    # where nothing varied, the least effective size of what did stands for the draws;
    # with nothing varying at all, one draw (the chains may be stuck)
    reference = float(ess[varying].min()) if varying.any() else 1.0
    finite = rhat[np.isfinite(rhat)]
    converged = bool(draws >= 4 and varying.any() and np.isfinite(rhat[varying]).all()
                     and finite.max() < RHAT_CONVERGED)
    if not converged:
        # one slow quantity means a slow chain: a probability whose own draws look
        # mixed may still move with it, so every one counts the least effective size
        ess = np.minimum(ess, reference)
    low, high = wilson_intervals(mean, plus, ess, reference)
    # where the chains disagree (R-hat over the bar, or stuck apart), the estimate is a
    # mixture of what each found, weighed by where they started: the interval reaches
    # the least and the most of their means at least
    apart = ~(rhat < RHAT_CONVERGED) & np.isfinite(plus) & (plus > 1e-12)
    low = np.where(apart, np.minimum(low, least), low)
    high = np.where(apart, np.maximum(high, most), high)
    all_kinds = list(model.kinds) + list(rest.kinds)
    cells: dict[int, tuple[float, float, float]] = {}
    for kind, p, lo_, hi_ in zip(all_kinds, mean.tolist(), low.tolist(), high.tolist()):
        entry = (min(max(p, 0.0), 1.0), lo_, hi_)
        for c in kind:
            cells[c] = entry
    details["rhat"] = round(float(finite.max()), 3) if len(finite) else None
    details["effective_size"] = round(reference, 1)
    details["converged"] = converged
    return Estimate(cells, None, None, draws * n, draws * n, reference, time.perf_counter() - started, None,
                    details)


def _collect(batch: np.ndarray, columns: tuple[list, ...], draws: int) -> None:
    """Summaries of one batch of quantities ``(quantities, chains, draws)`` into
    ``columns`` (mean, ``var+``, effective size, R-hat, least and most chain mean);
    with fewer than four draws a chain, no variance (so the widest interval)."""
    chain_means = batch.mean(axis=2)
    if draws >= 4:
        s = summarise(batch)
        found = (s.mean, s.plus, s.ess, s.rhat)
    else:
        nothing = np.full(len(batch), np.nan)
        found = (chain_means.mean(axis=1), np.zeros(len(batch)), nothing, nothing)
    for column, value in zip(columns, (*found, chain_means.min(axis=1), chain_means.max(axis=1))):
        column.append(value)
