"""Exact optimal play on small boards: what each shortcut of the memoised search buys.

The optimum of :mod:`mscsp.play.optimum` is computed three ways in the same process,
on the same layouts, and every way must find the same number of wins:

- ``plain``: one safe cell opened at a time, no symmetry (the baseline);
- ``batch``: every cell safe in all layouts opened in one step;
- ``batch+symmetry``: and mirror images of a state sharing one memo entry;
- ``batch+symmetry+few``: and sets of one or two layouts valued without a search
  (the default of ``optimal_play``).

Prints seconds and states per way and the speed-up over the baseline.

    python benchmarks/optimum.py --board 5x5/5/opening --board 6x6/5/opening
"""

from __future__ import annotations

import argparse
import sys
import time

from mscsp.board import Spec
from mscsp.play.optimum import _start
from mscsp.rules import FirstClickRule

WAYS = {"plain": (False, False, False), "batch": (True, False, False), "batch+symmetry": (True, True, False),
        "batch+symmetry+few": (True, True, True)}


def _solve(spec: Spec, rule: FirstClickRule, batch: bool, symmetric: bool, few: bool) -> tuple[int, int, float]:
    started = time.perf_counter()
    search = _start(spec, rule, 0, None, symmetric, batch, few)
    wins = search.from_click(0)
    return wins, len(search.memo), time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", metavar="WxH/MINES/RULE",
                        help="a board clicked in the corner (repeatable; default 5x5/5/opening)")
    args = parser.parse_args(argv)
    for text in args.board or ["5x5/5/opening"]:
        size, mines, rule = text.split("/")
        w, h = map(int, size.split("x"))
        spec, rule = Spec(w, h, int(mines)), FirstClickRule.parse(rule)
        results = {name: _solve(spec, rule, *flags) for name, flags in WAYS.items()}
        wins = {r[0] for r in results.values()}
        if len(wins) != 1:
            print(f"{text}: the ways disagree: {results}", file=sys.stderr)
            return 1
        base = results["plain"][2]
        print(f"{text}: {wins.pop()} wins")
        for name, (_, states, seconds) in results.items():
            print(f"  {name:20s} {seconds:8.2f} s  {states:>10,} states  x{base / seconds:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
