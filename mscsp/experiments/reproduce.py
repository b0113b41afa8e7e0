"""``mscsp reproduce``: every experiment into ``results/``, or ``--check`` it.

Run, each experiment writes its folder as :mod:`mscsp.experiments.output` describes:
deterministic files (tables, ``README.md``, ``config.json``, figures) and timing files
(``run.json``, ``timings.*``), so a rerun on a clean checkout changes timing files
only. With ``check`` the experiments are run into a temporary folder and every
deterministic file is compared with the reference folder (``results/``, or
``results-quick/`` after ``--quick``); nothing in the reference folder is written.
A full run into ``results/`` ends by building the paper (:func:`paper`).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ..errors import InputError
from .check import Difference, compare_folders, deterministic_files

__all__ = ["REPRODUCE", "select", "run", "check", "paper"]

#: What ``mscsp reproduce`` runs: (results folder, experiment module, extra arguments).
REPRODUCE = [
    ("first_click", "first_click", []),
    ("first_click_article", "first_click", ["--rng", "article"]),
    ("completion", "completion", []),
    ("completion_article", "completion", ["--rng", "article"]),
    ("winrate", "winrate", []),
    ("consistency", "consistency", []),
    ("noguess_cost", "noguess_cost", []),
    ("noguess_uniform", "noguess_uniform", []),
    # the peers' boards replayed from the committed file: they need not be installed,
    # and ms_toollib, which takes no seed, cannot draw the same boards twice
    ("noguess_bias", "noguess_bias", ["--peers", "recorded"]),
]


def select(only: list[str] | None) -> list[tuple[str, str, list[str]]]:
    """The experiments to run, in table order; an unknown name is bad input."""
    unknown = set(only or ()) - {r[0] for r in REPRODUCE}
    if unknown:
        raise InputError(f"unknown experiment {sorted(unknown)[0]!r}; choose from {', '.join(r[0] for r in REPRODUCE)}")
    return [r for r in REPRODUCE if not only or r[0] in only]


def run(out: str, selected, *, jobs: int, quick: bool = False, resume: bool = False, seed: int | None = None,
        quiet_stdout: bool = False) -> int:
    """Run the ``selected`` experiments into ``out/FOLDER``; the first nonzero
    status stops the run. ``quiet_stdout`` drops the tables they print."""
    for folder, module, extra in selected:
        started = time.perf_counter()
        sys.stderr.write(f"== {folder}\n")
        main_fn = importlib.import_module(f"mscsp.experiments.{module}").main
        argv = [*extra, "--out", f"{out}/{folder}", "--jobs", str(jobs)]
        if quick:
            argv.append("--quick")
        if resume:
            argv.append("--resume")
        if seed is not None:
            argv += ["--seed", str(seed)]
        with contextlib.redirect_stdout(io.StringIO()) if quiet_stdout else contextlib.nullcontext():
            status = main_fn(argv)
        if status:
            return status
        sys.stderr.write(f"== {folder}: {time.perf_counter() - started:.1f} s, written to {out}/{folder}\n")
    return 0


def paper(out: str) -> int:
    """The last step of ``mscsp reproduce`` into ``results/`` from the top of the
    repository: ``mscsp paper`` on the results just written, where LaTeX is installed
    (without it, one line says so and the run still succeeds)."""
    from . import paper as write_up

    if Path(out).resolve() != Path("results").resolve() or not (write_up.PAPER / "mscsp.tex").is_file():
        return 0
    sys.stderr.write("== paper\n")
    written = write_up.write_generated(results=Path(out))
    try:
        pdf = write_up.build_pdf()
    except write_up.TexMissing as exc:
        sys.stderr.write(f"== paper: {len(written)} files written to paper/generated/; no PDF: {exc}\n")
        return 0
    from .layout import warnings

    for line in warnings(pdf, write_up.PAPER / "build" / "mscsp.aux"):
        sys.stderr.write(f"== paper: warning: {line}\n")
    sys.stderr.write(f"== paper: written to {pdf}\n")
    return 0


def check(reference: str, selected, *, jobs: int, quick: bool = False, seed: int | None = None,
          stream=None) -> int:
    """Regenerate the ``selected`` experiments in a temporary folder and compare
    their deterministic files with ``reference/FOLDER``; print every difference to
    ``stream`` (standard output). Returns 0 when all match, 1 otherwise (the
    regenerated files are then kept, and their folder named)."""
    stream = stream or sys.stdout
    reference = reference.rstrip("/") or "/"
    missing = [f for f, _, _ in selected if not (Path(reference) / f).is_dir()]
    if missing:
        again = "mscsp reproduce" + (" --quick" if quick else "") + (f" --out {reference}" if reference not in
                                                                    ("results", "results-quick") else "")
        raise InputError(f"{reference}/{missing[0]}: nothing to compare with (no such folder); "
                         f"run `{again}` first to make the reference")
    scratch = Path(tempfile.mkdtemp(prefix="mscsp-check-"))
    keep = False
    try:
        status = run(str(scratch), selected, jobs=jobs, quick=quick, seed=seed, quiet_stdout=True)
        if status:
            return status
        differences: list[Difference] = []
        files = 0
        for folder, _, _ in selected:
            label = f"{reference}/{folder}/"
            found = compare_folders(Path(reference) / folder, scratch / folder, label)
            files += len(deterministic_files(Path(reference) / folder))
            sys.stderr.write(f"== {folder}: " + (f"{len(found)} differences\n" if found else "matches\n"))
            differences += found
        if not differences:
            stream.write(f"mscsp reproduce --check: all {files} deterministic files in {len(selected)} "
                         f"folder{'s' * (len(selected) != 1)} of {reference}/ match the regenerated ones "
                         "(timing files, not compared: run.json, timings.*)\n")
            return 0
        keep = True
        stream.write(f"mscsp reproduce --check: {len(differences)} difference{'s' * (len(differences) != 1)} "
                     f"in the deterministic files of {reference}/:\n")
        for d in differences:
            stream.write("  " + d.describe(f"{reference}/") + "\n")
        stream.write(f"The regenerated files are kept in {scratch}\n")
        return 1
    finally:
        if not keep:
            shutil.rmtree(scratch, ignore_errors=True)
