"""The reduction wing: formulas and positions, in both directions.

- :mod:`~mscsp.reduction.cnf`: the one CNF type, DIMACS in and out;
- :mod:`~mscsp.reduction.dimacs`: a position as CNF, so outside SAT solvers and model
  counters can check the analysis;
- :mod:`~mscsp.reduction.gadgets` and :mod:`~mscsp.reduction.compile`: Kaye's
  reduction (R. Kaye, "Minesweeper is NP-complete", The Mathematical Intelligencer
  22(2), 2000), a formula compiled into a position that is consistent exactly when the
  formula is satisfiable, and a witness layout decoded back into an assignment.

This wing builds on the analysis wing (the clue equations and their encodings) and
never on the play wing.

Examples
--------
>>> from mscsp.reduction import compile_cnf, parse_dimacs
>>> compiled = compile_cnf(parse_dimacs("p cnf 1 1\\n1 0\\n"))
>>> compiled.position.geometry.width > 0
True
"""

from .cnf import CNF, parse_dimacs
from .compile import MAP_FORMAT, CnfMap, Compiled, compile_cnf, decode, read_map
from .dimacs import format_dimacs, position_to_cnf

__all__ = ["CNF", "parse_dimacs", "compile_cnf", "Compiled", "CnfMap", "read_map", "decode", "MAP_FORMAT",
           "position_to_cnf", "format_dimacs"]
