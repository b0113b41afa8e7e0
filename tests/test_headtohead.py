"""experiments/headtohead.py: the same boards for both players, resumable chunks,
the paired table.

Hill's Java solver is not here in general (tests have no network and no checkout of
it), so most tests play against a stand-in written below, in the test only: a
program speaking the driver's ``serve`` protocol whose result on a board is a
closed form of the board (won when the mine indices add up to an even number), so
every count the harness reports can be recomputed from the boards alone. With a JDK
and a checkout named by ``MSCSP_HILL_JAVA``, the last test plays Hill's solver itself.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import REPO, benchmark

#: The stand-in opponent: one board a line in, one answer a line out, and each board
#: it was given appended to a log, so the tests can count what it played.
STAND_IN = textwrap.dedent("""\
    import sys
    log = open(sys.argv[1], "a")
    print("a line the harness must skip", flush=True)
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        mines = [int(m) for m in fields[4:]]
        log.write(line)
        log.flush()
        won = int(sum(mines) % 2 == 0)
        print(f"R {won} {1000 * len(mines)} {2000 * len(mines)} -", flush=True)
""")


def _module():
    spec = importlib.util.spec_from_file_location("headtohead", REPO / "experiments" / "headtohead.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the worker processes and dataclasses look it up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def h2h():
    return _module()


def _stand_in(tmp_path: Path) -> tuple[list[str], Path]:
    script = tmp_path / "stand_in.py"
    script.write_text(STAND_IN)
    log = tmp_path / "played.log"
    log.touch()
    return [sys.executable, str(script), str(log)], log


def _board(name: str, spec, rule: str, click, seed: int, i: int):
    """Board ``i`` as the harness documents it: SeedSequence(seed, spawn_key=(crc32(start), i))."""
    from mscsp.rules import generate

    ss = np.random.SeedSequence(seed, spawn_key=(zlib.crc32(name.encode()), i))
    return generate(spec, rule, click, np.random.Generator(np.random.PCG64(ss)))


def _games(out: Path) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(gzip.decompress((out / "games.csv.gz").read_bytes())), keep_default_na=False)


def _played(log: Path) -> int:
    return len(log.read_text().splitlines())


def test_the_boards_are_those_of_players_same_boards(h2h):
    players = benchmark("players")
    for start in players.STARTS:
        mine = h2h.BY_NAME[start.name]
        assert (mine.spec, mine.rule, mine.click) == (start.spec, start.rule, start.click)
        for i in (0, 7, -3):
            assert (h2h.deal(mine, 4, i).layout.mines == players.deal(start, 4, i).layout.mines).all()
    modern = h2h.BY_NAME["expert-modern"]
    board = h2h.deal(modern, 4, 0)
    mines = board.layout.mines.reshape(16, 30)
    # an opening at (3, 3): no mine on it nor around it
    assert board.click == (3, 3) and not mines[2:5, 2:5].any() and mines.sum() == 99
    line = h2h.board_line(modern, board).split()
    assert line[:4] == ["30", "16", "3", "3"] and [int(m) for m in line[4:]] == np.flatnonzero(mines).tolist()
    # Tu et al.'s Beginner: 8x8 with the first click safe in the corner
    tu = h2h.BY_NAME["tu-beginner"]
    line = h2h.board_line(tu, h2h.deal(tu, 4, 0)).split()
    assert line[:4] == ["8", "8", "0", "0"] and len(line) == 4 + 10


def test_both_players_every_board_and_the_paired_table(h2h, tmp_path):
    """Every count of the table recomputed from the boards: the stand-in's wins by its
    closed form, mscsp's by playing each board here."""
    from mscsp.board import Spec
    from mscsp.game import Game
    from mscsp.play.loop import play_game
    from mscsp.stats import paired_difference, wilson

    command, log = _stand_in(tmp_path)
    out = tmp_path / "out"
    table = h2h.run(out, ["tu-beginner", "beginner-33"], 6, seed=3, policy="least-p", chunk=4, warmup=0,
                    java_warmup=1, command=command, peer="stand-in", progress=False)
    assert _played(log) == 2 * (6 + 1)  # every board once, and one warm-up board a start
    games = _games(out)
    for name, spec, rule, click in (("tu-beginner", Spec(8, 8, 10), "safe", (0, 0)),
                                    ("beginner-33", Spec(9, 9, 10), "opening", (3, 3))):
        rows = games[games["start"] == name]
        assert rows["board"].tolist() == list(range(6))
        ours, theirs = [], []
        for i in range(6):
            board = _board(name, spec, rule, click, 3, i)
            theirs.append(int(np.flatnonzero(board.layout.mines).sum() % 2 == 0))
            ours.append(int(play_game(Game.from_board(board, record=False), click, policy="least-p").won))
        assert rows["java_won"].tolist() == theirs and rows["mscsp_won"].tolist() == ours
        assert (rows["java_guesses"] == "-").all()
        cells = (sum(a and b for a, b in zip(ours, theirs)), sum(a and not b for a, b in zip(ours, theirs)),
                 sum(b and not a for a, b in zip(ours, theirs)), sum(not a and not b for a, b in zip(ours, theirs)))
        row = table[table["start"] == name].iloc[0]
        assert (row["both"], row["mscsp_only"], row["java_only"], row["neither"]) == cells
        assert (row["n"], row["mscsp_wins"], row["java_wins"]) == (6, sum(ours), sum(theirs))
        assert (row["diff"], row["low"], row["high"]) == pytest.approx(paired_difference(*cells))
        assert (row["java_low"], row["java_high"]) == pytest.approx(wilson(sum(theirs), 6))
    timing = pd.read_csv(out / "timings.csv")
    # the stand-in reports 1000 ns of its thread and 2000 of its process per mine
    assert timing.set_index("start").loc["tu-beginner", "java_ms"] == pytest.approx(0.01)
    assert timing.set_index("start").loc["beginner-33", "java_process_ms"] == pytest.approx(0.02)
    config = json.loads((out / "config.json").read_text())
    assert config["boards"] == 6 and config["peer"] == "stand-in" and "--boards 6 --seed 3" in config["command"]
    readme = (out / "README.md").read_text()
    assert "| tu-beginner | 8x8/10 | safe at (0, 0) | 6 |" in readme and "reproduce --check" not in readme


