"""The layout chain's windows: the compiled draws against the Python reference, and the
target left invariant, tested against layouts enumerated by brute force."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from conftest import benchmark, require_built

from mscsp.analysis.constraints import build_constraints
from mscsp.analysis.counting.montecarlo import windows as W
from mscsp.analysis.counting.montecarlo.blocks import build_model
from mscsp.analysis.counting.montecarlo.smc import rest_of_board
from mscsp.analysis.counting.montecarlo.start import witness_values
from mscsp.analysis.counting.exact.variables import build_problem
from mscsp.budget import Budget
from mscsp.position import parse_position


def _model(text: str):
    position = parse_position(text)
    system = build_constraints(position)
    components = list(system.components)
    problems = [build_problem(system, c) for c in components]
    rest = rest_of_board([], system.unconstrained, system.remaining, sum(p.ncells for p in problems))
    model = build_model(problems)
    return position, system, components, model, rest.log_weights(model.ncells)


def _brute_force(position):
    """Every layout of the covered cells next to a clue that fits every clue (and the
    total, where the cells away from the clues can take the rest), with its weight:
    the number of ways to place the rest among the cells away from every clue."""
    g = position.geometry
    grid = [[int(position.grid[y * g.width + x]) for x in range(g.width)] for y in range(g.height)]
    clues = [(x, y, int(v)) for y, row in enumerate(grid) for x, v in enumerate(row) if 0 <= v <= 8]
    covered = [(x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if not 0 <= v <= 8]

    def near(a, b):
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1

    frontier = [c for c in covered if any(near(c, (x, y)) for x, y, _ in clues)]
    away = len(covered) - len(frontier)
    bits = (np.arange(1 << len(frontier))[:, None] >> np.arange(len(frontier))[None, :]) & 1
    touch = np.asarray([[near(c, (x, y)) for x, y, _ in clues] for c in frontier], dtype=np.int64)
    fits = (bits @ touch == np.asarray([n for _, _, n in clues])[None, :]).all(axis=1)
    out = {}
    for row in bits[fits].tolist():
        mines = [c for c, b in zip(frontier, row) if b]
        rest = position.mines - len(mines) if position.mines is not None else None
        weight = 1 if rest is None else math.comb(away, rest) if 0 <= rest <= away else 0
        if weight:
            out[frozenset(y * g.width + x for x, y in mines)] = weight
    return out


SMALL = ["mines: 5\n1.2.1.1\n.......\n2.3.2.1\n.......\n",
         "1.2.1.1\n.......\n2.3.2.1\n.......\n",
         "mines: 7\n.1.2.1.\n2.....1\n..3.2..\n1......\n",
         # cells away from every clue: the window's mine count moves, weighed by the rest
         "mines: 9\n1.2.1.\n......\n2.3.2.\n......\n......\n......\n"]


@pytest.mark.skipif(not W.COMPILED, reason="the compiled window sampler was not built")
@pytest.mark.parametrize("case", ["small", "lattice"])
def test_the_compiled_draws_are_the_python_draws(case):
    if case == "small":
        text = SMALL[0]
    else:
        text = benchmark("stress").no_zero_lattice(14, 8, 40, seed=3)
    position, system, components, model, log_rest = _model(text)
    windows = W.build_windows(model, 2)
    n = 3
    streams = [np.random.default_rng(c) for c in np.random.SeedSequence(4).spawn(n + 1)]
    starts = witness_values(model, system, components, Budget.of(20), total=True, count=n, rng=streams[-1])
    x0 = np.zeros((n, model.size + 1), dtype=np.int64)
    x0[:, : model.size] = np.asarray(starts)[np.arange(n) % len(starts)]
    k0 = model.mines[np.arange(model.size)[None, :], x0[:, : model.size]].sum(axis=1)
    s0 = W.seed_states(streams[:-1])
    runs = []
    for compiled in (True, False):
        x, k, s = x0.copy(), k0.copy(), s0.copy()
        outcomes = [W.step_windows(windows, i % windows.classes, x, k, log_rest, s, compiled=compiled)
                    for i in range(3 * windows.classes)]
        runs.append((x, k, s, outcomes))
    (xc, kc, sc, oc), (xp, kp, sp, op) = runs
    assert oc == op and sum(o[0] for o in oc) > 0  # and some draws were taken
    assert (xc == xp).all() and (kc == kp).all() and (sc == sp).all()
    assert (xc != x0).any()


def _critical(df: int, z: float = 3.72) -> float:
    """The chi-square quantile at 1 - 1e-4 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("text,piece", [(t, None) for t in SMALL] + [(t, 5) for t in SMALL[1:]])
