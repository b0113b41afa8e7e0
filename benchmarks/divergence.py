"""Where two players' games on the same boards part: the first guess that differs.

``results/headtohead/games.csv.gz`` holds, per start and board, whether mscsp and
David Hill's Java solver won and the cells each guessed, in order (``x,y;x,y``, ``-``
for none). On a board only one of them won, the two guess sequences part somewhere:
both open every cell proven safe, so up to the first guess that differs they have
seen the same position, and what follows that guess decides the board. This script
counts, per start, the boards only mscsp won and only Hill won by the place of that
first differing guess (the 1st, 2nd, 3rd, or a later one; "same guesses" when one
sequence is a prefix of the other), with the net (mscsp only minus Hill only); for
the first ``--pairs-for`` guesses of each start, the most common (mscsp's cell,
Hill's cell) pairs there with their net; and, to know the stage of the game there,
replays mscsp's game on a sample of those boards up to the differing guess (the board
dealt again by ``experiments/headtohead.py`` ``deal``, mscsp's play loop and policy)
and reports the cells open, the mines left and the layouts consistent with the
position.

The net of a row counts the boards where the sequences part there, whatever either
player did afterwards: it says where the difference between the players begins, not
that the differing guess alone caused it.

    python benchmarks/divergence.py                 # every board, 200 replays a start
    python benchmarks/divergence.py --quick         # 10,000 boards a start, 20 replays
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
GAMES = HERE.parent / "results" / "headtohead" / "games.csv.gz"
SEED = 1  # the seed results/headtohead dealt its boards with
POLICY = "+endgame"  # the rung results/headtohead played


def parse_cells(cells: str) -> list[str]:
    """A guess column (``x,y;x,y``, ``-`` for none) as a list of ``"x,y"``.

    Examples
    --------
    >>> parse_cells("3,0;0,15"), parse_cells("-")
    (['3,0', '0,15'], [])
    """
    return [] if cells in ("-", "") else cells.split(";")


def first_difference(a: str, b: str) -> int | None:
    """The index (from 0) of the first guess where the sequences ``a`` and ``b``
    differ; None when one is a prefix of the other.

    Examples
    --------
    >>> first_difference("29,0;5,5", "0,15;29,0"), first_difference("1,1;2,2", "1,1;3,3")
    (0, 1)
    >>> first_difference("1,1", "1,1;2,2") is None
    True
    """
    for k, (x, y) in enumerate(zip(parse_cells(a), parse_cells(b))):
        if x != y:
            return k
    return None


def stage_label(k: int | None, last: int = 4) -> str:
    """The row of a first difference ``k`` (from 0): ``1st`` ... , ``{last}+``, ``same guesses``.

    Examples
    --------
    >>> [stage_label(k) for k in (0, 1, 2, 3, 7, None)]
    ['1st', '2nd', '3rd', '4+', '4+', 'same guesses']
    """
    if k is None:
        return "same guesses"
    if k + 1 >= last:
        return f"{last}+"
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k + 1, f"{k + 1}th")


def read_games(path: Path) -> pd.DataFrame:
    """The games table, guesses as strings (``-`` kept, not read as missing)."""
    return pd.read_csv(path, dtype={"start": str, "mscsp_guesses": str, "java_guesses": str},
                       keep_default_na=False)


def discordant(games: pd.DataFrame) -> pd.DataFrame:
    """The boards only one player won, with ``k`` (the first difference, None for
    the same guesses), ``stage`` (its row) and the two cells there (``mscsp_cell``,
    ``hill_cell``; empty when the guesses are the same)."""
    d = games[games["mscsp_won"].astype(int) != games["java_won"].astype(int)].copy()
    ks = [first_difference(a, b) for a, b in zip(d["mscsp_guesses"], d["java_guesses"])]
    d["k"] = pd.array(ks, dtype="Int64")
    d["stage"] = [stage_label(k) for k in ks]
    d["mscsp_cell"] = ["" if k is None else parse_cells(a)[k] for k, a in zip(ks, d["mscsp_guesses"])]
    d["hill_cell"] = ["" if k is None else parse_cells(b)[k] for k, b in zip(ks, d["java_guesses"])]
    d["mscsp_won"] = d["mscsp_won"].astype(int)
    d["java_won"] = d["java_won"].astype(int)
    return d


STAGES = ["1st", "2nd", "3rd", "4+", "same guesses"]


def by_stage(d: pd.DataFrame) -> pd.DataFrame:
    """Per start and row of :func:`stage_label`: boards only mscsp won, only Hill won,
    and the net (mscsp only minus Hill only); every row shown, a total per start."""
    rows = []
    for start, g in d.groupby("start", sort=False):
        for stage in STAGES:
            s = g[g["stage"] == stage]
            m, h = int(s["mscsp_won"].sum()), int(s["java_won"].sum())
            rows.append({"start": start, "first difference": stage, "mscsp only": m, "Hill only": h, "net": m - h})
        m, h = int(g["mscsp_won"].sum()), int(g["java_won"].sum())
        rows.append({"start": start, "first difference": "all", "mscsp only": m, "Hill only": h, "net": m - h})
    return pd.DataFrame(rows, columns=["start", "first difference", "mscsp only", "Hill only", "net"])


def top_pairs(d: pd.DataFrame, start: str, k: int, top: int = 10) -> pd.DataFrame:
    """The ``top`` most common (mscsp's cell, Hill's cell) pairs where the guesses of
    ``start`` first differ at guess ``k`` (from 0), most boards first (ties by the
    cells), with the boards only each won and the net."""
    s = d[(d["start"] == start) & (d["k"] == k)]
    t = (s.groupby(["mscsp_cell", "hill_cell"]).agg(boards=("mscsp_won", "size"), mscsp_only=("mscsp_won", "sum"),
                                                    hill_only=("java_won", "sum")).reset_index())
    t["net"] = t["mscsp_only"] - t["hill_only"]
    t = t.sort_values(["boards", "mscsp_cell", "hill_cell"], ascending=[False, True, True]).head(top)
    return t.rename(columns={"mscsp_cell": "mscsp cell", "hill_cell": "Hill cell", "mscsp_only": "mscsp only",
                             "hill_only": "Hill only"}).reset_index(drop=True)


def _headtohead():
    """``experiments/headtohead.py`` (its ``deal`` deals the boards of the results)."""
    name = "headtohead_experiment"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE.parent / "experiments" / "headtohead.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class _Reached(Exception):
    """Raised by the replay's guess hook once the position before guess ``k`` is seen."""


