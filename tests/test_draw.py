"""The pictures of mscsp.draw show what is true of the board, read back from the SVG.

Every SVG is parsed with ElementTree (so it is well-formed) and its marks are set
against facts found without the drawing code: the rows of the text format, a
brute-force enumeration of the layouts (tests/oracles.py), the true layout of a
generated board, the cell that was clicked.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import mscsp
from mscsp import draw
from mscsp.board import Layout, Spec
from mscsp.game import Game
from mscsp.position import parse_position
from mscsp.rules import generate

from conftest import REPO
from oracles import brute_force, brute_numbers
from strategies import small_positions

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def marks(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """Elements of ``tag`` whose class list holds ``cls``."""
    return [e for e in root.iter(SVG + tag) if cls in e.get("class", "").split()]


def where(elements) -> list[tuple[int, int]]:
    return sorted((int(e.get("data-x")), int(e.get("data-y"))) for e in elements)


def labels(root: ET.Element, cls: str) -> dict[tuple[int, int], str]:
    return {(int(e.get("data-x")), int(e.get("data-y"))): e.text for e in marks(root, "text", cls)}


def rows_of(position) -> list[str]:
    """The grid in the text format's characters (the file the position came from)."""
    return mscsp.format_position(position).splitlines()[position.mines is not None:]


