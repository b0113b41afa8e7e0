"""Builds the optional C accelerators: the verifier's play loop (mscsp/play/_fastplay.c),
the endgame's exact search (mscsp/play/_endgame.c) and the counting search over groups
(mscsp/analysis/counting/exact/_search.c), the layout chain's window draws
(mscsp/analysis/counting/montecarlo/_windows.c), the counting programme in floating point
(mscsp/analysis/counting/_rounded.c), the union-find that merges a compiled
board's chains of links (mscsp/analysis/_forest.c), the search for minimal
reasons of proven cells (mscsp/analysis/solvers/_reasons.c) and the reading of a
position's clue equations (mscsp/analysis/_equations.c).

Everything else about the package is declared in pyproject.toml. Without a C compiler
the build goes on without them and mscsp plays, searches and counts in pure Python
(mscsp.play.fastplay.available(), mscsp.play.endgame.COMPILED and
mscsp.analysis.counting.COMPILED_SEARCH, mscsp.analysis.counting.montecarlo.windows.COMPILED, mscsp.analysis.counting.rounded.COMPILED,
mscsp.analysis.constraints.COMPILED_FOREST and COMPILED_EQUATIONS and
mscsp.analysis.solvers.local.COMPILED say which).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("mscsp.play._fastplay", ["mscsp/play/_fastplay.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("mscsp.play._endgame", ["mscsp/play/_endgame.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("mscsp.analysis.counting.exact._search", ["mscsp/analysis/counting/exact/_search.c"],
                             optional=True, extra_compile_args=["-O2"]),
                   Extension("mscsp.analysis.counting.montecarlo._windows", ["mscsp/analysis/counting/montecarlo/_windows.c"],
                             optional=True, extra_compile_args=["-O2"]),
                   Extension("mscsp.analysis.counting._rounded", ["mscsp/analysis/counting/_rounded.c"],
                             optional=True, extra_compile_args=["-O2"]),
                   Extension("mscsp.analysis._forest", ["mscsp/analysis/_forest.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("mscsp.analysis.solvers._reasons", ["mscsp/analysis/solvers/_reasons.c"],
                             optional=True, extra_compile_args=["-O2"]),
                   Extension("mscsp.analysis._equations", ["mscsp/analysis/_equations.c"], optional=True,
                             extra_compile_args=["-O2"])])
