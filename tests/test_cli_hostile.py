"""Hostile, huge and malformed input on the command line: one line, exit 2, no traceback.

Every case runs ``mscsp.cli.main`` in this process: an exception escaping it, or an
internal error (exit 70), fails the test. Bad input must give exit status 2 and
exactly one line on standard error, before any work (and within a second); files the
command would write must not appear half-written.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import POSITIONS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mscsp.cli import INTERNAL, main
from mscsp.formats.files import MAX_CELLS, MAX_FILE_BYTES
from mscsp.reduction.cnf import parse_dimacs
from mscsp.reduction.compile import compile_cnf

CNF = "p cnf 3 4\n1 -2 0\n2 3 0\n-1 -3 0\n1 2 3 0\n"


def run(capsys, *argv, limit: float = 5.0):
    started = time.perf_counter()
    code = main([str(a) for a in argv])
    seconds = time.perf_counter() - started
    out, err = capsys.readouterr()
    assert code != INTERNAL, err
    assert "Traceback" not in err
    assert seconds < limit, f"{argv[0]} took {seconds:.1f} s"
    return code, out, err


def refused(capsys, *argv, words: str = "", limit: float = 1.0) -> str:
    code, out, err = run(capsys, *argv, limit=limit)
    assert code == 2, (code, err)
    assert len(err.strip().splitlines()) == 1, err
    assert words in err, err
    return err


def refused_by_parser(capsys, *argv, words: str = "") -> str:
    """Like :func:`refused`, for arguments the parser refuses (it exits itself)."""
    with pytest.raises(SystemExit) as exit_:
        main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1 and words in err, err
    return err


@pytest.fixture
def compiled(tmp_path):
    c = compile_cnf(parse_dimacs(CNF))
    board = tmp_path / "board.txt"
    mapping = tmp_path / "map.json"
    from mscsp.position import format_position

    board.write_text(format_position(c.position))
    mapping.write_text(c.map_json())
    return board, mapping


# -- the cases of the report, one by one ---------------------------------------------------
@pytest.mark.parametrize("content, words", [
    ("[1, 2]", "must be a JSON object, not a list"),
    (json.dumps({"format": "mscsp-cnf-map/1", "variables": "x", "cells": {}}), "'variables' must be a whole number"),
    (json.dumps({"format": "mscsp-cnf-map/1", "variables": 3, "cells": [1]}), "'cells' must be an object"),
    (json.dumps({"format": "mscsp-cnf-map/1", "variables": 3, "cells": {"1": [99999, 0]}}), "off the"),
    (json.dumps({"format": "mscsp-cnf-map/1", "variables": 3, "cells": {"9": [0, 0]}}), "not one of 1 to 3"),
    ("{", "not JSON"),
])
def test_decode_maps_of_the_wrong_shape_are_refused_before_the_search(capsys, tmp_path, compiled, content, words):
    board, _ = compiled
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    refused(capsys, "consistent", "--decode", bad, board, words=words)


def test_decoding_is_bounded_by_the_memory_limit_not_by_the_map_s_size(capsys, tmp_path):
    # a 33-byte formula whose map asks for 100 million variables: 8 GB to decode
    formula = tmp_path / "f.cnf"
    formula.write_text("p cnf 100000000 1\n1 0\n")
    board, mapping = tmp_path / "b.txt", tmp_path / "m.json"
    code, out, _ = run(capsys, "from-cnf", "--map", mapping, formula)
    board.write_text(out)
    refused(capsys, "consistent", "--decode", mapping, board, words="decoding its 100000000 variables would take")
    mapping.write_text(mapping.read_text().replace("100000000", "2000"))
    code, out, _ = run(capsys, "consistent", "--decode", mapping, board)
    assert code == 0 and out.startswith("v 1 -2 -3") and out.endswith(" -2000 0\n")


def test_from_cnf_map_into_a_folder_or_a_missing_folder_writes_nothing(capsys, tmp_path):
    formula = tmp_path / "f.cnf"
    formula.write_text(CNF)
    refused(capsys, "from-cnf", "--map", tmp_path, formula, words="is a folder")
    refused(capsys, "from-cnf", "--map", tmp_path / "missing" / "m.json", formula, words="does not exist")
    assert not (tmp_path / "missing").exists()
    code, out, _ = run(capsys, "from-cnf", "--map", tmp_path / "m.json", formula)
    assert code == 0 and out and json.loads((tmp_path / "m.json").read_text())["variables"] == 3
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".mscsp-")]  # no temporary file left


@pytest.fixture
def formula(tmp_path):
    path = tmp_path / "f.cnf"
    path.write_text(CNF)
    return path


@pytest.fixture
def no_rename_over_devices(monkeypatch):
    """os.replace that refuses to rename over anything but a regular file, so that a
    test writing to /dev/null can never turn it into one."""
    import stat

    real = os.replace

    def guarded(src, dst, *args, **kwargs):
        if os.path.lexists(dst) and not stat.S_ISREG(os.lstat(dst).st_mode):
            raise AssertionError(f"renamed over {dst}, which is not a regular file")
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", guarded)


def test_outputs_to_a_device_are_written_through_it(capsys, formula, no_rename_over_devices):
    import stat

    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    code, out, _ = run(capsys, "from-cnf", "--map", "/dev/null", formula)
    assert code == 0 and out.startswith("# compiled")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_outputs_to_a_fifo_or_a_link_to_one_are_written_through_it(capsys, tmp_path, formula, no_rename_over_devices):
    import stat
    import threading

    fifo = tmp_path / "map.fifo"
    os.mkfifo(fifo)
    refused(capsys, "from-cnf", "--map", fifo, formula, words="a pipe that no one reads")
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    time.sleep(0.2)  # the reader opens its end first
    code, _, _ = run(capsys, "from-cnf", "--map", link, formula)
    reader.join(5)
    assert code == 0 and json.loads(got[0])["variables"] == 3
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()


def test_outputs_through_a_link_replace_the_file_it_points_to(capsys, tmp_path, formula):
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, _, _ = run(capsys, "from-cnf", "--map", link, formula)
    assert code == 0 and link.is_symlink() and json.loads(real.read_text())["variables"] == 3
    assert real.stat().st_mode & 0o777 == 0o640  # a replaced file keeps its permissions
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".mscsp-")]


def test_a_new_output_gets_the_permissions_of_the_umask(capsys, tmp_path, formula):
    old = os.umask(0o027)
    try:
        code, _, _ = run(capsys, "from-cnf", "--map", tmp_path / "new.json", formula)
    finally:
        os.umask(old)
    assert code == 0 and (tmp_path / "new.json").stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd here")
def test_an_output_to_dev_stdout_lands_in_standard_output(tmp_path, formula):
    # a subprocess, so that standard output is a real file, as after `> out.txt`; and a
    # link of our own made like /dev/stdout, so that a regression replaces that link only
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    out = tmp_path / "out.txt"
    with open(out, "w") as handle:
        done = subprocess.run([sys.executable, "-m", "mscsp", "from-cnf", "--map", str(stdout), str(formula)],
                              stdout=handle, stderr=subprocess.PIPE, text=True, timeout=60)
    text = out.read_text()
    assert done.returncode == 0, done.stderr
    assert text.startswith("{") and '"format": "mscsp-cnf-map/1"' in text and "# compiled by mscsp" in text
    assert stdout.is_symlink()


@pytest.mark.parametrize("replay, words", [
    ({"format": "mscsp-replay/1", "width": 10**6, "height": 10**6, "mines": 1, "actions": []}, "larger than the limit"),
    ({"format": "mscsp-replay/1", "width": 3, "height": 3, "mines": 1, "layout": [123], "actions": []},
     "'layout' must be 3 rows"),
    ({"format": "mscsp-replay/1", "width": 3, "height": 3, "mines": 1, "actions": [{"action": "reveal"}]},
     "cell must be [x, y]"),
    ({"format": "mscsp-replay/1", "width": 3, "height": 3, "mines": 1, "actions": "all"}, "must be a list"),
    ({"format": "mscsp-replay/1", "width": True, "height": 3, "mines": 1, "actions": []}, "whole number"),
])
def test_malformed_replays_are_refused(capsys, tmp_path, replay, words):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(replay))
    refused(capsys, "replay", path, words=words)


def test_a_deeply_nested_replay_is_refused(capsys, tmp_path):
    path = tmp_path / "r.json"
    path.write_text("[" * 100_000)
    refused(capsys, "replay", path, words="nested too deeply")


def test_play_refuses_a_save_path_before_the_game(capsys, tmp_path, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    err = refused(capsys, "play", "--preset", "beginner", "--seed", "1", "--save", tmp_path / "missing" / "r.json",
                  words="does not exist")
    assert "mines left" not in err


def test_reproduce_refuses_an_output_under_a_file(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    refused(capsys, "reproduce", "--quick", "--only", "first_click", "--out", blocker / "out", words="is a file")


def test_reproduce_refuses_an_output_the_system_will_not_make(capsys, tmp_path):
    refused(capsys, "reproduce", "--quick", "--only", "first_click", "--out", "/proc/mscsp-test",
            words="/proc/mscsp-test: cannot be made")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux: from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                found.append(int(entry))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds worker processes through /proc")
@pytest.mark.parametrize("name, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_reproduce_stops_with_its_workers_on_a_signal_and_keeps_finished_chunks(tmp_path, name, status):
    import signal

    out = tmp_path / "r"
    argv = [sys.executable, "-m", "mscsp", "reproduce", "--quick", "--jobs", "2", "--only", "winrate",
            "--out", str(out)]
    # a shell without job control starts background commands with Ctrl-C ignored, and a
    # Python started so never sees it: the run gets the default, as from a terminal
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            workers = _children(proc.pid)
            if workers and any(out.rglob(".chunks/**/*.json")):  # working, and a chunk is done
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be signalled"
        proc.send_signal(getattr(signal, name))
        started = time.monotonic()
        _, err = proc.communicate(timeout=10)  # orphaned workers would hold the pipe open
        seconds = time.monotonic() - started
        orphans = [pid for pid in workers if os.path.exists(f"/proc/{pid}")]
    finally:  # whatever the outcome, nothing of the run outlives the test
        for pid in [proc.pid] * (proc.poll() is None) + [w for w in workers if os.path.exists(f"/proc/{w}")]:
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == status and seconds < 5, (seconds, err)
    how = "interrupted" if status == 130 else "terminated"
    assert err.strip().splitlines()[-1].startswith(f"mscsp reproduce: {how}; finished chunks are kept")
    assert "Traceback" not in err and "_Terminated" not in err
    assert workers and not orphans
    assert any(out.rglob(".chunks/**/*.json"))
    if name == "SIGINT":  # the finished chunks are taken up again
        done = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr


def test_a_byte_order_mark_before_the_header_is_accepted(capsys, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffmines: 1\n.1\n".encode())
    code, out, _ = run(capsys, "solve", "--json", path)
    assert code == 0 and json.loads(out)["mine"] == [[0, 0]]


def test_two_byte_order_marks_are_refused(capsys, tmp_path):
    for name, body in (("bom.txt", "mines: 1\n.1\n"), ("bom.cnf", CNF)):
        path = tmp_path / name
        path.write_bytes(("\ufeff\ufeff" + body).encode())
        refused(capsys, "from-cnf" if name.endswith(".cnf") else "solve", path,
                words=f"{name}:1:1: a second byte-order mark")


@pytest.mark.parametrize("argv", [["solve", "-"], ["count", "-"], ["play", "--preset", "beginner", "--no-save"]],
                         ids=["solve", "count", "play"])
def test_a_closed_standard_input_is_refused(capsys, monkeypatch, argv):
    monkeypatch.setattr("sys.stdin", None)  # what Python makes of `<&-`
    refused(capsys, *argv, words="standard input is closed")


def test_play_refuses_no_save_with_save(capsys, tmp_path):
    refused_by_parser(capsys, "play", "--preset", "beginner", "--no-save", "--save", tmp_path / "r.json",
                      words="not allowed with")
    assert not (tmp_path / "r.json").exists()


def test_a_file_name_with_a_line_break_keeps_messages_and_outputs_one_line(capsys, tmp_path):
    missing = tmp_path / "two\nlines.txt"
    refused(capsys, "solve", missing, words="lines.txt': No such file")
    refused(capsys, "from-cnf", "--map", tmp_path / "no\nfolder" / "m.json", tmp_path / "f.cnf",
            words="\\nfolder")
    board = tmp_path / "odd\nname.txt"
    board.write_text("mines: 1\n.1\n")
    code, out, _ = run(capsys, "consistent", board)
    assert code == 0 and out.splitlines()[0].endswith("odd\\nname.txt' (checked)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_that_no_one_writes_to_is_refused_and_one_that_is_written_is_read(capsys, tmp_path, monkeypatch):
    import threading

    monkeypatch.setattr("mscsp.formats.files.WAIT_SECONDS", 0.2)
    fifo = tmp_path / "in.txt"
    os.mkfifo(fifo)
    refused(capsys, "solve", fifo, words="in.txt: nothing to read after 0.2 s")
    monkeypatch.setattr("mscsp.formats.files.WAIT_SECONDS", 10.0)
    writer = threading.Thread(target=lambda: fifo.write_text("mines: 1\n.1\n"))
    writer.start()
    code, out, _ = run(capsys, "solve", "--json", fifo)
    writer.join()
    assert code == 0 and json.loads(out)["mine"] == [[0, 0]]


def test_size_limits_are_refused_at_once(capsys, tmp_path):
    refused(capsys, "generate", "--width", "100000", "--height", "100000", "--mines", "1",
            words=f"limit of {MAX_CELLS} cells")
    row = tmp_path / "row.txt"
    row.write_text("." * (MAX_CELLS + 1) + "\n")
    refused(capsys, "solve", row, words=f"limit of {MAX_CELLS} cells")
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    refused(capsys, "count", huge, words=f"limit of {MAX_FILE_BYTES} bytes")


LONG = "1" * 5000  # past the 4,300 digits int() converts


@pytest.mark.parametrize("command, name, content, words", [
    ("solve", "p.txt", f"mines: {LONG}\n.1\n", "p.txt:1:8: mines has 5000 digits"),
    ("solve", "p.txt", "mines: \u0663\n.1\n", "p.txt:1:8: mines must be a non-negative integer"),
    ("from-cnf", "f.cnf", f"p cnf {LONG} 1\n1 0\n", "f.cnf:1:7: the variable count has 5000 digits"),
    ("from-cnf", "f.cnf", f"p cnf 3 1\n1 -{LONG} 0\n", "f.cnf:2:3: a literal has 5000 digits"),
    ("from-cnf", "f.cnf", "p cnf \u00b2 1\n1 0\n", "f.cnf:1:7: the variable count must be a non-negative integer"),
    ("from-cnf", "f.cnf", "p cnf 3 1\n1 \u0663 0\n", "f.cnf:2:3: expected an integer literal"),
    ("replay", "r.json", '{"format": "mscsp-replay/1",\n "width": %s}' % LONG, "at line 2 column 11"),
], ids=["long-mines", "arabic-mines", "long-header", "long-literal", "superscript-header", "arabic-literal",
        "long-width"])
def test_numbers_past_int_or_in_other_scripts_are_refused_where_they_stand(capsys, tmp_path, command, name, content,
                                                                             words):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    refused(capsys, command, path, words=words)


@pytest.mark.parametrize("key", ["\u00b2", LONG], ids=["superscript", "long"])
def test_a_map_naming_a_variable_in_other_digits_is_refused(capsys, tmp_path, compiled, key):
    board, _ = compiled
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "mscsp-cnf-map/1", "variables": 3, "cells": {key: [0, 0]}}))
    refused(capsys, "consistent", "--decode", bad, board, words="'cells' names variable")


@pytest.mark.parametrize("argv, words", [
    (["generate", "--width", "\u00b2", "--height", "3", "--mines", "1"], "--width: the value must be"),
    (["generate", "--preset", "beginner", "--seed", LONG], "--seed: the value has 5000 digits"),
    (["generate", "--preset", "beginner", "--click", f"1,{LONG}"], "Y has 5000 digits"),
], ids=["superscript-width", "long-seed", "long-click"])
def test_numbers_on_the_command_line_are_ascii_and_bounded(capsys, argv, words):
    refused_by_parser(capsys, *argv, words=words)


@pytest.mark.parametrize("option, value, words", [
    ("--memory-limit", "inf", "expected from 1 to 1048576 megabytes"),
    ("--memory-limit", "1e400", "expected from 1 to 1048576 megabytes"),
    ("--memory-limit", "1e30", "expected from 1 to 1048576 megabytes"),
    ("--time-limit", "inf", "up to 604800 (a week)"),
    ("--time-limit", "1e400", "up to 604800 (a week)"),
    ("--time-limit", "nan", "up to 604800 (a week)"),
    ("--density", "1e-5000", "at most 30 digits"),
    ("--density", "1e-40", "at most 30 digits"),
    ("--density", "\u0660.2", "expected a density"),
])
def test_limits_that_would_not_bound_are_refused(capsys, option, value, words):
    refused_by_parser(capsys, "solve", option, value, POSITIONS / "one_two_one.txt", words=words)


def test_a_separator_given_as_an_option_s_value_is_refused(capsys):
    # argparse would hand the command an empty list for --time-limit=--
    refused_by_parser(capsys, "count", "--time-limit=--", "x.txt", words="--time-limit: expected a value, not '--'")


def test_a_density_with_a_huge_exponent_is_refused_without_building_it(tmp_path):
    # Fraction("1e-999999999") computes 10**999999999: a subprocess, so a regression is a timeout
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mscsp", "solve", "--density", "1e-999999999",
                           str(POSITIONS / "one_two_one.txt")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "at most 30 digits" in done.stderr and len(done.stderr.splitlines()) == 1
    assert time.perf_counter() - started < 30


@pytest.mark.parametrize("formula, words", [
    ("p cnf 3 5\n1 2 0\n", "f.cnf:1:9: the header says 5 clauses, but the file has 1"),
    ("p cnf 3 1\n1 2 0\n-1 0\n", "the header says 1 clauses, but the file has 2"),
    ("p cnf 3 1\n1 2\n", "f.cnf:2:4: the last clause does not end with 0"),
], ids=["fewer", "more", "no-closing-0"])
def test_dimacs_clause_counts_and_endings_are_checked(capsys, tmp_path, formula, words):
    path = tmp_path / "f.cnf"
    path.write_text(formula)
    refused(capsys, "from-cnf", path, words=words)


def test_a_satlib_ending_is_the_end_of_the_formula(capsys, tmp_path):
    # the SATLIB benchmarks end with a '%' line and a stray 0, which is no empty clause
    path = tmp_path / "uf.cnf"
    path.write_text(CNF + "%\n0\n\n")
    code, out, _ = run(capsys, "from-cnf", path)
    assert code == 0 and "3 variables, 4 clauses" in out


def test_consistent_honours_its_time_limit_on_a_compiled_board(capsys, tmp_path):
    # a 30-variable formula near the threshold: a board of about two million cells
    rng = random.Random(30)
    lines = ["p cnf 30 128"] + [" ".join(str(v * rng.choice((-1, 1))) for v in rng.sample(range(1, 31), 3)) + " 0"
                                for _ in range(128)]
    formula = tmp_path / "f.cnf"
    formula.write_text("\n".join(lines) + "\n")
    _, text, _ = run(capsys, "from-cnf", formula, limit=30)
    board = tmp_path / "b.txt"
    board.write_text(text)
    code, _, err = run(capsys, "consistent", "--time-limit", "0.05", board, limit=1.5)
    assert code == 3 and "time" in err and len(err.strip().splitlines()) == 1


# -- small clashes on compiled boards -----------------------------------------------------------
def _clash_is_real(board_text: str, clues: list[list[int]]) -> bool:
    """Whether the named clues alone hold no layout: a direct CNF of just those clues
    (one variable per covered cell, every k+1 of a clue's cells not all mines, every
    n-k+1 not all safe), decided by a SAT solver of its own."""
    from itertools import combinations

    from pysat.solvers import Solver

    rows = [r for r in board_text.splitlines() if r and not r.startswith("#")]
    var: dict[tuple[int, int], int] = {}
    clauses = []
    for x, y in clues:
        around = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy)
                  and 0 <= y + dy < len(rows) and 0 <= x + dx < len(rows[0]) and rows[y + dy][x + dx] == "."]
        lits = [var.setdefault(c, len(var) + 1) for c in around]
        k = int(rows[y][x])
        clauses += [[-v for v in group] for group in combinations(lits, k + 1)]
        clauses += [list(group) for group in combinations(lits, len(lits) - k + 1)]
    with Solver(bootstrap_with=clauses) as solver:
        return not solver.solve()


@pytest.mark.parametrize("where", ["together", "far apart"])
def test_a_local_clash_in_a_compiled_formula_gives_a_small_checked_core(capsys, tmp_path, where):
    rng = random.Random(5)
    body = [" ".join(str(v * rng.choice((-1, 1))) for v in rng.sample(range(1, 13), 3)) + " 0" for _ in range(30)]
    body = body + ["1 0", "-1 0"] if where == "together" else ["1 0"] + body + ["-1 0"]
    formula = tmp_path / "f.cnf"
    formula.write_text(f"p cnf 12 {len(body)}\n" + "\n".join(body) + "\n")
    _, text, _ = run(capsys, "from-cnf", formula)
    board = tmp_path / "b.txt"
    board.write_text(text)
    code, out, _ = run(capsys, "consistent", "--json", board, limit=20)
    record = json.loads(out)["contradiction"]
    clues_on_board = sum(ch.isdigit() for row in text.splitlines() if not row.startswith("#") for ch in row)
    assert code == 1 and record["minimal"]
    assert len(record["clues"]) < 0.05 * clues_on_board
    assert _clash_is_real(text, record["clues"])
    for drop in range(0, len(record["clues"]), max(1, len(record["clues"]) // 10)):  # and clues are needed
        assert not _clash_is_real(text, record["clues"][:drop] + record["clues"][drop + 1:])


# -- fuzzing each file-reading subcommand -------------------------------------------------------
def _mutations():
    """Mutated, truncated, oversized and wrong-typed versions of a valid file: besides
    random edits, numbers past int()'s 4,300 digits or in other scripts' digits,
    byte-order marks, and a token dropped (a clause's closing 0)."""
    def mutate(text: str, draw) -> str:
        kind = draw(st.sampled_from(["flip", "cut", "insert", "repeat", "swap-lines", "json", "number", "bom",
                                     "drop-token"]))
        data = list(text)
        digits = [i for i, ch in enumerate(data) if ch.isdigit()]
        if kind == "number" and digits:
            at = draw(st.sampled_from(digits))
            data[at] = draw(st.sampled_from(["1" * 4301, "9" * 5000, "\u00b2", "\u0663", "\uff11", "1e400", "-0"]))
        elif kind == "bom":
            data = ["\ufeff"] * draw(st.integers(1, 3)) + data
        elif kind == "drop-token":
            tokens = re.split(r"(\s+)", text)
            if len(tokens) > 1:
                del tokens[draw(st.integers(0, len(tokens) - 1))]
            data = list("".join(tokens))
        elif kind == "flip" and data:
            for _ in range(draw(st.integers(1, 5))):
                data[draw(st.integers(0, len(data) - 1))] = draw(st.characters(codec="utf-8"))
        elif kind == "cut":
            data = data[: draw(st.integers(0, len(data)))]
        elif kind == "insert":
            at = draw(st.integers(0, len(data)))
            data[at:at] = list(draw(st.text(max_size=20)))
        elif kind == "repeat":
            data = data * draw(st.integers(2, 50))
        elif kind == "swap-lines":
            lines = "".join(data).split("\n")
            draw(st.randoms()).shuffle(lines)
            data = list("\n".join(lines))
        else:
            value = draw(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                                      lambda inner: st.lists(inner, max_size=4)
                                      | st.dictionaries(st.sampled_from(["format", "width", "height", "mines",
                                                                          "actions", "layout", "cells", "variables",
                                                                          "click", "seed", "rule"]), inner,
                                                        max_size=6), max_leaves=12))
            data = list(json.dumps(value))
        return "".join(data)

    return mutate


