"""mscsp: Minesweeper as constraint satisfaction.

A research toolkit: boards and first-click rules, a game engine with replays, the
position text format, and (in later modules) sound solvers, exact probabilities,
no-guess generation and the experiments that reproduce published tables.

Examples
--------
>>> from mscsp import Spec, generate, Game
>>> board = generate(Spec.preset("beginner"), "opening", (4, 4), seed=42)
>>> game = Game.from_board(board)
>>> _ = game.reveal(board.click)
>>> game.position().number(board.click)
0
"""

from importlib.metadata import PackageNotFoundError, version

from .board import PRESETS, Geometry, Layout, Spec, format_layout, parse_layout
from .errors import (
    GenerationError,
    IllegalMove,
    InconsistentError,
    InputError,
    MscspError,
    ParseError,
)
from .game import Action, ActionKind, Game, Replay, Status
from .position import Mark, Position, format_position, parse_position
from .rules import GENERATOR_VERSION, FirstClickRule, GeneratedBoard, generate, place_mines

try:
    __version__ = version("mscsp")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "PRESETS",
    "Geometry",
    "Layout",
    "Spec",
    "format_layout",
    "parse_layout",
    "GenerationError",
    "IllegalMove",
    "InconsistentError",
    "InputError",
    "MscspError",
    "ParseError",
    "Action",
    "ActionKind",
    "Game",
    "Replay",
    "Status",
    "Mark",
    "Position",
    "format_position",
    "parse_position",
    "GENERATOR_VERSION",
    "FirstClickRule",
    "GeneratedBoard",
    "generate",
    "place_mines",
]
