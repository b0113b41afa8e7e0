"""What one guess is worth: mscsp plays on from a cell another player chose, on the same board.

Two diagnostics for the guessing ladder, each measured by playing whole games:

``parted``
    reads the per-game file of ``benchmarks/players.py --same-boards --games-out``
    (mscsp and Hill's Java solver on the same boards, each game's guesses) and, for each
    game where the two players' guesses differ, rebuilds the position before the first
    guess that differs (mscsp's own play up to it: the guesses before it are the same,
    and both players open every cell proven safe) and plays the board on from the
    *other* player's cell with mscsp's policy. The true layout is one draw from that
    position's posterior, so over many games the mean of "won after the other cell"
    minus "won after ours" estimates what the choice is worth, with mscsp playing the
    rest. Rows group the positions by where they part (the first guess with only the
    corner's number shown, or later; on or off the cells next to the numbers).

``corner``
    the first guess of the classic start, forced: boards of the classic Expert start
    (a safe click in the corner) whose corner shows a number, each played once per
    candidate second click (``--cells``), the rest by the policy; each cell's win rate
    and its paired difference from the first cell listed.

Both print Markdown tables with 95% normal intervals of the paired differences.

    python benchmarks/players.py --same-boards --only expert-classic --games 10000 --seed 1 \\
        --hill-java PATH --games-out classic1.jsonl
    python benchmarks/forced.py parted classic1.jsonl --seed 1 --jobs 2
    python benchmarks/forced.py corner --boards 40000 --seed 3 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from players import STARTS, deal  # noqa: E402

from mscsp.analysis import Survey  # noqa: E402
from mscsp.game import Game  # noqa: E402
from mscsp.play.loop import play_game  # noqa: E402
from mscsp.play.policies import Policy, choose  # noqa: E402

POLICY = Policy.ENDGAME
CLASSIC = next(s for s in STARTS if s.name == "expert-classic")


def play(board, forced: dict[int, tuple[int, int]], seen: dict | None = None) -> bool:
    """Whether the policy wins ``board`` with guess ``k`` replaced by ``forced[k]``
    (``(x, y)``), played by the ladder's own loop (:func:`mscsp.play.loop.play_game`);
    with ``seen``, the position before each forced guess is kept there, by ``k``."""

    def guess(position, k):
        if k not in forced:
            return choose(position, POLICY)
        if seen is not None:
            seen[k] = position
        return forced[k]

    return play_game(Game.from_board(board, record=False), board.click, policy=POLICY, guess=guess).won


def _parted(task):
    record, seed, start_name = task
    start = next(s for s in STARTS if s.name == start_name)
    ours, theirs = [tuple(c) for c in record["mscsp_guesses"]], [tuple(c) for c in record["java_guesses"]]
    k = 0
    while k < min(len(ours), len(theirs)) and ours[k] == theirs[k]:
        k += 1
    if k == len(ours) or k == len(theirs):
        return None  # the same guesses, or one player stopped guessing
    board = deal(start, seed, record["game"])
    g = board.layout.geometry
    mine, other = g.index(*ours[k]), g.index(*theirs[k])
    seen: dict = {}
    # the guesses before k are the policy's own (ours), so the game reaches guess k as ours did
    won_other = play(board, {k: theirs[k]}, seen)
    if k not in seen:
        return None
    position = seen[k]
    frontier = set(Survey(position).system.frontier)
    first = k == 0 and int(position.revealed.sum()) == 1
    where = ("first guess, the corner's number alone" if first else
             f"later, ours {'on' if mine in frontier else 'off'} the numbers, theirs "
             f"{'on' if other in frontier else 'off'}")
    return where, bool(record["mscsp_won"]), won_other


def _diff_row(label: str, pairs: list[tuple[bool, bool]], games: int) -> str:
    n = len(pairs)
    d = [int(b) - int(a) for a, b in pairs]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    return (f"| {label} | {n} | {100 * sum(a for a, _ in pairs) / n:.2f}% | {100 * sum(b for _, b in pairs) / n:.2f}% "
            f"| {100 * mean:+.2f} ± {100 * half:.2f} | {100 * mean * n / games:+.2f} |")


def parted(path: Path, seed: int, start: str, jobs: int) -> str:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    with Pool(jobs) as pool:
        found = pool.map(_parted, [(r, seed, start) for r in records], chunksize=20)
    groups: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for f in found:
        if f is not None:
            groups[f[0]].append(f[1:])
            groups["all"].append(f[1:])
    lines = ["| where they part | positions | our cell, then mscsp | their cell, then mscsp | difference (points), 95% "
             "| per game of all |", "| --- | ---: | ---: | ---: | --- | ---: |"]
    for label in sorted(groups, key=lambda g: (g != "all", -len(groups[g]))):
        lines.append(_diff_row(label, groups[label], len(records)))
    return "\n".join(lines)


def _corner(task):
    i, seed, cells = task
    board = deal(CLASSIC, seed, i)
    probe = Game.from_board(board, record=False)
    if len(probe.reveal(board.click)) != 1:
        return None  # the corner opened: there is no such guess
    return [play(board, {0: tuple(c)}) for c in cells]


def corner(boards: int, seed: int, cells: list[tuple[int, int]], jobs: int) -> str:
    with Pool(jobs) as pool:
        found = [w for w in pool.imap(_corner, [(i, seed, cells) for i in range(boards)], chunksize=50) if w]
    lines = [f"{len(found)} boards of {boards} whose corner shows a number", "",
             f"| second click | boards | {cells[0]} won | won | difference (points), 95% | per classic game |",
             "| --- | ---: | ---: | ---: | --- | ---: |"]
    for k, c in enumerate(cells):
        lines.append(_diff_row(str(c), [(w[0], w[k]) for w in found], boards))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("parted", help="play on from the other player's cell where the guesses first differ")
    p.add_argument("games_out", type=Path, help="the file of players.py --same-boards --games-out")
    p.add_argument("--seed", type=int, required=True, help="the seed players.py dealt the boards with")
    p.add_argument("--start", default="expert-classic", choices=[s.name for s in STARTS])
    p.add_argument("--jobs", type=int, default=1)
    c = sub.add_parser("corner", help="the classic start's second click, forced")
    c.add_argument("--boards", type=int, default=2000, help="classic Expert boards dealt (default 2000)")
    c.add_argument("--seed", type=int, default=3)
    c.add_argument("--cells", default="2,0 0,15 29,0 29,15 0,2", help="second clicks, x,y (default: %(default)s)")
    c.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.what == "parted":
        print(parted(args.games_out, args.seed, args.start, args.jobs))
    else:
        cells = [tuple(int(v) for v in cell.split(",")) for cell in args.cells.split()]
        print(corner(args.boards, args.seed, cells, args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
