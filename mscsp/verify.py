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
from functools import lru_cache

import numpy as np

from .board import Layout
from .errors import InputError
from .game import Game, Status
from .play import Deducer
from .solvers.result import SolverName

__all__ = ["VerifyResult", "verify", "dead_pair"]


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
    opened: int | None
    safe_cells: int
    steps: int
    complete: bool = True
    seconds: float = 0.0
    reason: str | None = None

    def to_dict(self) -> dict:
        out = {
            "solved": self.solved,
            "opened": self.opened,
            "safe_cells": self.safe_cells,
            "steps": self.steps,
            "complete": self.complete,
            "seconds": round(self.seconds, 6),
        }
        if self.reason:
            out["reason"] = self.reason
        return out


_KING = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


@lru_cache(maxsize=None)
def _telling_offsets() -> tuple[tuple[tuple[int, int], tuple[tuple[int, int], ...]], ...]:
    """For each offset ``d`` of a second cell within distance two, the offsets of the
    cells adjacent to exactly one of the two (the only cells whose numbers differ
    when a mine moves from the first cell to the second)."""
    king = set(_KING)
    out = []
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            if not (dx or dy):
                continue
            shifted = {(x + dx, y + dy) for x, y in king}
            telling = (king ^ shifted) - {(0, 0), (dx, dy)}
            out.append(((dx, dy), tuple(sorted(telling))))
    return tuple(out)


def dead_pair(layout: Layout, click: int) -> tuple[int, int] | None:
    """A mine and a safe cell that no number on the board can ever tell apart.

    If no safe cell lies next to exactly one of them (each such cell is a mine, a
    hole or off the board), the layout with the two swapped shows the same number on
    every other safe cell and has the same mine total. A player who opens only
    proven cells then never opens the safe one: in the swapped layout it is a mine
    and nothing seen distinguishes the two. So the board cannot be finished without
    a guess by any sound solver, with or without the mine total. (The click itself
    is opened without proof, so it is never the safe cell of a pair.)

    Returns ``(mine, safe)`` flat indices, or None. Vectorised over the board.

    Examples
    --------
    >>> lay = Layout.from_rows(["*.*", "***", "..."])
    >>> dead_pair(lay, 8)  # a corner mine and the safe cell beside it
    (2, 1)
    """
    g = layout.geometry
    w, h = g.width, g.height
    mines = layout.mines.reshape(h, w)
    cells = g.mask.reshape(h, w)
    safe = cells & ~mines
    pad = 3  # the telling cells of a pair two apart lie up to three from the first
    safe_pad = np.zeros((h + 2 * pad, w + 2 * pad), dtype=bool)
    safe_pad[pad:-pad, pad:-pad] = safe
    candidate_safe = safe.copy()
    cy, cx = divmod(click, w)
    candidate_safe[cy, cx] = False
    other = np.zeros_like(safe_pad)
    other[pad:-pad, pad:-pad] = candidate_safe

    def view(array: np.ndarray, dx: int, dy: int) -> np.ndarray:
        return array[pad + dy : pad + dy + h, pad + dx : pad + dx + w]

    # a safe cell with no safe neighbour and a mine with no safe neighbour, anywhere
    no_safe_neighbour = ~np.logical_or.reduce([view(safe_pad, dx, dy) for dx, dy in _KING])
    sealed_safe = np.flatnonzero((candidate_safe & no_safe_neighbour).ravel())
    sealed_mine = np.flatnonzero((mines & no_safe_neighbour).ravel())
    if sealed_safe.size and sealed_mine.size:
        for b in sealed_safe.tolist():
            for a in sealed_mine.tolist():
                ay, ax = divmod(a, w)
                by, bx = divmod(b, w)
                if max(abs(ax - bx), abs(ay - by)) > 2:
                    return a, b
    for (dx, dy), telling in _telling_offsets():
        hit = mines & view(other, dx, dy)
        if not hit.any():
            continue
        for rx, ry in telling:
            hit &= ~view(safe_pad, rx, ry)
            if not hit.any():
                break
        else:
            a = int(np.flatnonzero(hit.ravel())[0])
            ay, ax = divmod(a, w)
            return a, (ay + dy) * w + ax + dx
    return None


def verify(
    layout: Layout,
    click: int,
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    time_limit: float = 30.0,
    quick: bool = False,
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
    quick : bool
        First look for a :func:`dead_pair`; if there is one, answer "not solved"
        at once, without playing (``opened`` is then None and ``reason`` says why).
        The answer is the same; only the count of opened cells is skipped.

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
    if quick:
        pair = dead_pair(layout, click)
        if pair is not None:
            g = layout.geometry
            reason = (f"the mine at {list(g.coords(pair[0]))} and the safe cell at {list(g.coords(pair[1]))} "
                      "look the same to every number on the board")
            return VerifyResult(False, None, layout.safe_count, 0, True, time.perf_counter() - started, reason)
    game = Game(layout, record=False)
    first = game.reveal(click)
    if game.status is Status.LOST:  # the first click itself hit a mine (rule ``uniform``)
        return VerifyResult(False, 0, layout.safe_count, 0, True, time.perf_counter() - started)
    deducer = Deducer(game, solver, use_total=use_total, time_limit=time_limit)
    deducer.opened(first)
    deducer.run()
    if game.status is Status.LOST:  # pragma: no cover - a sound solver never opens a mine
        raise AssertionError("the solver opened a mine: it is unsound")
    steps, complete = deducer.steps, deducer.complete
    return VerifyResult(
        solved=game.status is Status.WON,
        opened=game.opened_count,
        safe_cells=layout.safe_count,
        steps=steps,
        complete=complete,
        seconds=time.perf_counter() - started,
    )
