"""mscsp against David Hill's Java solver on the same boards, at the record's scale.

David Hill's Java solver (github.com/DavidNHill/Minesweeper) holds the published
record for Minesweeper players (41.132% of classic Expert games over 10^7 games,
JSMinesweeper issue #38). Two players this close are told apart only game by game:
both play the very same boards, and the difference of their win rates gets
Newcombe's paired interval (:func:`mscsp.stats.paired_difference`; R. G. Newcombe,
"Improved confidence intervals for the difference between binomial proportions based
on paired data", Statistics in Medicine 17, 1998), several times narrower than the two
Wilson intervals side by side, because most boards end alike for both.

``benchmarks/players.py --same-boards`` plays such a comparison in one go; this
experiment plays it at the scale of the record (10^5 to 10^6 boards per start) and so

- cuts each start's boards into chunks of a fixed size (``--chunk``, a property of
  the run, never of ``--jobs``), each chunk's games written to ``OUT/.chunks/`` as it
  finishes; a rerun with the same settings skips the finished chunks, and a rerun
  with more boards plays only the new ones (:func:`mscsp.experiments.runner.run_chunks`);
- deals board ``i`` of a start from ``SeedSequence(seed, spawn_key=(crc32(start), i))``
  (the boards of ``benchmarks/players.py --same-boards``), so no board depends on the
  chunking, on ``--jobs`` or on which starts are run;
- runs the chunks on ``--jobs`` local processes, or on a Dask cluster with ``--dask
  tcp://HOST:PORT`` (install the ``dask`` extra, ``pip install mscsp[dask]``; the
  workers must import this mscsp and find the Hill checkout and a JDK at the same
  paths, and build the solver themselves, once per worker process; start them with
  one thread each, ``dask worker --nthreads 1``, or the CPU times count the other
  threads' games too);
- keeps one warm JVM per worker process (``benchmarks/hill/HillPlay.java serve``:
  boards in on standard input, one answer a game), warmed up on ``--java-warmup``
  boards of each start before its first chunk there, as mscsp's player is on
  ``--warmup`` boards, so that neither player's CPU time counts its start-up;
- keeps each game's result for both players: ``games.csv.gz`` (won, and the cells
  each guessed) and ``timings_games.csv.gz`` (CPU nanoseconds of each).

Within a chunk mscsp plays every board first, in this process, and then the JVM plays
them, one at a time, so the two players never share a core and each one's CPU time is
its own: mscsp's is the process's CPU time around each game (one thread), Hill's the
playing thread's and, apart, the whole JVM's (its JIT compiler and collector run on
threads of their own).

The starts are the six of ``benchmarks/players.py`` (modern Expert: an opening at
(3, 3); classic Expert: a safe first click at (0, 0); Beginner and Intermediate with
an opening at (2, 2) and (3, 3)) and the settings of Tu et al.'s PSEQ (J. Tu, T. Li,
S. Chen, C. Zu, Z. Gu, "Exploring efficient strategies for Minesweeper", AAAI
Workshops 2017), so their published figures compare directly: their classic Expert
is ``expert-classic``; their Expert with an opening first click "at (4, 4)" is
``expert-modern``, as their solver counts cells from 1 (its parser subtracts one from
both coordinates), which is (3, 3) here; ``tu-beginner`` (8x8/10) and ``tu-intermediate`` (16x16/40)
have a safe first click in the corner, as the first author's public solver defines
them (the paper names the levels only).

The results folder: ``summary.csv`` and ``README.md`` (per start: both win rates with
their Wilson intervals, the boards only one of them won, the paired difference with
Newcombe's interval), ``config.json`` (the command, the seed, the boards, Hill's
commit), the per-game files above, and the timing files ``timings.csv`` and
``timings.md`` (CPU milliseconds per game of both and their ratio) and ``run.json``
(the machine, the revision of mscsp and whether it had uncommitted changes).

    python experiments/headtohead.py --hill-java ~/src/Minesweeper --starts expert-classic expert-modern \\
        --boards 100000 --jobs 2 --out results/headtohead
    python experiments/headtohead.py --hill-java ~/src/Minesweeper --quick --out /tmp/h2h   # the plumbing

A pair of Expert games costs some 25 to 35 ms of CPU (mscsp's game and Hill's whole
JVM's), so 10^5 boards of one start take about an hour of one core, and 10^6 half a
day of two cores, or a cluster.
"""

