"""Running experiments: seeded chunks, local processes or Dask, resumable, with progress.

An experiment is a list of *units* (one row of a table: a board size, rule, click,
solver...) each with a number of samples. Units are cut into chunks of a fixed size
— a property of the experiment, never of ``--jobs`` — and sample ``i`` of unit ``u``
draws its randomness from ``SeedSequence(seed, spawn_key=(u, i))`` (the same as
``SeedSequence(seed).spawn(...)[u].spawn(...)[i]``), so a table does not depend on
how many processes computed it, nor in which order. Vectorised experiments seed a
whole chunk with ``spawn_key=(u, BLOCK, c)`` instead; chunk sizes are fixed, so the
same holds.

Finished chunks are written to ``OUT/.chunks/`` as they complete (atomically); with
``resume=True`` a rerun skips them, so an interrupted run loses at most the chunks in
flight. The cache folder is keyed by a fingerprint of the experiment's name, seed and
chunk size, and a chunk is named by its unit (its place in the list and a
fingerprint of its parameters) and its samples, so a changed run never reads stale
chunks, while

- a rerun with more samples and ``resume`` computes only the samples the shorter run
  did not (the same samples give the same results whatever the run's length);
- a unit added at the end of the list, or one whose parameters changed, is the only
  one computed again.

Chunks run in a fixed shuffled order, so the progress bar's average rate, and with
it the ETA, is measured on a fair sample of the work (:func:`progress_bar`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np
import tqdm.std as tqdm_std
from tqdm import tqdm

__all__ = ["Unit", "Chunk", "run_chunks", "sample_seeds", "block_seed", "progress_bar", "BLOCK"]

#: Spawn-key marker for per-chunk (vectorised) seeds, apart from per-sample keys.
BLOCK = 1_000_000_007


@dataclass(frozen=True)
class Unit:
    """One measured row: a stable key, its parameters and how many samples."""

    key: str
    params: dict
    samples: int


@dataclass(frozen=True)
class Chunk:
    """Samples ``start..stop`` of unit number ``unit`` (for one worker call)."""

    experiment: str
    unit: int
    index: int
    start: int
    stop: int
    seed: int
    params: dict = field(hash=False, compare=False)

    @property
    def name(self) -> str:
        """The chunk's file name: its unit (place and parameters) and its samples, so a
        longer run of the same units (more samples), or one with more units, finds and
        reuses the chunks of a shorter one."""
        blob = json.dumps(self.params, sort_keys=True, default=str)
        return f"u{self.unit:03d}-{hashlib.sha256(blob.encode()).hexdigest()[:12]}-{self.start:08d}-{self.stop:08d}"


def sample_seeds(chunk: Chunk) -> list[np.random.SeedSequence]:
    """One SeedSequence per sample of the chunk: ``spawn_key=(unit, sample)``."""
    return [np.random.SeedSequence(chunk.seed, spawn_key=(chunk.unit, i)) for i in range(chunk.start, chunk.stop)]


def block_seed(chunk: Chunk) -> np.random.SeedSequence:
    """One SeedSequence for a whole (vectorised) chunk."""
    return np.random.SeedSequence(chunk.seed, spawn_key=(chunk.unit, BLOCK, chunk.index))


def make_chunks(experiment: str, units: list[Unit], seed: int, chunk_size: int) -> list[Chunk]:
    chunks = []
    for u, unit in enumerate(units):
        for c, start in enumerate(range(0, unit.samples, chunk_size)):
            chunks.append(Chunk(experiment, u, c, start, min(start + chunk_size, unit.samples), seed, unit.params))
    return chunks


class _Lines:
    """Where the progress bar writes when standard error is not a terminal (a log, CI):
    plain lines instead of carriage-return overwrites, at most one every ``every``
    seconds of tqdm's clock, and always the last state when the bar closes.

    tqdm alone cannot promise the spacing: its monitor thread refreshes a quiet bar
    without restarting the interval, so an update just after prints again."""

    def __init__(self, stream, every: float):
        self.stream = stream
        self.every = every
        self.last = -math.inf
        self.pending: str | None = None

    def write(self, text: str) -> None:
        line = text.replace("\r", "").rstrip()  # tqdm pads a refresh with spaces
        if line:
            now = tqdm_std.time()
            if now - self.last >= self.every:
                self._emit(line)
                self.last = now
            else:
                self.pending = line
        elif "\n" in text and self.pending is not None:  # the bar closed: say where it ended
            self._emit(self.pending)

    def _emit(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.pending = None

    def flush(self) -> None:
        self.stream.flush()


class _Bar(tqdm):
    """tqdm with counts and speed written for people: ``900,000/1,800,000 boards``,
    ``390,000 boards/s``, or ``2.9 s/formula`` once a sample takes over a second."""

    singular = "sample"

    @property
    def format_dict(self):
        d = super().format_dict
        done, elapsed = d["n"] - (d.get("initial") or 0), d["elapsed"]
        d["counts"] = f"{d['n']:,}/{d['total']:,} {d['unit']}"
        if not done or not elapsed:
            d["speed"] = f"? {d['unit']}/s"
        elif done >= elapsed:
            rate = done / elapsed
            d["speed"] = f"{rate:,.0f} {d['unit']}/s" if rate >= 10 else f"{rate:.1f} {d['unit']}/s"
        else:
            d["speed"] = f"{elapsed / done:.1f} s/{self.singular}"
        return d


def progress_bar(label: str, total: int, unit: str = "sample", *, enabled: bool = True, stream=None) -> tqdm:
    """A progress bar on standard error (or ``stream``) counting units of ``unit`` (singular).

    The rate is the average since the start (``smoothing=0``): :func:`run_chunks` does
    the work in a shuffled order, so the work done so far is a fair sample of all of it
    and remaining / average rate is an honest ETA. On a terminal the bar redraws in
    place; elsewhere (a log file, CI) it writes one line at the start, one every 30
    seconds and one at the end.

    Examples
    --------
    >>> import io
    >>> log = io.StringIO()
    >>> with progress_bar("demo", 4, "board", stream=log) as bar:
    ...     bar.update(4)
    >>> log.getvalue().splitlines()[-1].startswith("demo: 100% 4/4 boards [")
    True
    """
    stream = stream or sys.stderr
    tty = hasattr(stream, "isatty") and stream.isatty()
    counts = "{counts} [{elapsed}<{remaining}, {speed}]"
    every = 0.5 if tty else 30.0
    bar = _Bar(total=total, desc=label, unit=unit + "s", smoothing=0, disable=not enabled,
               file=stream if tty else _Lines(stream, every), mininterval=every, maxinterval=max(every, 10.0),
               bar_format="{desc}: {percentage:3.0f}%" + ("|{bar}| " if tty else " ") + counts,
               dynamic_ncols=tty)
    bar.singular = unit
    return bar


def _fingerprint(experiment: str, seed: int, chunk_size: int, version: str) -> str:
    # not the units: each chunk's name carries its unit's parameters (see Chunk.name)
    blob = json.dumps({"e": experiment, "seed": seed, "chunk": chunk_size, "v": version}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _save(path: Path, result: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, path)


def _execute(todo: list[Chunk], work: Callable[[Chunk], dict], finish: Callable[[Chunk, dict], None],
             jobs: int, dask: str | None) -> None:
    """Run ``work`` on every chunk (here, in local processes or on Dask), calling
    ``finish`` with each result as it arrives."""
    if dask:
        from dask.distributed import Client, as_completed

        with Client(dask) as client:
            futures = {client.submit(work, ch, pure=False): ch for ch in todo}
            for fut in as_completed(futures):
                finish(futures[fut], fut.result())
    elif jobs > 1 and len(todo) > 1:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_leave_interrupts_to_the_parent)
        try:
            pending = {}
            queue = list(todo)
            while queue or pending:
                while queue and len(pending) < 2 * jobs:
                    ch = queue.pop(0)
                    pending[pool.submit(work, ch)] = ch
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    finish(pending.pop(fut), fut.result())
        except BaseException:
            # Ctrl-C, SIGTERM or a failed chunk: a plain shutdown would wait for the
            # chunks in flight (minutes); the finished ones are saved already
            _stop_workers(pool)
            raise
        pool.shutdown()
    else:
        for ch in todo:
            finish(ch, work(ch))


def _leave_interrupts_to_the_parent() -> None:
    """In each worker: ignore Ctrl-C, which a terminal sends to the whole process
    group, and die at once of SIGTERM whatever handler the parent had when it forked;
    the parent stops the workers itself (:func:`_stop_workers`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now, not after their current chunks."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    # the executor's own table of its processes: there is no public one before 3.14
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)