def test_a_rerun_plays_only_the_chunks_not_kept(h2h, tmp_path):
    command, log = _stand_in(tmp_path)
    out = tmp_path / "out"
    kwargs = dict(seed=5, policy="least-p", chunk=2, warmup=0, java_warmup=0, command=command, peer="stand-in",
                  progress=False)
    h2h.run(out, ["beginner-22"], 6, **kwargs)
    first = (out / "games.csv.gz").read_bytes()
    assert _played(log) == 6
    h2h.run(out, ["beginner-22"], 6, **kwargs)
    assert _played(log) == 6  # nothing left to play
    chunks = sorted((out / ".chunks").rglob("*.json"))
    assert len(chunks) == 3
    chunks[1].unlink()
    h2h.run(out, ["beginner-22"], 6, **kwargs)
    assert _played(log) == 8 and (out / "games.csv.gz").read_bytes() == first
    assert json.loads((out / "run.json").read_text())["resume"] is True
    # more boards: only the new ones; another start beside it: only its boards
    h2h.run(out, ["beginner-22", "tu-beginner"], 8, **kwargs)
    assert _played(log) == 8 + 2 + 8
    games = _games(out)
    assert games.groupby("start").size().to_dict() == {"beginner-22": 8, "tu-beginner": 8}
    # another policy is another player: nothing of the first is reused
    h2h.run(out, ["beginner-22"], 2, **{**kwargs, "policy": "+progress"})
    assert _played(log) == 18 + 2


