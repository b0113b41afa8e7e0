"""A Markov chain over the layouts of the sampled components, several chains at once.

The state of a chain is one value per variable (:mod:`~mscsp.analysis.counting.exact.variables`)
that satisfies every clue; its target weighs a layout by the product of its values'
weights (``C(n, j)`` ways to put ``j`` mines in a group of ``n`` cells, times a
density's odds without a total) and by ``rest(k)``, the exact weight of the rest of
the board when the sampled cells hold ``k`` mines: the cells away from every clue and
the exactly counted components are integrated out analytically (``C(U, R - k - j)``
ways for the unconstrained cells, convolved with the exact tallies), so the chain
moves only where counting could not.

A move is a Gibbs update of blocks (:mod:`~mscsp.analysis.counting.montecarlo.blocks`): every
block of a class is paired with another of the class at random, and each pair draws
its new patterns from their exact joint distribution given the rest of the layout and
the pair's mine count. Given the outside, only patterns with the same share of every
clue fit, which is one run of the block's sorted table, so the update needs no
search; keeping the pair's count keeps ``k``, so pairs of one class are independent
and all of them, in every chain, are updated in one vectorised step. That kernel
leaves the target invariant (it is a Gibbs update conditional on the outside and a
function of the updated variables); pairs carry mines between distant parts of the
board, which is how a chain whose total is fixed moves mines at all. These updates
are draws from conditional distributions (Gibbs; S. Geman and D. Geman, "Stochastic
relaxation, Gibbs distributions, and the Bayesian restoration of images", IEEE PAMI 6,
1984). Where ``rest`` allows more than one ``k``, a few blocks of a class also draw
new patterns without regard to the count, and the chain takes them with the
Metropolis–Hastings probability ``min(1, rest(k') / rest(k))`` (N. Metropolis et al.,
1953; W. K. Hastings, "Monte Carlo sampling methods using Markov chains and their
applications", Biometrika 57, 1970), which lets the total move.

Every chain draws its own random numbers from its own stream (one
``numpy.random.SeedSequence`` child each); the schedule (the order of the classes,
the pairings) comes from one more. The same seed and the same number of sweeps give
the same draws.
"""

from __future__ import annotations

import math

import numpy as np

from .blocks import Classes, Model
from .windows import Windows, seed_states, step_windows

__all__ = ["Chains", "SMALL_EVERY"]

#: With windows, the small blocks' steps run every this many sweeps: the windows move
#: whole bands at a fraction of the cost, the small blocks carry mines between distant
#: parts and move cells that no window can (on a dense 30x16 lattice of clues, 16
#: chains for 6 s: smallest effective size 474 and split R-hat 1.045, against 115 and
#: 1.10 with the small blocks alone; on a 30x6 lattice, where the small blocks mix
#: well, every second sweep loses nothing).
SMALL_EVERY = 2
#: A mine's tilt of the walk's draws (as the small blocks' walk): weaker, a window
#: drawn after the small blocks' walk can move the count the wrong way.
WALK_TILT = 3.0

#: A block's key and mine count travel packed as ``key * _PACK + mines`` (a block holds
#: fewer than 256 mines: it has at most ``blocks.MAX_VARIABLES`` small variables).
_PACK = 256


