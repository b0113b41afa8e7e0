"""``benchmarks/divergence.py`` on a hand-made games table, against hand-counted answers."""

from __future__ import annotations

import math

import pytest

from conftest import benchmark

div = benchmark("divergence")

# start, board, mscsp_won, java_won, mscsp_guesses, java_guesses; the comment says where
# the sequences first differ, counted by hand
ROWS = [
    ("expert-classic", 0, 1, 0, "29,0;5,5", "0,15;29,0"),  # 1st, mscsp only
    ("expert-classic", 1, 0, 1, "29,0", "0,15;29,0;4,4"),  # 1st, Hill only
    ("expert-classic", 2, 0, 1, "29,0;1,1", "0,15"),  # 1st, Hill only
    ("expert-classic", 3, 1, 0, "3,2;7,7", "0,3"),  # 1st, mscsp only
    ("expert-classic", 4, 1, 0, "29,0;1,3", "29,0;3,1;9,9"),  # 2nd, mscsp only
    ("expert-classic", 5, 0, 1, "1,1;2,2;3,3", "1,1;2,2;4,4"),  # 3rd, Hill only
    ("expert-classic", 6, 0, 1, "1,1;2,2;3,3;4,4;5,5", "1,1;2,2;3,3;4,4;6,6"),  # 5th: 4+, Hill only
    ("expert-classic", 7, 1, 1, "29,0", "0,15"),  # both won: not counted
    ("expert-classic", 8, 0, 0, "29,0", "0,15"),  # both lost: not counted
    ("expert-classic", 9, 1, 0, "-", "0,3"),  # a prefix: same guesses, mscsp only
    ("expert-modern", 0, 1, 0, "1,1;2,2;3,3;4,4", "1,1;2,2;3,3;5,5"),  # 4th: 4+, mscsp only
    ("expert-modern", 1, 1, 1, "-", "-"),  # both won
]


@pytest.fixture
def games(tmp_path):
    path = tmp_path / "games.csv"
    lines = ["start,board,mscsp_won,java_won,mscsp_guesses,java_guesses"]
    lines += [f'{s},{b},{m},{j},"{mg}","{jg}"' for s, b, m, j, mg, jg in ROWS]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_first_difference_by_hand():
    assert div.first_difference("29,0;5,5", "0,15;29,0") == 0
    assert div.first_difference("1,1;2,2;3,3", "1,1;2,2;4,4") == 2
    assert div.first_difference("-", "0,3") is None
    assert div.first_difference("1,1;2,2", "1,1;2,2") is None


def test_stage_table_by_hand(games):
    table = div.by_stage(div.discordant(div.read_games(games)))
    got = {(r.start, r[1]): (r[2], r[3], r[4]) for r in table.itertuples(index=False)}
    assert got == {
        ("expert-classic", "1st"): (2, 2, 0),
        ("expert-classic", "2nd"): (1, 0, 1),
        ("expert-classic", "3rd"): (0, 1, -1),
        ("expert-classic", "4+"): (0, 1, -1),
        ("expert-classic", "same guesses"): (1, 0, 1),
        ("expert-classic", "all"): (4, 4, 0),
        ("expert-modern", "1st"): (0, 0, 0),
        ("expert-modern", "2nd"): (0, 0, 0),
        ("expert-modern", "3rd"): (0, 0, 0),
        ("expert-modern", "4+"): (1, 0, 1),
        ("expert-modern", "same guesses"): (0, 0, 0),
        ("expert-modern", "all"): (1, 0, 1),
    }


def test_cell_pairs_by_hand(games):
    d = div.discordant(div.read_games(games))
    first = div.top_pairs(d, "expert-classic", 0)
    assert [tuple(r) for r in first.itertuples(index=False)] == [
        ("29,0", "0,15", 3, 1, 2, -1),
        ("3,2", "0,3", 1, 1, 0, 1),
    ]
    second = div.top_pairs(d, "expert-classic", 1)
    assert [tuple(r) for r in second.itertuples(index=False)] == [("1,3", "3,1", 1, 1, 0, 1)]


def test_stage_at_the_first_guess_of_the_classic_start():
    # board 2 of the classic start (seed 1): the safe corner (0, 0) shows a number and
    # opens nothing more, so before guess 0 one cell is open, no mine is known, and the
    # layouts are those of its three neighbours times those of the other 476 cells
    h2h = div._headtohead()
    board = h2h.deal(h2h.BY_NAME["expert-classic"], 1, 2)
    mines = board.layout.mines.reshape(16, 30)
    n = int(mines[0, 1] + mines[1, 0] + mines[1, 1])
    assert n > 0
    row = div.stage_at("expert-classic", 2, 0, "29,0")
    assert row["replayed"] and row["open"] == 1 and row["mines left"] == 99
    assert row["log10 layouts"] == pytest.approx(math.log10(math.comb(3, n) * math.comb(476, 99 - n)))


def test_main_prints_the_tables(games, capsys):
    assert div.main(["--games", str(games), "--sample", "0"]) == 0
    out = capsys.readouterr().out
    assert "| expert-classic | 1st | 2 | 2 | 0 |" in out
    assert "| 29,0 | 0,15 | 3 | 1 | 2 | -1 |" in out


def test_bad_input_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        div.main(["--games", str(tmp_path / "missing.csv.gz")])
    assert exit.value.code == 2
    assert "no games table" in capsys.readouterr().err
