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
  proves cells as it always did, under a smaller share of the time limit, and
  counting estimates what it could not count in what is left: probabilities are then
  estimates with 95% intervals (or missing, with the reason), and cells the complete
  solver proves keep their exact 0 or 1 — estimates never overrule proofs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction

from ..budget import DEFAULT_MEMORY, Budget
from ..errors import InconsistentError, InputError
from ..position import Mark, Position
from .constraints import build_constraints
from .counting import DEFAULT_STATE_LIMIT, Probabilities, count_components
from .counting.pipeline import BACKTRACK_NODES
from .counting.exact.quick import quick_probabilities
from .solvers import Contradiction, Explanation, SolveResult, SolverName, deduce, solve
from .survey import Survey

__all__ = ["Analysis", "analyse", "analyse_surveyed", "PROOF_SHARE", "PROOF_SHARE_ESTIMATED", "EXACT_SHARE"]

#: Share of the time limit the proofs (and their explanations) may use when counting
#: is exact, or when it found the position inconsistent.
PROOF_SHARE = 0.5

#: Share of the time limit exact counting may use before the proofs: when it is
#: not enough, the stages get the shares they had when the proofs ran first.
EXACT_SHARE = 0.3

#: Share of the time limit kept for the proofs when counting gave up: the estimates,
#: which must give every covered cell a number, go first in the rest, and take this
#: share too, but for :data:`ESTIMATE_FLOOR`, once their layouts have shown every cell
#: both ways (no cell is then forced, and the proofs have nothing left to ask).
PROOF_SHARE_ESTIMATED = 0.35

#: Share of the time limit the estimates, and the proofs after them, get even when the
#: stages before them overran (a busy machine): they try, and the analysis ends at
#: most this share late, each.
ESTIMATE_FLOOR = 0.1


