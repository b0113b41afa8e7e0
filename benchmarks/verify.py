"""Full no-guess verification of random Expert boards: mscsp against ms_toollib.

For each board (30x16, 99 mines, opening rule at the centre [15,8]) both engines
decide in the same process whether it can be finished without a guess from the
click:

- ``mscsp.verify`` with the complete SAT solver and the mine total, and again without
  the total (to compare like with like), and with the total in ``quick`` mode (a
  vectorised dead-pair check first: a mine and a safe cell no number can tell apart
  answer "not solved" without playing);
- ``ms_toollib.is_solvable`` (Rust; PyPI ms-toollib), which ignores the mine total.

Prints median and p90 milliseconds per board, how many boards each accepts, and the
ratio of medians. Needs ``pip install ms-toollib`` (a benchmark-only dependency).

    python benchmarks/verify.py --boards 1000 --seed 2026
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from mscsp.board import Spec
from mscsp.rules import generate
from mscsp.verify import verify


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
    args = parser.parse_args(argv)
    try:
        import ms_toollib as ms
    except ImportError:
        print("ms_toollib is not installed: pip install ms-toollib", file=sys.stderr)
        return 2
    spec, click = Spec.preset("expert"), (15, 8)
    seeds = np.random.SeedSequence(args.seed).spawn(args.boards)
    t_total, t_local, t_ms, t_quick = [], [], [], []
    a_total = a_local = a_ms = a_quick = 0
    only_total = disagree = 0
    for ss in seeds:
        board = generate(spec, "opening", click, np.random.default_rng(ss))
        ms_board = _ms_board(board.layout)
        t0 = time.perf_counter()
        ok_ms = bool(ms.is_solvable(ms_board, click[1], click[0]))
        t1 = time.perf_counter()
        ok_total = verify(board.layout, board.click, "sat", use_total=True).solved
        t2 = time.perf_counter()
        ok_local = verify(board.layout, board.click, "sat", use_total=False).solved
        t3 = time.perf_counter()
        ok_quick = verify(board.layout, board.click, "sat", use_total=True, quick=True).solved
        t4 = time.perf_counter()
        t_quick.append((t4 - t3) * 1e3)
        a_quick += ok_quick
        assert ok_quick == ok_total
        t_ms.append((t1 - t0) * 1e3)
        t_total.append((t2 - t1) * 1e3)
        t_local.append((t3 - t2) * 1e3)
        a_ms += ok_ms
        a_total += ok_total
        a_local += ok_local
        only_total += ok_total and not ok_local
        disagree += ok_ms != ok_local
    n = args.boards
    print(f"{n} Expert boards (30x16/99, opening at [15,8]), seed {args.seed}")
    print(_summary("ms_toollib.is_solvable (no total)", t_ms, a_ms, n))
    print(_summary("mscsp verify sat, no total", t_local, a_local, n))
    print(_summary("mscsp verify sat, mine total", t_total, a_total, n))
    print(_summary("mscsp verify sat, total, quick", t_quick, a_quick, n))
    base = statistics.median(t_ms)
    print(f"median ratio to ms_toollib: total {statistics.median(t_total) / base:.1f}x, "
          f"no total {statistics.median(t_local) / base:.1f}x, total+quick {statistics.median(t_quick) / base:.1f}x")
    print(f"boards only the mine total solves: {only_total}; ms_toollib vs mscsp-no-total disagreements: {disagree}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
