"""The bias experiment: its tests against scipy, its border measure by enumeration, and quick runs."""

import json
import os
import shutil
from itertools import combinations
from math import lcm
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2, chi2_contingency

from conftest import REPO
from mscsp.board import Layout, Spec
from mscsp.experiments import noguess_bias
from mscsp.experiments.noguess_bias import border_ratio_boards
from mscsp.experiments.noguess_cost import border_cells, border_ratio
from mscsp.experiments.peers import benchmark, find_generators
from mscsp.play.noguess import Method
from mscsp.play.verify import verify
from mscsp.rules import FirstClickRule, generate
from mscsp.stats import cells_chi2 as cell_chi2, cells_chi2_permutation, two_proportions

TIMING_FILES = {"run.json", "timings.csv", "timings.md", "timings.png", "timings.pdf"}


def test_cells_chi2_is_scipys_two_by_two_tests_summed():
    rng = np.random.default_rng(5)
    n_a, n_b = 60, 45
    a, b = rng.integers(0, n_a + 1, 30), rng.integers(0, n_b + 1, 30)
    a[3], b[3] = 0, 0  # a cell no board has a mine on, and one every board has, carry no information
    a[4], b[4] = n_a, n_b
    stat, df, p = cell_chi2(a, n_a, b, n_b)
    want = sum(chi2_contingency([[x, n_a - x], [y, n_b - y]], correction=False).statistic
               for x, y in zip(a, b) if 0 < x + y < n_a + n_b)
    assert stat == pytest.approx(want, rel=1e-12)
    assert df == 27
    assert p == pytest.approx(chi2.sf(want, 27), rel=1e-6)


def _uniform_rows(spec, click, seed, n):
    return np.array([generate(spec, "opening", click, np.random.default_rng(s)).layout.mines
                     for s in np.random.SeedSequence(seed).spawn(n)])


def test_cells_chi2_is_calibrated_on_uniform_boards():
    """Two samples of uniform boards: the statistic's mean is its degrees of freedom
    times C/(C-1) (the fixed mine count ties the C cells) and N/(N-1) (a 2 x 2
    chi-square's mean over N boards, given its margins), and about 5% of p-values fall
    below 0.05. Reading the mines as one multinomial draw would put the mean near
    df x (1 - density), 0.86 here."""
    spec, click = Spec(9, 9, 10), (4, 4)
    rows = _uniform_rows(spec, click, 11, 300 * 40)
    stats, small = [], 0
    for r in range(300):
        a, b = rows[r * 40: r * 40 + 20], rows[r * 40 + 20: r * 40 + 40]
        stat, df, p = cell_chi2(a.sum(axis=0), 20, b.sum(axis=0), 20)
        stats.append(stat / df)
        small += p < 0.05
    assert np.mean(stats) == pytest.approx(72 / 71 * 40 / 39, abs=0.02)
    assert 5 <= small <= 30  # 15 expected of 300


def test_cells_chi2_permutation_agrees_with_every_split_enumerated():
    rng = np.random.default_rng(9)
    a, b = rng.random((4, 6)) < 0.4, rng.random((3, 6)) < 0.6
    pooled = np.vstack([a, b])

    def stat(idx):
        rest = [i for i in range(7) if i not in idx]
        return cell_chi2(pooled[list(idx)].sum(axis=0), 4, pooled[rest].sum(axis=0), 3)[0]

    observed = stat((0, 1, 2, 3))
    splits = [stat(idx) for idx in combinations(range(7), 4)]
    exact = sum(s >= observed - 1e-12 for s in splits) / len(splits)
    p = cells_chi2_permutation(a, b, np.random.default_rng(3), 20000)
    assert p == pytest.approx(exact, abs=0.01)