@dataclass(frozen=True)
class Analysis:
    """Everything known about a position: proofs with reasons, probabilities, a click.

    Cells are named ``(x, y)``, lists of them in row order (by ``y``, then ``x``).

    Attributes
    ----------
    position : Position
        The position analysed (without its mine total when ``use_total`` was False).
    result : SolveResult
        The chosen solver's proofs, with their reasons and any contradiction.
    probabilities : Probabilities or None
        The counting engine's answer (None when the position is inconsistent); its
        tables are by flat index, for code that walks the whole board, and
        :meth:`probability` reads one cell.
    best : (int, int) or None
        The suggested next click: a proven-safe cell if any (the first in row
        order), else the covered cell least likely to be a mine; never a certain
        mine.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> a = analyse(parse_position("mines: 2\\n.....\\n.121.\\n"))
    >>> a.mines, a.probability((0, 0)), a.layouts, a.best
    (((1, 0), (3, 0)), Fraction(0, 1), 1, (0, 0))
    >>> print(a.why((1, 0)))
    the 2 at [2,1] needs two mines among [1,0], [2,0] and [3,0]; the 1 at [3,1] needs one mine among [2,0], [3,0], [4,0] and [4,1]: so [1,0] is a mine
    """

    position: Position
    result: SolveResult
    probabilities: Probabilities | None
    best: tuple[int, int] | None

    @property
    def safe(self) -> tuple[tuple[int, int], ...]:
        """The cells the solver proves safe."""
        return self.result.safe

    @property
    def mines(self) -> tuple[tuple[int, int], ...]:
        """The cells the solver proves to be mines."""
        return self.result.mines

    @property
    def consistent(self) -> bool:
        """Whether some layout fits every number, flag and the mine total."""
        return self.result.consistent

    @property
    def contradiction(self) -> Contradiction | None:
        """When no layout fits: a small set of clues that cannot all hold, in words."""
        return self.result.contradiction

    @property
    def explanations(self) -> tuple[Explanation, ...]:
        """The proven cells grouped by reason, each with a sentence."""
        return self.result.explanations

    @property
    def complete(self) -> bool:
        """False when the proofs ran out of time (what is proven still holds)."""
        return self.result.complete

    @property
    def layouts(self) -> int | None:
        """The exact number of layouts consistent with the position (None if not counted)."""
        return None if self.probabilities is None else self.probabilities.layouts

    @property
    def exact(self) -> bool:
        """Whether every probability is exact (False when some are estimates or missing)."""
        return self.probabilities is not None and self.probabilities.exact

    def probability(self, cell) -> Fraction | None:
        """The chance that ``cell``, a covered cell ``(x, y)``, holds a mine: an exact
        :class:`~fractions.Fraction`, an estimate when :attr:`exact` is False, or
        None where there is no number (see :class:`Probabilities`)."""
        index = self._covered(cell)
        return None if self.probabilities is None else self.probabilities.by_index.get(index)

    def interval(self, cell) -> tuple[float, float] | None:
        """The 95% interval of an estimated probability; None where it is exact."""
        index = self._covered(cell)
        return None if self.probabilities is None else self.probabilities.intervals_by_index.get(index)

    def why(self, cell) -> str | None:
        """The sentence that proves ``cell`` ``(x, y)``, or None when it is not proven
        (or its proof was not explained within the time limit)."""
        xy = self.position.geometry.coords(self.position.geometry.cell(cell))
        return next((e.text for e in self.result.explanations if xy in e.cells), None)

    def _covered(self, cell) -> int:
        index = self.position.geometry.cell(cell)
        if self.position.grid[index] != Mark.COVERED:
            raise InputError(f"[{cell[0]}, {cell[1]}] is not a covered cell of this position")
        return index

    def _repr_svg_(self) -> str | None:
        """The analysis as a picture in a notebook (:func:`mscsp.draw.analysis_svg`)."""
        from .. import draw
        return draw.notebook_svg(self)


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
    resident_limit: int | None = None,
) -> Analysis:
    """Solve a position and weigh its covered cells, within ``time_limit`` seconds
    and about ``memory_limit`` bytes of counting tables.

    Parameters
    ----------
    position : Position
        What the player sees.
    solver : {'single-point', 'subset', 'sat'}
        The rung whose proofs are reported as ``safe`` and ``mines``; probabilities,
        the layout count and the suggested click come from counting whatever it is.
    use_total : bool
        Use the mine total when the position gives one.
    explain : bool
        Give each proven cell a small set of clues that forces it, in words.
    counter : {'dp', 'cpsat'}
        The counting engine (see :func:`~mscsp.analysis.counting.probabilities`).
    density : Fraction, optional
        Without a mine total: weigh layouts as independent mines of this density.
    time_limit : float
        Seconds for the whole analysis.
    state_limit : int
        Entries one counting table may hold before its component is estimated.
    memory_limit : int or None
        Bytes of counting tables, about.
    resident_limit : int, optional
        Bytes the whole process may hold (measured) before counting and estimating
        stop growing their tables; None bounds only the tables (``memory_limit``).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> a = analyse(parse_position("mines: 1\\n.1...\\n"))
    >>> a.safe, a.probability((0, 0)), a.best
    (((3, 0), (4, 0)), Fraction(1, 2), (3, 0))
    """
    return _analyse(position, solver, use_total=use_total, explain=explain, counter=counter, density=density,
                    time_limit=time_limit, state_limit=state_limit, memory_limit=memory_limit,
                    resident_limit=resident_limit)


def analyse_surveyed(survey: Survey, solver: SolverName | str = SolverName.SAT, **options) -> Analysis:
    """:func:`analyse` of ``survey``'s position, for a caller that asks the survey more
    questions afterwards (the web's hint weighs a guess with it): the equations are the
    survey's and the components' tallies go into its cache, so that neither is made
    twice. ``options`` are :func:`analyse`'s; the survey is read with the ``dp``
    counter, without ``density``, when the total is used, and counted apart otherwise.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> survey = Survey(parse_position("mines: 1\\n.1...\\n"))
    >>> analyse_surveyed(survey).safe, survey.probabilities.probability((0, 0))  # the count is the analysis's
    (((3, 0), (4, 0)), Fraction(1, 2))
    """
    return _analyse(survey.position, solver, survey=survey, **options)