def test_a_window_step_keeps_the_layouts_distribution(text, piece):
    """Chains started from exact draws (by brute force over the cells) are still
    distributed so after each class of windows: a chi-square test over the mines of
    every kind of cell (cells that share a variable and its clues). With pieces of
    three variables, the windows of a class overlap and are drawn one after another."""
    position, system, components, model, log_rest = _model(text)
    exact = _brute_force(position)
    kinds = [tuple(kind) for kind in model.kinds]
    sizes = np.asarray([len(kind) for kind in kinds])

    def per_kind(layout) -> tuple[int, ...]:
        return tuple(sum(c in layout for c in kind) for kind in kinds)

    weights: dict[tuple[int, ...], int] = {}
    for layout, w in exact.items():
        weights[per_kind(layout)] = weights.get(per_kind(layout), 0) + w
    classes = sorted(weights)
    p = np.asarray([weights[a] for a in classes], dtype=float)
    p /= p.sum()

    def values(mines: tuple[int, ...]) -> np.ndarray:
        row = np.zeros(model.size + 1, dtype=np.int64)
        for v in range(model.size):
            mine = [j for j in range(len(kinds)) if model.kind_var[j] == v]
            fits = [o for o in range(model.options[v])
                    if all(round(model.fraction[v, o, model.kind_slot[j]] * sizes[j]) == mines[j] for j in mine)]
            row[v] = fits[0]
        return row

    def kinds_of(x: np.ndarray) -> list[tuple[int, ...]]:
        held = model.fraction[model.kind_var[None, :], x[:, model.kind_var], model.kind_slot[None, :]]
        return [tuple(r) for r in np.rint(held * sizes[None, :]).astype(int).tolist()]

    n = 10_000
    rng = np.random.default_rng(11)
    rows = {a: values(a) for a in classes}
    x = np.stack([rows[classes[j]] for j in rng.choice(len(classes), size=n, p=p)])
    k = model.mines[np.arange(model.size)[None, :], x[:, : model.size]].sum(axis=1)
    states = W.seed_states([np.random.default_rng(c) for c in np.random.SeedSequence(8).spawn(n)])
    windows = W.build_windows(model, 2, piece=piece)
    index = {a: j for j, a in enumerate(classes)}
    moved = 0.0
    for i in range(windows.classes):
        before = x.copy()
        W.step_windows(windows, i, x, k, log_rest, states)
        moved = max(moved, float((before != x).any(axis=1).mean()))
        found = kinds_of(x)
        assert all(f in index for f in found)  # every clue (and the total) still holds
        counts = np.bincount([index[f] for f in found], minlength=len(classes))
        expected = n * p
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < _critical(len(classes) - 1), (i, chi2, len(classes))
        assert (k == model.mines[np.arange(model.size)[None, :], x[:, : model.size]].sum(axis=1)).all()
    assert moved > (0.2 if piece is None else 0.05)  # the windows did move the chains


def test_the_compiled_windows_are_built_where_required():
    """MSCSP_REQUIRE_FASTPLAY=1 (CI sets it) requires every C accelerator built."""
    require_built(W.COMPILED, "the compiled window sampler")


@pytest.mark.skipif(not W.COMPILED, reason="the compiled window sampler was not built")
def test_the_compiled_draws_refuse_values_out_of_range():
    position, system, components, model, log_rest = _model(SMALL[2])
    windows = W.build_windows(model, 2)
    x = np.zeros((1, model.size + 1), dtype=np.int64)
    x[0, 0] = 99  # no variable has a hundred values
    k = np.zeros(1, dtype=np.int64)
    states = W.seed_states([np.random.default_rng(0)])
    with pytest.raises(ValueError):
        W.step_windows(windows, 0, x, k, log_rest, states, compiled=True)


@pytest.mark.parametrize("compiled", [False, True] if W.COMPILED else [False])
def test_a_walk_moves_the_mine_count_its_way_and_leaves_the_other_chains(compiled):
    position, system, components, model, log_rest = _model(SMALL[1])  # no total: any count
    windows = W.build_windows(model, 2)
    start = witness_values(model, system, components, Budget.of(20), total=False, count=1,
                           rng=np.random.default_rng(0))[0]
    x = np.zeros((3, model.size + 1), dtype=np.int64)
    x[:, : model.size] = start
    k = model.mines[np.arange(model.size)[None, :], x[:, : model.size]].sum(axis=1)
    k0 = k.copy()
    states = W.seed_states([np.random.default_rng(c) for c in np.random.SeedSequence(2).spawn(3)])
    for i in range(2 * windows.classes):
        W.step_windows(windows, i % windows.classes, x, k, log_rest, states, compiled=compiled,
                       direction=np.array([1, -1, 0]), goal=np.array([99, -1, 0]), tilt=3.0)
        assert (k == model.mines[np.arange(model.size)[None, :], x[:, : model.size]].sum(axis=1)).all()
    assert k[0] > k0[0] and k[1] < k0[1] and k[2] == k0[2]
    assert (x[2, : model.size] == start).all()


