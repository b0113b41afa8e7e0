"""Counting, stage 5: estimates with intervals where exact counting gave up.

Sequential importance sampling along the dynamic programme's order — Knuth's
estimator for the size of a search tree (D. E. Knuth, "Estimating the efficiency of
backtrack programs", Math. Comp. 29, 1975). A path decides the variables one by one;
each takes a value among those that keep every clue reachable (and the mine count
able to meet the total), with probability proportional to its weight ``C(n, j)``;
the path's weight is the product of the normalisers, zero if it dies. The mean path
weight is an unbiased estimate of the number of assignments, and a cell's mine
probability is a ratio of two such means: the weight of the paths that put a mine
there over the weight of all paths.

With a mine total, each path's weight is multiplied by the exact weight of the rest
of the board given the path's mine count (the exactly counted components and the
unconstrained cells), and the cells of exact components get the exact conditional
probability given that count; so every probability is one ratio estimator.

Each probability comes with a 95% interval from the delta method (the variance of
``a_i - p b_i`` over the paths, divided by the squared mean weight, with the
``n / (n - 1)`` correction); ``tests/test_estimate.py`` measures how often these
intervals cover the exact value. Paths run many at a time in numpy arrays, in
batches, until the sample count or the deadline is reached; weights are kept as
logarithms and rescaled, so no count overflows a float.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from math import comb

import numpy as np

from ..budget import Budget
from .sweep import Arithmetic, _Plan
from .variables import Problem

__all__ = ["Estimate", "RestOfBoard", "estimate"]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: Paths that must have a nonzero weight before an estimate is given at all.
MIN_LIVE_PATHS = 30
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

    def weight(self, k: int) -> int:
        return self.weight_fn(k)

    def conditional(self, k: int) -> np.ndarray:
        if k not in self.cache:
            self.cache[k] = np.asarray(self.conditional_fn(k), dtype=float)
        return self.cache[k]


@dataclass(frozen=True)
class Estimate:
    """Estimated probabilities with 95% intervals.

    ``cells`` maps each cell of the sampled components and of ``rest.kinds`` to
    ``(p, low, high)``; None when too few paths lived (``reason`` says why).
    ``layouts`` and ``layouts_interval`` estimate the weighted number of layouts.
    """

    cells: dict[int, tuple[float, float, float]] | None
    layouts: float | None
    layouts_interval: tuple[float, float] | None
    samples: int
    live: int
    effective: float
    seconds: float
    reason: str | None = None


class _Sampler:
    """One component's forward plan as arrays, for many paths at once."""

    def __init__(self, problem: Problem, order, arith: Arithmetic):
        self.problem = problem
        self.plan = _Plan(problem, order, arith)
        variables = problem.variables
        self.order = list(order)
        # mines the variables after step i can still place, at least and at most
        lo = [min(o.mines for o in variables[v].options) for v in self.order]
        hi = [max(o.mines for o in variables[v].options) for v in self.order]
        self.after_lo = np.cumsum([0] + lo[::-1])[::-1][1:].tolist()
        self.after_hi = np.cumsum([0] + hi[::-1])[::-1][1:].tolist()
        self.min_mines = sum(lo)
        self.max_mines = sum(hi)

    def run(self, n: int, rng: np.random.Generator, k: np.ndarray, klo: np.ndarray, khi: np.ndarray,
            logw: np.ndarray, choices: np.ndarray) -> None:
        """Advance ``n`` paths through this component, updating mine counts ``k``,
        log weights ``logw`` (-inf once dead) and ``choices[:, step]``.

        ``klo``/``khi`` bound the mine count the paths must be able to reach after
        this component (the other components' share already subtracted)."""
        fields = np.zeros((n, max(self.plan.fields, 1)), dtype=np.int64)
        variables = self.problem.variables
        for i, step in enumerate(self.plan.steps):
            var = variables[step.var]
            nopt = len(step.options)
            ok = np.ones((n, nopt), dtype=bool)
            weight = np.empty(nopt)
            mines = np.empty(nopt, dtype=np.int64)
            for j, (oi, _, factor, _, touches) in enumerate(step.options):
                weight[j] = factor
                mines[j] = var.options[oi].mines
                for (f, _), (_, add, lo, hi) in zip(step.fields, touches):
                    v = fields[:, f] + add
                    ok[:, j] &= (v >= lo) & (v <= hi)
            after = k[:, None] + mines[None, :]
            ok &= (after + self.after_lo[i] <= khi[:, None]) & (after + self.after_hi[i] >= klo[:, None])
            w = ok * weight[None, :]
            z = w.sum(axis=1)
            dead = z == 0
            with np.errstate(divide="ignore"):
                logw += np.log(z)
            cum = np.cumsum(w, axis=1)
            pick = (cum < ((1.0 - rng.random(n)) * z)[:, None]).sum(axis=1)
            pick = np.minimum(pick, nopt - 1)
            pick[dead] = 0
            choices[:, i] = pick
            k += mines[pick]
            # every option touches the same fields (its variable's clues), in the same order
            for t, (f, closing) in enumerate(step.fields):
                if closing:
                    fields[:, f] = 0
                else:
                    adds = np.asarray([touches[t][1] for _, _, _, _, touches in step.options])
                    fields[:, f] += adds[pick]

    def kind_fractions(self, choices: np.ndarray) -> np.ndarray:
        """Per path, the mine fraction of each kind of each variable (columns in
        variable order, then kind order)."""
        variables = self.problem.variables
        cols = []
        for i, v in enumerate(self.order):
            var = variables[v]
            step = self.plan.steps[i]
            table = np.asarray([[var.options[oi].kind_mines[j] / max(len(var.kinds[j]), 1)
                                 for j in range(len(var.kinds))] for oi, _, _, _, _ in step.options])
            cols.append((v, table[choices[:, i]]))
        cols.sort(key=lambda vc: vc[0])
        return np.hstack([c for _, c in cols]) if cols else np.zeros((choices.shape[0], 0))

    def kinds(self) -> list[tuple[int, ...]]:
        return [kind for var in self.problem.variables for kind in var.kinds]


