"""mscsp's player side by side with David Hill's solvers: win rates and CPU time per game.

The strongest published Minesweeper player is David Hill's Java solver
(github.com/DavidNHill/Minesweeper); JSMinesweeper (github.com/DavidNHill/JSMinesweeper)
is its JavaScript sibling. This benchmark plays the same settings with mscsp's
guessing ladder (in this process, one thread) and, when their checkouts are given,
with Hill's solvers (each in a process of its own, one thread, one after another, so
no two players share the cores):

- ``--hill-java PATH``: a checkout of the Java solver, built here with ``javac`` (its
  game-state, solver and asynchronous sources; no GUI) together with
  ``benchmarks/hill/HillPlay.java``, a driver written for this benchmark that sets the
  solver up as Hill's bulk runner does (small-analysis settings, single thread, no
  flags) and times each game by the CPU time of the thread that plays it;
- ``--jsminesweeper PATH``: a checkout of JSMinesweeper, whose browser scripts
  ``benchmarks/hill/jsplay.mjs`` loads unchanged into a Node ``vm`` context, with the
  solver options of its bulk run, timing each game by the process's CPU time.

Nothing of theirs is copied here; the drivers call their code. Measured with
DavidNHill/Minesweeper 0806bb80 and DavidNHill/JSMinesweeper d8ff3925.

Each player deals its own boards from its own generator (Hill's games place the mines
at the first click, with the same rule), so the win rates are compared through
their Wilson intervals, not board by board. With ``--same-boards`` the Java solver
plays mscsp's boards instead (``benchmarks/hill/FixedBoard.java`` gives his solver a
game whose mines are set, not dealt): the two players are then compared game by game,
with Newcombe's paired interval for the difference (:func:`mscsp.stats.paired_difference`),
several times narrower than the two Wilson intervals side by side, and ``--games-out``
writes each game's result and guesses for both players, to find where they part
(``experiments/headtohead.py`` plays the same boards at the record's scale: resumable
chunks, ``--jobs`` or Dask, a results folder). The starts: modern Expert (the first
click an opening at (3, 3)), classic Expert (the first click safe at (0, 0)), and
Beginner and Intermediate with an opening at (2, 2) and at (3, 3). CPU time: for
mscsp the process's CPU time around each game (one thread; the first games of each
start are left out as warm-up), for Java the playing thread's and, separately, the
whole JVM's after its warm-up games (the JIT compiler runs on threads of its own),
for JSMinesweeper the process's.

    python benchmarks/players.py --games 2000 --hill-java ~/src/Minesweeper --jsminesweeper ~/src/JSMinesweeper
    python benchmarks/players.py --games 50 --only expert-classic   # mscsp alone, a quick look
    python benchmarks/players.py --same-boards --games 5000 --hill-java ~/src/Minesweeper --only expert-classic

The table printed gives per player and start: games, wins, win rate with its 95%
Wilson interval, CPU milliseconds per game, and the ratio of mscsp's CPU time to
each other player's (below 1: mscsp is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from mscsp.board import PRESETS
from mscsp.game import Game
from mscsp.play.loop import play_game
from mscsp.play.policies import Policy
from mscsp.rules import generate
from mscsp.stats import paired_difference, wilson

HERE = Path(__file__).resolve().parent / "hill"


@dataclass(frozen=True)
class Start:
    name: str
    preset: str
    rule: str
    click: tuple[int, int]

    @property
    def spec(self):
        return PRESETS[self.preset]


STARTS = [
    Start("expert-modern", "expert", "opening", (3, 3)),
    Start("expert-classic", "expert", "safe", (0, 0)),
    Start("beginner-22", "beginner", "opening", (2, 2)),
    Start("beginner-33", "beginner", "opening", (3, 3)),
    Start("intermediate-22", "intermediate", "opening", (2, 2)),
    Start("intermediate-33", "intermediate", "opening", (3, 3)),
]


@dataclass(frozen=True)
class Row:
    player: str
    start: str
    games: int
    wins: int
    ms_per_game: float  # the player's own thread (mscsp: the process, one thread)
    process_ms_per_game: float | None = None  # the whole process, where it differs

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def play_mscsp(start: Start, games: int, warmup: int, seed: int, policy: str, index: int) -> Row:
    """mscsp's ladder on seeded boards of one start, CPU time per game."""
    wins, cpu = 0, []
    for i in range(warmup + games):
        ss = np.random.SeedSequence(seed, spawn_key=(index, i))
        board = generate(start.spec, start.rule, start.click, np.random.Generator(np.random.PCG64(ss)))
        began = time.process_time()
        record = play_game(Game.from_board(board, record=False), board.click, policy=policy)
        spent = time.process_time() - began
        if i >= warmup:
            wins += record.won
            cpu.append(spent)
    return Row(f"mscsp {policy}", start.name, games, wins, 1000 * statistics.fmean(cpu))


