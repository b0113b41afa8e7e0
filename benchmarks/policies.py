"""Guessing policies: what stopping the weighing early buys, on positions from real play.

The rungs of :mod:`mscsp.play.policies` weigh their candidates safest first and stop
where the rest cannot change the choice. The baseline, run in the same process on the
same positions, weighs every candidate in full (every number each can show) and takes
the best by the same key. Both must choose the same cell in every position; the
benchmark fails otherwise.

Positions are the stalls met in seeded Expert games played with ``+endgame``, with
both starts (an opening at (3, 3), and a safe click in the corner). Prints per rung
the milliseconds per guess both ways and the speed-up.

    python benchmarks/policies.py --games 40
"""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager
from fractions import Fraction

import numpy as np

from mscsp.board import PRESETS
from mscsp.game import Game
from mscsp.play import loop, policies
from mscsp.rules import generate

RUNGS = ["+progress", "+lookahead", "+fifty", "+endgame"]
STARTS = [("opening", (3, 3)), ("safe", (0, 0))]


def _full_progress(survey, pool, weighed=None):  # run without ranking: ``weighed`` stays None
    probs = survey.probabilities

    def score(c):
        return sum(o.layouts for o in policies._each_outcome(survey, c) if o.progress or o.number == 0)

    return max(pool, key=lambda c: (score(c), -probs.by_index[c], -c))


def _full_lookahead(survey, pool, skip_dead, weighed=None, second_weight=Fraction(0)):
    probs = survey.probabilities
    credits = policies._credits(survey, pool) if skip_dead else {}

    def key(c):
        outs = list(policies._each_outcome(survey, c))
        value = sum((Fraction(o.layouts, probs.layouts) * o.blended_safety(second_weight) for o in outs), Fraction(0))
        return not (skip_dead and len(outs) == 1), value * credits.get(c, 1), -probs.by_index[c], -c

    return max(pool, key=key)


@contextmanager
def _full_weighing():
    saved = policies._progress, policies._lookahead
    policies._progress, policies._lookahead = _full_progress, _full_lookahead
    try:
        yield
    finally:
        policies._progress, policies._lookahead = saved


def stalls(games: int, seed: int) -> list:
    """The positions where a guess was due, in ``games`` Expert games per start."""
    found = []
    choose = loop._choose_index

    def keep(position, policy, **options):
        found.append(position)
        return choose(position, policy, **options)

    loop._choose_index = keep
    try:
        for s, (rule, click) in enumerate(STARTS):
            for i in range(games):
                rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(s, i))))
                board = generate(PRESETS["expert"], rule, click, rng)
                loop.play_game(Game.from_board(board, record=False), board.click, policy="+endgame")
    finally:
        loop._choose_index = choose
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="Expert games per start (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    positions = stalls(args.games, args.seed)
    print(f"{len(positions)} positions from {args.games} Expert games per start")
    for rung in RUNGS:
        seconds = {"early stop": 0.0, "in full": 0.0}
        for position in positions:
            started = time.perf_counter()
            move = policies.choose(position, rung)
            seconds["early stop"] += time.perf_counter() - started
            with _full_weighing():
                started = time.perf_counter()
                full = policies.choose(position, rung)
                seconds["in full"] += time.perf_counter() - started
            if move != full:
                print(f"{rung}: the two weighings disagree ({move} against {full}) in\n{position}")
                return 1
        per = {k: 1000 * v / len(positions) for k, v in seconds.items()}
        print(f"  {rung:11s} in full {per['in full']:7.2f} ms/guess  early stop {per['early stop']:7.2f} ms/guess"
              f"  x{seconds['in full'] / seconds['early stop']:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
