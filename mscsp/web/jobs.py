"""The jobs that worker processes run: analyses and no-guess boards.

Each is a module-level function of plain, picklable arguments, so a
:class:`~mscsp.web.workers.WorkerPool` can send it to another process. Positions
travel as text in the position format: the worker parses what the server already
checked, and the answer is exactly what ``mscsp solve --json`` prints.
"""

from __future__ import annotations

from ..analysis import analyse
from ..board import Spec
from ..noguess import NoGuessBoard, generate_no_guess
from ..position import parse_position
from ..report import solve_record

__all__ = ["analyse_text", "no_guess_board"]


def analyse_text(text: str, solver: str, use_total: bool, time_limit: float, state_limit: int) -> dict:
    """The ``mscsp solve --json`` record of a position given as text.

    Parameters
    ----------
    text : str
        A position in the text format.
    solver : {'single-point', 'subset', 'sat'}
        Which solver's deductions are reported as ``safe`` and ``mine``.
    use_total : bool
        Whether the mine total (when the text gives one) is used.
    time_limit : float
        Seconds for the complete solver's search and explanations.
    state_limit : int
        DP states per component before its probabilities are estimated.

    Examples
    --------
    >>> record = analyse_text("mines: 1\\n.1...\\n", "sat", True, 5.0, 200_000)
    >>> record["safe"], record["best"], record["probability"][0][:2]
    ([[3, 0], [4, 0]], [3, 0], [0.5, None])
    """
    position = parse_position(text)
    analysis = analyse(position, solver, use_total=use_total, time_limit=time_limit, state_limit=state_limit)
    return solve_record(analysis)


def no_guess_board(
    width: int, height: int, mines: int, rule: str, click: tuple[int, int], seed: int, time_limit: float
) -> NoGuessBoard:
    """A board that the complete solver, with the mine total, finishes from ``click``.

    Uses Tatham-style perturbation, which finds boards quickly even where few random
    boards are no-guess (see :mod:`mscsp.noguess`).

    Raises
    ------
    GenerationError
        When no board is found within ``time_limit`` seconds.
    """
    return generate_no_guess(
        Spec(width, height, mines), rule, click, seed, method="perturb", time_limit=time_limit
    )
