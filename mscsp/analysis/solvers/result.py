"""What a solver returns: proven cells, why, and what cannot be true."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import Choice

__all__ = ["SolverName", "Deduction", "Contradiction", "SolveResult", "Explanation"]


class SolverName(Choice, what="solver"):
    """The solver ladder: each is sound; each finds at least what the previous finds."""

    SINGLE_POINT = "single-point"
    SUBSET = "subset"
    SAT = "sat"



class Engine(Choice, what="engine"):
    """What decides the complete rung (the answers are the same; the speed is not).

    ``sat`` asks the SAT solver one question per covered cell group; ``count``
    reads the forced cells off exact counting (a cell is forced exactly when its
    mine probability is 0 or 1; needs the mine total, and raises BudgetExceeded
    past its state limit); ``auto`` counts when the total is known and the
    frontier is small enough, and falls back to SAT otherwise.
    """

    AUTO = "auto"
    SAT = "sat"
    COUNT = "count"



@dataclass(frozen=True)
class Deduction:
    """One proven cell and a set of clues that forces it.

    Attributes
    ----------
    cell : int
    mine : bool
        True for a proven mine, False for a proven safe cell.
    clues : tuple of int
        Flat indices of revealed numbers that, with ``uses_total``, force the cell.
    uses_total : bool
        Whether the mine total is part of the reason.
    """

    cell: int
    mine: bool
    clues: tuple[int, ...]
    uses_total: bool = False


@dataclass(frozen=True)
class Explanation:
    """Cells forced by the same reason, with a sentence a player can follow."""

    cells: tuple[int, ...]
    clues: tuple[int, ...]
    uses_total: bool
    text: str


@dataclass(frozen=True)
class Contradiction:
    """A small set of clues (and maybe the total) that no layout satisfies.

    ``minimal`` says whether it was shrunk until no clue (nor the total) could be
    dropped; a set too large to shrink in time is still checked to hold no layout.
    """

    clues: tuple[int, ...]
    uses_total: bool
    text: str
    minimal: bool = True


@dataclass(frozen=True)
class SolveResult:
    """The outcome of one solver on one position.

    ``safe`` and ``mines`` are sorted flat indices. ``complete`` is False when a
    bounded search stopped early: the proven cells are still proven, but a complete
    solver may have missed some.
    """

    solver: SolverName
    safe: tuple[int, ...] = ()
    mines: tuple[int, ...] = ()
    deductions: tuple[Deduction, ...] = ()
    explanations: tuple[Explanation, ...] = ()
    contradiction: Contradiction | None = None
    complete: bool = True
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def consistent(self) -> bool:
        return self.contradiction is None
