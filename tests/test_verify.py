import pytest

from mscsp.board import Layout, Spec
from mscsp.errors import InputError
from mscsp.rules import generate
from mscsp.verify import verify


def test_a_fifty_fifty_is_not_solved():
    # two covered cells, one mine, nothing to tell them apart
    layout = Layout.from_rows(["*.", "..", ".."])
    layout2 = Layout.from_rows([".*", "..", ".."])
    for lay in (layout, layout2):
        r = verify(lay, 4)
        assert not r.solved and r.opened == 4 and r.safe_cells == 5


def test_the_total_opens_a_region_no_clue_touches():
    # holes wall off the right half; the 1s hold the only mine, so with the total the
    # right half is safe; the left pair stays a fifty-fifty either way
    layout = Layout.from_rows(["*..-..", "...-.."])
    with_total = verify(layout, 8, "sat")
    without = verify(layout, 8, "sat", use_total=False)
    assert (without.opened, with_total.opened) == (4, 8)
    assert not with_total.solved and not without.solved
    assert verify(layout, 8, "subset").opened == 8  # the simple global rule sees it too
    assert verify(layout, 8, "single-point").opened == 4


def test_single_point_is_weaker_than_sat_on_expert():
    solved = {s: 0 for s in ("single-point", "subset", "sat")}
    for seed in range(12):
        board = generate(Spec.preset("intermediate"), "opening", (8, 8), seed)
        for s in solved:
            solved[s] += verify(board.layout, board.click, s).solved
    assert solved["single-point"] <= solved["subset"] <= solved["sat"]
    assert solved["sat"] > 0


def test_first_click_on_a_mine_is_not_solved():
    r = verify(Layout.from_rows(["*."]), 0)
    assert not r.solved and r.opened == 0


def test_click_must_be_a_cell():
    with pytest.raises(InputError):
        verify(Layout.from_rows(["*."]), 5)
