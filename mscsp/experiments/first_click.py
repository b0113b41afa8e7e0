"""First-click opening odds: exact closed forms against Monte Carlo, per-cell maps.

Reproduces and extends the reference article's first table (Sheng 2026): for the
centre click of Beginner, Intermediate and Expert, the exact probability that the
first click opens a region under the ``uniform``, ``safe`` and ``winxp`` rules
(:mod:`mscsp.odds`; the article left ``winxp`` open), against the share of simulated
boards that open, with Wilson 95% intervals, the difference, its z-score and a global
goodness-of-fit line. Then the exact opening probability of every cell under each
rule (heat maps), compared with Kostka's published ranges, and the best first click.

The simulation places mines exactly as the rules do, vectorised over a block of
boards: Floyd's algorithm draws each board's mines (uniform ``M``-subsets), the winxp
relocation moves a clicked mine to the first free cell in scan order. ``--rng
article`` instead replays the article's own script (Python's ``random`` seeded with
42, ``random.sample`` over the allowed cells in index order), so its printed table
comes out digit for digit.

    python experiments/first_click.py --samples 200000 --seed 42 --jobs 2 --out results/first_click
"""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..board import PRESETS, Geometry, Spec
from ..odds import opening_map, opening_probability
from ..rules import FirstClickRule
from ..stats import chi2_sf, wilson, z_score
from .cli import experiment_parser, finish, run_units
from .output import markdown_table, summary_row
from .runner import Chunk, Unit, block_seed, merge_counts

NAME = "first_click"
SIZES = ["beginner", "intermediate", "expert"]
RULES = ["uniform", "safe", "winxp"]
CHUNK = 10_000
KOSTKA = {"beginner": (0.19, 0.60), "intermediate": (0.21, 0.60), "expert": (0.12, 0.50)}


def simulate_openings(geometry: Geometry, mines: int, rule: str, click: int, boards: int,
                      rng: np.random.Generator) -> int:
    """How many of ``boards`` simulated first clicks open a region (vectorised).

    Examples
    --------
    >>> g = Geometry(9, 9)
    >>> simulate_openings(g, 10, "opening", 40, 100, np.random.default_rng(0))
    100
    """
    rule = FirstClickRule.parse(rule)
    cells = geometry.cells
    excluded = set(rule.excluded(geometry, click))
    population = np.array([c for c in cells.tolist() if c not in excluded])
    n = population.size
    rows = np.arange(boards)
    chosen = np.zeros((boards, n), dtype=bool)
    for j in range(n - mines, n):  # Floyd: a uniform mines-subset of range(n)
        t = rng.integers(0, j + 1, size=boards)
        pick = np.where(chosen[rows, t], j, t)
        chosen[rows, pick] = True
    mine = np.zeros((boards, geometry.area), dtype=bool)
    mine[:, population] = chosen
    block = list(geometry.closed_neighbourhood(click))
    if rule is FirstClickRule.WINXP:
        hit = mine[:, click].copy()
        if hit.any():
            idx = np.flatnonzero(hit)
            sub = mine[idx][:, cells]
            sub[:, np.searchsorted(cells, click)] = True  # the click is not a free cell
            target = cells[np.argmin(sub, axis=1)]
            mine[idx, click] = False
            mine[idx, target] = True
    return int((~mine[:, block].any(axis=1)).sum())


def _work(chunk: Chunk) -> dict:
    spec = Spec(**chunk.params["spec"])
    g = spec.geometry
    rng = np.random.Generator(np.random.PCG64(block_seed(chunk)))
    click = g.index(*chunk.params["click"])
    hits = simulate_openings(g, spec.mines, chunk.params["rule"], click, chunk.stop - chunk.start, rng)
    return {"n": chunk.stop - chunk.start, "k": hits}