from __future__ import annotations

import argparse
import atexit
import gzip
import hashlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
import zlib
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from mscsp.board import Spec
from mscsp.experiments.output import Timings, markdown_table, provenance, write_results
from mscsp.experiments.runner import Chunk, Unit, run_chunks
from mscsp.play.policies import Policy
from mscsp.stats import paired_difference, wilson

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parent / "benchmarks"
EXPERIMENT = "headtohead"


@dataclass(frozen=True)
class Start:
    """A row: a board size, its first-click rule and where the first click is."""

    name: str
    width: int
    height: int
    mines: int
    rule: str
    click: tuple[int, int]
    note: str = ""

    @property
    def spec(self) -> Spec:
        return Spec(self.width, self.height, self.mines)


#: Every start, in a fixed order: a chunk is named by its start's place in this list.
STARTS = [
    Start("expert-modern", 30, 16, 99, "opening", (3, 3), "modern Expert; Tu et al.'s Expert with an opening"),
    Start("expert-classic", 30, 16, 99, "safe", (0, 0), "classic Expert; Tu et al.'s Expert"),
    Start("beginner-22", 9, 9, 10, "opening", (2, 2)),
    Start("beginner-33", 9, 9, 10, "opening", (3, 3)),
    Start("intermediate-22", 16, 16, 40, "opening", (2, 2)),
    Start("intermediate-33", 16, 16, 40, "opening", (3, 3)),
    Start("tu-beginner", 8, 8, 10, "safe", (0, 0), "Tu et al.'s Beginner"),
    Start("tu-intermediate", 16, 16, 40, "safe", (0, 0), "Tu et al.'s Intermediate"),
]
BY_NAME = {s.name: s for s in STARTS}


def deal(start: Start, seed: int, i: int):
    """Board ``i`` of a start (negative ``i``: the warm-up boards, apart from the rest).

    The same boards as ``benchmarks/players.py --same-boards`` deals for a start of the
    same name.

    Examples
    --------
    >>> board = deal(BY_NAME["tu-beginner"], 1, 0)
    >>> int(board.layout.mines.sum()), bool(board.layout.mines[0])
    (10, False)
    """
    from mscsp.rules import generate

    ss = np.random.SeedSequence(seed, spawn_key=(zlib.crc32(start.name.encode()), i + (1 << 32) * (i < 0)))
    return generate(start.spec, start.rule, start.click, np.random.Generator(np.random.PCG64(ss)))


def board_line(start: Start, board) -> str:
    """A board for the Java driver: ``W H X Y`` and the mines' flat indices."""
    mines = " ".join(map(str, np.flatnonzero(board.layout.mines).tolist()))
    return f"{start.width} {start.height} {start.click[0]} {start.click[1]} {mines}\n"


def _cells(guessed) -> str:
    return ";".join(f"{x},{y}" for x, y in guessed) or "-"


# The warm JVMs, and which starts each has warmed up on, live in a module of their own
# in sys.modules, looked up at each call: a Dask worker unpickles this script's
# functions afresh for every chunk, with fresh globals, and the JVM must outlive the
# chunk. They are kept per thread, as a Dask worker may run chunks on several threads.
_STATE = "_mscsp_headtohead_workers"


def _state() -> types.ModuleType:
    state = sys.modules.get(_STATE)
    if state is None:
        state = types.ModuleType(_STATE)
        state.peers = {}  # (command, thread) -> Peer
        state.warm = set()  # ("mscsp", policy, start) and (command, thread, start) already warmed up
        state.builds = {}  # Hill checkout -> classes built in this process
        sys.modules[_STATE] = state
        atexit.register(_close_peers)
    return state


class Peer:
    """A running opponent that speaks the ``serve`` protocol of ``HillPlay.java``:
    a board line in, ``R won cpu_ns process_cpu_ns guesses`` out."""

    def __init__(self, command: list[str]):
        self.command = command
        self.log = tempfile.TemporaryFile("w+")  # its standard error, read back if it fails
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True, bufsize=1)

    def play(self, line: str) -> tuple[bool, int, int, str]:
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
            while True:
                answer = self.proc.stdout.readline()
                if not answer:
                    break
                if answer.startswith("R "):
                    won, cpu, process, guesses = answer.split()[1:]
                    return won == "1", int(cpu), int(process), guesses
        except (BrokenPipeError, ValueError):
            pass
        self.close()
        self.log.seek(0)
        raise RuntimeError(f"the opponent {' '.join(self.command)} stopped:\n{self.log.read()[-2000:]}")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def _close_peers() -> None:
    state = sys.modules.get(_STATE)
    if state is None:
        return
    for peer in state.peers.values():
        peer.close()
    state.peers.clear()
    # a JVM started later for the same command is cold again
    state.warm = {w for w in state.warm if w[0] == "mscsp"}