def test_the_games_do_not_depend_on_jobs_or_chunks(h2h, tmp_path):
    command, _ = _stand_in(tmp_path)
    common = dict(seed=2, policy="least-p", warmup=1, java_warmup=1, command=command, peer="stand-in",
                  progress=False)
    h2h.run(tmp_path / "a", ["tu-intermediate", "beginner-22"], 5, chunk=5, jobs=1, **common)
    h2h.run(tmp_path / "b", ["tu-intermediate", "beginner-22"], 5, chunk=2, jobs=2, **common)
    for name in ("games.csv.gz", "summary.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_a_dask_cluster_of_threads_plays_the_same_games(h2h, tmp_path):
    """Dask workers in threads of this process: each thread has an opponent of its own."""
    distributed = pytest.importorskip("dask.distributed")
    command, log = _stand_in(tmp_path)
    common = dict(seed=4, policy="least-p", warmup=0, java_warmup=1, command=command, peer="stand-in",
                  progress=False)
    h2h.run(tmp_path / "local", ["beginner-33"], 6, chunk=6, **common)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        h2h.run(tmp_path / "dask", ["beginner-33"], 6, chunk=2, dask=cluster.scheduler_address, **common)
    assert (tmp_path / "local" / "games.csv.gz").read_bytes() == (tmp_path / "dask" / "games.csv.gz").read_bytes()
    # 7: the local run; then each worker warmed its own opponent up once, whatever it played
    assert 7 + 6 + 1 <= _played(log) <= 7 + 6 + 2


DASK_PROCESSES = textwrap.dedent("""\
    import importlib.util, sys
    import cloudpickle, distributed
    spec = importlib.util.spec_from_file_location("headtohead", sys.argv[1])
    h2h = importlib.util.module_from_spec(spec)
    sys.modules["headtohead"] = h2h
    spec.loader.exec_module(h2h)
    # the script runs as __main__ in real use, and Dask ships __main__'s objects by value
    cloudpickle.register_pickle_by_value(h2h)
    if __name__ == "__main__":
        out, script, log = sys.argv[2:5]
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
            h2h.run(out, ["beginner-33"], 6, chunk=2, dask=cluster.scheduler_address, seed=4, policy="least-p",
                    warmup=0, java_warmup=1, command=[sys.executable, script, log], peer="stand-in",
                    progress=False)
""")


def test_a_dask_cluster_of_processes_plays_the_same_games(h2h, tmp_path):
    """Dask workers in processes of their own, which unpickle the chunks' function
    afresh for every chunk and still keep one warm opponent each."""
    pytest.importorskip("dask.distributed")
    command, log = _stand_in(tmp_path)
    h2h.run(tmp_path / "local", ["beginner-33"], 6, seed=4, policy="least-p", chunk=6, warmup=0, java_warmup=1,
            command=command, peer="stand-in", progress=False)
    driver = tmp_path / "driver.py"
    driver.write_text(DASK_PROCESSES)
    subprocess.run([sys.executable, str(driver), str(REPO / "experiments" / "headtohead.py"), str(tmp_path / "dask"),
                    command[1], str(log)], check=True, capture_output=True, timeout=300,
                   env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])})
    assert (tmp_path / "local" / "games.csv.gz").read_bytes() == (tmp_path / "dask" / "games.csv.gz").read_bytes()
    assert 7 + 6 + 1 <= _played(log) <= 7 + 6 + 2


def test_an_opponent_that_stops_is_reported(h2h, tmp_path):
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.stdin.readline()\nprint('no answer', file=sys.stderr)\n")
    with pytest.raises(RuntimeError, match="no answer"):
        h2h.run(tmp_path / "out", ["beginner-22"], 2, policy="least-p", chunk=2, warmup=0, java_warmup=0,
                command=[sys.executable, str(script)], peer="dies", progress=False)


