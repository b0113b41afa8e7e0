"""Everything ``mscsp solve`` says about a position: proofs, probabilities, best move.

Probabilities, the layout count and the suggested click come from the counting
engine whatever the solver; proven cells come from the chosen solver. The constraint
system is built once and shared. Exact counting runs first, under its share of the
time limit:

- when every component is counted exactly, a cell is forced exactly when its
  probability is 0 or 1, so the complete solver's proven cells are read off the
  count; SAT is then only asked for explanations (a minimal set of clues per cell),
  and only for the cells no single clue forces;
- when some component cannot be counted within its budget, the complete solver
  proves cells as it always did, under its share of the time limit, and counting
  estimates what it could not count in what is left: probabilities are then
  estimates with 95% intervals (or missing, with the reason), and cells the complete
  solver proves keep their exact 0 or 1 — estimates never overrule proofs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction

from ..budget import DEFAULT_MEMORY, Budget
from ..errors import InconsistentError
from ..position import Position
from .constraints import build_constraints
from .counting import DEFAULT_STATE_LIMIT, Probabilities, count_components
from .solvers import SolveResult, SolverName, deduce, solve

__all__ = ["Analysis", "analyse", "PROOF_SHARE", "EXACT_SHARE"]

#: Share of the time limit the proofs (and their explanations) may use when counting
#: is not exact; estimates get the rest, and at least ``1 - EXACT_SHARE - PROOF_SHARE``.
PROOF_SHARE = 0.5

#: Share of the time limit exact counting may use before the proofs: when it is
#: not enough, the stages get the shares they had when the proofs ran first.
EXACT_SHARE = 0.3


def _forced(probs: Probabilities) -> dict[int, bool]:
    """The cells an exact count gives probability 0 or 1: cell -> True for a mine.

    Every weight is positive (the density, when there is one, lies strictly between
    0 and 1), so a cell has probability 0 exactly when no consistent layout puts a
    mine on it, and 1 exactly when every one does: the cells the clues (and the
    total) force.
    """
    # the cells of a group share one Fraction: look at each value once, not each cell
    values = {id(p): p for p in probs.cells.values() if p is not None}
    mine = {k: p.numerator != 0 for k, p in values.items() if p.numerator == 0 or p.numerator == p.denominator}
    return {c: mine[id(p)] for c, p in probs.cells.items() if id(p) in mine} if mine else {}


@dataclass(frozen=True)
class Analysis:
    """A position with its solver result, probabilities and suggested next click."""

    position: Position
    result: SolveResult
    probabilities: Probabilities | None
    best: int | None


def analyse(
    position: Position,
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    explain: bool = True,
    counter: str = "dp",
    density: Fraction | None = None,
    time_limit: float = 30.0,
    state_limit: int = DEFAULT_STATE_LIMIT,
    memory_limit: int | None = DEFAULT_MEMORY,
) -> Analysis:
    """Solve a position and weigh its covered cells, within ``time_limit`` seconds
    and about ``memory_limit`` bytes of counting tables.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> a = analyse(parse_position("mines: 1\\n.1...\\n"))
    >>> a.result.safe, a.probabilities.cells[0], a.best
    ((3, 4), Fraction(1, 2), 3)
    """
    started = time.perf_counter()
    solver = SolverName.parse(solver)
    if not use_total and position.mines is not None:
        position = position.with_mines(None)

    def refuted() -> Analysis:  # counting found no layout: the solver names the clues that clash
        return Analysis(position, solve(position, solver, explain=explain, time_limit=PROOF_SHARE * time_limit),
                        None, None)

    try:
        system = build_constraints(position)
        counts = count_components(position, system=system, backend=counter, density=density,
                                  state_limit=state_limit, budget=Budget.of(EXACT_SHARE * time_limit, memory_limit))
        probs = counts.probabilities() if counts.exact else None
    except InconsistentError:
        return refuted()

    def left(share: float) -> float:
        return max(time_limit - (time.perf_counter() - started), share * time_limit)

    if probs is not None:
        proven = _forced(probs)
        result = solve(position, solver, explain=explain, time_limit=left(PROOF_SHARE), system=system,
                       proven=proven)
        return Analysis(position, result, probs, probs.best({c for c, mine in proven.items() if not mine}))
    result = solve(position, solver, explain=explain, time_limit=PROOF_SHARE * time_limit, system=system)
    if not result.consistent:
        return Analysis(position, result, None, None)
    try:
        probs = counts.probabilities(budget=Budget.of(left(1 - EXACT_SHARE - PROOF_SHARE), memory_limit))
    except InconsistentError:  # pragma: no cover - the solver decides consistency first
        return Analysis(position, result, None, None)
    if solver is SolverName.SAT:
        proven = {c: True for c in result.mines} | {c: False for c in result.safe}
    else:
        proven, _ = deduce(position, SolverName.SAT, time_limit=PROOF_SHARE * time_limit, system=system)
    cells = dict(probs.cells)
    intervals = dict(probs.intervals)
    for c, mine in proven.items():
        cells[c] = Fraction(int(mine))
        intervals.pop(c, None)
    probs = replace(probs, cells=cells, intervals=intervals)
    safe = {c for c, p in probs.cells.items() if p == 0 and c not in probs.intervals}
    return Analysis(position, result, probs, probs.best(safe))
