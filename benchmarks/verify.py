"""Full no-guess verification of random Expert boards: mscsp against ms_toollib.

For each board (30x16, 99 mines, opening rule at the centre [15,8]) both engines
decide in the same process whether it can be finished without a guess from the
click:

- ``mscsp.verify`` with the complete SAT solver and the mine total, and again without
  the total (to compare like with like), and in ``quick`` mode with and without the
  total (``mscsp.play.dead.find_structure`` first: a mine and a safe cell no number can
  tell apart, a 2x2 block whose diagonals can swap, and without the total a safe cell
  walled in by mines answer "not solved" without playing; ms_toollib's
  ``unsolvable_structure`` templates are instances of these);
- ``ms_toollib.is_solvable`` (Rust; PyPI ms-toollib), which ignores the mine total.

Prints median and p90 milliseconds per board, how many boards each accepts, and the
ratio of medians; then the same medians for the boards with a dead structure and for
the rest apart. ms_toollib looks for its own dead structures first, so its median over
random boards (most of which cannot be finished) is that of its quick answers: the
like-with-like comparison is with mscsp's quick mode, and the boards without a dead
structure compare the two plays. ``--repeat`` plays every board that many times (each
engine's pass in turn) and keeps each board's least time, and ``--cpu`` times the
thread's CPU rather than the wall clock: on a shared machine both steady the medians.
Needs ``pip install ms-toollib`` (a benchmark-only dependency).

    python benchmarks/verify.py --boards 1000 --seed 2026
    python benchmarks/verify.py --boards 1000 --seed 2026 --repeat 3 --cpu
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from mscsp.board import Spec
from mscsp.rules import generate
from mscsp.play.verify import verify


def _ms_board(layout):
    import ms_toollib as ms

    g = layout.geometry
    grid = layout.mines.reshape(g.height, g.width)
    rows = [[-1 if m else 0 for m in row] for row in grid.tolist()]
    return ms.cal_board_numbers(rows)


def _summary(name: str, ms_times: list[float], accepted: int, n: int) -> str:
    q = statistics.quantiles(ms_times, n=10)
    return (f"{name:34s} median {statistics.median(ms_times):8.3f} ms  p90 {q[8]:8.3f} ms  "
            f"mean {statistics.mean(ms_times):8.3f} ms  accepted {accepted}/{n}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=1, help="passes over the boards; each board's least time")
    parser.add_argument("--cpu", action="store_true", help="time the thread's CPU, not the wall clock")
    parser.add_argument("--json", metavar="PATH", help="also write each engine's medians and answers here")
    args = parser.parse_args(argv)
    if args.boards < 10 or args.repeat < 1:
        print("--boards must be at least 10 and --repeat at least 1", file=sys.stderr)
        return 2
    clock = time.thread_time if args.cpu else time.perf_counter
    try:
        import ms_toollib as ms
    except ImportError:
        print("ms_toollib is not installed: pip install ms-toollib", file=sys.stderr)
        return 2
    spec, click = Spec.preset("expert"), (15, 8)
    seeds = np.random.SeedSequence(args.seed).spawn(args.boards)
    boards = [generate(spec, "opening", click, np.random.default_rng(ss)) for ss in seeds]
    ms_boards = [_ms_board(b.layout) for b in boards]
    # one pass over all boards per engine, so that each runs with its own code and data
    # warm in the caches rather than right after another engine's work
    names = ["total", "local", "quick", "quick_local"]
    times: dict[str, list[float]] = {k: [float("inf")] * len(boards) for k in ["ms", *names]}
    answers: dict[str, list[bool]] = {k: [] for k in ["ms", *names]}
    engines: dict[str, dict[str, int]] = {k: {"compiled": 0, "python": 0, "structure": 0} for k in names}
    for rep in range(args.repeat):
        first = rep == 0
        for i, ms_board in enumerate(ms_boards):
            t0 = clock()
            solved = bool(ms.is_solvable(ms_board, click[1], click[0]))
            times["ms"][i] = min(times["ms"][i], (clock() - t0) * 1e3)
            if first:
                answers["ms"].append(solved)
        for name in names:
            for i, board in enumerate(boards):
                t0 = clock()
                result = verify(board.layout, board.click, "sat", use_total=name in ("total", "quick"),
                                quick=name.startswith("quick"))
                times[name][i] = min(times[name][i], (clock() - t0) * 1e3)
                if first:
                    answers[name].append(result.solved)
                    engines[name][result.engine] += 1
    assert answers["quick"] == answers["total"] and answers["quick_local"] == answers["local"]
    accepted = {name: sum(values) for name, values in answers.items()}
    only_total = sum(t and not loc for t, loc in zip(answers["total"], answers["local"]))
    disagree = sum(m != loc for m, loc in zip(answers["ms"], answers["local"]))
    n = args.boards
    print(f"{n} Expert boards (30x16/99, opening at [15,8]), seed {args.seed}; "
          f"{'thread CPU' if args.cpu else 'wall-clock'} time, least of {args.repeat} per board")
    labels = {"ms": "ms_toollib.is_solvable (no total)", "local": "mscsp verify sat, no total",
              "total": "mscsp verify sat, mine total", "quick_local": "mscsp verify sat, no total, quick",
              "quick": "mscsp verify sat, total, quick"}
    for key, label in labels.items():
        print(_summary(label, times[key], accepted[key], n))
    base = statistics.median(times["ms"])
    print("median ratio to ms_toollib: " + ", ".join(
        f"{labels[k].removeprefix('mscsp verify sat, ')} {statistics.median(times[k]) / base:.1f}x"
        for k in ("local", "total", "quick_local", "quick")))
    print(f"boards only the mine total solves: {only_total}; ms_toollib vs mscsp-no-total disagreements: {disagree}")
    # ms_toollib ignores the total, so the split is by the structures found without it
    dead = [verify(b.layout, b.click, use_total=False, quick=True).engine == "structure" for b in boards]
    for label, keep in (("with a dead structure", True), ("without one", False)):
        chosen = [i for i in range(n) if dead[i] == keep]
        if not chosen:
            continue
        med = {k: statistics.median([times[k][i] for i in chosen]) for k in times}
        print(f"{len(chosen)} boards {label}: median ms " + ", ".join(
            f"{k} {med[k]:.3f}" for k in ["ms", *names]) + "; ratio to ms_toollib " + ", ".join(
            f"{k} {med[k] / med['ms']:.2f}x" for k in names))
    print("decided by a dead structure / the compiled loop / the Python loop: " + ", ".join(
        f"{labels[k].removeprefix('mscsp verify sat, ')} "
        f"{engines[k]['structure']}/{engines[k]['compiled']}/{engines[k]['python']}"
        for k in names))
    if args.json:
        rows = [{"engine": key, "label": label, "boards": n, "median_ms": round(statistics.median(times[key]), 4),
                 "p90_ms": round(statistics.quantiles(times[key], n=10)[8], 4), "accepted": accepted[key],
                 "ratio": round(statistics.median(times[key]) / base, 3)} for key, label in labels.items()]
        Path(args.json).write_text(json.dumps({"benchmark": "verify", "seed": args.seed, "repeat": args.repeat,
                                               "clock": "thread_cpu" if args.cpu else "wall", "rows": rows,
                                               "only_total": only_total, "disagreements": disagree}, indent=1) + "\n",
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