@pytest.mark.parametrize("argv", [
    ["--hill-java", "/nonexistent/checkout", "--quick"],
    ["--hill-java", str(REPO), "--boards", "0"],
    ["--hill-java", str(REPO), "--starts", "expert-nowhere"],
])
def test_bad_arguments_are_refused_in_one_line(h2h, argv, capsys):
    with pytest.raises(SystemExit) as stop:
        h2h.main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("headtohead.py: error: ")


HILL = os.environ.get("MSCSP_HILL_JAVA")


@pytest.mark.skipif(not HILL or shutil.which("javac") is None,
                    reason="Hill's Java solver: set MSCSP_HILL_JAVA to a checkout of DavidNHill/Minesweeper "
                           "(and install a JDK)")
def test_hill_java_itself_on_a_few_boards(h2h, tmp_path):
    from mscsp.stats import paired_difference

    out = tmp_path / "out"
    assert h2h.main(["--hill-java", HILL, "--quick", "--starts", "tu-beginner", "expert-modern", "--out", str(out),
                     "--quiet"]) == 0
    games = _games(out)
    table = pd.read_csv(out / "summary.csv").set_index("start")
    for name, rows in games.groupby("start"):
        row = table.loc[name]
        assert row["n"] == len(rows) == 4 and row["java_wins"] == rows["java_won"].sum()
        only = int((rows["mscsp_won"] > rows["java_won"]).sum()), int((rows["java_won"] > rows["mscsp_won"]).sum())
        assert (row["mscsp_only"], row["java_only"]) == only
        both = int((rows["mscsp_won"] & rows["java_won"]).sum())
        assert row["diff"] == pytest.approx(paired_difference(both, *only, 4 - both - sum(only))[0])
        # Hill's solver guesses only cells of the board, and a lost game ends on a guess
        for won, guesses in zip(rows["java_won"], rows["java_guesses"]):
            cells = [] if guesses == "-" else [tuple(map(int, c.split(","))) for c in guesses.split(";")]
            spec = h2h.BY_NAME[name].spec
            assert all(0 <= x < spec.width and 0 <= y < spec.height for x, y in cells)
            assert won or cells
    assert json.loads((out / "config.json").read_text())["hill_java_commit"]


@pytest.mark.parametrize("name", ["headtohead", "headtohead_tu"])
def test_the_committed_table_is_its_games(name):
    """results/headtohead (100,000 boards a start) and headtohead_tu (Tu et al.'s
    settings) as committed: every count of summary.csv recounted from games.csv.gz,
    every interval recomputed from the counts, and the run names Hill's commit and a
    clean revision of mscsp."""
    from mscsp.stats import paired_difference, wilson

    folder = REPO / "results" / name
    table = pd.read_csv(folder / "summary.csv").set_index("start")
    games = _games(folder)
    config = json.loads((folder / "config.json").read_text())
    assert sorted(table.index) == sorted(config["starts"]) and len(config["hill_java_commit"]) == 40
    for name, rows in games.groupby("start"):
        row = table.loc[name]
        assert rows["board"].tolist() == list(range(config["boards"])) == list(range(row["n"]))
        ours, theirs = rows["mscsp_won"].astype(bool), rows["java_won"].astype(bool)
        cells = (int((ours & theirs).sum()), int((ours & ~theirs).sum()), int((~ours & theirs).sum()),
                 int((~ours & ~theirs).sum()))
        assert (row["both"], row["mscsp_only"], row["java_only"], row["neither"]) == cells
        assert (row["diff"], row["low"], row["high"]) == pytest.approx(paired_difference(*cells))
        assert (row["mscsp_low"], row["mscsp_high"]) == pytest.approx(wilson(int(ours.sum()), len(rows)))
        # a lost game ends on a guess (the first click never loses under these rules)
        assert (rows.loc[~theirs, "java_guesses"] != "-").all() and (rows.loc[~ours, "mscsp_guesses"] != "-").all()
    run = json.loads((folder / "run.json").read_text())
    assert run["git"]["dirty"] is False and run["jobs"] >= 1
