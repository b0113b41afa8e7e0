"""The uniform no-guess chain's steps: compiled against the Python steps, same boards.

For each row (30x16 boards by default, rule ``opening`` at the centre [15,8], the
complete solver with the mine total) this makes ``--boards`` boards with
:func:`mscsp.play.noguess.generate_no_guess` and ``method="uniform"`` twice in one
process, from the same seed: once with the chain's steps made by
:meth:`mscsp.play.chain.NoGuessChain.step` alone (the Python loop around the compiled
verifier), once by the compiled chain loop (``_fastplay.chain``), which reads the same
random words and must end on the same board (checked). Each board is made
``--repeat`` times in each mode, in turn, and keeps its least thread CPU time (the
machine is shared: CPU time and repeats steady the medians). Prints each mode's median
and p90 milliseconds a board, the chain's median steps, and the ratio of medians.

    python benchmarks/chain.py --boards 20 --seed 2026
    python benchmarks/chain.py --rows 30x16/170 --boards 10 --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from mscsp.board import Spec
from mscsp.play.chain import NoGuessChain
from mscsp.play.noguess import generate_no_guess

sys.path.insert(0, str(Path(__file__).resolve().parent))

from uniform import _p90, _row  # noqa: E402  (the same rows and p90 as benchmarks/uniform.py)

DEFAULT_ROWS = "30x16/130,30x16/170"


def _board(spec: Spec, child: np.random.SeedSequence, compiled: bool):
    """One uniform board and the thread CPU seconds it took, by the chosen steps."""
    click = (spec.width // 2, spec.height // 2)
    saved = NoGuessChain._compiled
    if not compiled:
        NoGuessChain._compiled = lambda self: False
    try:
        started = time.thread_time()
        board = generate_no_guess(spec, "opening", click, np.random.default_rng(child), method="uniform",
                                  time_limit=600.0)
        return board, time.thread_time() - started
    finally:
        NoGuessChain._compiled = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=DEFAULT_ROWS, help=f"comma-separated WxH/M (default {DEFAULT_ROWS})")
    parser.add_argument("--boards", type=int, default=20, help="boards a row")
    parser.add_argument("--repeat", type=int, default=1, help="times each board is made in each mode")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        rows = [_row(t) for t in args.rows.split(",") if t.strip()]
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if args.boards < 1 or args.repeat < 1:
        parser.error("need --boards >= 1 and --repeat >= 1")
    print(f"Uniform no-guess boards, rule 'opening' at the centre, complete solver with the mine total, "
          f"seed {args.seed}; least thread CPU of {args.repeat}")
    print(f"{'row':11s} {'steps by':9s} {'boards':>6s} {'median ms':>10s} {'p90 ms':>9s} {'ratio':>6s}  notes")
    for spec in rows:
        seeds = np.random.SeedSequence([args.seed, spec.width, spec.height, spec.mines]).spawn(args.boards)
        times = {False: [], True: []}
        steps = []
        for child in seeds:
            best, boards = {False: float("inf"), True: float("inf")}, {}
            for _ in range(args.repeat):
                for compiled in (False, True):
                    board, seconds = _board(spec, child, compiled)
                    best[compiled] = min(best[compiled], seconds)
                    boards[compiled] = board
            if boards[False].layout != boards[True].layout or boards[False].steps != boards[True].steps:
                print(f"the two modes made different boards from seed {child.entropy}, {child.spawn_key}",
                      file=sys.stderr)
                return 1
            for compiled in (False, True):
                times[compiled].append(best[compiled])
            steps.append(boards[True].steps)
        name = f"{spec.width}x{spec.height}/{spec.mines}"
        base = 1000 * statistics.median(times[False])
        chained = [s for s in steps if s]
        note = f"median {statistics.median(chained):,.0f} chain steps" if chained else "all by retry"
        for compiled, label in ((False, "python"), (True, "compiled")):
            ms = 1000 * statistics.median(times[compiled])
            print(f"{name:11s} {label:9s} {len(times[compiled]):6d} {ms:10.1f} {1000 * _p90(times[compiled]):9.1f} "
                  f"{base / ms:6.2f}  {note}; same boards", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
