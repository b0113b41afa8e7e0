"""Tatham-style perturbation: change a board where the solver is stuck, and verify again.

After Simon Tatham's Mines ("Writing a soluble-grid generator for Mines", in the notes of
his Portable Puzzle Collection, and ``mines.c``'s ``minegen``): when the solver is stuck,
change the board where it is stuck and verify again from scratch, since a change can
invalidate earlier deductions. A perturbation picks one of the stuck clues with the
fewest undecided neighbours (ties at random) and fills all of them with mines or empties
them, whichever moves fewer mines, swapping with covered cells that touch no open cell
(so no other number changes), preferring cells far from the click; only when no such
cell is left does a mine move onto an open cell or off a flag. The first pass from the
click that finishes accepts the board. :mod:`mscsp.play.noguess` uses it for the
``perturb`` method and to start the uniform chain.
"""

from __future__ import annotations

import time

import numpy as np

from ..analysis import SolverName
from ..board import Layout
from ..rules import FirstClickRule
from ..sampling import bounded, sample_without_replacement, weighted_sample
from .verify import VerifyResult, verify

__all__: list[str] = []


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
