"""Win rates of whole games along the policy ladder, and the exact optimum on small boards.

Each game is played from its first click by :func:`mscsp.play.loop.play_game`: every
cell the complete solver proves (with the mine total) is opened or flagged; when
nothing is certain, a guessing policy of :mod:`mscsp.play.policies` picks the click
from the position alone. The ablation table plays every rung of the ladder
(``least-p``, ``+progress``, ``+lookahead``, ``+fifty``, ``+endgame`` and the
stronger, slower ``+deep``) on the same boards (a board's seed depends on its start and number, not on the policy), for
Beginner, Intermediate and Expert with two starts:

- ``opening`` rule, click at (3,3): the modern start, on which the strongest
  published player, David Hill's Java solver (github.com/DavidNHill/Minesweeper),
  wins 54.3% of Expert games (as JSMinesweeper's README reports it, at commit
  d8ff392);
- ``safe`` rule, click in the corner (0,0): the classic start, on which the same
  solver wins 41.132% ± 0.03% of Expert games (ten batches of a million games,
  Hill's comment of 2025-05-05 in JSMinesweeper issue #38).

No figure for Beginner or Intermediate has been published with its start; the
``record`` column is empty there (``benchmarks/players.py`` measures Hill's solvers
on every start side by side with this player).

Rows give the share of games won with its Wilson 95% interval, the mean number of
guesses (clicks without proof after the first), and the time per game and per guess
(in the timing files). ``--headline`` sets the games of the best policy on Expert.

Three columns say how exact the games' analyses were. A guess reads the mine
probabilities of a :class:`~mscsp.analysis.Survey`, counted exactly (Python
integers and fractions) while every part of the frontier fits the counting budget
(tables of at most :data:`mscsp.budget.DEFAULT_STATE_LIMIT`, 200,000, entries and the
default memory; no deadline); a part that does not is counted by the programme in
floating point with proven bounds, or estimated by sampling
(:mod:`mscsp.analysis.counting`). ``rounded`` and ``estimated`` count such analyses
by kind (:class:`~mscsp.play.loop.GameRecord`), ``inexact_games`` the games with at
least one. ``least-p`` then guesses from the rounded values or the estimates; the
rungs above it compare exact values only, and a game of theirs stops with an
InputError where the count of its position, or of a position a click away that
they weigh, is not exact.

Since the rungs play the same boards, the paired table sets each rung against the
one below it, and the default top rung (``+endgame``, which plays every board of the
other rungs) against the bottom one, game by game on the boards
both played: the difference in the share won with Newcombe's paired 95% interval
(:func:`mscsp.stats.paired_difference`), far narrower than two rows' intervals,
because most games end alike.

The optimum table plays every layout of small boards exactly
(:mod:`mscsp.play.optimum`): the best win probability any player can reach, and
each policy's exact win probability on the same boards, so the gaps are exact; its
``inexact`` column counts the policies' analyses whose probabilities were not.

    python experiments/winrate.py --samples 20000 --headline 50000 --seed 42 --jobs 2 --out results/winrate
"""

from __future__ import annotations

import time
from fractions import Fraction
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis import inexact_answers
from ..board import PRESETS, Spec
from ..game import Game
from ..play.loop import play_game
from ..play.optimum import optimal_play, policy_play
from ..play.policies import Policy, choose
from ..rules import FirstClickRule, generate
from ..stats import paired_difference
from .cli import experiment_parser, finish, run_units
from .output import Timings, markdown_table, split_timings, summary_row
from .runner import Chunk, Unit, merge_counts

NAME = "winrate"
SIZES = ["beginner", "intermediate", "expert"]
#: The two starts, each rule with its players' first click (the same on every size here).
STARTS = [(rule, FirstClickRule.parse(rule).first_click(PRESETS["beginner"].geometry)) for rule in ("opening", "safe")]
POLICIES = [p.value for p in Policy]
BEST = Policy.ENDGAME.value


