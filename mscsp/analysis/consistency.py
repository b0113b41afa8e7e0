"""Deciding consistency with evidence: a checked witness layout, or a minimal clash.

The Minesweeper Consistency Problem — does some layout agree with every revealed
number (and the mine total)? — is NP-complete (R. Kaye, "Minesweeper is
NP-complete", The Mathematical Intelligencer 22(2), 2000). mscsp decides it with one
SAT call per independent part of the frontier (one for the whole frontier when the
total binds). A "yes" comes with a witness: the model's frontier values, the mines
left placed on the first unconstrained cells, flags as mines; it is re-checked
against every clue and the total before it is returned. A "no" comes with a
minimal set of clues that cannot all hold (deletion-based core shrinking). On a
board compiled from a formula (Kaye's reduction), whose clues run to hundreds of
thousands, the search for that set can start from a hint: the formula's own minimal
core lifted back to the board (``mscsp consistent`` gives it, from
:func:`mscsp.reduction.lift.lifted_core`), tens of SAT calls on the formula instead
of as many on the board.

The work is proportional to the frontier, not to the board: cells no clue touches
are counted, never searched.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..board import Layout
from ..budget import Budget
from ..errors import InconsistentError, MscspError
from ..position import Position
from .constraints import build_constraints, bulk
from .solvers import contradiction
from .solvers.result import Contradiction
from .solvers.sat import SatEngine

__all__ = ["Verdict", "decide", "check_witness"]


@dataclass(frozen=True)
class Verdict:
    """The answer to "is this position consistent?", with its evidence."""

    consistent: bool
    witness: Layout | None
    contradiction: Contradiction | None
    seconds: float


def check_witness(position: Position, layout: Layout) -> None:
    """Raise MscspError unless ``layout`` agrees with every number, flag and the total."""
    g = position.geometry
    if layout.geometry != g:
        raise MscspError("the witness is for another board")
    revealed = position.revealed
    if (layout.mines & revealed).any():
        raise MscspError("the witness puts a mine on an open cell")
    if (position.flagged & ~layout.mines).any():
        raise MscspError("the witness leaves a flag without a mine")
    if not np.array_equal(layout.numbers[revealed], position.grid[revealed]):
        raise MscspError("the witness disagrees with an open number")
    if position.mines is not None and layout.mine_count != position.mines:
        raise MscspError("the witness has the wrong number of mines")


def decide(position: Position, *, time_limit: float = 60.0, memory_limit: int | None = None,
           explain: bool = True, hint: list[tuple[int, int]] | None = None) -> Verdict:
    """Decide whether any layout is consistent with the position, within ``time_limit``
    seconds and, while the clues are read and encoded, ``memory_limit`` bytes held by
    the process.

    With ``explain`` (the default) an inconsistent position's contradiction names a
    small set of clues, shrunk to a minimal one while time allows; without it, the
    clues of the whole part that has no layout (``minimal`` False), at once: the
    verdict alone, as experiments that count verdicts need. ``hint``, clues ``(x, y)``
    believed to clash by themselves, is checked first and shrunk when it does.

    Raises
    ------
    BudgetExceeded
        When the time limit runs out first (reading the clues, encoding them, or
        searching), or the memory limit while reading or encoding.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> v = decide(parse_position("mines: 2\\n.2.\\n"))
    >>> v.consistent, v.witness.rows()
    (True, ['*.*'])
    >>> decide(parse_position(".1.\\n.3.\\n")).contradiction.clues
    ((1, 0), (1, 1))
    """
    started = time.perf_counter()
    with bulk():
        return _decide(position, started, time_limit, memory_limit, explain, hint)


def _decide(position: Position, started: float, time_limit: float, memory_limit: int | None, explain: bool,
            hint: list[tuple[int, int]] | None) -> Verdict:
    system = None
    try:
        system = build_constraints(position, limits=Budget(started + time_limit, None, memory_limit))
        hinted = None
        if explain and hint is not None:
            wanted = {position.geometry.index(x, y) for x, y in hint}
            hinted = [e for e, con in enumerate(system.constraints) if con.clue in wanted]
        values = SatEngine(system, use_total=True, time_limit=time_limit - (time.perf_counter() - started),
                           memory_limit=memory_limit).witness(shrink=explain, hint=hinted)
    except InconsistentError as err:
        return Verdict(False, None, contradiction(position, system, err), time.perf_counter() - started)
    mines = position.flagged.copy()
    if values:
        cells = np.fromiter(values.keys(), dtype=np.int64, count=len(values))
        bits = np.fromiter(values.values(), dtype=bool, count=len(values))
        mines[cells[bits]] = True
    if system.remaining is not None:
        left = system.remaining - sum(values.values())
        free = np.asarray(system.unconstrained, dtype=np.int64)
        mines[free[:left]] = True
    witness = Layout(position.geometry, mines)
    check_witness(position, witness)
    return Verdict(True, witness, None, time.perf_counter() - started)

