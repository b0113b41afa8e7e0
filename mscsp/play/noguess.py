"""No-guess boards: retries or perturbation, with a stated and checked guarantee.

A board is *no-guess* for a solver when :func:`mscsp.play.verify.verify` — the play loop
that alone holds the layout, feeding the solver only what a player sees — opens every
safe cell from the chosen click. The guarantee printed with a board names the solver
and whether the mine total was used ("solvable by complete deduction with the mine
total from [15,8]"); a stronger solver admits more boards, but its deductions may be
harder for a player to find.

Three methods:

``retry``
    Draw a board under the first-click rule, verify, repeat. Accepted boards are
    exactly uniform over the no-guess boards of the rule (rejection sampling). The
    reference article's recommendation; slow where acceptance is rare.
``perturb``
    (:mod:`mscsp.play.perturb`) After Simon Tatham's Mines ("Writing a soluble-grid generator for Mines"): when
    the solver is stuck, change the board where it is stuck and verify again from
    scratch (a change can invalidate earlier deductions). Here a perturbation picks
    one of the stuck clues with the fewest undecided neighbours (ties at random) and
    fills all of them with mines or empties them, whichever moves fewer mines,
    swapping with covered cells that touch no open cell (so no other number
    changes), preferring cells far from the click; only when no such cell is left
    does a mine move onto an open cell or off a flag. Every change is followed by a
    pass from scratch, as in Tatham's generator, and the first pass that finishes
    accepts the board; after a few changes without progress it starts over from a
    fresh draw. The compiled play loop (:mod:`mscsp.play.fastplay`) makes a pass from
    scratch cheaper than continuing one in Python. This biases the layout distribution;
    ``experiments/noguess_cost.py`` measures how (per-cell mine frequencies and 3BV
    against retry boards).

``uniform``
    Uniform over the no-guess boards at any density: rejection first (``retry_first``
    fresh draws, exact when one is accepted), then, where acceptance is too rare, the
    Markov chain of :mod:`mscsp.play.chain` started from a ``perturb`` board. Its
    swaps and fresh draws are symmetric proposals accepted when the board is still
    no-guess, so the uniform distribution over no-guess boards is the one it settles
    to. A pilot's acceptance rates choose the run (:func:`~mscsp.play.chain.plan`):
    where fresh draws are often accepted, one proves the distance to uniform below
    0.001; where they are not, the run lasts
    :data:`~mscsp.play.chain.SWEEPS` estimated autocorrelation times of the edge
    count. The board says which, with its steps and the autocorrelation time
    measured over the run's second half.

All are bounded by attempts and time and fail with a :class:`GenerationError`
carrying the attempt count. Randomness comes from one seeded generator, consumed the
same way on every machine, so the same arguments give the same board.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..analysis import SolverName
from ..board import Layout, Spec
from ..budget import Budget
from ..errors import Choice, GenerationError, InputError
from ..rules import (
    GENERATOR_VERSION,
    FirstClickRule,
    GeneratedBoard,
    max_mines,
    place_mines,
)
from ..sampling import as_generator, fresh_seed
from .perturb import _perturbed
from .verify import verify

__all__ = ["Method", "NoGuessBoard", "UniformSample", "generate_no_guess", "sample_no_guess", "guarantee_text",
           "NOGUESS_VERSION"]

#: Names the no-guess procedures; changes whenever the same seed would give another board.
NOGUESS_VERSION = f"{GENERATOR_VERSION}+noguess/3"


class Method(Choice, what="no-guess method"):
    RETRY = "retry"
    PERTURB = "perturb"
    UNIFORM = "uniform"



_SOLVER_WORDS = {
    SolverName.SINGLE_POINT: "single-point deduction",
    SolverName.SUBSET: "subset deduction",
    SolverName.SAT: "complete deduction",
}


def guarantee_text(solver: SolverName | str, use_total: bool, click: tuple[int, int]) -> str:
    """The guarantee a no-guess board carries, in words.

    Examples
    --------
    >>> guarantee_text("sat", True, (15, 8))
    'solvable by complete deduction with the mine total from [15,8]'
    """
    solver = SolverName.parse(solver)
    total = "with the mine total" if use_total else "without the mine total"
    return f"solvable by {_SOLVER_WORDS[solver]} {total} from [{click[0]},{click[1]}]"


@dataclass(frozen=True, kw_only=True)
class NoGuessBoard(GeneratedBoard):
    """An accepted no-guess board: a generated board (layout, rule, click, seed) that
    knows how it was found and what it guarantees, so it goes wherever a board goes
    (:func:`~mscsp.play.verify.verify`, :meth:`~mscsp.game.Game.from_board`).

    Attributes
    ----------
    method : Method
        ``retry`` or ``perturb``.
    solver : SolverName
        The solver that finishes the board from its click without a guess.
    use_total : bool
        Whether that solver may use the mine total.
    attempts, perturbations : int
        Boards tried, and mines moved, before this one was accepted.
    guarantee : str
        The guarantee in words.
    sampling : str
        How the board was drawn, in words: which distribution it comes from, and for
        the chain its steps and measured autocorrelation.
    steps : int
        (uniform) Steps of the chain; 0 when a fresh draw was accepted.
    autocorrelation : float or None
        (uniform, chain) Integrated autocorrelation time of the number of mines on the
        board's edge, in steps, measured over the second half of the run (None when
        no chain ran or it was too short to say).
    generator : str
        :data:`NOGUESS_VERSION`: the same seed and arguments give the same board
        while it stays the same.
    seconds : float
        Wall time spent finding it.
    """

    method: Method
    solver: SolverName
    use_total: bool
    attempts: int
    perturbations: int
    guarantee: str
    sampling: str = ""
    steps: int = 0
    autocorrelation: float | None = None


#: How each method's boards are distributed, in words (uniform's chain adds its figures).
_SAMPLING = {
    Method.RETRY: "uniform: exact rejection sampling",
    Method.PERTURB: "not uniform: perturbation where the solver is stuck",
}


def _uniform(spec: Spec, rule: FirstClickRule, cell: int, solver: SolverName, use_total: bool,
             rng: np.random.Generator, recorded: int | None, started: float, deadline: float, time_limit: float,
             max_attempts: int, retry_first: int, steps: int | None, patience: int,
             memory: Budget | None) -> NoGuessBoard:
    """``method="uniform"``: rejection while it is cheap, then the chain from a perturbation board."""
    from .chain import (
        JUMP, PILOT, PILOT_JUMP, SWEEPS, NoGuessChain, Plan, autocorrelation_time, equally_likely, plan,
    )

    equally_likely(rule)
    if retry_first < 0:
        raise InputError(f"retry_first must be non-negative, not {retry_first}")
    if steps is not None and steps < 0:
        raise InputError(f"steps must be non-negative, not {steps}")
    geometry = spec.geometry
    click = geometry.coords(cell)

    def board(layout: Layout, attempts: int, perturbations: int, sampling: str, made: int = 0,
              tau: float | None = None) -> NoGuessBoard:
        return NoGuessBoard(layout, rule, click, recorded, NOGUESS_VERSION, time.perf_counter() - started,
                            method=Method.UNIFORM, solver=solver, use_total=use_total, attempts=attempts,
                            perturbations=perturbations, guarantee=guarantee_text(solver, use_total, click),
                            sampling=sampling, steps=made, autocorrelation=tau)

    attempts = perturbations = 0
    while attempts < min(retry_first, max_attempts) and time.perf_counter() < deadline:
        if memory is not None:
            memory.check("generating a no-guess board")
        attempts += 1
        layout = place_mines(geometry, spec.mines, rule, click, rng)
        if verify(layout, click, solver, use_total=use_total, quick=True,
                  time_limit=max(deadline - time.perf_counter(), 0.0)).solved:
            return board(layout, attempts, 0, f"{_SAMPLING[Method.RETRY]} (draw {attempts})")
    start, tried, perturbations = _perturbation_start(spec, rule, cell, solver, use_total, rng, deadline, patience,
                                                      max_attempts - attempts, memory)
    attempts += tried
    free = max_mines(geometry, rule, cell)  # winxp was refused: the cells the rule allows
    if start is not None and spec.mines in (0, free):  # one layout: nothing to walk
        return board(start, attempts, perturbations, "uniform: the only layout the rule allows")
    if start is not None:
        chain = NoGuessChain(start, rule, click, rng, solver=solver, use_total=use_total)
        if steps is not None:
            pilot, run = None, Plan(JUMP, steps)
        else:
            pilot = chain.run(PILOT, jump=PILOT_JUMP, deadline=deadline)
            run = plan(spec.mines, free, pilot) if pilot.steps == PILOT else None
        rest = chain.run(run.steps, jump=run.jump, deadline=deadline) if run is not None else None
        if rest is not None and rest.steps == run.steps:
            total = run.steps + (PILOT if pilot is not None else 0)
            tau = autocorrelation_time(rest.edge[len(rest.edge) // 2:])
            tau = None if tau != tau else tau
            measured = ("not measured" if tau is None
                        else f"measured over its second half: {tau:,.0f} steps ({total / tau:,.1f} times over)")
            if run.bound is not None:
                words = (f"uniform within total variation {run.bound:g}: a Markov chain of {total:,} steps "
                         f"from a perturbation board, half of them fresh draws, accepted at a rate of at least "
                         f"{run.regeneration:.3g} (the pilot's 95% bound); edge-count autocorrelation time {measured}")
            else:
                words = (f"approximately uniform: a Markov chain of {total:,} steps from a perturbation board, "
                         f"{SWEEPS} estimated edge-count autocorrelation times; {measured}")
            return board(chain.layout(), attempts, perturbations, words, total, tau)
    raise GenerationError(
        f"no {spec.width}x{spec.height} board with {spec.mines} mines {guarantee_text(solver, use_total, click)} "
        f"sampled uniformly within {time_limit:g} s and {max_attempts} attempts",
        attempts,
    )


def _perturbation_start(spec: Spec, rule: FirstClickRule, cell: int, solver: SolverName, use_total: bool,
                        rng: np.random.Generator, deadline: float, patience: int, attempts: int | None = None,
                        memory: Budget | None = None) -> tuple[Layout | None, int, int]:
    """A chain's start: fresh draws perturbed until one is no-guess, within the deadline
    and ``attempts`` draws (None: no bound but time). Returns the board (None when none
    was found), the draws made and the mines moved."""
    geometry = spec.geometry
    click = geometry.coords(cell)
    start, tried, moved = None, 0, 0
    while start is None and (attempts is None or tried < attempts) and time.perf_counter() < deadline:
        if memory is not None:
            memory.check("generating a no-guess board")
        tried += 1
        start, used = _perturbed(place_mines(geometry, spec.mines, rule, click, rng), rule, cell, solver,
                                 use_total, rng, deadline, patience)
        moved += used
    return start, tried, moved


def _setting(spec: Spec, rule: FirstClickRule, click: tuple[int, int]):
    """The board, the click's flat index and ``(x, y)``; bad input (a click off the
    board, too many mines for the rule) is refused before any work is done."""
    geometry = spec.geometry
    cell = geometry.cell(click, "click")
    click = geometry.coords(cell)
    if spec.mines > max_mines(geometry, rule, cell):
        place_mines(geometry, spec.mines, rule, click, 0)  # raises, saying why
    return geometry, cell, click


def generate_no_guess(
    spec: Spec,
    rule: FirstClickRule | str,
    click: tuple[int, int],
    seed: int | np.random.Generator | None = None,
    *,
    method: Method | str = Method.RETRY,
    solver: SolverName | str = SolverName.SAT,
    use_total: bool = True,
    max_attempts: int = 100_000,
    time_limit: float = 60.0,
    patience: int = 15,
    memory_limit: int | None = None,
    retry_first: int = 100,
    steps: int | None = None,
) -> NoGuessBoard:
    """A board the solver finishes from ``click`` without a guess.

    Parameters
    ----------
    spec, rule, click, seed
        As for :func:`mscsp.rules.generate`.
    method : {'retry', 'perturb', 'uniform'}
    solver : {'single-point', 'subset', 'sat'}
        The solver whose success defines "no-guess".
    use_total : bool
        Whether that solver may use the mine total.
    max_attempts : int
        Fresh boards to draw at most.
    time_limit : float
        Seconds at most.
    memory_limit : int, optional
        Bytes the process may hold, checked before each attempt; past them
        BudgetExceeded (memory).
    patience : int
        (perturb, and the chain's start) changes in a row without progress before
        starting over.
    retry_first : int
        (uniform) Fresh draws tried before the chain takes over (0: the chain only).
    steps : int, optional
        (uniform) The chain's steps, with a share :data:`~mscsp.play.chain.JUMP` of
        fresh draws; by default a pilot of :data:`~mscsp.play.chain.PILOT` steps
        and the run :func:`~mscsp.play.chain.plan` chooses.

    Raises
    ------
    InputError
        For an impossible request (too many mines, a click off the board; ``winxp``
        with ``uniform``, whose layouts are not equally likely).
    GenerationError
        When the bound is reached; it carries the number of attempts.

    Examples
    --------
    >>> b = generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=1)
    >>> b.guarantee, b.method.value
    ('solvable by complete deduction with the mine total from [4,4]', 'retry')
    >>> u = generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=1, method="uniform", retry_first=0)
    >>> u.sampling.startswith("uniform within total variation 0.001"), u.steps > 0
    (True, True)
    """
    started = time.perf_counter()
    method = Method.parse(method)
    solver = SolverName.parse(solver)
    rule = FirstClickRule.parse(rule)
    geometry, cell, click = _setting(spec, rule, click)
    if seed is None:
        seed = fresh_seed()
    recorded = None if isinstance(seed, np.random.Generator) else int(seed)
    rng = as_generator(seed)
    attempts = perturbations = 0
    deadline = started + time_limit
    memory = None if memory_limit is None else Budget(None, None, memory_limit)
    if method is Method.UNIFORM:
        return _uniform(spec, rule, cell, solver, use_total, rng, recorded, started, deadline, time_limit,
                        max_attempts, retry_first, steps, patience, memory)
    while attempts < max_attempts and time.perf_counter() < deadline:
        if memory is not None:
            memory.check("generating a no-guess board")
        attempts += 1
        layout = place_mines(geometry, spec.mines, rule, click, rng)
        if method is Method.PERTURB:
            layout, used = _perturbed(layout, rule, cell, solver, use_total, rng, deadline, patience)
            perturbations += used
            won = layout is not None
        else:
            # quick verification: a dead structure answers "no" at once, and the compiled
            # loop plays the rest; the same boards are accepted as by the Python loop
            won = verify(layout, click, solver, use_total=use_total, quick=True,
                         time_limit=max(deadline - time.perf_counter(), 0.0)).solved
        if won:
            return NoGuessBoard(layout, rule, click, recorded, NOGUESS_VERSION, time.perf_counter() - started,
                                method=method, solver=solver, use_total=use_total, attempts=attempts,
                                perturbations=perturbations, guarantee=guarantee_text(solver, use_total, click),
                                sampling=_SAMPLING[method])
    raise GenerationError(
        f"no {spec.width}x{spec.height} board with {spec.mines} mines {guarantee_text(solver, use_total, click)} "
        f"found by {method.value} within {time_limit:g} s and {max_attempts} attempts",
        attempts,
    )


@dataclass(frozen=True)
class UniformSample:
    """Boards from several chains over the no-guess boards, with their diagnostics.

    Attributes
    ----------
    boards : list of Layout
        The boards, chain after chain, each chain's in the order drawn.
    chains : int
        Independent chains (each from its own perturbation board and seed).
    burn_in, thin : list of int
        Each chain's steps before its first board (pilot included), and between two.
    bound : float or None
        Where every chain's run relies on fresh draws: the total variation to uniform
        its burn-in proves (else None: the runs last estimated autocorrelation times).
    acceptance : float
        Share of swaps accepted over all chains.
    effective : dict
        Effective sample size of the boards' mean edge mine count, 3BV and click
        opening (``edge``, ``bbbv``, ``opening``) over all chains (split-chain, Geyer).
    rhat : dict
        Split R-hat of the same quantities (about 1 when the chains agree).
    seconds : float
        Wall time.
    """

    boards: list[Layout]
    chains: int
    burn_in: list[int]
    thin: list[int]
    bound: float | None
    acceptance: float
    effective: dict[str, float]
    rhat: dict[str, float]
    seconds: float


#: Total variation between one board of a regeneration run and the chain's state
#: ``thin`` steps earlier, and estimated autocorrelation times between boards of a swap run.
THIN_TOLERANCE, THIN_SWEEPS = 0.05, 2


def sample_no_guess(
    spec: Spec,
    rule: FirstClickRule | str,
    click: tuple[int, int],
    n: int,
    seed: int | np.random.SeedSequence | None = None,
    *,
    chains: int = 4,
    solver: SolverName | str = SolverName.SAT,
    use_total: bool = True,
    time_limit: float = 600.0,
    patience: int = 15,
) -> UniformSample:
    """``n`` no-guess boards from ``chains`` chains whose stationary distribution is
    uniform (:mod:`mscsp.play.chain`), with the chains' diagnostics.

    Each chain starts from its own perturbation board, with its own seed from
    ``SeedSequence(seed).spawn(chains)``; its pilot chooses the burn-in as for
    ``generate_no_guess(method="uniform")`` and a thinning between boards (a
    regeneration run: a proven distance of :data:`THIN_TOLERANCE` from the chain's
    state ``thin`` steps before; a swap run: :data:`THIN_SWEEPS` estimated
    autocorrelation times). Boards in a chain are correlated: ``effective`` says how
    many independent boards they are worth, and ``rhat`` whether the chains agree.

    Parameters
    ----------
    spec, rule, click
        The setting (``winxp`` refused: its layouts are not equally likely).
    n : int
        Boards in all, shared among the chains (the first chains take one more when
        ``n`` is not a multiple).
    seed : int or SeedSequence, optional
    chains : int
        Independent chains, at least 2 (split R-hat compares them).
    solver, use_total
        The guarantee, as for :func:`generate_no_guess`.
    time_limit : float
        Seconds at most, for all chains.
    patience : int
        As for :func:`generate_no_guess` (the perturbation starts).

    Raises
    ------
    InputError
        For an impossible request, fewer than 2 chains or fewer than 4 boards a chain.
    GenerationError
        When the time runs out; nothing is returned half made.

    Examples
    --------
    >>> s = sample_no_guess(Spec(9, 9, 10), "opening", (4, 4), 16, seed=2)
    >>> len(s.boards), s.chains, s.bound
    (16, 4, 0.001)
    """
    from .chain import (
        JUMP, PILOT, PILOT_JUMP, NoGuessChain, edge_cells, equally_likely, opening_size, plan, steps_for,
    )
    from ..analysis import effective_size, split_rhat
    from ..metrics import bbbv

    started = time.perf_counter()
    deadline = started + time_limit
    solver = SolverName.parse(solver)
    rule = FirstClickRule.parse(rule)
    equally_likely(rule)
    if chains < 2:
        raise InputError(f"at least two chains are needed to compare them, not {chains}")
    if n < 4 * chains:
        raise InputError(f"{n} boards over {chains} chains: at least four a chain are needed for the diagnostics")
    geometry, cell, click = _setting(spec, rule, click)
    free = max_mines(geometry, rule, cell)  # winxp was refused: the cells the rule allows
    if spec.mines in (0, free):
        raise InputError("the rule allows one layout only: there is nothing to sample")
    if seed is None:
        seed = fresh_seed()
    children = (seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))).spawn(chains)
    edge = edge_cells(geometry)
    boards: list[Layout] = []
    records: list[list[tuple[int, int, int]]] = []
    burn_in, thin, bounds = [], [], []
    swaps = accepted = 0

    def out_of_time() -> GenerationError:
        return GenerationError(f"{n} uniform no-guess boards {guarantee_text(solver, use_total, click)} were not "
                               f"sampled within {time_limit:g} s ({len(boards)} made)", len(boards))

    for index, child in enumerate(children):
        rng = as_generator(child)
        start, _, _ = _perturbation_start(spec, rule, cell, solver, use_total, rng, deadline, patience)
        if start is None:
            raise out_of_time()
        chain = NoGuessChain(start, rule, click, rng, solver=solver, use_total=use_total)
        pilot = chain.run(PILOT, jump=PILOT_JUMP, deadline=deadline)
        run = plan(spec.mines, free, pilot)
        made = chain.run(run.steps, jump=run.jump, deadline=deadline)
        if pilot.steps < PILOT or made.steps < run.steps:
            raise out_of_time()
        swaps += pilot.swaps + made.swaps
        accepted += pilot.swaps_accepted + made.swaps_accepted
        burn_in.append(PILOT + run.steps)
        if run.bound is not None:
            step = math.ceil(math.log(THIN_TOLERANCE) / math.log1p(-run.jump * run.regeneration))
        else:
            step = math.ceil(steps_for(spec.mines, free, pilot.acceptance, THIN_SWEEPS) / (1 - JUMP))
        thin.append(step)
        bounds.append(run.bound)
        mine = []
        for k in range(n // chains + (1 if index < n % chains else 0)):
            if k:
                gap = chain.run(step, jump=run.jump, deadline=deadline)
                if gap.steps < step:
                    raise out_of_time()
                swaps += gap.swaps
                accepted += gap.swaps_accepted
            layout = chain.layout()
            boards.append(layout)
            mine.append((int((layout.mines & edge).sum()), bbbv(layout), opening_size(layout, cell)))
        records.append(mine)
    shortest = min(len(r) for r in records)
    draws = np.array([[r[:shortest] for r in records]], dtype=float)  # (1, chains, boards, 3)
    draws = np.moveaxis(draws[0], 2, 0)  # (3, chains, boards)
    names = ("edge", "bbbv", "opening")
    ess, rhat = effective_size(draws), split_rhat(draws)
    bound = max(bounds) if all(b is not None for b in bounds) else None
    return UniformSample(boards, chains, burn_in, thin, bound, accepted / swaps if swaps else math.nan,
                         {k: float(v) for k, v in zip(names, ess)}, {k: float(v) for k, v in zip(names, rhat)},
                         time.perf_counter() - started)
