"""What counting answers besides numbers, each saying itself in words (``str``).

How layouts are weighed without a mine total (:class:`NoTotalModel`), why a count is
not exact (:class:`GaveUp`) and why no estimate could be made either
(:class:`NoEstimate`, :class:`EstimateFailure`). A leaf: the counting stages return
these values, and the reports and pages print them. It also keeps the process's
tally of answers that were not exact, by kind (:func:`inexact_answers`), which a play
loop reads before and after a game to say how many of its analyses fell back.

Examples
--------
>>> print(NoTotalModel())
no mine total: every consistent assignment of the cells next to clues counts once;
cells away from clues get no number
>>> str(NoEstimate(EstimateFailure.NO_START_WITH_TOTAL))
'no layout that meets the mine total was found within the time'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from ...errors import Resource

__all__ = ["NoTotalModel", "GaveUp", "EstimateFailure", "NoEstimate", "Inexact", "inexact_answers"]


@dataclass(frozen=True)
class NoTotalModel:
    """How layouts are weighed when the mine total is unknown.

    Attributes
    ----------
    density : Fraction or None
        Each covered cell a mine independently with this density, conditioned on
        the clues (cells away from clues then get the density). None: every
        consistent assignment of the cells next to clues counts once, and cells
        away from clues get no number.

    Examples
    --------
    >>> from fractions import Fraction
    >>> model = NoTotalModel(Fraction(1, 5))
    >>> model.density
    Fraction(1, 5)
    >>> print(model)
    no mine total: each covered cell a mine independently with density 1/5, conditioned on the clues
    """

    density: Fraction | None = None

    def __str__(self) -> str:
        if self.density is None:
            return ("no mine total: every consistent assignment of the cells next to clues counts once; "
                    "cells away from clues get no number")
        return (f"no mine total: each covered cell a mine independently with density {self.density}, "
                "conditioned on the clues")


class EstimateFailure(Enum):
    """Why an estimate could not be made (:class:`NoEstimate` holds the numbers)."""

    #: sequential Monte Carlo: the deadline passed during its pilot run
    PILOT_OUT_OF_TIME = "pilot out of time"
    #: sequential Monte Carlo: fewer than four runs fitted in the time
    TOO_FEW_RUNS = "too few runs"
    #: sequential Monte Carlo: no path satisfied every clue (and the total)
    NO_PATH = "no path"
    #: sequential Monte Carlo: fewer than two runs found a satisfying path
    FEW_PATHS = "few paths"
    #: sequential Monte Carlo: a few runs outweigh the others
    RUNS_DISAGREE = "runs disagree"
    #: the sampled components cannot hold a mine count that the total allows
    TOTAL_OUT_OF_REACH = "total out of reach"
    #: the deadline passed before the chains could start
    NO_TIME_TO_START = "no time to start"
    #: the solver found no layout of the sampled components to start from
    NO_START = "no start"
    #: neither the chains nor the solver found a layout that meets the total
    NO_START_WITH_TOTAL = "no start with the total"
    #: the deadline passed while a part's equations were still being gathered
    NOT_BUILT = "not built"
    #: the deadline passed before the chains finished one sweep
    NO_SWEEP = "no sweep"


@dataclass(frozen=True)
class NoEstimate:
    """Why there is no estimate: a reason and its numbers.

    Attributes
    ----------
    why : EstimateFailure
    runs : int or None
        Sampling runs made (where it matters).
    good : int or None
        Runs that found a path satisfying everything.
    effective : float or None
        The effective number of runs.
    total : bool
        Whether the mine total was part of what had to be satisfied.

    Examples
    --------
    >>> failed = NoEstimate(EstimateFailure.RUNS_DISAGREE, runs=7, effective=2.4)
    >>> print(failed)
    the sampling runs disagree: 2.4 of 7 runs carry the weight
    """

    why: EstimateFailure
    runs: int | None = None
    good: int | None = None
    effective: float | None = None
    total: bool = True

    def __str__(self) -> str:
        what = "every clue and the mine total" if self.total else "every clue"
        sentences = {
            EstimateFailure.PILOT_OUT_OF_TIME: "the time ran out during the pilot sampling run",
            EstimateFailure.TOO_FEW_RUNS: f"only {self.runs} sampling runs fitted in the time left",
            EstimateFailure.NO_PATH: f"no sampled path satisfied {what}",
            EstimateFailure.FEW_PATHS: f"only {self.good} of {self.runs} sampling runs found a path satisfying {what}",
            EstimateFailure.RUNS_DISAGREE: (f"the sampling runs disagree: {self.effective or 0.0:.1f} of {self.runs} runs "
                              "carry the weight"),
            EstimateFailure.TOTAL_OUT_OF_REACH: "the part that could not be counted cannot hold a mine count the total allows",
            EstimateFailure.NO_TIME_TO_START: "the time ran out before the layout chains could start",
            EstimateFailure.NO_START: f"the solver found no layout satisfying {what} to start the layout chains from",
            EstimateFailure.NO_START_WITH_TOTAL: "no layout that meets the mine total was found within the time",
            EstimateFailure.NO_SWEEP: "the time ran out before the layout chains finished one sweep",
            EstimateFailure.NOT_BUILT: "the time ran out while the part's equations were being gathered for sampling",
        }
        return sentences[self.why]


@dataclass(frozen=True)
class GaveUp:
    """Why counting was not exact: the parts of the frontier that ran out of budget.

    Attributes
    ----------
    parts : int
        How many independent parts of the frontier could not be counted exactly.
    resources : tuple of Resource
        The budgets they ran out of, each once, in the order of their names.
    detail : str
        The message of the first part that gave up (how far it got).
    estimate_failed : NoEstimate or None
        Why no estimate could be made either; None when the estimate was made.

    Examples
    --------
    >>> from mscsp.errors import Resource
    >>> gave_up = GaveUp(1, (Resource.STATES,), "a counting table passed 0 states")
    >>> gave_up.parts, gave_up.estimate_failed
    (1, None)
    >>> print(gave_up)
    exact counting of 1 part of the frontier ran out of its states budget (a counting table passed 0 states)
    """

    parts: int
    resources: tuple[Resource, ...]
    detail: str
    estimate_failed: NoEstimate | None = None

    def __str__(self) -> str:
        n = self.parts
        text = (f"exact counting of {n} part{'s' if n != 1 else ''} of the frontier ran out of its "
                f"{' and '.join(r.value for r in self.resources)} budget ({self.detail})")
        if self.estimate_failed:
            text += f"; no estimate either: {self.estimate_failed}"
        return text


@dataclass(frozen=True)
class Inexact:
    """How many answers of counting were not exact, by kind.

    An answer is one set of probabilities made from a position's tallies
    (:meth:`mscsp.analysis.Counts.probabilities`); it is not exact when some part of
    the frontier could not be counted within its budget.

    Attributes
    ----------
    rounded : int
        Answers from the counting programme in floating point
        (:mod:`~mscsp.analysis.counting.rounded`): every probability within proven
        bounds, no layout count claimed exact.
    estimated : int
        Answers from the sampling estimates (sequential Monte Carlo or the layout
        chains, 95% intervals), or with no number for some cells where even they
        could not be made.

    Examples
    --------
    >>> later, earlier = Inexact(rounded=3, estimated=1), Inexact(rounded=1)
    >>> later - earlier
    Inexact(rounded=2, estimated=1)
    >>> (later - earlier).total, bool(Inexact())
    (3, False)
    """

    rounded: int = 0
    estimated: int = 0

    @property
    def total(self) -> int:
        """Answers that were not exact, of either kind."""
        return self.rounded + self.estimated

    def __bool__(self) -> bool:
        return bool(self.rounded or self.estimated)

    def __sub__(self, other: "Inexact") -> "Inexact":
        return Inexact(self.rounded - other.rounded, self.estimated - other.estimated)


#: The process's tally of answers that were not exact: [rounded, estimated]. A list
#: bumped only on the fallback paths, so the exact path pays nothing for it.
_INEXACT = [0, 0]


def inexact_answers() -> Inexact:
    """The answers of counting that were not exact since this process started.

    A caller takes the difference of two readings around a computation (a game,
    a position): the count of its analyses that fell back, by kind. The tally is
    the process's own: worker processes each keep theirs.

    Examples
    --------
    >>> from mscsp.analysis.counting import probabilities
    >>> from mscsp.position import parse_position
    >>> before = inexact_answers()
    >>> exact = probabilities(parse_position("mines: 1\\n.1...\\n"))
    >>> estimated = probabilities(parse_position("mines: 2\\n.2.\\n...\\n"), state_limit=0, samples=200)
    >>> inexact_answers() - before
    Inexact(rounded=0, estimated=1)
    """
    return Inexact(*_INEXACT)


def _note_inexact(rounded: bool) -> None:
    """Count one answer that was not exact (by the counting pipeline)."""
    _INEXACT[0 if rounded else 1] += 1
