"""Estimates where exact counting gives up: honest intervals, proofs kept, or no number and a reason.

Estimation is forced with ``state_limit=0`` (no table may hold a state), on positions
small enough that the exact answer is known, so the intervals can be checked against it.
"""

from fractions import Fraction

import numpy as np
import pytest
from conftest import POSITIONS

from mscsp.analysis.counting import GaveUp, probabilities
from mscsp.analysis.explain import describe_gave_up
from mscsp.analysis.full import analyse
from mscsp.board import Spec
from mscsp.budget import Budget
from mscsp.errors import Resource
from mscsp.game import Game, Status
from mscsp.position import parse_position
from mscsp.rules import generate

#: The 30x6 lattice that once divided 0 by 0 while combining estimates with the total.
LATTICE = """mines: 32
1.1.0.1.1.2.2.1.0.0.0.1.1.0.2.
..............................
2.3.0.4.4.3.1.0.0.1.0.1.2.1.3.
..............................
0.2.2.4.5.3.2.2.2.3.1.1.1.0.1.
..............................
"""


def _positions(n: int, seed: int):
    """Positions from seeded boards of 5x5 to 11x9: the click's opening and a few more
    safe cells opened, with or without the mine total."""
    rng = np.random.default_rng(seed)
    while n:
        w, h = int(rng.integers(5, 12)), int(rng.integers(5, 10))
        mines = int(rng.integers(max(1, w * h // 8), w * h // 4 + 2))
        board = generate(Spec(w, h, mines), "safe", (int(rng.integers(w)), int(rng.integers(h))),
                         int(rng.integers(2**31)))
        game = Game.from_board(board)
        game.reveal(board.click)
        safe = [c for c in range(w * h) if not board.layout.mines[c]]
        for c in rng.permutation(safe)[: int(rng.integers(0, 4))]:
            if game.status is Status.PLAYING:
                game.reveal_index(int(c))
        if game.status is Status.PLAYING:
            n -= 1
            yield game.position(mines_known=bool(rng.integers(0, 2)))


def test_intervals_cover_the_exact_probability_at_least_95_percent_of_the_time():
    rng = np.random.default_rng(2026)
    covered = checked = without = 0
    for k, position in enumerate(_positions(300, seed=11)):
        exact = probabilities(position)
        est = probabilities(position, state_limit=0, samples=500, seed=k)
        assert not est.exact and est.layouts is None and est.reason
        if not est.intervals:  # no estimate: every sampled cell says so
            without += 1
            assert est.reason.estimate_failed
            continue
        # one cell a position, so the checks are independent; cells the estimate
        # cannot get wrong (0 or 1 in every layout) would only flatter the rate
        open_cells = sorted(c for c in est.intervals if exact.cells[c] not in (0, 1))
        if not open_cells:
            continue
        c = open_cells[int(rng.integers(len(open_cells)))]
        low, high = est.intervals[c]
        assert 0 <= low <= float(est.cells[c]) <= high <= 1
        covered += low - 1e-12 <= float(exact.cells[c]) <= high + 1e-12
        checked += 1
    assert checked >= 200 and without <= 15
    assert covered / checked >= 0.95, f"{covered} of {checked} intervals cover the exact value"


def test_proven_cells_stay_exact_when_the_rest_is_estimated():
    position = parse_position((POSITIONS / "long_frontier.txt").read_text())
    exact = analyse(position)
    est = analyse(position, state_limit=0)
    assert not est.probabilities.exact
    for xy in exact.safe + exact.mines:
        assert est.probability(xy) == Fraction(int(xy in exact.mines))
        assert est.interval(xy) is None
    assert est.best not in est.mines


def test_an_estimate_that_cannot_be_made_gives_no_number_and_says_why():
    # the Expert lattice with 200 paths: the runs' estimates disagree too much to judge their error
    position = parse_position((POSITIONS / "lattice_expert.txt").read_text())
    est = probabilities(position, state_limit=0, samples=200)
    assert not est.exact and est.layouts is None and not est.intervals
    assert all(p is None for p in est.cells.values())
    assert est.reason.resources == (Resource.STATES,) and est.reason.estimate_failed
    assert str(est.reason) == describe_gave_up(est.reason) == (
        "exact counting of 1 part of the frontier ran out of its states budget (a counting table passed 0 states); "
        f"no estimate either: {est.reason.estimate_failed}")
    assert est.stats["estimate"]["failed"] == est.reason.estimate_failed


def test_why_counting_gave_up_is_a_value_and_explain_says_it_as_before():
    # the sentences are those the reason field held when it was a string, word for word
    est = probabilities(parse_position("mines: 1\n.1...\n"), state_limit=0)
    assert not est.exact and est.intervals
    assert est.reason == GaveUp(1, (Resource.STATES,), "a counting table passed 0 states")
    assert str(est.reason) == describe_gave_up(est.reason) == (
        "exact counting of 1 part of the frontier ran out of its states budget (a counting table passed 0 states)")
    both = GaveUp(3, (Resource.MEMORY, Resource.TIME), "exact counting ran out of time",
                  "only 1 sampling runs fitted in the time left")
    assert describe_gave_up(both) == (
        "exact counting of 3 parts of the frontier ran out of its memory and time budget (exact counting ran out of "
        "time); no estimate either: only 1 sampling runs fitted in the time left")


@pytest.mark.parametrize("total", [True, False])
def test_the_lattice_that_divided_zero_by_zero_is_counted(total):
    position = parse_position(LATTICE)
    if not total:
        position = position.with_mines(None)
    result = probabilities(position, budget=Budget.of(10))
    assert result.exact and result.layouts
    if total:
        assert sum(result.cells.values()) == 32  # expected mines equal the total, exactly
    forced = probabilities(position, state_limit=0, samples=300)  # and estimating it never divides 0 by 0
    assert not forced.exact and forced.reason


def test_a_wide_lattice_is_answered_within_the_time_asked():
    """A 100x100 lattice of 1s (a clue on every other cell both ways, a quarter of
    the cells mines): exact counting gives up and one sampling run takes longer than
    the time left, so the estimator must stop between steps, not between runs (it
    used to answer a one-second analysis after 2.5 s)."""
    import time

    n = 100
    rows = ["".join("1" if x % 2 == 0 and y % 2 == 0 else "." for x in range(n)) for y in range(n)]
    position = parse_position(f"mines: {n * n // 4}\n" + "\n".join(rows) + "\n")
    started = time.perf_counter()
    a = analyse(position, time_limit=1.0)
    elapsed = time.perf_counter() - started
    assert elapsed < 1.6, f"a one-second analysis took {elapsed:.2f} s"
    assert not a.exact and a.layouts is None
