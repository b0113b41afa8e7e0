"""No-guess boards: retries or perturbation, with a stated and checked guarantee.

A board is *no-guess* for a solver when :func:`mscsp.play.verify.verify` — the play loop
that alone holds the layout, feeding the solver only what a player sees — opens every
safe cell from the chosen click. The guarantee printed with a board names the solver
and whether the mine total was used ("solvable by complete deduction with the mine
total from [15,8]"); a stronger solver admits more boards, but its deductions may be
harder for a player to find.

Two methods:

``retry``
    Draw a board under the first-click rule, verify, repeat. Accepted boards are
    exactly uniform over the no-guess boards of the rule (rejection sampling). The
    reference article's recommendation; slow where acceptance is rare.
``perturb``
    After Simon Tatham's Mines ("Writing a soluble-grid generator for Mines"): when
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

Both are bounded by attempts and time and fail with a :class:`GenerationError`
carrying the attempt count. Randomness comes from one seeded generator, consumed the
same way on every machine, so the same arguments give the same board.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..analysis import SolverName
from ..board import Layout, Spec
from ..budget import Budget
from ..errors import Choice, GenerationError
from ..rules import (
    GENERATOR_VERSION,
    FirstClickRule,
    GeneratedBoard,
    max_mines,
    place_mines,
)
from ..sampling import (
    as_generator,
    bounded,
    fresh_seed,
    sample_without_replacement,
    weighted_sample,
)
from .verify import VerifyResult, verify

__all__ = ["Method", "NoGuessBoard", "generate_no_guess", "guarantee_text", "NOGUESS_VERSION"]

#: Names the no-guess procedures; changes whenever the same seed would give another board.
NOGUESS_VERSION = f"{GENERATOR_VERSION}+noguess/3"


class Method(Choice, what="no-guess method"):
    RETRY = "retry"
    PERTURB = "perturb"



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


def _pass_from_click(layout: Layout, click: int, solver: SolverName, use_total: bool,
                     deadline: float) -> VerifyResult | None:
    """A verification from scratch, within the time left (None: the click is a mine).

    The one dispatcher, :func:`~mscsp.play.verify.verify`, plays it: compiled where it
    can, in Python otherwise; its answer keeps what the player sees where it ended.
    """
    result = verify(layout, layout.geometry.coords(click), solver, use_total=use_total,
                    time_limit=max(deadline - time.perf_counter(), 0.0))
    return None if result.opened == 0 else result


def _perturbed(layout: Layout, rule: FirstClickRule, click: int, solver: SolverName, use_total: bool,
               rng: np.random.Generator, deadline: float, patience: int) -> tuple[Layout | None, int]:
    """Perturb one board until a pass from scratch finishes it (Tatham's scheme).

    Every change is followed by a full verification from the click with the solving
    state cleared (the compiled loop makes that cheaper than continuing a pass in
    Python), and the first pass that finishes accepts the board, so the guarantee
    never rests on knowledge from before a change. ``patience`` changes in a row
    without a pass opening more cells than the best before give the board up.
    Returns the accepted layout (or None) and the number of changes made.
    """
    perturber = _Perturber(layout, rule, click, rng)
    stall = _pass_from_click(layout, click, solver, use_total, deadline)
    used = idle = 0
    if stall is None:
        return None, 0
    best = stall.opened
    while time.perf_counter() < deadline:
        if stall.solved:
            return perturber.layout(), used
        if not perturber.perturb(stall):
            return None, used
        used += 1
        stall = _pass_from_click(perturber.layout(), click, solver, use_total, deadline)
        if stall is None:  # pragma: no cover - perturbation never moves a mine onto the click
            return None, used
        if stall.opened > best:
            best, idle = stall.opened, 0
        else:
            idle += 1
            if idle >= patience:
                return None, used
    return None, used


class _Perturber:
    """Tatham-style local changes where the solver is stuck."""

    def __init__(self, layout: Layout, rule: FirstClickRule, click: int, rng: np.random.Generator):
        g = layout.geometry
        self.geometry = g
        self.mines = layout.mines.copy()
        self.click = click
        self.rng = rng
        self.excluded = set(rule.excluded(g, click)) | {click}
        self.allowed = g.mask.copy()  # cells that may take or give a mine
        self.allowed[list(self.excluded)] = False
        cx, cy = g.coords(click)
        xs, ys = np.divmod(np.arange(g.area), g.width)[::-1]
        distance = np.maximum(np.abs(xs - cx), np.abs(ys - cy)).astype(np.int64)
        self.weight = distance * distance + 1  # of a cell in the draws that place moved mines

    def layout(self) -> Layout:
        return Layout(self.geometry, self.mines)

    def perturb(self, stall: VerifyResult) -> bool:
        """Change the mines around one stuck clue; False when no change is possible.

        Moves among covered, undecided cells come first (they change the fewest
        numbers the player has seen); only when none is possible does a mine move onto
        an open cell or off a flag. Either way the caller verifies again from scratch.
        """
        g = self.geometry
        revealed = stall.revealed
        flagged = stall.flagged
        covered = g.mask & ~revealed & ~flagged
        touching = g.neighbour_count(revealed) > 0
        stuck = []
        is_covered, excluded, neighbours = covered.tobytes(), self.excluded, g.neighbours
        for clue in np.flatnonzero(revealed & (g.neighbour_count(covered) > 0)).tolist():
            cells = [n for n in neighbours(clue) if is_covered[n] and n not in excluded]
            if cells:
                stuck.append(cells)
        if not stuck:
            return self._breach(flagged, covered)
        # small undecided sets first (fewest mines to move), ties at random
        order = sample_without_replacement(len(stuck), len(stuck), self.rng)
        stuck = sorted((stuck[i] for i in order), key=len)
        allowed = self.allowed
        far = covered & ~touching & allowed
        near = covered & touching & allowed
        mines = self.mines
        # fill: bring mines in; empty: send them away. Tiers: far covered cells, then
        # other undecided cells, then (restarting the pass) open cells / flags.
        pools = {
            "empty": (far & ~mines, near & ~mines, revealed & allowed),
            "fill": (far & mines, near & mines, flagged & allowed),
        }
        sizes = {kind: [int(p.sum()) for p in tiers] for kind, tiers in pools.items()}
        is_mine = mines.tobytes()
        best = None
        for order_index, cells in enumerate(stuck[:8]):
            inside = [c for c in cells if is_mine[c]]
            outside = [c for c in cells if not is_mine[c]]
            # the set's own cells are undecided cells too (tier 1), but not candidates
            for kind, need, own in (("empty", len(inside), len(outside)), ("fill", len(outside), len(inside))):
                if need == 0:
                    continue
                for rank in range(3):
                    if sizes[kind][rank] - (own if rank == 1 else 0) >= need:
                        # least disturbing tier first (open numbers and proofs stay), then
                        # fewest moves, emptying (it opens cells) before filling, and
                        # the smaller undecided set
                        key = (rank, need, kind != "empty", order_index)
                        if best is None or key < best[0]:
                            best = (key, kind, rank, inside, outside, cells)
                        break
        if best is None:
            return False
        _, kind, rank, inside, outside, cells = best
        pool = pools[kind][rank]
        if rank == 1:
            pool = pool.copy()
            pool[cells] = False
        cand = np.flatnonzero(pool)
        chosen = self._farthest(cand.tolist(), len(inside) if kind == "empty" else len(outside))
        if kind == "fill":
            self.mines[chosen] = False
            self.mines[outside] = True
        else:
            self.mines[inside] = False
            self.mines[chosen] = True
        return True

    def _breach(self, flagged: np.ndarray, covered: np.ndarray) -> bool:
        """No open number touches an undecided cell: the rest is walled off by flags.
        Move one flag of the wall onto an undecided free cell (a fresh pass follows)."""
        g = self.geometry
        wall = np.flatnonzero(flagged & (g.neighbour_count(covered) > 0)).tolist()
        wall = [c for c in wall if c not in self.excluded]
        hosts = [c for c in np.flatnonzero(covered & ~self.mines).tolist() if c not in self.excluded]
        if not wall or not hosts:
            return False
        brick = wall[bounded(self.rng.bit_generator, len(wall))]
        host = self._farthest(hosts, 1)[0]
        self.mines[brick] = False
        self.mines[host] = True
        return True

    def _farthest(self, cells: list[int], k: int) -> list[int]:
        """``k`` cells drawn with weight growing with the distance from the click."""
        return [cells[i] for i in weighted_sample(self.weight[cells], k, self.rng)]


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
) -> NoGuessBoard:
    """A board the solver finishes from ``click`` without a guess.

    Parameters
    ----------
    spec, rule, click, seed
        As for :func:`mscsp.rules.generate`.
    method : {'retry', 'perturb'}
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
        (perturb) changes in a row without progress before starting over.

    Raises
    ------
    InputError
        For an impossible request (too many mines, a click off the board).
    GenerationError
        When the bound is reached; it carries the number of attempts.

    Examples
    --------
    >>> b = generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=1)
    >>> b.guarantee, b.method.value
    ('solvable by complete deduction with the mine total from [4,4]', 'retry')
    """
    started = time.perf_counter()
    method = Method.parse(method)
    solver = SolverName.parse(solver)
    rule = FirstClickRule.parse(rule)
    geometry = spec.geometry
    cell = geometry.cell(click, "click")
    click = geometry.coords(cell)
    limit = max_mines(geometry, rule, cell)
    if spec.mines > limit:
        # place_mines says the same, but say it before any work is done
        place_mines(geometry, spec.mines, rule, click, 0)
    if seed is None:
        seed = fresh_seed()
    recorded = None if isinstance(seed, np.random.Generator) else int(seed)
    rng = as_generator(seed)
    attempts = perturbations = 0
    deadline = started + time_limit
    memory = None if memory_limit is None else Budget(None, None, memory_limit)
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
                                perturbations=perturbations, guarantee=guarantee_text(solver, use_total, click))
    raise GenerationError(
        f"no {spec.width}x{spec.height} board with {spec.mines} mines {guarantee_text(solver, use_total, click)} "
        f"found by {method.value} within {time_limit:g} s and {max_attempts} attempts",
        attempts,
    )
