"""The endgame's exact search, compiled and in Python, on endgames from real play.

``+endgame`` searches the rest of a game exactly once at most
:data:`~mscsp.play.endgame.ENDGAME_LAYOUTS` layouts remain (:mod:`mscsp.play.endgame`).
The search is compiled (``_endgame.c``) where a C compiler was found; the baseline,
run in the same process on the same positions, is the Python search
(:class:`~mscsp.play.optimum.SmallSearch`). Both must give the same move, wins and
state count, or run out of their state budget on the same positions; the benchmark
fails otherwise.

Positions are those the top rung searched in seeded Expert games, both starts (an
opening at (3, 3), and a safe click in the corner). Prints the milliseconds per
search both ways and the speed-up.

    python benchmarks/endgame.py --games 100
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager

import numpy as np

from mscsp.board import PRESETS
from mscsp.errors import BudgetExceeded
from mscsp.game import Game
from mscsp.play import endgame, policies
from mscsp.play.loop import play_game
from mscsp.rules import generate

STARTS = [("opening", (3, 3)), ("safe", (0, 0))]


@contextmanager
def _python_search():
    compiled, endgame._endgame = endgame._endgame, None
    try:
        yield
    finally:
        endgame._endgame = compiled


def _positions(games: int, seed: int) -> list:
    """The positions +endgame searched in ``games`` games per start."""
    seen, search = [], policies.solve_endgame

    def record(position, **options):
        seen.append((position, options))
        return search(position, **options)

    policies.solve_endgame = record
    try:
        for s, (rule, click) in enumerate(STARTS):
            for i in range(games):
                ss = np.random.SeedSequence(seed, spawn_key=(s, i))
                board = generate(PRESETS["expert"], rule, click, np.random.Generator(np.random.PCG64(ss)))
                play_game(Game.from_board(board, record=False), board.click, policy="+endgame")
    finally:
        policies.solve_endgame = search
    return seen


def _run(positions: list) -> tuple[list, float]:
    answers = []
    started = time.process_time()
    for position, options in positions:
        try:
            end = endgame.solve_endgame(position, **options)
            answers.append((end.cell, end.wins, end.states))
        except BudgetExceeded as exc:
            answers.append(str(exc))
    return answers, time.process_time() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per start (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not endgame.COMPILED:
        print("the compiled endgame search was not built (is a C compiler installed?)", file=sys.stderr)
        return 1
    positions = _positions(args.games, args.seed)
    with _python_search():
        slow, slow_s = _run(positions)
    fast, fast_s = _run(positions)
    if fast != slow:
        bad = sum(a != b for a, b in zip(fast, slow))
        print(f"the compiled and Python searches disagree on {bad} of {len(positions)} positions", file=sys.stderr)
        return 1
    n = len(positions)
    budget = sum(isinstance(a, str) for a in fast)
    print(f"{n} endgame searches from {2 * args.games} Expert games ({budget} out of their state budget)")
    print(f"  python    {1000 * slow_s / n:8.3f} ms per search")
    print(f"  compiled  {1000 * fast_s / n:8.3f} ms per search  x{slow_s / fast_s:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
