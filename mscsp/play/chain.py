"""A Markov chain over no-guess boards whose stationary distribution is uniform.

Rejection sampling (``retry`` in :mod:`mscsp.play.noguess`) is exactly uniform over the
no-guess boards of a setting but needs thousands of draws a board at 30x16 with 130
mines and millions beyond. This chain walks among no-guess boards instead: the
Metropolis–Hastings algorithm (N. Metropolis, A. Rosenbluth, M. Rosenbluth, A. Teller
and E. Teller, "Equation of state calculations by fast computing machines", J. Chem.
Phys. 21, 1953; W. K. Hastings, Biometrika 57, 1970) with the uniform distribution over
no-guess boards as its target. Each step proposes a board and accepts it when it is
no-guess, else stays:

- a *swap* (most steps): one mine, chosen uniformly, moves to one cell chosen uniformly
  among the mine-free cells the first-click rule allows;
- a *fresh draw* (a step in :data:`JUMP` on average): a board drawn as the rule draws
  boards, independently of the current one.

Both proposals are symmetric — a swap is undone by the swap back, with the same
probability, and a fresh draw does not depend on where the chain is — so the
Metropolis acceptance ratio between two no-guess boards is one, and acceptance is the
no-guess check itself. Each kernel leaves the uniform distribution stationary, and so
does their mixture. Swaps alone do not connect every no-guess board: with the mine
total, a census of 5x5 boards with 8 mines (safe first click in the centre) finds one
board no swap reaches, and 4x8 with 6 mines (safe click at (1,1)) fourteen; the fresh
draws make the chain irreducible (any no-guess board is one accepted draw away), and
rejections make it aperiodic, so it converges to uniform from any start.

The check is :func:`~mscsp.play.verify.verify`'s play from the click: the compiled loop
(:mod:`mscsp.play.fastplay`) where it answers, the Python loop otherwise — the same
guarantee (solver, with or without the mine total) a ``retry`` board carries.

:meth:`NoGuessChain.run` makes its steps in C where it can (``_fastplay.chain``): the
same proposals drawn from the same 64-bit words of the bit generator (Lemire's
bounded integers, as :mod:`mscsp.sampling` draws them), the same check, the same
bookkeeping, so a seed walks to the same board either way; a step whose compiled
play gives up is left to :meth:`NoGuessChain.step`, and the bit generator is moved
on by exactly the words the C loop read. Its play asks only whether the board is won,
so before each complete step it tries pairs of clues within two cells of each other
(when the difference of their remaining mines is the number of one's covered cells
away from the other, those are mines and the other's away cells safe): each such cell
is one the complete step proves, and the closure of sound deduction, which decides,
is the same whatever the order (:mod:`mscsp.play.fastplay`).

How long to run is decided after a pilot of :data:`PILOT_JUMP` fresh draws
(:func:`plan`). Where drawn boards are often no-guess, an accepted fresh draw forgets
the past at once, and the pilot's acceptance rate bounds the distance to uniform after
any number of steps (a proof, given that rate); where they almost never are (the dense
boards the chain exists for), the run lasts :data:`SWEEPS` times the swap estimate
below.

Mixing is measured, not assumed. A chain records the number of mines on the board's
edge after every step (kept up to date in constant time) and, when asked, 3BV and the
size of the click's opening at regular intervals; :func:`autocorrelation_time` gives
each one's integrated autocorrelation time in steps (Geyer's initial monotone sequence,
:mod:`mscsp.analysis.counting.montecarlo.diagnostics`). A swap moves one mine, so the
edge count forgets its start after about ``2 m (1 - m / F) / a`` steps for ``m`` mines
among ``F`` free cells and acceptance rate ``a`` (each mine must be moved about once):
:func:`steps_for` sets the length of a run from that estimate, measured acceptance in;
a run lasts :data:`SWEEPS` of them. The number was set by measuring how fast chains
started from perturbation boards forget their start: the bias of the mean 3BV and
click opening falls below the sampling noise within about three estimates, and the
edge count's measured autocorrelation time is at most about twice the estimate
(``docs/decisions.md`` has the figures).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..analysis import SolverName
from ..board import Geometry, Layout
from ..errors import InputError
from ..metrics import bbbv
from ..rules import FirstClickRule
from ..sampling import bounded, sample_without_replacement
from . import fastplay
from .verify import verify

__all__ = ["NoGuessChain", "Plan", "Trace", "autocorrelation_time", "plan", "steps_for",
           "JUMP", "PILOT", "PILOT_JUMP", "SWEEPS", "TOLERANCE"]

#: Share of steps that propose a fresh draw when the run relies on swaps (irreducibility).
JUMP = 1 / 32

#: Steps of the pilot whose acceptance rates choose the run (:func:`plan`).
PILOT = 256

#: Share of fresh draws in the pilot, and in a run that relies on them (regeneration).
PILOT_JUMP = 1 / 2

#: Expected autocorrelation times of the edge count a swap run lasts (:func:`steps_for`).
SWEEPS = 8

#: Total variation to uniform that a regeneration run proves (:func:`plan`).
TOLERANCE = 1e-3

#: A regeneration run is chosen while it is at most this many steps, or shorter than
#: a swap run.
REGENERATION_STEPS = 20_000


@dataclass
class Trace:
    """What a chain recorded: observables along the run, and its proposals.

    Attributes
    ----------
    edge : list of int
        Mines on the board's edge after each step.
    every : int
        Steps between two records of ``bbbv`` and ``opening`` (0: not recorded).
    bbbv, opening : list of int
        3BV, and the cells the first click opens, every ``every`` steps.
    swaps, swaps_accepted, draws, draws_accepted : int
        Proposals of each kind and how many were accepted.
    """

    edge: list[int] = field(default_factory=list)
    every: int = 0
    bbbv: list[int] = field(default_factory=list)
    opening: list[int] = field(default_factory=list)
    swaps: int = 0
    swaps_accepted: int = 0
    draws: int = 0
    draws_accepted: int = 0

    @property
    def steps(self) -> int:
        return self.swaps + self.draws

    @property
    def acceptance(self) -> float:
        """Share of swaps accepted (nan before the first)."""
        return self.swaps_accepted / self.swaps if self.swaps else math.nan


class NoGuessChain:
    """A chain over the no-guess boards of one setting, started from a no-guess board.

    Parameters
    ----------
    layout : Layout
        The start: a no-guess board of the setting (any one; a biased generator's
        board will do, the run forgets it).
    rule : FirstClickRule or str
        ``uniform``, ``safe`` or ``opening``: the cells it keeps free never take a
        mine. ``winxp`` is refused (its layouts are not equally likely, so there is no
        uniform distribution to aim at).
    click : (int, int)
        ``(x, y)`` of the first click.
    rng : numpy.random.Generator
        The chain's only source of randomness.
    solver : {'single-point', 'subset', 'sat'}
    use_total : bool
        The guarantee: which solver finishes every board the chain visits.
    jump : float
        Share of steps that propose a fresh draw.

    Examples
    --------
    >>> from mscsp.board import Spec
    >>> from mscsp.play.noguess import generate_no_guess
    >>> start = generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=3)
    >>> chain = NoGuessChain(start.layout, "opening", (4, 4), np.random.default_rng(4))
    >>> trace = chain.run(200)
    >>> trace.steps, 0 < trace.acceptance <= 1
    (200, True)
    >>> from mscsp.play.verify import verify
    >>> verify(chain.layout(), (4, 4)).solved
    True
    """

    def __init__(self, layout: Layout, rule: FirstClickRule | str, click: tuple[int, int],
                 rng: np.random.Generator, *, solver: SolverName | str = SolverName.SAT,
                 use_total: bool = True, jump: float = JUMP):
        rule = equally_likely(FirstClickRule.parse(rule))
        g = layout.geometry
        self.geometry = g
        self.rule = rule
        self.cell = g.cell(click, "click")
        self.click = g.coords(self.cell)
        self.solver = SolverName.parse(solver)
        self.use_total = use_total
        self.rng = rng
        self._bits = rng.bit_generator
        allowed = g.mask.copy()
        allowed[list(rule.excluded(g, self.cell))] = False
        self.allowed = np.flatnonzero(allowed).tolist()
        self.mines = layout.mines.copy()
        if (self.mines & ~allowed).any():
            raise InputError(f"the start has a mine where rule {rule.value!r} keeps the cells free")
        if not self._no_guess(self.mines):
            raise InputError("the start is not a no-guess board of the setting")
        self._mine_cells = np.flatnonzero(self.mines).tolist()
        self._free_cells = [c for c in self.allowed if not self.mines[c]]
        if not self._mine_cells or not self._free_cells:
            raise InputError("every allowed cell is a mine or none is: the chain has nowhere to move")
        self._edge = edge_cells(g)
        self._edge_bytes = self._edge.astype(np.uint8).tobytes()
        self._allowed_array = np.array(self.allowed, dtype=np.int32).tobytes()
        self.edge = int((self.mines & self._edge).sum())
        self._set_jump(jump)
        self._trace = Trace()

    def _set_jump(self, jump: float) -> None:
        if not 0 <= jump <= 1:
            raise InputError(f"jump must be a share between 0 and 1, not {jump!r}")
        self.jump = jump
        # the jump test compares a 32-bit draw: exact and machine-independent
        self._jump_below = round(jump * (1 << 32))

    def layout(self) -> Layout:
        """The board the chain is at."""
        return Layout(self.geometry, self.mines)

    def _no_guess(self, mines: np.ndarray) -> bool:
        layout = Layout(self.geometry, mines)
        # the compiled loop's bare answer, dead structures looked for first in the same call
        fast = fastplay._play_tuple(layout, self.cell, self.solver, self.use_total, fastplay.NODE_LIMIT,
                                    quick=True)
        if fast is not None and fast[0] != fastplay.NOT_LOOKED:  # rows too wide: the verifier looks
            return fast[0] == fastplay.Ending.WON
        return verify(layout, self.click, self.solver, use_total=self.use_total).solved

    def step(self) -> bool:
        """One proposal; True when it was accepted."""
        if self._jump_below and (int(self._bits.random_raw()) & 0xFFFFFFFF) < self._jump_below:
            return self._draw()
        return self._swap()

    def _swap(self) -> bool:
        self._trace.swaps += 1
        i = bounded(self._bits, len(self._mine_cells))
        j = bounded(self._bits, len(self._free_cells))
        out, into = self._mine_cells[i], self._free_cells[j]
        mines = self.mines
        mines[out] = False
        mines[into] = True
        if not self._no_guess(mines):
            mines[out] = True
            mines[into] = False
            return False
        self._mine_cells[i], self._free_cells[j] = into, out
        self.edge += int(self._edge[into]) - int(self._edge[out])
        self._trace.swaps_accepted += 1
        return True

    def _draw(self) -> bool:
        self._trace.draws += 1
        chosen = sample_without_replacement(len(self.allowed), len(self._mine_cells), self.rng)
        mines = np.zeros(self.geometry.area, dtype=bool)
        mines[[self.allowed[k] for k in chosen]] = True
        if not self._no_guess(mines):
            return False
        self.mines = mines
        self._mine_cells = np.flatnonzero(mines).tolist()
        self._free_cells = [c for c in self.allowed if not mines[c]]
        self.edge = int((mines & self._edge).sum())
        self._trace.draws_accepted += 1
        return True

    def run(self, steps: int, *, jump: float | None = None, every: int = 0,
            deadline: float | None = None) -> Trace:
        """Make ``steps`` proposals; the trace of the run.

        ``jump`` sets the share of fresh draws from now on. ``every`` > 0 also
        records 3BV and the click's opening every ``every`` steps
        (each record builds the board's numbers: keep it sparse). With a
        ``deadline`` (a :func:`time.perf_counter` value) the run stops when it
        passes, and the trace says how many steps were made.
        """
        if steps < 0:
            raise InputError(f"steps must be non-negative, not {steps}")
        if jump is not None:
            self._set_jump(jump)
        self._trace = trace = Trace(every=every)
        compiled = self._compiled()
        s = 1
        while s <= steps:
            if deadline is not None and s % 64 == 0 and time.perf_counter() > deadline:
                break
            # a stretch ends where the deadline is looked at or a record is due
            end = steps if deadline is None else min(steps, s | 63)
            if every:
                end = min(end, -(-s // every) * every)
            made, python = self._compiled_steps(end - s + 1) if compiled else (0, True)
            if python and made <= end - s:
                self.step()
                trace.edge.append(self.edge)
                made += 1
            s += made
            if every and made and (s - 1) % every == 0:
                layout = self.layout()
                trace.bbbv.append(bbbv(layout))
                trace.opening.append(opening_size(layout, self.cell))
        return trace

    def _compiled(self) -> bool:
        """Whether the compiled loop can make this chain's steps (else :meth:`step` makes them)."""
        # an extension built before the chain loop existed has no "chain": step() then
        return (fastplay.available() and hasattr(fastplay._fastplay, "chain") and fastplay._SOLVERS[self.solver][0]
                and fastplay._board_of(self.geometry) is not None and self.geometry.width <= fastplay.MAX_ROW)

    def _compiled_steps(self, n: int) -> tuple[int, bool]:
        """Up to ``n`` steps made by the compiled loop: the steps made, and whether the
        next one is left to :meth:`step` (its check needs the Python verifier, or the
        words given ran out at once).

        The loop reads the 64-bit words :meth:`step` would read, in the same order, so
        a chain walks the same boards either way; the bit generator is then moved on by
        exactly the words used."""
        bits = self._bits
        state = bits.state
        # a swap reads at most three words but for rejections (rare); a fresh draw one a mine
        words = bits.random_raw(4 * n + 2 * len(self._mine_cells) + 64)
        mine_cells = np.array(self._mine_cells, dtype=np.int32)
        free_cells = np.array(self._free_cells, dtype=np.int32)
        edges = np.empty(n, dtype=np.int32)
        table, mask, width = fastplay._board_of(self.geometry)
        made, used, swaps, swaps_ok, draws, draws_ok, self.edge, stop = fastplay._fastplay.chain(
            table, mask, width, self.cell, fastplay._SOLVERS[self.solver][1], self.use_total, fastplay.NODE_LIMIT,
            self._edge_bytes, self._allowed_array, words, self._jump_below, n, self.mines, mine_cells, free_cells,
            edges, self.edge)
        bits.state = state
        bits.random_raw(used)
        trace = self._trace
        trace.swaps += swaps
        trace.swaps_accepted += swaps_ok
        trace.draws += draws
        trace.draws_accepted += draws_ok
        trace.edge.extend(edges[:made].tolist())
        self._mine_cells = mine_cells.tolist()
        self._free_cells = free_cells.tolist()
        return made, stop == 2 or (stop == 1 and made == 0)


def equally_likely(rule: FirstClickRule) -> FirstClickRule:
    """The rule, if its layouts are equally likely (there is a uniform distribution to
    aim at); InputError for ``winxp``, which moves a mine to a chosen cell."""
    if rule is FirstClickRule.WINXP:
        raise InputError("uniform no-guess boards need a rule whose layouts are equally likely: "
                         "'winxp' moves a mine to a chosen cell (use uniform, safe or opening)")
    return rule


def opening_size(layout: Layout, click: int) -> int:
    """Cells the first click at flat ``click`` opens (1 on a number, 0 on a mine)."""
    if layout.mines[click]:
        return 0
    numbers = layout.numbers
    if numbers[click] != 0:
        return 1
    neighbours = layout.geometry.neighbours
    seen = {click}
    stack = [click]
    while stack:
        c = stack.pop()
        if numbers[c] == 0:
            for n in neighbours(c):
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
    return len(seen)


def edge_cells(g: Geometry) -> np.ndarray:
    """The cells on the board's edge (flat mask): where the chain counts mines."""
    x, y = np.arange(g.area) % g.width, np.arange(g.area) // g.width
    return g.mask & ((x == 0) | (y == 0) | (x == g.width - 1) | (y == g.height - 1))


def autocorrelation_time(series, chains: int = 1) -> float:
    """The integrated autocorrelation time of a recorded series, in records.

    ``series`` is one chain's records, or ``chains`` chains' records of equal length
    concatenated. Geyer's initial monotone sequence estimate, from the split-chain
    diagnostics (:func:`~mscsp.analysis.counting.montecarlo.diagnostics.effective_size`);
    nan for a series too short or that never varies.

    Examples
    --------
    >>> rng = np.random.default_rng(5)
    >>> 0.5 < autocorrelation_time(rng.random(4000)) < 1.5
    True
    >>> 5 < autocorrelation_time(np.repeat(rng.random(400), 10)) < 15  # each value kept ten times
    True
    """
    from ..analysis import effective_size

    draws = np.asarray(series, dtype=float).reshape(1, chains, -1)
    if draws.shape[2] < 8:
        return math.nan
    ess = float(effective_size(draws)[0])
    return draws.shape[1] * draws.shape[2] / ess if ess == ess and ess > 0 else math.nan


@dataclass(frozen=True)
class Plan:
    """How long a chain runs after its pilot, and why.

    Attributes
    ----------
    jump : float
        Share of fresh draws in the run.
    steps : int
        Steps of the run.
    regeneration : float or None
        When the run relies on fresh draws: the lower 95% bound of their acceptance
        rate that :attr:`steps` is computed from (else None).
    bound : float or None
        The total variation to uniform that bound proves (else None: the run lasts
        :data:`SWEEPS` estimated autocorrelation times, which is a measurement, not a proof).
    """

    jump: float
    steps: int
    regeneration: float | None = None
    bound: float | None = None


def plan(mines: int, free: int, pilot: Trace, *, sweeps: float = SWEEPS, tolerance: float = TOLERANCE) -> Plan:
    """The run that follows a pilot (made with a share :data:`PILOT_JUMP` of fresh draws).

    Two ways to forget the start:

    - *regeneration*: an accepted fresh draw is a uniform no-guess board whatever the
      chain's past, and every step accepts one with the same probability ``jump * b``
      (``b`` the share of drawn boards that are no-guess). So after ``t`` steps the
      distance to uniform is at most ``(1 - jump * b) ** t`` (a Doeblin minorisation:
      the kernel is ``jump * b`` times the uniform distribution plus a remainder). With
      ``b`` replaced by the lower 95% Wilson bound of the pilot's draws, ``t`` is set so
      that this bound is ``tolerance``;
    - *swaps*: :func:`steps_for` estimated autocorrelation times, with a share
      :data:`JUMP` of fresh draws for irreducibility.

    Regeneration is chosen when the pilot accepted a fresh draw and its run is at most
    :data:`REGENERATION_STEPS` steps or shorter than the swap run.

    Examples
    --------
    >>> p = plan(10, 72, Trace(swaps=128, swaps_accepted=100, draws=128, draws_accepted=40))
    >>> p.jump, p.bound, p.steps < 200
    (0.5, 0.001, True)
    >>> plan(170, 471, Trace(swaps=128, swaps_accepted=40, draws=128, draws_accepted=0)).regeneration is None
    True
    """
    from ..stats import wilson

    swap_steps = math.ceil(steps_for(mines, free, pilot.acceptance, sweeps) / (1 - JUMP))
    if pilot.draws and pilot.draws_accepted:
        low = wilson(pilot.draws_accepted, pilot.draws)[0]
        if low > 0:
            regen_steps = math.ceil(math.log(tolerance) / math.log1p(-PILOT_JUMP * low))
            if regen_steps <= max(REGENERATION_STEPS, swap_steps):
                return Plan(PILOT_JUMP, regen_steps, low, tolerance)
    return Plan(JUMP, swap_steps)


def steps_for(mines: int, free: int, acceptance: float, sweeps: float = SWEEPS) -> int:
    """Steps a run lasts: ``sweeps`` times the edge count's expected autocorrelation time.

    A swap moves one of ``mines`` mines to one of ``free - mines`` empty cells, and an
    accepted swap changes the edge count's correlation with its past by about
    ``1/m + 1/(F - m)``; so it decorrelates in about ``2 m (1 - m/F) / a`` steps at
    acceptance rate ``a``. The estimate is checked against measured times in the
    tests and in ``experiments/noguess_bias.py``.

    Examples
    --------
    >>> steps_for(99, 471, 0.9)
    1391
    """
    if not 0 < mines < free:
        raise InputError(f"a chain needs some mines and some room: {mines} mines among {free} cells")
    acceptance = min(max(acceptance, 0.01), 1.0)
    return math.ceil(sweeps * 2 * mines * (1 - mines / free) / acceptance)
