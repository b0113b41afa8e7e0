"""Builds the optional C accelerator of the verifier's play loop (mscsp/play/_fastplay.c).

Everything else about the package is declared in pyproject.toml. Without a C compiler
the build goes on without it and mscsp plays in pure Python (mscsp.play.fastplay says which).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("mscsp.play._fastplay", ["mscsp/play/_fastplay.c"], optional=True,
                             extra_compile_args=["-O2"])])