def _players():
    """``benchmarks/players.py`` (it builds Hill's solver and names the JVM's options)."""
    name = "players_benchmark"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / "players.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules[name]


def java_command(build: Path) -> list[str]:
    """The command of a warm JVM serving Hill's solver from classes built in ``build``."""
    return _players()._java_command(Path(build), "serve")


def _peer_command(hill: str | None, build: str | None, command: list[str] | None) -> list[str]:
    """The opponent's command in this process: ``command`` when given, else Hill's solver
    from ``build``, built here from the checkout ``hill`` when ``build`` is not on this
    machine (a Dask worker)."""
    if command is not None:
        return list(command)
    if build is None or not (Path(build) / "driver" / "HillPlay.class").is_file():
        builds = _state().builds
        if hill not in builds:
            builds[hill] = _players().build_java(Path(hill), Path(tempfile.mkdtemp(prefix="hill-java-")))
        build = builds[hill]
    return java_command(Path(build))


def play_chunk(chunk: Chunk, *, seed: int, policy: str, warmup: int, java_warmup: int, hill: str | None = None,
               build: str | None = None, command: list[str] | None = None) -> dict:
    """Boards ``chunk.start .. chunk.stop - 1`` of one start, played by mscsp here and
    then by the opponent: one row a game, ``[board, mscsp won, mscsp CPU ns, mscsp
    guesses, java won, java thread CPU ns, java process CPU ns, java guesses]``."""
    from mscsp.game import Game
    from mscsp.play.loop import play_game

    start = BY_NAME[chunk.params["start"]]
    state = _state()
    boards = [deal(start, seed, i) for i in range(chunk.start, chunk.stop)]
    if ("mscsp", policy, start.name) not in state.warm:
        for i in range(warmup):
            board = deal(start, seed, -1 - i)
            play_game(Game.from_board(board, record=False), board.click, policy=policy)
        state.warm.add(("mscsp", policy, start.name))
    ours = []
    for board in boards:
        began = time.process_time_ns()
        record = play_game(Game.from_board(board, record=False), board.click, policy=policy)
        ours.append((int(record.won), time.process_time_ns() - began, _cells(record.guessed)))
    key = (tuple(_peer_command(hill, build, command)), threading.get_ident())
    peer = state.peers.get(key)
    if peer is None:
        peer = state.peers[key] = Peer(list(key[0]))
    if (*key, start.name) not in state.warm:
        for i in range(java_warmup):
            peer.play(board_line(start, deal(start, seed, -1 - i)))
        state.warm.add((*key, start.name))
    games = []
    for i, (board, mine) in enumerate(zip(boards, ours)):
        won, cpu, process, guesses = peer.play(board_line(start, board))
        games.append([chunk.start + i, *mine, int(won), cpu, process, guesses])
    return {"games": games}


@dataclass(frozen=True)
class Work:
    """:func:`play_chunk` with the run's settings, as the runner calls it.

    An object of this module, not a :func:`functools.partial`: Dask ships it by value
    then (this script runs as ``__main__``), so its workers need not import it."""

    seed: int
    policy: str
    warmup: int
    java_warmup: int
    hill: str | None = None
    build: str | None = None
    command: tuple[str, ...] | None = None

    def __call__(self, chunk: Chunk) -> dict:
        return play_chunk(chunk, seed=self.seed, policy=self.policy, warmup=self.warmup,
                          java_warmup=self.java_warmup, hill=self.hill, build=self.build,
                          command=None if self.command is None else list(self.command))


@dataclass(frozen=True)
class Tally:
    """One start's games, both players."""

    start: str
    n: int
    both: int
    mscsp_only: int
    java_only: int
    neither: int
    mscsp_ms: float
    java_ms: float
    java_process_ms: float

    @property
    def mscsp_wins(self) -> int:
        return self.both + self.mscsp_only

    @property
    def java_wins(self) -> int:
        return self.both + self.java_only


