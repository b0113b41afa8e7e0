"""Uniform no-guess boards: what one costs, alone and in bulk, beside retry and perturb.

For each row (30x16 boards by default, rule ``opening`` at the centre [15,8], the
complete solver with the mine total) this times, in one process:

- ``uniform``: :func:`mscsp.play.noguess.generate_no_guess` with ``method="uniform"``
  (retry for 100 draws, then the chain of :mod:`mscsp.play.chain`), one board a call,
  ``--boards`` boards: median and p90 seconds, how many came from the chain, its
  median steps;
- ``bulk``: :func:`mscsp.play.noguess.sample_no_guess`, ``--bulk`` boards from four
  chains: seconds per board and per effective board (the smallest effective sample size
  of the edge mine count, 3BV and the click's opening), and the worst split R-hat;
- the baselines, one board a call: ``perturb`` (not uniform), and ``retry`` (exactly
  uniform) on rows where it is given time (``--retry-limit`` seconds a board; a row where
  the first board fails is not run further).

The ratio column is each generator's median over perturb's. Boards are seeded from
``SeedSequence([seed, width, height, mines])`` spawned once per board, the same child
for every method.

    python benchmarks/uniform.py --seed 2026
    python benchmarks/uniform.py --rows 30x16/99 --boards 5 --bulk 16    # seconds
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from mscsp.board import Spec
from mscsp.errors import GenerationError
from mscsp.play.noguess import generate_no_guess, sample_no_guess

DEFAULT_ROWS = "30x16/99,30x16/130,30x16/170"


def _row(text: str) -> Spec:
    size, _, mines = text.partition("/")
    width, _, height = size.partition("x")
    try:
        return Spec(int(width), int(height), int(mines))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a row is WxH/M, not {text!r}") from None


def _time(spec: Spec, method: str, seeds, limit: float, **options) -> tuple[list[float], list]:
    click = (spec.width // 2, spec.height // 2)
    seconds, boards = [], []
    for child in seeds:
        started = time.perf_counter()
        try:
            board = generate_no_guess(spec, "opening", click, np.random.default_rng(child), method=method,
                                      time_limit=limit, **options)
        except GenerationError:
            if not boards:
                break
            continue
        seconds.append(time.perf_counter() - started)
        boards.append(board)
    return seconds, boards


def _p90(values: list[float]) -> float:
    return sorted(values)[max(0, int(0.9 * len(values)) - 1)] if values else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=DEFAULT_ROWS, help=f"comma-separated WxH/M (default {DEFAULT_ROWS})")
    parser.add_argument("--boards", type=int, default=20, help="boards a row for each one-board generator")
    parser.add_argument("--bulk", type=int, default=200, help="boards of the bulk sample a row (0: none)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--retry-limit", type=float, default=5.0, help="seconds a retry board may take")
    args = parser.parse_args(argv)
    try:
        rows = [_row(t) for t in args.rows.split(",") if t.strip()]
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if args.boards < 1 or args.bulk < 0 or (args.bulk and args.bulk < 16):
        parser.error("need --boards >= 1 and --bulk 0 or at least 16")
    print(f"Uniform no-guess boards, rule 'opening' at the centre, complete solver with the mine total, "
          f"seed {args.seed}")
    print(f"{'row':11s} {'generator':9s} {'boards':>6s} {'median ms':>10s} {'p90 ms':>9s} {'ratio':>6s}  notes")
    for spec in rows:
        seeds = np.random.SeedSequence([args.seed, spec.width, spec.height, spec.mines]).spawn(args.boards)
        base, _ = _time(spec, "perturb", seeds, 60.0)
        base_ms = 1000 * statistics.median(base)
        name = f"{spec.width}x{spec.height}/{spec.mines}"
        print(f"{name:11s} {'perturb':9s} {len(base):6d} {base_ms:10.1f} {1000 * _p90(base):9.1f} {1.0:6.2f}  "
              "not uniform", flush=True)
        seconds, boards = _time(spec, "uniform", seeds, 120.0)
        chained = [b.steps for b in boards if b.steps]
        note = (f"{len(chained)} from the chain, median {statistics.median(chained):,.0f} steps" if chained
                else "all by retry")
        ms = 1000 * statistics.median(seconds)
        print(f"{name:11s} {'uniform':9s} {len(seconds):6d} {ms:10.1f} {1000 * _p90(seconds):9.1f} "
              f"{ms / base_ms:6.2f}  {note}", flush=True)
        retry, _ = _time(spec, "retry", seeds, args.retry_limit)
        if retry:
            ms = 1000 * statistics.median(retry)
            print(f"{name:11s} {'retry':9s} {len(retry):6d} {ms:10.1f} {1000 * _p90(retry):9.1f} "
                  f"{ms / base_ms:6.2f}  exact", flush=True)
        else:
            print(f"{name:11s} {'retry':9s} {0:6d} {'-':>10s} {'-':>9s} {'-':>6s}  none within {args.retry_limit:g} s")
        if args.bulk:
            sample = sample_no_guess(spec, "opening", (spec.width // 2, spec.height // 2), args.bulk,
                                     np.random.SeedSequence([args.seed, spec.width, spec.height, spec.mines, 1]))
            ess = min(sample.effective.values())
            per = 1000 * sample.seconds / len(sample.boards)
            print(f"{name:11s} {'bulk':9s} {len(sample.boards):6d} {per:10.1f} {'':>9s} {per / base_ms:6.2f}  "
                  f"per board; {1000 * sample.seconds / ess:,.1f} ms per effective board (ESS {ess:.0f}); "
                  f"R-hat <= {max(sample.rhat.values()):.3f}; burn-in {statistics.median(sample.burn_in):,.0f}, "
                  f"thin {statistics.median(sample.thin):,.0f} steps", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
