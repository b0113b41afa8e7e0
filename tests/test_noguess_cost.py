"""The no-guess experiment's border measure: 1 on uniform boards, by enumeration and by sampling."""

from itertools import combinations

import numpy as np
import pytest

from mscsp.board import Spec
from mscsp.experiments.noguess_cost import border_cells, border_ratio
from mscsp.rules import FirstClickRule, generate


@pytest.mark.parametrize("spec,click,border,inner", [
    (Spec(9, 9, 10), (4, 4), 32, 49 - 9),
    (Spec(30, 16, 99), (15, 8), 2 * 30 + 2 * 14, 28 * 14 - 9),
    (Spec(5, 5, 3), (0, 0), 16 - 3, 9 - 1),  # a corner click takes cells from both
])
def test_the_forced_empty_cells_leave_both_sides(spec, click, border, inner):
    b, i = border_cells(spec, click)
    assert (int(b.sum()), int(i.sum())) == (border, inner)
    assert not (b & i).any()


@pytest.mark.parametrize("width,height,mines,click", [(5, 5, 2, (1, 1)), (6, 5, 3, (2, 2)), (5, 5, 4, (0, 0)), (7, 6, 3, (3, 3))])
def test_every_uniform_layout_enumerated_scores_exactly_one(width, height, mines, click):
    spec = Spec(width, height, mines)
    geometry = spec.geometry
    allowed = sorted(set(range(width * height)) - set(FirstClickRule.OPENING.excluded(geometry, geometry.cell(click))))
    border, _ = border_cells(spec, click)
    counts = [sum(bool(border[c]) for c in layout) for layout in combinations(allowed, mines)]
    assert border_ratio(counts, spec, click)[0] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("spec,click", [(Spec(9, 9, 10), (4, 4)), (Spec(30, 16, 99), (15, 8))])
def test_sampled_uniform_boards_score_one_within_the_interval(spec, click):
    rngs = np.random.SeedSequence(2024).spawn(3000)
    border, inner = border_cells(spec, click)
    layouts = [generate(spec, "opening", click, np.random.default_rng(s)).layout.mines for s in rngs]
    ratio, low, high = border_ratio([int(m[border].sum()) for m in layouts], spec, click)
    assert low < 1.0 < high and high - low < 0.1
    # the measure that counted the opening as interior was biased: its value lies outside
    every = np.zeros(spec.width * spec.height, dtype=bool)
    every[: spec.width] = every[-spec.width:] = True
    every.reshape(spec.height, spec.width)[:, [0, -1]] = True
    mines = np.sum(layouts, axis=0)
    biased = mines[every].mean() / mines[~every].mean()
    assert not low <= biased <= high


def test_the_interval_follows_the_mean():
    spec = Spec(9, 9, 10)
    ratio, low, high = border_ratio([3, 4, 5, 4, 6, 2], spec, (4, 4))
    assert low < ratio < high
    one = border_ratio([4], spec, (4, 4))
    assert one[0] == one[1] == one[2] == (4 / 32) / (6 / 40)


def test_a_board_without_interior_cells_is_refused():
    with pytest.raises(ValueError, match="no interior cell"):
        border_ratio([1], Spec(4, 4, 2), (1, 1))


@pytest.mark.parametrize("spec,click", [(Spec(9, 9, 10), (4, 4)), (Spec(30, 16, 99), (15, 8)), (Spec(5, 4, 3), (0, 0))])
def test_edge_distance_is_the_least_step_count_off_the_board(spec, click):
    from mscsp.experiments.noguess_cost import edge_distance

    ring = edge_distance(spec, click)
    cx, cy = click
    for y in range(spec.height):
        for x in range(spec.width):
            if max(abs(x - cx), abs(y - cy)) <= 1:  # the opening rule's free cells
                expected = -1
            else:  # straight steps to leave the board, less one
                expected = min(x + 1, y + 1, spec.width - x, spec.height - y) - 1
            assert ring[y * spec.width + x] == expected, (x, y)


def test_every_mine_lies_in_one_ring(tmp_path):
    """In the quick run's ring table the densities times the ring sizes add up to the
    mine total on every method's boards, and the rings to the cells the rule allows."""
    import pandas as pd

    from mscsp.experiments import noguess_cost

    assert noguess_cost.main(["--quick", "--out", str(tmp_path), "--jobs", "1"]) == 0
    rings = pd.read_csv(tmp_path / "rings.csv")
    assert set(rings["method"]) == {"uniform", "retry", "perturb"}
    for (board, method), part in rings.groupby(["board", "method"]):
        spec = Spec(int(part["width"].iloc[0]), int(part["height"].iloc[0]), int(part["mines"].iloc[0]))
        assert part["cells"].sum() == spec.width * spec.height - 9
        assert (part["density"] * part["cells"]).sum() == pytest.approx(spec.mines)
        assert ((part["low"] <= part["density"]) & (part["density"] <= part["high"])).all()
    assert (tmp_path / "mine_frequency.pdf").is_file()