def _valid_inputs() -> dict[str, tuple[str, list[str]]]:
    """A valid file for each file-reading subcommand, and its arguments (FILE where it goes)."""
    from mscsp.board import Spec
    from mscsp.game import Game
    from mscsp.position import format_position
    from mscsp.rules import generate

    board = generate(Spec(8, 8, 10), "opening", (4, 4), 3)
    game = Game.from_board(board)
    game.reveal(board.click)
    compiled = compile_cnf(parse_dimacs(CNF))
    return {
        "solve": ((POSITIONS / "one_two_one.txt").read_text(), ["solve", "--json", "FILE"]),
        "count": ((POSITIONS / "global_count.txt").read_text(), ["count", "FILE"]),
        "verify": ("\n".join(board.layout.rows()) + "\n", ["verify", "FILE", "--click", "4,4"]),
        "consistent": (format_position(game.position()), ["consistent", "FILE"]),
        "from-cnf": (CNF, ["from-cnf", "FILE"]),
        "replay": (game.replay().to_json(), ["replay", "FILE"]),
        "decode": (compiled.map_json(), ["consistent", "--decode", "FILE", "BOARD"]),
    }


VALID = _valid_inputs()
#: Examples per fuzzed subcommand (MSCSP_FUZZ, 40 by default: the suite stays fast).
FUZZ = settings(max_examples=int(os.environ.get("MSCSP_FUZZ", "40")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("command", sorted(VALID))
@FUZZ
@given(data=st.data())
def test_a_mutated_file_never_ends_in_a_traceback(capsys, command, data):
    text, argv = VALID[command]
    mutated = _mutations()(text, data.draw)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input"
        path.write_text(mutated, encoding="utf-8", errors="surrogatepass")
        board = Path(folder) / "board.txt"
        from mscsp.position import format_position

        board.write_text(format_position(compile_cnf(parse_dimacs(CNF)).position))
        args = [str(path) if a == "FILE" else str(board) if a == "BOARD" else a for a in argv]
        code, out, err = run(capsys, *args, limit=10.0)
    assert code in (0, 1, 2, 3), (code, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err


#: Each subcommand's numeric options, and the positional arguments it needs to parse.
NUMERIC_OPTIONS = {
    "solve": (["--time-limit", "--memory-limit", "--density"], ["x.txt"]),
    "count": (["--time-limit", "--memory-limit"], ["x.txt"]),
    "verify": (["--time-limit", "--memory-limit", "--click"], ["x.txt"]),
    "consistent": (["--time-limit", "--memory-limit"], ["x.txt"]),
    "generate": (["--width", "--height", "--mines", "--seed", "--click", "--max-attempts", "--time-limit",
                  "--memory-limit"], []),
    "play": (["--width", "--height", "--mines", "--seed"], []),
    "reproduce": (["--jobs", "--seed"], []),
    "serve": (["--port"], []),
}
HOSTILE_NUMBERS = (st.sampled_from(["inf", "-inf", "nan", "1e400", "1e-400", "1e30", "1e-999999999", "1e-5000", "0",
                                    "-1", "\u00b2", "\u0663", "1" * 5000, "1," + "1" * 5000, "1/0", "1/3", "0x10",
                                    "1_000", " 1", "", "3,\u00b2", "--"])
                   | st.text(alphabet="0123456789eE+-./_, \u00b2\u0663", max_size=14) | st.floats().map(repr))


@pytest.mark.parametrize("command", sorted(NUMERIC_OPTIONS))
@FUZZ
@given(data=st.data())
def test_hostile_numbers_in_options_are_refused_in_one_line_or_bounded(capsys, command, data):
    from mscsp.cli import MAX_MEGABYTES, MAX_SECONDS, build_parser

    options, positional = NUMERIC_OPTIONS[command]
    option = data.draw(st.sampled_from(options))
    value = data.draw(HOSTILE_NUMBERS)
    started = time.perf_counter()
    try:
        args = build_parser().parse_args([command, f"{option}={value}", *positional])
    except SystemExit as exit_:
        err = capsys.readouterr().err
        assert exit_.code == 2 and len(err.strip().splitlines()) == 1, err
    else:
        assert getattr(args, "time_limit", 1) <= MAX_SECONDS and getattr(args, "memory_limit", 1) <= MAX_MEGABYTES << 20
        density = getattr(args, "density", None)
        assert density is None or len(str(density)) < 100
    assert time.perf_counter() - started < 1.0


def test_play_reads_hostile_commands_as_bad_commands(capsys, monkeypatch):
    import io

    lines = ["1" * 5000 + " 1", "\u00b2 1", "r \u0663 1", "f 1,", "c -1 -1", "\ufeff1 1", "1e400 1", "q"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run(capsys, "play", "--preset", "beginner", "--seed", "1", "--no-save")
    assert code == 0 and out.count("\n? ") == len(lines) - 1 and out.endswith("Game left unfinished.\n")


def test_the_expert_lattice_gets_its_certain_cells_and_labelled_numbers_in_ten_seconds(capsys):
    # a lattice of clues over a whole Expert board, a covered cell between every two:
    # one component of 337 groups, which once ran out of memory at 8 GB
    code, out, _ = run(capsys, "solve", "--json", "--time-limit", "10", POSITIONS / "lattice_expert.txt", limit=11)
    record = json.loads(out)
    assert code == 0 and record["safe"] and record["complete"]
    covered = sum(row.count(".") for row in (POSITIONS / "lattice_expert.txt").read_text().splitlines()
                  if row and not row.startswith(("#", "mines")))
    numbers = sum(p is not None for row in record["probability"] for p in row)
    if record["exact"]:  # counted: every covered cell has its exact number
        assert record["layouts"] and numbers == covered and "interval" not in record
    else:  # estimated or not weighed: labelled, and the reason given
        assert record["estimate"]["reason"] and record["layouts"] is None


@pytest.mark.skipif(__import__("mscsp.budget", fromlist=["resident_bytes"]).resident_bytes() is None,
                    reason="this system does not report a process's resident memory")
def test_consistent_says_when_its_memory_budget_runs_out(capsys, compiled):
    board, _ = compiled
    code, _, err = run(capsys, "consistent", "--memory-limit", "1", board)
    assert code == 3 and "memory budget" in err and len(err.strip().splitlines()) == 1
    code, _, _ = run(capsys, "consistent", board)  # the default leaves room for it
    assert code == 0


@pytest.mark.skipif(__import__("mscsp.budget", fromlist=["resident_bytes"]).resident_bytes() is None,
                    reason="this system does not report a process's resident memory")
def test_verify_and_no_guess_generation_say_when_their_memory_budget_runs_out(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "--preset", "expert", "--seed", "5", "--click", "15,8", "--rule", "opening")
    layout = tmp_path / "board.txt"
    layout.write_text(out)
    for argv in (["verify", layout, "--click", "15,8"], ["generate", "--preset", "expert", "--no-guess", "--seed", "2"]):
        code, _, err = run(capsys, *argv, "--memory-limit", "1")
        assert code == 3 and "memory budget" in err and len(err.strip().splitlines()) == 1, err
