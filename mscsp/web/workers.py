"""Worker processes that run slow jobs under a hard deadline.

An analysis is usually a few milliseconds, but a huge border can make counting or
explaining take seconds, and a no-guess board can take as long as its generator is
allowed. A thread cannot be stopped, so jobs run in a small pool of worker processes:
a job that outlives its deadline has its process terminated and replaced, and the
request gets a clear error instead of hanging.

Workers are started with the ``spawn`` method (no fork of a threaded server) and
talk over a pipe: a job is ``(function, args)`` with a module-level function, an
answer is ``(kind, value)`` where ``kind`` says whether the value is the result or
the message of an error.

How long a job takes is known only by running it, so a pool can give a job a first
slice of its time and then move it to another pool (``overflow``) kept for slow jobs:
the quick jobs behind it never wait longer than that slice. A job moves with its
worker when the other pool has one idle (the two trade workers, so the job runs on
uninterrupted); otherwise its worker is replaced and the job starts again in the other
pool, with what is left of its time.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import time
from typing import Any, Callable

import anyio.to_thread

from ..errors import GenerationError, InconsistentError, InputError, MscspError

__all__ = ["WorkerPool", "JobTimeout", "JobFailed"]


#: A job stopped at its deadline is said to have been too slow only when it waited less
#: than this share of its time for a worker; otherwise the server was too busy to say.
QUEUE_SHARE = 0.1


class JobTimeout(MscspError):
    """A job did not finish in time.

    ``busy`` says the time went (mostly) to waiting for a worker: none was free in
    time, or the job started with too little of its time left, so the job itself
    may be quick. ``waited`` is the seconds it spent waiting (a first slice that had
    to be run again included). ``moved`` says the job had outrun its first slice and
    gone to the pool for slow jobs, so that it is there that it waited or ran out of
    time.
    """

    def __init__(self, message: str, busy: bool = False, waited: float = 0.0, moved: bool = False):
        super().__init__(message)
        self.busy = busy
        self.waited = waited
        self.moved = moved


class JobFailed(MscspError):
    """A job raised an error in its worker.

    Parameters
    ----------
    kind : str
        ``"input"`` for bad input (an :class:`~mscsp.errors.InputError`),
        ``"generation"`` when a generator gave up, ``"inconsistent"`` for a position
        no layout fits (an :class:`~mscsp.errors.InconsistentError`), ``"internal"``
        for anything else.
    message : str
        The error's message.
    """

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _serve(conn, warm: tuple[str, ...]) -> None:
    """The loop of one worker process: say ready, then run jobs until told to stop (``None``)."""
    try:
        for name in warm:
            importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - reported to the pool, which gives up on this worker
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        func, args = job
        try:
            answer = ("ok", func(*args))
        except InputError as exc:
            answer = ("input", str(exc))
        except GenerationError as exc:
            answer = ("generation", str(exc))
        except InconsistentError as exc:
            answer = ("inconsistent", str(exc))
        except Exception as exc:  # noqa: BLE001 - reported to the caller, never lost
            answer = ("internal", f"{type(exc).__name__}: {exc}")
        conn.send(answer)


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context, warm: tuple[str, ...]):
        parent, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, warm), name="mscsp-web-worker", daemon=True)
        self.process.start()
        child.close()
        self.conn = parent

    def stop(self, grace: float = 1.0) -> None:
        """Ask the process to finish; terminate it if it does not within ``grace``."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(grace)
        self.kill()

    def kill(self) -> None:
        """Terminate the process now (a no-op once it has ended)."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(2.0)
            if self.process.is_alive():  # pragma: no cover - SIGTERM is not caught by workers
                self.process.kill()
                self.process.join()
        self.conn.close()


async def _answered(worker: _Worker, seconds: float) -> bool:
    """Wait up to ``seconds`` for the answer of ``worker``'s job; whether it came.

    Abandoned when the request is cancelled (its client went away): the caller then
    replaces the worker, which stops the job.
    """
    return await anyio.to_thread.run_sync(worker.conn.poll, seconds, abandon_on_cancel=True)


def _late(timeout: float, lost: float, ran: float, restarted: bool, moved: bool) -> JobTimeout:
    """The error of a job stopped at its deadline, having ``lost`` seconds to waiting (and
    to a first slice run again, when ``restarted``) and run ``ran`` seconds since."""
    if lost > QUEUE_SHARE * timeout:
        # the job may be quick: it was the queue that took the time
        waited = (f"lost {lost:.1f} s to waiting for a free worker and to a first slice run again" if restarted
                  else f"waited {lost:.1f} s for a free worker")
        return JobTimeout(f"the job {waited} and was stopped {ran:.1f} s after it started, at the {timeout:g} s limit",
                          busy=True, waited=lost, moved=moved)
    return JobTimeout(f"the job took longer than {timeout:g} s and was stopped", waited=lost, moved=moved)


class WorkerPool:
    """A fixed number of worker processes, each running one job at a time.

    A worker joins the idle queue only once it has started and imported its
    modules, so the time a replacement takes to start never counts against a job's
    deadline (a request may wait for it, within its own timeout).

    Parameters
    ----------
    size : int
        Number of worker processes.
    warm : tuple of str
        Modules each worker imports when it starts, so the first job is fast.
    startup_timeout : float
        Seconds a worker may take to start before the pool gives up on it.

    Attributes
    ----------
    completed : int
        Jobs answered (a result or an error) by this pool's workers, a job that came
        with a traded worker counted by the pool it ended in.
    moved : int
        Jobs that outran their first slice here and went to their ``overflow`` pool.
    replaced : int
        Workers stopped in the middle of a job (it ran out of time, its request was
        cancelled, or it moved on to start again elsewhere) and replaced.

    Examples
    --------
    >>> import asyncio, operator
    >>> async def demo():
    ...     pool = WorkerPool(1)
    ...     await pool.start()
    ...     try:
    ...         return await pool.run(operator.add, (2, 3), timeout=30)
    ...     finally:
    ...         await pool.close()
    >>> asyncio.run(demo())
    5
    """

    def __init__(self, size: int = 2, warm: tuple[str, ...] = (), *, startup_timeout: float = 60.0):
        if size < 1:
            raise InputError(f"a worker pool needs at least one worker, not {size}")
        self._size = size
        self._warm = tuple(warm)
        self._startup_timeout = startup_timeout
        self._context = multiprocessing.get_context("spawn")
        self._workers: set[_Worker] = set()
        self._admissions: set[asyncio.Task] = set()
        self._idle: asyncio.Queue[_Worker] | None = None
        self._broken: str | None = None
        self.completed = 0
        self.moved = 0
        self.replaced = 0

    async def start(self) -> None:
        """Start the workers and wait until they are ready (from the loop that uses the pool)."""
        self._idle = asyncio.Queue()
        await asyncio.gather(*(self._admit(self._spawn()) for _ in range(self._size)))
        if not self._workers:
            raise JobFailed("internal", f"no worker process could start: {self._broken}")

    def _spawn(self) -> _Worker:
        worker = _Worker(self._context, self._warm)
        self._workers.add(worker)
        return worker

    async def _admit(self, worker: _Worker) -> None:
        """Put a new worker in the idle queue once it says it is ready."""
        message = "it did not answer"
        try:
            if await anyio.to_thread.run_sync(worker.conn.poll, self._startup_timeout):
                kind, message = worker.conn.recv()
                if kind == "ready":
                    self._idle.put_nowait(worker)
                    return
        except (EOFError, OSError) as exc:
            message = f"it ended ({type(exc).__name__})"
        self._broken = message
        worker.kill()
        self._workers.discard(worker)

    def _replace(self, worker: _Worker) -> None:
        """Stop a worker and start another, admitted in the background."""
        worker.kill()
        self._workers.discard(worker)
        self.replaced += 1
        task = asyncio.get_running_loop().create_task(self._admit(self._spawn()))
        self._admissions.add(task)
        task.add_done_callback(self._admissions.discard)

    async def run(self, func: Callable[..., Any], args: tuple, *, timeout: float,
                  first_slice: float | None = None, overflow: WorkerPool | None = None) -> Any:
        """Run ``func(*args)`` in a worker and return its result.

        Parameters
        ----------
        func : callable
            A module-level function (it is pickled by name).
        args : tuple
            Picklable arguments.
        timeout : float
            Seconds in all, waiting for a free worker included.
        first_slice : float, optional
            Seconds the job may run in this pool before it moves to ``overflow``,
            which then has what is left of ``timeout``; ignored without ``overflow``,
            or when less than the slice is left once the job has a worker.
        overflow : WorkerPool, optional
            The pool for jobs that outrun their first slice. When one of its workers
            is idle, the two pools trade workers and the job runs on where it is;
            otherwise its worker here is replaced and the job starts again there, with
            the same arguments, so its answer is the one an uninterrupted run gives.

        Raises
        ------
        JobTimeout
            When no worker was free, or the job did not finish, within ``timeout``
            (``busy`` when more than :data:`QUEUE_SHARE` of it went to waiting for a
            worker, a first slice cut short counted as waiting); a job that ran too
            long has its worker replaced.
        JobFailed
            When the job raised an error in the worker, or no worker can start.
        """
        started = time.monotonic()
        if overflow is None or overflow is self:
            first_slice = None
        return await self._run((func, args), started, started + timeout, first_slice=first_slice, overflow=overflow)

    async def _run(self, job: tuple, started: float, deadline: float, *, lost: float = 0.0, restarted: bool = False,
                   first_slice: float | None = None, overflow: WorkerPool | None = None) -> Any:
        """:meth:`run` in this pool. ``started`` and ``deadline`` are the job's own;
        a job started again here after its first slice elsewhere was cut short comes
        ``restarted``, having ``lost`` that slice and its waits."""
        timeout = deadline - started
        if self._idle is None:
            raise JobTimeout("the worker pool is not running")
        if not self._workers:
            raise JobFailed("internal", f"no worker process is running: {self._broken}")
        moved = restarted
        queued = time.monotonic()
        worker = self._idle_now()
        if worker is None:
            try:
                worker = await asyncio.wait_for(self._idle.get(), max(deadline - queued, 0.0))
            except asyncio.TimeoutError:
                raise JobTimeout(f"no worker was free within {timeout:g} s", busy=True, waited=timeout,
                                 moved=moved) from None
        lost += time.monotonic() - queued
        owner = self  # the pool the worker belongs to, which takes it back or replaces it
        answered = restart = False
        try:
            worker.conn.send(job)
            left = max(deadline - time.monotonic(), 0.0)
            if first_slice is not None and first_slice < left:
                ready = await _answered(worker, first_slice)
                if not ready:
                    self.moved += 1
                    moved = True
                    spare = overflow._idle_now()
                    if spare is None:
                        restart = True  # the worker here is replaced below, never left running
                    else:
                        self._trade(worker, spare, overflow)
                        owner = overflow
                        ready = await _answered(worker, max(deadline - time.monotonic(), 0.0))
            else:
                ready = await _answered(worker, left)
            if not restart:
                if not ready:
                    raise _late(timeout, lost, time.monotonic() - started - lost, restarted, moved)
                kind, value = worker.conn.recv()
                answered = True
        except (EOFError, OSError) as exc:
            raise JobFailed("internal", f"the worker process ended unexpectedly ({type(exc).__name__})") from None
        finally:
            if answered:
                owner.completed += 1
                owner._idle.put_nowait(worker)
            else:  # synchronous, so that even a cancelled request cannot lose a worker
                owner._replace(worker)
        if restart:
            # what the cut slice computed is gone with its worker, so that time is lost as a wait is
            return await overflow._run(job, started, deadline, lost=time.monotonic() - started, restarted=True)
        if kind != "ok":
            raise JobFailed(kind, value)
        return value

    def _idle_now(self) -> _Worker | None:
        """An idle worker taken out of the queue, or None when none is idle."""
        if self._idle is None:
            return None
        try:
            return self._idle.get_nowait()
        except asyncio.QueueEmpty:
            return None

    def _trade(self, busy: _Worker, idle: _Worker, other: WorkerPool) -> None:
        """Give ``busy`` (running a job) to ``other`` for its idle worker ``idle``, which
        joins this pool's idle queue: both pools keep their size, and no process starts."""
        self._workers.discard(busy)
        other._workers.add(busy)
        other._workers.discard(idle)
        self._workers.add(idle)
        self._idle.put_nowait(idle)

    async def close(self) -> None:
        """Stop every worker, busy, idle or starting."""
        for worker in list(self._workers):
            worker.stop()
        self._workers.clear()
        await asyncio.gather(*self._admissions, return_exceptions=True)
        self._idle = None
