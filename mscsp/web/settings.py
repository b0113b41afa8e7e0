"""Limits and time budgets of the web server.

Every request is checked against these limits before any work is done, and every
analysis or board generation runs under a deadline, so no request can hang the
server or make it run out of memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.counting import DEFAULT_STATE_LIMIT

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """Limits and budgets of one server.

    Parameters
    ----------
    max_side : int
        Largest width or height of a board, in cells.
    max_cells : int
        Largest number of grid positions (width times height) of a board.
    max_body : int
        Largest request body, in bytes; larger requests get status 413.
    sat_time_limit : float
        Seconds one analysis may take (the ``time_limit`` of
        :func:`mscsp.analysis.analyse`), shared by exact counting, the proofs and their
        explanations, and estimates; what the proofs do not finish says ``"complete": false``,
        what counting does not finish is estimated (``"exact": false``). This is the
        analysis budget the pages state (``/api/limits`` gives it as
        ``analysis_budget``); ordinary positions take milliseconds of it, and a hard
        one (a sparse 100x100 lattice) needs most of it for its estimates.
    state_limit : int
        DP states per border component before its probabilities are estimated
        (``"exact": false``) instead of counted.
    analysis_timeout : float
        Seconds an analysis may take in all; past it the worker is stopped and the
        request answered with status 503 and a message. It is ``sat_time_limit`` and
        a margin: the analysis ends within its own limit and a fraction of a second,
        and the margin covers a worker's start and a busy machine, so that a position
        is stopped only when the analysis overruns its budget.
    generation_time_limit : float
        Seconds the no-guess generator may search for a board.
    workers : int
        Worker processes running analyses and board generation.
    large_workers : int
        Worker processes of their own for slow positions, so that a few slow
        analyses cannot make ordinary ones wait.
    first_slice : float
        Seconds an analysis, a solver's move or a no-guess board runs among the
        ordinary workers before it counts as slow and moves to the workers for slow positions, with what is
        left of its timeout (its answer is the same), so that a slow position holds an
        ordinary worker this long only. An Expert position from play is analysed in
        7 ms median, 0.26 s at most, and the hint's move for it takes 38 ms median,
        0.48 s at most (800 positions of 40 games, on a 2-core machine busy with another
        job); one that moves while the worker for slow positions is idle loses nothing,
        as it runs on in its own worker. As long as ``analysis_timeout``, it leaves every
        job where it started.
    large_border : int
        Covered cells next to an open cell (a bound on the border's largest linked
        part, read off the grid) from which a position counts as slow before it is
        run, and goes straight to the workers for slow positions (an Expert game in
        play has at most about a hundred).
    max_games : int
        Games kept at once; the least recently used game is dropped beyond it.
    run_workers : int
        Worker processes of the bulk runs (started at the first run), so that a run
        never makes an analysis wait.
    max_run_games : int
        Most games one bulk run may ask for.
    run_game_time_limit : float
        Seconds one game of a bulk run may take (its proofs and guesses together).
    max_runs : int
        Bulk runs kept (finished ones for their figures); one runs at a time.

    Examples
    --------
    >>> Settings().max_side
    100
    >>> Settings(workers=1).workers
    1
    """

    max_side: int = 100
    max_cells: int = 10_000
    max_body: int = 1 << 20
    sat_time_limit: float = 10.0
    state_limit: int = DEFAULT_STATE_LIMIT
    analysis_timeout: float = 15.0
    generation_time_limit: float = 10.0
    workers: int = 2
    large_workers: int = 1
    first_slice: float = 0.5
    large_border: int = 200
    max_games: int = 500
    run_workers: int = 1
    max_run_games: int = 100_000
    run_game_time_limit: float = 30.0
    max_runs: int = 20

    @property
    def generation_timeout(self) -> float:
        """Hard deadline of a no-guess generation: its own limit plus a margin."""
        return self.generation_time_limit + 5.0