def cells_of(rows: list[str], chars: str) -> list[tuple[int, int]]:
    return sorted((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in chars)


def exploded_game(seed: int):
    board = generate(Spec(9, 9, 10), "opening", (4, 4), seed=seed)
    game = Game.from_board(board)
    game.reveal(board.click)
    rows = board.layout.rows()
    mine = next((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*")
    game.reveal(mine)
    return game, mine, rows


# -- positions ---------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_covered=8))
def test_a_position_is_drawn_cell_for_cell(position):
    rows = rows_of(position)
    root = parse(draw.position_svg(position))
    cells = marks(root, "rect", "cell")
    width, height = len(rows[0]), len(rows)
    assert len(cells) == width * height
    assert where(cells) == sorted((x, y) for y in range(height) for x in range(width))
    assert where(marks(root, "rect", "hole")) == cells_of(rows, "-")
    assert where(marks(root, "g", "flag")) == where(marks(root, "rect", "flag")) == cells_of(rows, "F")
    assert where(marks(root, "rect", "covered")) == cells_of(rows, ".")
    # the numbers shown are exactly the file's digits other than 0, each in its own cell
    shown = labels(root, "number")
    assert shown == {(x, y): rows[y][x] for x, y in cells_of(rows, "12345678")}
    for x, y in cells_of(rows, "12345678"):
        (text,) = [t for t in marks(root, "text", "number") if (t.get("data-x"), t.get("data-y")) == (str(x), str(y))]
        (rect,) = [r for r in cells if (r.get("data-x"), r.get("data-y")) == (str(x), str(y))]
        left, top, size = float(rect.get("x")), float(rect.get("y")), float(rect.get("width"))
        # the text (in the same translated group as the cells) stands inside its cell
        assert left < float(text.get("x")) < left + size and top < float(text.get("y")) < top + size
        assert text.get("fill") == draw.NUMBER_COLOURS[int(rows[y][x])]


def test_cells_are_laid_out_by_column_and_row():
    position = parse_position("1..\n...\n")
    cells = {(int(r.get("data-x")), int(r.get("data-y"))): (float(r.get("x")), float(r.get("y")))
             for r in marks(parse(draw.position_svg(position, cell_size=10)), "rect", "cell")}
    assert cells[(2, 0)][0] - cells[(0, 0)][0] == 20 and cells[(2, 0)][1] == cells[(0, 0)][1]
    assert cells[(0, 1)][1] - cells[(0, 0)][1] == 10 and cells[(0, 1)][0] == cells[(0, 0)][0]


def test_options_coordinates_highlight_and_size():
    position = parse_position("1..\n...\n")
    with_coords = parse(draw.position_svg(position))
    assert sorted(e.text for e in marks(with_coords, "text", "coord")) == sorted("012" + "01")
    bare = parse(draw.position_svg(position, coordinates=False, highlight=[(2, 1), np.array([0, 1])], cell_size=40))
    assert marks(bare, "text", "coord") == []
    assert where(marks(bare, "rect", "highlight")) == [(0, 1), (2, 1)]
    assert {float(r.get("width")) for r in marks(bare, "rect", "cell")} == {40.0}


@pytest.mark.parametrize("bad", [dict(highlight=[(3, 0)]), dict(highlight=[(0, -1)]), dict(highlight=[5]),
                                 dict(highlight=[(0.5, 0)]), dict(cell_size=0), dict(cell_size="24")])
def test_bad_options_are_one_line_errors(bad):
    with pytest.raises(mscsp.InputError) as caught:
        draw.position_svg(parse_position("1..\n...\n"), **bad)
    assert "\n" not in str(caught.value)


def test_text_is_escaped():
    title = 'a <b> & "c" \'d\''
    root = parse(draw.position_svg(parse_position("1.\n"), title=title))
    assert root.find(SVG + "title").text == title
    assert [e.text for e in marks(root, "text", "title")] == [title]


def test_the_svg_path_never_imports_matplotlib():
    code = ("import sys, mscsp\n"
            "from mscsp import draw\n"
            "pos = mscsp.parse_position('mines: 2\\n.....\\n.121.\\n')\n"
            "board = mscsp.generate(mscsp.Spec(9, 9, 10), 'opening', (4, 4), seed=1)\n"
            "game = mscsp.Game.from_board(board); game.reveal((4, 4))\n"
            "svgs = [draw.position_svg(pos), draw.analysis_svg(mscsp.analyse(pos)), draw.board_svg(board.layout),\n"
            "        draw.game_svg(game), draw.no_guess_svg(board), pos._repr_svg_(), game._repr_svg_()]\n"
            "assert all(s.startswith('<svg') for s in svgs)\n"
            "print('matplotlib' in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


# -- analyses ----------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_covered=8))
def test_an_analysis_shows_the_enumerated_truth(position):
    brute = brute_force(position)
    analysis = mscsp.analyse(position)
    root = parse(draw.analysis_svg(analysis))
    coords = position.geometry.coords
    ringed = where(marks(root, "circle", "best"))
    if brute["count"] == 0:
        assert marks(root, "polyline", "tick") == marks(root, "g", "mine") == ringed == []
        assert any("no layout" in (e.text or "") for e in marks(root, "text", "caption"))
        return
    assert where(marks(root, "polyline", "tick")) == sorted(coords(c) for c in brute["safe"])
    assert where(marks(root, "g", "mine")) == sorted(coords(c) for c in brute["mine"])
    # every other covered cell is labelled with its chance in percent, exactly
    expected = {}
    for c, k in brute["per_cell"].items():
        if c in brute["safe"] or c in brute["mine"]:
            continue
        if analysis.probability(coords(c)) is None:  # no total, away from the numbers: no number is given
            assert position.mines is None
            expected[coords(c)] = "?"
            continue
        p = Fraction(k, brute["count"])
        expected[coords(c)] = "<1%" if 0 < p < Fraction(1, 200) else (">99%" if Fraction(199, 200) <= p < 1
                                                                        else f"{round(100 * p)}%")
    assert labels(root, "p") == expected
    # the ring is the suggested click, on a cell that is not a mine in any layout if there is one
    assert ringed == ([] if analysis.best is None else [tuple(analysis.best)])
    if brute["safe"]:
        assert position.geometry.index(*analysis.best) in brute["safe"]
    assert marks(root, "rect", "estimate") == []
    assert not any("≈" in (e.text or "") for e in root.iter(SVG + "text"))


@pytest.mark.parametrize("seed", [33, 7, 12])
def test_proven_mines_are_the_true_mines_of_a_generated_board(seed):
    board = generate(Spec(12, 12, 24), "opening", (6, 6), seed=seed)
    game = Game.from_board(board)
    game.reveal(board.click)
    analysis = mscsp.analyse(game.position())
    root = parse(draw.analysis_svg(analysis))
    rows = board.layout.rows()
    drawn_mines, drawn_safe = where(marks(root, "g", "mine")), where(marks(root, "polyline", "tick"))
    assert drawn_mines == sorted(analysis.mines) and drawn_safe == sorted(analysis.safe)
    assert all(rows[y][x] == "*" for x, y in drawn_mines)
    assert all(rows[y][x] == "." for x, y in drawn_safe)
    assert where(marks(root, "circle", "best")) == [analysis.best]


def test_an_inconsistent_position_outlines_the_clues_that_clash():
    # the 3 in the corner has three neighbours, and the total allows one mine
    analysis = mscsp.analyse(parse_position("mines: 1\n3..\n...\n"))
    root = parse(draw.analysis_svg(analysis))
    assert where(marks(root, "rect", "highlight")) == [(0, 0)]
    assert "no layout fits the outlined clues and the mine total" in [e.text for e in marks(root, "text", "caption")]
    assert marks(root, "circle", "best") == [] and labels(root, "p") == {}


def test_an_estimate_is_labelled_as_one():
    board = generate(Spec(12, 12, 24), "opening", (6, 6), seed=33)
    game = Game.from_board(board)
    game.reveal(board.click)
    position = game.position()
    estimate = mscsp.analyse(position, state_limit=0)
    assert not estimate.exact  # the premise: counting was made to give up
    root = parse(draw.analysis_svg(estimate))
    guessed = sorted(xy for xy in position.covered_xy if estimate.interval(xy) is not None)
    assert guessed and where(marks(root, "rect", "estimate")) == guessed
    shown = labels(root, "p")
    assert sorted(shown) == guessed and all(text.startswith("≈") for text in shown.values())
    captions = " ".join(e.text for e in marks(root, "text", "caption"))
    assert "estimate" in captions and "exact probabilities" not in captions
    exact = parse(draw.analysis_svg(mscsp.analyse(position)))
    assert "exact probabilities" in " ".join(e.text for e in marks(exact, "text", "caption"))


# -- boards, games, no-guess boards ---------------------------------------------------------
def test_a_board_shows_its_mines_and_numbers():
    rows = ["*..-", "..*.", "....", "*---"]
    layout = Layout.from_rows(rows)
    root = parse(draw.board_svg(layout))
    assert len(marks(root, "rect", "cell")) == 16
    assert where(marks(root, "g", "mine")) == cells_of(rows, "*")
    assert where(marks(root, "rect", "hole")) == cells_of(rows, "-")
    holes = frozenset(y * 4 + x for x, y in cells_of(rows, "-"))
    mines = {y * 4 + x for x, y in cells_of(rows, "*")}
    numbers = brute_numbers(4, 4, holes, mines)
    expected = {(c % 4, c // 4): str(n) for c, n in enumerate(numbers) if n and c not in mines | holes}
    assert labels(root, "number") == expected
    assert labels(parse(draw.board_svg(layout, numbers=False)), "number") == {}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_lost_game_shows_the_mine_at_the_clicked_cell(seed):
    game, mine, rows = exploded_game(seed)
    assert game.status is mscsp.Status.LOST
    root = parse(draw.game_svg(game))
    assert where(marks(root, "rect", "exploded")) == [mine]
    assert where(marks(root, "g", "mine")) == [mine]
    # nothing else of the layout is given away: the other cells are what the player saw
    shown = labels(root, "number")
    assert all(rows[y][x] == "." for x, y in shown)
    assert any("lost" in e.text for e in marks(root, "text", "caption"))


def test_a_game_in_progress_shows_no_mine():
    board = generate(Spec(9, 9, 10), "opening", (4, 4), seed=5)
    game = Game.from_board(board)
    game.reveal(board.click)
    root = parse(draw.game_svg(game))
    assert marks(root, "g", "mine") == [] and marks(root, "rect", "exploded") == []
    opened = sorted(zip(*np.nonzero(game.revealed.reshape(9, 9))[::-1]))
    assert where(marks(root, "rect", "open")) == [(int(x), int(y)) for x, y in opened]


def test_a_no_guess_board_shows_its_click_and_guarantee():
    board = mscsp.generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=2)
    root = parse(draw.no_guess_svg(board))
    assert where(marks(root, "circle", "best")) == [(4, 4)]
    assert where(marks(root, "g", "mine")) == cells_of(board.layout.rows(), "*")
    assert [e.text for e in marks(root, "text", "caption")] == [board.guarantee]
    assert "[4,4]" in board.guarantee


# -- notebooks ---------------------------------------------------------------------------
def test_only_the_model_objects_have_a_picture():
    with pytest.raises(TypeError, match="no picture of a Spec"):
        draw.notebook_svg(Spec(9, 9, 10))


def test_a_huge_board_stays_text_in_a_notebook():
    layout = Layout(mscsp.Geometry(200, 101), np.zeros(200 * 101, dtype=bool))
    assert layout._repr_svg_() is None
    assert Layout.from_rows(["*."])._repr_svg_().startswith("<svg")


# -- matplotlib --------------------------------------------------------------------------
def _gids(ax, prefix: str) -> list:
    return [a for a in [*ax.patches, *ax.texts, *ax.lines] if (a.get_gid() or "").startswith(prefix)]


def test_matplotlib_draws_the_same_marks():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    position = parse_position(".....\n.121.\n-F...\n")
    fig, ax = plt.subplots()
    assert draw.plot_position(position, ax=ax, coordinates=False) is ax
    # a patch for each cell (not the hole) and the flag's pennant
    assert len(_gids(ax, "cell ")) == 14 and len(ax.patches) == 14 + 1
    assert sorted(t.get_text() for t in ax.texts) == ["1", "1", "2"]
    plt.close(fig)
    analysis = mscsp.analyse(parse_position("mines: 2\n.....\n.121.\n"))
    ax = draw.plot_analysis(analysis)
    assert [p.get_gid() for p in _gids(ax, "best ")] == ["best {},{}".format(*analysis.best)]
    assert len(_gids(ax, "tick ")) == len(analysis.safe)
    assert {p.get_gid() for p in _gids(ax, "mine ")} == {"mine {},{}".format(*xy) for xy in analysis.mines}
    assert len(_gids(ax, "coord")) == 5 + 2
    plt.close(ax.figure)
    game, mine, _ = exploded_game(2)
    ax = draw.plot_game(game, coordinates=False)
    assert [p.get_gid() for p in _gids(ax, "cell exploded")] == ["cell exploded {},{}".format(*mine)]
    assert len(_gids(ax, "cell ")) == 81
    plt.close(ax.figure)
    ax = draw.plot_board(game.layout(), numbers=False, coordinates=False)
    assert len(ax.texts) == 0 and len({p.get_gid() for p in _gids(ax, "mine ")}) == 10
    plt.close(ax.figure)
