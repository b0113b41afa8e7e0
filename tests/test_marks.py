"""Dead cells, unavoidable sets and pseudo-50/50s of a position, against brute force."""

from __future__ import annotations

import numpy as np
from conftest import EXAMPLES, unavoidable_sets
from hypothesis import HealthCheck, given, settings
from oracles import brute_force, brute_numbers
from strategies import small_positions

from mscsp.analysis import Survey
from mscsp.errors import InconsistentError
from mscsp.play.marks import guess_marks
from mscsp.play.policies import unavoidable
from mscsp.play.pseudo import pseudo_fifties
from mscsp.position import parse_position


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=small_positions(max_covered=10, allow_wrong=False))
def test_a_dead_cell_shows_one_number_in_every_layout_where_it_is_safe(position):
    if position.mines is None:
        return
    survey = Survey(position)
    try:
        if not survey.probabilities.exact:
            return
    except InconsistentError:
        return
    g = position.geometry
    flags = set(np.flatnonzero(position.flagged).tolist())
    layouts = [set(lay) for lay in brute_force(position, with_layouts=True)["layouts"]]
    if not layouts:
        return
    shown: dict[int, set[int]] = {}
    for lay in layouts:
        numbers = brute_numbers(g.width, g.height, g.holes, lay | flags)
        for c in np.flatnonzero(position.covered).tolist():
            if c not in lay:
                shown.setdefault(c, set()).add(numbers[c])
    undecided = {c for c in np.flatnonzero(position.covered).tolist() if c in shown and any(c in lay for lay in layouts)}
    truth = {c for c in undecided if len(shown[c]) == 1}
    found = guess_marks(survey)
    if found.dead is None:  # sought only where no cell is proven safe
        assert found.unavoidable is None and found.pseudo is None
        assert any(all(c not in lay for lay in layouts) for c in np.flatnonzero(position.covered).tolist())
        return
    dead = {g.index(*xy) for xy in found.dead}
    assert found.complete and dead <= truth
    frontier = set(survey.system.frontier)
    assert truth & frontier <= dead  # next to the numbers, none is missed
    assert found.unavoidable == [tuple(map(g.coords, cells)) for cells in unavoidable_sets(position)]
    assert found.unavoidable == unavoidable(survey)
    assert found.pseudo == pseudo_fifties(survey)


def test_out_of_time_the_dead_cells_found_are_listed_and_said_incomplete():
    position = parse_position("mines: 3\n.....\n.....\n..1..\n")
    found = guess_marks(Survey(position), time_limit=0.0)
    assert not found.complete
    assert set(found.dead) <= set(guess_marks(Survey(position)).dead)