@pytest.mark.skipif(not W.COMPILED, reason="the compiled window sampler was not built")
def test_a_compiled_walk_is_the_python_walk():
    position, system, components, model, log_rest = _model(SMALL[3])
    windows = W.build_windows(model, 2)
    start = witness_values(model, system, components, Budget.of(20), total=False, count=1,
                           rng=np.random.default_rng(1))[0]
    runs = []
    for compiled in (True, False):
        x = np.zeros((2, model.size + 1), dtype=np.int64)
        x[:, : model.size] = start
        k = model.mines[np.arange(model.size)[None, :], x[:, : model.size]].sum(axis=1)
        states = W.seed_states([np.random.default_rng(c) for c in np.random.SeedSequence(3).spawn(2)])
        for i in range(4):
            W.step_windows(windows, i % windows.classes, x, k, log_rest, states, compiled=compiled,
                           direction=np.array([1, -1]), goal=np.array([99, -1]), tilt=0.7)
        runs.append((x, k, states))
    assert all((a == b).all() for a, b in zip(*runs))


def test_long_bands_are_cut_into_pieces_twice_and_every_variable_is_in_one():
    text = benchmark("stress").no_zero_lattice(14, 8, 40, seed=3)
    *_, model, _ = _model(text)
    whole = W.build_windows(model, 2)
    cut = W.build_windows(model, 2, piece=8)
    assert max(max(whole.sizes(i)) for i in range(whole.classes)) > 8
    assert all(max(cut.sizes(i)) <= 8 for i in range(cut.classes))
    # each class of pieces holds variables of one class of whole bands, and all of them
    bands = [set(v.tolist()) for v in whole.variable]
    assert all(any(set(v.tolist()) <= band for band in bands) for v in cut.variable)
    assert set(np.concatenate(cut.variable).tolist()) == set(np.concatenate(whole.variable).tolist())
    assert cut.classes > whole.classes  # the cuts moved by half make classes of their own


@pytest.mark.parametrize("compiled", [False, True] if W.COMPILED else [False])
def test_a_walk_stops_at_its_goal(compiled):
    text = benchmark("stress").lattice(20, 10, 40, seed=3, total=False)  # no total: any count
    position, system, components, model, log_rest = _model(text)
    windows = W.build_windows(model, 2, piece=6)
    start = witness_values(model, system, components, Budget.of(20), total=False, count=1,
                           rng=np.random.default_rng(0))[0]
    x = np.zeros((1, model.size + 1), dtype=np.int64)
    x[:, : model.size] = start
    k = model.mines[np.arange(model.size)[None, :], x[:, : model.size]].sum(axis=1)
    goal = k + 2
    states = W.seed_states([np.random.default_rng(5)])
    taken = W.step_windows(windows, 0, x, k, log_rest, states, compiled=compiled, direction=np.array([1]),
                           goal=goal, tilt=5.0)[0]
    # the windows after the one that reached the goal were left alone
    assert goal[0] <= k[0] and taken < len(windows.sizes(0))


def test_the_orders_are_compared_by_the_work_their_full_plans_give():
    """Candidate orders are compared by :func:`_work` (a running product) and only the
    winner is planned in full: on every band of a lattice of clues and every candidate
    order, in pieces too, the bound is the one the full plan gives (None where the plan
    is refused), whatever each variable's most added to its clues is read from."""
    _, _, _, model, _ = _model(benchmark("stress").lattice(40, 40, 300, seed=3))
    most = W._most_adds(model)
    windows = W.build_windows(model, 2, piece=24)
    compared = 0
    for i in range(windows.classes):
        for a, b in zip(windows.starts[i], windows.starts[i][1:]):
            variables = windows.variable[i][a:b].tolist()
            for order in W._orders(model, variables):
                for part in (order, order[: len(order) // 2]):
                    plan = W._plan(model, part)
                    assert W._work(model, part, most) == (None if plan is None else plan[-1])
                    compared += 1
    assert compared > 100
