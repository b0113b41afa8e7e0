import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from mscsp.board import Geometry, Spec
from mscsp.errors import InputError
from mscsp.rules import (
    GENERATOR_VERSION,
    FirstClickRule,
    generate,
    max_mines,
    place_mines,
)

RULES = [r.value for r in FirstClickRule]

# Boards pinned by seed: a change of sampler must be deliberate (and bump GENERATOR_VERSION).
PINNED = [
    (Spec(9, 9, 10), "safe", (4, 4), 2026,
     ["....*....", ".....*...", ".*.......", "...**....", "..*......", ".......*.", "..*......", "..*......", ".*......."]),
    (Spec(8, 4, 12), "opening", (0, 0), 7, ["..**....", "..*.*.**", "...*.*..", "..****.."]),
    (Spec(6, 5, 20), "winxp", (0, 0), 11, [".*.***", ".*.**.", "*.****", "*.*.**", ".****."]),
    (Spec(5, 5, 6), "uniform", (2, 2), 123, [".***.", "..*..", ".....", "..*..", ".*..."]),
]


@pytest.mark.parametrize("spec,rule,click,seed,rows", PINNED)
def test_pinned_boards(spec, rule, click, seed, rows):
    board = generate(spec, rule, click, seed)
    assert board.layout.rows() == rows
    assert board.generator == GENERATOR_VERSION and board.seed == seed
    assert board.rule is FirstClickRule(rule) and board.click == click and board.click_index == click[1] * spec.width + click[0]


@given(st.sampled_from(RULES), st.integers(0, 2**32), st.integers(0, 8), st.integers(0, 8))
def test_same_seed_same_board(rule, seed, x, y):
    a = generate(Spec(9, 9, 10), rule, (x, y), seed)
    b = generate(Spec(9, 9, 10), rule, (x, y), seed)
    assert a.layout == b.layout and a.layout.mine_count == 10


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_rules_respect_their_exclusions(w, h, data):
    g = Geometry(w, h)
    click = data.draw(st.integers(0, g.area - 1))
    rule = FirstClickRule(data.draw(st.sampled_from(RULES)))
    mines = data.draw(st.integers(0, max_mines(g, rule, click)))
    layout = place_mines(g, mines, rule, g.coords(click), data.draw(st.integers(0, 10**9)))
    assert layout.mine_count == mines
    if rule is FirstClickRule.SAFE or rule is FirstClickRule.WINXP:
        assert not layout.mines[click]
    if rule is FirstClickRule.OPENING:
        assert not any(layout.mines[c] for c in g.closed_neighbourhood(click))
        assert layout.numbers[click] == 0


@pytest.mark.parametrize("w,h", [(9, 9), (1, 5), (5, 1), (1, 1), (2, 1)])
@pytest.mark.parametrize("rule", RULES)
def test_maximum_mine_count_fits_and_one_more_fails(w, h, rule):
    g = Geometry(w, h)
    for click in range(g.area):
        limit = {"uniform": g.size, "safe": g.size - 1, "winxp": g.size - 1,
                 "opening": g.size - 1 - len(g.neighbours(click))}[rule]
        assert max_mines(g, rule, click) == limit
        if limit >= 0:
            assert place_mines(g, limit, rule, g.coords(click), 0).mine_count == limit
        with pytest.raises(InputError, match="too many mines"):
            place_mines(g, limit + 1, rule, g.coords(click), 0)


def test_impossible_requests_are_input_errors():
    with pytest.raises(InputError, match="not a cell"):
        generate(Spec(9, 9, 10), "safe", (9, 0), 1)
    with pytest.raises(InputError, match="unknown first-click rule"):
        generate(Spec(9, 9, 10), "vista", (0, 0), 1)
    with pytest.raises(InputError, match="too many mines"):
        generate(Spec(9, 9, 73), "opening", (4, 4), 1)
    with pytest.raises(InputError, match="seed"):
        generate(Spec(9, 9, 10), "safe", (4, 4), -3)


def test_holes_never_get_mines():
    g = Geometry(4, 4, frozenset({0, 5, 10, 15}))
    for seed in range(50):
        layout = place_mines(g, 11, "uniform", g.coords(1), seed)
        assert not layout.mines[[0, 5, 10, 15]].any() and layout.mine_count == 11