def estimate(parts: list[tuple[Problem, tuple[int, ...]]], rest: RestOfBoard, *, samples: int,
             rng: np.random.Generator, budget: Budget, arith: Arithmetic = Arithmetic(0)) -> Estimate:
    """Estimate the probabilities of the sampled components and of the rest.

    ``parts`` are the components to sample, each with its processing order;
    ``arith`` (plain) gives the weight of a mine and of a safe cell (1 and 1 to
    count layouts, a density's odds otherwise).
    Sampling stops after ``samples`` paths or at the budget's deadline, whichever
    comes first (at least one batch runs).
    """
    started = time.perf_counter()
    samplers = [_Sampler(p, order, arith) for p, order in parts]
    kinds = [kind for s in samplers for kind in s.kinds()] + list(rest.kinds)
    n_est = sum(len(s.kinds()) for s in samplers)
    width = sum(len(s.order) for s in samplers)
    batch = int(max(64, min(4096, _BATCH_BYTES // max(width, 1))))
    shift = -math.inf  # log of the scale of every accumulated weight
    s_b = s_bb = 0.0
    s_bq = np.zeros(len(kinds))
    s_bbq = np.zeros(len(kinds))
    s_bbqq = np.zeros(len(kinds))
    drawn = live = 0
    mins_after = np.cumsum([0] + [s.min_mines for s in samplers][::-1])[::-1][1:]
    maxs_after = np.cumsum([0] + [s.max_mines for s in samplers][::-1])[::-1][1:]
    log_rest: dict[int, float] = {}
    while drawn < samples and (drawn == 0 or not budget.expired()):
        n = min(batch, samples - drawn)
        k = np.zeros(n, dtype=np.int64)
        logw = np.zeros(n)
        fractions = []
        for j, sampler in enumerate(samplers):
            choices = np.zeros((n, len(sampler.order)), dtype=np.int16)
            klo = np.full(n, rest.window[0]) - int(maxs_after[j]) if j + 1 < len(samplers) else np.full(n, rest.window[0])
            khi = np.full(n, rest.window[1]) - int(mins_after[j]) if j + 1 < len(samplers) else np.full(n, rest.window[1])
            sampler.run(n, rng, k, klo, khi, logw, choices)
            fractions.append(sampler.kind_fractions(choices))
        drawn += n
        for kk in np.unique(k):
            kk = int(kk)
            if kk not in log_rest:
                w = rest.weight(kk)
                log_rest[kk] = math.log(w) if w > 0 else -math.inf
        logb = logw + np.asarray([log_rest[int(kk)] for kk in k])
        alive = np.isfinite(logb)
        live += int(alive.sum())
        if not alive.any():
            continue
        top = float(logb[alive].max())
        if top > shift:
            scale = math.exp(shift - top) if math.isfinite(shift) else 0.0
            s_b *= scale
            s_bb *= scale * scale
            s_bq *= scale
            s_bbq *= scale * scale
            s_bbqq *= scale * scale
            shift = top
        b = np.where(alive, np.exp(logb - shift), 0.0)
        bb = b * b
        q = np.zeros((n, len(kinds)))
        if n_est:
            q[:, :n_est] = np.hstack(fractions)
        if rest.kinds:
            for kk in np.unique(k[alive]):
                rows = k == kk
                q[rows, n_est:] = rest.conditional(int(kk))[None, :]
        s_b += float(b.sum())
        s_bb += float(bb.sum())
        s_bq += b @ q
        s_bbq += bb @ q
        s_bbqq += bb @ (q * q)
    seconds = time.perf_counter() - started
    effective = s_b * s_b / s_bb if s_bb > 0 else 0.0
    if live < MIN_LIVE_PATHS or s_b <= 0:
        what = "every clue and the mine total" if rest.total else "every clue"
        why = (f"no sampled path satisfied {what}" if live == 0 else
               f"only {live} of {drawn} sampled paths satisfied {what}")
        return Estimate(None, None, None, drawn, live, effective, seconds, why)
    p = s_bq / s_b
    correction = drawn / max(drawn - 1, 1)
    var = np.maximum(s_bbqq - 2 * p * s_bbq + p * p * s_bb, 0.0) / (s_b * s_b) * correction
    half = Z95 * np.sqrt(var)
    cells: dict[int, tuple[float, float, float]] = {}
    for kind, pk, hk in zip(kinds, p, half):
        pk = min(max(float(pk), 0.0), 1.0)
        entry = (pk, max(0.0, pk - float(hk)), min(1.0, pk + float(hk)))
        for c in kind:
            cells[c] = entry
    mean = s_b / drawn
    sd = math.sqrt(max(s_bb / drawn - mean * mean, 0.0) * correction / drawn)
    try:
        layouts = mean * math.exp(shift)
        interval = (max(0.0, mean - Z95 * sd) * math.exp(shift), (mean + Z95 * sd) * math.exp(shift))
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
    from .combine import conditional_given_rest

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
        every = _mul(every, poly)

    def weight(k: int) -> int:
        left = remaining - k
        return sum(w * comb(u, left - j) for j, w in enumerate(every) if w and 0 <= left - j <= u)

    def conditional(k: int) -> list[float]:
        return [float(p) for p in conditional_given_rest(exact, unconstrained, remaining, k)]

    return RestOfBoard((span_lo, min(window_hi, remaining)), kinds, weight, conditional)


def _mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out