def tally(start: str, games: list[list]) -> Tally:
    """Count one start's games: the paired table and the mean CPU times."""
    counts = {(1, 1): 0, (1, 0): 0, (0, 1): 0, (0, 0): 0}
    for g in games:
        counts[(g[1], g[4])] += 1
    return Tally(start, len(games), counts[(1, 1)], counts[(1, 0)], counts[(0, 1)], counts[(0, 0)],
                 statistics.fmean(g[2] for g in games) / 1e6, statistics.fmean(g[5] for g in games) / 1e6,
                 statistics.fmean(g[6] for g in games) / 1e6)


def summary(tallies: list[Tally]) -> pd.DataFrame:
    """The deterministic table: per start, both win rates and the paired difference."""
    rows = []
    for t in tallies:
        s = BY_NAME[t.start]
        (ml, mh), (jl, jh) = wilson(t.mscsp_wins, t.n), wilson(t.java_wins, t.n)
        diff, low, high = paired_difference(t.both, t.mscsp_only, t.java_only, t.neither)
        rows.append({"start": s.name, "width": s.width, "height": s.height, "mines": s.mines, "rule": s.rule,
                     "click_x": s.click[0], "click_y": s.click[1], "n": t.n,
                     "mscsp_wins": t.mscsp_wins, "mscsp_p": t.mscsp_wins / t.n, "mscsp_low": ml, "mscsp_high": mh,
                     "java_wins": t.java_wins, "java_p": t.java_wins / t.n, "java_low": jl, "java_high": jh,
                     "both": t.both, "mscsp_only": t.mscsp_only, "java_only": t.java_only, "neither": t.neither,
                     "diff": diff, "low": low, "high": high})
    return pd.DataFrame(rows)


def timings(tallies: list[Tally]) -> pd.DataFrame:
    return pd.DataFrame([{"start": t.start, "n": t.n, "mscsp_ms": t.mscsp_ms, "java_ms": t.java_ms,
                          "java_process_ms": t.java_process_ms, "ratio": t.mscsp_ms / t.java_ms,
                          "process_ratio": t.mscsp_ms / t.java_process_ms if t.java_process_ms else None}
                         for t in tallies])


def _points(p: float) -> str:
    return f"{100 * p:.2f}"


