"""Counting, stage 5: estimates with intervals where exact counting gave up.

Sequential Monte Carlo along the dynamic programme's order. A path decides the
variables one by one; each takes a value among those that keep every clue
reachable (and the mine count able to meet the total), with probability
proportional to its weight ``C(n, j)``, and the path's weight is multiplied by the
normaliser — Knuth's estimator for the size of a search tree (D. E. Knuth,
"Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975). Alone,
such paths die on wide frontiers (a lattice of clues kills every one of 20,000); so
a population of paths moves together and is resampled in proportion to weight
whenever the weights grow uneven or paths die, the mean weight carried in a running
normaliser (a particle filter; P. Del Moral, "Feynman–Kac formulae", 2004), which
keeps the estimate of the weight of all layouts unbiased. A cell's mine probability
is a ratio: the weight of the paths that put a mine there over the weight of all.

With a mine total, each path's weight is multiplied by the exact weight of the rest
of the board given the path's mine count (the exactly counted components and the
unconstrained cells), and the cells of exact components get the exact conditional
probability given that count; so every probability is one ratio estimator.

Paths of one run are not independent after resampling, so intervals come from
independent runs: each probability's 95% interval is the ratio estimator's delta-
method interval over the runs, with Student's t. ``tests/test_estimate.py``
measures how often these intervals cover the exact value.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from math import comb

import numpy as np

from ....budget import Budget
from ....errors import BudgetExceeded
from ..exact.combine import conditional_given_rest, poly_mul
from ..outcomes import EstimateFailure, NoEstimate
from ..exact.sweep import _PLAN_CHECK_EVERY, Arithmetic, _Plan
from ..exact.variables import Problem

__all__ = ["Estimate", "RestOfBoard", "smc_estimate", "rest_of_board"]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: Bytes of choices (one byte a variable a path) a batch may hold.
_BATCH_BYTES = 1 << 25


@dataclass(frozen=True)
class RestOfBoard:
    """What the rest of the board contributes given the sampled part's mine count.

    ``weight(k)`` is the exact weight of everything not sampled when the sampled
    components hold ``k`` mines (0 where the total cannot be met), and
    ``conditional(k)`` the exact mine probability of each of ``kinds`` (cell lists of
    the exactly counted part) given ``k``. ``window`` bounds the ``k`` with nonzero
    weight. Without a total, ``weight`` is 1 and the conditional probabilities do
    not depend on ``k``.
    """

    window: tuple[int, int]
    kinds: tuple[tuple[int, ...], ...]
    weight_fn: object
    conditional_fn: object
    total: bool = True
    cache: dict = field(default_factory=dict, compare=False)
    log_weights_fn: object = None

    def weight(self, k: int) -> int:
        return self.weight_fn(k)

    def log_weights(self, kmax: int) -> np.ndarray:
        """``log weight(k)`` for ``k = 0..kmax`` in floating point (``-inf`` where the
        total cannot be met), without the big integers of :meth:`weight`."""
        if self.log_weights_fn is None:
            return np.zeros(kmax + 1)
        return self.log_weights_fn(kmax)

    def conditional(self, k: int) -> np.ndarray:
        if k not in self.cache:
            self.cache[k] = np.asarray(self.conditional_fn(k), dtype=float)
        return self.cache[k]


@dataclass(frozen=True)
class Estimate:
    """Estimated probabilities with 95% intervals.

    ``cells`` maps each cell of the sampled components and of ``rest.kinds`` to
    ``(p, low, high)``; None when too few runs found a path (``reason`` says why).
    ``layouts`` and ``layouts_interval`` estimate the weighted number of layouts;
    ``samples`` counts the paths of all runs, ``live`` those that satisfied every
    clue, ``effective`` the effective number of runs (runs weigh by their total).
    ``details`` holds what an estimator reports beyond these (the layout chains'
    diagnostics). ``witnessed``, from the layout chains, is the cells that some layout
    meeting every clue and the total showed holding a mine, and those it showed safe:
    such cells are not forced that way.
    """

    cells: dict[int, tuple[float, float, float]] | None
    layouts: float | None
    layouts_interval: tuple[float, float] | None
    samples: int
    live: int
    effective: float
    seconds: float
    reason: NoEstimate | None = None
    details: dict = field(default_factory=dict)
    witnessed: tuple[frozenset[int], frozenset[int]] | None = None


class _Sampler:
    """One component's processing order as arrays, to move many paths a step at a time."""

    def __init__(self, problem: Problem, order, arith: Arithmetic, budget: Budget):
        self.problem = problem
        self.plan = _Plan(problem, order, arith, budget, "sequential Monte Carlo")
        variables = problem.variables
        self.order = list(order)
        # mines the variables after step i can still place, at least and at most
        lo = [min(o.mines for o in variables[v].options) for v in self.order]
        hi = [max(o.mines for o in variables[v].options) for v in self.order]
        self.after_lo = np.cumsum([0] + lo[::-1])[::-1][1:].tolist()
        self.after_hi = np.cumsum([0] + hi[::-1])[::-1][1:].tolist()
        self.min_mines = sum(lo)
        self.max_mines = sum(hi)
        self.steps = []
        for i, step in enumerate(self.plan.steps):
            if not i % _PLAN_CHECK_EVERY:
                budget.check("sequential Monte Carlo")
            var = variables[step.var]
            weight = np.asarray([float(factor) for _, _, factor, _, _ in step.options])
            mines = np.asarray([var.options[oi].mines for oi, _, _, _, _ in step.options], dtype=np.int64)
            # per touched field: its index, whether the clue closes, the adds and allowed range by option
            touched = [(f, closing, np.asarray([touches[t][1] for _, _, _, _, touches in step.options]),
                        step.options[0][4][t][2], step.options[0][4][t][3])
                       for t, (f, closing) in enumerate(step.fields)]
            self.steps.append((weight, mines, touched))
        # each step's mine fraction of every kind of its variable, by option
        self.fractions = [
            (step.var, np.asarray([[variables[step.var].options[oi].kind_mines[j]
                                    / max(len(variables[step.var].kinds[j]), 1)
                                    for j in range(len(variables[step.var].kinds))]
                                   for oi, _, _, _, _ in step.options]))
            for step in self.plan.steps]

    def advance(self, i: int, fields: np.ndarray, k: np.ndarray, klo: int, khi: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Decide variable ``i`` on every path: ``(chosen option, log of the path's
        normaliser)`` (-inf where no value fits: the path dies). Updates ``fields``
        and ``k`` in place."""
        weight, mines, touched = self.steps[i]
        ok = np.ones((len(k), len(weight)), dtype=bool)
        for f, _, adds, lo, hi in touched:
            v = fields[:, f, None] + adds[None, :]
            ok &= (v >= lo) & (v <= hi)
        after = k[:, None] + mines[None, :]
        ok &= (after + self.after_lo[i] <= khi) & (after + self.after_hi[i] >= klo)
        w = ok * weight[None, :]
        z = w.sum(axis=1)
        cum = np.cumsum(w, axis=1)
        pick = np.minimum((cum < ((1.0 - rng.random(len(k))) * z)[:, None]).sum(axis=1), len(weight) - 1)
        pick[z == 0] = 0
        k += mines[pick]
        for f, closing, adds, _, _ in touched:
            if closing:
                fields[:, f] = 0
            else:
                fields[:, f] += adds[pick]
        with np.errstate(divide="ignore"):
            return pick, np.log(z)

    def weighted_fractions(self, choices: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The ``weights``-weighted sum over the paths of each kind's mine fraction
        (kinds in variable order, then kind order), one variable at a time: the
        ``(paths, kinds)`` matrix of a 100x100 lattice would take a few hundred MB."""
        cols = sorted(((v, weights @ table[choices[:, i]]) for i, (v, table) in enumerate(self.fractions)),
                      key=lambda vc: vc[0])
        return np.concatenate([c for _, c in cols]) if cols else np.zeros(0)

    def kinds(self) -> list[tuple[int, ...]]:
        return [kind for var in self.problem.variables for kind in var.kinds]


#: Steps of a pilot run's history summarised at a time.
_HISTORY_COLUMNS = 512

#: Fewer effective runs than this (of 16, in proportion for fewer) and an estimate's
#: error cannot be judged from the runs' spread: no estimate is given.
MIN_EFFECTIVE_RUNS = 8

#: Two-sided 97.5% quantiles of Student's t by degrees of freedom (normal beyond).
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
         11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
         20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def _t975(df: int) -> float:
    for d in sorted(_T975):
        if df <= d:
            return _T975[d]
    return Z95


def _systematic(weights: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Systematic resampling: indices drawn in proportion to ``weights`` (which sum to 1)."""
    n = len(weights)
    positions = (rng.random() + np.arange(n)) / n
    return np.minimum(np.searchsorted(np.cumsum(weights), positions), n - 1)


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    """Φ(x) to within 1.5e-7 (Abramowitz and Stegun 7.1.26 for erf), vectorised."""
    z = np.abs(x) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    erf = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
                 + 0.254829592) * t * np.exp(-z * z)
    return 0.5 * (1.0 + np.sign(x) * erf)


@dataclass(frozen=True)
class _Twist:
    """Where the paths' mine counts should head: after ``g`` variables, the mines
    still to come are about normal with mean ``mean[g]`` and spread ``spread[g]``
    (learnt from a pilot run), and the total must land in ``[low, high]``."""

    mean: np.ndarray
    spread: np.ndarray
    low: int
    high: int

    def log_potential(self, g: int, k: np.ndarray) -> np.ndarray:
        """log P(the final count lands in the window | k mines after g variables)."""
        m, s = self.mean[g], self.spread[g]
        p = _normal_cdf((self.high + 0.5 - k - m) / s) - _normal_cdf((self.low - 0.5 - k - m) / s)
        return np.log(np.maximum(p, 1e-300))


def _replicate(samplers: list[_Sampler], rest: RestOfBoard, n: int, rng: np.random.Generator,
               windows: list[tuple[int, int]], log_rest, twist: _Twist | None = None,
               history: bool = False, budget: Budget | None = None):
    """One run of sequential Monte Carlo with ``n`` paths: ``(log of the estimated
    weight of all layouts, each kind's estimated mine probability, live paths)``.

    Paths decide the variables in the processing order; whenever the weights grow
    uneven (effective sample size below half) or paths die, the population is
    resampled in proportion to weight and the mean weight carried in the running
    normaliser, which keeps the weight estimate unbiased (Del Moral, "Feynman–Kac
    formulae", 2004). With a ``twist``, each step's weight is also multiplied by the
    ratio of the new and old chance of meeting the total (a telescoping product,
    undone at the end), so resampling keeps the paths whose mine counts can still
    meet it — the total is one clue over the whole board, which no single step sees.

    With ``history`` it returns instead, for a pilot run, the weighted mean and
    spread of the mines each path placed after every step.

    With a ``budget``, the deadline is looked at after every step
    (:meth:`~mscsp.budget.Budget.check_time`) and a run still going when it passes
    stops with BudgetExceeded: on a wide frontier one run takes seconds, so a look
    between runs alone would overrun the time asked.
    """
    k = np.zeros(n, dtype=np.int64)
    logw = np.zeros(n)
    log_norm = 0.0
    choices = [np.zeros((n, len(s.order)), dtype=np.int16) for s in samplers]
    steps = sum(len(s.steps) for s in samplers)
    seen = np.zeros((n, steps + 1), dtype=np.int32) if history else None
    g = 0
    log_psi = twist.log_potential(0, k) if twist is not None else None
    log_psi0 = float(log_psi[0]) if twist is not None else 0.0
    for j, sampler in enumerate(samplers):
        fields = np.zeros((n, max(sampler.plan.fields, 1)), dtype=np.int64)
        klo, khi = windows[j]
        for i in range(len(sampler.steps)):
            if budget is not None:
                budget.check_time("a sampling run")
            pick, logz = sampler.advance(i, fields, k, klo, khi, rng)
            choices[j][:, i] = pick
            g += 1
            logw += logz
            if twist is not None:
                new_psi = twist.log_potential(g, k)
                logw += new_psi - log_psi
                log_psi = new_psi
            if seen is not None:
                seen[:, g] = k
            live = np.isfinite(logw)
            if not live.any():
                return (-math.inf, None, 0) if not history else None
            top = logw[live].max()
            w = np.where(live, np.exp(logw - top), 0.0)
            if not live.all() or w.sum() ** 2 < 0.5 * n * (w * w).sum():
                log_norm += top + math.log(w.mean())
                idx = _systematic(w / w.sum(), rng)
                fields, k = fields[idx], k[idx]
                for c in choices:
                    c[:] = c[idx]
                if seen is not None:
                    seen = seen[idx]
                if log_psi is not None:
                    log_psi = log_psi[idx]
                logw = np.zeros(n)
    if history:
        live = np.isfinite(logw)
        w = np.where(live, np.exp(logw - logw[live].max()), 0.0)
        w /= w.sum()
        # by columns, so that no (paths, steps) array of floats is made at once
        mean = np.empty(seen.shape[1])
        spread = np.empty(seen.shape[1])
        for a in range(0, seen.shape[1], _HISTORY_COLUMNS):
            to_come = k[:, None] - seen[:, a:a + _HISTORY_COLUMNS]
            mean[a:a + _HISTORY_COLUMNS] = w @ to_come
            spread[a:a + _HISTORY_COLUMNS] = w @ (to_come - mean[None, a:a + _HISTORY_COLUMNS]) ** 2
        return mean, np.sqrt(np.maximum(spread, 0.0)) + 0.5
    logb = logw + np.asarray([log_rest(int(kk)) for kk in k])
    if twist is not None:
        logb += log_psi0 - log_psi
    live = np.isfinite(logb)
    if not live.any():
        return -math.inf, None, 0
    top = logb[live].max()
    b = np.where(live, np.exp(logb - top), 0.0)
    parts = [s.weighted_fractions(c, b) for s, c in zip(samplers, choices)]
    if rest.kinds:
        extra = np.zeros(len(rest.kinds))
        for kk in np.unique(k[live]):
            extra += b[k == kk].sum() * np.asarray(rest.conditional(int(kk)), dtype=float)
        parts.append(extra)
    mean = b.mean()
    weighted = np.concatenate(parts) if parts else np.zeros(0)
    return log_norm + top + math.log(mean), weighted / (n * mean), int(live.sum())


def smc_estimate(parts: list[tuple[Problem, tuple[int, ...]]], rest: RestOfBoard, *, samples: int,
             rng: np.random.Generator, budget: Budget, arith: Arithmetic = Arithmetic(0),
             replicates: int = 16) -> Estimate:
    """Estimate the probabilities of the sampled components and of the rest.

    ``parts`` are the components to sample, each with its processing order;
    ``arith`` (plain) gives the weight of a mine and of a safe cell (1 and 1 to
    count layouts, a density's odds otherwise). ``replicates`` independent runs of
    sequential Monte Carlo share ``samples`` paths (fewer when a pilot run shows the
    budget's deadline would not allow them); each probability's interval comes from
    the spread of the runs (ratio estimator, Student's t with one degree of freedom
    fewer than the runs), so it stays honest although the paths of one run are not
    independent.
    """
    started = time.perf_counter()
    try:
        samplers = [_Sampler(p, order, arith, budget) for p, order in parts]
    except BudgetExceeded:  # arrays for tens of thousands of steps may take longer than the share
        return Estimate(None, None, None, 0, 0, 0.0, time.perf_counter() - started,
                        NoEstimate(EstimateFailure.PILOT_OUT_OF_TIME))
    kinds = [kind for s in samplers for kind in s.kinds()] + list(rest.kinds)
    mins_after = np.cumsum([0] + [s.min_mines for s in samplers][::-1])[::-1][1:]
    maxs_after = np.cumsum([0] + [s.max_mines for s in samplers][::-1])[::-1][1:]
    windows = [(rest.window[0] - (int(maxs_after[j]) if j + 1 < len(samplers) else 0),
                rest.window[1] - (int(mins_after[j]) if j + 1 < len(samplers) else 0))
               for j in range(len(samplers))]
    log_rest_cache: dict[int, float] = {}

    def log_rest(kk: int) -> float:
        if kk not in log_rest_cache:
            w = rest.weight(kk)
            log_rest_cache[kk] = math.log(w) if w > 0 else -math.inf
        return log_rest_cache[kk]

    width = sum(len(s.order) for s in samplers)
    per_run = int(max(64, min(samples // replicates, _BATCH_BYTES // max(2 * width, 1))))
    pilot_started = time.perf_counter()
    twist = None
    try:
        if rest.total:
            # a pilot without the total learns where the mine counts go; the runs then head for it
            loose = [(-(1 << 40), 1 << 40)] * len(samplers)
            learnt = _replicate(samplers, rest, 128, rng, loose, log_rest, history=True, budget=budget)
            if learnt is not None:
                twist = _Twist(learnt[0], learnt[1], rest.window[0], rest.window[1])
            pilot_lived = learnt is not None
        else:
            pilot_lived = _replicate(samplers, rest, 128, rng, windows, log_rest, budget=budget)[1] is not None
    except BudgetExceeded:
        return Estimate(None, None, None, 0, 0, 0.0, time.perf_counter() - started,
                        NoEstimate(EstimateFailure.PILOT_OUT_OF_TIME))
    if not pilot_lived:
        # the clues killed every path of the pilot (which the total did not bound, where
        # there is one): the runs' fewer paths die the same way (a wide frontier, such
        # as a lattice of clues), and their time is the layout chains'
        return Estimate(None, None, None, 128, 0, 0.0, time.perf_counter() - started,
                        NoEstimate(EstimateFailure.NO_PATH, runs=0, good=0, total=rest.total))
    per_path = (time.perf_counter() - pilot_started) / 128
    left = budget.seconds_left()
    if left != float("inf"):
        per_run = int(max(64, min(per_run, 0.8 * left / max(replicates * per_path, 1e-9))))
    runs: list[tuple[float, np.ndarray | None]] = []
    live = 0
    for _ in range(replicates):
        if budget.expired():
            break
        try:
            log_z, probs, alive = _replicate(samplers, rest, per_run, rng, windows, log_rest, twist, budget=budget)
        except BudgetExceeded:
            break  # a run cut short is no sample: it is dropped whole
        runs.append((log_z, probs))
        live += alive
    drawn = per_run * len(runs)
    seconds = time.perf_counter() - started
    good = [(z, p) for z, p in runs if p is not None]
    if len(runs) < 4 or len(good) < 2:
        why = (EstimateFailure.TOO_FEW_RUNS if len(runs) < 4 else
               EstimateFailure.NO_PATH if not good else EstimateFailure.FEW_PATHS)
        return Estimate(None, None, None, drawn, live, 0.0, seconds,
                        NoEstimate(why, runs=len(runs), good=len(good), total=rest.total))
    logs = np.asarray([z for z, _ in runs])
    top = logs[np.isfinite(logs)].max()
    z = np.exp(logs - top)  # each run's weight, relative; 0 for a run whose paths all died
    effective = float(z.sum() ** 2 / (z * z).sum())
    if effective < MIN_EFFECTIVE_RUNS * len(runs) / replicates:
        # a few runs outweigh the rest: their spread says nothing of the error
        return Estimate(None, None, None, drawn, live, effective, seconds,
                        NoEstimate(EstimateFailure.RUNS_DISAGREE, runs=len(runs), effective=effective))
    probs = np.vstack([p if p is not None else np.zeros(len(kinds)) for _, p in runs])
    r = len(runs)
    p = (z @ probs) / z.sum()
    zbar = z.mean()
    var = ((z[:, None] * (probs - p[None, :])) ** 2).sum(axis=0) / (r * (r - 1) * zbar * zbar)
    half = _t975(r - 1) * np.sqrt(var)
    cells: dict[int, tuple[float, float, float]] = {}
    for kind, pk, hk in zip(kinds, p, half):
        pk = min(max(float(pk), 0.0), 1.0)
        entry = (pk, max(0.0, pk - float(hk)), min(1.0, pk + float(hk)))
        for c in kind:
            cells[c] = entry
    sd = math.sqrt(((z - zbar) ** 2).sum() / (r - 1) / r)
    try:
        scale = math.exp(top)
        layouts = zbar * scale
        interval = (max(0.0, zbar - _t975(r - 1) * sd) * scale, (zbar + _t975(r - 1) * sd) * scale)
    except OverflowError:
        layouts, interval = math.inf, (math.inf, math.inf)
    return Estimate(cells, layouts, interval, drawn, live, effective, seconds)


def rest_of_board(exact: list, unconstrained: tuple[int, ...], remaining: int | None,
                  window_hi: int) -> RestOfBoard:
    """The exact part of the board as seen from the sampled components.

    ``exact`` are the tallies (by mine count) of the exactly counted components.
    With ``remaining`` None (no total) the weight is 1 and the conditional
    probabilities are the exact ones, whatever the sampled count.
    """
    kinds = tuple(g.cells for t in exact for g in t.groups)
    if remaining is None:
        probs = [float(p) for p in conditional_given_rest(exact, (), None, 0)]
        return RestOfBoard((0, window_hi), kinds, lambda k: 1, lambda k: probs, total=False)
    u = len(unconstrained)
    kinds = kinds + ((tuple(unconstrained),) if u else ())
    span_lo = max(0, remaining - u - sum(len(t.ways) - 1 for t in exact))
    polys = [list(t.ways) for t in exact]
    every = [1]
    for poly in polys:
        every = poly_mul(every, poly)

    def weight(k: int) -> int:
        left = remaining - k
        return sum(w * comb(u, left - j) for j, w in enumerate(every) if w and 0 <= left - j <= u)

    def conditional(k: int) -> list[float]:
        return [float(p) for p in conditional_given_rest(exact, unconstrained, remaining, k)]

    def log_weights(kmax: int) -> np.ndarray:
        # log sum_j every[j] C(u, R - k - j) by log-gamma, one row a k
        js = np.asarray([j for j, w in enumerate(every) if w], dtype=float)
        logs = np.asarray([math.log(w) for w in every if w])
        left = remaining - np.arange(kmax + 1, dtype=float)[:, None] - js[None, :]
        fits = (left >= 0) & (left <= u)
        safe_left = np.where(fits, left, 0.0)
        terms = np.where(fits, logs[None, :] + _log_comb(u, safe_left), -np.inf)
        top = terms.max(axis=1, initial=-np.inf)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = top + np.log(np.exp(terms - np.where(np.isfinite(top), top, 0.0)[:, None]).sum(axis=1))
        return np.where(np.isfinite(top), out, -np.inf)

    return RestOfBoard((span_lo, min(window_hi, remaining)), kinds, weight, conditional, log_weights_fn=log_weights)


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    """``log C(n, k)`` elementwise, for integers ``0 <= k <= n`` (as floats)."""
    values, back = np.unique(k, return_inverse=True)
    logs = np.asarray([math.lgamma(v + 1.0) + math.lgamma(n - v + 1.0) for v in values.tolist()])
    return math.lgamma(n + 1.0) - logs[back].reshape(k.shape)

