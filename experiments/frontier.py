"""The strength–time frontier on Expert: win rate against CPU time per game.

Every rung of mscsp's player (the win-rate ladder of ``results/winrate``), David
Hill's Java solver as measured here on the same boards as mscsp (``results/headtohead``
and any other head-to-head folder given), and the published players, each with its
source. No game is played: the figures come from the folders named, and
``config.json`` records the revision of mscsp that made each.

The published players:

- Hill's Java solver, the record: 41.132% of classic Expert games over 10^7 games
  (JSMinesweeper issue #38, 2025-05-05) and 54.3% with an opening at (3, 3)
  (the JSMinesweeper README);
- Tu et al.'s PSEQ and its exact search once at most 256 solver states remain (D256):
  39.61% and 40.04% of classic Expert games, 52.79% and 53.45% with an opening at
  their (4, 4), counted from 1, which is modern Expert's (3, 3) (J. Tu, T. Li, S. Chen,
  C. Zu, Z. Gu, "Exploring efficient strategies for Minesweeper", AAAI Workshops 2017);
- ``totte174/minesolve``'s depth-limited search at depths 1 to 4: 39.00, 40.27, 40.68
  and 40.80% of classic Expert games, the last at about 830 ms a game (its README).

Published times come from other machines, so they only place a player roughly; a
published player without a time is drawn as a line across its panel.

The results folder: ``summary.csv`` (player, start, games, wins, win rate with its
95% Wilson interval where the games are known, source) and ``README.md``, ``config.json``
(the folders read and their revisions); the timing files ``timings.csv``, ``timings.md``
and ``timings.png``/``.pdf`` (the frontier: CPU milliseconds per game on a log scale
against the win rate), as the times are this machine's.

    python experiments/frontier.py --out results/frontier
    python experiments/frontier.py --headtohead results/headtohead results/headtohead_tu --out results/frontier
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from mscsp.errors import InputError
from mscsp.experiments.output import Timings, markdown_table, provenance, write_results
from mscsp.stats import wilson

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent / "results"
EXPERIMENT = "frontier"

#: The Expert starts of the frontier: (name, the win-rate table's rule and click, in words).
STARTS = {
    "expert-classic": ("safe", 0, 0, "classic Expert: a safe first click at (0, 0)"),
    "expert-modern": ("opening", 3, 3, "modern Expert: an opening at (3, 3)"),
}

HILL_ISSUE = "JSMinesweeper issue #38, 2025-05-05: 10 batches of 10^6 games"
HILL_README = "JSMinesweeper README (github.com/DavidNHill/JSMinesweeper, commit d8ff392)"
TU = "Tu et al., Exploring efficient strategies for Minesweeper, AAAI Workshops 2017"
MINESOLVE = "github.com/totte174/minesolve README"

#: (player, start, games or None, win rate, ms per game or None, source)
PUBLISHED = [
    ("Hill Java (published)", "expert-classic", 10_000_000, 0.41132, None, HILL_ISSUE),
    ("Hill Java (published)", "expert-modern", None, 0.543, None, HILL_README),
    ("Tu et al. PSEQ", "expert-classic", None, 0.3961, None, TU),
    ("Tu et al. PSEQ", "expert-modern", None, 0.5279, None, TU),
    ("Tu et al. PSEQ-D256", "expert-classic", None, 0.4004, None, TU),
    ("Tu et al. PSEQ-D256", "expert-modern", None, 0.5345, None, TU),
    ("minesolve depth 1", "expert-classic", None, 0.3900, None, MINESOLVE),
    ("minesolve depth 2", "expert-classic", None, 0.4027, None, MINESOLVE),
    ("minesolve depth 3", "expert-classic", None, 0.4068, None, MINESOLVE),
    ("minesolve depth 4", "expert-classic", None, 0.4080, 830.0, MINESOLVE),
]


FOOTER = ("\n---\n\nCPU times depend on the machine and its load, so they are kept apart: "
          "[`timings.md`](timings.md), `timings.csv`, `timings.png` (the frontier). `run.json` records how this "
          "run was made. `mscsp reproduce` does not run this experiment, as it reads the head-to-head runs "
          "against Hill's solver, which are made by hand; the command above makes the same files from the same "
          "folders.\n")

#: Published players' lines, one colour each, apart from the measured players' blue and red.
COLOURS = ["C3", "C3", "C1", "C1", "C2", "C4", "C5", "C6", "C7", "C8"]


def _read(folder: Path, name: str) -> pd.DataFrame:
    path = folder / name
    try:
        return pd.read_csv(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file (run the experiment that makes {folder.name} first)") from None


def _revision(folder: Path) -> str | None:
    try:
        return json.loads((folder / "run.json").read_text())["git"]["revision"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def ladder(winrate: Path) -> pd.DataFrame:
    """The rungs of the win-rate table on the Expert starts, with their CPU time."""
    table = _read(winrate, "summary.csv").merge(
        _read(winrate, "timings.csv"), on=["board", "rule", "click_x", "click_y", "policy"], how="left")
    rows = []
    for start, (rule, x, y, _) in STARTS.items():
        here = table[(table["board"] == "expert") & (table["rule"] == rule) & (table["click_x"] == x)
                     & (table["click_y"] == y)]
        for r in here.itertuples():
            rows.append({"player": f"mscsp {r.policy}", "start": start, "games": int(r.n), "wins": int(r.k),
                         "ms_per_game": float(r.ms_per_game), "kind": "mscsp rung",
                         "source": f"{winrate.name} (this repository)"})
    return pd.DataFrame(rows)


def head_to_head(folder: Path) -> pd.DataFrame:
    """Both players of a head-to-head folder: wins on the same boards and CPU per game
    (Hill's: the thread that plays)."""
    times = _read(folder, "timings.csv")[["start", "mscsp_ms", "java_ms"]]
    table = _read(folder, "summary.csv").merge(times, on="start", how="left")
    rows = []
    for r in table.itertuples():
        if r.start not in STARTS:
            continue
        for who, wins, ms in (("mscsp +endgame", r.mscsp_wins, r.mscsp_ms), ("Hill Java (measured)", r.java_wins,
                                                                             r.java_ms)):
            rows.append({"player": who, "start": r.start, "games": int(r.n), "wins": int(wins),
                         "ms_per_game": float(ms), "kind": "same boards",
                         "source": f"{folder.name} (this repository, the same boards for both)"})
    return pd.DataFrame(rows)


def published() -> pd.DataFrame:
    return pd.DataFrame([{"player": p, "start": s, "games": n, "wins": None if n is None else round(rate * n),
                          "rate": rate, "ms_per_game": ms, "kind": "published", "source": src}
                         for p, s, n, rate, ms, src in PUBLISHED])


def frontier(winrate: Path, folders: list[Path]) -> pd.DataFrame:
    """Every player and start: win rate with its Wilson interval where the games are known."""
    same, seen = [], set()
    for folder in folders:  # a start measured in several folders is taken from the first
        rows = head_to_head(folder)
        if len(rows):
            rows = rows[~rows["start"].isin(seen)]
            seen |= set(rows["start"])
            same.append(rows)
    table = pd.concat([ladder(winrate), *same, published()], ignore_index=True)
    rates, lows, highs = [], [], []
    for r in table.itertuples():
        if pd.isna(r.games) or pd.isna(r.wins):
            rates.append(r.rate)
            lows.append(None)
            highs.append(None)
            continue
        low, high = wilson(int(r.wins), int(r.games))
        rates.append(int(r.wins) / int(r.games))
        lows.append(low)
        highs.append(high)
    table["rate"], table["low"], table["high"] = rates, lows, highs
    table["games"] = table["games"].astype("Int64")
    table["wins"] = table["wins"].astype("Int64")
    order = {s: i for i, s in enumerate(STARTS)}
    table = table.sort_values(["start", "kind", "rate"], key=lambda c: c.map(order) if c.name == "start" else c,
                              kind="stable").reset_index(drop=True)
    return table[["start", "player", "kind", "games", "wins", "rate", "low", "high", "ms_per_game", "source"]]


def figure(table: pd.DataFrame):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    starts = [s for s in STARTS if (table["start"] == s).any()]
    fig, axes = plt.subplots(1, len(starts), figsize=(4.2 * len(starts), 3.8), layout="constrained", squeeze=False)
    for ax, start in zip(axes[0], starts):
        here = table[table["start"] == start]
        rungs = here[here["kind"] == "mscsp rung"].sort_values("ms_per_game")
        if len(rungs):
            ax.errorbar(rungs["ms_per_game"], 100 * rungs["rate"],
                        yerr=[100 * (rungs["rate"] - rungs["low"]), 100 * (rungs["high"] - rungs["rate"])],
                        fmt="o-", color="C0", ms=4, capsize=2, label="mscsp rungs (win-rate table)")
            for r in rungs.itertuples():
                ax.annotate(r.player.removeprefix("mscsp "), (r.ms_per_game, 100 * r.rate), fontsize=7,
                            xytext=(3, -9), textcoords="offset points")
        for who, colour, marker in (("mscsp +endgame", "C0", "s"), ("Hill Java (measured)", "C3", "D")):
            same = here[(here["kind"] == "same boards") & (here["player"] == who)]
            for r in same.itertuples():
                ax.errorbar([r.ms_per_game], [100 * r.rate], yerr=[[100 * (r.rate - r.low)], [100 * (r.high - r.rate)]],
                            fmt=marker, color=colour, mfc="none", ms=6, capsize=2,
                            label=f"{who}, same boards ({r.games:,})")
        for r in here[here["kind"] == "published"].itertuples():
            colour = COLOURS[[p for p, *_ in PUBLISHED].index(r.player) % len(COLOURS)]
            if pd.notna(r.ms_per_game):
                ax.plot([r.ms_per_game], [100 * r.rate], "^", color=colour, label=f"{r.player} (published)")
            else:
                ax.axhline(100 * r.rate, color=colour, lw=0.8, ls="--", label=f"{r.player}")
        ax.set_xscale("log")
        ax.set_xlim(0.5, 2000)  # one scale for every panel, from the cheapest rung to minesolve's depth 4
        ax.set_xlabel("CPU ms per game")
        ax.set_ylabel("games won (%)")
        ax.set_title(STARTS[start][3], fontsize=9)
        ax.legend(fontsize=6, loc="lower right")
    fig.suptitle("Expert: strength against time", fontsize=10)
    return fig


def _pct(x) -> str:
    return "" if x is None or pd.isna(x) else f"{100 * x:.2f}"


def readme(table: pd.DataFrame, command: str, folders: dict[str, str | None]) -> str:
    shown = table.assign(**{"win %": table["rate"].map(_pct), "low": table["low"].map(_pct),
                            "high": table["high"].map(_pct)})
    return "\n".join([
        "# The strength–time frontier on Expert\n",
        "Win rates of every rung of mscsp's player, of Hill's Java solver measured here on the same boards as "
        "mscsp, and of the published players, with 95% Wilson intervals where the number of games is known. "
        "Nothing is played: the rows come from the folders below (and their revisions). CPU milliseconds per "
        "game are in the timing files (`timings.md`, and `timings.png`, the frontier), as they are this "
        "machine's; published times are their authors' machines'.\n",
        f"    {command}\n",
        "Folders read: " + ", ".join(f"`{name}` (made at {str(rev)[:7] if rev else 'an unknown revision'})"
                                     for name, rev in folders.items()) + ".\n",
        markdown_table(shown, columns=["start", "player", "kind", "games", "wins", "win %", "low", "high", "source"],
                       digits=2),
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="experiments/frontier.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--winrate", type=Path, default=RESULTS / "winrate", help="the win-rate folder")
    parser.add_argument("--headtohead", type=Path, nargs="*", default=[RESULTS / "headtohead"],
                        help="head-to-head folders against Hill's Java solver, a start taken from the first "
                             "folder that has it (default: results/headtohead)")
    parser.add_argument("--out", type=Path, required=True, help="the results folder to write")
    args = parser.parse_args(argv)
    try:
        table = frontier(args.winrate, args.headtohead)
    except InputError as exc:
        print(f"experiments/frontier.py: {exc}", file=sys.stderr)
        return 2
    folders = {f.name: _revision(f) for f in [args.winrate, *args.headtohead]}
    command = ("python experiments/frontier.py --winrate results/" + args.winrate.name + " --headtohead "
               + " ".join(f"results/{f.name}" for f in args.headtohead) + " --out results/frontier")
    config = {"experiment": EXPERIMENT, "command": command, "folders": folders,
              "published": [{"player": p, "start": s, "games": n, "rate": r, "ms_per_game": ms, "source": src}
                            for p, s, n, r, ms, src in PUBLISHED]}
    timing = table[["start", "player", "kind", "ms_per_game"]].dropna(subset=["ms_per_game"])
    timing_md = "\n".join(["# CPU milliseconds per game\n",
                           "mscsp's rungs: the win-rate run's CPU per game; the same-board rows: the head-to-head "
                           "run's (mscsp's process, Hill's playing thread); published: their authors' machines.\n",
                           markdown_table(timing, digits=2)])
    run = {"experiment": EXPERIMENT, **provenance(["python", "experiments/frontier.py", *(argv or sys.argv[1:])])}
    text = readme(table, command, folders)
    write_results(args.out, {"summary": table.drop(columns=["ms_per_game"])}, text,
                  config, run=run, timings=Timings(timing, timing_md, figure(table)))
    # write_results's footer speaks of `mscsp reproduce`, which does not run this experiment
    (args.out / "README.md").write_text(text.rstrip("\n") + "\n" + FOOTER)
    print(markdown_table(table, columns=["start", "player", "games", "rate", "low", "high", "ms_per_game"], digits=4))
    return 0


if __name__ == "__main__":
    sys.exit(main())
