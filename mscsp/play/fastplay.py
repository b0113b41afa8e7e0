"""The verifier's play loop compiled: the same answers as :class:`mscsp.play.loop.Deducer`, sooner.

A verification plays a layout from a click and opens whatever the solver proves. For
the complete solver (and for single-point reasoning) that outcome is the closure of
sound deduction, which is unique: knowledge only grows, so neither the order of the
deductions nor the cheaper stages tried first change which cells end up open. The C
loop in ``_fastplay.c`` therefore runs single-point rules to a fixed point and, at a
stall, enumerates every frontier component over groups of cells with identical
clues (minesweepr's supercells), combining their achievable mine counts with the
mine total exactly as :func:`mscsp.analysis.counting.forced_cells` does. The Python loop
(:class:`mscsp.play.loop.Deducer`) keeps the same rounds, so the two open the same
cells in the same number of steps, which the tests check on random boards.

Like the Python loop (and Simon Tatham's Mines), the C solver reads only what a player
sees: the numbers of open cells, its own flags and the mine total. The layout is read
by the game part of the loop alone.

The same fact lets a play resume: a play can record when it opened or flagged each
cell, and :func:`replay_after_swap` checks a layout that differs from the recorded
one by swapped cells from the part of the record the change cannot have touched (a
Markov chain over no-guess boards asks this at every move). The extension also holds
:mod:`mscsp.play.dead`'s search for dead structures, on one machine word per row,
which ``verify(quick=True)`` runs before playing, in the same call, and the steps of
:class:`mscsp.play.chain.NoGuessChain` (proposal, check, bookkeeping) from a given
array of random words, so that a chain's run does not return to Python between plays.

The extension is optional: it is built when a C compiler is present, and
:func:`play` returns None when it is missing, when the board is too large for a
neighbour table, or when a stall's search passes its node budget (the caller then
plays in Python, which has its own bounds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache

import numpy as np

from ..analysis import SolverName
from ..board import Geometry, Layout
from ..errors import InputError
from .dead import Structure

try:
    from . import _fastplay
except ImportError:  # pragma: no cover - exercised only where no C compiler was found
    _fastplay = None

__all__ = ["FastResult", "Ending", "available", "play", "resume", "replay_after_swap", "NODE_LIMIT", "MAX_AREA"]

#: Search nodes allowed at one stall before the C loop gives the board back to Python.
NODE_LIMIT = 200_000

#: Boards above this many grid positions keep no neighbour table (see Geometry).
MAX_AREA = 1 << 16

#: Rows wider than this many cells are too wide for the compiled dead-structure search
#: (one machine word a row, padded): the Python one looks instead.
MAX_ROW = 58


class Ending(IntEnum):
    """How a compiled play ended (the codes of ``_fastplay.play``)."""

    WON = 0
    STUCK = 1
    GAVE_UP = 2
    LOST = 3


@dataclass(frozen=True)
class FastResult:
    """The end of a compiled play: won or stuck, with what the player then sees.

    ``rounds`` (kept when asked for) gives, by flat index, the round at which the play
    opened or flagged each cell: 0 for the click and its opening, then odd rounds for
    the single-point passes and even ones for the stalls' complete steps; -1 for a
    cell never touched. ``order`` gives each such cell's place in the sequence of all
    openings and flags (each rests only on what came before it in that order).
    :func:`replay_after_swap` resumes from the two.
    """

    won: bool
    opened: int
    steps: int
    revealed: bytes
    flagged: bytes
    rounds: np.ndarray | None = field(default=None, repr=False, compare=False)
    order: np.ndarray | None = field(default=None, repr=False, compare=False)


def available() -> bool:
    """Whether the compiled loop was built (it needs a C compiler at install time)."""
    return _fastplay is not None


@lru_cache(maxsize=16)
def _table(geometry: Geometry) -> bytes:
    """The neighbour table the play loop reads (boards up to MAX_AREA only)."""
    return geometry.neighbour_rows(np.arange(geometry.area, dtype=np.int64)).astype(np.int64).tobytes()


@lru_cache(maxsize=16)
def _mask(geometry: Geometry) -> bytes:
    return geometry.mask.astype(np.uint8).tobytes()


@lru_cache(maxsize=16)
def _board(geometry: Geometry) -> tuple[bytes, bytes, int] | None:
    """What the C loop needs of a geometry, once per geometry (None: no neighbour table)."""
    if geometry.area > MAX_AREA or _fastplay is None:
        return None
    return _fastplay.adjacency(_table(geometry), geometry.area), _mask(geometry), geometry.width


#: Solver names to (compiled, complete): the subset solver is not compiled. A dict,
#: because a verification is short enough for parsing to show.
_SOLVERS = {name: (name is not SolverName.SUBSET, name is SolverName.SAT) for name in SolverName}
_SOLVERS.update({name.value: value for name, value in _SOLVERS.items()})


def _solver(solver) -> tuple[bool, bool]:
    out = _SOLVERS.get(solver) if isinstance(solver, (str, SolverName)) else None
    return out if out is not None else _SOLVERS[SolverName.parse(solver)]


def play(layout: Layout, click: tuple[int, int], solver: SolverName | str = SolverName.SAT, *,
         use_total: bool = True, node_limit: int = NODE_LIMIT, rounds: bool = False) -> FastResult | None:
    """Play ``layout`` from the click ``(x, y)`` with complete (or single-point)
    deduction, compiled.

    Returns None when the compiled loop cannot answer: it was not built, the solver is
    ``subset`` (whose stall closure differs), the board has no neighbour table, the
    click is a mine, or a stall's search passed ``node_limit`` nodes. With ``rounds``
    the result keeps the round of every opening and flag (for :func:`replay_after_swap`).

    Examples
    --------
    >>> lay = Layout.from_rows(["*..*", "....", "...."])
    >>> r = play(lay, (1, 2))
    >>> r is None or (r.won, r.opened) == (True, 10)
    True
    """
    return _run(layout, layout.geometry.cell(click, "click"), solver, use_total, node_limit, rounds=rounds)


def _play_index(layout: Layout, click: int, solver: SolverName | str = SolverName.SAT, *, use_total: bool = True,
                node_limit: int = NODE_LIMIT, rounds: bool = False) -> FastResult | None:
    """:func:`play` from a flat click, for the verifier."""
    return _run(layout, click, solver, use_total, node_limit, rounds=rounds)


def resume(layout: Layout, revealed: bytes, flagged: bytes, solver: SolverName | str = SolverName.SAT, *,
           use_total: bool = True, node_limit: int = NODE_LIMIT) -> FastResult | None:
    """Deduce on from a game in progress: ``revealed`` and ``flagged`` (one byte per
    grid position) as a play loop left them, after a guess the deduction has not seen.

    A guessing player (:func:`mscsp.play.loop.play_game`) calls this between guesses:
    the closure of sound deduction does not depend on the order in which cells were
    opened, so the state reached is the one the Python :class:`~mscsp.play.loop.Deducer`
    reaches. Returns None when :func:`play` would, or when the given open cells hold a
    mine (the game is lost, nothing to deduce).

    Examples
    --------
    >>> lay = Layout.from_rows(["*..*", "....", "...."])
    >>> opened = bytes([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1])  # the two lower rows open
    >>> r = resume(lay, opened, bytes(12))
    >>> r is None or (r.won, r.opened, r.flagged[0]) == (True, 10, 1)
    True
    """
    return _run(layout, -1, solver, use_total, node_limit, (bytes(revealed), bytes(flagged)))


def replay_after_swap(layout: Layout, click: tuple[int, int], previous: FastResult,
                      swapped: "list[tuple[int, int]]", solver: SolverName | str = SolverName.SAT, *,
                      use_total: bool = True, node_limit: int = NODE_LIMIT) -> FastResult | None:
    """Play ``layout`` from ``click`` when it differs from a recorded play's layout only
    in the ``swapped`` cells (mines that became safe and as many safe cells that became
    mines), without replaying what the change cannot affect.

    ``previous`` is the play of the old layout from the same click with the same
    solver and ``use_total``, made with ``rounds=True`` (:func:`play`, or an earlier
    call of this function). Every opening and flag of that play before its first
    opening of a changed cell (a swapped cell or a neighbour of one, whose number may
    have changed) rested only on numbers both layouts share and on the same mine
    total; the new layout agrees with all of it, so a player of the new layout could
    make the same moves. The play resumes there (at the start of that round when it is
    a stall's, to keep the rounds) and reaches the closure of sound deduction, which is
    unique: won, opened, steps, the open cells and their rounds are those of
    :func:`play` from the click, and so are the flags unless the game is won (a won
    game may stop flagging at another point). A move of a Markov chain over no-guess
    boards is checked this way.

    Returns None when :func:`play` would.

    Examples
    --------
    >>> old = Layout.from_rows(["*...", "....", "...*", "...."])
    >>> before = play(old, (0, 3), rounds=True)
    >>> new = Layout.from_rows(["*...", "....", "....", "...*"])  # the mine at (3, 2) moved down
    >>> after = replay_after_swap(new, (0, 3), before, [(3, 2), (3, 3)]) if before else None
    >>> after == play(new, (0, 3))
    True
    """
    geometry = layout.geometry
    return _replay_index(layout, geometry.cell(click, "click"), previous,
                         [geometry.cell(c, "swapped cell") for c in swapped], solver, use_total=use_total,
                         node_limit=node_limit)


def _replay_index(layout: Layout, click: int, previous: FastResult, changed: "list[int]",
                  solver: SolverName | str = SolverName.SAT, *, use_total: bool = True,
                  node_limit: int = NODE_LIMIT) -> FastResult | None:
    """:func:`replay_after_swap` with flat indices, for the chain."""
    compiled, complete = _solver(solver)
    board = _board_of(layout.geometry)
    if _fastplay is None or not compiled or board is None:
        return None
    if previous.rounds is None or previous.order is None:
        raise InputError("the previous play kept no rounds: play it with rounds=True")
    table, mask, width = board
    record = previous.rounds.base  # the C loop's record: rounds, then order
    if not isinstance(record, bytes) or len(record) != 8 * len(previous.rounds):
        record = np.concatenate([previous.rounds, previous.order]).astype(np.int32).tobytes()
    return _result(_fastplay.replay(table, mask, layout.mines.tobytes(), width, int(click), complete, use_total,
                                    int(node_limit), previous.revealed, previous.flagged, record, changed))


_UNCHECKED = object()


def _structure(layout: Layout, click: int, use_total: bool):
    """:func:`mscsp.play.dead._find_structure`, compiled: ``(Structure, flat cells)`` or
    None, or ``_UNCHECKED`` when the extension is missing (the caller then looks in Python)."""
    board = _board_of(layout.geometry) if _fastplay is not None else None
    if board is None:
        return _UNCHECKED
    found = _fastplay.structure(board[1], layout.mines.tobytes(), board[2], int(click), use_total)
    if found == -1:  # rows too wide for one word
        return _UNCHECKED
    return None if found is None else (Structure(found[0]), found[1])


def _result(out: tuple) -> FastResult | None:
    code = out[0]
    if code == Ending.GAVE_UP or code == Ending.LOST:
        return None
    if len(out) == 5:
        return FastResult(code == Ending.WON, out[1], out[2], out[3], out[4])
    area = len(out[3])
    rounds = np.frombuffer(out[5], dtype=np.int32, count=area)
    order = np.frombuffer(out[5], dtype=np.int32, count=area, offset=4 * area)
    return FastResult(code == Ending.WON, out[1], out[2], out[3], out[4], rounds, order)


#: The last geometry played and what the C loop needs of it, as one tuple (read and
#: replaced whole, so threads never see one's geometry with another's tables): a
#: verifier plays many layouts of one geometry in a row, and this skips even the
#: cache's hashing.
_last_board: tuple = (None, None)


def _board_of(geometry: Geometry) -> tuple[bytes, bytes, int] | None:
    """:func:`_board`, the last geometry's answer kept without hashing."""
    global _last_board
    last, board = _last_board
    if last is not geometry:
        board = _board(geometry)
        _last_board = (geometry, board)
    return board


#: The code of :func:`_play_tuple`'s answer when it could not look for a dead structure.
NOT_LOOKED = -9


def _play_tuple(layout: Layout, click: int, solver: SolverName, use_total: bool, node_limit: int,
                quick: bool = False):
    """The C loop's own answer ``(code, opened, steps, revealed, flagged)`` from a flat
    click, or None when :func:`play` would give None: the verifier's path, which
    builds its result from the tuple directly. With ``quick``, the dead structures of
    :mod:`mscsp.play.dead` are looked for first, in the same call: one found is
    ``(-kind, flat cells)``; ``(NOT_LOOKED,)`` when the rows are too wide to look."""
    board = _board_of(layout.geometry)
    compiled, complete = _SOLVERS[solver]
    if board is None or not compiled or _fastplay is None:  # tables outlive a switched-off extension
        return None
    if quick:
        out = _fastplay.play(board[0], board[1], layout.mines.tobytes(), board[2], click, complete, use_total,
                             node_limit, b"", b"", False, True)
    else:
        out = _fastplay.play(board[0], board[1], layout.mines.tobytes(), board[2], click, complete, use_total,
                             node_limit)
    return None if out[0] >= Ending.GAVE_UP else out


def _run(layout: Layout, click: int, solver: SolverName | str, use_total: bool, node_limit: int,
         state: tuple[bytes, bytes] = (), rounds: bool = False) -> FastResult | None:
    compiled, complete = _solver(solver)
    board = _board_of(layout.geometry)
    if _fastplay is None or not compiled or board is None:
        return None
    if rounds:
        state = (*state, True) if state else (b"", b"", True)
    table, mask, width = board
    return _result(_fastplay.play(table, mask, layout.mines.tobytes(), width, int(click), complete, use_total,
                                  int(node_limit), *state))
