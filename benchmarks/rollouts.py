"""How close rollouts over a few sampled layouts come to the choice many layouts make.

:func:`mscsp.play.rollout.rollout_move` with ``samples=K`` plays the close candidates of a
position out on ``K`` layouts drawn from those the position admits and takes the one
that wins most. With the exact value of each candidate that choice could not be worse
than the look-ahead's; with ``K`` layouts it is partly chance. This script measures how
much:

1. it plays ``paired.py``'s boards of one start with ``+endgame`` (games ``0 ..
   games - 1`` under ``--seed``) and keeps each position where rollouts would decide
   (more than one candidate within the margin), with those candidates, the look-ahead's
   choice first, up to ``--positions`` of them;
2. for each position it plays every candidate out on ``--reference`` layouts (the same
   layouts for all: common random numbers), the reference estimate of each candidate's
   chance to win;
3. it draws ``--repeats`` fresh samples of ``--samples`` layouts each (other seeds), takes
   the rollout choice on each, and scores it by the reference estimate.

It prints, over the positions: how often the ``K``-layout choice is the reference's
choice, and the mean gain in the chance to win per decision (reference estimate of the
rollout choice less that of the look-ahead's choice) with a 95% interval, beside the
same gain for the reference's own choice (an upper bound, flattered by choosing and
scoring on the same layouts). Times a gain per decision by the decisions per game
(printed too) gives the win rate the option can add.

    python benchmarks/rollouts.py --start expert-classic --games 300 --positions 60
    python benchmarks/rollouts.py --quick
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def collect(start: str, seed: int, games: int, limit: int, margin) -> tuple[list, int]:
    """Positions where rollouts would decide, as ``(position, cells)``, from ``+endgame``'s
    games (which the collection leaves as they are: the look-ahead's choice is played),
    the games played to find them, and the positions those games held (the last game
    may hold more than ``limit`` asks for)."""
    from paired import boards

    import mscsp.play.rollout as rollout
    from mscsp.game import Game
    from mscsp.play.loop import play_game

    found: list = []
    original = rollout.rollout_wins

    def keep(position, cells, layouts, policy):
        found.append((position, list(cells)))
        return [1] + [0] * (len(cells) - 1)  # the look-ahead's choice, first, is played

    rollout.rollout_wins = keep
    played = 0
    try:
        guess = rollout.rollout_guess("+endgame", samples=1, margin=margin)
        for board in boards(start, seed, 0, games):
            play_game(Game.from_board(board, record=False), board.click, guess=guess)
            played += 1
            if len(found) >= limit:
                break
    finally:
        rollout.rollout_wins = original
    return found[:limit], played, len(found)


def measure(found: list, samples: int, repeats: int, reference: int, seed: int) -> list[dict]:
    """Per position: the reference estimate of each candidate, and the rollout choice
    of each repeat."""
    from mscsp.analysis import Survey
    from mscsp.play.rollout import position_seed, rollout_wins, sample_layouts

    rows = []
    for position, cells in found:
        survey = Survey(position)
        ref = rollout_wins(position, cells, sample_layouts(survey, reference, position_seed(position, seed)),
                           "+endgame")
        picks = []
        for r in range(repeats):
            wins = rollout_wins(position, cells,
                                sample_layouts(survey, samples, position_seed(position, seed + 1 + r)), "+endgame")
            picks.append(wins.index(max(wins)))
        rows.append({"cells": cells, "reference": ref, "picks": picks})
    return rows


def summary(rows: list[dict], reference: int) -> dict:
    """Agreement with the reference choice and the mean gains per decision, with 95%
    intervals over positions (normal approximation)."""
    from mscsp.stats import mean_interval

    agree, gains, best_gains = [], [], []
    for row in rows:
        ref = row["reference"]
        top = ref.index(max(ref))
        share = [w / reference for w in ref]
        agree.extend(p == top for p in row["picks"])
        gains.append(sum(share[p] - share[0] for p in row["picks"]) / len(row["picks"]))
        best_gains.append(share[top] - share[0])
    return {"positions": len(rows), "agree": sum(agree) / len(agree) if agree else float("nan"),
            "gain": mean_interval(gains), "best_gain": mean_interval(best_gains),
            "candidates": sum(len(r["cells"]) for r in rows) / max(1, len(rows))}


def main(argv=None) -> int:
    from fractions import Fraction

    from paired import STARTS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", choices=list(STARTS), default="expert-classic")
    parser.add_argument("--games", type=int, default=300, help="games to look for positions in (default 300)")
    parser.add_argument("--positions", type=int, default=60, help="positions measured at most (default 60)")
    parser.add_argument("--samples", type=int, default=32, help="layouts of a rollout choice (default 32)")
    parser.add_argument("--repeats", type=int, default=5, help="rollout choices per position (default 5)")
    parser.add_argument("--reference", type=int, default=400, help="layouts of the reference (default 400)")
    parser.add_argument("--margin", type=Fraction, default=Fraction(1, 100))
    parser.add_argument("--seed", type=int, default=404)
    parser.add_argument("--quick", action="store_true", help="a few positions of small boards, for the tests")
    args = parser.parse_args(argv)
    if args.quick:
        args.start, args.games, args.positions, args.samples, args.repeats, args.reference = \
            "beginner-safe", 40, 3, 8, 2, 24
    if min(args.games, args.positions, args.samples, args.repeats, args.reference) < 1:
        parser.error("--games, --positions, --samples, --repeats and --reference must be positive")
    began = time.process_time()
    found, played, held = collect(args.start, args.seed, args.games, args.positions, args.margin)
    if not found:
        print(f"no position in {played} games of {args.start} where rollouts decide")
        return 0
    rows = measure(found, args.samples, args.repeats, args.reference, args.seed)
    s = summary(rows, args.reference)
    gain, best = s["gain"], s["best_gain"]
    print(f"# {args.start}: {s['positions']} positions from {played} games of +endgame (seed {args.seed}), "
          f"{s['candidates']:.2f} close candidates each (margin {args.margin}); "
          f"{held / played:.2f} decisions a game")
    print("| layouts | repeats | same choice as the reference | gain a decision (points) | 95% |")
    print("| ---: | ---: | ---: | ---: | --- |")
    print(f"| {args.samples} | {args.repeats} | {100 * s['agree']:.0f}% | {100 * gain[0]:+.2f} | "
          f"[{100 * gain[1]:+.2f}, {100 * gain[2]:+.2f}] |")
    print(f"| {args.reference} (reference, scored on its own layouts) | 1 | 100% | {100 * best[0]:+.2f} | "
          f"[{100 * best[1]:+.2f}, {100 * best[2]:+.2f}] |")
    print(f"CPU {time.process_time() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
