"""Experiments: quick runs finish in seconds, tables do not depend on --jobs, runs resume."""

import json
import subprocess
import sys

import pandas as pd
import pytest

from conftest import REPO
from mscsp.cli import main as cli_main
from mscsp.experiments import completion, consistency, first_click, noguess_cost, noguess_uniform, winrate

# What the experiments measure of the machine: times, and which play loop ran.
TIMING = {"ms_per_verification", "ms_per_guess", "expected_wait_s", "compiled_loop", "ms_per_game", "mean_decide_s",
          "max_decide_s", "mean_compile_s", "mean_direct_ms", "mean_s", "median_s", "p90_s"}
# Every file an experiment writes that does not depend only on the code and the seed.
TIMING_FILES = {"run.json", "timings.csv", "timings.md", "timings.png", "timings.pdf"}


def _table(folder):
    return pd.read_csv(folder / "summary.csv")


def _files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("module", [first_click, completion, winrate, consistency, noguess_cost, noguess_uniform])
def test_quick_run_writes_results_and_does_not_depend_on_jobs(module, tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    assert module.main(["--quick", "--quiet", "--out", str(one), "--jobs", "1", "--seed", "7"]) == 0
    assert module.main(["--quick", "--quiet", "--out", str(two), "--jobs", "2", "--seed", "7"]) == 0
    # same seed, other --jobs: every deterministic file byte for byte the same
    first, second = _files(one), _files(two)
    assert first.keys() == second.keys()
    deterministic = sorted(set(first) - TIMING_FILES)
    assert {"summary.csv", "README.md", "config.json"} <= set(deterministic)
    assert [n for n in deterministic if first[n] != second[n]] == []
    config = json.loads((one / "config.json").read_text())
    assert config["seed"] == 7 and config["quick"] is True and config["samples"] >= 1
    assert config["command"].startswith(f"python experiments/{module.NAME}.py") and "--jobs" not in config["command"]
    run = json.loads((one / "run.json").read_text())
    assert run["jobs"] == 1 and run["packages"]["numpy"] and "revision" in run["git"] and run["wall_seconds"] >= 0
    assert (one / "README.md").read_text().startswith("# ")
    summary = pd.read_csv(one / "summary.csv")
    for col in ["board", "width", "height", "mines", "rule", "click_x", "click_y", "n", "k", "p", "low", "high", "exact"]:
        assert col in summary.columns
    assert "solver" in summary.columns or "policy" in summary.columns
    assert ((summary["low"] <= summary["p"]) & (summary["p"] <= summary["high"])).all()
    assert TIMING.isdisjoint(summary.columns)
    if module is winrate:
        _check_paired(pd.read_csv(one / "paired.csv"), summary)
        _check_inexact(summary, pd.read_csv(one / "optimum.csv"))
    if (one / "timings.csv").exists():
        # the timing columns, one row per summary row, found by the summary's own columns
        timings = pd.read_csv(one / "timings.csv")
        measured = [c for c in timings.columns if c in TIMING]
        keys = [c for c in timings.columns if c not in TIMING]
        assert measured and set(keys) <= set(summary.columns) and len(timings) == len(summary)
        pd.testing.assert_frame_equal(timings[keys], summary[keys])
        assert not timings[keys].duplicated().any()
        assert (one / "timings.md").exists()
    else:
        assert module is first_click  # the only experiment that times nothing


def _check_paired(paired, summary):
    """The game-by-game table must add up to each row's own count of games won."""
    won = summary.set_index(["board", "rule", "policy"])
    # per start, four rungs against the rung below and the top against the bottom: as many as the rungs
    assert len(paired) == len(summary) and set(paired["against"]) <= set(summary["policy"])
    for r in paired.itertuples():
        mine, theirs = won.loc[(r.board, r.rule, r.policy)], won.loc[(r.board, r.rule, r.against)]
        assert r.n == min(mine.n, theirs.n) == r.both + r.policy_only + r.against_only + r.neither
        assert (r.both + r.policy_only, r.both + r.against_only) == (mine.k, theirs.k)
        assert r.diff == pytest.approx((mine.k - theirs.k) / r.n) and r.low <= r.diff <= r.high


def _check_inexact(summary, optimum):
    """The columns of analyses that were not exact: whole counts that add up. The
    quick boards reach no fallback: every game and policy counted exactly."""
    columns = ["inexact_games", "rounded", "estimated"]
    assert all(pd.api.types.is_integer_dtype(summary[c]) for c in columns)
    assert ((0 <= summary["inexact_games"]) & (summary["inexact_games"] <= summary["n"])).all()
    assert (summary["inexact_games"] <= summary["rounded"] + summary["estimated"]).all()
    assert ((summary["inexact_games"] == 0) == (summary["rounded"] + summary["estimated"] == 0)).all()
    assert summary[columns].to_numpy().sum() == 0 and optimum["inexact"].sum() == 0


def test_an_interrupted_run_resumes_to_the_same_table(tmp_path, monkeypatch):
    full = tmp_path / "full"
    assert completion.main(["--samples", "60", "--quiet", "--out", str(full), "--seed", "3"]) == 0
    part = tmp_path / "part"
    calls = {"n": 0}
    real = completion._work

    def flaky(chunk):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(chunk)

    monkeypatch.setattr(completion, "_work", flaky)
    with pytest.raises(KeyboardInterrupt):
        completion.main(["--samples", "60", "--quiet", "--out", str(part), "--seed", "3"])
    saved = list((part / ".chunks").rglob("*.json"))
    assert len(saved) == 4  # finished chunks were kept
    monkeypatch.setattr(completion, "_work", real)
    counted = {"n": 0}

    def counting(chunk):
        counted["n"] += 1
        return real(chunk)

    monkeypatch.setattr(completion, "_work", counting)
    assert completion.main(["--samples", "60", "--quiet", "--out", str(part), "--seed", "3", "--resume"]) == 0
    total_chunks = len(list((full / ".chunks").rglob("*.json")))
    assert counted["n"] == total_chunks - 4  # nothing recomputed
    pd.testing.assert_frame_equal(_table(full), _table(part))


def test_a_longer_run_reuses_the_chunks_of_a_shorter_one(tmp_path, monkeypatch):
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    # 50 samples are one whole chunk of this experiment, which the longer run reuses
    assert completion.CHUNK == 50
    assert completion.main(["--samples", "50", "--quiet", "--out", str(grown), "--seed", "3"]) == 0
    real = completion._work
    seen = []

    def counting(chunk):
        seen.append((chunk.start, chunk.stop))
        return real(chunk)

    monkeypatch.setattr(completion, "_work", counting)
    assert completion.main(["--samples", "120", "--quiet", "--out", str(grown), "--seed", "3", "--resume"]) == 0
    assert seen and all(start >= 50 for start, _ in seen)  # the first 50 samples were not played again
    monkeypatch.setattr(completion, "_work", real)
    assert completion.main(["--samples", "120", "--quiet", "--out", str(fresh), "--seed", "3"]) == 0
    pd.testing.assert_frame_equal(_table(grown), _table(fresh))


def test_dask_local_cluster_gives_identical_results(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    local, remote = tmp_path / "local", tmp_path / "dask"
    assert first_click.main(["--quick", "--quiet", "--out", str(local), "--seed", "5"]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert first_click.main(["--quick", "--quiet", "--out", str(remote), "--seed", "5",
                                 "--dask", cluster.scheduler_address]) == 0
    pd.testing.assert_frame_equal(_table(local), _table(remote))


def test_article_mode_reproduces_the_single_point_table_digits():
    df = completion.article_table(samples=2000, seed=42)
    assert completion.article_lines(df) == (
        "Beginner 9x9/10          single-point solver finishes without guessing: 0.637 +/- 0.021  (n=2000)\n"
        "Intermediate 16x16/40    single-point solver finishes without guessing: 0.241 +/- 0.019  (n=2000)\n"
        "Expert 30x16/99          single-point solver finishes without guessing: 0.001 +/- 0.001  (n=2000)\n"
    )


def test_article_mode_first_click_matches_a_small_replay_of_the_script():
    # the article's own loop, re-run here on a few boards, against the module's replay
    import math
    import random

    samples = 300
    rng = random.Random(42)
    expected = []
    for w, h, m in ((9, 9, 10), (16, 16, 40), (30, 16, 99)):
        n = w * h
        cx, cy = w // 2, h // 2
        click = cx + cy * w
        nb = {(cx + dx) + (cy + dy) * w for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {click}
        for rule in ("random board", "click excluded"):
            hits = 0
            for _ in range(samples):
                pool = range(n) if rule == "random board" else [i for i in range(n) if i != click]
                mines = set(rng.sample(pool, m))
                hits += click not in mines and not (mines & nb)
            expected.append(hits)
    df = first_click.article_table(samples=samples, seed=42)
    assert df["k"].tolist() == expected
    assert math.isclose(df["exact"].iloc[0], 0.2855, abs_tol=5e-5)


def test_script_entry_point_and_bad_arguments(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "experiments" / "first_click.py"), "--samples", "0"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "positive integer" in proc.stderr and "Traceback" not in proc.stderr


def test_reproduce_quick(tmp_path, capsys):
    assert cli_main(["reproduce", "--quick", "--out", str(tmp_path), "--jobs", "1",
                     "--only", "first_click", "completion_article"]) == 0
    assert (tmp_path / "first_click" / "summary.csv").exists()
    assert (tmp_path / "completion_article" / "summary.csv").exists()
    assert cli_main(["reproduce", "--only", "nothing"]) == 2


def _speed_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("speed", REPO / "experiments" / "speed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_speed_results_agree_with_themselves():
    """results/speed, as committed: every ratio is mscsp's median over the peer's,
    every paired difference is the two win counts apart, inside its interval, and the
    run names the machine and the peers' versions."""
    from mscsp.stats import wilson

    folder = REPO / "results" / "speed"
    table = pd.read_csv(folder / "summary.csv")
    assert list(table.columns) == _speed_module().COLUMNS
    assert set(table["comparison"]) >= {"probabilities", "analyse", "verification"}
    keys = table[["comparison", "corpus", "stage"]]
    assert not keys.duplicated().any()
    assert not keys.apply(lambda column: column.str.contains(",")).any().any()  # the paper's selectors split on commas
    timed = table.dropna(subset=["mscsp_ms", "peer_ms"])
    ratio = timed["mscsp_ms"] / timed["peer_ms"]
    # the ratio is of the medians before they were rounded to the 0.001 ms they are stored
    # with, which moves a ratio of medians of a few hundredths of a millisecond by percents
    stored = ratio * (0.0005 / timed["mscsp_ms"] + 0.0005 / timed["peer_ms"])
    assert ((ratio - timed["ratio"]).abs() <= 0.002 * ratio + stored + 0.002).all()
    # a peer without a time did not finish within the time both were given, and mscsp did
    unfinished = table[table["peer_ms"].isna() & (table["comparison"] == "counting")]
    assert (unfinished["ratio"].isna() & (unfinished["mscsp_ms"] < unfinished["limit_ms"])).all()
    assert set(table["comparison"]) >= {"counting", "generation"}
    made = table[table["comparison"] == "generation"]
    assert ((made["mscsp_wins"] <= made["n"]) & (made["peer_wins"] <= made["n"])).all()
    player = table[table["comparison"] == "player"]
    for row in player.itertuples():
        diff = (row.mscsp_wins - row.peer_wins) / row.n
        assert abs(diff - row.diff) < 1e-4 and row.low <= row.diff <= row.high
        # a paired interval is no wider than the two rates' own intervals put together
        assert row.high - row.low <= sum(h - lo for lo, h in (wilson(row.mscsp_wins, row.n),
                                                                wilson(row.peer_wins, row.n)))
    run = json.loads((folder / "run.json").read_text())
    assert run["experiment"] == "speed" and not run["quick"] and run["processor"] and run["peers"]["ms-toollib"]
    assert player.empty or run["peers"]["hill_java_commit"]


def test_the_speed_rows_say_which_side_is_faster():
    speed = _speed_module()
    found = {"rows": [{"start": "modern Expert", "stage": "all", "positions": 3, "mscsp_ms": 1.0, "analyse_ms": 3.0,
                       "ms_toollib_ms": 2.0, "ratio": 0.5, "analyse_ratio": 1.5, "disagreements": 0}]}
    rows = speed.probability_rows(found)
    assert [(r["comparison"], r["mscsp_ms"], r["peer_ms"], r["ratio"]) for r in rows] == [
        ("probabilities", 1.0, 2.0, 0.5), ("analyse", 3.0, 2.0, 1.5)]
    verified = speed.verify_rows({"rows": [
        {"engine": "ms", "boards": 4, "median_ms": 2.0, "accepted": 3, "ratio": 1.0},
        {"engine": "total", "boards": 4, "median_ms": 1.0, "accepted": 4, "ratio": 0.5}]})
    assert verified == [{"comparison": "verification", "corpus": "modern Expert", "stage": "with total", "n": 4,
                         "mscsp_ms": 1.0, "peer": "ms_toollib", "peer_ms": 2.0, "ratio": 0.5, "mscsp_wins": 4,
                         "peer_wins": 3}]
    counted = speed.counting_rows({"timeout": 60, "rows": [
        {"position": "strip", "total": True, "mscsp_s": 0.05, "ganak_s": 0.5, "ganak": None, "agree": True},
        {"position": "lattice", "total": False, "mscsp_s": 0.5, "ganak_s": None, "ganak": "timeout", "agree": None}]})
    assert [(r["stage"], r["mscsp_ms"], r["peer_ms"], r["ratio"], r["limit_ms"]) for r in counted] == [
        ("with total", 50.0, 500.0, 0.1, 60000), ("without total", 500.0, None, None, 60000)]
    with pytest.raises(SystemExit, match="differs"):  # two exact counts that disagree stop the run
        speed.counting_rows({"timeout": 60, "rows": [
            {"position": "strip", "total": True, "mscsp_s": 0.05, "ganak_s": 0.5, "ganak": None, "agree": False}]})
    with pytest.raises(SystemExit, match="failed"):  # a crash is not a timeout
        speed.counting_rows({"timeout": 60, "rows": [
            {"position": "strip", "total": True, "mscsp_s": 0.05, "ganak_s": None, "ganak": "failed", "agree": None}]})
    made = speed.generation_rows({"rows": [
        {"row": "30x16/99", "generator": "mscsp perturb", "boards": 4, "made": 4, "bad": 0, "median_s": 0.002,
         "budget_s": 60},
        {"row": "30x16/99", "generator": "ms laymine_solvable", "boards": 4, "made": 3, "bad": 0, "median_s": 0.008,
         "budget_s": 60},
        {"row": "30x16/99", "generator": "ms laymine_solvable_adjust", "boards": 4, "made": 4, "bad": 0,
         "median_s": 0.004, "budget_s": 60}]})
    assert made == [{"comparison": "generation", "corpus": "30x16/99", "stage": "perturb", "n": 4, "mscsp_ms": 2.0,
                     "peer": "ms_toollib", "peer_ms": 8.0, "ratio": 0.25, "mscsp_wins": 4, "peer_wins": 3,
                     "limit_ms": 60000}]
