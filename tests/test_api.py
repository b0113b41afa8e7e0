"""The flat public API: every name resolves, engines load lazily, cells go in as (x, y),
and the README's "API in ten lines" runs as written."""

from __future__ import annotations

import doctest
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import mscsp
from mscsp.board import Layout, Spec

ROOT = Path(__file__).resolve().parent.parent

#: Modules that pull in a SAT solver, CP-SAT, networkx or the compiled loop: none of
#: them may load with ``import mscsp``.
HEAVY = ["pysat", "ortools", "networkx", "mscsp.analysis.solvers", "mscsp.analysis.counting", "mscsp.analysis",
         "mscsp.play.noguess", "mscsp.play", "mscsp.reduction", "mscsp.play._fastplay"]


def test_every_public_name_resolves_and_is_documented():
    for name in mscsp.__all__:
        value = getattr(mscsp, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"mscsp.{name} has no docstring"
    assert set(mscsp.__all__) <= set(dir(mscsp))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        mscsp.nonsense  # noqa: B018


def test_the_engines_load_on_first_use_only():
    code = ("import sys, mscsp; heavy = %r; "
            "print(' '.join(m for m in heavy if m in sys.modules))" % HEAVY)
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""
    code = "import sys, mscsp; mscsp.analyse; print('mscsp.analysis.solvers' in sys.modules, 'mscsp.play.noguess' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]


def test_the_function_wins_over_a_submodule_of_the_same_name():
    import mscsp.play.verify  # noqa: F401  (importing the module must not shadow the function)

    assert callable(mscsp.verify) and mscsp.verify.__module__ == "mscsp.play.verify"


@pytest.mark.parametrize("bad", [40, (4,), (4, 4, 0), (4.0, 4), "4,4", (True, 4), None, (9, 0), (-1, 2)])
def test_every_public_edge_takes_x_y_and_nothing_else(bad):
    spec = Spec(9, 9, 10)
    layout = mscsp.generate(spec, "safe", (4, 4), seed=1).layout
    game = mscsp.Game(layout)
    calls = [
        lambda: mscsp.generate(spec, "safe", bad, seed=1),
        lambda: mscsp.place_mines(spec.geometry, 10, "safe", bad, 1),
        lambda: mscsp.verify(layout, bad),
        lambda: mscsp.generate_no_guess(spec, "safe", bad, seed=1),
        lambda: game.reveal(bad),
        lambda: game.flag(bad),
    ]
    for call in calls:
        with pytest.raises(mscsp.InputError, match=r"must be a pair \(x, y\)|is not a cell of this 9x9 board"):
            call()


def test_x_is_the_column_and_y_the_row():
    # one mine in the top-right corner of a 3x2 board: only [2, 0] holds it
    layout = Layout.from_rows(["..*", "..."])
    board = mscsp.place_mines(layout.geometry, 1, "safe", (0, 1), 0)
    assert not board.is_mine(layout.geometry.index(0, 1))
    game = mscsp.Game(layout)
    game.reveal((0, 1))  # the zero at [0, 1] opens the left four cells
    assert game.position().rows() == ["01.", "01."]


def test_the_readme_api_in_ten_lines_runs_as_written():
    failures, attempted = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted >= 8 and failures == 0
