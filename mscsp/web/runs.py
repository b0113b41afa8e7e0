"""Bulk runs: many games played by one rung of the player ladder, on the server's workers.

A run deals ``games`` boards of one size under one first-click rule, game ``i`` from
the ``i``-th child of ``SeedSequence(seed)`` (:func:`~mscsp.web.jobs.game_seed`), and
lets the chosen policy play each from the rule's first click to its end
(:func:`~mscsp.web.jobs.play_games`), as the win-rate experiment does. The games go to
workers of their own, a few at a time (more while they come back quickly), so the
count of wins and its Wilson interval grow while the page watches; cancelling a run
stops its worker at once. The boards are the server's, dealt from a seed the run
reports, so nothing here is hidden from the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from ..board import Spec
from ..play.policies import Policy
from ..rules import FirstClickRule
from ..stats import wilson
from . import jobs
from .games import Kept
from .validate import RequestError
from .workers import JobFailed, JobTimeout, WorkerPool

__all__ = ["Run", "RunStore", "run_view"]

#: Seconds a batch of games may take before the run doubles its size (up to MAX_BATCH).
QUICK_BATCH = 0.25
MAX_BATCH = 64


class Run:
    """One bulk run: what is played, and how far it has come.

    ``status`` is ``running``, ``done``, ``cancelled`` or ``failed`` (``error`` says
    why); ``played`` and ``won`` count the games back so far, in order.
    """

    def __init__(self, run_id: str, spec: Spec, rule: FirstClickRule, policy: Policy, games: int, seed: int,
                 game_time_limit: float):
        self.id = run_id
        self.spec = spec
        self.rule = rule
        self.policy = policy
        self.games = games
        self.seed = seed
        self.game_time_limit = game_time_limit
        self.played = 0
        self.won = 0
        self.status = "running"
        self.error: str | None = None
        self.started = time.monotonic()
        self.ended: float | None = None
        self.task: asyncio.Task | None = None

    def start(self, pool: WorkerPool) -> None:
        """Play the games in ``pool``, in the background."""
        self.task = asyncio.get_running_loop().create_task(self._play(pool))

    async def _play(self, pool: WorkerPool) -> None:
        size = 1
        s = self.spec
        try:
            while self.played < self.games:
                stop = min(self.games, self.played + size)
                args = (s.width, s.height, s.mines, self.rule.value, self.policy.value, self.seed, self.played, stop,
                        self.game_time_limit)
                asked = time.monotonic()
                won = await pool.run(jobs.play_games, args, timeout=(stop - self.played) * self.game_time_limit + 5)
                self.played, self.won = stop, self.won + sum(won)
                if time.monotonic() - asked < QUICK_BATCH:
                    size = min(2 * size, MAX_BATCH)
            self.status = "done"
        except asyncio.CancelledError:
            self.status = "cancelled"
        except (JobTimeout, JobFailed) as exc:
            self.status, self.error = "failed", f"game {self.played + 1} could not be played: {exc}"
        finally:
            self.ended = time.monotonic()

    async def cancel(self) -> None:
        """Stop the run (its worker's job is stopped too); what was played stands."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


def run_view(run: Run) -> dict:
    """A run as the page sees it: ``id``, ``width``, ``height``, ``mines``, ``rule``,
    ``policy``, ``games``, ``seed``, ``played``, ``won``, ``rate`` (won over played,
    null before the first game), ``interval`` (its 95% Wilson interval ``[low,
    high]``, :func:`mscsp.stats.wilson`, or null), ``status``, ``error`` and
    ``elapsed`` (seconds)."""
    end = run.ended if run.ended is not None else time.monotonic()
    return {
        "id": run.id,
        "width": run.spec.width,
        "height": run.spec.height,
        "mines": run.spec.mines,
        "rule": run.rule.value,
        "policy": run.policy.value,
        "games": run.games,
        "seed": run.seed,
        "played": run.played,
        "won": run.won,
        "rate": run.won / run.played if run.played else None,
        "interval": list(wilson(run.won, run.played)) if run.played else None,
        "status": run.status,
        "error": run.error,
        "elapsed": round(end - run.started, 3),
    }


class RunStore(Kept[Run]):
    """The runs of one server: one running at a time, the last ``limit`` kept."""

    def __init__(self, limit: int):
        super().__init__(limit, f"no bulk run with this id (the last {limit} are kept)")

    def running(self) -> Run | None:
        return next((r for r in self.values() if r.status == "running"), None)

    def add(self, make) -> Run:
        """Store the run ``make(new_id)``; 409 while another one runs."""
        busy = self.running()
        if busy is not None:
            raise RequestError(409, f"a bulk run is going ({busy.played} of {busy.games} games played); "
                                    "cancel it or let it finish first")
        return super().add(make)

    async def close(self) -> None:
        for run in self.values():
            await run.cancel()
