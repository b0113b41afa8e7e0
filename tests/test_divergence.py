"""``benchmarks/divergence.py`` on a hand-made games table, against hand-counted answers,
and its replay against the closed form of the classic Expert start."""

from __future__ import annotations

import gzip
import math
from fractions import Fraction

import pytest

from conftest import benchmark

div = benchmark("divergence")

# start, board, mscsp_won, java_won, mscsp_guesses, java_guesses; the comment says where
# the sequences first differ (from 0) and who alone won, counted by hand
ROWS = [
    ("expert-classic", 0, 1, 0, "29,0;5,5", "0,15;29,0"),  # 0, mscsp only
    ("expert-classic", 1, 0, 1, "29,0", "0,15;29,0;4,4"),  # 0, Hill only
    ("expert-classic", 2, 0, 1, "29,0;1,1", "0,15"),  # 0, Hill only
    ("expert-classic", 3, 1, 0, "3,2;7,7", "0,3"),  # 0, mscsp only
    ("expert-classic", 4, 1, 0, "29,0;1,3", "29,0;3,1;9,9"),  # 1, mscsp only
    ("expert-classic", 5, 0, 1, "1,1;2,2;3,3", "1,1;2,2;4,4"),  # 2, Hill only
    ("expert-classic", 6, 0, 1, "1,1;2,2;3,3;4,4;5,5", "1,1;2,2;3,3;4,4;6,6"),  # 4: 3+, Hill only
    ("expert-classic", 7, 1, 1, "29,0", "0,15"),  # both won: not counted
    ("expert-classic", 8, 0, 0, "29,0", "0,15"),  # 0, both lost
    ("expert-classic", 9, 1, 0, "-", "0,3"),  # a prefix: same guesses, mscsp only
    ("expert-classic", 10, 0, 0, "1,1;2,2", "1,1;2,2"),  # same guesses, both lost
    ("expert-classic", 11, 0, 1, "1,1;2,2;3,3;4,4", "1,1;2,2;3,3;5,5"),  # 3: 3+, Hill only
    ("expert-modern", 0, 1, 0, "1,1;2,2;3,3;4,4", "1,1;2,2;3,3;5,5"),  # 3: 3+, mscsp only
    ("expert-modern", 1, 1, 1, "-", "-"),  # both won
]
HEADER = "start,board,mscsp_won,java_won,mscsp_guesses,java_guesses"


