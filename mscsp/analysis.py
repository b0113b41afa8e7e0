"""Everything ``mscsp solve`` says about a position: proofs, probabilities, best move.

Proven cells come from the chosen solver; probabilities, the layout count and the
suggested click come from the counting engine whatever the solver. The two never
wait on each other's failures: the proofs run first, under their share of the time
limit, and counting gets what is left. When counting cannot finish a component
within its budget, its probabilities are estimates with 95% intervals (or missing,
with the reason); cells the complete solver proves keep their exact 0 or 1 either
way — estimates never overrule proofs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction

from .budget import DEFAULT_MEMORY, Budget
from .counting import DEFAULT_STATE_LIMIT, Probabilities, probabilities
from .errors import InconsistentError
from .position import Position
from .solvers import SolveResult, SolverName, deduce, solve

__all__ = ["Analysis", "analyse", "PROOF_SHARE"]

#: Share of the time limit the proofs (and their explanations) may use; counting
#: gets the rest, and at least this share of it.
PROOF_SHARE = 0.5


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
    if not use_total and position.mines is not None:
        position = position.with_mines(None)
    result = solve(position, solver, explain=explain, time_limit=PROOF_SHARE * time_limit)
    if not result.consistent:
        return Analysis(position, result, None, None)
    left = max(time_limit - (time.perf_counter() - started), PROOF_SHARE * time_limit)
    try:
        probs = probabilities(position, backend=counter, density=density, state_limit=state_limit,
                              budget=Budget.of(left, memory_limit))
    except InconsistentError:  # pragma: no cover - the solver decides consistency first
        return Analysis(position, result, None, None)
    if not probs.exact:
        if SolverName.parse(solver) is SolverName.SAT:
            proven = {c: True for c in result.mines} | {c: False for c in result.safe}
        else:
            proven, _ = deduce(position, SolverName.SAT, time_limit=PROOF_SHARE * time_limit)
        cells = dict(probs.cells)
        intervals = dict(probs.intervals)
        for c, mine in proven.items():
            cells[c] = Fraction(int(mine))
            intervals.pop(c, None)
        probs = replace(probs, cells=cells, intervals=intervals)
    safe = {c for c, p in probs.cells.items() if p == 0 and c not in probs.intervals}
    return Analysis(position, result, probs, probs.best(safe))
