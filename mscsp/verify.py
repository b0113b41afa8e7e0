"""Playing a layout with a solver: does it open every safe cell without a guess?

Only this play loop holds the layout. The solver sees the player's position (numbers,
flags, covered cells and, when allowed, the mine total), proves cells, and the loop
opens the proven-safe ones and flags the proven mines, until the board is won or the
solver proves nothing new — in the manner of Simon Tatham's Mines, whose solver gets a
knowledge grid and an ``open`` callback and never reads the mines.

The single-point rules are kept up to date incrementally as cells open (each event
touches only the clues around it); subset reasoning runs when they stall, and the
complete solver only when subset reasoning stalls too. That changes the speed but
not the answer: knowledge only grows, so a sound solver's final set of opened cells
does not depend on the order in which its deductions are applied.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .board import Layout
from .constraints import build_constraints
from .errors import InputError
from .game import Game, Status
from .solvers import deduce
from .solvers.propagation import Propagator
from .solvers.result import SolverName

__all__ = ["VerifyResult", "verify"]


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of one verification.

    Attributes
    ----------
    solved : bool
        Every safe cell was opened without a guess.
    opened, safe_cells : int
        Cells opened, and safe cells on the board.
    steps : int
        Deduction rounds that proved something: a single-point pass to its fixed
        point, or one stronger-solver call at a stall.
    complete : bool
        False when a bounded search gave up somewhere (``solved`` is then a lower
        bound: a stronger search might have finished).
    seconds : float
    """

    solved: bool
    opened: int
    safe_cells: int
    steps: int
    complete: bool = True
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {
            "solved": self.solved,
            "opened": self.opened,
            "safe_cells": self.safe_cells,
            "steps": self.steps,
            "complete": self.complete,
            "seconds": round(self.seconds, 6),
        }


class _SinglePoint:
    """The single-point rules, kept current as cells open and mines are proven.

    It reads only what the player sees: the numbers of opened cells (through
    :meth:`Game.shown`) and its own proven mines, which it flags on the game.
    """

    def __init__(self, game: Game):
        self.game = game
        area = game.geometry.area
        self.neighbours = game.geometry.neighbours
        self.rem = [0] * area  # mines still needed by each open number
        self.unk = [0] * area  # its neighbours neither open nor proven mines
        self.open = bytearray(area)
        self.mine = bytearray(area)
        self.work: list[int] = []

    def opened(self, cells: tuple[int, ...]) -> None:
        is_open, mine, neighbours, rem, unk = self.open, self.mine, self.neighbours, self.rem, self.unk
        for r in cells:
            is_open[r] = 1
        new = set(cells)
        for r in cells:
            u = m = 0
            for n in neighbours(r):
                if is_open[n]:
                    if n not in new:
                        unk[n] -= 1
                        self.work.append(n)
                elif mine[n]:
                    m += 1
                else:
                    u += 1
            unk[r] = u
            rem[r] = self.game.shown(r) - m
            if u:
                self.work.append(r)

    def proven_mine(self, cell: int) -> None:
        if self.mine[cell]:
            return
        self.mine[cell] = 1
        self.game.flag(cell)
        for n in self.neighbours(cell):
            if self.open[n]:
                self.rem[n] -= 1
                self.unk[n] -= 1
                self.work.append(n)

    def reveal(self, cell: int) -> None:
        if self.game.status is Status.PLAYING and not self.open[cell]:
            self.opened(self.game.reveal(cell))

    def run(self) -> bool:
        """Apply the two rules to a fixed point; True if anything was proven."""
        progress = False
        work, rem, unk, is_open, mine = self.work, self.rem, self.unk, self.open, self.mine
        while work and self.game.status is Status.PLAYING:
            c = work.pop()
            if not unk[c]:
                continue
            if rem[c] == 0:
                progress = True
                for n in self.neighbours(c):
                    if not is_open[n] and not mine[n]:
                        self.reveal(n)
            elif rem[c] == unk[c]:
                progress = True
                for n in self.neighbours(c):
                    if not is_open[n] and not mine[n]:
                        self.proven_mine(n)
        return progress


def verify(
    layout: Layout,
    click: int,
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    time_limit: float = 30.0,
) -> VerifyResult:
    """Play ``layout`` from ``click`` with a solver and report whether it finishes.

    Parameters
    ----------
    layout : Layout
        The hidden board (read only by the game, never by the solver).
    click : int
        Flat index of the first click.
    solver : {'single-point', 'subset', 'sat'}
    use_total : bool
        Whether the solver may use the mine total (a player sees the mine counter).
    time_limit : float
        Seconds for each complete-solver round.

    Examples
    --------
    >>> lay = Layout.from_rows(["*..*", "....", "...."])
    >>> r = verify(lay, 9)  # [1, 2]: a zero; the 1s and 2s then decide the top row
    >>> r.solved, r.opened, r.safe_cells
    (True, 10, 10)
    """
    started = time.perf_counter()
    solver = SolverName.parse(solver)
    if not layout.geometry.is_cell(click):
        raise InputError(f"the click {list(layout.geometry.coords(click))} is not a cell of the board")
    game = Game(layout)
    first = game.reveal(click)
    if game.status is Status.LOST:  # the first click itself hit a mine (rule ``uniform``)
        return VerifyResult(False, 0, layout.safe_count, 0, True, time.perf_counter() - started)
    rules = _SinglePoint(game)
    rules.opened(first)
    steps = 0
    complete = True
    while game.status is Status.PLAYING:
        steps += rules.run()
        if game.status is not Status.PLAYING or solver is SolverName.SINGLE_POINT:
            break
        position = game.position(mines_known=use_total)
        system = build_constraints(position)
        known = Propagator(system, subset=True, use_total=use_total).run().known
        if solver is SolverName.SAT and all(known.values()):
            known, ok = deduce(position, solver, use_total=use_total, time_limit=time_limit, system=system)
            complete = complete and ok
        safe = [c for c, mine in known.items() if not mine]
        if not known:
            break
        steps += 1
        for c, mine in known.items():
            if mine:
                rules.proven_mine(c)
        for c in safe:
            rules.reveal(c)
        if not safe and not rules.work:
            break
    if game.status is Status.LOST:  # pragma: no cover - a sound solver never opens a mine
        raise AssertionError("the solver opened a mine: it is unsound")
    return VerifyResult(
        solved=game.status is Status.WON,
        opened=game.opened_count,
        safe_cells=layout.safe_count,
        steps=steps,
        complete=complete,
        seconds=time.perf_counter() - started,
    )
