"""How far the win-rate games' counting is from its budgets, and how often it falls back.

A game of :func:`mscsp.play.loop.play_game` reads mine probabilities from a
:class:`mscsp.analysis.Survey`, counted exactly while every component of the frontier
fits the counting budget; a component that does not is counted in floating point with
proven bounds or estimated by sampling (the record's ``rounded`` and ``estimated``).
Its deduction, too, has budgets of its own, every one with an exact way on: the
compiled loop's node budget at a stall (past it the game goes on in Python), the
counting table bound of a stall in Python (past it SAT decides) and the time limit of
a game (past it, the deduction is cut short).

This benchmark plays games on both starts of the win-rate table (Expert unless
``--size`` says otherwise) and watches, besides the records' counts, every place
where one of these budgets could bite: how many components the backtracking search
counted and how many it passed to the dynamic programme, the largest component
(cells, variables), the widest table the programme built against its bound on
states, the widest table the best processing order allowed, the stalls the compiled
loop gave back, the stalls that counting passed to SAT, the SAT searches cut short,
and the longest game against the time limit. It watches by wrapping the functions
that spend the budgets (module attributes, restored at the end); it changes no
answer. The compiled loop counts its stalls' components itself, unwatched: only
whether it gave a stall back is seen.

    python benchmarks/exactness.py --games 2000 --policy +endgame
    python benchmarks/exactness.py --games 10000 --policy least-p --seed 2
    python benchmarks/exactness.py --games 2000 --size intermediate
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager

import numpy as np

import mscsp.analysis.counting as counting_package
import mscsp.play.loop as loop
from mscsp.analysis.counting import pipeline
from mscsp.board import PRESETS
from mscsp.budget import DEFAULT_STATE_LIMIT
from mscsp.errors import BudgetExceeded
from mscsp.game import Game
from mscsp.play import fastplay
from mscsp.play.policies import Policy
from mscsp.rules import FirstClickRule, generate


class Watch:
    """What the wrapped functions saw."""

    def __init__(self):
        self.searched = 0  # components the backtracking search counted
        self.swept = 0  # components the dynamic programme counted
        self.largest_cells = 0
        self.largest_variables = 0
        self.peak_states = 0  # the widest table the programme built
        self.peak_limit = None  # the bound on states of the count that built it
        self.width_log2 = 0.0  # the widest table the chosen orders allowed (log2)
        self.gave_up = 0  # exact tallies that raised BudgetExceeded
        self.compiled_gave_back = 0  # stalls the compiled loop left to Python
        self.counting_to_sat = 0  # stalls in Python that counting passed to SAT
        self.sat_incomplete = 0  # deductions cut short (time)


@contextmanager
def watching(watch: Watch):
    saved = {(pipeline, "_exact_tally"): pipeline._exact_tally, (pipeline, "search"): pipeline.search,
             (pipeline, "sweep"): pipeline.sweep, (pipeline, "choose_order"): pipeline.choose_order,
             (fastplay, "resume"): fastplay.resume, (loop, "deduce"): loop.deduce,
             (counting_package, "forced_cells"): counting_package.forced_cells}
    limits = []

    def exact_tally(system, problem, arith, budget, state_limit, *args, **kwargs):
        watch.largest_cells = max(watch.largest_cells, problem.ncells)
        watch.largest_variables = max(watch.largest_variables, len(problem.variables))
        limits.append(state_limit)
        try:
            return saved[pipeline, "_exact_tally"](system, problem, arith, budget, state_limit, *args, **kwargs)
        except BudgetExceeded:
            watch.gave_up += 1
            raise
        finally:
            limits.pop()

    def search(problem, *args, **kwargs):
        out = saved[pipeline, "search"](problem, *args, **kwargs)  # past its nodes: TooBig, to the DP
        watch.searched += 1
        return out

    def sweep(problem, *args, **kwargs):
        out = saved[pipeline, "sweep"](problem, *args, **kwargs)
        watch.swept += 1
        if out.peak_states > watch.peak_states:
            watch.peak_states, watch.peak_limit = out.peak_states, limits[-1] if limits else None
        return out

    def choose_order(*args, **kwargs):
        out = saved[pipeline, "choose_order"](*args, **kwargs)
        watch.width_log2 = max(watch.width_log2, out.width_log2)
        return out

    def resume(*args, **kwargs):
        out = saved[fastplay, "resume"](*args, **kwargs)
        watch.compiled_gave_back += out is None
        return out

    def forced_cells(*args, **kwargs):
        try:
            return saved[counting_package, "forced_cells"](*args, **kwargs)
        except BudgetExceeded:
            watch.counting_to_sat += 1
            raise

    def deduce(*args, **kwargs):
        out = saved[loop, "deduce"](*args, **kwargs)
        watch.sat_incomplete += not out.complete
        return out

    wrappers = {"_exact_tally": exact_tally, "search": search, "sweep": sweep, "choose_order": choose_order,
                "resume": resume, "deduce": deduce, "forced_cells": forced_cells}
    for (module, name) in saved:
        setattr(module, name, wrappers[name])
    try:
        yield watch
    finally:
        for (module, name), original in saved.items():
            setattr(module, name, original)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per start (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default=Policy.ENDGAME.value, choices=[p.value for p in Policy])
    parser.add_argument("--size", default="expert", choices=["beginner", "intermediate", "expert"])
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be a positive whole number")
    spec = PRESETS[args.size]
    print(f"# {args.games} {args.size} games per start, policy {args.policy}, seed {args.seed}; "
          f"bounds: {DEFAULT_STATE_LIMIT} states (a survey), {loop.STALL_STATES} (a stall in Python), "
          f"{fastplay.NODE_LIMIT} nodes (a stall in C), 30 s a game")
    columns = ["start", "games", "won", "inexact_games", "rounded", "estimated", "searched", "swept",
               "largest_cells", "largest_variables", "peak_states", "peak_limit", "order_width_log2",
               "exact_gave_up", "compiled_gave_back", "counting_to_sat", "sat_incomplete", "max_game_s"]
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    for rule in ("opening", "safe"):
        click = FirstClickRule.parse(rule).first_click(spec.geometry)
        rng = np.random.default_rng([args.seed, 0 if rule == "opening" else 1])
        won = inexact_games = rounded = estimated = 0
        longest = 0.0
        with watching(Watch()) as watch:
            for _ in range(args.games):
                board = generate(spec, rule, click, rng)
                record = loop.play_game(Game.from_board(board, record=False), board.click, policy=args.policy)
                won += record.won
                inexact_games += not record.exact
                rounded += record.rounded
                estimated += record.estimated
                longest = max(longest, record.seconds)
        row = [f"{rule} {click}", args.games, won, inexact_games, rounded, estimated, watch.searched, watch.swept,
               watch.largest_cells, watch.largest_variables, watch.peak_states, watch.peak_limit,
               f"{watch.width_log2:.1f}", watch.gave_up, watch.compiled_gave_back, watch.counting_to_sat,
               watch.sat_incomplete, f"{longest:.2f}"]
        print("| " + " | ".join(map(str, row)) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
