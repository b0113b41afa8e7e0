import json
import subprocess
import sys

import pytest

from mscsp.board import parse_layout
from mscsp.cli import main
from mscsp.game import Replay


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("rule", ["uniform", "safe", "opening", "winxp"])
def test_generate_json_meets_the_contract(capsys, rule):
    code, out, err = run(capsys, "generate", "--width", "30", "--height", "16", "--mines", "99",
                         "--seed", "42", "--click", "15,8", "--rule", rule, "--json")
    assert code == 0 and err == ""
    record = json.loads(out)
    assert set(record) >= {"width", "height", "mines", "seed", "rule", "click", "layout",
                           "no_guess", "attempts", "seconds", "generator"}
    assert (record["width"], record["height"], record["mines"], record["seed"]) == (30, 16, 99, 42)
    assert record["rule"] == rule and record["click"] == [15, 8]
    rows = record["layout"]
    assert len(rows) == 16 and all(len(r) == 30 for r in rows)
    assert sum(r.count("*") for r in rows) == 99
    if rule != "uniform":
        assert rows[8][15] == "."
    if rule == "opening":
        assert all(rows[8 + dy][15 + dx] == "." for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def test_generate_text_is_a_layout_file_and_matches_json(capsys):
    args = ["generate", "--preset", "beginner", "--seed", "9", "--click", "0,0", "--rule", "safe"]
    _, text, _ = run(capsys, *args)
    _, js, _ = run(capsys, *args, "--json")
    layout = parse_layout(text)
    assert layout.rows() == json.loads(js)["layout"]
    assert "seed: 9" in text and "rule safe" in text


def test_generate_defaults_to_the_centre_and_records_a_fresh_seed(capsys):
    _, js, _ = run(capsys, "generate", "--preset", "expert", "--rule", "opening", "--json")
    record = json.loads(js)
    assert record["click"] == [15, 8] and isinstance(record["seed"], int)
    _, again, _ = run(capsys, "generate", "--preset", "expert", "--rule", "opening", "--json",
                      "--seed", str(record["seed"]))
    assert json.loads(again)["layout"] == record["layout"]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["--width", "3", "--height", "3", "--mines", "9", "--rule", "safe"], "too many mines"),
        (["--width", "3", "--height", "3", "--mines", "2", "--click", "3,0"], "not a cell"),
        (["--width", "9", "--height", "9", "--mines", "73", "--rule", "opening"], "too many mines"),
        (["--width", "0", "--height", "9", "--mines", "1"], "positive"),
        (["--width", "9", "--height", "9", "--mines", "1", "--click", "a,b"], "X,Y"),
        (["--width", "9", "--height", "9", "--mines", "1", "--rule", "vista"], "invalid choice"),
        (["--height", "9", "--mines", "1"], "--width"),
    ],
)
def test_impossible_requests_exit_2_with_one_line(capsys, argv, fragment):
    with pytest.raises(SystemExit) as exc:
        code = main(["generate", *argv])
        raise SystemExit(code)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert fragment in err and err.count("\n") == 1


def test_console_script_has_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "mscsp", "generate", "--width", "2", "--height", "2",
                           "--mines", "4", "--rule", "safe"], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == ""


def test_play_a_game_from_standard_input_and_replay_it(tmp_path, monkeypatch, capsys):
    import io

    replay_path = tmp_path / "game.json"
    # Opening rule from the centre of a 5x5 board with 1 mine: find the mine by a seed and win.
    from mscsp.rules import generate
    from mscsp.board import Spec

    board = generate(Spec(5, 5, 1), "opening", (2, 2), 3)
    commands = ["r 2 2"]
    commands += [f"r {x} {y}" for y in range(5) for x in range(5)
                 if not board.layout.is_mine((x, y))]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["help", "bogus"] + commands) + "\n"))
    code, out, _ = run(capsys, "play", "--width", "5", "--height", "5", "--mines", "1",
                       "--rule", "opening", "--seed", "3", "--save", str(replay_path))
    assert code == 0 and "You won" in out and "cannot read 'bogus'" in out
    replay = Replay.from_json(replay_path.read_text())
    assert replay.status == "won" and replay.click == (2, 2) and replay.seed == 3
    code, out, _ = run(capsys, "replay", str(replay_path))
    assert code == 0 and out.rstrip().splitlines()[-1].startswith("won after")


def test_replay_of_a_bad_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and "not JSON" in err and err.count("\n") == 1
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 2 and "No such file" in err