def readme(table: pd.DataFrame, policy: str, hill_commit: str, command: str) -> str:
    lines = [f"# mscsp {policy} against Hill's Java solver, on the same boards", "",
             f"Both players play the same boards of each start; Hill's solver (DavidNHill/Minesweeper at "
             f"{hill_commit}) through `benchmarks/hill/HillPlay.java`, with the small-analysis settings of his "
             "bulk runs, single-threaded. Win rates with their 95% Wilson intervals; `only`: the boards one "
             "player won and the other lost; the difference mscsp minus Hill in points, with Newcombe's 95% "
             "paired interval.", "",
             f"    {command}", "",
             "| start | board | first click | boards | mscsp % | Hill % | mscsp only | Hill only | "
             "mscsp - Hill | 95% paired |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in table.itertuples():
        lines.append(f"| {r.start} | {r.width}x{r.height}/{r.mines} | {r.rule} at ({r.click_x}, {r.click_y}) | "
                     f"{r.n} | {_points(r.mscsp_p)} [{_points(r.mscsp_low)}, {_points(r.mscsp_high)}] | "
                     f"{_points(r.java_p)} [{_points(r.java_low)}, {_points(r.java_high)}] | {r.mscsp_only} | "
                     f"{r.java_only} | {100 * r.diff:+.2f} | [{100 * r.low:+.2f}, {100 * r.high:+.2f}] |")
    notes = [f"- {s.name}: {s.note}" for s in STARTS if s.note and s.name in set(table["start"])]
    if notes:
        lines += ["", *notes]
    lines += ["", "`games.csv.gz` has every game: the board's number (board `i` of a start is dealt from "
              "`SeedSequence(seed, spawn_key=(crc32(start), i))`), whether each player won it and the cells "
              "each guessed (`x,y;x,y`, `-` for none); `timings_games.csv.gz` the CPU nanoseconds of each."]
    return "\n".join(lines) + "\n"


FOOTER = ("\n---\n\nCPU times depend on the machine and its load, so they are kept apart: "
          "[`timings.md`](timings.md), `timings.csv`, `timings_games.csv.gz`. `run.json` records how this run "
          "was made (wall time, jobs, versions, git revision, date). `mscsp reproduce` does not run this "
          "experiment (Hill's solver is not a dependency of the toolkit); the command above, with a checkout "
          "of his solver at the commit named, plays the same boards again.\n")


def timings_markdown(table: pd.DataFrame) -> str:
    cols = ["start", "n", "mscsp_ms", "java_ms", "java_process_ms", "ratio", "process_ratio"]
    return ("# CPU milliseconds per game\n\nmscsp: the process's CPU time around each game (one thread); "
            "`java_ms`: the thread that plays Hill's solver; `java_process_ms`: the whole JVM during the game "
            "(JIT compiler and collector included; the JVM's clock counts in steps of 10 ms, so only its mean "
            "means anything). `ratio`: mscsp's over Hill's thread (below 1, mscsp is faster); "
            "`process_ratio`: over his whole JVM.\n\n" + markdown_table(table, digits=3, columns=cols))


def _gz(path: Path, df: pd.DataFrame) -> None:
    # mtime 0: the same games give the same bytes
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(gzip.compress(df.to_csv(index=False).encode(), mtime=0))
    os.replace(tmp, path)


def _commit(checkout: Path) -> str:
    try:
        out = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 else "unknown"


def _source_version() -> str:
    """This mscsp's revision and uncommitted changes: finished chunks are reused only by
    the same code."""
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True, timeout=30)
        diff = subprocess.run(["git", "diff", "HEAD", "--", ":(top)", ":(top,exclude)results"], cwd=HERE,
                              capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if rev.returncode != 0:
        return "unknown"
    return rev.stdout.strip() + ("+" + hashlib.sha256(diff.stdout).hexdigest()[:12] if diff.stdout else "")


def run(out: Path, starts: list[str], boards: int, *, seed: int = 1, policy: str = Policy.ENDGAME.value,
        chunk: int = 1000, jobs: int = 1, dask: str | None = None, warmup: int = 20, java_warmup: int = 1000,
        hill: Path | None = None, command: list[str] | None = None, peer: str | None = None,
        argv: list[str] | None = None, progress: bool = True) -> pd.DataFrame:
    """Play ``boards`` boards of each start with both players and write the results
    folder ``out``; return the summary table.

    The opponent is Hill's solver built from the checkout ``hill``, or any program
    speaking the same ``serve`` protocol given as ``command`` and named by ``peer``
    (what its chunks are kept under)."""
    if (hill is None) == (command is None):
        raise ValueError("give either a Hill checkout or an opponent's command")
    began = time.perf_counter()
    # how the run was made, taken before it: the code that plays is the code of the start
    made = provenance(["python", "experiments/headtohead.py", *(argv or [])])
    build = None
    if hill is not None:
        peer = f"hill-java@{_commit(hill)}"
        build = _players().build_java(Path(hill), Path(tempfile.mkdtemp(prefix="hill-java-")))
    # every start is a unit, the ones not asked for with no boards: a chunk is named by
    # its start's place in STARTS, so runs of different starts share their chunks
    units = [Unit(s.name, {"start": s.name, "width": s.width, "height": s.height, "mines": s.mines,
                           "rule": s.rule, "click": list(s.click), "policy": policy, "peer": peer},
                  boards if s.name in starts else 0) for s in STARTS]
    reused = any((Path(out) / ".chunks").rglob("*.json"))
    work = Work(seed, policy, warmup, java_warmup, None if hill is None else str(hill),
                None if build is None else str(build), None if command is None else tuple(command))
    try:
        results = run_chunks(EXPERIMENT, units, work, seed=seed, chunk_size=chunk, jobs=jobs, dask=dask,
                             cache=Path(out) / ".chunks", resume=True, progress=progress, unit="board",
                             version=_source_version())
    finally:
        _close_peers()
        if build is not None:
            import shutil

            shutil.rmtree(build, ignore_errors=True)
    played = {s.name: [g for part in parts for g in part["games"]] for s, parts in zip(STARTS, results)
              if s.name in starts}
    tallies = [tally(name, games) for name, games in played.items()]
    table = summary(tallies)
    timing = timings(tallies)
    # the command that makes these numbers, wherever the checkout is (its commit is below)
    command_line = (f"python experiments/headtohead.py --hill-java PATH --starts {' '.join(starts)} "
                    f"--boards {boards} --seed {seed} --policy {policy} --chunk {chunk}")
    config = {"experiment": EXPERIMENT, "command": command_line, "seed": seed, "boards": boards,
              "starts": starts, "chunk": chunk, "policy": policy, "warmup": warmup, "java_warmup": java_warmup,
              "peer": peer, "hill_java_commit": None if hill is None else _commit(hill),
              "starts_defined": [asdict(BY_NAME[s]) for s in starts]}
    made["finished_utc"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    run_info = {"experiment": EXPERIMENT, "jobs": jobs, "dask": dask, "resume": reused,
                "wall_seconds": round(time.perf_counter() - began, 3), **made}
    write_results(Path(out), {"summary": table}, readme(table, policy, config["hill_java_commit"] or peer,
                                                        config["command"]), config,
                  run=run_info, timings=Timings(timing, timings_markdown(timing)))
    # write_results's footer speaks of `mscsp reproduce`, which does not run this experiment
    text = readme(table, policy, config["hill_java_commit"] or peer, config["command"])
    (Path(out) / "README.md").write_text(text + FOOTER)
    games = [(name, g) for name, rows in played.items() for g in rows]
    _gz(Path(out) / "games.csv.gz", pd.DataFrame(
        [{"start": name, "board": g[0], "mscsp_won": g[1], "java_won": g[4], "mscsp_guesses": g[3],
          "java_guesses": g[7]} for name, g in games]))
    _gz(Path(out) / "timings_games.csv.gz", pd.DataFrame(
        [{"start": name, "board": g[0], "mscsp_cpu_ns": g[2], "java_cpu_ns": g[5], "java_process_cpu_ns": g[6]}
         for name, g in games]))
    return table


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="headtohead.py", description=__doc__.splitlines()[0])
    parser.add_argument("--hill-java", type=Path, metavar="PATH", required=True,
                        help="a checkout of DavidNHill/Minesweeper (built here with javac)")
    parser.add_argument("--starts", nargs="+", choices=list(BY_NAME), default=["expert-modern", "expert-classic"],
                        help="the rows (default both Expert starts)")
    parser.add_argument("--boards", type=int, default=1000, help="boards per start (default 1000)")
    parser.add_argument("--chunk", type=int, default=1000, help="boards per chunk (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default=Policy.ENDGAME.value, choices=[p.value for p in Policy],
                        help="mscsp's rung (default the top)")
    parser.add_argument("--warmup", type=int, default=20, help="mscsp's warm-up games per process and start")
    parser.add_argument("--java-warmup", type=int, default=1000,
                        help="the JVM's warm-up games per process and start, so that the JIT has compiled the "
                             "solver (default 1000)")
    parser.add_argument("--jobs", type=int, default=1, help="local worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler (tcp://HOST:PORT) to run the chunks on")
    parser.add_argument("--out", type=Path, default=Path("results") / EXPERIMENT)
    parser.add_argument("--quick", action="store_true",
                        help="a few boards of each start and short warm-ups: the plumbing, in a minute")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.quick:
        args.boards, args.chunk, args.warmup, args.java_warmup = 4, 2, 1, 5
    for name in ("boards", "chunk", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.warmup < 0 or args.java_warmup < 0:
        parser.error("the warm-ups cannot be negative")
    if not (args.hill_java / "MineSweeperSolver" / "src").is_dir():
        parser.error(f"{args.hill_java} is not a checkout of DavidNHill/Minesweeper")
    if args.dask and importlib.util.find_spec("distributed") is None:
        parser.error("--dask needs dask.distributed: pip install 'mscsp[dask]'")
    table = run(args.out, args.starts, args.boards, seed=args.seed, policy=args.policy, chunk=args.chunk,
                jobs=args.jobs, dask=args.dask, warmup=args.warmup, java_warmup=args.java_warmup,
                hill=args.hill_java, argv=argv, progress=not args.quiet)
    print(markdown_table(table, digits=4, columns=["start", "n", "mscsp_p", "java_p", "mscsp_only", "java_only",
                                                   "diff", "low", "high"]), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
