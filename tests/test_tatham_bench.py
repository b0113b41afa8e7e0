"""The pieces of benchmarks/noguess.py that read Simon Tatham's Mines: its game
descriptions (plain and masked mine bitmaps), its saved games, the check of the
program given with --tatham, and the summary rows experiments/speed.py makes of it.
The test that runs the program is skipped where it is not installed."""

import hashlib
import importlib.util
import os
import shutil
import sys

import numpy as np
import pytest
from conftest import REPO, benchmark

from mscsp.board import Geometry, Layout
from mscsp.play.verify import verify

noguess = benchmark("noguess")


def _program() -> str | None:
    """The Mines program: $MSCSP_TATHAM, else sgt-mines or mines on PATH or in /usr/games."""
    found = os.environ.get("MSCSP_TATHAM") or shutil.which("sgt-mines") or shutil.which("mines")
    if not found and os.access("/usr/games/sgt-mines", os.X_OK):
        found = "/usr/games/sgt-mines"
    return found


def _cells(mines: np.ndarray, width: int) -> set[tuple[int, int]]:
    return {(int(i) % width, int(i) // width) for i in np.flatnonzero(mines)}


def test_a_plain_description_is_one_bit_a_cell_in_reading_order():
    # 4x3, mines at (0,0), (3,0), (1,2): rows 1001 0000 0100, so the hex digits 9, 0, 4
    click, mines = noguess.decode_desc("3,1,u904", 4, 3)
    assert click == (3, 1)
    assert len(mines) == 12 and _cells(mines, 4) == {(0, 0), (3, 0), (1, 2)}


def test_a_masked_description_is_unmasked_half_by_half():
    # 4x4: two bytes, one a half. Masking XORs the first with the first byte of
    # SHA-1(second + "0"), then the second with that of SHA-1(new first + "0").
    first, second = 0b10000000, 0b00000001  # mines at (0,0) and (3,3)
    first_masked = first ^ hashlib.sha1(bytes([second]) + b"0").digest()[0]
    second_masked = second ^ hashlib.sha1(bytes([first_masked]) + b"0").digest()[0]
    desc = f"0,3,m{first_masked:02x}{second_masked:02x}"
    click, mines = noguess.decode_desc(desc, 4, 4)
    assert click == (0, 3) and _cells(mines, 4) == {(0, 0), (3, 3)}


@pytest.mark.parametrize("bits", [1, 8, 12, 81, 480, 10000])
def test_masking_and_unmasking_undo_each_other(bits):
    rng = np.random.default_rng(bits)
    plain = bytearray(rng.integers(0, 256, (bits + 7) // 8, dtype=np.uint8).tobytes())
    if bits % 8:
        plain[-1] &= (0xFF00 >> (bits % 8)) & 0xFF
    data = bytearray(plain)
    noguess._mask(data, bits, decode=False)
    assert len(data) == len(plain) and (bits < 16 or data != plain)
    noguess._mask(data, bits, decode=True)
    assert data == plain


def test_a_description_of_his_generator_decodes_to_a_no_guess_board():
    # 9x9 with 10 mines from Mines release 20230122 (seed x.1). A wrong unmasking
    # would give about half the 81 cells as mines: exactly 10, none beside the
    # click, and a board that mscsp finishes without a guess say it is read right.
    click, mines = noguess.decode_desc("6,2,m56872bf8047950f399058", 9, 9)
    assert click == (6, 2) and mines.sum() == 10
    g = Geometry(9, 9)
    assert not mines[list(g.closed_neighbourhood(g.index(*click)))].any()
    assert _cells(mines, 9) == {(1, 0), (2, 0), (0, 3), (6, 4), (0, 5), (3, 5), (5, 6), (8, 6), (0, 7), (3, 7)}
    assert verify(Layout(g, mines), click, "sat", use_total=True).solved


@pytest.mark.parametrize("desc", ["6,2,m56872bf8047950f39905", "6,2,x56872bf8047950f399058",
                                  "9,2,m56872bf8047950f399058", "r10,u,abcd", ""])
def test_a_description_that_does_not_fit_the_board_is_refused(desc):
    with pytest.raises(ValueError):
        noguess.decode_desc(desc, 9, 9)


def test_the_description_is_read_from_a_saved_game():
    saved = ("SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nGAME    :5:Mines\n"
             "CPARAMS :6:9x9n10\nDESC    :26:6,2,m56872bf8047950f399058\nUI      :2:D0\n")
    assert noguess.saved_desc(saved) == "6,2,m56872bf8047950f399058"
    with pytest.raises(ValueError, match="DESC"):
        noguess.saved_desc("GAME    :5:Mines\n")


def test_a_wrong_program_is_refused_in_one_line(tmp_path):
    for path, says in ((tmp_path / "absent", "no such program"), (tmp_path, "no mines"),
                       (sys.executable, "not the Mines program")):
        with pytest.raises(ValueError, match=says) as error:
            noguess.tatham_mines(path)
        assert "\n" not in str(error.value) and str(path) in str(error.value)


def test_the_summary_sets_perturbation_beside_tatham():
    spec = importlib.util.spec_from_file_location("speed", REPO / "experiments" / "speed.py")
    speed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(speed)
    made = speed.generation_rows({"rows": [
        {"row": "30x16/99", "generator": "mscsp perturb", "boards": 4, "made": 4, "bad": 0, "median_s": 0.002,
         "budget_s": 60},
        {"row": "30x16/99", "generator": "ms laymine_solvable", "boards": 4, "made": 4, "bad": 0, "median_s": 0.008,
         "budget_s": 60},
        {"row": "30x16/99", "generator": "Tatham mines", "boards": 4, "made": 3, "bad": 0, "median_s": 0.004,
         "budget_s": 30}]})
    assert [(r["stage"], r["peer"], r["peer_ms"], r["ratio"], r["peer_wins"], r["limit_ms"]) for r in made] == [
        ("perturb", "ms_toollib", 8.0, 0.25, 4, 60000), ("perturb vs Tatham", "Tatham", 4.0, 0.5, 3, 30000)]


@pytest.mark.skipif(_program() is None, reason="Simon Tatham's Mines is not installed (Debian: sgt-puzzles)")
def test_his_boards_are_read_back_and_verified():
    found = noguess.tatham_mines(_program())
    assert found["version"]
    row = noguess.Row.parse("9x9/10")
    for i in range(2):
        outcome = noguess._tatham_generate(found["path"], row, f"test.{i}", 30.0)
        assert outcome.ok and outcome.seconds >= 0
        checked = noguess._check(row, outcome, noguess.TATHAM) if _has_ms_toollib() else None
        assert checked is None or not checked.problems
        layout = Layout(Geometry(9, 9), outcome.mines)
        assert layout.mine_count == 10 and verify(layout, outcome.click, "sat", use_total=True).solved


def _has_ms_toollib() -> bool:
    return importlib.util.find_spec("ms_toollib") is not None