def _units(samples: int) -> list[Unit]:
    units = []
    for size in SIZES:
        spec = PRESETS[size]
        click = (spec.width // 2, spec.height // 2)
        for rule in RULES:
            units.append(Unit(f"{size}/{rule}", {"spec": spec.__dict__, "size": size, "rule": rule,
                                                 "click": click}, samples))
    return units


def _rows(units: list[Unit], counts: list[dict]) -> pd.DataFrame:
    rows = []
    for unit, c in zip(units, counts):
        spec = Spec(**unit.params["spec"])
        g = spec.geometry
        x, y = unit.params["click"]
        exact = float(opening_probability(g, spec.mines, unit.params["rule"], (x, y)))
        n, k = c["n"], c["k"]
        low, high = wilson(k, n)
        rows.append(summary_row(unit.params["size"], spec, unit.params["rule"], (x, y), n, k, solver="none",
                                exact=exact, delta=k / n - exact, z=z_score(k, n, exact),
                                covers_exact=low <= exact <= high))
    return pd.DataFrame(rows)


def _maps(extra_boards: dict[str, Spec]) -> tuple[pd.DataFrame, dict]:
    """Per-cell exact opening odds for every rule and size; summary and figures.

    Each figure is the paper's full width (:mod:`mscsp.experiments.figures`), its
    three panels on one colour scale that ends at the largest value drawn.
    """
    from matplotlib.lines import Line2D

    from .figures import LINEWIDTH_IN, figure

    rows = []
    figures = {}
    for size, spec in extra_boards.items():
        g = spec.geometry
        grids, stars = {}, {}
        for rule in RULES:
            m = opening_map(g, spec.mines, rule)
            grids[rule] = np.array([float(p) for p in m.values()]).reshape(g.height, g.width)  # row order
            bx, by = max(m, key=lambda xy: (m[xy], -g.index(*xy)))  # ties to the first in row order
            wx, wy = min(m, key=lambda xy: (m[xy], g.index(*xy)))
            best_cell, worst_cell = (bx, by), (wx, wy)
            # every cell that shares the best odds is starred, not the first of a tie
            stars[rule] = [xy for xy in m if m[xy] == m[best_cell]]
            kostka = KOSTKA.get(size, (None, None))
            rows.append({
                "board": size, "width": spec.width, "height": spec.height, "mines": spec.mines, "rule": rule,
                "min": float(m[worst_cell]), "min_x": wx, "min_y": wy,
                "max": float(m[best_cell]), "best_x": bx, "best_y": by,
                "centre": float(m[(spec.width // 2, spec.height // 2)]),
                "kostka_min": kostka[0], "kostka_max": kostka[1],
            })
        top = max(float(v.max()) for v in grids.values())
        # three panels and a colour bar across the line width; the panel height follows the board
        panel = (LINEWIDTH_IN - 1.3) / len(RULES)
        fig, axes = figure(1.0, panel * g.height / g.width + 0.95, ncols=len(RULES), sharey=True)
        for ax, rule in zip(axes, RULES):
            im = ax.imshow(grids[rule], cmap="viridis", vmin=0, vmax=top)
            ax.set_title(f"{rule} rule")
            step = 5 if max(g.width, g.height) > 10 else 2
            ax.set_xticks(range(0, g.width, step))
            ax.set_yticks(range(0, g.height, step))
            ax.set_xlabel("column x")
            ax.plot([x for x, _ in stars[rule]], [y for _, y in stars[rule]], linestyle="none", marker="*",
                    color="white", markeredgecolor="black", markeredgewidth=0.5, markersize=8)
        axes[0].set_ylabel("row y")
        bar = fig.colorbar(im, ax=axes, shrink=0.9, pad=0.02)
        bar.set_label("P(first click opens)")
        bar.set_ticks(np.arange(0, top + 1e-9, 0.1))
        star = Line2D([], [], linestyle="none", marker="*", color="white", markeredgecolor="black",
                      markeredgewidth=0.5, markersize=8)
        fig.legend([star], ["the cells with the best odds"], loc="outside lower center")
        figures[f"opening_map_{size}"] = fig
    return pd.DataFrame(rows), figures


def article_table(samples: int = 200_000, seed: int = 42) -> pd.DataFrame:
    """The article's Monte Carlo, replayed with its own random stream.

    ``random.seed(seed)``; for each size in table order and each of its two rules,
    ``samples`` calls of ``random.sample(pool, M)`` with the pool in index order, the
    click being the centre cell. Our rules and geometry decide each board.
    """
    rng = random.Random(seed)
    rows = []
    for size in SIZES:
        spec = PRESETS[size]
        g = spec.geometry
        click = g.index(spec.width // 2, spec.height // 2)
        block = set(g.closed_neighbourhood(click))
        for rule in ("uniform", "safe"):
            pool = list(range(g.area)) if rule == "uniform" else [i for i in range(g.area) if i != click]
            hits = 0
            for _ in range(samples):
                mines = rng.sample(pool, spec.mines)
                hits += not block.intersection(mines)
            exact = float(opening_probability(g, spec.mines, rule, g.coords(click)))
            p = hits / samples
            low, high = wilson(hits, samples)
            rows.append(summary_row(size, spec, rule, (spec.width // 2, spec.height // 2), samples, hits,
                                    solver="none", exact=exact, delta=p - exact, z=z_score(hits, samples, exact),
                                    ci95_normal=1.96 * math.sqrt(p * (1 - p) / samples)))
    return pd.DataFrame(rows)


def article_lines(df: pd.DataFrame) -> str:
    """The table exactly as the article's script printed it."""
    names = {"beginner": "Beginner 9x9, 10 mines", "intermediate": "Intermediate 16x16, 40",
             "expert": "Expert 30x16, 99"}
    rules = {"uniform": "random board", "safe": "click excluded"}
    out = [f"{'board':24s} {'rule':22s} {'exact':>7} {'MC':>7} {'CI95':>7} {'delta':>7}"]
    for _, r in df.iterrows():
        out.append(f"{names[r['board']]:24s} {rules[r['rule']]:22s} {r['exact']:7.4f} {r['p']:7.4f} "
                   f"{r['ci95_normal']:7.4f} {r['p'] - r['exact']:+7.4f}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=200_000, seed=42, quick=2_000, article=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    if args.rng == "article":
        df = article_table(args.samples, args.seed)
        text = article_lines(df)
        md = (f"# First-click opening odds — the article's random stream\n\n"
              f"`random.seed({args.seed})`, {args.samples} boards per row, centre click.\n\n```text\n{text}```\n\n"
              + markdown_table(df))
        print(text, end="")
        finish(out, NAME, args, {"summary": df}, md, started)
        return 0
    units = _units(args.samples)
    parts = run_units(NAME, units, _work, args, CHUNK, "board")
    df = _rows(units, [merge_counts(p) for p in parts])
    chi2 = float((df["z"] ** 2).sum())
    gof = chi2_sf(chi2, len(df))
    maps, figures = _maps({**{s: PRESETS[s] for s in SIZES}, "beginner 8x8": Spec(8, 8, 10)})
    cols = ["board", "rule", "click_x", "click_y", "n", "k", "p", "low", "high", "exact", "delta", "z"]
    md = [
        "# First-click opening odds\n",
        f"Centre click, {args.samples} simulated boards per row (seed {args.seed}); `exact` is the closed form "
        "(`mscsp.odds`), `low`/`high` the Wilson 95% interval of `p`, `z` the error in standard errors.\n",
        markdown_table(df, columns=cols),
        f"\nGlobal goodness of fit: chi-square = {chi2:.2f} on {len(df)} degrees of freedom, p = {gof:.3f} "
        f"({int(df['covers_exact'].sum())} of {len(df)} intervals cover the exact value).\n",
        "\n## Every cell as first click (exact)\n",
        "`min`/`max` over the board and where; Kostka's published ranges beside them. Kostka's figures are the "
        "`winxp` rule's, and his Beginner is the older 8x8 board with 10 mines (row `beginner 8x8`).\n",
        markdown_table(maps, columns=["board", "rule", "min", "min_x", "min_y", "max", "best_x", "best_y",
                                      "centre", "kostka_min", "kostka_max"], digits=3),
    ]
    print(markdown_table(df, columns=cols), end="")
    print(f"goodness of fit: chi2 = {chi2:.2f}, df = {len(df)}, p = {gof:.3f}")
    fit = pd.DataFrame([{"rows": len(df), "chi2": chi2, "df": len(df), "p": gof,
                         "covered": int(df["covers_exact"].sum()), "max_abs_z": float(df["z"].abs().max())}])
    finish(out, NAME, args, {"summary": df, "maps": maps, "fit": fit}, "\n".join(md), started, figures,
           extra={"goodness_of_fit": {"chi2": chi2, "df": len(df), "p": gof}})
    return 0