@dataclass(frozen=True)
class Record:
    """A published win rate of another player on one start, and where it is published."""

    rate: float
    player: str
    source: str
    #: The published margin of error, where one was given (a proportion).
    margin: float | None = None


#: The strongest published player's win rates on the same starts, each with its source.
RECORDS = {
    ("expert", "opening"): Record(0.543, "Hill's Java solver",
                                  "JSMinesweeper README (github.com/DavidNHill/JSMinesweeper, commit d8ff392)"),
    ("expert", "safe"): Record(0.41132, "Hill's Java solver",
                               "JSMinesweeper issue #38, 2025-05-05: 10 batches of 10^6 games", 0.0003),
}
#: Small boards whose every layout is played: (width, height, mines, rule), first click in the corner.
#: New boards go at the end, so the finished chunks of the others are reused by ``--resume``.
SMALL = [(4, 4, 3, "safe"), (4, 4, 4, "safe"), (4, 4, 4, "opening"), (5, 5, 4, "opening"),
         (5, 5, 5, "opening"), (5, 5, 4, "safe"), (6, 6, 5, "opening"), (6, 6, 6, "opening"), (6, 6, 5, "safe")]
#: Games of the best policy on Expert, per start, unless --headline says otherwise.
#: 50,000 keeps ``mscsp reproduce`` within an hour on two cores; the head-to-head
#: (``experiments/headtohead.py``) plays the same rung on 100,000 boards a start.
HEADLINE = 50_000
#: Rungs that play only this share of ``--samples`` on Expert: ``+deep`` takes about
#: four times ``+endgame``'s CPU a game there, and the whole of ``mscsp reproduce``
#: must stay within an hour on two cores (a ``--quick`` run plays every rung alike).
EXPERT_SHARE = {Policy.DEEP.value: Fraction(1, 4)}
CHUNK = 25
KEYS = ["board", "rule", "click_x", "click_y", "policy"]
TIMING = ["ms_per_game", "ms_per_guess"]
#: The columns that count the analyses whose probabilities were not exact (see the module docstring).
INEXACT = ["inexact_games", "rounded", "estimated"]


def _expert_games(policy: str, samples: int) -> int:
    """Games of ``policy`` on Expert in a full run, where it is in :data:`EXPERT_SHARE`."""
    return max(1, int(samples * EXPERT_SHARE[policy]))


def _record(size: str, rule: str, field: str):
    record = RECORDS.get((size, rule))
    return None if record is None else getattr(record, field)


def _board_seeds(chunk: Chunk) -> list[np.random.SeedSequence]:
    """Game ``i`` of a start gets the same board whatever the policy (paired rows)."""
    start = chunk.params["start"]
    return [np.random.SeedSequence(chunk.seed, spawn_key=(start, i)) for i in range(chunk.start, chunk.stop)]


def _games(chunk: Chunk) -> dict:
    p = chunk.params
    spec = Spec(**p["spec"])
    out = {"n": 0, "k": 0, "guesses": 0, "seconds": 0.0, "guess_seconds": 0.0, "guess_histogram": [0] * 11,
           "tallied": 0, "inexact_games": 0, "rounded": 0, "estimated": 0}
    won = []  # game by game, so that two policies can be compared on the same boards
    for ss in _board_seeds(chunk):
        board = generate(spec, p["rule"], tuple(p["click"]), np.random.Generator(np.random.PCG64(ss)))
        record = play_game(Game.from_board(board, record=False), board.click, policy=p["policy"])
        out["n"] += 1
        out["k"] += int(record.won)
        out["guesses"] += record.guesses
        out["seconds"] += record.seconds
        out["guess_seconds"] += record.guess_seconds
        out["guess_histogram"][min(record.guesses, 10)] += 1
        # chunks of an older run, resumed, lack these keys: ``tallied`` tells them apart
        out["tallied"] += 1
        out["inexact_games"] += not record.exact
        out["rounded"] += record.rounded
        out["estimated"] += record.estimated
        won.append("1" if record.won else "0")
    out["won"] = "".join(won)
    return out


