"""Writing an experiment's results: CSV, Markdown, figures, ``config.json`` and ``run.json``.

A results folder holds two kinds of file. *Deterministic* files depend only on the
code, the seed and the samples, and come out byte for byte the same on every run:
the CSV tables, ``README.md``, ``config.json`` (the experiment, the command that
makes the numbers, seed, samples) and the figures (PNG, and vector PDF for the
paper). *Timing files* hold what a run measured of the machine it ran on, or of how
it was run: ``timings.csv`` (row keys and the timing columns), ``timings.md``,
``timings.png`` and ``timings.pdf``, and ``run.json`` (wall
time, jobs, the command line as typed, Python, platform, package versions, the git
revision and whether anything outside ``results/`` had uncommitted changes, the
date). :func:`is_timing_file` tells them apart; ``mscsp reproduce --check`` compares
the deterministic files only.
"""

from __future__ import annotations

import io
import json
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["markdown_table", "write_results", "provenance", "summary_row", "SUMMARY_COLUMNS", "Timings",
           "split_timings", "is_timing_file", "RUN_FILE"]

#: The tidy columns every summary CSV starts with.
SUMMARY_COLUMNS = [
    "board", "width", "height", "mines", "rule", "click_x", "click_y",
    "solver", "n", "k", "p", "low", "high", "exact",
]

_PACKAGES = ["mscsp", "numpy", "pandas", "matplotlib", "python-sat", "ortools"]

#: How a run was made (wall time, jobs, versions, revision, date): a timing file.
RUN_FILE = "run.json"
#: Every other timing file's name starts with this: timings.csv, timings.md, timings.png.
TIMINGS = "timings"


def is_timing_file(name: str) -> bool:
    """Whether a results file holds measurements of the machine or the run (timings,
    ``run.json``) rather than numbers that depend only on the code and the seed.

    Examples
    --------
    >>> [is_timing_file(n) for n in ("summary.csv", "timings.csv", "timings.png", "run.json", "README.md")]
    [False, True, True, True, False]
    """
    return name == RUN_FILE or name.startswith(TIMINGS)


@dataclass(frozen=True)
class Timings:
    """The machine-dependent part of an experiment's results.

    ``table`` (row keys and timing columns) becomes ``timings.csv``; ``markdown``,
    followed by a line naming the machine, ``timings.md``; ``figure``, if any,
    ``timings.png``.
    """

    table: pd.DataFrame
    markdown: str
    figure: Any = None


def split_timings(df: pd.DataFrame, keys: list[str], columns: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split a table into its deterministic part (without ``columns``) and its
    timings (``keys`` then ``columns``); ``keys`` must name each row once.

    Examples
    --------
    >>> df = pd.DataFrame({"board": ["a", "b"], "k": [1, 2], "ms": [0.5, 0.7]})
    >>> summary, timings = split_timings(df, ["board"], ["ms"])
    >>> list(summary.columns), list(timings.columns)
    (['board', 'k'], ['board', 'ms'])
    """
    if df.duplicated(subset=keys).any():
        raise ValueError(f"the keys {keys} do not name each row once")
    return df.drop(columns=columns), df[keys + columns].copy()


def summary_row(board: str, spec, rule: str, first_click: tuple[int, int] | None, n: int, k: int, *,
                solver: str | None = None, policy: str | None = None, exact: float | None = None,
                **extra) -> dict:
    """One tidy summary row: the board, the proportion ``k/n`` with its
    Wilson 95% interval, and any experiment-specific columns after them.

    Examples
    --------
    >>> from mscsp.board import Spec
    >>> r = summary_row("beginner", Spec(9, 9, 10), "safe", (4, 4), 10, 5, solver="sat")
    >>> r["p"], round(r["low"], 3), list(r)[:8]
    (0.5, 0.237, ['board', 'width', 'height', 'mines', 'rule', 'click_x', 'click_y', 'solver'])
    """
    from ..stats import wilson

    low, high = wilson(k, n)
    row = {"board": board, "width": spec.width, "height": spec.height, "mines": spec.mines, "rule": rule,
           "click_x": first_click[0] if first_click else None, "click_y": first_click[1] if first_click else None}
    if policy is not None:
        row["policy"] = policy
    else:
        row["solver"] = solver
    row.update({"n": n, "k": k, "p": k / n, "low": low, "high": high, "exact": exact})
    row.update(extra)
    return row


def _fmt(value, digits: int) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return ""  # a missing value, also of a nullable integer column
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown_table(df: pd.DataFrame, digits: int = 4, columns: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table (no third-party formatter needed).

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"a": [1], "p": [0.12345]})), end="")
    | a | p |
    | --- | --- |
    | 1 | 0.1235 |
    """
    cols = columns or list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    columns_data = [df[c].tolist() for c in cols]  # per column, so ints stay ints
    for i in range(len(df)):
        lines.append("| " + " | ".join(_fmt(col[i], digits) for col in columns_data) + " |")
    return "\n".join(lines) + "\n"


def _git_revision() -> dict:
    here = Path(__file__).resolve().parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        # the outputs themselves do not make a run dirty: reproduce writes results/
        # folder by folder, and the later experiments would see the earlier ones
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ":(top,exclude)results", ":(top,exclude)results-quick"], cwd=here,
                               capture_output=True, text=True, timeout=10)
        if rev.returncode == 0:
            return {"revision": rev.stdout.strip(), "dirty": bool(dirty.stdout.strip())}
    except (OSError, subprocess.SubprocessError):
        pass
    return {"revision": None, "dirty": None}