def _analyse(position: Position, solver: SolverName | str = SolverName.SAT, *, use_total: bool = True,
             explain: bool = True, counter: str = "dp", density: Fraction | None = None, time_limit: float = 30.0,
             state_limit: int = DEFAULT_STATE_LIMIT, memory_limit: int | None = DEFAULT_MEMORY,
             resident_limit: int | None = None, survey: Survey | None = None) -> Analysis:
    """:func:`analyse`, with the survey of :func:`analyse_surveyed` when one is given."""
    started = time.perf_counter()
    solver = SolverName.parse(solver)
    if not use_total and position.mines is not None:
        position = position.with_mines(None)

    def bounded(seconds: float) -> Budget:
        return replace(Budget.of(seconds, memory_limit), resident=resident_limit)

    def refuted() -> Analysis:  # counting found no layout: the solver names the clues that clash
        return Analysis(position, solve(position, solver, explain=explain, memory_limit=resident_limit,
                                        time_limit=PROOF_SHARE * time_limit), None, None)

    if survey is not None and (counter != "dp" or density is not None or survey.position is not position):
        survey = None  # counted otherwise than the survey counts: its cache would mix the two
    system = None  # built when something needs the equations
    try:
        # the usual position (small parts) is counted in one compiled call, unless a
        # survey will ask for the equations and tallies anyway
        probs = (quick_probabilities(position, min(BACKTRACK_NODES, state_limit), density)
                 if counter == "dp" and survey is None else None)
        if probs is None:
            system = build_constraints(position) if survey is None else survey.system
            counts = count_components(position, system=system, counter=counter, density=density,
                                      state_limit=state_limit, budget=bounded(EXACT_SHARE * time_limit),
                                      cache=None if survey is None else survey.cache)
            probs = counts.probabilities() if counts.exact else None
    except InconsistentError:
        return refuted()

    def left(share: float) -> float:
        return max(time_limit - (time.perf_counter() - started), share * time_limit)

    coords = position.geometry.coords
    if probs is not None:
        proven = probs.forced_index()
        result = solve(position, solver, explain=explain, memory_limit=resident_limit, time_limit=left(PROOF_SHARE),
                       system=system, proven=proven)
        best = probs.best_index({c for c, mine in proven.items() if not mine})
        return Analysis(position, result, probs, None if best is None else coords(best))
    # counting gave up: the estimates go first and the proofs' share waits. The layout
    # chains' layouts show cells both ways, which the proofs then need not ask (proving
    # that no cell of a hard position is forced took SAT most of its time); once they
    # show every cell so, the chains take the proofs' share too, but for the floor
    reserve, floor = PROOF_SHARE_ESTIMATED * time_limit, ESTIMATE_FLOOR * time_limit
    try:
        probs = counts.probabilities(budget=bounded(max(left(ESTIMATE_FLOOR) - reserve, floor)),
                                     extra=reserve - floor)
    except InconsistentError:  # no layout meets the total: the solver names the clues that clash
        probs = None
    result = solve(position, solver, explain=explain, memory_limit=resident_limit,
                   time_limit=left(ESTIMATE_FLOOR), system=system,
                   witnessed=None if probs is None else probs.witnessed)
    if not result.consistent or probs is None:
        return Analysis(position, result, None, None)
    if solver is SolverName.SAT:
        index = position.geometry.index
        proven = {index(*xy): True for xy in result.mines} | {index(*xy): False for xy in result.safe}
    else:
        # counting gave up already, so SAT decides (the same cells a count would give)
        proven = deduce(position, SolverName.SAT, counter=None, time_limit=PROOF_SHARE_ESTIMATED * time_limit,
                        system=system).by_index
    cells = dict(probs.by_index)
    intervals = dict(probs.intervals_by_index)
    for c, mine in proven.items():
        cells[c] = Fraction(int(mine))
        intervals.pop(c, None)
    probs = replace(probs, by_index=cells, intervals_by_index=intervals, groups=None)
    safe = {c for c, p in probs.by_index.items() if p == 0 and c not in probs.intervals_by_index}
    best = probs.best_index(safe)
    return Analysis(position, result, probs, None if best is None else coords(best))
