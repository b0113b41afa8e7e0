"""No-guess boards: retries or perturbation, with a stated and checked guarantee.

A board is *no-guess* for a solver when :func:`mscsp.verify.verify` — the play loop
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
    does a mine move onto an open cell or off a flag. The board is kept while the
    verifier opens more cells after each change; after a few changes without
    progress it starts over from a fresh draw. Only a board that the verifier
    finishes untouched, in a pass from scratch, is accepted. Those passes are
    incremental (:class:`_Verifier`): a pass from scratch saves the game at every
    stall, and the next one resumes at the latest saved stall that no change since
    can reach — provably the same pass, without replaying the part the changes
    could not affect. This biases the layout distribution;
    ``experiments/noguess_cost.py`` measures how (per-cell mine frequencies and 3BV
    against retry boards).

Both are bounded by attempts and time and fail with a :class:`GenerationError`
carrying the attempt count. Randomness comes from one seeded generator, consumed the
same way on every machine, so the same arguments give the same board.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

import numpy as np

from . import fastplay
from .board import Layout, Spec
from .errors import GenerationError, parse_choice
from .game import Game, GameState, Status
from .play import Deducer
from .rules import GENERATOR_VERSION, FirstClickRule, GeneratedBoard, max_mines, place_mines
from .sampling import as_generator, fresh_seed
from .solvers.result import SolverName
from .verify import verify

__all__ = ["Method", "NoGuessBoard", "generate_no_guess", "guarantee_text", "NOGUESS_VERSION"]

#: Names the no-guess procedures; changes whenever the same seed would give another board.
NOGUESS_VERSION = f"{GENERATOR_VERSION}+noguess/1"


class Method(Enum):
    RETRY = "retry"
    PERTURB = "perturb"

    @classmethod
    def parse(cls, name: "str | Method") -> "Method":
        return parse_choice(cls, name, "no-guess method")


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


@dataclass(frozen=True)
class NoGuessBoard:
    """An accepted no-guess board and how it was found."""

    board: GeneratedBoard
    method: Method
    solver: SolverName
    use_total: bool
    attempts: int
    perturbations: int
    seconds: float
    guarantee: str
    generator: str = NOGUESS_VERSION


def _play(layout: Layout, click: int, solver: SolverName, use_total: bool,
          checkpoints: list[GameState] | None = None) -> tuple[Game, Deducer]:
    game = Game(layout, record=False)
    opened = game.reveal(click)
    deducer = Deducer(game, solver, use_total=use_total)
    deducer.checkpoints = checkpoints
    if game.status is Status.PLAYING:
        deducer.opened(opened)
        deducer.run()
    return game, deducer


def _cheaper(solver: SolverName) -> SolverName:
    return SolverName.SUBSET if solver is SolverName.SAT else solver


class _Verifier:
    """Verification passes from the click, each as good as one from scratch, cheaper.

    A pass from scratch saves the game at every stall. After the mines change in a
    set ``X`` of cells, a new pass from scratch goes through exactly the same states
    as the old one up to any saved stall where no open cell is in or next to ``X`` and
    no flag is in ``X``: every number the player has seen by then is unchanged, and
    the play loop is a function of what the player sees. So the new pass starts at the
    latest such stall instead of at the click — the incremental re-verification of
    the perturbation method — and is still a complete pass from scratch.
    """

    def __init__(self, layout: Layout, click: int, solver: SolverName, use_total: bool, *, compiled: bool = True):
        self.click, self.solver, self.use_total = click, solver, use_total
        self.compiled = compiled  # passes from scratch by mscsp.fastplay where it can
        self.geometry = layout.geometry
        self.resumed = 0
        self.game, self.deducer = self._scratch(layout)

    def _scratch(self, layout: Layout) -> tuple[Game, Deducer]:
        self.base = layout.mines.copy()  # the layout the saved stalls belong to
        self.saved: list[GameState] = []
        # the compiled loop ends where the Python loop ends (the closure of complete
        # deduction), an order of magnitude sooner; it saves no stalls to resume from
        fast = fastplay.play(layout, self.click, self.solver, use_total=self.use_total) if self.compiled else None
        if fast is None:
            return _play(layout, self.click, self.solver, self.use_total, self.saved)
        game = Game(layout, record=False)
        game.rewind(GameState(fast.revealed, fast.flagged, fast.opened), layout)
        deducer = Deducer(game, self.solver, use_total=self.use_total)
        deducer.resync()
        return game, deducer

    def stop_saving(self) -> None:
        """The pass goes on after a change: what it meets now is no pass from scratch."""
        self.deducer.checkpoints = None

    def restart(self, layout: Layout) -> tuple[Game, Deducer]:
        """A pass from the click on ``layout``, resumed where it is safe to."""
        moved = layout.mines != self.base
        near = moved | (self.geometry.neighbour_count(moved) > 0)
        keep = len(self.saved)
        while keep and not self._valid(self.saved[keep - 1], moved, near):
            keep -= 1
        if not keep:
            self.game, self.deducer = self._scratch(layout)
            return self.game, self.deducer
        state = self.saved[keep - 1]
        del self.saved[keep - 1:]  # the resumed pass saves that stall again
        self.base = layout.mines.copy()
        self.deducer.solver = self.solver
        self.deducer.checkpoints = self.saved
        self.deducer.rewind(state, layout)
        self.deducer.run()
        self.resumed += 1
        return self.game, self.deducer

    @staticmethod
    def _valid(state: GameState, moved: np.ndarray, near: np.ndarray) -> bool:
        revealed = np.frombuffer(state.revealed, dtype=bool)
        flagged = np.frombuffer(state.flagged, dtype=bool)
        return not (revealed & near).any() and not (flagged & moved).any()


def _perturbed(layout: Layout, rule: FirstClickRule, click: int, solver: SolverName, use_total: bool,
               rng: np.random.Generator, deadline: float, patience: int) -> tuple[Layout | None, int]:
    """Perturb one board until a pass from scratch needs no change (Tatham's scheme).

    Within a pass the solver keeps what it proved — open cells stay safe and flagged
    mines stay put under every change — and continues on the changed board. When a
    pass ends in a win, the board is verified again from scratch; a pass that needs
    no change accepts it. A pass needing more changes than the one before, or
    ``patience`` changes in a row without opening anything, gives the board up.
    Returns the accepted layout (or None) and the number of changes made.
    """
    perturber = _Perturber(layout, rule, click, rng)
    verifier = _Verifier(layout, click, solver, use_total)
    game, deducer = verifier.game, verifier.deducer
    if game.status is Status.LOST:
        return None, 0
    previous = None
    changes = used = idle = 0
    best = game.opened_count
    while time.perf_counter() < deadline:
        if game.status is Status.WON:
            if changes == 0:
                return perturber.layout(), used
            if previous is not None and changes >= previous:
                return None, used
            previous, changes, idle = changes, 0, 0
            game, deducer = verifier.restart(perturber.layout())
            best = game.opened_count
            continue
        effect = perturber.perturb(game)
        if effect is None:
            return None, used
        changes += 1
        used += 1
        if effect == "fresh":
            game, deducer = verifier.restart(perturber.layout())
        else:
            # between fresh passes the cheaper subset reasoning is enough to decide
            # where to perturb next; only a fresh pass with the real solver accepts
            verifier.stop_saving()
            deducer.solver = _cheaper(solver)
            game.rearrange(perturber.layout())
            deducer.renumbered(perturber.changed)
            deducer.run(focus=perturber.changed)
        if game.opened_count > best:
            best, idle = game.opened_count, 0
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
        self.changed: list[int] = []
        self.allowed = g.mask.copy()  # cells that may take or give a mine
        self.allowed[list(self.excluded)] = False
        cx, cy = g.coords(click)
        xs, ys = np.divmod(np.arange(g.area), g.width)[::-1]
        self.distance = np.maximum(np.abs(xs - cx), np.abs(ys - cy))

    def layout(self) -> Layout:
        return Layout(self.geometry, self.mines)

    def perturb(self, game: Game) -> str | None:
        """Change the mines around one stuck clue.

        Returns ``"same"`` when the current pass can go on (only covered, undecided
        cells changed: open cells stay safe, flags stay mines), ``"fresh"`` when a
        mine had to move onto an open cell or off a flag (the pass restarts from
        scratch, as Tatham's generator does near the end), or None when no change
        is possible.
        """
        g = self.geometry
        revealed = game.revealed
        flagged = game.flagged
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
        order = self.rng.permutation(len(stuck))
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
                        # cheapest tier first (a fresh pass costs a whole replay), then
                        # fewest moves, emptying (it opens cells) before filling, and
                        # the smaller undecided set
                        key = (rank, need, kind != "empty", order_index)
                        if best is None or key < best[0]:
                            best = (key, kind, rank, inside, outside, cells)
                        break
        if best is None:
            return None
        _, kind, rank, inside, outside, cells = best
        pool = pools[kind][rank]
        if rank == 1:
            pool = pool.copy()
            pool[cells] = False
        cand = np.flatnonzero(pool)
        effect = "fresh" if rank == 2 else "same"
        chosen = self._farthest(cand.tolist(), len(inside) if kind == "empty" else len(outside))
        if kind == "fill":
            self.mines[chosen] = False
            self.mines[outside] = True
            self.changed = list(chosen) + list(outside)
        else:
            self.mines[inside] = False
            self.mines[chosen] = True
            self.changed = list(inside) + list(chosen)
        return effect

    def _breach(self, flagged: np.ndarray, covered: np.ndarray) -> str | None:
        """No open number touches an undecided cell: the rest is walled off by flags.
        Move one flag of the wall onto an undecided free cell (a fresh pass follows)."""
        g = self.geometry
        wall = np.flatnonzero(flagged & (g.neighbour_count(covered) > 0)).tolist()
        wall = [c for c in wall if c not in self.excluded]
        hosts = [c for c in np.flatnonzero(covered & ~self.mines).tolist() if c not in self.excluded]
        if not wall or not hosts:
            return None
        brick = wall[int(self.rng.integers(len(wall)))]
        host = self._farthest(hosts, 1)[0]
        self.mines[brick] = False
        self.mines[host] = True
        return "fresh"

    def _farthest(self, cells: list[int], k: int) -> list[int]:
        """``k`` cells drawn with weight growing with the distance from the click."""
        cells_arr = np.array(cells)
        weight = self.distance[cells_arr].astype(float) ** 2 + 1
        pick = self.rng.choice(cells_arr.size, size=k, replace=False, p=weight / weight.sum())
        return cells_arr[pick].tolist()


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
    cell = geometry.index(*click)
    limit = max_mines(geometry, rule, cell)
    if spec.mines > limit:
        # place_mines says the same, but say it before any work is done
        place_mines(geometry, spec.mines, rule, cell, 0)
    if seed is None:
        seed = fresh_seed()
    recorded = None if isinstance(seed, np.random.Generator) else int(seed)
    rng = as_generator(seed)
    attempts = perturbations = 0
    deadline = started + time_limit
    while attempts < max_attempts and time.perf_counter() < deadline:
        attempts += 1
        layout = place_mines(geometry, spec.mines, rule, cell, rng)
        if method is Method.PERTURB:
            layout, used = _perturbed(layout, rule, cell, solver, use_total, rng, deadline, patience)
            perturbations += used
            won = layout is not None
        else:
            # quick verification: a dead structure answers "no" at once, and the compiled
            # loop plays the rest; the same boards are accepted as by the Python loop
            won = verify(layout, cell, solver, use_total=use_total, quick=True).solved
        if won:
            board = GeneratedBoard(layout, rule, cell, recorded, NOGUESS_VERSION, time.perf_counter() - started)
            return NoGuessBoard(board, method, solver, use_total, attempts, perturbations,
                                time.perf_counter() - started, guarantee_text(solver, use_total, click))
    raise GenerationError(
        f"no {spec.width}x{spec.height} board with {spec.mines} mines {guarantee_text(solver, use_total, click)} "
        f"found by {method.value} within {time_limit:g} s and {max_attempts} attempts",
        attempts,
    )
