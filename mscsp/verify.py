"""Playing a layout with a solver: does it open every safe cell without a guess?

Only this play loop holds the layout. The solver sees the player's position (numbers,
flags, covered cells and, when allowed, the mine total), proves cells, and the loop
opens the proven-safe ones and flags the proven mines, until the board is won or the
solver proves nothing new — in the manner of Simon Tatham's Mines, whose solver gets a
knowledge grid and an ``open`` callback and never reads the mines.

The cheap rules run first each round and the complete solver only when they stall,
which changes the speed but not the answer: knowledge only grows, so a sound and
complete solver opens the same cells in any order.
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
        Solver rounds (each opens at least one cell).
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
        The hidden board (read only by this loop, never by the solver).
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
    game.reveal(click)
    if game.status is Status.LOST:  # the first click itself hit a mine (rule ``uniform``)
        return VerifyResult(False, 0, layout.safe_count, 0, True, time.perf_counter() - started)
    steps = 0
    complete = True
    while game.status is Status.PLAYING:
        position = game.position(mines_known=use_total)
        system = build_constraints(position)
        known: dict[int, bool] = {}
        if solver is not SolverName.SINGLE_POINT:
            known = Propagator(system, subset=True, use_total=use_total).run().known
        if not any(not v for v in known.values()):
            known, ok = deduce(position, solver, use_total=use_total, time_limit=time_limit, system=system)
            complete = complete and ok
        safe = [c for c, mine in known.items() if not mine]
        if not safe:
            break
        for c, mine in known.items():
            if mine and not game.is_flagged(c):
                game.flag(c)
        for c in safe:
            if game.status is not Status.PLAYING:
                break
            game.reveal(c)
        steps += 1
    if game.status is Status.LOST:  # pragma: no cover - a sound solver never opens a mine
        raise AssertionError("the solver opened a mine: it is unsound")
    return VerifyResult(
        solved=game.status is Status.WON or layout.safe_count == game.opened_count,
        opened=game.opened_count,
        safe_cells=layout.safe_count,
        steps=steps,
        complete=complete,
        seconds=time.perf_counter() - started,
    )
