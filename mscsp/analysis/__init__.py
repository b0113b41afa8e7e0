"""The analysis wing: everything that reads a position and never a layout.

A position is what a player sees (numbers, covered cells, flags and, when known, the
mine total). From it this wing builds the clue equations
(:mod:`~mscsp.analysis.constraints`), proves cells along the solver ladder
(:mod:`~mscsp.analysis.solvers`: single-point, subset, complete SAT), counts layouts
and mine probabilities exactly (:mod:`~mscsp.analysis.counting`), decides
consistency with a witness or a core (:mod:`~mscsp.analysis.consistency`), puts
proofs and contradictions into words (:mod:`~mscsp.analysis.explain`) and brings it
all together for one position (:mod:`~mscsp.analysis.full`).

This module is the wing's face: what the play wing, the web pages and the experiments
use, the play wing through nothing else. A guessing policy's many questions about one
position go to a :class:`~mscsp.analysis.survey.Survey`, which builds the position's
equations and tallies once and shares them with the positions one click away. Nothing here imports :mod:`mscsp.play`, which alone holds layouts, so no solver
can read the hidden mines (``tests/test_layers.py`` checks the direction of every
import).

Examples
--------
>>> from mscsp.position import parse_position
>>> from mscsp.analysis import analyse, count_layouts
>>> pos = parse_position("mines: 2\\n.....\\n.121.\\n")
>>> analyse(pos).mines, count_layouts(pos)
(((1, 0), (3, 0)), 1)
"""

from .consistency import Verdict, decide
from .constraints import Constraint, ConstraintSystem, build_constraints
from .counting import (
    DEFAULT_STATE_LIMIT,
    Counts,
    EstimateFailure,
    GaveUp,
    Inexact,
    NoEstimate,
    NoTotalModel,
    Probabilities,
    count_components,
    count_layouts,
    inexact_answers,
    list_layouts,
    list_walled,
    probabilities,
)
from .counting.montecarlo.diagnostics import effective_size, split_rhat
from .full import Analysis, analyse
from .solvers import (
    Contradiction,
    Deduction,
    Explanation,
    Propagator,
    Proven,
    SolveResult,
    SolverName,
    deduce,
)
from .survey import Survey

__all__ = [
    "analyse", "Analysis",
    "deduce", "Proven", "SolverName", "SolveResult", "Deduction", "Explanation", "Contradiction",
    "probabilities", "count_layouts", "count_components", "Probabilities", "NoTotalModel", "GaveUp",
    "NoEstimate", "EstimateFailure", "Counts", "Inexact", "inexact_answers",
    "DEFAULT_STATE_LIMIT",
    "decide", "Verdict",
    "build_constraints", "ConstraintSystem", "Constraint",
    "Survey", "Propagator", "list_layouts", "list_walled",
    # Markov-chain diagnostics, for the play wing's chains too
    "split_rhat", "effective_size",
]
