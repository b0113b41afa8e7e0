"""The Python play loop against the compiled one, on the same boards in one process.

A verification plays a board from its click and opens what is proven: the compiled
loop of ``mscsp.play.fastplay`` (C) when it was built, else the Python loop
(``mscsp.play.loop.Deducer``: the analysis' propagation engine fed as cells open, and
``deduce`` at each stall). Both must open the same cells in the same rounds. This
times both on seeded Expert boards (modern start, opening at [15,8]; classic start,
safe at [0,0]), checks they agree board by board, and prints milliseconds per board
with the ratio of the Python loop to the compiled one; then the Python loop's
single-point rules alone, from the click to the first stall.

    python benchmarks/playloop.py --boards 200 --seed 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from mscsp.board import PRESETS
from mscsp.game import Game, Status
from mscsp.play import fastplay
from mscsp.play.loop import Deducer
from mscsp.rules import generate

STARTS = [("opening", (15, 8)), ("safe", (0, 0))]


def boards(count: int, seed: int) -> list:
    out = []
    for s, (rule, click) in enumerate(STARTS):
        for i in range(count):
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(s, i))))
            out.append(generate(PRESETS["expert"], rule, click, rng))
    return out


def python_loop(board, solver: str = "sat") -> tuple[bool, int, int, float]:
    """(won, opened, steps, milliseconds) of the Python loop from the board's click."""
    started = time.perf_counter()
    game = Game.from_board(board, record=False)
    deducer = Deducer(game, solver)
    deducer._opened_index(game._reveal_index(board.click_index))
    deducer.run()
    return game.status is Status.WON, game.opened_count, deducer.steps, 1e3 * (time.perf_counter() - started)


def compiled_loop(board) -> tuple[bool, int, int, float] | None:
    started = time.perf_counter()
    fast = fastplay._play_index(board.layout, board.click_index)
    if fast is None:
        return None
    return fast.won, fast.opened, fast.steps, 1e3 * (time.perf_counter() - started)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200, help="boards per start (default 200)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    if not fastplay.available():
        print("the compiled play loop is not built: nothing to compare against")
        return 1
    played = boards(args.boards, args.seed)
    ours, theirs = [], []
    for board in played:
        fast = compiled_loop(board)
        slow = python_loop(board)
        if fast is None:
            continue  # handed back to Python (a stall past the node budget)
        if fast[:3] != slow[:3]:
            print(f"the loops disagree on a board: compiled {fast[:3]}, Python {slow[:3]}")
            return 1
        theirs.append(fast[3])
        ours.append(slow[3])
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"{len(ours)} Expert boards, the complete solver with the mine total, the same cells in the same rounds:")
    print(f"  compiled loop {b:7.3f} ms/board, Python loop {a:7.3f} ms/board (median), ratio x{a / b:.1f}")
    single = [python_loop(board, "single-point")[3] for board in played]
    print(f"  Python single-point rules to the end: {statistics.median(single):.3f} ms/board (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
