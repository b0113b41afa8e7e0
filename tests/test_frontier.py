"""The strength–time frontier: its rows against the folders it reads, Wilson's interval by hand."""

import importlib.util
import json
import math
import sys

import pandas as pd
import pytest

from conftest import REPO


def _frontier():
    spec = importlib.util.spec_from_file_location("frontier", REPO / "experiments" / "frontier.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["frontier"] = module
    spec.loader.exec_module(module)
    return module


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _folders(tmp_path):
    winrate = tmp_path / "winrate"
    winrate.mkdir()
    rows = [("expert", "safe", 0, 0, "least-p", 1000, 380), ("expert", "safe", 0, 0, "+endgame", 2000, 815),
            ("expert", "opening", 3, 3, "+endgame", 1000, 545), ("beginner", "safe", 0, 0, "+endgame", 100, 91)]
    pd.DataFrame([dict(zip(["board", "rule", "click_x", "click_y", "policy", "n", "k"], r)) for r in rows]).to_csv(
        winrate / "summary.csv", index=False)
    pd.DataFrame([dict(zip(["board", "rule", "click_x", "click_y", "policy", "ms_per_game"], [*r[:5], 1.5 + i]))
                  for i, r in enumerate(rows)]).to_csv(winrate / "timings.csv", index=False)
    (winrate / "run.json").write_text(json.dumps({"git": {"revision": "a" * 40}}))
    h2h = tmp_path / "headtohead"
    h2h.mkdir()
    pd.DataFrame([{"start": "expert-classic", "n": 500, "mscsp_wins": 205, "java_wins": 201},
                  {"start": "tu-beginner", "n": 50, "mscsp_wins": 40, "java_wins": 41}]).to_csv(
        h2h / "summary.csv", index=False)
    pd.DataFrame([{"start": "expert-classic", "n": 500, "mscsp_ms": 7.0, "java_ms": 9.0},
                  {"start": "tu-beginner", "n": 50, "mscsp_ms": 1.0, "java_ms": 2.0}]).to_csv(
        h2h / "timings.csv", index=False)
    return winrate, h2h


def test_every_row_comes_from_its_folder_with_wilsons_interval(tmp_path):
    frontier = _frontier()
    winrate, h2h = _folders(tmp_path)
    out = tmp_path / "out"
    assert frontier.main(["--winrate", str(winrate), "--headtohead", str(h2h), "--out", str(out)]) == 0
    table = pd.read_csv(out / "summary.csv")
    timings = pd.read_csv(out / "timings.csv")
    want = {("expert-classic", "mscsp least-p"): (1000, 380), ("expert-classic", "mscsp +endgame"): (2000, 815),
            ("expert-modern", "mscsp +endgame"): (1000, 545)}
    for (start, player), (n, k) in want.items():
        row = table[(table["start"] == start) & (table["player"] == player) & (table["kind"] == "mscsp rung")]
        assert len(row) == 1 and row["games"].item() == n and row["rate"].item() == pytest.approx(k / n)
        assert (row["low"].item(), row["high"].item()) == pytest.approx(_wilson(k, n), abs=1e-12)
    same = table[table["kind"] == "same boards"].set_index("player")
    assert same.loc["Hill Java (measured)", "wins"] == 201 and same.loc["mscsp +endgame", "wins"] == 205
    assert set(same["start"]) == {"expert-classic"}  # Beginner rows are not Expert's frontier
    assert not (table["start"] == "tu-beginner").any() and not ((table["kind"] == "mscsp rung")
                                                              & (table["games"] == 100)).any()
    hill = timings[(timings["player"] == "Hill Java (measured)")]
    assert hill["ms_per_game"].tolist() == [9.0]
    published = table[table["kind"] == "published"].set_index(["start", "player"])
    assert published.loc[("expert-classic", "Hill Java (published)"), "rate"] == pytest.approx(0.41132)
    assert published.loc[("expert-modern", "Tu et al. PSEQ"), "rate"] == pytest.approx(0.5279)
    # a start measured again in a later folder is taken from the first
    again = tmp_path / "again"
    again.mkdir()
    for name in ("summary.csv", "timings.csv"):
        (again / name).write_text((h2h / name).read_text().replace("205", "100"))
    assert frontier.main(["--winrate", str(winrate), "--headtohead", str(h2h), str(again), "--out",
                          str(tmp_path / "two")]) == 0
    two = pd.read_csv(tmp_path / "two" / "summary.csv")
    assert two[two["kind"] == "same boards"]["wins"].tolist() == same["wins"].tolist()
    config = json.loads((out / "config.json").read_text())
    assert config["folders"] == {"winrate": "a" * 40, "headtohead": None}
    assert (out / "timings.png").is_file() and "made at aaaaaaa" in (out / "README.md").read_text()


def test_a_missing_folder_is_refused_in_one_line(tmp_path, capsys):
    frontier = _frontier()
    assert frontier.main(["--winrate", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no such file" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()