@pytest.mark.parametrize("k1,n1,k2,n2", [(30, 100, 45, 100), (3, 10, 9, 12), (70, 80, 700, 800)])
def test_two_proportions_is_the_uncorrected_two_by_two_chi_square(k1, n1, k2, n2):
    diff, p = two_proportions(k1, n1, k2, n2)
    want = chi2_contingency([[k1, n1 - k1], [k2, n2 - k2]], correction=False)
    assert diff == pytest.approx(k1 / n1 - k2 / n2)
    assert p == pytest.approx(want.pvalue, rel=1e-6)


def test_the_tests_have_teeth_and_accept_uniform_boards():
    spec = Spec(9, 9, 10)
    click = (4, 4)

    def boards(seed, n):
        return [generate(spec, "opening", click, np.random.default_rng(s)).layout.mines
                for s in np.random.SeedSequence(seed).spawn(n)]

    one, two = np.array(boards(1, 400)), np.array(boards(2, 400))
    assert cell_chi2(one.sum(axis=0), 400, two.sum(axis=0), 400)[2] > 0.001
    assert cells_chi2_permutation(one, two, np.random.default_rng(1), 199) > 0.01
    # boards whose mines avoid the top row: the per-cell test must see it
    skewed = np.array([m for m in boards(3, 3000) if not m[:9].any()][:400])
    assert len(skewed) == 400
    assert cell_chi2(one.sum(axis=0), 400, skewed.sum(axis=0), 400)[2] < 1e-6
    assert cells_chi2_permutation(one, skewed, np.random.default_rng(1), 199) == 1 / 200


def test_border_ratio_of_boards_with_one_click_is_noguess_costs():
    spec, click = Spec(9, 9, 10), (4, 4)
    b, i = border_cells(spec, click)
    counts = [3, 4, 5, 4, 6, 2, 5]
    mine = border_ratio_boards(counts, [(int(b.sum()), int(i.sum()))] * len(counts), spec.mines)
    theirs = border_ratio(counts, spec, click)
    assert mine[0] == pytest.approx(theirs[0], rel=1e-12)
    assert mine[1] < mine[0] < mine[2]


