"""The uniform no-guess chain against the census of every no-guess board.

Oracles: the census (every board the compiled verifier finishes, itself checked against
brute force in test_noguess_census.py), the Python play loop (every board a chain visits
must be no-guess by it), and the chain's transition matrix written from its definition
(:func:`mscsp.play.census.mixing`), whose exact distances test the run lengths that
:func:`mscsp.play.chain.plan` chooses.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mscsp.board import Spec
from mscsp.errors import InputError
from mscsp.play import fastplay
from mscsp.play.census import census, mixing, uniformity
from mscsp.play.chain import (
    JUMP, PILOT, PILOT_JUMP, NoGuessChain, Trace, autocorrelation_time, plan, steps_for,
)
from mscsp.play.noguess import generate_no_guess, sample_no_guess
from mscsp.play.verify import verify
from mscsp.rules import FirstClickRule, place_mines

#: 4x4, 3 mines, safe click at (1,1), with the total: 87 no-guess boards in two sets no
#: single swap joins (52 and 35 boards, counted in test_swaps_alone_do_not_connect).
SPLIT = (Spec(4, 4, 3), "safe", (1, 1))

#: 5x5, 5 mines, opening at the centre: 2,836 boards, joined by swaps; perturb is
#: caught on it (test_noguess_census.py).
SMALL = (Spec(5, 5, 5), "opening", (2, 2))


def _swap_components(c):
    """Sizes of the sets of census boards joined by single swaps, from the definition."""
    g = c.spec.geometry
    banned = {g.coords(x) for x in c.rule.excluded(g, g.cell(c.click))}
    cells = {(x, y) for y in range(g.height) for x in range(g.width)} - banned
    index = {frozenset(b): i for i, b in enumerate(c.boards)}
    parent = list(range(len(index)))

    def root(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for board, i in index.items():
        for out in board:
            for into in cells - board:
                j = index.get((board - {out}) | {into})
                if j is not None:
                    parent[root(i)] = root(j)
    sizes = {}
    for i in range(len(parent)):
        sizes[root(i)] = sizes.get(root(i), 0) + 1
    return sorted(sizes.values(), reverse=True)


def test_swaps_alone_do_not_connect_and_fresh_draws_do():
    c = census(*SPLIT)
    assert _swap_components(c) == [52, 35]
    # from a board of one set, swaps alone never put weight on the other
    worst = mixing(c, 300, jump=0.0)
    assert worst[-1] > 0.3
    # fresh draws regenerate: the distance falls below the Doeblin bound (1 - jump b)^t
    b = len(c.boards) / math.comb(15, 3)
    with_draws = mixing(c, 120, jump=PILOT_JUMP)
    for t, d in enumerate(with_draws, start=1):
        assert d <= (1 - PILOT_JUMP * b) ** t + 1e-9


def test_a_regeneration_plan_proves_its_tolerance():
    c = census(*SPLIT)
    b = len(c.boards) / math.comb(15, 3)
    draws = 128
    accepted = round(b * draws)
    p = plan(3, 15, Trace(swaps=128, swaps_accepted=64, draws=draws, draws_accepted=accepted))
    assert p.jump == PILOT_JUMP and p.bound is not None and p.regeneration <= b
    # exact distance after the pilot and the run, from every start
    assert mixing(c, PILOT + p.steps, jump=PILOT_JUMP)[-1] <= p.bound


def test_no_draw_accepted_means_a_swap_run():
    p = plan(170, 471, Trace(swaps=128, swaps_accepted=41, draws=128, draws_accepted=0))
    assert p.jump == JUMP and p.bound is None and p.regeneration is None
    assert p.steps >= steps_for(170, 471, 41 / 128)


def test_the_generator_is_uniform_where_swaps_alone_are_not():
    spec, rule, click = SPLIT
    c = census(spec, rule, click)
    n = 12 * len(c.boards)
    boards = [generate_no_guess(spec, rule, click, seed=s, method="uniform", retry_first=0) for s in range(n)]
    assert all(b.steps > 0 and b.attempts >= 1 for b in boards)  # the chain made every one
    f = uniformity(boards, c)
    assert f.p_value > 0.01, (f.chi2, f.df)
    # the same test, the same setting, the same number of boards: perturb is far off
    biased = uniformity((generate_no_guess(spec, rule, click, seed=s, method="perturb") for s in range(n)), c)
    assert biased.p_value < 1e-6


def test_a_long_swap_chain_is_uniform_over_the_census():
    """One chain with few fresh draws, recorded every 40 steps (about four of its
    measured autocorrelation times), against every board of the census."""
    spec, rule, click = SMALL
    c = census(spec, rule, click)
    start = generate_no_guess(spec, rule, click, seed=1, method="perturb").layout
    chain = NoGuessChain(start, rule, click, np.random.default_rng(2), jump=JUMP)
    chain.run(400)
    thin, n = 40, 5 * len(c.boards)
    sample = []
    for _ in range(n):
        chain.run(thin)
        sample.append(chain.layout())
    f = uniformity(sample, c)
    assert f.p_value > 0.01, (f.chi2, f.df)
    assert f.tv < 0.25  # a perfect sampler leaves about sqrt(K / n) / 2: 0.2 here


def test_every_board_visited_is_no_guess_by_the_python_loop(monkeypatch):
    spec, rule, click = Spec(6, 6, 9), "safe", (0, 0)
    start = generate_no_guess(spec, rule, click, seed=5).layout
    chain = NoGuessChain(start, rule, click, np.random.default_rng(6))
    seen = set()
    for _ in range(150):
        if chain.step():
            seen.add(chain.layout().mines.tobytes())
    monkeypatch.setattr(fastplay, "_fastplay", None)  # the Python loop decides
    assert len(seen) > 20
    g = spec.geometry
    for mines in seen:
        layout = type(start)(g, np.frombuffer(mines, dtype=bool))
        assert not layout.mines[g.cell(click)]
        assert verify(layout, click).solved


def test_same_seed_same_board_and_refusals():
    spec, rule, click = Spec(9, 9, 20), "opening", (4, 4)
    a = generate_no_guess(spec, rule, click, seed=11, method="uniform", retry_first=0)
    b = generate_no_guess(spec, rule, click, seed=11, method="uniform", retry_first=0)
    assert a.layout == b.layout and a.steps == b.steps > 0 and a.sampling == b.sampling
    assert verify(a.layout, click).solved
    with pytest.raises(InputError, match="winxp"):
        generate_no_guess(spec, "winxp", click, seed=1, method="uniform")
    stuck = generate_no_guess(spec, rule, click, seed=3, method="perturb").layout
    with pytest.raises(InputError, match="winxp"):
        NoGuessChain(stuck, "winxp", click, np.random.default_rng(1))
    g = spec.geometry
    drawn = (place_mines(g, 20, rule, click, s) for s in range(100))
    not_no_guess = next(lay for lay in drawn if not verify(lay, click).solved)
    with pytest.raises(InputError, match="not a no-guess board"):
        NoGuessChain(not_no_guess, rule, click, np.random.default_rng(1))


def test_autocorrelation_time_of_known_series():
    rng = np.random.default_rng(8)
    # AR(1) with coefficient r has integrated time (1 + r) / (1 - r)
    r, x = 0.8, [0.0]
    for e in rng.standard_normal(40_000):
        x.append(r * x[-1] + e)
    assert 7.0 < autocorrelation_time(x) < 11.0
    assert math.isnan(autocorrelation_time([1, 2, 3]))


def test_the_rule_cells_stay_free():
    spec, rule, click = Spec(8, 8, 12), "opening", (3, 3)
    g = spec.geometry
    banned = list(FirstClickRule.OPENING.excluded(g, g.cell(click)))
    start = generate_no_guess(spec, rule, click, seed=9).layout
    chain = NoGuessChain(start, rule, click, np.random.default_rng(10), jump=0.2)
    for _ in range(300):
        chain.step()
        assert not chain.layout().mines[banned].any()
        assert chain.layout().mine_count == 12


def test_bulk_samples_are_uniform_and_diagnosed():
    spec, rule, click = SPLIT
    c = census(spec, rule, click)
    s = sample_no_guess(spec, rule, click, 12 * len(c.boards), seed=21, chains=4)
    assert len(s.boards) == 12 * len(c.boards) and s.chains == 4
    assert s.bound is not None and len(s.burn_in) == len(s.thin) == 4
    f = uniformity(s.boards, c)
    assert f.p_value > 0.01, (f.chi2, f.df)
    assert set(s.effective) == set(s.rhat) == {"edge", "bbbv", "opening"}
    assert all(0.9 < r < 1.1 for r in s.rhat.values())
    again = sample_no_guess(spec, rule, click, 16, seed=21, chains=4)
    # the same seed gives each chain the same run: chain 1's first boards do not depend on n
    assert [b.mines.tobytes() for b in again.boards[:4]] == [b.mines.tobytes() for b in s.boards[:4]]
    with pytest.raises(InputError, match="two chains"):
        sample_no_guess(spec, rule, click, 16, seed=1, chains=1)
    with pytest.raises(InputError, match="winxp"):
        sample_no_guess(spec, "winxp", click, 16, seed=1)


def test_a_board_too_wide_for_the_compiled_structure_search():
    """Rows wider than the compiled dead-structure search takes: the verifier decides
    (a chain from a no-guess start once refused it as not no-guess)."""
    spec, rule, click = Spec(fastplay.MAX_ROW + 2, 6, 40), "opening", (30, 3)
    start = generate_no_guess(spec, rule, click, seed=1, method="perturb").layout
    assert verify(start, click).solved
    chain = NoGuessChain(start, rule, click, np.random.default_rng(2))
    trace = chain.run(60)
    assert trace.swaps_accepted > 0 and trace.steps == 60
    assert verify(chain.layout(), click).solved
    board = generate_no_guess(spec, rule, click, seed=3, method="uniform", retry_first=0, steps=50)
    assert verify(board.layout, click).solved


def _walk(spec, rule, click, seed, steps, compiled, *, jump=None, every=0, deadline=None, **options):
    """A chain's run, by the compiled steps or by :meth:`NoGuessChain.step` alone: its
    trace, where it ends, and the next word of its bit generator."""
    start = generate_no_guess(spec, rule, click, seed=seed, method="perturb", **options).layout
    chain = NoGuessChain(start, rule, click, np.random.default_rng(seed + 1), **options)
    if not compiled:
        chain._compiled = lambda: False
    trace = chain.run(steps, jump=jump, every=every, deadline=deadline)
    return (trace, chain.layout(), chain._mine_cells, chain._free_cells, chain.edge,
            int(chain.rng.bit_generator.random_raw()))


@pytest.mark.parametrize("spec, rule, click, steps, jump, every, options", [
    (Spec(30, 16, 170), "opening", (15, 8), 300, None, 0, {}),
    (Spec(30, 16, 130), "opening", (15, 8), 200, None, 7, {}),
    (Spec(9, 9, 10), "opening", (4, 4), 300, PILOT_JUMP, 0, {}),
    (Spec(9, 9, 10), "safe", (4, 4), 200, 1.0, 0, {"use_total": False}),
    (Spec(9, 9, 12), "uniform", (0, 0), 300, 0.1, 3, {}),  # a swap may put a mine on the click
    (Spec(16, 16, 40), "opening", (3, 3), 300, 0.0, 0, {"solver": "single-point"}),
    (Spec(16, 16, 50), "opening", (3, 3), 300, 0.2, 0, {"use_total": False}),
    (Spec(5, 5, 5), "opening", (2, 2), 400, JUMP, 10, {}),
    (Spec(12, 12, 30), "opening", (6, 6), 300, 1.0, 0, {}),  # fresh draws only, most refused
    (Spec(8, 8, 12), "safe", (0, 0), 300, 0.5, 0, {"solver": "single-point", "use_total": False}),
])
def test_the_compiled_steps_are_the_python_steps(spec, rule, click, steps, jump, every, options):
    """The compiled loop reads the same words and walks the same boards as step()."""
    for seed in range(3):
        python = _walk(spec, rule, click, seed, steps, False, jump=jump, every=every, **options)
        compiled = _walk(spec, rule, click, seed, steps, True, jump=jump, every=every, **options)
        assert python[0].steps == steps
        assert compiled == python


def test_compiled_steps_leave_to_python_what_the_compiled_play_gives_up(monkeypatch):
    """A step whose compiled play passes its node budget is made by step() (whose
    verifier then plays in Python), and the walk is the same."""
    import mscsp.play.chain as chain_module

    spec, rule, click = Spec(9, 9, 14), "opening", (4, 4)
    python = _walk(spec, rule, click, 4, 150, False, jump=0.1)
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return verify(*args, **kwargs)

    monkeypatch.setattr(fastplay, "NODE_LIMIT", 1)
    monkeypatch.setattr(chain_module, "verify", counted)
    compiled = _walk(spec, rule, click, 4, 150, True, jump=0.1)
    assert len(calls) > 20
    assert compiled == python


def test_compiled_steps_keep_the_deadline_checks():
    """A passed deadline stops both runs at the same step (the 64th is not made)."""
    spec, rule, click = Spec(9, 9, 10), "opening", (4, 4)
    python = _walk(spec, rule, click, 2, 500, False, deadline=0.0)
    compiled = _walk(spec, rule, click, 2, 500, True, deadline=0.0)
    assert python[0].steps == 63
    assert compiled == python


def test_compiled_steps_on_a_board_with_holes():
    """Holes are nobody's neighbours: the compiled pairs of clues must not count them."""
    from mscsp.board import Geometry

    g = Geometry(12, 9, holes={25, 26, 37, 38, 60, 61, 62, 90})
    click = (1, 1)
    drawn = (place_mines(g, 14, "opening", click, s) for s in range(2000))
    start = next(lay for lay in drawn if verify(lay, click).solved)
    walks = []
    for compiled in (False, True):
        chain = NoGuessChain(start, "opening", click, np.random.default_rng(3))
        if not compiled:
            chain._compiled = lambda: False
        trace = chain.run(600, jump=0.2)
        walks.append((trace, chain.layout(), chain._mine_cells, chain._free_cells,
                      int(chain.rng.bit_generator.random_raw())))
    assert walks[0][0].swaps_accepted > 100 and walks[0][0].draws_accepted > 10
    assert walks[1] == walks[0]


def test_an_extension_without_the_chain_loop_leaves_the_steps_to_python(monkeypatch):
    """A compiled module built before the chain loop: step() makes every step, the same walk."""
    spec, rule, click = Spec(9, 9, 10), "opening", (4, 4)
    compiled = _walk(spec, rule, click, 1, 200, True, jump=0.3)

    class Older:
        def __getattr__(self, name):
            if name == "chain":
                raise AttributeError(name)
            return getattr(real, name)

    real = fastplay._fastplay
    monkeypatch.setattr(fastplay, "_fastplay", Older())
    calls = []
    original = NoGuessChain.step
    monkeypatch.setattr(NoGuessChain, "step", lambda self: calls.append(1) or original(self))
    older = _walk(spec, rule, click, 1, 200, True, jump=0.3)
    assert len(calls) == 200
    assert older == compiled
