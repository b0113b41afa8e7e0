"""Shared fixtures and hypothesis profiles.

CI runs with ``CI=true``: hypothesis then derandomises, so a red run can be replayed
exactly; locally it explores new examples on every run.
"""

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

#: Examples per oracle-checked property; MSCSP_EXAMPLES=5000 for a long hunt.
EXAMPLES = int(os.environ.get("MSCSP_EXAMPLES", "300"))

REPO = Path(__file__).resolve().parent.parent
POSITIONS = REPO / "examples" / "positions"

#: CI sets MSCSP_REQUIRE_FASTPLAY=1: every C accelerator must then be built.
REQUIRE_COMPILED = os.environ.get("MSCSP_REQUIRE_FASTPLAY") == "1"


def require_built(built: bool, what: str) -> None:
    """Fail when ``what`` (a C accelerator) was not built and CI requires it; skip the
    test calling this when it was not built otherwise."""
    import pytest

    if REQUIRE_COMPILED:
        assert built, f"{what} was not built (is a C compiler installed?)"
    elif not built:
        pytest.skip(f"{what} was not built here")


def benchmark(name: str):
    """The script ``benchmarks/<name>.py`` loaded as a module (benchmarks are not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def unavoidable_sets(position) -> list[tuple[int, ...]]:
    """:func:`mscsp.play.policies.unavoidable` of ``position`` as flat indices (the
    engines' form the oracles here speak), its undecided cells being those whose
    mine probability is neither 0 nor 1."""
    from mscsp.analysis import Survey
    from mscsp.play.policies import _unavoidable

    survey = Survey(position)
    undecided = {c for c, p in survey.probabilities.by_index.items() if p not in (0, 1)}
    return _unavoidable(survey, undecided)


def four_lattices() -> str:
    """A position that takes tens of seconds to analyse exactly: the Expert lattice of
    examples/positions four times over, in a 60x32 square."""
    rows = [r for r in (POSITIONS / "lattice_expert.txt").read_text().splitlines()
            if r.strip() and not r.startswith("#") and ":" not in r]
    return "mines: 136\n" + "\n".join([r + r for r in rows] * 2) + "\n"


def assert_located(error: Exception, source: str, line: int, column: int, fragment: str) -> None:
    """A parse error names its source, line and column first, says ``fragment``, and
    is one line (the command line prints it as it is)."""
    message = str(error)
    assert (error.line, error.column) == (line, column), message
    assert fragment in message and message.startswith(f"{source}:{line}:{column}: ")
    assert "\n" not in message
