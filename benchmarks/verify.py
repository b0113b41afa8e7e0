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
ratio of medians. Needs ``pip install ms-toollib`` (a benchmark-only dependency).

    python benchmarks/verify.py --boards 1000 --seed 2026
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
    parser.add_argument("--json", metavar="PATH", help="also write each engine's medians and answers here")
    args = parser.parse_args(argv)
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
    times: dict[str, list[float]] = {k: [] for k in ["ms", *names]}
    answers: dict[str, list[bool]] = {k: [] for k in ["ms", *names]}
    engines: dict[str, dict[str, int]] = {k: {"compiled": 0, "python": 0, "structure": 0} for k in names}
    for ms_board in ms_boards:
        t0 = time.perf_counter()
        answers["ms"].append(bool(ms.is_solvable(ms_board, click[1], click[0])))
        times["ms"].append((time.perf_counter() - t0) * 1e3)
    for name in names:
        for board in boards:
            t0 = time.perf_counter()
            result = verify(board.layout, board.click, "sat", use_total=name in ("total", "quick"),
                            quick=name.startswith("quick"))
            times[name].append((time.perf_counter() - t0) * 1e3)
            answers[name].append(result.solved)
            engines[name][result.engine] += 1
    assert answers["quick"] == answers["total"] and answers["quick_local"] == answers["local"]
    accepted = {name: sum(values) for name, values in answers.items()}
    only_total = sum(t and not loc for t, loc in zip(answers["total"], answers["local"]))
    disagree = sum(m != loc for m, loc in zip(answers["ms"], answers["local"]))
    n = args.boards
    print(f"{n} Expert boards (30x16/99, opening at [15,8]), seed {args.seed}")
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
    print("decided by a dead structure / the compiled loop / the Python loop: " + ", ".join(
        f"{labels[k].removeprefix('mscsp verify sat, ')} "
        f"{engines[k]['structure']}/{engines[k]['compiled']}/{engines[k]['python']}"
        for k in names))
    if args.json:
        rows = [{"engine": key, "label": label, "boards": n, "median_ms": round(statistics.median(times[key]), 4),
                 "p90_ms": round(statistics.quantiles(times[key], n=10)[8], 4), "accepted": accepted[key],
                 "ratio": round(statistics.median(times[key]) / base, 3)} for key, label in labels.items()]
        Path(args.json).write_text(json.dumps({"benchmark": "verify", "seed": args.seed, "rows": rows,
                                               "only_total": only_total, "disagreements": disagree}, indent=1) + "\n",
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
