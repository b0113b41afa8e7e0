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
flight. The cache is keyed by a fingerprint of the experiment's name, seed, units
and chunk size, so a changed run never reads stale chunks.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["Unit", "Chunk", "run_chunks", "sample_seeds", "block_seed", "Progress", "BLOCK"]

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
        return f"u{self.unit:03d}-c{self.index:05d}"


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


class Progress:
    """A progress line on standard error: chunks, samples per second, ETA."""

    def __init__(self, label: str, total_samples: int, stream=None, enabled: bool = True):
        self.label = label
        self.total = total_samples
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.started = time.perf_counter()
        self.last = 0.0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def advance(self, samples: int, force: bool = False) -> None:
        self.done += samples
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < (0.5 if self.tty else 10.0) and self.done < self.total:
            return
        self.last = now
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        pct = 100 * self.done / self.total if self.total else 100.0
        line = (f"{self.label}: {self.done}/{self.total} samples ({pct:5.1f}%), "
                f"{rate:,.0f}/s, ETA {eta:,.0f} s" if eta != float("inf") else
                f"{self.label}: {self.done}/{self.total} samples ({pct:5.1f}%)")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _fingerprint(experiment: str, units: list[Unit], seed: int, chunk_size: int, version: str) -> str:
    blob = json.dumps(
        {"e": experiment, "seed": seed, "chunk": chunk_size, "v": version,
         "units": [(u.key, u.samples, u.params) for u in units]},
        sort_keys=True, default=str,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _save(path: Path, result: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, path)


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
    """
    chunks = make_chunks(experiment, units, seed, chunk_size)
    results: dict[tuple[int, int], dict] = {}
    folder = None
    if cache is not None:
        folder = Path(cache) / experiment / _fingerprint(experiment, units, seed, chunk_size, version)
        folder.mkdir(parents=True, exist_ok=True)
        if resume:
            for ch in chunks:
                f = folder / f"{ch.name}.json"
                if f.exists():
                    results[(ch.unit, ch.index)] = json.loads(f.read_text())
    todo = [ch for ch in chunks if (ch.unit, ch.index) not in results]
    bar = Progress(experiment, sum(ch.stop - ch.start for ch in todo), enabled=progress)

    def finish(ch: Chunk, res: dict) -> None:
        results[(ch.unit, ch.index)] = res
        if folder is not None:
            _save(folder / f"{ch.name}.json", res)
        bar.advance(ch.stop - ch.start)

    if dask:
        from dask.distributed import Client, as_completed

        with Client(dask) as client:
            futures = {client.submit(work, ch, pure=False): ch for ch in todo}
            for fut in as_completed(futures):
                finish(futures[fut], fut.result())
    elif jobs > 1 and len(todo) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending = {}
            queue = list(todo)
            while queue or pending:
                while queue and len(pending) < 2 * jobs:
                    ch = queue.pop(0)
                    pending[pool.submit(work, ch)] = ch
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    finish(pending.pop(fut), fut.result())
    else:
        for ch in todo:
            finish(ch, work(ch))
    if todo:
        bar.advance(0, force=True)
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
