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
    may be quick. ``waited`` is the seconds it spent waiting.
    """

    def __init__(self, message: str, busy: bool = False, waited: float = 0.0):
        super().__init__(message)
        self.busy = busy
        self.waited = waited


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
        task = asyncio.get_running_loop().create_task(self._admit(self._spawn()))
        self._admissions.add(task)
        task.add_done_callback(self._admissions.discard)

    async def run(self, func: Callable[..., Any], args: tuple, *, timeout: float) -> Any:
        """Run ``func(*args)`` in a worker and return its result.

        Parameters
        ----------
        func : callable
            A module-level function (it is pickled by name).
        args : tuple
            Picklable arguments.
        timeout : float
            Seconds in all, waiting for a free worker included.

        Raises
        ------
        JobTimeout
            When no worker was free, or the job did not finish, within ``timeout``
            (``busy`` when more than :data:`QUEUE_SHARE` of it went to waiting for a
            worker); a job that ran too long has its worker replaced.
        JobFailed
            When the job raised an error in the worker, or no worker can start.
        """
        if self._idle is None:
            raise JobTimeout("the worker pool is not running")
        if not self._workers:
            raise JobFailed("internal", f"no worker process is running: {self._broken}")
        started = time.monotonic()
        deadline = started + timeout
        try:
            worker = await asyncio.wait_for(self._idle.get(), timeout)
        except asyncio.TimeoutError:
            raise JobTimeout(f"no worker was free within {timeout:g} s", busy=True, waited=timeout) from None
        waited = time.monotonic() - started
        answered = False
        try:
            worker.conn.send((func, args))
            left = max(deadline - time.monotonic(), 0.0)
            # abandoned when the request is cancelled (its client went away): the
            # worker is then replaced below, which stops the job
            ready = await anyio.to_thread.run_sync(worker.conn.poll, left, abandon_on_cancel=True)
            if not ready and waited > QUEUE_SHARE * timeout:
                # the job may be quick: it was the queue that took the time
                raise JobTimeout(f"the job waited {waited:.1f} s for a free worker and was stopped {left:.1f} s after "
                                 f"it started, at the {timeout:g} s limit", busy=True, waited=waited)
            if not ready:
                raise JobTimeout(f"the job took longer than {timeout:g} s and was stopped", waited=waited)
            kind, value = worker.conn.recv()
            answered = True
        except (EOFError, OSError) as exc:
            raise JobFailed("internal", f"the worker process ended unexpectedly ({type(exc).__name__})") from None
        finally:
            if answered:
                self._idle.put_nowait(worker)
            else:  # synchronous, so that even a cancelled request cannot lose a worker
                self._replace(worker)
        if kind != "ok":
            raise JobFailed(kind, value)
        return value

    async def close(self) -> None:
        """Stop every worker, busy, idle or starting."""
        for worker in list(self._workers):
            worker.stop()
        self._workers.clear()
        await asyncio.gather(*self._admissions, return_exceptions=True)
        self._idle = None
