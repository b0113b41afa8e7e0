"""Pseudo-50/50s against an oracle that swaps mines and safe cells and compares numbers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from oracles import brute_force, brute_numbers
from strategies import small_positions

from mscsp.analysis import Survey
from mscsp.errors import InconsistentError, InputError
from mscsp.play.pseudo import MAX_MISSING, fifty_influence, pseudo_fifties
from mscsp.position import parse_position


def _structures(g, t):
    """Every pair beside ``t`` and every 2x2 block holding ``t``, as (the cells on
    ``t``'s side, the cells on the other side): found from the grid, not from the
    module's table."""
    x, y = g.coords(t)
    out = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if g.contains(x + dx, y + dy):
            out.append(({t}, {g.index(x + dx, y + dy)}))
    for ox in (0, -1):
        for oy in (0, -1):
            block = [(x + ox + i, y + oy + j) for j in (0, 1) for i in (0, 1)]
            if all(g.contains(*c) for c in block):
                tl, tr, bl, br = (g.index(*c) for c in block)
                diagonal = {tl, br} if t in (tl, br) else {tr, bl}
                out.append((diagonal, {tl, tr, bl, br} - diagonal))
    return out


def _invisible_swap(position, mines, side, other):
    """Whether swapping ``side`` (all mines) and ``other`` (all safe) changes no
    number on a cell safe before and after, and keeps the mine count."""
    if not side <= mines or other & mines:
        return False
    g = position.geometry
    swapped = (mines - side) | other
    before = brute_numbers(g.width, g.height, g.holes, mines)
    after = brute_numbers(g.width, g.height, g.holes, swapped)
    return all(before[c] == after[c] for c in g.cells.tolist() if c not in mines and c not in swapped)


def _oracle_holds(position, t):
    """Whether one structure holds ``t`` as a mine in every layout where ``t`` is a
    mine, with a swap no number can see."""
    flags = set(np.flatnonzero(position.flagged).tolist())
    layouts = [lay | flags for lay in brute_force(position, with_layouts=True)["layouts"] if t in lay]
    return any(all(_invisible_swap(position, lay, side, other) for lay in layouts)
               for side, other in _structures(position.geometry, t))


def _found(text):
    pos = parse_position(text)
    return pos, pseudo_fifties(Survey(pos))


def test_two_rows_no_number_tells_a_column_apart():
    # one mine beside the 1, one among the two cells on the right
    pos, found = _found("mines: 2\n1..\n...\n")
    assert found == [(1, 0), (2, 0), (1, 1), (2, 1)]
    for x, y in found:
        assert _oracle_holds(pos, pos.geometry.index(x, y))


def test_a_cell_that_is_a_mine_only_inside_a_dead_pair():
    # [3,0] is a mine one time in five, and then always with [2,1] and [1,2] mines and
    # [2,0], [3,1] safe: a block whose diagonals nothing can tell apart; no other cell is
    pos, found = _found("mines: 3\n01..\n12..\n..2.\n")
    assert found == [(3, 0)]
    g = pos.geometry
    undecided = [c for c, p in Survey(pos).probabilities.by_index.items() if 0 < p < 1]
    assert [g.coords(c) for c in undecided if _oracle_holds(pos, c)] == [(3, 0)]


def test_a_block_with_its_mines_on_a_diagonal():
    # a 2x2 block in the corner, walled by flags on its far corner: two mines on a diagonal
    pos, found = _found("mines: 3\n..1\n..2\n12F\n")
    cells = {pos.geometry.index(x, y) for x, y in found}
    assert cells == {0, 1, 3, 4}
    for c in cells:
        assert _oracle_holds(pos, c)


def test_a_cell_a_number_can_still_tell_is_not_one():
    # [2,0] touches [1,0] and not [0,0]: once opened it tells the two apart
    pos, found = _found("mines: 1\n...\n111\n")
    assert (0, 0) not in found and (1, 0) not in found


def test_needs_the_mine_total():
    pos = parse_position("1..\n...\n")
    with pytest.raises(InputError):
        pseudo_fifties(Survey(pos))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_covered=10, allow_wrong=False))
def test_every_cell_found_is_the_mine_side_of_an_invisible_swap(pos):
    assume(pos.mines is not None)
    survey = Survey(pos)
    try:
        probs = survey.probabilities
    except InconsistentError:
        return
    assume(probs.layouts)
    g = pos.geometry
    for t in (g.index(*xy) for xy in pseudo_fifties(survey)):
        assert 0 < probs.by_index[t] <= 0.5  # its twins are layouts where it is safe
        assert _oracle_holds(pos, t)
    if probs.exact:  # and each cell's potential 50/50s count what enumeration counts
        truth = brute_force(pos, with_layouts=True)
        for t in probs.by_index:
            assert fifty_influence(survey, g.coords(t)) == _influence_oracle(pos, t, truth)


def _influence_oracle(position, t, truth=None):
    """:func:`fifty_influence` by enumeration: every pair beside ``t`` and every 2x2
    block holding it (from the grid), ``t`` on its mine side; its walls (the cells
    touching the two sides unequally) each off the board, a certain mine, or undecided
    (at most MAX_MISSING of those); the layouts with the side and those walls mines and
    the other side safe; the larger pair across plus the larger down plus the largest
    block, capped at the layouts with ``t`` a mine and with it safe. ``truth`` is the
    position's enumeration (``brute_force(..., with_layouts=True)``) when at hand."""
    g = position.geometry
    truth = brute_force(position, with_layouts=True) if truth is None else truth
    layouts, total = truth["layouts"], truth["count"]
    flags = set(np.flatnonzero(position.flagged).tolist())
    covered = set(np.flatnonzero(position.covered).tolist())
    per_cell = {c: sum(c in lay for lay in layouts) for c in covered}

    def undecided(c):
        return c in covered and 0 < per_cell[c] < total

    def certain_mine(c):
        return c in flags or (c in covered and per_cell[c] == total)

    best = {"across": 0, "down": 0, "block": 0}
    for side, other in _structures(g, t):
        if not all(undecided(c) for c in side | other):
            continue
        around = {n for c in side | other for n in g.neighbours(c)} - side - other
        walls = [n for n in around if len(set(g.neighbours(n)) & side) != len(set(g.neighbours(n)) & other)]
        if not all(certain_mine(w) or undecided(w) for w in walls):
            continue
        missing = {w for w in walls if undecided(w)}
        if len(missing) > MAX_MISSING:
            continue
        n = sum((side | missing) <= lay and not (other & lay) for lay in layouts)
        (o,) = other if len(other) == 1 else (None,)
        kind = "block" if len(side) == 2 else ("across" if g.coords(o)[1] == g.coords(t)[1] else "down")
        best[kind] = max(best[kind], n)
    mine = per_cell[t]
    return min(sum(best.values()), mine, total - mine)


def test_the_influence_of_a_corner_counts_its_pairs():
    pos = parse_position("mines: 3\n...\n...\n..1\n")
    survey = Survey(pos)
    # [0,0] with [1,0] walled by [2,0], [2,1]; with [0,1] walled by [0,2], [1,2]
    assert fifty_influence(survey, (0, 0)) == 2 == _influence_oracle(pos, 0)
    with pytest.raises(InputError):
        fifty_influence(survey, (2, 2))  # the 1 itself
    with pytest.raises(InputError):
        fifty_influence(survey, 0)  # a flat index
    with pytest.raises(InputError):
        fifty_influence(Survey(parse_position("...\n...\n..1\n")), (0, 0))  # no mine total