def deal(start: Start, seed: int, i: int):
    """Board ``i`` of a start for the same-boards comparison (negative ``i``: warm-up boards)."""
    ss = np.random.SeedSequence(seed, spawn_key=(zlib.crc32(start.name.encode()), i + (1 << 32) * (i < 0)))
    return generate(start.spec, start.rule, start.click, np.random.Generator(np.random.PCG64(ss)))


@dataclass(frozen=True)
class Played:
    """One game of the same-boards comparison: won, CPU nanoseconds, the guesses' cells."""

    won: bool
    cpu_ns: int
    guesses: tuple[tuple[int, int], ...]


def _java_boards(build: Path, lines: list[str], warmup: int) -> subprocess.Popen:
    """Hill's solver started on the given boards (read from a file)."""
    cmd = _java_command(build, "boards", str(warmup))
    with tempfile.TemporaryFile("w+") as boards:
        boards.write("".join(lines))
        boards.seek(0)
        return subprocess.Popen(cmd, stdin=boards, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _java_results(proc: subprocess.Popen, games: int) -> list[Played]:
    out, err = proc.communicate()
    if proc.returncode:
        raise SystemExit(f"players.py: Hill's Java solver failed on the given boards:\n{err.strip()}")
    return parse_boards(out, games)


def parse_boards(text: str, games: int) -> list[Played]:
    """The driver's report on given boards: ``index won cpu_ns guesses`` a game, the
    guesses ``x,y;x,y`` (``-`` for none), then its TOTAL line."""
    played = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] != "TOTAL":
            cells = () if parts[3] == "-" else tuple(tuple(map(int, g.split(","))) for g in parts[3].split(";"))
            played.append(Played(parts[1] == "1", int(parts[2]), cells))
    if len(played) != games:
        raise SystemExit(f"players.py: Hill's Java solver reported {len(played)} games of {games}")
    return played


def same_boards(build: Path, start: Start, games: int, seed: int, policy: str, warmup: int,
                java_warmup: int) -> tuple[dict, list[dict]]:
    """mscsp and Hill's Java solver on the same boards of one start: a row of the
    paired table and one record per game."""
    boards = [deal(start, seed, i) for i in range(games)]
    warm = [deal(start, seed, -1 - i) for i in range(max(warmup, java_warmup))]

    def line(board) -> str:
        mines = " ".join(map(str, np.flatnonzero(board.layout.mines).tolist()))
        return f"{start.spec.width} {start.spec.height} {start.click[0]} {start.click[1]} {mines}\n"

    ours = []
    for i, board in enumerate(warm[:warmup] + boards):
        began = time.process_time_ns()
        record = play_game(Game.from_board(board, record=False), board.click, policy=policy)
        if i >= warmup:
            ours.append(Played(record.won, time.process_time_ns() - began, record.guessed))
    # his solver plays after this process has played, not beside it: two players on
    # the cores at once slow each other, and the CPU times would say so
    theirs = _java_results(_java_boards(build, [line(b) for b in warm[:java_warmup] + boards], java_warmup), games)
    both = sum(a.won and b.won for a, b in zip(ours, theirs))
    ours_only = sum(a.won and not b.won for a, b in zip(ours, theirs))
    theirs_only = sum(b.won and not a.won for a, b in zip(ours, theirs))
    diff, low, high = paired_difference(both, ours_only, theirs_only, games - both - ours_only - theirs_only)
    row = {"start": start.name, "games": games, "mscsp_wins": both + ours_only, "java_wins": both + theirs_only,
           "mscsp_only": ours_only, "java_only": theirs_only, "diff": diff, "low": low, "high": high,
           "mscsp_ms": statistics.fmean(p.cpu_ns for p in ours) / 1e6,
           "java_ms": statistics.fmean(p.cpu_ns for p in theirs) / 1e6}
    records = [{"start": start.name, "game": i, "mscsp_won": a.won, "java_won": b.won,
                "mscsp_guesses": a.guesses, "java_guesses": b.guesses} for i, (a, b) in enumerate(zip(ours, theirs))]
    return row, records


