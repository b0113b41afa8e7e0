"""analyse: proven cells read off the exact count, explained by the same rules as solve.

Oracles: brute-force enumeration of small positions (forced cells, layouts, clashes),
the single-point closure, and on Expert positions the complete SAT solver (an engine
independent of counting) and a local enumeration of each explanation's clues.
"""

import numpy as np
import pytest
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import (
    assert_core_is_inconsistent_and_minimal,
    assert_explanation_is_valid_and_minimal,
    brute_force,
    flat,
    local_force,
    single_point_closure,
)
from strategies import small_positions

from mscsp.analysis.full import analyse
from mscsp.analysis.solvers import deduce
from mscsp.board import Spec
from mscsp.game import Game, Status
from mscsp.position import Mark
from mscsp.rules import generate


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans(), st.sampled_from([None, 0]))
def test_analyse_proves_exactly_the_forced_cells(position, use_total, state_limit):
    # state_limit 0: no component can be counted, so the SAT solver proves the cells
    kwargs = {} if state_limit is None else {"state_limit": state_limit}
    a = analyse(position, use_total=use_total, **kwargs)
    truth = brute_force(position, use_total=use_total)
    assert a.consistent == (truth["count"] > 0)
    if not a.consistent:
        assert a.probabilities is None and a.best is None
        return
    assert set(flat(position, a.safe)) == truth["safe"]
    assert set(flat(position, a.mines)) == truth["mine"]
    assert a.complete
    for c in truth["safe"] | truth["mine"]:  # proven cells are exact even beside estimates
        assert a.probabilities.by_index[c] == (c in truth["mine"]) and c not in a.probabilities.intervals_by_index
        xy = position.geometry.coords(c)
        assert a.probability(xy) == (c in truth["mine"]) and a.interval(xy) is None
    if truth["safe"]:
        assert a.best == position.geometry.coords(min(truth["safe"]))


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_analyse_explains_every_proven_cell_validly_and_minimally(position, use_total):
    a = analyse(position, use_total=use_total)
    if not a.consistent:
        return
    mines = set(flat(position, a.mines))
    explained = set()
    for e in a.explanations:
        explained |= set(flat(position, e.cells))
        assert_explanation_is_valid_and_minimal(position if use_total else position.with_mines(None), e, mines)
    assert explained == set(flat(position, a.safe)) | mines


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_analyse_names_a_minimal_clash(position, use_total):
    a = analyse(position, use_total=use_total)
    if a.consistent:
        return
    assert_core_is_inconsistent_and_minimal(position, a.contradiction, use_total)


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans(), st.sampled_from([None, 0]))
def test_cheap_rungs_in_analyse_prove_what_their_rules_prove(position, use_total, state_limit):
    kwargs = {} if state_limit is None else {"state_limit": state_limit}
    truth = brute_force(position, use_total=use_total)
    single = analyse(position, "single-point", use_total=use_total, **kwargs)
    subset = analyse(position, "subset", use_total=use_total, **kwargs)
    assert single.consistent == subset.consistent == (truth["count"] > 0)
    if not single.consistent:
        return
    closure = single_point_closure(position, np.flatnonzero(position.revealed).tolist())
    assert set(flat(position, single.mines)) == {c for c, m in closure.items() if m}
    assert set(flat(position, single.safe)) == {c for c, m in closure.items() if not m}
    assert set(flat(position, subset.safe)) <= truth["safe"] and set(flat(position, subset.mines)) <= truth["mine"]
    assert set(single.safe) <= set(subset.safe)
    assert set(single.mines) <= set(subset.mines)
    for c in truth["safe"] | truth["mine"]:  # whatever the rung, the complete solver's cells are exact
        assert subset.probabilities.by_index[c] == (c in truth["mine"]) and c not in subset.probabilities.intervals_by_index


def _expert_positions(seed: int, games: int):
    """Positions of seeded Expert games played by the complete solver, one per round."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        board = generate(Spec.preset("expert"), "opening", (15, 8), rng)
        game = Game.from_board(board)
        game.reveal(board.click)
        while game.status is Status.PLAYING:
            position = game.position()
            known = deduce(position, "sat").by_index
            new = {c: m for c, m in known.items() if position.grid[c] == Mark.COVERED}
            yield position, known
            if not new:
                break
            for c, mine in sorted(new.items()):
                if game.status is not Status.PLAYING:
                    break
                xy = game.geometry.coords(c)
                game.flag(xy) if mine else game.reveal(xy)


@pytest.mark.parametrize("seed", [1, 2])
def test_on_expert_the_count_proves_what_sat_proves_and_explanations_hold(seed):
    checked = 0
    for position, known in _expert_positions(seed, games=2):
        a = analyse(position)
        assert {c for c, m in known.items() if m} == set(flat(position, a.mines))
        assert {c for c, m in known.items() if not m} == set(flat(position, a.safe))
        for e in a.explanations:
            if e.uses_total:
                continue
            clues = flat(position, e.clues)
            cells = {n for clue in clues for n in position.geometry.neighbours(clue) if position.grid[n] == Mark.COVERED}
            if len(cells) > 18:
                continue
            for c in flat(position, e.cells):
                assert local_force(position, clues, c) == known[c], e
                for drop in clues:  # minimal: no clue of it can go
                    assert local_force(position, [k for k in clues if k != drop], c) is None, (e, drop)
            checked += 1
    assert checked >= 20