def run_chunks(
    experiment: str,
    units: list[Unit],
    work: Callable[[Chunk], dict],
    *,
    seed: int,
    chunk_size: int,
    jobs: int = 1,
    dask: str | None = None,
    cache: Path | None = None,
    resume: bool = False,
    progress: bool = True,
    unit: str = "sample",
    version: str = "1",
) -> list[list[dict]]:
    """Run every chunk of every unit; return, per unit, its chunk results in order.

    Parameters
    ----------
    work : callable
        A module-level function ``Chunk -> dict`` (picklable, JSON-serialisable
        result). It must draw randomness only from :func:`sample_seeds` or
        :func:`block_seed`.
    jobs : int
        Local worker processes (1: in this process).
    dask : str, optional
        Address of a Dask distributed scheduler (``tcp://HOST:PORT``); chunks are
        then submitted there instead of to local processes.
    cache : Path, optional
        Folder for finished chunks; required for ``resume``.
    progress, unit : bool, str
        Whether to show a progress bar on standard error (:func:`progress_bar`), and
        what it counts (singular: ``"board"``, ``"game"``).
    """
    chunks = make_chunks(experiment, units, seed, chunk_size)
    results: dict[tuple[int, int], dict] = {}
    folder = None
    if cache is not None:
        folder = Path(cache) / experiment / _fingerprint(experiment, seed, chunk_size, version)
        folder.mkdir(parents=True, exist_ok=True)
        if resume:
            for ch in chunks:
                f = folder / f"{ch.name}.json"
                if f.exists():
                    results[(ch.unit, ch.index)] = json.loads(f.read_text())
    # A fixed shuffle: units differ a lot in cost (Beginner against Expert, 10 against
    # 50 variables), so in table order the first minutes would say nothing of the
    # rest; shuffled, the work done so far is a fair sample and the ETA honest.
    # Results are keyed by (unit, chunk), so the order changes no number.
    order = np.random.default_rng(len(chunks)).permutation(len(chunks))
    todo = [chunks[i] for i in order if (chunks[i].unit, chunks[i].index) not in results]
    with progress_bar(experiment, sum(ch.stop - ch.start for ch in todo), unit, enabled=progress and bool(todo)) as bar:

        def finish(ch: Chunk, res: dict) -> None:
            results[(ch.unit, ch.index)] = res
            if folder is not None:
                _save(folder / f"{ch.name}.json", res)
            bar.update(ch.stop - ch.start)

        _execute(todo, work, finish, jobs, dask)
    out: list[list[dict]] = [[] for _ in units]
    for ch in chunks:
        out[ch.unit].append(results[(ch.unit, ch.index)])
    return out


def merge_counts(parts: Iterable[dict]) -> dict:
    """Sum chunk results key by key (ints and floats add; lists add element-wise)."""
    total: dict = {}
    for part in parts:
        for k, v in part.items():
            if isinstance(v, list):
                cur = total.get(k)
                total[k] = list(v) if cur is None else [a + b for a, b in zip(cur, v)]
            else:
                total[k] = total.get(k, 0) + v
    return total