def test_every_uniform_layout_and_click_enumerated_scores_exactly_one():
    """6x6, one mine, every click equally likely (as Tatham's Mines draws it): each
    click's layouts are repeated to the same weight, and the measure reads exactly 1,
    although clicks at the edge, in a corner and inside weigh different cells."""
    spec = Spec(6, 6, 1)
    geometry = spec.geometry
    per_click = []
    for cell in range(36):
        click = geometry.coords(cell)
        allowed = sorted(set(range(36)) - set(FirstClickRule.OPENING.excluded(geometry, cell)))
        border, inner = border_cells(spec, click)
        weighed = (int(border.sum()), int(inner.sum()))
        per_click.append([(sum(bool(border[c]) for c in layout), weighed)
                          for layout in combinations(allowed, spec.mines)])
    same = lcm(*(len(layouts) for layouts in per_click))
    counts, weighed = [], []
    for layouts in per_click:
        for b, w in layouts * (same // len(layouts)):
            counts.append(b)
            weighed.append(w)
    assert border_ratio_boards(counts, weighed, spec.mines)[0] == pytest.approx(1.0, abs=1e-12)
    # the pooled ratio of sums, the obvious alternative, is not 1 here
    nb = sum(w[0] for w in weighed)
    ni = sum(w[1] for w in weighed)
    pooled = (sum(counts) / nb) / (sum(spec.mines - c for c in counts) / ni)
    assert abs(pooled - 1.0) > 0.01


def test_sampled_uniform_boards_with_random_clicks_score_one_within_the_interval():
    spec = Spec(9, 9, 10)
    counts, weighed = [], []
    for ss in np.random.SeedSequence(77).spawn(3000):
        rng = np.random.default_rng(ss)
        click = (int(rng.integers(9)), int(rng.integers(9)))
        layout = generate(spec, "opening", click, rng).layout
        border, inner = border_cells(spec, click)
        counts.append(int(layout.mines[border].sum()))
        weighed.append((int(border.sum()), int(inner.sum())))
    ratio, low, high = border_ratio_boards(counts, weighed, spec.mines)
    assert low < 1.0 < high and high - low < 0.15


def _files(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_quick_run_writes_its_folder_and_does_not_depend_on_jobs(tmp_path):
    # the seeded generators only (ms_toollib takes no seed); Tatham's Mines where installed
    gens = "perturb,tatham,js"
    one, two = tmp_path / "one", tmp_path / "two"
    common = ["--quick", "--quiet", "--reference", "retry", "--generators", gens, "--seed", "3"]
    assert noguess_bias.main([*common, "--out", str(one), "--jobs", "1"]) == 0
    assert noguess_bias.main([*common, "--out", str(two), "--jobs", "2"]) == 0
    first, second = _files(one), _files(two)
    assert first.keys() == second.keys()
    assert [n for n in sorted(set(first) - TIMING_FILES) if first[n] != second[n]] == []
    assert {"summary.csv", "tests.csv", "generators.csv", "README.md", "config.json",
            "mine_frequency_beginner.png", "mine_frequency_beginner.pdf"} <= set(first)
    summary = pd.read_csv(one / "summary.csv")
    generators = pd.read_csv(one / "generators.csv", keep_default_na=False)
    config = json.loads((one / "config.json").read_text())
    assert "--reference retry" in config["command"] and config["reference"] == "retry"
    # every generator asked for is either run or skipped with its reason
    assert set(generators["generator"]) == {"mscsp perturb", "Tatham mines", "JSMinesweeper"}
    assert all(r.ran or r.reason for r in generators.itertuples())
    assert set(config["generators"]) == set(generators.loc[generators["ran"], "generator"])
    ran = set(generators.loc[generators["ran"], "generator"])
    assert set(summary.loc[summary["role"] == "generator", "method"]) == ran
    # a reference for every setting a generator ran in, of the same size
    refs = summary[summary["role"] == "reference"]
    assert (refs["k"] == 4).all() and (refs["solver"] == "sat+total").all()
    made = summary[summary["k"] > 0]
    assert ((made["3bv_low"] <= made["mean_3bv"]) & (made["mean_3bv"] <= made["3bv_high"])).all()
    assert ((made["single_point_low"] <= made["single_point_share"])
            & (made["single_point_share"] <= made["single_point_high"])).all()
    # every peer and perturb promise at least what mscsp's complete solver with the total finishes
    assert (summary.loc[summary["role"] == "generator", "verified_share"] == 1.0).all()
    tests = pd.read_csv(one / "tests.csv")
    assert set(tests["method"]) == ran
    for col in ("ks_3bv_p", "ks_openings_p", "ks_border_p", "chi2_cells_p", "chi2_cells_perm_p", "single_point_p"):
        assert tests[col].between(0, 1).all()


def test_retry_reference_skips_the_dense_rows_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(noguess_bias, "QUICK_BOARDS", [("dense", Spec(9, 9, 25))])
    out = tmp_path / "dense"
    assert noguess_bias.main(["--quick", "--quiet", "--reference", "retry", "--generators", "perturb",
                              "--samples", "1", "--out", str(out)]) == 0
    skipped = pd.read_csv(out / "skipped.csv")
    assert list(skipped["method"]) == ["retry (centre, with the total)"]
    assert "thousands of attempts" in skipped["reason"][0]
    tests = pd.read_csv(out / "tests.csv")
    assert tests["note"][0] == "no reference boards"


def test_uniform_reference_runs_or_is_refused_in_one_line(tmp_path, capsys):
    argv = ["--quick", "--quiet", "--generators", "perturb", "--samples", "2", "--out", str(tmp_path / "u")]
    if "uniform" in {m.value for m in Method}:
        assert noguess_bias.main(argv) == 0
        assert json.loads((tmp_path / "u" / "config.json").read_text())["reference"] == "uniform"
    else:
        assert noguess_bias.main(argv) == 2
        err = capsys.readouterr().err
        assert "no uniform sampler" in err and "--reference retry" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv,words", [(["--generators", "perturb,nope"], "unknown generator 'nope'"),
                                        (["--reference", "exact"], "invalid choice"),
                                        (["--boards", "0"], "positive integer"),
                                        (["--time-limit", "-1"], "positive number of seconds")])
