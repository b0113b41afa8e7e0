"""Where two players' games on the same boards part: the first guess that differs.

``results/headtohead/games.csv.gz`` holds, per start and board, whether mscsp and
David Hill's Java solver won and the cells each guessed, in order (``x,y;x,y``, ``-``
for none; a guess is a click on a cell its player had not proven safe). Both open
every cell they prove safe, so up to the first guess where the two sequences differ
they have seen the same position; after it the positions differ and no later guess
can be compared. This script reports, per start, for the boards only Hill won, only
mscsp won, and (for comparison) both lost:

- the index of that first differing guess (0: the first guess), as counts and shares
  for 0, 1, 2 and 3 or later, "same guesses" when one sequence is the other's prefix
  (one player died or won without a further guess);
- the net, Hill only minus mscsp only, by that index: where the deficit begins (it
  counts every board parting there, whatever either player did afterwards, so it
  says where the difference begins, not that the differing guess alone caused it);
- the most common (mscsp's cell, Hill's cell) pairs at the first few indices;
- with ``--replay N``: for ``N`` boards of each one-player-won class (drawn with
  ``--seed``), the board dealt again as ``experiments/headtohead.py`` ``deal`` deals
  it, mscsp's game replayed to the differing guess, and at that position both cells'
  exact mine probabilities, whether each is next to a number (on the frontier), the
  rung that chose mscsp's cell (:func:`mscsp.play.policies.move`), the layouts and
  the covered cells; summaries say how often Hill's cell was safer, as safe, or less
  safe than mscsp's, overall and by rung. The replay checks that it made the
  recorded guesses up to and including mscsp's differing one; boards where it did
  not are counted apart and left out of the summaries.

The players never see the hidden layout; only the replay deals it, to play mscsp's
game again.

    python benchmarks/divergence.py results/headtohead/games.csv.gz
    python benchmarks/divergence.py results/headtohead/games.csv.gz --starts expert-classic \\
        --replay 200 --seed 5 --cases classic_cases.csv

A census of every board one player won (``--replay`` larger than the classes) in
parts, each a short run: ``--boards 50000 --replay 100000`` and ``--from-board 50000
--replay 100000``, each with its own ``--cases``.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
GAMES = HERE.parent / "results" / "headtohead" / "games.csv.gz"
DEAL_SEED = 1  # the seed results/headtohead dealt its boards with (its --seed default)
POLICY = "+endgame"  # the rung results/headtohead played
COLUMNS = ["start", "board", "mscsp_won", "java_won", "mscsp_guesses", "java_guesses"]
INDICES = ["0", "1", "2", "3+", "same guesses"]
CLASSES = ["Hill only", "mscsp only", "both lost"]
CELLS = r"-|\d+,\d+(;\d+,\d+)*"


class GamesError(ValueError):
    """A games table this script cannot read (the message is one line)."""


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
    differ; None when one is a prefix of the other ("same guesses").

    Examples
    --------
    >>> first_difference("29,0;5,5", "0,15;29,0"), first_difference("1,1;2,2", "1,1;3,3")
    (0, 1)
    >>> first_difference("1,1", "1,1;2,2") is None, first_difference("-", "-") is None
    (True, True)
    """
    for k, (x, y) in enumerate(zip(parse_cells(a), parse_cells(b))):
        if x != y:
            return k
    return None


def index_label(k: int | None) -> str:
    """The row of a first difference ``k``: ``0``, ``1``, ``2``, ``3+`` or ``same guesses``.

    Examples
    --------
    >>> [index_label(k) for k in (0, 1, 2, 3, 7, None)]
    ['0', '1', '2', '3+', '3+', 'same guesses']
    """
    if k is None:
        return "same guesses"
    return str(k) if k < 3 else "3+"