def _optimum(chunk: Chunk) -> dict:
    p = chunk.params
    spec, rule, click = Spec(**p["spec"]), p["rule"], tuple(p["click"])
    best = optimal_play(spec, rule, click, time_limit=None)
    out = {"layouts": best.layouts, "optimum": best.wins, "optimum_seconds": best.seconds}
    inexact = inexact_answers()  # the policies' analyses (the optimum itself lists layouts)
    for policy in POLICIES:
        played = policy_play(spec, rule, click, lambda position, policy=policy: choose(position, policy),
                             time_limit=None)
        out[policy] = played.wins
    out["inexact"] = (inexact_answers() - inexact).total
    return out


def _work(chunk: Chunk) -> dict:
    return _optimum(chunk) if chunk.params["kind"] == "optimum" else _games(chunk)


def _units(samples: int, headline: int, quick: bool) -> list[Unit]:
    units = []
    for size in SIZES:
        spec = PRESETS[size]
        for s, (rule, click) in enumerate(STARTS):
            for policy in POLICIES:
                n = headline if size == "expert" and policy == BEST else samples
                if size == "expert" and policy in EXPERT_SHARE and not quick:
                    n = _expert_games(policy, samples)
                units.append(Unit(f"{size}/{rule}/{click[0]},{click[1]}/{policy}",
                                  {"kind": "games", "spec": spec.__dict__, "size": size, "rule": rule,
                                   "click": click, "policy": policy, "start": SIZES.index(size) * 10 + s}, n))
    for w, h, m, rule in SMALL[:1] if quick else SMALL:
        units.append(Unit(f"optimum/{w}x{h}/{m}/{rule}",
                          {"kind": "optimum", "spec": Spec(w, h, m).__dict__, "rule": rule, "click": (0, 0)}, 1))
    return units