def stage_at(start: str, board: int, k: int, guesses: str, seed: int = SEED, policy: str = POLICY) -> dict:
    """mscsp's game on board ``board`` of ``start`` replayed up to its guess ``k``
    (from 0): the cells open then, the mines not yet proven, the layouts consistent
    with the position, and whether the replay's guesses before ``k`` are the recorded
    ones (``guesses``, mscsp's column)."""
    from mscsp.analysis import Survey
    from mscsp.game import Game
    from mscsp.play.loop import play_game
    from mscsp.play.policies import choose

    h2h = _headtohead()
    dealt = h2h.deal(h2h.BY_NAME[start], seed, board)
    recorded = parse_cells(guesses)
    seen: dict = {}
    made: list[str] = []

    def guess(position, j):
        if j == k:
            seen["position"] = position
            raise _Reached
        cell = choose(position, policy)
        made.append(f"{cell[0]},{cell[1]}")
        return cell

    try:
        play_game(Game.from_board(dealt, record=False), dealt.click, policy=policy, guess=guess)
    except _Reached:
        pass
    position = seen.get("position")
    if position is None:
        return {"start": start, "board": board, "k": k, "replayed": False}
    layouts = Survey(position).layouts
    return {"start": start, "board": board, "k": k, "replayed": made == recorded[:k],
            "open": int(position.revealed.sum()), "covered": int(position.covered_count),
            "mines left": int(position.mines) - int(position.flag_count),
            "log10 layouts": math.log10(layouts) if layouts else float("nan")}


def stages(d: pd.DataFrame, sample: int, rng: np.random.Generator) -> pd.DataFrame:
    """:func:`stage_at` on up to ``sample`` boards of each start drawn by ``rng``
    among those only one player won whose guesses differ."""
    rows = []
    for start, g in d[d["k"].notna()].groupby("start", sort=False):
        pick = g.iloc[np.sort(rng.choice(len(g), size=min(sample, len(g)), replace=False))]
        for r in pick.itertuples(index=False):
            row = stage_at(start, int(r.board), int(r.k), r.mscsp_guesses)
            row["stage"] = r.stage
            rows.append(row)
    return pd.DataFrame(rows)


def stage_summary(s: pd.DataFrame) -> pd.DataFrame:
    """Per start and row: boards replayed, how many reproduced the recorded guesses,
    and the medians of open cells, mines left and log10 of the layouts."""
    out = []
    for (start, stage), g in s.groupby(["start", "stage"], sort=False):
        ok = g[g["replayed"]]
        out.append({"start": start, "first difference": stage, "replayed": len(g), "same guesses as recorded": len(ok),
                    "open (median)": ok["open"].median(), "mines left (median)": ok["mines left"].median(),
                    "log10 layouts (median)": round(ok["log10 layouts"].median(), 1)})
    t = pd.DataFrame(out)
    return t.sort_values(["start", "first difference"], key=lambda c: c.map({x: i for i, x in enumerate(STAGES)})
                         if c.name == "first difference" else c, kind="stable").reset_index(drop=True)


def markdown(df: pd.DataFrame) -> str:
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=GAMES, help="the games table (default: %(default)s)")
    parser.add_argument("--boards", type=int, help="only boards 0 .. N-1 of each start")
    parser.add_argument("--sample", type=int, default=200, help="boards replayed a start (default 200; 0: none)")
    parser.add_argument("--pairs-for", type=int, default=2, help="cell pairs for the first N guesses (default 2)")
    parser.add_argument("--top", type=int, default=10, help="cell pairs shown (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the replay sample (default 1)")
    parser.add_argument("--quick", action="store_true", help="10,000 boards a start, 20 replays")
    args = parser.parse_args(argv)
    if args.quick:
        args.boards, args.sample = args.boards or 10_000, min(args.sample, 20)
    if not args.games.is_file():
        parser.exit(2, f"divergence.py: no games table at {args.games}\n")
    if args.boards is not None and args.boards < 1 or args.sample < 0:
        parser.exit(2, "divergence.py: --boards must be positive and --sample not negative\n")
    games = read_games(args.games)
    if args.boards is not None:
        games = games[games["board"] < args.boards]
    d = discordant(games)
    print("## Boards only one player won, by the first guess that differs\n")
    print(markdown(by_stage(d)))
    for start in d["start"].unique():
        for k in range(args.pairs_for):
            print(f"\n## {start}: the cells at the first difference, guess {k + 1}\n")
            print(markdown(top_pairs(d, start, k, args.top)))
    if args.sample:
        s = stages(d, args.sample, np.random.default_rng(args.seed))
        print(f"\n## The position at the first difference (mscsp's game replayed, {args.sample} boards a start, "
              f"sample seed {args.seed})\n")
        print(markdown(stage_summary(s)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
