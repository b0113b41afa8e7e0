"""Playing a layout with a solver: does it open every safe cell without a guess?

Only this play loop holds the layout. The solver sees the player's position (numbers,
flags, covered cells and, when allowed, the mine total), proves cells, and the loop
opens the proven-safe ones and flags the proven mines, until the board is won or the
solver proves nothing new — in the manner of Simon Tatham's Mines, whose solver gets a
knowledge grid and an ``open`` callback and never reads the mines.

Both play loops, the compiled one (:mod:`mscsp.play.fastplay`) and the Python reference
(:mod:`mscsp.play.loop`), run the single-point rules to a fixed point and, at a
stall, call the solver's stronger rung once; knowledge only grows, so the cells a
sound solver finally opens do not depend on the order of its deductions, and the two
loops open the same cells in the same rounds. With ``quick=True`` a search for dead
structures (:mod:`mscsp.play.dead`) that no solver can get past comes first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..analysis import SolverName
from ..board import Layout
from ..budget import Budget
from ..errors import InputError
from ..game import Game, Status
from ..rules import GeneratedBoard
from . import fastplay
from .dead import Structure, _coords, _find_structure, describe_structure
from .loop import Deducer

__all__ = ["VerifyResult", "verify"]

_SOLVERS = {name: name for name in SolverName} | {name.value: name for name in SolverName}


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of one verification.

    Attributes
    ----------
    solved : bool
        Every safe cell was opened without a guess.
    opened, safe_cells : int
        Cells opened, and safe cells on the board.
    steps : int
        Deduction rounds that proved something: a single-point pass to its fixed
        point, or one call of the solver's stronger rung at a stall (the same count
        from either engine). 0 when a dead structure answered.
    complete : bool
        False when a bounded search gave up somewhere (``solved`` is then a lower
        bound: a stronger search might have finished).
    seconds : float
    reason : str or None
        The dead structure that decided the board without playing, if one did.
    engine : {'compiled', 'python', 'structure'}
        What decided the board: the compiled play loop of :mod:`mscsp.play.fastplay`,
        the Python loop (the reference, and the fallback when the extension is
        missing or hands a board back), or a dead structure found without playing.
    revealed, flagged : numpy.ndarray or None
        What the player sees where the play ended, by flat index: the open cells and
        the flags on proven mines (no-guess generation perturbs the board there).
        None when a dead structure answered without playing.
    """

    solved: bool
    opened: int | None
    safe_cells: int
    steps: int
    complete: bool = True
    seconds: float = 0.0
    reason: str | None = None
    engine: str = "python"
    revealed: np.ndarray | None = field(default=None, repr=False, compare=False)
    flagged: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        out = {
            "solved": self.solved,
            "opened": self.opened,
            "safe_cells": self.safe_cells,
            "steps": self.steps,
            "complete": self.complete,
            "seconds": round(self.seconds, 6),
            "engine": self.engine,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


def _structure_result(layout: Layout, found, started: float) -> VerifyResult:
    """The answer of a dead structure found before playing (flat cells in ``found``)."""
    return VerifyResult(False, None, layout.safe_count, 0, True, time.perf_counter() - started,
                        describe_structure((found[0], _coords(layout.geometry, found[1]))), "structure")


def verify(
    board: GeneratedBoard | Layout,
    click: tuple[int, int] | None = None,
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    time_limit: float = 30.0,
    quick: bool = False,
    memory_limit: int | None = None,
    node_limit: int = fastplay.NODE_LIMIT,
) -> VerifyResult:
    """Play a board from its first click with a solver and report whether it finishes.

    The one place verification is decided. With ``quick``, a dead structure
    (:mod:`mscsp.play.dead`) answers "not solved" at once. Otherwise the board is
    played by the compiled loop (:mod:`mscsp.play.fastplay`) when it was built and can
    answer (the single-point and complete solvers, boards of up to 65,536 positions,
    stalls within ``node_limit`` search nodes), else by the Python loop
    (:class:`mscsp.play.loop.Deducer`). Both open the same cells in the same rounds,
    so ``opened`` and ``steps`` do not depend on the engine; ``engine`` says which
    one decided.

    Parameters
    ----------
    board : GeneratedBoard or Layout
        The hidden board (read only by the game, never by the solver): a generated
        board (a no-guess board too) knows its first click; a bare layout needs
        ``click``.
    click : (int, int), optional
        ``(x, y)`` of the first click; by default the board's own.
    solver : {'single-point', 'subset', 'sat'}
    use_total : bool
        Whether the solver may use the mine total (a player sees the mine counter).
    time_limit : float
        Seconds for the Python loop's play: past them the play stops and the
        result says ``complete=False``.
    memory_limit : int, optional
        Bytes the process may hold, checked before play and at every stall of the
        Python loop; past them BudgetExceeded.
    quick : bool
        Look for a dead structure first; if there is one, ``opened`` is None and
        ``reason`` says why. ``solved`` is the same either way.
    node_limit : int
        Search nodes the compiled loop may spend at one stall before it hands the
        board to the Python loop.

    Examples
    --------
    >>> lay = Layout.from_rows(["*..*", "....", "...."])
    >>> r = verify(lay, (1, 2))  # a zero; the 1s and 2s then decide the top row
    >>> r.solved, r.opened, r.safe_cells
    (True, 10, 10)
    >>> from mscsp.board import Spec
    >>> from mscsp.rules import generate
    >>> verify(generate(Spec(9, 9, 10), "opening", (4, 4), seed=3)).safe_cells  # the board's own click
    71
    """
    started = time.perf_counter()
    parsed = _SOLVERS.get(solver) if isinstance(solver, (str, SolverName)) else None
    solver = parsed if parsed is not None else SolverName.parse(solver)
    if isinstance(board, GeneratedBoard):
        layout, click = board.layout, board.click if click is None else click
    elif isinstance(board, Layout):
        layout = board
        if click is None:
            raise InputError("the click must be a pair (x, y): a bare layout does not know its first click")
    else:
        raise InputError(f"verify takes a generated board or a layout, not {type(board).__name__}")
    geometry = layout.geometry
    if (type(click) is tuple and len(click) == 2 and type(click[0]) is int and type(click[1]) is int
            and geometry.contains(click[0], click[1])):
        click = click[1] * geometry.width + click[0]  # the common case, without the checks' cost
    else:
        click = geometry.cell(click, "click")
    if memory_limit is not None:  # the compiled loop's few arrays are not checked again
        Budget(None, None, memory_limit).check("verifying the board")
    fast = fastplay._play_tuple(layout, click, solver, use_total, int(node_limit), quick)
    if quick and fast is not None and fast[0] < 0 and fast[0] != fastplay.NOT_LOOKED:
        return _structure_result(layout, (Structure(-fast[0]), fast[1]), started)
    if quick and (fast is None or fast[0] == fastplay.NOT_LOOKED):
        # the compiled call did not look (no extension, rows too wide, a solver it does
        # not play, or a search past its budget): look here, then play
        found = fastplay._structure(layout, click, use_total)
        if found is fastplay._UNCHECKED:
            found = _find_structure(layout, click, use_total=use_total)
        if found is not None:
            return _structure_result(layout, found, started)
        if fast is not None:
            fast = fastplay._play_tuple(layout, click, solver, use_total, int(node_limit))
    if fast is not None:
        return VerifyResult(fast[0] == fastplay.Ending.WON, fast[1], layout.safe_count, fast[2], True,
                            time.perf_counter() - started, engine="compiled",
                            revealed=np.frombuffer(fast[3], dtype=bool), flagged=np.frombuffer(fast[4], dtype=bool))
    game = Game(layout, record=False)
    first = game._reveal_index(click)
    if game.status is Status.LOST:  # the first click itself hit a mine (rule ``uniform``)
        return VerifyResult(False, 0, layout.safe_count, 0, True, time.perf_counter() - started,
                            revealed=game.revealed, flagged=game.flagged)
    deducer = Deducer(game, solver, use_total=use_total, time_limit=time_limit, memory_limit=memory_limit)
    deducer._opened_index(first)
    deducer.run()
    if game.status is Status.LOST:  # pragma: no cover - a sound solver never opens a mine
        raise AssertionError("the solver opened a mine: it is unsound")
    return VerifyResult(
        solved=game.status is Status.WON,
        opened=game.opened_count,
        safe_cells=layout.safe_count,
        steps=deducer.steps,
        complete=deducer.complete,
        seconds=time.perf_counter() - started,
        revealed=game.revealed,
        flagged=game.flagged,
    )
