"""Deciding compiled boards: what the array paths and the collector pause buy.

The consistency experiment decides boards compiled from random 3-CNF formulas
(:mod:`mscsp.experiments.consistency`, Kaye's reduction) with ``decide(explain=False)``:
half a million clues a board at 50 variables, nearly all two-cell links. Each board is
decided three ways in the same process, and every way must give the same verdict and
the same witness:

- ``clue by clue``: every equation a Python object from the start, components and
  chains of links found one clue at a time, the garbage collector running (the
  baseline: the code paths of systems under 2,000 equations);
- ``+ gc pause``: the same with the collector paused while equations and encodings
  are made (:func:`mscsp.analysis.constraints.bulk`);
- ``arrays``: the default, the equations kept as arrays (``TabledSystem``) and the
  links united by one compiled call (:func:`mscsp.analysis.constraints.unite`).

Prints the mean seconds per board of each way and its speed-up over the baseline.

    python benchmarks/consistency.py --variables 50 --boards 6
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time

import numpy as np

from mscsp.analysis import consistency, constraints
from mscsp.analysis.solvers import sat
from mscsp.experiments.consistency import random_3cnf
from mscsp.reduction.compile import compile_cnf

NEVER = sys.maxsize


@contextlib.contextmanager
def _way(arrays: bool, pause: bool):
    """Set the threshold of the array paths and the collector pause for one way."""
    saved = (constraints.ARRAY_EQUATIONS, sat.ARRAY_EQUATIONS, consistency.bulk, sat.bulk, constraints.bulk)
    if not arrays:
        constraints.ARRAY_EQUATIONS = sat.ARRAY_EQUATIONS = NEVER
    if not pause:
        consistency.bulk = sat.bulk = constraints.bulk = contextlib.nullcontext
    try:
        yield
    finally:
        (constraints.ARRAY_EQUATIONS, sat.ARRAY_EQUATIONS, consistency.bulk, sat.bulk, constraints.bulk) = saved


WAYS = {"clue by clue": (False, False), "+ gc pause": (False, True), "arrays": (True, True)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variables", type=int, default=50, help="variables per formula (default 50)")
    parser.add_argument("--ratio", type=float, default=4.26, help="clauses per variable (default 4.26)")
    parser.add_argument("--boards", type=int, default=6, help="formulas to compile and decide (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    seeds = np.random.SeedSequence(args.seed).spawn(args.boards)
    seconds = {name: 0.0 for name in WAYS}
    sat_count = 0
    for ss in seeds:
        cnf = random_3cnf(args.variables, round(args.ratio * args.variables), np.random.default_rng(ss))
        position = compile_cnf(cnf).position
        answers = {}
        for name, flags in WAYS.items():
            with _way(*flags):
                started = time.perf_counter()
                verdict = consistency.decide(position, explain=False)
                seconds[name] += time.perf_counter() - started
            answers[name] = (verdict.consistent,
                             verdict.witness.mines.tobytes() if verdict.consistent else verdict.contradiction.clues)
        if len(set(answers.values())) != 1:
            print("the ways disagree on a board", file=sys.stderr)
            return 1
        sat_count += answers["arrays"][0]
    base = seconds["clue by clue"] / args.boards
    print(f"{args.boards} boards of {args.variables} variables, ratio {args.ratio} ({sat_count} satisfiable), "
          f"{int(position.revealed.sum()):,} clues in the last")
    for name, total in seconds.items():
        mean = total / args.boards
        print(f"  {name:13s} {mean:7.2f} s a board  x{base / mean:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
