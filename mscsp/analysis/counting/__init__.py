"""Layout counting and mine probabilities: exact where the budget allows, honest where not.

A pipeline of pure stages, after minesweepr's and JSMinesweeper's probability
engines, with exact integers throughout:

1. **Equations** — :func:`mscsp.analysis.constraints.build_constraints`; clues linked through
   shared cells form independent components.
2. **Variables** (:mod:`~mscsp.analysis.counting.exact.variables`) — cells touched by the same clues
   become one group, chains of ``1`` links one two-valued variable.
3. **Order** (:mod:`~mscsp.analysis.counting.exact.order`) — the cheapest of several processing
   orders (frontier greedy, row and column sweeps, reverse Cuthill–McKee), scored by
   a bound on the width of the tables it would build.
4. **Tallies** — for each component, the weight of its consistent assignments by
   mine count and every group's mines among them: small components by backtracking
   (:mod:`~mscsp.analysis.counting.exact.search`), the rest by a forward–backward dynamic programme
   (:mod:`~mscsp.analysis.counting.exact.sweep`) that checks its time and memory budget before it
   grows.
5. **Estimates** — where a component does not fit its budget, the same programme in
   floating point (:mod:`~mscsp.analysis.counting.rounded`) gives every probability
   within bounds proven to hold it, counting each rounding; where its tables are too
   wide too (:mod:`~mscsp.analysis.counting.montecarlo.smc`),
   sequential Monte Carlo gives every probability with a 95%
   interval, labelled as an estimate; where its paths die, Markov chains over
   layouts (:mod:`~mscsp.analysis.counting.montecarlo.mcmc`) do, with their convergence
   diagnostics; or no number, with the reason.
6. **Combination** (:mod:`~mscsp.analysis.counting.exact.combine`) — components convolve over the
   mine count, the unconstrained cells add ``C(U, u)``, the total picks the
   coefficient: exact :class:`fractions.Fraction` probabilities and an exact layout
   count. Without a total the components are weighed alone (one per consistent
   assignment, or independent mines of a given density), in plain integers.
7. **Listing** (:mod:`~mscsp.analysis.counting.exact.listing`) — when few layouts are left,
   every one of them, for an exact endgame.

Which of them answers within the budget is decided by
:mod:`~mscsp.analysis.counting.pipeline`; what counting answers besides numbers (the
model without a total, why a count is not exact) is in
:mod:`~mscsp.analysis.counting.outcomes`. Cells that the SAT solver proves stay proven
whatever counting does: see :func:`mscsp.analysis.analyse`.
"""

from ...budget import DEFAULT_STATE_LIMIT
from .exact.combine import Group, Probabilities, Tally
from .exact.listing import list_layouts, list_walled
from .exact.search import COMPILED as COMPILED_SEARCH
from .exact.sweep import StateLimit
from .outcomes import EstimateFailure, GaveUp, Inexact, NoEstimate, NoTotalModel, inexact_answers
from .pipeline import Counts, count_components, count_layouts, forced_cells, probabilities, tally_by_label, tally_component

__all__ = [
    "COMPILED_SEARCH",
    "DEFAULT_STATE_LIMIT",
    "Group",
    "Tally",
    "Probabilities",
    "NoTotalModel",
    "GaveUp",
    "NoEstimate",
    "EstimateFailure",
    "Inexact",
    "inexact_answers",
    "Counts",
    "StateLimit",
    "tally_component",
    "probabilities",
    "count_components",
    "tally_by_label",
    "count_layouts",
    "forced_cells",
    "list_layouts",
    "list_walled",
]