def test_uniform_click_can_hit_a_mine():
    hits = sum(generate(Spec(4, 4, 8), "uniform", (1, 1), s).layout.mines[5] for s in range(200))
    assert 60 < hits < 140  # half the cells are mines


def test_winxp_moves_a_clicked_mine_to_the_first_free_top_row_cell():
    # winxp draws exactly as uniform does, then relocates: compare the two per seed.
    g = Geometry(6, 4)
    moved = 0
    for seed in range(400):
        for click in (0, 3, 14):
            plain = place_mines(g, 12, "uniform", g.coords(click), seed)
            xp = place_mines(g, 12, "winxp", g.coords(click), seed)
            if not plain.mines[click]:
                assert xp == plain
                continue
            moved += 1
            expected = set(np.flatnonzero(plain.mines).tolist()) - {click}
            first_free = next(c for c in range(g.area) if c not in np.flatnonzero(plain.mines).tolist())
            expected.add(first_free)
            assert set(np.flatnonzero(xp.mines).tolist()) == expected
            assert not xp.mines[click]
    assert moved > 100


def test_winxp_scans_past_a_full_top_row():
    g = Geometry(3, 3)
    # 8 mines on 9 cells: whenever the click (centre) is hit, the only free cell is elsewhere.
    for seed in range(30):
        layout = place_mines(g, 8, "winxp", (1, 1), seed)
        assert np.flatnonzero(layout.mines).tolist() == [0, 1, 2, 3, 5, 6, 7, 8]


@pytest.mark.parametrize("rule,excluded", [("uniform", 0), ("safe", 1), ("opening", 9)])
def test_cell_frequencies_match_the_rule(rule, excluded):
    """Every allowed cell holds a mine with probability M / (N - excluded)."""
    spec, click, n = Spec(6, 6, 9), (2, 2), 3000
    counts = np.zeros(36)
    for seed in range(n):
        counts += generate(spec, rule, click, seed).layout.mines
    g = spec.geometry
    allowed = [c for c in range(36) if c not in FirstClickRule(rule).excluded(g, g.index(*click))]
    p = spec.mines / len(allowed)
    for c in allowed:
        assert stats.binomtest(int(counts[c]), n, p).pvalue > 1e-4, c
    assert counts.sum() == spec.mines * n


def _opening_probability(rule, g, click, m):
    """Closed forms, derived independently of the sampler.

    uniform: C(N-K-1, M) / C(N, M); safe: C(N-K-1, M) / C(N-1, M) (K neighbours).
    winxp: safe-click case as ``safe``; when the click holds a mine (probability M/N)
    the other M-1 mines are uniform on the N-1 other cells and the mine moves to the
    first free cell in scan order. With the neighbours clear, that cell is a neighbour
    exactly when all p cells scanned before the first neighbour are mines.
    """
    from math import comb

    n, k = g.size, len(g.neighbours(click))
    if rule == "opening":
        return 1.0
    if rule == "uniform":
        return comb(n - k - 1, m) / comb(n, m)
    safe = comb(n - k - 1, m) / comb(n - 1, m)
    if rule == "safe":
        return safe
    first = min(g.neighbours(click))
    p = sum(1 for c in g.cells.tolist() if c < first and c != click)
    hit = (comb(n - k - 1, m - 1) - (comb(n - k - 1 - p, m - 1 - p) if m - 1 - p >= 0 else 0)) / comb(n - 1, m - 1)
    return (n - m) / n * safe + m / n * hit


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("click", [(0, 0), (3, 0), (2, 3), (5, 5)])
def test_first_click_opening_frequency_matches_closed_form(rule, click):
    spec, n = Spec(6, 6, 5), 2500
    g = spec.geometry
    cell = g.index(*click)
    opened = 0
    for seed in range(n):
        layout = place_mines(g, spec.mines, rule, click, seed)
        opened += not layout.mines[cell] and layout.numbers[cell] == 0
    expected = _opening_probability(rule, g, cell, spec.mines)
    if expected in (0.0, 1.0):
        assert opened == expected * n
    else:
        assert stats.binomtest(opened, n, expected).pvalue > 1e-4, (opened / n, expected)
