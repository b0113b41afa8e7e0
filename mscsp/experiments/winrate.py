"""Win rates of whole games: complete deduction, then the least mine probability.

Each game is played from its first click by :func:`mscsp.play.loop.play_game`: every cell
the complete solver proves (with the mine total) is opened or flagged; when nothing
is certain, the covered cell with the least exact mine probability is clicked (ties
in row order). Rows give the share of games won with its Wilson 95% interval and the
mean number of guesses per game, for each size and start:

- ``opening`` rule, click at (3,3) — the start of the strongest published player
  (JSMinesweeper, 54.3% on Expert);
- ``safe`` rule, click in the corner (0,0) — the classic safe-first-click start
  (about 41% on Expert for that player);
- ``opening`` rule, centre click — the article's start.

    python experiments/winrate.py --samples 2000 --seed 42 --jobs 2 --out results/winrate
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..board import PRESETS, Spec
from ..game import Game
from ..play.loop import play_game
from ..rules import generate
from .cli import experiment_parser, finish, run_units
from .output import Timings, markdown_table, split_timings, summary_row
from .runner import Chunk, Unit, merge_counts, sample_seeds

NAME = "winrate"
SIZES = ["beginner", "intermediate", "expert"]
POLICY = "sat+total, least probability"
PUBLISHED = {("expert", "opening", (3, 3)): 0.543, ("expert", "safe", (0, 0)): 0.41}
CHUNK = 25
#: What names a row of the summary, and the column that depends on the machine.
KEYS = ["board", "rule", "click_x", "click_y"]
TIMING = ["ms_per_game"]


def _starts(spec: Spec) -> list[tuple[str, tuple[int, int]]]:
    return [("opening", (3, 3)), ("safe", (0, 0)), ("opening", (spec.width // 2, spec.height // 2))]


def _work(chunk: Chunk) -> dict:
    p = chunk.params
    spec = Spec(**p["spec"])
    out = {"n": 0, "k": 0, "guesses": 0, "seconds": 0.0, "guess_histogram": [0] * 11}
    for ss in sample_seeds(chunk):
        board = generate(spec, p["rule"], tuple(p["click"]), np.random.Generator(np.random.PCG64(ss)))
        record = play_game(Game.from_board(board, record=False), board.cell)
        out["n"] += 1
        out["k"] += int(record.won)
        out["guesses"] += record.guesses
        out["seconds"] += record.seconds
        out["guess_histogram"][min(record.guesses, 10)] += 1
    return out


def _units(samples: int) -> list[Unit]:
    units = []
    for size in SIZES:
        spec = PRESETS[size]
        for rule, click in _starts(spec):
            units.append(Unit(f"{size}/{rule}/{click[0]},{click[1]}",
                              {"spec": spec.__dict__, "size": size, "rule": rule, "click": click}, samples))
    return units


def _rows(units: list[Unit], totals: list[dict]) -> pd.DataFrame:
    rows = []
    for unit, t in zip(units, totals):
        spec = Spec(**unit.params["spec"])
        x, y = unit.params["click"]
        n, k = t["n"], t["k"]
        rows.append(summary_row(
            unit.params["size"], spec, unit.params["rule"], (x, y), n, k, policy=POLICY,
            mean_guesses=t["guesses"] / n, ms_per_game=1e3 * t["seconds"] / n,
            published=PUBLISHED.get((unit.params["size"], unit.params["rule"], (x, y))),
            games_without_guess=t["guess_histogram"][0],
        ))
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=2000, seed=42, quick=10)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    units = _units(args.samples)
    parts = run_units(NAME, units, _work, args, CHUNK, "game")
    df, timing = split_timings(_rows(units, [merge_counts(p) for p in parts]), KEYS, TIMING)
    cols = ["board", "rule", "click_x", "click_y", "n", "k", "p", "low", "high", "mean_guesses",
            "games_without_guess", "published"]
    md = "\n".join([
        "# Win rates with complete deduction and least-probability guesses\n",
        f"{args.samples} games per row (seed {args.seed}); policy: {POLICY} (ties in row order). "
        "`p` is the share of games won, `low`/`high` its Wilson 95% interval; `mean_guesses` counts the "
        "clicks made without proof after the first click. `published`: the strongest published player "
        "(JSMinesweeper) on the same start.\n",
        markdown_table(df, columns=cols),
    ])
    timing_md = "\n".join([
        "# Win rates: timings\n",
        "`ms_per_game`: the mean time to play one game, first click to win or loss.\n",
        markdown_table(timing),
    ])
    print(markdown_table(df, columns=cols), end="")
    print(markdown_table(timing), end="")
    finish(out, NAME, args, {"summary": df}, md, started, timings=Timings(timing, timing_md))
    return 0