def read_games(path: Path) -> pd.DataFrame:
    """The games table, checked: the six columns, wins 0 or 1, guesses ``x,y;...`` or ``-``.

    Raises
    ------
    GamesError
        When the file is missing, unreadable or not such a table.
    """
    if not Path(path).is_file():
        raise GamesError(f"no games table at {path}")
    try:
        games = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (OSError, EOFError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise GamesError(f"{path} is not a readable CSV table ({type(e).__name__})") from None
    missing = [c for c in COLUMNS if c not in games.columns]
    if missing:
        raise GamesError(f"{path} lacks the column(s) {', '.join(missing)}")
    for column in ("mscsp_won", "java_won"):
        bad = ~games[column].isin(["0", "1"])
        if bad.any():
            raise GamesError(f"{path} row {int(np.argmax(bad)) + 2}: {column} is {games[column][bad].iloc[0]!r}, "
                             "not 0 or 1")
    bad = ~games["board"].str.fullmatch(r"\d+")
    if bad.any():
        raise GamesError(f"{path} row {int(np.argmax(bad)) + 2}: board is {games['board'][bad].iloc[0]!r}")
    for column in ("mscsp_guesses", "java_guesses"):
        bad = ~games[column].str.fullmatch(CELLS)
        if bad.any():
            raise GamesError(f"{path} row {int(np.argmax(bad)) + 2}: {column} is {games[column][bad].iloc[0]!r}, "
                             "not x,y;x,y or -")
    games["board"] = games["board"].astype(int)
    games["mscsp_won"] = games["mscsp_won"].astype(int)
    games["java_won"] = games["java_won"].astype(int)
    return games


def classify(games: pd.DataFrame) -> pd.DataFrame:
    """The boards only Hill won, only mscsp won, and both lost, with ``class``, ``k``
    (the first difference, <NA> for the same guesses), ``index`` (its row) and the
    two cells there (``mscsp_cell``, ``hill_cell``; empty for the same guesses)."""
    m, j = games["mscsp_won"], games["java_won"]
    d = games[(m == 0) | (j == 0)].copy()
    d["class"] = np.where(d["java_won"] == 1, "Hill only", np.where(d["mscsp_won"] == 1, "mscsp only", "both lost"))
    ks = [first_difference(a, b) for a, b in zip(d["mscsp_guesses"], d["java_guesses"])]
    d["k"] = pd.array(ks, dtype="Int64")
    d["index"] = [index_label(k) for k in ks]
    d["mscsp_cell"] = ["" if k is None else parse_cells(a)[k] for k, a in zip(ks, d["mscsp_guesses"])]
    d["hill_cell"] = ["" if k is None else parse_cells(b)[k] for k, b in zip(ks, d["java_guesses"])]
    return d


def distribution(d: pd.DataFrame) -> pd.DataFrame:
    """Per start and class, the boards whose first difference is at each index,
    with their shares of the class (percent, one decimal)."""
    rows = []
    for start, g in d.groupby("start", sort=False):
        for cls in CLASSES:
            c = g[g["class"] == cls]
            row = {"start": start, "class": cls, "boards": len(c)}
            for index in INDICES:
                n = int((c["index"] == index).sum())
                row[index] = f"{n} ({100 * n / len(c):.1f}%)" if len(c) else "0"
            rows.append(row)
    return pd.DataFrame(rows, columns=["start", "class", "boards", *INDICES])


def net_by_index(d: pd.DataFrame) -> pd.DataFrame:
    """Per start and index: boards only Hill won, only mscsp won, and the net
    (Hill only minus mscsp only; positive where mscsp falls behind), a total per start."""
    rows = []
    for start, g in d.groupby("start", sort=False):
        for index in [*INDICES, "all"]:
            s = g if index == "all" else g[g["index"] == index]
            h, m = int((s["class"] == "Hill only").sum()), int((s["class"] == "mscsp only").sum())
            rows.append({"start": start, "index": index, "Hill only": h, "mscsp only": m, "net": h - m})
    return pd.DataFrame(rows, columns=["start", "index", "Hill only", "mscsp only", "net"])


def top_pairs(d: pd.DataFrame, start: str, k: int, top: int = 10) -> pd.DataFrame:
    """The ``top`` most common (mscsp's cell, Hill's cell) pairs among the boards of
    ``start`` one player won whose guesses first differ at index ``k``, most boards
    first (ties by the cells), with the boards each won alone and the net (Hill only
    minus mscsp only)."""
    s = d[(d["start"] == start) & (d["k"] == k) & (d["class"] != "both lost")]
    t = (s.assign(h=s["class"] == "Hill only", m=s["class"] == "mscsp only")
         .groupby(["mscsp_cell", "hill_cell"])
         .agg(boards=("h", "size"), hill_only=("h", "sum"), mscsp_only=("m", "sum")).reset_index())
    t["net"] = t["hill_only"] - t["mscsp_only"]
    t = t.sort_values(["boards", "mscsp_cell", "hill_cell"], ascending=[False, True, True]).head(top)
    return t.rename(columns={"mscsp_cell": "mscsp cell", "hill_cell": "Hill cell", "hill_only": "Hill only",
                             "mscsp_only": "mscsp only"}).reset_index(drop=True)


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


def _cell(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def compare(p_mscsp: Fraction, p_hill: Fraction) -> str:
    """Hill's cell against mscsp's by mine probability: ``safer``, ``as safe`` or ``less safe``.

    Examples
    --------
    >>> compare(Fraction(1, 3), Fraction(1, 4)), compare(Fraction(1, 4), Fraction(2, 8))
    ('safer', 'as safe')
    """
    return "safer" if p_hill < p_mscsp else "as safe" if p_hill == p_mscsp else "less safe"


def replay_at(start: str, board: int, k: int, mscsp_guesses: str, java_guesses: str, seed: int = DEAL_SEED,
              policy: str = POLICY) -> dict:
    """mscsp's game on board ``board`` of ``start`` replayed to its guess ``k`` (from 0),
    and at that position: both players' cells there with their exact mine
    probabilities, whether each is next to a number, the rung of mscsp's move, the
    layouts, the covered cells. ``reproduced`` says whether the replay made the
    recorded guesses up to and including guess ``k`` (the other values are only
    comparable when it did)."""
    from mscsp.analysis.survey import Survey
    from mscsp.game import Game
    from mscsp.play.loop import play_game
    from mscsp.play.policies import choose, move

    h2h = _headtohead()
    dealt = h2h.deal(h2h.BY_NAME[start], seed, board)
    recorded, hill = parse_cells(mscsp_guesses), parse_cells(java_guesses)
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
    row = {"start": start, "board": board, "k": k, "mscsp cell": recorded[k], "Hill cell": hill[k]}
    position = seen.get("position")
    if position is None or made != recorded[:k]:
        return {**row, "reproduced": False}
    survey = Survey(position)
    chosen = move(position, policy, survey=survey)
    probabilities = survey.probabilities
    if f"{chosen.cell[0]},{chosen.cell[1]}" != recorded[k] or not probabilities.exact:
        return {**row, "reproduced": False}
    g = position.geometry
    frontier = set(survey.system.frontier)

    def p(text: str) -> Fraction | None:
        flat = g.cell(_cell(text), "cell")
        if bool(position.flagged.flat[flat]):
            return Fraction(1)  # a proven mine in mscsp's position
        return probabilities.by_index.get(flat)  # None: open in mscsp's position

    p_m, p_h = p(recorded[k]), p(hill[k])
    covered = np.append(position.covered, False)
    on_frontier = np.zeros(g.area + 1, dtype=bool)
    on_frontier[list(frontier)] = True

    def kind(text: str) -> tuple[bool, int, int]:
        # away from the numbers every cell has one probability; _pool tells such cells
        # apart by this alone, so two cells of one kind tie and the order picks
        flat = g.cell(_cell(text), "cell")
        rows = g.neighbour_rows(np.array([flat], dtype=np.int64))
        return flat in frontier, int(covered[rows].sum()), int((covered[rows] & on_frontier[rows]).sum())

    rung = chosen.rung.value + (" (walled)" if chosen.walled else " (pseudo)" if chosen.pseudo else "")
    return {**row, "reproduced": True, "p mscsp": p_m, "p Hill": p_h,
            "Hill is": "open here" if p_h is None else compare(p_m, p_h),
            "mscsp frontier": g.cell(_cell(recorded[k]), "cell") in frontier,
            "Hill frontier": g.cell(_cell(hill[k]), "cell") in frontier,
            "same kind": not kind(recorded[k])[0] and kind(recorded[k]) == kind(hill[k]),
            "rung": rung, "layouts": survey.layouts, "covered": int(position.covered_count),
            "open": int(position.revealed.sum())}


def replays(d: pd.DataFrame, n: int, rng: np.random.Generator, seed: int = DEAL_SEED) -> pd.DataFrame:
    """:func:`replay_at` on up to ``n`` boards of each start and one-player-won class
    (whose guesses differ), drawn by ``rng``."""
    rows = []
    for start, g in d[d["k"].notna() & (d["class"] != "both lost")].groupby("start", sort=False):
        for cls in CLASSES[:2]:
            c = g[g["class"] == cls]
            pick = c.iloc[np.sort(rng.choice(len(c), size=min(n, len(c)), replace=False))]
            for r in pick.itertuples(index=False):
                row = replay_at(start, int(r.board), int(r.k), r.mscsp_guesses, r.java_guesses, seed=seed)
                rows.append({"class": cls, "index": r.index, **row})
    return pd.DataFrame(rows)


def _tally(r: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Counts of Hill's cell safer / as safe / less safe than mscsp's (and open in
    mscsp's position) per group of ``by``, with the boards."""
    kinds = ["safer", "as safe", "less safe", "open here"]
    rows = []
    for key, g in r.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(by, key)) | {"boards": len(g)} | {f"Hill {k}": int((g["Hill is"] == k).sum()) for k in kinds}
        rows.append(row)
    t = pd.DataFrame(rows)
    return t.loc[:, (t != 0).any(axis=0) | ~t.columns.str.startswith("Hill ")]


def layouts_bucket(n: int) -> str:
    """The row of a position with ``n`` layouts: ``2``, ``3-100``, ``101-10^6``, ``>10^6``.

    Examples
    --------
    >>> [layouts_bucket(n) for n in (2, 100, 101, 10**6, 10**6 + 1)]
    ['2', '3-100', '101-10^6', '101-10^6', '>10^6']
    """
    return "2" if n <= 2 else "3-100" if n <= 100 else "101-10^6" if n <= 10**6 else ">10^6"


def situation(mscsp_frontier: bool, hill_frontier: bool, hill_is: str, same_kind: bool) -> str:
    """Where each cell was and how Hill's compared, in words.

    Examples
    --------
    >>> situation(False, False, "as safe", True), situation(True, False, "less safe", False)
    ('both off, one kind (a tie)', 'mscsp on, Hill off; Hill less safe')
    """
    if not mscsp_frontier and not hill_frontier:
        return "both off, one kind (a tie)" if same_kind else "both off, other kinds"
    where = {(True, True): "both on", (True, False): "mscsp on, Hill off", (False, True): "mscsp off, Hill on"}
    return f"{where[mscsp_frontier, hill_frontier]}; Hill {hill_is}"


def net_by_situation(ok: pd.DataFrame, sizes: dict[tuple[str, str], int]) -> pd.DataFrame:
    """Per start and :func:`situation`: the replayed boards only Hill won and only
    mscsp won, and the net (Hill only minus mscsp only) scaled to the class sizes
    ``sizes[start, class]`` (each class's boards stand for the class; in a census the
    scale is 1)."""
    rows = []
    for start, g in ok.groupby("start", sort=False):
        scale = {c: sizes[start, c] / max(1, int((g["class"] == c).sum())) for c in CLASSES[:2]}
        for where, s in g.groupby("situation", sort=True):
            h, m = int((s["class"] == "Hill only").sum()), int((s["class"] == "mscsp only").sum())
            rows.append({"start": start, "situation": where, "Hill only": h, "mscsp only": m,
                         "net (scaled)": round(h * scale["Hill only"] - m * scale["mscsp only"])})
    return pd.DataFrame(rows)


def replay_summary(r: pd.DataFrame, sizes: dict[tuple[str, str], int] | None = None) -> dict[str, pd.DataFrame]:
    """The summaries of :func:`replays`: Hill's cell against mscsp's per start and
    class; the same by rung, by frontier, by index and by layouts; with ``sizes``
    (the boards of each start and class), the net by :func:`situation`; and the
    replays not reproduced."""
    ok = r[r["reproduced"]].copy()
    out = {"reproduced": r.groupby(["start", "class"], sort=False)["reproduced"].agg(["size", "sum"])
           .rename(columns={"size": "replayed", "sum": "reproduced"}).reset_index()}
    if ok.empty:
        return out
    ok["frontier (mscsp, Hill)"] = [f"{'on' if a else 'off'}, {'on' if b else 'off'}"
                                    for a, b in zip(ok["mscsp frontier"], ok["Hill frontier"])]
    out["by class"] = _tally(ok, ["start", "class"])
    if sizes:
        ok["situation"] = [situation(*v) for v in zip(ok["mscsp frontier"], ok["Hill frontier"], ok["Hill is"],
                                                         ok["same kind"])]
        out["net by situation"] = net_by_situation(ok, sizes)
    out["by rung"] = _tally(ok, ["start", "rung", "class"])
    out["by frontier"] = _tally(ok, ["start", "frontier (mscsp, Hill)", "class"])
    out["by index"] = _tally(ok, ["start", "index", "class"])
    ok["layouts left"] = [layouts_bucket(n) for n in ok["layouts"]]
    out["by layouts"] = _tally(ok, ["start", "layouts left", "class"])
    off = ok[~ok["mscsp frontier"] & ~ok["Hill frontier"]]
    if not off.empty:
        out["both off the frontier, by kind"] = _tally(off.assign(kind=np.where(off["same kind"], "same kind",
                                                                                 "other kinds")),
                                                       ["start", "kind", "class"])
    return out


def markdown(df: pd.DataFrame) -> str:
    cols = list(df.columns)
    lines = ["| " + " | ".join(map(str, cols)) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=Path, default=GAMES, help="the games table (default: %(default)s)")
    parser.add_argument("--starts", nargs="+", help="only these starts (default: every start in the table)")
    parser.add_argument("--boards", type=int, help="only boards 0 .. N-1 of each start")
    parser.add_argument("--from-board", type=int, default=0, metavar="N",
                        help="only boards N and after of each start (default 0), to replay a census in parts")
    parser.add_argument("--pairs-for", type=int, default=1, help="cell pairs for the first N indices (default 1)")
    parser.add_argument("--top", type=int, default=8, help="cell pairs shown (default 8)")
    parser.add_argument("--replay", type=int, default=0, metavar="N",
                        help="replay N boards of each one-player-won class a start (default 0: none)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the replay sample (default 1)")
    parser.add_argument("--cases", type=Path, help="write the replayed cases to this CSV")
    args = parser.parse_args(argv)
    if args.boards is not None and args.boards < 1 or min(args.replay, args.pairs_for, args.from_board) < 0:
        parser.exit(2, "divergence.py: --boards must be positive, --replay, --pairs-for and --from-board "
                    "not negative\n")
    try:
        games = read_games(args.games)
    except GamesError as e:
        parser.exit(2, f"divergence.py: {e}\n")
    if args.starts:
        unknown = sorted(set(args.starts) - set(games["start"]))
        if unknown:
            parser.exit(2, f"divergence.py: no start {', '.join(unknown)} in {args.games}\n")
        games = games[games["start"].isin(args.starts)]
    if args.boards is not None:
        games = games[games["board"] < args.boards]
    games = games[games["board"] >= args.from_board]
    d = classify(games)
    print("## The first guess where the players' guesses differ (0: the first guess)\n")
    print(markdown(distribution(d)))
    print("\n## Net by that index (Hill only minus mscsp only)\n")
    print(markdown(net_by_index(d)))
    for start in d["start"].unique():
        for k in range(args.pairs_for):
            print(f"\n## {start}: the cells at index {k}, boards one player won\n")
            print(markdown(top_pairs(d, start, k, args.top)))
    if args.replay:
        r = replays(d, args.replay, np.random.default_rng(args.seed))
        if args.cases:
            r.to_csv(args.cases, index=False)
        print(f"\n## mscsp's game replayed to the first difference ({args.replay} boards a class, "
              f"sample seed {args.seed}): Hill's cell against mscsp's, from the same position\n")
        sizes = {(start, c): int(((d["start"] == start) & (d["class"] == c) & d["k"].notna()).sum())
                 for start in d["start"].unique() for c in CLASSES[:2]}
        for name, table in replay_summary(r, sizes).items():
            print(f"### {name}\n")
            print(markdown(table) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
