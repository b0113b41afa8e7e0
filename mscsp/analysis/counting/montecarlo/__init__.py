"""Estimates with intervals where exact counting ran out of budget, labelled as estimates.

:mod:`.smc` (sequential Monte Carlo along the counting order, and the
:class:`~mscsp.analysis.counting.montecarlo.smc.Estimate` every estimate returns);
:mod:`.mcmc` with :mod:`.chain`, :mod:`.blocks`, :mod:`.windows` and :mod:`.start`
(Markov chains over layouts where the sequential paths die: block Gibbs moves, started
from SAT witnesses); :mod:`.diagnostics` (split R-hat, effective sample size, Wilson
intervals).
"""
