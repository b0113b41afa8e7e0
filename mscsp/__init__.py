"""mscsp: Minesweeper as constraint satisfaction.

A research toolkit: boards and first-click rules, a game engine with replays, the
position text format, sound solvers (single-point, subset, complete SAT) with
minimal explanations, exact mine probabilities and layout counts, verification and
no-guess generation, and Kaye's reduction of SAT to Minesweeper consistency.

Everything a researcher needs is here at the top level. The model (boards,
positions, games) loads with the package; the engines load on first use, so
``import mscsp`` stays quick. Cells go in and come out as ``(x, y)``: column, then
row, from the top-left corner; lists of cells are in row order (by ``y``, then
``x``). One verb per question: :func:`analyse` (everything: proofs with reasons,
probabilities, a suggested click), :func:`deduce` (proven cells alone, fast),
:func:`probabilities` and :func:`count_layouts` (counting), :func:`decide`
(consistency, with a witness or a core), :func:`verify` (does a solver finish a
board without a guess?).

Examples
--------
>>> import mscsp
>>> pos = mscsp.parse_position("mines: 2\\n.....\\n.121.\\n")
>>> a = mscsp.analyse(pos)
>>> a.mines, a.probability((0, 0)), mscsp.count_layouts(pos)
(((1, 0), (3, 0)), Fraction(0, 1), 1)
>>> mscsp.deduce(pos, "single-point").safe  # no clue decides a cell alone
()
>>> board = mscsp.generate(mscsp.Spec.preset("beginner"), "opening", (4, 4), seed=42)
>>> game = mscsp.Game.from_board(board)
>>> opened = game.reveal((4, 4))
>>> opened[0], game.position().number(board.click)
((4, 4), 0)
"""

from __future__ import annotations

from importlib import import_module

from . import draw  # pictures of the model's objects: SVG text without matplotlib, figures with it
from .board import PRESETS, Geometry, Layout, Spec, format_layout, parse_layout
from .budget import Budget
from .errors import (
    BudgetExceeded,
    Clash,
    GenerationError,
    IllegalMove,
    InconsistentError,
    InputError,
    MscspError,
    ParseError,
    Resource,
)
from .game import Action, ActionKind, Game, Replay, Status
from .position import Mark, Position, format_position, parse_position
from .rules import (
    GENERATOR_VERSION,
    FirstClickRule,
    GeneratedBoard,
    generate,
    place_mines,
)

#: What loads on first use: public name -> (module, attribute). Each of these modules
#: pulls in a solver, counter or compiler, so ``import mscsp`` does not.
_LAZY = {
    # the analysis wing: what a player sees, never a layout
    "analyse": ("analysis", "analyse"),
    "Analysis": ("analysis", "Analysis"),
    "deduce": ("analysis", "deduce"),
    "Proven": ("analysis", "Proven"),
    "SolverName": ("analysis", "SolverName"),
    "SolveResult": ("analysis", "SolveResult"),
    "Explanation": ("analysis", "Explanation"),
    "Contradiction": ("analysis", "Contradiction"),
    "Deduction": ("analysis", "Deduction"),
    "probabilities": ("analysis", "probabilities"),
    "count_layouts": ("analysis", "count_layouts"),
    "Probabilities": ("analysis", "Probabilities"),
    "NoTotalModel": ("analysis", "NoTotalModel"),
    "GaveUp": ("analysis", "GaveUp"),
    "NoEstimate": ("analysis", "NoEstimate"),
    "EstimateFailure": ("analysis", "EstimateFailure"),
    "decide": ("analysis", "decide"),
    "Verdict": ("analysis", "Verdict"),
    "ConstraintSystem": ("analysis", "ConstraintSystem"),
    "Constraint": ("analysis", "Constraint"),
    "opening_probability": ("odds", "opening_probability"),
    "wilson": ("stats", "wilson"),
    # the play wing: what holds a layout
    "verify": ("play.verify", "verify"),
    "VerifyResult": ("play.verify", "VerifyResult"),
    "generate_no_guess": ("play.noguess", "generate_no_guess"),
    "NoGuessBoard": ("play.noguess", "NoGuessBoard"),
    "Method": ("play.noguess", "Method"),
    "sample_no_guess": ("play.noguess", "sample_no_guess"),
    "UniformSample": ("play.noguess", "UniformSample"),
    # the reduction wing: Kaye's reduction and DIMACS
    "compile_cnf": ("reduction", "compile_cnf"),
    "Compiled": ("reduction", "Compiled"),
    "CNF": ("reduction", "CNF"),
    "parse_dimacs": ("reduction", "parse_dimacs"),
    "position_to_cnf": ("reduction", "position_to_cnf"),
}

def __getattr__(name: str):
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("mscsp")
        except PackageNotFoundError:  # a source tree that was never installed
            value = "0+unknown"
    elif name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(import_module(f".{module}", __name__), attribute)
    else:
        raise AttributeError(f"module 'mscsp' has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"__version__"})


__all__ = [
    # the model
    "PRESETS", "Geometry", "Layout", "Spec", "format_layout", "parse_layout",
    "Mark", "Position", "format_position", "parse_position",
    "GENERATOR_VERSION", "FirstClickRule", "GeneratedBoard", "generate", "place_mines",
    "Action", "ActionKind", "Game", "Replay", "Status",
    "Budget",
    # errors
    "MscspError", "InputError", "ParseError", "IllegalMove", "InconsistentError", "GenerationError",
    "BudgetExceeded", "Resource", "Clash",
    # loaded on first use
    *_LAZY,
]
