"""Mine totals past every machine integer, fed to each command that reads one.

A total larger than the board's cells is impossible, whatever its size: the commands
that weigh a position say so (exit 1, as for a small impossible total), those that
deal or replay a board refuse it as bad input (exit 2), and none reaches a compiled
module with a number it cannot hold (an ``OverflowError`` was an internal error,
exit 70). The oracle is counting: no layout of ``n`` cells holds more than ``n`` mines.
"""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from mscsp.analysis.counting.exact.quick import quick_probabilities
from mscsp.cli import INTERNAL, main
from mscsp.position import parse_position
from mscsp.web.app import create_app
from mscsp.web.settings import Settings

#: Past a C ``long long`` (2**63), an unsigned one (2**64) and an ``int`` (2**31).
TOTALS = [99999999999999999999, 2**64, 2**63, 2**31]
#: The 1-2-1 against a wall: seven covered cells, two mines by its clues.
GRID = ".....\n.121.\n"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code != INTERNAL and "Traceback" not in err, err
    return code, out, err


@pytest.fixture(params=TOTALS, ids=lambda t: f"{len(str(t))}-digits")
def total(request) -> int:
    return request.param


@pytest.fixture
def huge(tmp_path, total):
    path = tmp_path / "huge.txt"
    path.write_text(f"mines: {total}\n{GRID}")
    return path


@pytest.mark.parametrize("argv", [
    ["solve"], ["solve", "--solver", "single-point"], ["solve", "--solver", "subset"], ["solve", "--json"],
    ["solve", "--fractions", "--json"], ["solve", "--counter", "cpsat"], ["solve", "--dimacs"],
    ["count"], ["count", "--json"], ["count", "--counter", "cpsat"], ["consistent"], ["consistent", "--json"],
], ids=" ".join)
def test_a_total_past_machine_integers_is_an_impossible_position(capsys, huge, total, argv):
    code, out, err = run(capsys, *argv, huge)
    assert code == 1, err
    said = out + err
    assert f"{total} mines are left to place but only seven cells are covered" in said, said


def test_without_the_total_the_clues_alone_are_weighed(capsys, huge):
    code, out, err = run(capsys, "solve", "--no-total", "--json", huge)
    assert code == 0, err
    record = json.loads(out)
    # the 1-2-1 against a wall: the cells above the 1s are mines, the rest safe
    assert sorted(map(tuple, record["mine"])) == [(1, 0), (3, 0)]
    assert sorted(map(tuple, record["safe"])) == [(0, 0), (0, 1), (2, 0), (4, 0), (4, 1)]


def test_the_quick_path_declines_a_total_past_the_board(total):
    assert quick_probabilities(parse_position(f"mines: {total}\n{GRID}"), 10_000) is None


def test_dealing_verifying_and_replaying_refuse_such_totals(capsys, tmp_path, total):
    for argv in (["generate", "--width", 5, "--height", 5, "--mines", total, "--seed", 1],
                 ["generate", "--width", 5, "--height", 5, "--mines", total, "--seed", 1, "--no-guess"],
                 ["play", "--width", 5, "--height", 5, "--mines", total, "--seed", 1, "--no-save"]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and f"{total} mines do not fit on a 5x5 board" in err, err
    layout = tmp_path / "layout.txt"
    layout.write_text(f"mines: {total}\n*..\n...\n")
    code, _, err = run(capsys, "verify", "--click", "1,1", layout)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps({"format": "mscsp-replay/1", "width": 3, "height": 3, "mines": total, "seed": 1,
                                  "rule": "safe", "moves": []}))
    code, _, err = run(capsys, "replay", replay)
    assert code == 2 and "'mines' must be from 0 to 9" in err, err


def test_the_web_api_refuses_such_totals(total):
    with TestClient(create_app(Settings(workers=1))) as client:
        for endpoint in ("/api/parse", "/api/analyse"):
            answer = client.post(endpoint, json={"position": f"mines: {total}\n{GRID}"})
            assert answer.status_code == 400, answer.text
            assert "more than the 10 cells" in answer.json()["error"]
        answer = client.post("/api/games", json={"width": 5, "height": 5, "mines": total})
        assert answer.status_code == 400, answer.text