def _rows(units: list[Unit], totals: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows, small = [], []
    for unit, t in zip(units, totals):
        p = unit.params
        spec = Spec(**p["spec"])
        x, y = p["click"]
        if p["kind"] == "optimum":
            row = {"board": f"{spec.width}x{spec.height}", "width": spec.width, "height": spec.height,
                   "mines": spec.mines, "rule": p["rule"], "click_x": x, "click_y": y, "layouts": t["layouts"],
                   "optimum": float(Fraction(t["optimum"], t["layouts"]))}
            for policy in POLICIES:
                row[policy] = float(Fraction(t[policy], t["layouts"]))
                row[f"gap {policy}"] = float(Fraction(t["optimum"] - t[policy], t["layouts"]))
            row["optimum_wins"] = t["optimum"]
            row["inexact"] = t.get("inexact")  # None from a chunk of an older run
            small.append(row)
            continue
        n, k = t["n"], t["k"]
        # every game's analyses tallied, or the columns stay empty (chunks of an older run)
        tallied = t.get("tallied", 0) == n
        rows.append(summary_row(
            p["size"], spec, p["rule"], (x, y), n, k, policy=p["policy"],
            mean_guesses=t["guesses"] / n, games_without_guess=t["guess_histogram"][0],
            record=_record(p["size"], p["rule"], "rate"), record_player=_record(p["size"], p["rule"], "player"),
            record_source=_record(p["size"], p["rule"], "source"),
            record_margin=_record(p["size"], p["rule"], "margin"),
            **{key: t[key] if tallied else None for key in INEXACT},
            ms_per_game=1e3 * t["seconds"] / n,
            ms_per_guess=1e3 * t["guess_seconds"] / t["guesses"] if t["guesses"] else None,
        ))
    return pd.DataFrame(rows), pd.DataFrame(small)


def _paired(units: list[Unit], won: list[str]) -> pd.DataFrame:
    """Each rung against the rung below and the default top rung against the bottom one, on
    the boards both played (the first ``min(n)`` of the start)."""
    games = {(u.params["size"], u.params["rule"], u.params["policy"]): w
             for u, w in zip(units, won) if u.params["kind"] == "games"}
    pairs = [*zip(POLICIES[1:], POLICIES[:-1]), (BEST, POLICIES[0])]
    rows = []
    for size in SIZES:
        spec = PRESETS[size]
        for rule, (x, y) in STARTS:
            for policy, against in pairs:
                tally = {"11": 0, "10": 0, "01": 0, "00": 0}
                for mine, theirs in zip(games[size, rule, policy], games[size, rule, against]):
                    tally[mine + theirs] += 1  # zip stops at the shorter: the boards both played
                n = sum(tally.values())
                diff, low, high = paired_difference(tally["11"], tally["10"], tally["01"], tally["00"])
                rows.append({"board": size, "width": spec.width, "height": spec.height, "mines": spec.mines,
                             "rule": rule, "click_x": x, "click_y": y, "policy": policy, "against": against,
                             "n": n, "both": tally["11"], "policy_only": tally["10"], "against_only": tally["01"],
                             "neither": tally["00"], "diff": diff, "low": low, "high": high})
    return pd.DataFrame(rows)


def _figure(df: pd.DataFrame):
    """The share of games won by each policy, a panel per size, at the paper's full
    width (:mod:`mscsp.experiments.figures`)."""
    from matplotlib.lines import Line2D

    from .figures import figure

    fig, axes = figure(1.0, 2.75, ncols=len(SIZES))
    records = []
    for ax, size in zip(axes, SIZES):
        for j, (rule, _) in enumerate(STARTS):
            part = df[(df["board"] == size) & (df["rule"] == rule)]
            xs = np.arange(len(part)) + (j - 0.5) * 0.3
            ax.errorbar(xs, 100 * part["p"], yerr=[100 * (part["p"] - part["low"]), 100 * (part["high"] - part["p"])],
                        fmt="o", capsize=2, elinewidth=0.8, color=f"C{j}", label=f"{rule} start")
            record = RECORDS.get((size, rule))
            if record is not None:
                ax.axhline(100 * record.rate, color=f"C{j}", linestyle="--", linewidth=0.8)
                records.append(rule)
        ax.set_xticks(np.arange(len(POLICIES)), POLICIES, rotation=35, ha="right", rotation_mode="anchor")
        ax.set_title(size)
    axes[0].set_ylabel("games won (%)")
    # the legend goes below the panels, where it hides no marker; a dashed line per start that has a record
    handles, labels = axes[0].get_legend_handles_labels()
    for j, (rule, _) in enumerate(STARTS):
        if rule in records:
            handles.append(Line2D([], [], color=f"C{j}", linestyle="--", linewidth=0.8))
            labels.append(f"Hill\u2019s published record, {rule} start")
    fig.legend(handles, labels, loc="outside lower center", ncol=2, columnspacing=1.5)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=20000, seed=42, quick=10)
    parser.add_argument("--headline", type=int, default=None,
                        help=f"games of the best policy on Expert (default: {HEADLINE}; with --quick: --samples)")
    parser.set_defaults(_numbers_depend_on=[("--headline", "headline")])
    args = parser.parse_args(argv)
    if args.headline is None:
        args.headline = args.samples if args.quick else HEADLINE
    if args.headline < 1:
        parser.error("--headline must be a positive whole number")
    started = time.perf_counter()
    out = Path(args.out)
    units = _units(args.samples, args.headline, args.quick)
    parts = run_units(NAME, units, _work, args, CHUNK, "game")
    # the games won, one character per game in board order, kept apart from the sums
    won = ["".join(part.pop("won", "") for part in unit_parts) for unit_parts in parts]
    df, small = _rows(units, [merge_counts(p) for p in parts])
    paired = _paired(units, won)
    df, timing = split_timings(df, KEYS, TIMING)
    cols = ["board", "rule", "click_x", "click_y", "policy", "n", "k", "p", "low", "high", "mean_guesses",
            "games_without_guess", *INEXACT, "record"]
    pcols = ["board", "rule", "policy", "against", "n", "policy_only", "against_only", "diff", "low", "high"]
    gaps = ["board", "mines", "rule", "layouts", "optimum", *POLICIES, *(f"gap {p}" for p in POLICIES), "inexact"]
    md = "\n".join([
        "# Win rates along the policy ladder\n",
        f"{args.samples} games per row, {args.headline} for `{BEST}` on Expert"
        + "".join(f", {_expert_games(p, args.samples)} for `{p}` there" for p in EXPERT_SHARE
                  if not args.quick)
        + f" (seed {args.seed}); every policy "
        "plays the same boards of a start. Deduction: complete (SAT and exact counting) with the mine total; "
        "guesses: the policy of the row (see `mscsp.play.policies`). `p` is the share of games won, "
        "`low`/`high` its Wilson 95% interval; `mean_guesses` counts the clicks made without proof after the "
        "first click. `inexact_games` counts the games in which some analysis was not exact, `rounded` and "
        "`estimated` those analyses by kind: probabilities from the counting programme in floating point with "
        "proven bounds, or from sampling estimates (or no number, where even they failed); while the two are "
        "0, every probability the player compared was an exact fraction. `record`: the strongest published "
        "player's win rate on that start (below; `record_player` and `record_source` in `summary.csv`).\n",
        markdown_table(df, columns=cols),
        "\nRecords: " + "; ".join(f"{size} {rule}: {100 * r.rate:g}%"
                                  + (f" +/- {100 * r.margin:g}%" if r.margin else "") + f", {r.player} ({r.source})"
                                  for (size, rule), r in RECORDS.items())
        + ". No win rate has been published for Beginner or Intermediate on these starts.\n",
        "\n## Each rung against the one below, on the same boards\n",
        "Game by game on the boards both policies played (the first `n` of the start): `policy_only` and "
        "`against_only` count the games only one of them won, `diff` is the difference in the share of games "
        "won, and `low`/`high` its paired 95% interval (Newcombe, 1998); the last row of a start sets the default "
        f"top rung, `{BEST}`, against the bottom one.\n",
        markdown_table(paired, columns=pcols),
        "\n`+progress` weighs only the cells within the tolerance (1/20) of the least mine probability. It "
        "used to weigh the six safest cells next to the numbers however risky, so that its progress term "
        "bought risk: on the classic start, whose early positions are small and where a risky cell often "
        "shows progress, it then lost 3.2 points to `least-p` (20,000 paired games; its first guesses had a "
        "mean mine probability of 0.266 against 0.189).\n",
        "\n## The exact optimum on small boards\n",
        "Every layout played (first click in the corner): `optimum` is the best win probability any player can "
        "reach; each policy's column is its exact win probability on the same layouts, and `gap` the "
        "difference; `inexact` counts the policies' analyses whose probabilities were not exact (0: every "
        "comparison was between exact fractions).\n",
        markdown_table(small, columns=gaps),
        "\n![win rates](winrate.png)\n",
    ])
    timing_md = "\n".join([
        "# Win rates: timings\n",
        "`ms_per_game`: mean time to play one game, first click to win or loss; `ms_per_guess`: mean time the "
        "policy spent choosing one guess.\n",
        markdown_table(timing),
    ])
    print(markdown_table(df, columns=cols), end="")
    print(markdown_table(paired, columns=pcols), end="")
    print(markdown_table(small, columns=gaps), end="")
    print(markdown_table(timing), end="")
    finish(out, NAME, args, {"summary": df, "paired": paired, "optimum": small}, md, started,
           figures={"winrate": _figure(df)}, extra={"headline": args.headline}, timings=Timings(timing, timing_md))
    return 0