def write(path, rows, header=HEADER):
    lines = [header] + [f'{s},{b},{m},{j},"{mg}","{jg}"' for s, b, m, j, mg, jg in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def games(tmp_path):
    return write(tmp_path / "games.csv", ROWS)


def test_first_difference_by_hand():
    assert div.first_difference("29,0;5,5", "0,15;29,0") == 0
    assert div.first_difference("1,1;2,2;3,3", "1,1;2,2;4,4") == 2
    assert div.first_difference("-", "0,3") is None
    assert div.first_difference("1,1;2,2", "1,1;2,2") is None
    assert div.first_difference("1,1;2,2", "1,1") is None


def test_distribution_by_hand(games):
    table = div.distribution(div.classify(div.read_games(games)))
    got = {(r.start, r[1]): tuple(r)[2:] for r in table.itertuples(index=False)}
    # columns: boards, 0, 1, 2, 3+, same guesses
    assert got == {
        ("expert-modern", "Hill only"): (0, "0", "0", "0", "0", "0"),
        ("expert-modern", "mscsp only"): (1, "0 (0.0%)", "0 (0.0%)", "0 (0.0%)", "1 (100.0%)", "0 (0.0%)"),
        ("expert-modern", "both lost"): (0, "0", "0", "0", "0", "0"),
        ("expert-classic", "Hill only"): (5, "2 (40.0%)", "0 (0.0%)", "1 (20.0%)", "2 (40.0%)", "0 (0.0%)"),
        ("expert-classic", "mscsp only"): (4, "2 (50.0%)", "1 (25.0%)", "0 (0.0%)", "0 (0.0%)", "1 (25.0%)"),
        ("expert-classic", "both lost"): (2, "1 (50.0%)", "0 (0.0%)", "0 (0.0%)", "0 (0.0%)", "1 (50.0%)"),
    }


def test_net_by_index_by_hand(games):
    table = div.net_by_index(div.classify(div.read_games(games)))
    got = {(r.start, r.index): (r[2], r[3], r[4]) for r in table.itertuples(index=False)}
    # (Hill only, mscsp only, Hill only minus mscsp only)
    assert got == {
        ("expert-classic", "0"): (2, 2, 0),
        ("expert-classic", "1"): (0, 1, -1),
        ("expert-classic", "2"): (1, 0, 1),
        ("expert-classic", "3+"): (2, 0, 2),
        ("expert-classic", "same guesses"): (0, 1, -1),
        ("expert-classic", "all"): (5, 4, 1),
        ("expert-modern", "0"): (0, 0, 0),
        ("expert-modern", "1"): (0, 0, 0),
        ("expert-modern", "2"): (0, 0, 0),
        ("expert-modern", "3+"): (0, 1, -1),
        ("expert-modern", "same guesses"): (0, 0, 0),
        ("expert-modern", "all"): (0, 1, -1),
    }


def test_cell_pairs_by_hand(games):
    d = div.classify(div.read_games(games))
    first = div.top_pairs(d, "expert-classic", 0)
    # (mscsp cell, Hill cell, boards, Hill only, mscsp only, net); the both-lost board 8 left out
    assert [tuple(r) for r in first.itertuples(index=False)] == [
        ("29,0", "0,15", 3, 2, 1, 1),
        ("3,2", "0,3", 1, 0, 1, -1),
    ]


def test_main_prints_the_tables(games, capsys):
    assert div.main([str(games)]) == 0
    out = capsys.readouterr().out
    assert "| expert-classic | 3+ | 2 | 0 | 2 |" in out
    assert "| expert-classic | Hill only | 5 | 2 (40.0%) |" in out
    # boards 5 and after: Hill only at 2, 3+, 3+; mscsp only the same guesses (board 9)
    assert div.main([str(games), "--from-board", "5", "--starts", "expert-classic"]) == 0
    out = capsys.readouterr().out
    assert "| expert-classic | all | 3 | 1 | 2 |" in out and "expert-modern" not in out


@pytest.mark.parametrize("content, message", [
    (None, "no games table"),
    ("start,board\nexpert-classic,0\n", "lacks the column(s) mscsp_won"),
    (HEADER + '\nexpert-classic,0,2,0,"-","-"\n', "row 2: mscsp_won is '2'"),
    (HEADER + '\nexpert-classic,0,1,0,"-","3;4"\n', "row 2: java_guesses is '3;4'"),
    (b"\x1f\x8b\x08\x00garbage", "not a readable CSV table"),
])
def test_bad_file_exits_2(tmp_path, capsys, content, message):
    path = tmp_path / "games.csv.gz"
    if isinstance(content, str):
        path.write_bytes(gzip.compress(content.encode()))
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit) as exit:
        div.main([str(path)])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def corner_number(board: int) -> int:
    """The number the safe corner (0, 0) of classic Expert board ``board`` shows, from
    the hidden layout."""
    h2h = div._headtohead()
    mines = h2h.deal(h2h.BY_NAME["expert-classic"], 1, board).layout.mines.reshape(16, 30)
    return int(mines[0, 1] + mines[1, 0] + mines[1, 1])


def test_replay_against_the_closed_form_of_the_corner():
    # board 2 of the classic start: the corner shows n > 0 and opens nothing more, so
    # the layouts are C(3, n) C(476, 99 - n), its three neighbours hold a mine with
    # probability n/3 and every other covered cell (99 - n)/476
    n = corner_number(2)
    assert n > 0
    row = div.replay_at("expert-classic", 2, 0, "29,0", "0,15")
    assert row["reproduced"] and row["open"] == 1 and row["covered"] == 479
    assert row["layouts"] == math.comb(3, n) * math.comb(476, 99 - n)
    assert row["p mscsp"] == row["p Hill"] == Fraction(99 - n, 476)
    assert row["Hill is"] == "as safe" and row["same kind"]
    assert not row["mscsp frontier"] and not row["Hill frontier"]
    row = div.replay_at("expert-classic", 2, 0, "29,0", "1,1")
    assert row["p Hill"] == Fraction(n, 3) and row["Hill frontier"] and not row["same kind"]
    assert row["Hill is"] == ("less safe" if Fraction(n, 3) > Fraction(99 - n, 476) else "safer")


def test_replay_summary_through_main(tmp_path, capsys):
    boards = [b for b in range(3, 40) if corner_number(b) > 0][:2]
    rows = [("expert-classic", boards[0], 0, 1, "29,0", "0,15"),  # Hill only, a cell as safe
            ("expert-classic", boards[1], 1, 0, "29,0", "1,1")]  # mscsp only, Hill's cell n/3 > (99-n)/476
    path = write(tmp_path / "games.csv", rows)
    cases = tmp_path / "cases.csv"
    assert div.main([str(path), "--replay", "1", "--seed", "0", "--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    assert "| expert-classic | Hill only | 1 | 1 | 0 |" in out  # boards, as safe, less safe
    assert "| expert-classic | mscsp only | 1 | 0 | 1 |" in out
    # net by situation: (Hill only, mscsp only, Hill only minus mscsp only)
    assert "| expert-classic | both off, one kind (a tie) | 1 | 0 | 1 |" in out
    assert "| expert-classic | mscsp off, Hill on; Hill less safe | 0 | 1 | -1 |" in out
    assert cases.read_text().count("\n") == 3