def provenance(argv: list[str] | None = None) -> dict:
    """How this run was made: the command line as typed, Python, platform, CPUs,
    package versions, git revision, play loop and date (``run.json``)."""
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    from ..play import fastplay

    return {
        "command_line": " ".join(argv if argv is not None else sys.argv),
        "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": _processor(),
        "cpus": os.cpu_count(),
        "packages": versions,
        "git": _git_revision(),
        # which play loop verifies boards: the compiled one, or the Python reference
        "play_loop": "compiled" if fastplay.available() else "python",
    }


def _processor() -> str:
    """The processor's model name, so that timings can be read with the hardware
    (``/proc/cpuinfo`` on Linux; :func:`platform.processor` elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def _write(path: Path, data: str | bytes) -> None:
    """Write a file whole or not at all (a temporary file, then a rename)."""
    tmp = path.with_name(f".{path.name}.tmp")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    os.replace(tmp, path)


def _png(fig) -> bytes:
    """A figure as PNG bytes that depend only on what it draws: no software version
    in the metadata, so a rerun (or another matplotlib release with the same
    rendering) gives the same bytes."""
    from .figures import bbox_inches

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120, bbox_inches=bbox_inches(fig), metadata={"Software": None})
    return buffer.getvalue()


def _pdf(fig) -> bytes:
    """A figure as vector PDF bytes that depend only on what it draws: no creation
    date and no software version in the metadata, so a rerun gives the same bytes
    (the paper in ``paper/`` includes these). A figure drawn at its printed width
    (:func:`mscsp.experiments.figures.figure`) keeps its size; any other is cropped
    to what it draws."""
    from .figures import bbox_inches

    buffer = io.BytesIO()
    fig.savefig(buffer, format="pdf", bbox_inches=bbox_inches(fig),
                metadata={"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None})
    return buffer.getvalue()


def _figure_files(out: Path, name: str, fig) -> None:
    """A figure twice: ``NAME.png`` for the Markdown, ``NAME.pdf`` for the paper."""
    _write(out / f"{name}.png", _png(fig))
    _write(out / f"{name}.pdf", _pdf(fig))


def _footer(timings: Timings | None) -> str:
    where = ("Timings depend on the machine and its load, so they are kept apart: [`timings.md`](timings.md), "
             "`timings.csv`" + (", `timings.png`" if timings is not None and timings.figure is not None else "")
             + ". " if timings is not None else "")
    return (f"\n---\n\n{where}`run.json` records how this run was made (wall time, jobs, versions, git "
            "revision, date). Every other file here depends only on the code, the seed and the samples; "
            "`mscsp reproduce --check` regenerates and compares them.\n")


def _machine(run: dict) -> str:
    """The line naming the machine under ``timings.md``.

    A resumed run's wall time covers only the chunks its last invocation computed,
    so the line says so instead of passing it off as the whole run's.

    Examples
    --------
    >>> "the run took 12.5 s" in _machine({"wall_seconds": 12.5})
    True
    >>> "the last invocation took 12.5 s" in _machine({"wall_seconds": 12.5, "resume": True})
    True

    A run that plays nothing (one that reads other folders) has no workers nor wall time
    to name:

    >>> line = _machine({"cpus": 2, "platform": "Linux", "python": "3.11.7", "play_loop": "compiled",
    ...                  "jobs": None, "wall_seconds": None, "finished_utc": "2026-12-06T17:00:24+00:00"})
    >>> "None" in line, line.rstrip().endswith("finished 2026-12-06T17:00:24+00:00 (`run.json`).")
    (False, True)
    """
    seconds = run.get("wall_seconds")
    took = ("" if seconds is None else
            f"; the last invocation took {seconds} s, reusing the chunks earlier ones had kept (`--resume`)"
            if run.get("resume") else f"; the run took {seconds} s")
    jobs = "" if run.get("jobs") is None else f" with {run.get('jobs')} worker processes"
    return (f"\nMeasured on {run.get('cpus')} CPUs ({run.get('platform')}, Python {run.get('python')}, "
            f"play loop {run.get('play_loop')}){jobs}, finished {run.get('finished_utc')}{took} (`run.json`).\n")


def write_results(
    out: Path,
    tables: dict[str, pd.DataFrame],
    markdown: str,
    config: dict,
    figures: dict | None = None,
    *,
    run: dict | None = None,
    timings: Timings | None = None,
) -> None:
    """Write the deterministic files — ``NAME.csv`` per table, ``README.md`` (the
    Markdown and a note on where the timings are), ``NAME.png`` and ``NAME.pdf`` per
    figure, ``config.json`` — and the timing files: ``run.json`` and, given
    ``timings``, ``timings.csv``, ``timings.md``, ``timings.png`` and ``timings.pdf``.
    Each file is written whole."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        _write(out / f"{name}.csv", df.to_csv(index=False))
    _write(out / "README.md", markdown.rstrip("\n") + "\n" + _footer(timings))
    for name, fig in (figures or {}).items():
        _figure_files(out, name, fig)
    _write(out / "config.json", json.dumps(config, indent=2, default=str) + "\n")
    if timings is not None:
        _write(out / f"{TIMINGS}.csv", timings.table.to_csv(index=False))
        _write(out / f"{TIMINGS}.md", timings.markdown.rstrip("\n") + "\n" + _machine(run or {}))
        if timings.figure is not None:
            _figure_files(out, TIMINGS, timings.figure)
    _write(out / RUN_FILE, json.dumps(run or {}, indent=2, default=str) + "\n")
