"""Exact optimal play against a plain expectimax that shares none of its shortcuts.

The oracle below keeps the layouts as Python sets, weighs outcomes with Fractions,
tries every covered cell at every step (safe ones included, so the "open safe cells
for free" shortcut is checked too), and has no memo and no pruning.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from conftest import benchmark

from mscsp.analysis.counting import probabilities
from mscsp.board import Spec
from mscsp.errors import InputError
from mscsp.play.optimum import optimal_play, policy_play
from mscsp.position import Mark


def _oracle(spec: Spec, rule: str, click: tuple[int, int], choose=None) -> Fraction:
    g = spec.geometry
    start = g.cell(click)
    blocked = {start} | (set(g.neighbours(start)) if rule == "opening" else set())
    layouts = [frozenset(m) for m in combinations([c for c in range(g.area) if c not in blocked], spec.mines)]

    def number(layout, cell):
        return sum(n in layout for n in g.neighbours(cell))

    def value(layouts, opened):
        if len(opened) == g.area - spec.mines:
            return Fraction(1)
        covered = [c for c in range(g.area) if c not in opened]
        if choose is not None:
            safe = [c for c in covered if all(c not in lay for lay in layouts)]
            candidates = safe[:1] or [choose(layouts, opened)]
        else:
            candidates = covered
        best = Fraction(0)
        for c in candidates:
            outcomes: dict[int, list] = {}
            for lay in layouts:
                if c not in lay:
                    outcomes.setdefault(number(lay, c), []).append(lay)
            v = sum((Fraction(len(part), len(layouts)) * value(part, opened | {c})
                     for k, part in outcomes.items()), Fraction(0))
            best = max(best, v)
        return best

    outcomes: dict[int, list] = {}
    for lay in layouts:
        outcomes.setdefault(number(lay, start), []).append(lay)
    return sum((Fraction(len(p), len(layouts)) * value(p, frozenset({start})) for p in outcomes.values()),
               Fraction(0))


@pytest.mark.parametrize("spec,rule,click", [
    (Spec(3, 3, 2), "safe", (0, 0)),
    (Spec(3, 3, 2), "safe", (1, 1)),
    (Spec(3, 3, 3), "opening", (0, 0)),
    (Spec(4, 2, 2), "safe", (1, 0)),
    (Spec(5, 2, 2), "opening", (0, 0)),
    (Spec(5, 1, 2), "safe", (2, 0)),
])
def test_the_optimum_equals_plain_expectimax(spec, rule, click):
    assert optimal_play(spec, rule, click).probability == _oracle(spec, rule, click)


def _least_probability(position):
    return probabilities(position).best()


@pytest.mark.parametrize("spec,rule,click", [
    (Spec(3, 3, 2), "safe", (0, 0)),
    (Spec(4, 3, 2), "safe", (1, 1)),
    (Spec(4, 3, 3), "opening", (0, 0)),
    # square boards clicked in the corner: mirror-image positions, between which a
    # row-order tie-break tells, must not share a value
    (Spec(4, 4, 3), "safe", (0, 0)),
    (Spec(4, 4, 4), "opening", (0, 0)),
])
def test_a_policy_is_played_exactly_and_never_beats_the_optimum(spec, rule, click):
    g = spec.geometry

    def oracle_choice(layouts, opened):
        # the same least-probability rule, from the layouts: fewest mines, then row order
        covered = [c for c in range(g.area) if c not in opened]
        return min(covered, key=lambda c: (sum(c in lay for lay in layouts), c))

    exact = policy_play(spec, rule, click, _least_probability).probability
    assert exact == _oracle(spec, rule, click, oracle_choice)
    assert exact <= optimal_play(spec, rule, click).probability


def test_the_policy_sees_a_position_with_the_total_and_proven_mines_flagged():
    seen = []

    def record(position):
        seen.append(position)
        return position.covered_xy[0]

    policy_play(Spec(4, 4, 3), "safe", (0, 0), record)
    assert seen and all(p.mines == 3 for p in seen)
    # a flag is only ever on a cell that is a mine in every layout the position allows
    for p in seen[:20]:
        probs = probabilities(p)
        assert all(p.grid[c] != Mark.FLAG or c not in probs.by_index for c in range(p.geometry.area))


def test_bad_requests_are_refused():
    with pytest.raises(InputError, match="'safe' and 'opening'"):
        optimal_play(Spec(3, 3, 2), "uniform", (0, 0))
    with pytest.raises(InputError, match="layouts is more than"):
        optimal_play(Spec(16, 16, 40), "safe", (0, 0))
    with pytest.raises(InputError, match=r"pair \(x, y\)"):
        optimal_play(Spec(3, 3, 2), "safe", 0)


def test_the_search_shortcuts_change_no_value(capsys):
    # benchmarks/optimum.py solves each board one safe cell at a time without symmetry,
    # with safe cells opened together, and with mirror images sharing a memo entry;
    # it fails when the three win counts differ
    module = benchmark("optimum")
    assert module.main(["--board", "4x4/4/safe", "--board", "3x3/2/safe"]) == 0
    out = capsys.readouterr().out
    # and the count is the plain expectimax's (the oracle above) on the board small enough for it
    wins = _oracle(Spec(3, 3, 2), "safe", (0, 0)) * 28  # C(8, 2) layouts
    assert f"3x3/2/safe: {wins} wins" in out


@pytest.mark.parametrize("spec,rule,click", [(Spec(4, 4, 4), "safe", (0, 0)), (Spec(5, 4, 4), "opening", (0, 0)),
                                             (Spec(4, 4, 5), "safe", (1, 2)), (Spec(5, 3, 3), "safe", (2, 1))])
def test_sets_of_one_or_two_layouts_are_valued_as_searching_them_does(spec, rule, click):
    # the same search with and without the shortcut, for the optimum and for two
    # policies: least probability, and one that clicks the last covered cell (it
    # would lose a layout where the shortcut assumed a safe guess)
    from mscsp.play.optimum import _begin, _deep_recursion, _flat, _start

    last = lambda position: position.covered_xy[-1]  # noqa: E731
    rule, cell = _begin(spec, rule, click)
    for chooser in (None, _least_probability, last):
        wins = []
        for few in (False, True):
            search = _start(spec, rule, cell, None, chooser is None, True, few)
            with _deep_recursion():
                wins.append(search.from_click(cell, _flat(chooser)))
        assert wins[0] == wins[1], (chooser, wins)


@pytest.mark.parametrize("spec,rule,policy", [(Spec(4, 4, 4), "opening", "least-p"),
                                              (Spec(4, 4, 4), "safe", "+lookahead"),
                                              (Spec(4, 4, 3), "safe", "least-p")])
def test_the_regrets_of_a_policy_add_up_to_its_gap(spec, rule, policy):
    from mscsp.play.optimum import regrets
    from mscsp.play.policies import choose

    def play(position):
        return choose(position, policy)

    lost = regrets(spec, rule, (0, 0), play)
    gap = optimal_play(spec, rule, (0, 0)).wins - policy_play(spec, rule, (0, 0), play).wins
    assert gap > 0 and sum(r.cost for r in lost) == gap
    for r in lost:
        assert r.chosen in r.position.covered_xy and r.best in r.position.covered_xy
        assert choose(r.position, policy) == r.chosen and r.chosen != r.best
        assert 0 <= r.chosen_wins < r.best_wins <= r.layouts
    assert [r.cost for r in lost] == sorted((r.cost for r in lost), reverse=True)