class Chains:
    """Chains started from given layouts, moved by block updates a sweep at a time.

    Parameters
    ----------
    model : Model
    classes : Classes
    log_rest : ndarray
        ``log rest(k)`` for ``k`` mines among the sampled cells, ``0..model.ncells``
        (``-inf`` where the total cannot be met).
    start : ndarray
        A value for every variable (option indices) satisfying every clue, or
        several such rows: chain ``i`` starts from row ``i`` modulo their number.
    streams : list of numpy.random.Generator
        One per chain, and one more for the schedule.
    windows : Windows, optional
        Long moves (:mod:`~mscsp.analysis.counting.montecarlo.windows`): every class of them in
        every sweep, the small blocks then every :data:`SMALL_EVERY` sweeps.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> from mscsp.analysis.counting.montecarlo.blocks import build_model, build_classes
    >>> s = build_constraints(parse_position("1.1\\n...\\n"))
    >>> m = build_model([build_problem(s, s.components[0])])
    >>> streams = [np.random.default_rng(c) for c in np.random.SeedSequence(5).spawn(5)]
    >>> classes = build_classes(m, streams[-1])
    >>> chains = Chains(m, classes, np.zeros(m.ncells + 1), np.array([1, 0, 0]), streams)  # a mine in [1,0] or [1,1]
    >>> for _ in range(200):
    ...     chains.sweep()
    >>> v = chains.values()  # 4 chains, 3 variables; every layout keeps both 1s
    >>> v.shape, bool(((v[:, 0] + v[:, 1] == 1) & (v[:, 0] + v[:, 2] == 1)).all())
    ((4, 3), True)
    """

    def __init__(self, model: Model, classes: Classes, log_rest: np.ndarray, start: np.ndarray,
                 streams: list[np.random.Generator], windows: Windows | None = None):
        self.model = model
        self.classes = classes
        self.streams = streams[:-1]
        self.schedule = streams[-1]
        n = len(self.streams)
        self.x = np.zeros((n, model.size + 1), dtype=np.int64)  # the last column pads blocks
        starts = np.atleast_2d(start)
        self.x[:, : model.size] = starts[np.arange(n) % len(starts)]
        self.k = model.mines[np.arange(model.size)[None, :], self.x[:, : model.size]].sum(axis=1)
        mines = np.vstack([model.mines, np.zeros((1, model.mines.shape[1]), dtype=np.int64)])
        self._tables = [self._table(i, mines) for i in range(len(classes.members))]
        self.log_rest = log_rest
        self.flexible = int(np.isfinite(log_rest).sum()) > 1
        self.sweeps = 0
        self._uniform = np.zeros((n, 0))
        self._used = 0
        self.windows = windows if windows is not None and windows.classes else None
        self._states = seed_states(self.streams) if self.windows is not None else None
        #: window draws taken, refused by the mine total, and skipped (too many states)
        self.window_draws = np.zeros(3, dtype=np.int64)

    # -- tables -------------------------------------------------------------------------
    def _table(self, i: int, mines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For class ``i``: what each value of each block's variable adds to the block's
        key and mine count, packed as ``key * 256 + mines`` into one flat table, the
        start of each ``(block, variable)`` row in it, and each block's constant: a
        layout's key and count in a block are one gather and one sum away."""
        cl = self.classes
        part = (cl.adds[i] * cl.radix[i][:, None, None, :]).sum(axis=3)  # (blocks, variables, values)
        packed = part * _PACK + mines[cl.variables[i]]
        nb, bmax, width = packed.shape
        base = (np.arange(nb)[:, None] * bmax + np.arange(bmax)[None, :]) * width
        constant = (cl.offset[i] - (cl.low[i] * cl.radix[i]).sum(axis=1)) * _PACK
        return packed.reshape(-1), base, constant

    def _current(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Each chain's key and mine count in each block of class ``i``: ``(chains, blocks)``."""
        packed, base, constant = self._tables[i]
        both = packed[base[None, :, :] + self.x[:, self.classes.variables[i]]].sum(axis=2) + constant[None, :]
        return both // _PACK, both % _PACK

    def _candidates(self, i: int, key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The patterns that fit each key: ``(rows, log weights, mines)``, each
        ``(*key.shape, span)``; a row past its run weighs ``-inf``."""
        cl = self.classes
        keys = cl.keys[i]
        lo = np.searchsorted(keys, key, "left")
        hi = np.searchsorted(keys, key, "right")
        rows = lo[..., None] + np.arange(cl.span[i])
        fits = rows < hi[..., None]
        rows = np.minimum(rows, len(keys) - 1)
        logw = np.where(fits, cl.pattern_logw[i][rows], -np.inf)
        return rows, logw, cl.pattern_mines[i][rows]

    # -- randomness ---------------------------------------------------------------------
    def _draw(self, shape: tuple[int, ...]) -> np.ndarray:
        """Uniforms in ``(0, 1]`` of ``(chains, *shape)``, each chain's from its own stream."""
        size = math.prod(shape)
        if self._used + size > self._uniform.shape[1]:
            chunk = max(size, 4096)
            self._uniform = np.stack([1.0 - s.random(chunk) for s in self.streams])
            self._used = 0
        out = self._uniform[:, self._used:self._used + size]
        self._used += size
        return out.reshape((len(self.streams), *shape))

    def _pick(self, logw: np.ndarray) -> np.ndarray:
        """An index along the last axis of every row, drawn in proportion to ``exp(logw)``."""
        top = logw.max(axis=-1, keepdims=True)
        w = np.exp(logw - top)
        cum = np.cumsum(w, axis=-1)
        u = self._draw(logw.shape[1:-1])[..., None] * cum[..., -1:]
        return np.minimum((cum < u).sum(axis=-1), logw.shape[-1] - 1)

    @staticmethod
    def _at(table: np.ndarray, pick: np.ndarray) -> np.ndarray:
        """``table[..., pick]`` row by row: the entry ``pick`` names in every row."""
        flat = table.reshape(-1, table.shape[-1])
        return flat[np.arange(len(flat)), pick.reshape(-1)].reshape(pick.shape)

    def _write(self, i: int, blocks: np.ndarray, rows: np.ndarray) -> None:
        """Give the variables of ``blocks`` of class ``i`` the values of pattern ``rows`` (per chain)."""
        cl = self.classes
        chains = np.arange(len(self.x))[:, None, None]
        self.x[chains, cl.variables[i][blocks][None, :, :], ] = cl.patterns[i][rows]

    # -- moves --------------------------------------------------------------------------
    def pair_step(self, i: int) -> None:
        """Every block of class ``i`` with a random partner of the class: new patterns
        from their joint distribution given the outside and the pair's mine count."""
        cl = self.classes
        nb = len(cl.members[i])
        order = self.schedule.permutation(nb)
        if nb % 2:
            order = np.append(order, nb)  # the class's empty block partners the odd one out
        first, second = order[0::2], order[1::2]
        key, mines = self._current(i)
        rows, logw, pmines = self._candidates(i, key)
        together = mines[:, first] + mines[:, second]  # (chains, pairs)
        # the second block's weight by its mine count; the first then draws with the
        # weight of the second's patterns that bring the pair back to its count
        lw2, m2 = logw[:, second], pmines[:, second]
        top = lw2.max(axis=2, keepdims=True)
        most = int(m2.max()) + 1
        counts = np.arange(most)
        by_count = (np.exp(lw2 - top)[..., None] * (m2[..., None] == counts)).sum(axis=2)
        need = together[..., None] - pmines[:, first]
        ok = (need >= 0) & (need < most)
        got = np.take_along_axis(by_count, np.clip(need, 0, most - 1), axis=2)
        with np.errstate(divide="ignore"):
            score = logw[:, first] + np.where(ok & (got > 0), np.log(np.where(got > 0, got, 1.0)), -np.inf)
        pick1 = self._pick(score)
        chosen1 = self._at(rows[:, first], pick1)
        left = together - self._at(pmines[:, first], pick1)
        pick2 = self._pick(np.where(m2 == left[..., None], lw2, -np.inf))
        chosen2 = self._at(rows[:, second], pick2)
        self._write(i, first, chosen1)
        self._write(i, second, chosen2)

    def flex_step(self, i: int, blocks: float = 4.0) -> None:
        """Move the mine count: about ``blocks`` blocks of class ``i`` (each with
        probability ``blocks / size``, in every chain apart) draw new patterns from
        their distribution given the outside without ``rest``, and the chain takes
        them all with probability ``min(1, rest(k') / rest(k))``: Metropolis–Hastings
        with that proposal, which the blocks' independence makes exact (the
        proposal's weights cancel all but ``rest``)."""
        cl = self.classes
        key, mines = self._current(i)
        rows, logw, pmines = self._candidates(i, key)
        pick = self._pick(logw)
        chosen = self._at(rows, pick)
        moved = self._at(pmines, pick) - mines
        size = len(cl.members[i])
        take = self._draw((size + 1,)) < min(1.0, blocks / max(size, 1))
        proposed = self.k + np.where(take, moved, 0).sum(axis=1)
        with np.errstate(invalid="ignore"):
            ratio = np.exp(np.minimum(self.log_rest[proposed] - self.log_rest[self.k], 0.0))
        accept = self._draw(()) < np.nan_to_num(ratio)
        take &= accept[:, None]
        chains = np.arange(len(self.x))[:, None, None]
        where = cl.variables[i][None, :, :]
        self.x[chains, where] = np.where(take[..., None], cl.patterns[i][chosen], self.x[chains, where])
        self.k = np.where(accept, proposed, self.k)

    def walk_step(self, i: int, low: int, high: int, tilt: float = 3.0) -> None:
        """Move the mine count of every chain outside ``[low, high]`` towards it: the
        blocks of class ``i`` draw their patterns tilted by ``exp(tilt)`` a mine in
        the direction wanted, each taking part with probability ``distance /
        blocks`` (so the count does not overshoot by much). Not a move of the
        target; the warm-up after it forgets it."""
        cl = self.classes
        key, mines = self._current(i)
        rows, logw, pmines = self._candidates(i, key)
        distance = np.where(self.k < low, low - self.k, np.where(self.k > high, high - self.k, 0))
        pick = self._pick(logw + tilt * np.sign(distance)[:, None, None] * pmines)
        chosen = self._at(rows, pick)
        moved = self._at(pmines, pick) - mines
        blocks = len(cl.members[i])
        take = self._draw((blocks + 1,)) < (np.abs(distance) / max(blocks, 1))[:, None]
        chains = np.arange(len(self.x))[:, None, None]
        where = cl.variables[i][None, :, :]
        self.x[chains, where] = np.where(take[..., None], cl.patterns[i][chosen], self.x[chains, where])
        self.k += np.where(take, moved, 0).sum(axis=1)

    def _window_walk(self, i: int, low: int, high: int) -> None:
        """The windows of class ``i`` drawn tilted towards ``[low, high]`` in the chains
        outside it, window after window until each is inside (a draw may step over a
        range of one count; the next walks back, and the small blocks' walk, which
        does not overshoot, runs after it)."""
        distance = np.where(self.k < low, low - self.k, np.where(self.k > high, high - self.k, 0))
        if distance.any():
            self._draw_windows(i, direction=np.sign(distance), goal=np.where(distance > 0, low, high),
                               tilt=WALK_TILT)

    def walk(self, budget=None) -> int:
        """Walk steps over every class until every chain's mine count has a finite
        ``log_rest``: the sweeps it took.

        Raises
        ------
        BudgetExceeded
            When ``budget``'s deadline passes first.
        """
        allowed = np.flatnonzero(np.isfinite(self.log_rest))
        low, high = int(allowed.min()), int(allowed.max())
        sweeps = 0
        while not np.isfinite(self.log_rest[self.k]).all():
            for i in self.schedule.permutation(self.windows.classes) if self.windows is not None else []:
                self._window_walk(int(i), low, high)
                if budget is not None:
                    budget.check_time("the layout chains' walk to the mine total")
            for i in self.schedule.permutation(len(self.classes.members)):
                self.walk_step(int(i), low, high)
                self.pair_step(int(i))  # also moves mines about, so the count can move on
                if budget is not None:
                    budget.check_time("the layout chains' walk to the mine total")
            sweeps += 1
        return sweeps

    def window_step(self, i: int) -> None:
        """Every window of class ``i`` redrawn in every chain."""
        self._draw_windows(i)

    def _draw_windows(self, i: int, **walk) -> None:
        """:func:`step_windows` on class ``i`` of every chain, counted; the mine counts
        are handed over as the contiguous ``int64`` array the programme writes."""
        if self.k.dtype != np.int64 or not self.k.flags.c_contiguous:
            self.k = np.ascontiguousarray(self.k, dtype=np.int64)
        self.window_draws += step_windows(self.windows, i, self.x, self.k, self.log_rest, self._states, **walk)

    def sweep(self, budget=None) -> None:
        """Every class of windows once, in random order; then (every sweep without
        windows, every :data:`SMALL_EVERY` with them) every class of small blocks
        once, in random order: a pair step, and a flex step where the mine count can
        move. ``budget``'s deadline is looked at after every class."""
        if self.windows is not None:
            for i in self.schedule.permutation(self.windows.classes):
                self.window_step(int(i))
                if budget is not None:
                    budget.check_time("a sweep of the layout chains")
        if self.windows is None or self.sweeps % SMALL_EVERY == 0:
            for i in self.schedule.permutation(len(self.classes.members)):
                self.pair_step(int(i))
                if self.flexible:
                    self.flex_step(int(i))
                if budget is not None:
                    budget.check_time("a sweep of the layout chains")
        self.sweeps += 1

    def values(self) -> np.ndarray:
        """Each chain's value of every variable: ``(chains, variables)``."""
        return self.x[:, : self.model.size]
