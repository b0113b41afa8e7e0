"""The command line shared by every experiment script (README, "Results").

``python experiments/NAME.py --samples N --seed S --jobs J --out DIR`` with, besides,
``--quick`` (a small run for tests and smoke checks), ``--resume`` (reuse finished
chunks of an interrupted run), ``--dask ADDRESS`` (run chunks on a Dask cluster),
``--rng numpy|article`` where the article's own random stream can be replayed, and
``--quiet`` (no progress line).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
import sys
import time
from pathlib import Path

import pandas as pd

from ..errors import InputError
from ..formats.text import natural
from .output import Timings, provenance, write_results
from .runner import Chunk, Unit, run_chunks

__all__ = ["experiment_parser", "run_units", "finish", "command"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive(text: str) -> int:
    try:
        value = natural(text, "the value")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        return natural(text, "a seed")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def experiment_parser(name: str, doc: str | None, *, samples: int, seed: int, quick: int | None = None,
                      article: bool = False) -> argparse.ArgumentParser:
    """The shared options; ``--samples`` defaults to ``samples`` (``quick`` with --quick)."""
    parser = _Parser(prog=f"experiments/{name}.py", description=(doc or "").strip().splitlines()[0],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=_positive, default=None,
                        help=f"samples per table row (default: {samples}; with --quick: {quick or max(1, samples // 100)})")
    parser.add_argument("--seed", type=_seed, default=seed, help=f"random seed (default: {seed})")
    parser.add_argument("--jobs", type=_positive, default=1, help="local worker processes (default: 1)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run chunks on a Dask scheduler, e.g. tcp://host:8786")
    parser.add_argument("--out", default=f"results/{name}", help=f"output folder (default: results/{name})")
    parser.add_argument("--resume", action="store_true", help="reuse chunks an interrupted run already finished")
    parser.add_argument("--quick", action="store_true", help="a small run, for tests and smoke checks")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    if article:
        parser.add_argument("--rng", choices=["numpy", "article"], default="numpy",
                            help="numpy: per-sample SeedSequence streams; article: replay the article's random stream")
    parser.set_defaults(_default_samples=samples, _quick_samples=quick or max(1, samples // 100), rng="numpy")
    _parse = parser.parse_args

    def parse(args=None, namespace=None):
        ns = _parse(args, namespace)
        if ns.samples is None:
            ns.samples = ns._quick_samples if ns.quick else ns._default_samples
        ns.argv = list(sys.argv[1:] if args is None else args)
        return ns

    parser.parse_args = parse  # type: ignore[method-assign]
    return parser


def run_units(name: str, units: list[Unit], work: Callable[[Chunk], dict], args: argparse.Namespace,
              chunk_size: int, unit: str) -> list[list[dict]]:
    """:func:`~mscsp.experiments.runner.run_chunks` as the parsed options say: the
    seed, local jobs or a Dask cluster, ``--resume`` (finished chunks are kept under
    ``OUT/.chunks``) and the progress bar, counting ``unit``s, unless ``--quiet``."""
    return run_chunks(name, units, work, seed=args.seed, chunk_size=chunk_size, jobs=args.jobs, dask=args.dask,
                      cache=Path(args.out) / ".chunks", resume=args.resume, progress=not args.quiet, unit=unit)


def command(name: str, args: argparse.Namespace) -> str:
    """The command that makes these numbers: only the options that change them, in
    a fixed order (not ``--out``, ``--jobs``, ``--dask``, ``--resume``, ``--quiet``).
    An experiment adds its own such options as ``(flag, dest)`` pairs in the
    parser default ``_numbers_depend_on``.

    Examples
    --------
    >>> args = experiment_parser("winrate", "Win rates.", samples=2000, seed=42).parse_args(["--jobs", "2"])
    >>> command("winrate", args)
    'python experiments/winrate.py --samples 2000 --seed 42'
    """
    words = [f"python experiments/{name}.py"]
    if args.rng != "numpy":
        words += ["--rng", args.rng]
    if args.quick:
        words.append("--quick")
    words += ["--samples", str(args.samples), "--seed", str(args.seed)]
    for flag, dest in getattr(args, "_numbers_depend_on", ()):  # an experiment's own options
        words += [flag, str(getattr(args, dest))]
    return " ".join(words)


def finish(out: Path, name: str, args: argparse.Namespace, tables: dict[str, pd.DataFrame], markdown: str,
           started: float, figures: dict | None = None, extra: dict | None = None,
           timings: Timings | None = None) -> None:
    """Write the results folder: the deterministic ``config.json`` (what the numbers
    depend on; ``extra`` adds to it) and ``run.json`` (how this run was made)."""
    config = {
        "experiment": name,
        "command": command(name, args),
        "seed": args.seed,
        "samples": args.samples,
        "quick": args.quick,
        "rng": args.rng,
        **(extra or {}),
    }
    run = {
        "experiment": name,
        "jobs": args.jobs,
        "dask": args.dask,
        "resume": args.resume,
        "wall_seconds": round(time.perf_counter() - started, 3),
        **provenance([f"python experiments/{name}.py", *args.argv]),
    }
    write_results(Path(out), tables, markdown, config, figures, run=run, timings=timings)
    drawn = [*(figures or {}).values(), *([timings.figure] if timings is not None and timings.figure is not None else [])]
    if drawn:
        import matplotlib.pyplot as plt

        for fig in drawn:
            plt.close(fig)
