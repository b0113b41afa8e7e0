"""Playing a game with a solver: deduction-driven moves and, when stuck, a guessing policy.

:class:`Deducer` opens every cell its solver proves safe and flags every proven mine
until nothing more can be proven. It reads only what the player sees — the numbers
of open cells and its own flags — through :class:`~mscsp.game.Game`, which alone
holds the layout, in the manner of Simon Tatham's Mines (a solver with a knowledge
grid and an ``open`` callback that never reads the mines).

The single-point rules are those of the analysis' propagation engine
(:class:`mscsp.analysis.Propagator`), kept up to date incrementally as cells open
(each event touches only the clues around it); when they stall, the solver's own rung (subset or
complete) is asked once through :func:`mscsp.analysis.solvers.deduce`, the ladder's one entry
point, with the engine and budgets the caller chose. The compiled loop of
:mod:`mscsp.play.fastplay` keeps exactly these rounds, so the two count the same steps;
and knowledge only grows, so the cells a sound solver ends up opening do not depend
on the order in which its deductions are applied.

:func:`play_game` adds a guessing policy for the win-rate experiments: when nothing
is proven, the policy (:mod:`mscsp.play.policies`; by default the covered cell with
the least exact mine probability, ties in row order) picks the click from the
position alone. Between guesses it deduces with the compiled loop
(:func:`mscsp.play.fastplay.resume`), which reaches the same open cells and flags,
and hands a game to :class:`Deducer` from the first stall the compiled loop cannot
finish within its node budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..analysis import Propagator, SolverName, Survey, deduce, inexact_answers
from ..budget import Budget
from ..game import Game, Status
from ..position import Mark, Position
from . import fastplay
from .policies import Policy, _choose_index

__all__ = ["Deducer", "GameRecord", "play_game"]


class _Rules:
    """The single-point rules of the analysis' propagation engine, fed as the game goes.

    It reads only what the player sees: the numbers of opened cells (through
    ``Game._shown_index``) and its own proven mines, which it flags on the game; the
    engine itself (:class:`mscsp.analysis.Propagator`) is the one the analysis runs.
    """

    def __init__(self, game: Game):
        self.game = game
        self.neighbours = game.geometry.neighbours
        self.open = bytearray(game.geometry.area)
        # the clues come as cells open; a play loop never asks why a cell is proven
        self.engine = Propagator(None, subset=False, reasons=False)

    def opened(self, cells: tuple[int, ...]) -> None:
        """Cells the game opened: each is safe, and each number among them a new clue."""
        is_open, engine, neighbours, shown = self.open, self.engine, self.neighbours, self.game._shown_index
        for r in cells:
            is_open[r] = 1
        for r in cells:  # every cell of the event is open before any clue is read
            engine.observe(r, False)
            around = [n for n in neighbours(r) if not is_open[n]]
            if around:
                engine.add_clue(r, around, shown(r))

    def proven_mine(self, cell: int) -> None:
        """A mine proven by a stronger rung: flag it, and tell the rules."""
        if self.engine.known.get(cell):
            return
        self.engine.observe(cell, True)
        self.game._flag_proven(cell)

    def reveal(self, cell: int) -> None:
        if self.game.status is Status.PLAYING and not self.open[cell]:
            self.opened(self.game._open_proven(cell))

    def run(self) -> bool:
        """Apply the rules to a fixed point, playing what they prove; True if anything was proven."""
        game, engine, known = self.game, self.engine, self.engine.known
        if game.status is not Status.PLAYING:
            return False
        progress = False
        while True:
            proven = engine.run().take_proven()
            if not proven:
                return progress
            progress = True
            for c in proven:
                if known[c]:
                    game._flag_proven(c)
            for c in proven:
                if not known[c]:
                    self.reveal(c)
                    # only opening a cell can end the game (a sound solver wins)
                    if game.status is not Status.PLAYING:
                        return progress


#: DP states allowed when counting decides a stall of a play loop (past them, SAT decides).
STALL_STATES = 20_000

#: Component tallies a game keeps for its guesses before it starts afresh (a bound on
#: memory for games of thousands of guesses; an Expert game keeps a few hundred).
TALLIES_KEPT = 4096


class Deducer:
    """Open what a solver proves, flag what it proves a mine, until it is stuck.

    Parameters
    ----------
    game : Game
        A game in progress (the first click already made).
    solver : {'single-point', 'subset', 'sat'}
    use_total : bool
        Whether the solver may use the mine total.
    time_limit : float
        Seconds for the whole play (from construction): past them the complete
        solver is not called again and ``complete`` turns False.
    memory_limit : int, optional
        Bytes the process may hold, checked at every stall: past them the play
        stops with BudgetExceeded (memory).
    counter : {'auto', 'dp'} or None
        Whether exact counting decides the complete rung at a stall (see
        :func:`mscsp.analysis.deduce`).
    state_limit : int
        Counting table entries allowed at a stall before ``auto`` asks SAT.

    Attributes
    ----------
    steps : int
        Deduction rounds that proved something: a single-point pass to its fixed
        point, or one stronger-solver call at a stall.
    complete : bool
        False if a bounded search gave up somewhere.
    stalled : Survey or None
        When the last :meth:`run` ended at a stall the solver's rung could not
        move: the survey of that position, whose equations (and the tallies the
        rung counted) a guess there reads instead of making them again.
    """

    def __init__(self, game: Game, solver: SolverName | str = SolverName.SAT, *, use_total: bool = True,
                 time_limit: float = 30.0, memory_limit: int | None = None, counter: str | None = "auto",
                 state_limit: int = STALL_STATES):
        self.game = game
        self.solver = SolverName.parse(solver)
        self.use_total = use_total
        self.counter = counter
        self.state_limit = state_limit
        self.deadline = time.perf_counter() + time_limit  # for the whole play, not each round
        self.memory = None if memory_limit is None else Budget(None, None, memory_limit)
        self.rules = _Rules(game)
        self.steps = 0
        self.complete = True
        self.stalled: Survey | None = None

    def opened(self, cells) -> None:
        """Tell the deducer about cells, pairs ``(x, y)``, opened by other means (the
        first click, a guess): what :meth:`Game.reveal <mscsp.game.Game.reveal>` answers.

        Examples
        --------
        >>> from mscsp.board import Layout
        >>> game = Game(Layout.from_rows(["*..", "...", "..."]), record=False)
        >>> deducer = Deducer(game, "sat")
        >>> deducer.opened(game.reveal((2, 2)))  # the zero opens all but the mine's corner
        >>> deducer.run(); game.status.value
        'won'
        """
        g = self.game.geometry
        self._opened_index(tuple(g.cell(c) for c in cells))

    def _opened_index(self, cells: tuple[int, ...]) -> None:
        """:meth:`opened` by flat indices, for the play loops."""
        self.rules.opened(cells)

    def resume(self) -> None:
        """Take over a game in progress: its open cells and flags, as if this deducer had
        opened and flagged them (the flags must be proven mines)."""
        self.rules.opened(tuple(np.flatnonzero(self.game.revealed).tolist()))
        for c in np.flatnonzero(self.game.flagged).tolist():
            self.rules.proven_mine(c)

    def run(self) -> None:
        """Deduce and play until the game is over or nothing more can be proven.

        The single-point rules run to a fixed point; at a stall the solver's rung
        (subset or complete) is asked once through :func:`mscsp.analysis.solvers.deduce`,
        and what it proves is played. The compiled loop keeps the same rounds.
        """
        game, rules = self.game, self.rules
        self.stalled = None
        while game.status is Status.PLAYING:
            self.steps += rules.run()
            if game.status is not Status.PLAYING or self.solver is SolverName.SINGLE_POINT:
                return
            if self.memory is not None:
                self.memory.check("playing the board")
            left = self.deadline - time.perf_counter()
            if left <= 0:  # out of time: what is open stays open, and the play says so
                self.complete = False
                return
            position = game.position(mines_known=self.use_total)
            # the stall's equations and tallies, kept for a guess here if nothing is proven
            survey = Survey(position)
            proven = deduce(position, self.solver, use_total=self.use_total, time_limit=left,
                            counter=self.counter, state_limit=self.state_limit, system=survey.system,
                            cache=survey.cache)
            self.complete = self.complete and proven.complete
            known = proven.by_index
            known = {c: mine for c, mine in known.items() if position.grid[c] == Mark.COVERED}
            if not known:
                self.stalled = survey
                return
            self.steps += 1
            for c, mine in known.items():
                if mine:
                    rules.proven_mine(c)
            safe = [c for c, mine in known.items() if not mine]
            for c in safe:
                rules.reveal(c)
            if not safe and not rules.engine.pending:
                return


@dataclass(frozen=True)
class GameRecord:
    """How one played game went: ``seconds`` in all, ``guess_seconds`` of them
    spent by the policy choosing its guesses, and ``guessed`` the guesses' cells
    as (x, y), in the order they were clicked. ``rounded`` and ``estimated`` count
    the game's analyses whose probabilities were not exact, by kind (see
    :class:`mscsp.analysis.Inexact`): 0 and 0 when every number the game read was
    an exact fraction. They are read off the process's tally, so games played at
    once in threads of one process would share them."""

    won: bool
    guesses: int
    opened: int
    safe_cells: int
    seconds: float
    guess_seconds: float = 0.0
    guessed: tuple[tuple[int, int], ...] = ()
    rounded: int = 0
    estimated: int = 0

    @property
    def exact(self) -> bool:
        """Whether every analysis of the game was exact."""
        return not (self.rounded or self.estimated)


def play_game(game: Game, click: tuple[int, int], *, solver: SolverName | str = SolverName.SAT,
              use_total: bool = True, time_limit: float = 30.0, policy: "Policy | str" = "least-p",
              guess: Callable[[Position, int], tuple[int, int]] | None = None,
              options: dict | None = None) -> GameRecord:
    """Play to the end: the first click ``(x, y)``, then proofs, and the policy's
    guess when stuck.

    ``policy`` is a rung of :class:`mscsp.play.policies.Policy`; it sees the
    position only. The first click is not counted as a guess. ``guess``, when
    given, is asked instead of the policy: ``guess(position, k)`` is the cell
    ``(x, y)`` of guess ``k`` (from 0), so an experiment can force some guesses and
    leave the rest to the policy (``benchmarks/forced.py``). ``options`` are passed
    to the policy (see :func:`mscsp.play.policies.move`).

    Examples
    --------
    >>> from mscsp.rules import generate
    >>> from mscsp.board import Spec
    >>> board = generate(Spec(9, 9, 10), "opening", (4, 4), seed=1)
    >>> record = play_game(Game.from_board(board, record=False), board.click, policy="+endgame")
    >>> record.safe_cells, record.won in (True, False), record.exact
    (71, True, True)
    """

    started = time.perf_counter()
    inexact = inexact_answers()  # the process's tally: the game's own is the difference
    solver = SolverName.parse(solver)
    game._reveal_index(game.geometry.cell(click, "click"))
    layout = game.layout()  # placed by the first click; only the compiled loop's game part reads it
    deducer = None  # the Python loop, from the first stall the compiled one cannot finish
    guessing, guessed = 0.0, []
    # the components' tallies by their equations, shared by the game's guesses: a
    # click changes a few components, and the others are not counted again
    tallies: dict = {}
    while game.status is Status.PLAYING:
        if deducer is None:
            # the same closure of sound deduction the Python loop reaches (see mscsp.play.fastplay)
            fast = fastplay.resume(layout, game.revealed.tobytes(), game.flagged.tobytes(), solver,
                                   use_total=use_total)
            if fast is None:
                deducer = Deducer(game, solver, use_total=use_total,
                                  time_limit=time_limit - (time.perf_counter() - started))
                deducer.resume()
            else:
                game._adopt_proven(fast.revealed, fast.flagged)
        if deducer is not None:
            deducer.run()
        if game.status is not Status.PLAYING:
            break
        stalled = None if deducer is None else deducer.stalled
        # at the Python loop's stall, the position it surveyed (nothing changed since)
        position = game.position(mines_known=use_total) if stalled is None else stalled.position
        asked = time.perf_counter()
        if guess is not None:
            best = game.geometry.cell(guess(position, len(guessed)), "guess")
        else:
            if len(tallies) > TALLIES_KEPT:
                tallies.clear()
            survey = Survey(position, cache=tallies) if stalled is None else stalled
            best = _choose_index(position, policy, survey=survey, **(options or {}))
        guessing += time.perf_counter() - asked
        guessed.append(game.geometry.coords(best))
        opened = game._reveal_index(best)
        if game.status is Status.PLAYING and deducer is not None:
            deducer._opened_index(opened)
    inexact = inexact_answers() - inexact
    return GameRecord(game.status is Status.WON, len(guessed), game.opened_count - (game.status is Status.LOST),
                      layout.safe_count, time.perf_counter() - started, guessing, tuple(guessed), inexact.rounded,
                      inexact.estimated)