def paired_table(rows: list[dict], policy: str) -> str:
    lines = [f"| start | games | mscsp {policy} % | Hill Java % | mscsp only | Java only | "
             "mscsp - Java (points) | 95% paired | mscsp ms | Java ms | ratio |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    for r in rows:
        g = r["games"]
        lines.append(f"| {r['start']} | {g} | {100 * r['mscsp_wins'] / g:.2f} | {100 * r['java_wins'] / g:.2f} | "
                     f"{r['mscsp_only']} | {r['java_only']} | {100 * r['diff']:+.2f} | "
                     f"[{100 * r['low']:+.2f}, {100 * r['high']:+.2f}] | {r['mscsp_ms']:.2f} | {r['java_ms']:.2f} | "
                     f"{r['mscsp_ms'] / r['java_ms']:.2f}x |")
    return "\n".join(lines)


def _checkout_commit(path: Path) -> str:
    try:
        out = subprocess.run(["git", "-C", str(path), "rev-parse", "--short=8", "HEAD"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown commit"
    return out.stdout.strip() if out.returncode == 0 else "unknown commit (not a git checkout)"


def build_java(checkout: Path, out: Path) -> Path:
    """Hill's solver and our driver compiled into ``out``; the classpath to run them."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        raise SystemExit("players.py: --hill-java needs a JDK (javac and java on PATH)")
    parts = [checkout / d / "src" for d in ("MinesweeperGameState", "MineSweeperSolver", "Asynchronous")]
    missing = [str(p) for p in parts if not p.is_dir()]
    if missing:
        raise SystemExit(f"players.py: {checkout} is not a checkout of DavidNHill/Minesweeper "
                         f"(no {', '.join(missing)})")
    sources = sorted(str(f) for p in parts for f in p.rglob("*.java"))
    (out / "hill").mkdir(parents=True, exist_ok=True)
    (out / "driver").mkdir(exist_ok=True)
    listing = out / "sources.txt"
    listing.write_text("\n".join(sources) + "\n")
    subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(out / "hill"), f"@{listing}"], check=True,
                   capture_output=True)
    subprocess.run(["javac", "-encoding", "UTF-8", "-cp", str(out / "hill"), "-d", str(out / "driver"),
                    str(HERE / "HillPlay.java"), str(HERE / "FixedBoard.java")], check=True, capture_output=True)
    return out


def _parse(player: str, start: Start, text: str, games: int) -> Row:
    per_game, total = [], None
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "TOTAL":
            total = (int(parts[1]), int(parts[2]), int(parts[3]))
        elif len(parts) == 3:
            per_game.append((int(parts[1]), int(parts[2])))
    if total is None or total[0] != games or len(per_game) != games:
        raise SystemExit(f"players.py: {player} printed {len(per_game)} games of {games} for {start.name}")
    wins = sum(w for w, _ in per_game)
    thread_ms = statistics.fmean(ns for _, ns in per_game) / 1e6
    return Row(player, start.name, games, wins, thread_ms, total[2] / 1e6 / games)


def _args(start: Start, games: int, seed: int, warmup: int) -> list[str]:
    s = start.spec
    return [str(s.width), str(s.height), str(s.mines), start.rule, str(start.click[0]), str(start.click[1]),
            str(games), str(seed), str(warmup)]


def _java_command(build: Path, *args: str) -> list[str]:
    """The driver run on the built classes with ``args``."""
    classpath = os.pathsep.join([str(build / "hill"), str(build / "driver")])
    # one processor for the JVM's own helpers too: the solver runs single-threaded
    return ["java", "-Xss16m", "-XX:ActiveProcessorCount=1", "-XX:+UseSerialGC", "-cp", classpath, "HillPlay",
            *args]


def play_java(build: Path, start: Start, games: int, seed: int, warmup: int) -> Row:
    out = subprocess.run(_java_command(build, *_args(start, games, seed, warmup)), capture_output=True, text=True,
                         check=True)
    return _parse("Hill Java", start, out.stdout, games)


def play_js(checkout: Path, start: Start, games: int, seed: int, warmup: int) -> Row:
    if shutil.which("node") is None:
        raise SystemExit("players.py: --jsminesweeper needs Node.js (node on PATH)")
    env = {**os.environ, "JSMS_DIR": str(checkout)}
    out = subprocess.run(["node", str(HERE / "jsplay.mjs"), *_args(start, games, seed, warmup)], capture_output=True,
                         text=True, check=True, env=env)
    row = _parse("JSMinesweeper", start, out.stdout, games)
    return Row(row.player, row.start, row.games, row.wins, row.ms_per_game)  # one figure: the process's


def table(rows: list[Row]) -> str:
    ours = {r.start: r for r in rows if r.player.startswith("mscsp")}
    lines = ["| player | start | games | wins | win % | 95% interval | CPU ms/game | whole process | mscsp / this |",
             "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    for r in rows:
        lo, hi = r.interval
        mine = ours.get(r.start)
        ratio = "" if mine is None or r is mine else f"{mine.ms_per_game / r.ms_per_game:.2f}x"
        if r.process_ms_per_game is not None and mine is not None and r is not mine:
            ratio += f" ({mine.ms_per_game / r.process_ms_per_game:.2f}x)"
        process = "" if r.process_ms_per_game is None else f"{r.process_ms_per_game:.2f}"
        lines.append(f"| {r.player} | {r.start} | {r.games} | {r.wins} | {100 * r.rate:.2f} | "
                     f"[{100 * lo:.2f}, {100 * hi:.2f}] | {r.ms_per_game:.2f} | {process} | {ratio} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per start and player (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default=Policy.ENDGAME.value, choices=[p.value for p in Policy],
                        help="mscsp's rung (default the top)")
    parser.add_argument("--warmup", type=int, default=20, help="mscsp games left out first, per start (default 20)")
    parser.add_argument("--java-warmup", type=int, default=1000,
                        help="Java games left out first, per start, so that the JIT has compiled the solver "
                             "(default 1000)")
    parser.add_argument("--js-warmup", type=int, default=50)
    parser.add_argument("--js-games", type=int, help="JSMinesweeper's games per start, when fewer (it is the "
                        "slowest player here)")
    parser.add_argument("--hill-java", type=Path, metavar="PATH", help="a checkout of DavidNHill/Minesweeper")
    parser.add_argument("--jsminesweeper", type=Path, metavar="PATH", help="a checkout of DavidNHill/JSMinesweeper")
    parser.add_argument("--only", nargs="+", choices=[s.name for s in STARTS], help="these starts only")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--same-boards", action="store_true",
                        help="Hill's Java solver plays mscsp's boards: a game-by-game comparison (needs --hill-java)")
    parser.add_argument("--games-out", type=Path, help="(with --same-boards) write each game's results and "
                        "guesses here, one JSON object a line")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.same_boards and args.hill_java is None:
        parser.error("--same-boards needs --hill-java")
    starts = [s for s in STARTS if args.only is None or s.name in args.only]
    print(f"# {args.games} games per start and player, seed {args.seed}; mscsp {args.policy}", flush=True)
    build = None
    if args.hill_java is not None:
        build = build_java(args.hill_java, Path(tempfile.mkdtemp(prefix="hill-java-")))
        print(f"# Hill's Java solver: {args.hill_java} at {_checkout_commit(args.hill_java)}", flush=True)
    if args.jsminesweeper is not None:
        print(f"# JSMinesweeper: {args.jsminesweeper} at {_checkout_commit(args.jsminesweeper)}", flush=True)
    if args.same_boards:
        paired, records = [], []
        for start in starts:
            row, games = same_boards(build, start, args.games, args.seed, args.policy, args.warmup, args.java_warmup)
            paired.append(row)
            records += games
            print(f"# {start.name}: done", file=sys.stderr, flush=True)
        print(paired_table(paired, args.policy))
        if args.json is not None:
            args.json.write_text(json.dumps(paired, indent=1) + "\n")
        if args.games_out is not None:
            args.games_out.write_text("".join(json.dumps(r) + "\n" for r in records))
        shutil.rmtree(build, ignore_errors=True)
        return 0
    rows: list[Row] = []
    for index, start in enumerate(STARTS):
        if start not in starts:
            continue
        rows.append(play_mscsp(start, args.games, args.warmup, args.seed, args.policy, index))
        print(f"# {start.name}: mscsp done", file=sys.stderr, flush=True)
        if build is not None:
            rows.append(play_java(build, start, args.games, args.seed, args.java_warmup))
        if args.jsminesweeper is not None:
            rows.append(play_js(args.jsminesweeper, start, args.js_games or args.games, args.seed, args.js_warmup))
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps([{**asdict(r), "rate": r.rate, "interval": r.interval} for r in rows],
                                        indent=1) + "\n")
    if build is not None:
        shutil.rmtree(build, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
