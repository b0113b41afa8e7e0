"""Everything ``mscsp solve`` says about a position: proofs, probabilities, best move.

Proven cells come from the chosen solver; probabilities, the layout count and the
suggested click come from the counting engine whatever the solver (CONTRACT.md).
When a component is too large to count and its tallies are estimated, cells the
complete solver proves keep their exact 0 or 1: estimates never overrule proofs.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .counting import DEFAULT_STATE_LIMIT, Probabilities, probabilities
from .errors import InconsistentError
from .position import Position
from .solvers import SolveResult, SolverName, deduce, solve

__all__ = ["Analysis", "analyse"]


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
) -> Analysis:
    """Solve a position and weigh its covered cells.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> a = analyse(parse_position("mines: 1\\n.1...\\n"))
    >>> a.result.safe, a.probabilities.cells[0], a.best
    ((3, 4), Fraction(1, 2), 3)
    """
    if not use_total and position.mines is not None:
        position = position.with_mines(None)
    result = solve(position, solver, explain=explain, time_limit=time_limit)
    if not result.consistent:
        return Analysis(position, result, None, None)
    try:
        probs = probabilities(position, backend=counter, density=density, state_limit=state_limit)
    except InconsistentError:  # pragma: no cover - the solver decides consistency first
        return Analysis(position, result, None, None)
    if not probs.exact:
        if SolverName.parse(solver) is SolverName.SAT:
            proven = {c: True for c in result.mines} | {c: False for c in result.safe}
        else:
            proven, _ = deduce(position, SolverName.SAT, time_limit=time_limit)
        cells = dict(probs.cells)
        for c, mine in proven.items():
            cells[c] = Fraction(int(mine))
        probs = Probabilities(cells, probs.layouts, probs.exact, probs.model, probs.stats)
    safe = {c for c, p in probs.cells.items() if p == 0}
    return Analysis(position, result, probs, probs.best(safe))