def test_bad_arguments_are_refused_in_one_line(argv, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        noguess_bias.main([*argv, "--out", str(tmp_path / "x")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


class _FakeTatham:
    """A stand-in for the Tatham driver: a seeded board with the opening rule kept,
    a misplaced board now and then, and a failure now and then, so that a replay has
    every kind of row to repeat."""

    def tatham_generate(self, program, width, height, mines, seed, budget):
        bench = benchmark("noguess")
        rng = np.random.default_rng(int(seed))
        spec = Spec(width, height, mines)
        click = (int(rng.integers(width)), int(rng.integers(height)))
        if int(seed) % 5 == 0:
            return bench.Outcome(ok=False, seconds=0.0, note="timeout")
        layout = generate(spec, FirstClickRule.OPENING if int(seed) % 7 else FirstClickRule.UNIFORM, click, rng).layout
        return bench.Outcome(ok=True, seconds=0.25, mines=layout.mines.copy(), click=click)


def _fake_peers(monkeypatch):
    real = noguess_bias.benchmark
    monkeypatch.setattr(noguess_bias, "benchmark", lambda name: _FakeTatham() if name == "noguess" else real(name))
    monkeypatch.setattr(noguess_bias, "find_generators",
                        lambda wanted, tatham, js: ({n: ({"version": "fake 1", "path": "/x"} if n == "Tatham mines" else {})
                                                     for n in wanted}, {}))


def test_a_recorded_run_replays_the_live_one(tmp_path, monkeypatch):
    _fake_peers(monkeypatch)
    peers = tmp_path / "data" / "peers.csv.gz"
    common = ["--quiet", "--reference", "retry", "--generators", "perturb,tatham", "--seed", "3", "--samples", "12",
              "--jobs", "1", "--peer-file", str(peers)]
    monkeypatch.setattr(noguess_bias, "QUICK_BOARDS", [("beginner", Spec(9, 9, 10))])
    assert noguess_bias.main([*common, "--quick", "--save-peers", "--out", str(tmp_path / "live")]) == 0
    monkeypatch.undo()  # the replay needs no peer at all
    monkeypatch.setattr(noguess_bias, "QUICK_BOARDS", [("beginner", Spec(9, 9, 10))])
    assert noguess_bias.main([*common, "--quick", "--peers", "recorded", "--out", str(tmp_path / "replay")]) == 0
    live, replay = _files(tmp_path / "live"), _files(tmp_path / "replay")
    for name in ("summary.csv", "tests.csv"):
        assert live[name] == replay[name], name
    summary = pd.read_csv(tmp_path / "replay" / "summary.csv").set_index("method")
    tatham = summary.loc["Tatham mines"]
    assert tatham["n"] == 12 and 0 < tatham["k"] < 12  # failures and misplaced boards replayed as failures
    generators = pd.read_csv(tmp_path / "replay" / "generators.csv", keep_default_na=False).set_index("generator")
    assert generators.loc["Tatham mines", "source"].startswith("recorded (") and \
        generators.loc["mscsp perturb", "source"] == "live"
    config = json.loads((tmp_path / "replay" / "config.json").read_text())
    assert config["peers"] == "recorded" and config["generators"]["Tatham mines"] == {"version": "fake 1"}
    assert "--peers recorded" in config["command"]
    # the file holds every board asked for, made or not, and is the same bytes when saved again
    rows = pd.read_csv(peers, keep_default_na=False)
    assert sorted(rows["sample"]) == list(range(12)) and set(rows["status"]) <= {"made", "failed", "untried"}
    made = rows[rows["status"] == "made"]
    assert len(made) == tatham["k"]
    for r in made.itertuples():
        x, y = int(r.click_x), int(r.click_y)
        mines = np.array([c == "*" for c in r.layout.replace("/", "")])
        assert mines.sum() == 10 and not mines.reshape(9, 9)[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2].any()
    about = noguess_bias.load_peer_boards(peers)
    assert about["seed"] == 3 and about["samples"] == 12
    _fake_peers(monkeypatch)
    again = tmp_path / "again.csv.gz"
    assert noguess_bias.main([*common[:-1], str(again), "--quick", "--save-peers",
                              "--out", str(tmp_path / "again")]) == 0
    assert again.read_bytes() == peers.read_bytes()


def _recorded_file(tmp_path, monkeypatch) -> Path:
    _fake_peers(monkeypatch)
    monkeypatch.setattr(noguess_bias, "QUICK_BOARDS", [("beginner", Spec(9, 9, 10))])
    peers = tmp_path / "peers.csv.gz"
    assert noguess_bias.main(["--quick", "--quiet", "--reference", "retry", "--generators", "perturb,tatham",
                              "--samples", "3", "--seed", "3", "--save-peers", "--peer-file", str(peers),
                              "--out", str(tmp_path / "live")]) == 0
    monkeypatch.undo()
    return peers


def _rewrite(peers: Path, change) -> None:
    import gzip

    lines = gzip.decompress(peers.read_bytes()).decode().splitlines()
    peers.write_bytes(gzip.compress(("\n".join(change(lines)) + "\n").encode()))
    noguess_bias.load_peer_boards.cache_clear()


@pytest.mark.parametrize("case,words", [
    ("missing", "no such peer-board file"),
    ("seed", "drawn with seed 3, not 4"),
    ("fewer", "has 3 boards of beginner in a row, not 5"),
    ("layout", "line 2: a layout of 9 rows of 9"),
    ("columns", "line 1: expected the columns"),
    ("save", "cannot go with --peers recorded"),
])
def test_a_bad_peer_file_is_refused_in_one_line(case, words, tmp_path, monkeypatch, capsys):
    peers = _recorded_file(tmp_path, monkeypatch)
    argv = ["--quick", "--quiet", "--reference", "retry", "--generators", "perturb,tatham", "--samples", "3",
            "--seed", "3", "--peers", "recorded", "--peer-file", str(peers), "--out", str(tmp_path / "out")]
    if case == "missing":
        argv[argv.index(str(peers))] = str(tmp_path / "nowhere.csv.gz")
    elif case == "seed":
        argv[argv.index("--seed") + 1] = "4"
    elif case == "fewer":
        argv[argv.index("--samples") + 1] = "5"
    elif case == "layout":
        _rewrite(peers, lambda lines: [lines[0]] + [lines[1].replace("/", "", 1)] + lines[2:]
                 if "made" in lines[1] else lines)
        if "made" not in gzip_first(peers):
            pytest.skip("the first recorded board failed")
    elif case == "columns":
        _rewrite(peers, lambda lines: ["x" + lines[0]] + lines[1:])
    elif case == "save":
        argv.append("--save-peers")
    capsys.readouterr()
    noguess_bias.load_peer_boards.cache_clear()
    assert noguess_bias.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def gzip_first(peers: Path) -> str:
    import gzip

    return gzip.decompress(peers.read_bytes()).decode().splitlines()[1]


def test_reproduce_replays_the_committed_peer_boards(tmp_path):
    """mscsp reproduce runs the experiment on the committed peers' boards; they keep
    each generator's promise as far as it can be read from the file alone."""
    from mscsp.experiments.reproduce import REPRODUCE

    assert ("noguess_bias", "noguess_bias", ["--peers", "recorded"]) in REPRODUCE
    about = noguess_bias.load_peer_boards(noguess_bias.PEER_FILE)
    assert set(about["generators"]) == set(noguess_bias.GENERATORS) - {"mscsp perturb"}
    for (label, name), rows in about["boards"].items():
        spec = Spec(**about["sizes"][label])
        g = spec.geometry
        assert sorted(rows) == list(range(about["samples"])), (label, name)
        for row in rows.values():
            if row["status"] != "made":
                continue
            assert int(row["mines"].sum()) == spec.mines
            assert not row["mines"][list(g.closed_neighbourhood(g.cell(row["click"])))].any()
            if name != "Tatham mines":
                assert row["click"] == (spec.width // 2, spec.height // 2)
    out = tmp_path / "bias"
    assert noguess_bias.main(["--quick", "--quiet", "--peers", "recorded", "--out", str(out)]) == 0
    generators = pd.read_csv(out / "generators.csv", keep_default_na=False)
    assert generators["ran"].all() and generators["source"].str.startswith("recorded").sum() == 4
    summary = pd.read_csv(out / "summary.csv")
    assert (summary.loc[summary["role"] == "generator", "verified_share"] == 1.0).all()


@pytest.mark.skipif(shutil.which("node") is None or not os.environ.get("MSCSP_JSMINESWEEPER"),
                    reason="needs Node.js and a JSMinesweeper checkout in $MSCSP_JSMINESWEEPER")
def test_jsminesweeper_boards_keep_the_count_and_the_opening_and_are_no_guess():
    bench = benchmark("noguess")
    checkout = bench.jsminesweeper(os.environ["MSCSP_JSMINESWEEPER"])["path"]
    spec, click = Spec(16, 16, 40), (8, 8)
    outs = bench.js_generate(checkout, spec.width, spec.height, spec.mines, click, [11, 12, 13], 30.0)
    again = bench.js_generate(checkout, spec.width, spec.height, spec.mines, click, [13], 30.0)
    assert np.array_equal(outs[2].mines, again[0].mines)  # a seed gives one board, whatever ran before it
    g = spec.geometry
    for out in outs:
        assert out.ok and int(out.mines.sum()) == spec.mines
        assert not out.mines[list(g.closed_neighbourhood(g.cell(click)))].any()
        assert verify(Layout(g, out.mines), click, "sat", use_total=True).solved


def test_peers_missing_are_skipped_with_their_reason(monkeypatch, tmp_path):
    from mscsp.experiments import peers

    monkeypatch.setattr(peers, "BENCHMARKS", tmp_path)  # a checkout without benchmarks/
    ran, skipped = find_generators(list(noguess_bias.GENERATORS), "auto", "/nowhere")
    assert list(ran) == ["mscsp perturb"]
    assert set(skipped) == set(noguess_bias.GENERATORS) - {"mscsp perturb"}
    assert all("noguess.py is missing" in why for why in skipped.values())
    monkeypatch.undo()
    ran, skipped = find_generators(["Tatham mines", "JSMinesweeper"], str(tmp_path / "no-mines"), str(tmp_path))
    assert ran == {} and "no such program" in skipped["Tatham mines"]
    assert "not a JSMinesweeper checkout" in skipped["JSMinesweeper"] or "Node.js" in skipped["JSMinesweeper"]


def test_the_rejection_peer_gets_the_retry_limit_and_references_match_their_generators():
    import argparse

    args = argparse.Namespace(reference="retry", time_limit=60.0, retry_limit=10.0, samples=3)
    ran = {"mscsp perturb": {}, "ms laymine_solvable": {"version": "x"}, "Tatham mines": {"path": "/x"}}
    units, skipped = noguess_bias._units([("expert", Spec(30, 16, 99))], ran, args)
    limits = {u.params["generator"]: u.params["limit"] for u in units}
    assert limits["ms laymine_solvable"] == 10.0 and limits["mscsp perturb"] == limits["Tatham mines"] == 60.0
    # one reference a setting: with the total at the centre, without it, and at a random click
    refs = [u.params for u in units if u.params["generator"] not in noguess_bias.GENERATORS]
    assert sorted((r["setting"]["use_total"], r["setting"]["random_click"]) for r in refs) == [
        (False, False), (True, False), (True, True)]
    assert skipped == [] and all(u.samples == 3 for u in units)
