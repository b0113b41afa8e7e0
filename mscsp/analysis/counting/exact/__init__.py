"""Exact counting: tallies of every component in Python integers, and their combination.

Stages, each a module: :mod:`.variables` (groups and merged chains of links),
:mod:`.order` (the narrowest of several processing orders), :mod:`.search` (small
parts by backtracking), :mod:`.sweep` (the forward–backward dynamic programme within a
budget), :mod:`.quick` (a position with a total and small parts, grid to tallies in
one compiled call), :mod:`.combine` (the mine total over the components, as exact
fractions), :mod:`.listing` (every layout, when few are left) and :mod:`.cpsat`
(OR-tools CP-SAT enumeration, the independent second backend).
"""
