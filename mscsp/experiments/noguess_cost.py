"""No-guess generation: retries against perturbation, and what perturbation does to the boards.

For each board size and density, no-guess boards (complete deduction with the mine
total, opening at the centre) are generated with both methods of
:mod:`mscsp.play.noguess`: ``retry`` (rejection sampling: exactly uniform over no-guess
boards) and ``perturb`` (Tatham-style changes where the solver is stuck). Rows give
the share generated within the time limit (Wilson 95%), seconds per accepted board
(mean, median, p90), attempts and perturbations.

Perturbation changes the distribution of boards. On sizes where retries are cheap
enough to sample the uniform distribution, the experiment compares the two: the
mine density by distance to the edge (figure; single cells are too few
to show it) and the distribution of 3BV
(:func:`mscsp.metrics.bbbv`) — mean with its interval, median and the two-sample
Kolmogorov–Smirnov distance with its p-value — and the mine density on the border
against the interior. Beside them, boards drawn by the first-click rule alone
(``uniform``, the boards retry draws before it verifies one) are the baseline of
both measures.

The border measure leaves out the cells the first-click rule keeps free of mines
(the click and its neighbours): they are neither border nor interior. It is the
mean mine density of the remaining border cells over that of the remaining interior
cells, with a 95% interval from the per-board border mine counts (the mine total is
fixed, so the ratio is an increasing function of their mean). Boards with mines
spread uniformly over the cells the rule allows score exactly 1 in expectation.

    python experiments/noguess_cost.py --samples 200 --seed 42 --jobs 2 --out results/noguess_cost
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..board import Spec
from ..errors import GenerationError
from ..metrics import bbbv
from ..play.noguess import generate_no_guess
from ..rules import FirstClickRule, generate
from ..stats import ks_two_sample, mean_interval, standard_error
from .cli import experiment_parser, finish, run_units
from .output import Timings, markdown_table, split_timings, summary_row
from .runner import Chunk, Unit, sample_seeds

NAME = "noguess_cost"
CHUNK = 5
#: (label, spec, methods, share of --samples, seconds per board)
ROWS = [
    ("beginner", Spec(9, 9, 10), ("retry", "perturb"), 1.0, 30.0),
    ("intermediate", Spec(16, 16, 40), ("retry", "perturb"), 1.0, 30.0),
    ("expert", Spec(30, 16, 99), ("retry", "perturb"), 1.0, 60.0),
    ("30x16/130", Spec(30, 16, 130), ("retry",), 0.1, 60.0),
    ("30x16/130", Spec(30, 16, 130), ("perturb",), 1.0, 60.0),
    ("30x16/170", Spec(30, 16, 170), ("perturb",), 1.0, 60.0),
    ("30x16/200", Spec(30, 16, 200), ("perturb",), 1.0, 60.0),
    ("50x50/500", Spec(50, 50, 500), ("retry", "perturb"), 0.25, 60.0),
]
#: What names a row of the summary, and the columns that depend on the machine.
KEYS = ["board", "method"]
TIMING = ["mean_s", "median_s", "p90_s"]
QUICK_ROWS = [("beginner", Spec(9, 9, 10), ("retry", "perturb"), 1.0, 30.0)]
#: The rule every board here is made under; its forced-empty cells leave the border measure.
RULE = FirstClickRule.OPENING
#: Baseline boards per board size, as a multiple of --samples: they cost almost nothing,
#: and a tight baseline shows the border measure reads 1 on uniform boards.
UNIFORM_SHARE = 5.0
#: The paper prints the figure at this share of its line width.
WIDTH = 0.85


def _click(spec: Spec) -> tuple[int, int]:
    return spec.width // 2, spec.height // 2


def border_cells(spec: Spec, click: tuple[int, int], rule: FirstClickRule = RULE) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks (flat) of the border and interior cells that the border measure
    weighs: every cell but those ``rule`` keeps free of mines for ``click``.

    Examples
    --------
    >>> border, inner = border_cells(Spec(9, 9, 10), (4, 4))
    >>> int(border.sum()), int(inner.sum())  # 32 border cells; 49 inside, less the 3x3 opening
    (32, 40)
    """
    geometry = spec.geometry
    grid = np.zeros((spec.height, spec.width), dtype=bool)
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = True
    border = grid.ravel()
    allowed = np.ones(spec.width * spec.height, dtype=bool)
    allowed[list(rule.excluded(geometry, geometry.cell(click)))] = False
    return border & allowed, ~border & allowed


def border_ratio(border_mines: list[int], spec: Spec, click: tuple[int, int],
                 rule: FirstClickRule = RULE) -> tuple[float, float, float]:
    """The border density ratio of boards with ``border_mines[i]`` mines on the
    weighed border cells (see :func:`border_cells`), with its 95% interval:
    ``(ratio, low, high)``.

    Every board has ``spec.mines`` mines, all on weighed cells, so the interior of
    board ``i`` holds ``spec.mines - border_mines[i]``; the ratio
    ``(b / B) / ((M - b) / I)`` increases with the mean ``b``, and the interval is the
    mean's normal interval carried through it.

    Examples
    --------
    >>> spec = Spec(9, 9, 10)  # 32 border cells and 40 interior cells are weighed
    >>> border_ratio([4, 5, 4, 5], spec, (4, 4))[0] == (4.5 / 32) / (5.5 / 40)
    True
    """
    border, inner = border_cells(spec, click, rule)
    nb, ni = int(border.sum()), int(inner.sum())
    if not nb or not ni:
        raise ValueError(f"a {spec.width}x{spec.height} board with a click at {list(click)} leaves no "
                         f"{'border' if not nb else 'interior'} cell to weigh")

    def ratio(b: float) -> float:
        b = min(max(b, 0.0), float(spec.mines))
        return float("inf") if b >= spec.mines else (b / nb) / ((spec.mines - b) / ni)

    mean, low, high = mean_interval(border_mines)
    return ratio(mean), ratio(low), ratio(high)


def edge_distance(spec: Spec, click: tuple[int, int], rule: FirstClickRule = RULE) -> np.ndarray:
    """Each cell's distance to the nearest edge of the board (flat; 0 on the border),
    and -1 on the cells ``rule`` keeps free of mines for ``click``, as
    :func:`border_cells` leaves them out.

    Examples
    --------
    >>> ring = edge_distance(Spec(9, 9, 10), (4, 4))
    >>> np.bincount(ring[ring >= 0]).tolist()  # the opening covers the rings 3 and 4
    [32, 24, 16]
    """
    ys, xs = np.divmod(np.arange(spec.width * spec.height), spec.width)
    ring = np.minimum(np.minimum(xs, spec.width - 1 - xs), np.minimum(ys, spec.height - 1 - ys))
    ring[list(rule.excluded(spec.geometry, spec.geometry.cell(click)))] = -1
    return ring


def _work(chunk: Chunk) -> dict:
    p = chunk.params
    spec = Spec(**p["spec"])
    click = _click(spec)
    border, _ = border_cells(spec, click)
    ring = edge_distance(spec, click)
    rings = int(ring.max()) + 1
    seconds, attempts, perturbations, values, borders, failures = [], [], [], [], [], 0
    by_ring = []
    for ss in sample_seeds(chunk):
        started = time.perf_counter()
        rng = np.random.default_rng(ss)
        if p["method"] == "uniform":
            layout, tries, moved = generate(spec, RULE, click, rng).layout, 1, 0
        else:
            try:
                b = generate_no_guess(spec, RULE, click, rng, method=p["method"], time_limit=p["limit"])
            except GenerationError:
                failures += 1
                continue
            layout, tries, moved = b.layout, b.attempts, b.perturbations
        seconds.append(time.perf_counter() - started)
        attempts.append(tries)
        perturbations.append(moved)
        values.append(bbbv(layout))
        borders.append(int(layout.mines[border].sum()))
        by_ring.append(np.bincount(ring[layout.mines & (ring >= 0)], minlength=rings).tolist())
    return {"seconds": seconds, "attempts": attempts, "perturbations": perturbations, "bbbv": values,
            "border": borders, "rings": by_ring, "failures": failures}


def _combine(parts: list[dict]) -> dict:
    out = {"seconds": [], "attempts": [], "perturbations": [], "bbbv": [], "border": [], "rings": [], "failures": 0}
    for p in parts:
        for key in ("seconds", "attempts", "perturbations", "bbbv", "border", "rings"):
            out[key] += p[key]
        out["failures"] += p["failures"]
    return out


def _units(samples: int, rows) -> list[Unit]:
    units = []
    for label, spec, methods, share, limit in rows:
        for method in methods:
            units.append(Unit(f"{label}/{method}", {"label": label, "spec": spec.__dict__, "method": method,
                                                    "limit": limit}, max(1, round(samples * share))))
    # a baseline beside every size on which the two methods are compared
    methods: dict[str, set[str]] = {}
    specs: dict[str, Spec] = {}
    for label, spec, ms, *_ in rows:
        methods.setdefault(label, set()).update(ms)
        specs[label] = spec
    for label, ms in methods.items():
        if {"retry", "perturb"} <= ms:
            units.append(Unit(f"{label}/uniform", {"label": label, "spec": specs[label].__dict__,
                                                   "method": "uniform", "limit": None},
                              max(1, round(samples * UNIFORM_SHARE))))
    return units


def _tables(units: list[Unit], totals: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = []
    for unit, t in zip(units, totals):
        if unit.params["method"] == "uniform":
            continue  # a baseline for the comparison, not a way to make no-guess boards
        spec = Spec(**unit.params["spec"])
        k = len(t["seconds"])
        n = k + t["failures"]
        secs = np.array(t["seconds"]) if k else np.array([np.nan])
        ratio = border_ratio(t["border"], spec, _click(spec)) if k else (None, None, None)
        se = {key: standard_error(t[key]) if len(t[key]) > 1 else None for key in ("attempts", "perturbations", "bbbv")}
        rows.append(summary_row(
            unit.params["label"], spec, RULE.value, _click(spec), n, k, solver="sat+total",
            method=unit.params["method"], time_limit_s=unit.params["limit"],
            mean_s=float(np.nanmean(secs)), median_s=float(np.nanmedian(secs)),
            p90_s=float(np.nanpercentile(secs, 90)),
            mean_attempts=float(np.mean(t["attempts"])) if k else None,
            se_attempts=se["attempts"],
            mean_perturbations=float(np.mean(t["perturbations"])) if k else None,
            se_perturbations=se["perturbations"],
            mean_3bv=float(np.mean(t["bbbv"])) if k else None,
            se_3bv=se["bbbv"],
            border_density_ratio=ratio[0], border_ratio_low=ratio[1], border_ratio_high=ratio[2],
        ))
    summary = pd.DataFrame(rows)
    bias = []
    by_key = {(u.params["label"], u.params["method"]): (u, t) for u, t in zip(units, totals)}
    for (label, method), (unit, t) in by_key.items():
        if method != "uniform":
            continue
        spec = Spec(**unit.params["spec"])
        arms = {m: by_key[(label, m)][1] for m in ("uniform", "retry", "perturb")}
        if not all(a["bbbv"] for a in arms.values()):
            continue
        row = {"board": label}
        for m, a in arms.items():
            row[f"boards_{m}"] = len(a["bbbv"])
        for m, a in arms.items():
            row[f"mean_3bv_{m}"], row[f"mean_3bv_{m}_low"], row[f"mean_3bv_{m}_high"] = mean_interval(a["bbbv"])
        row["median_3bv_retry"] = float(np.median(arms["retry"]["bbbv"]))
        row["median_3bv_perturb"] = float(np.median(arms["perturb"]["bbbv"]))
        row["ks_distance_3bv"], row["ks_p_3bv"] = ks_two_sample(arms["retry"]["bbbv"], arms["perturb"]["bbbv"])
        for m, a in arms.items():
            row[f"border_ratio_{m}"], row[f"border_ratio_{m}_low"], row[f"border_ratio_{m}_high"] = \
                border_ratio(a["border"], spec, _click(spec))
        bias.append(row)
    return summary, pd.DataFrame(bias)


def _rings(units: list[Unit], totals: list[dict]) -> pd.DataFrame:
    """Mine density by distance to the edge, for every size on which the methods are
    compared: per method and ring (:func:`edge_distance`) the mean share of the
    ring's cells that hold a mine, with its standard error and 95% interval over the
    boards, and the same relative to mines spread uniformly over the cells the rule
    allows (1 in expectation for uniform boards)."""
    rows = []
    by_key = {(u.params["label"], u.params["method"]): (u, t) for u, t in zip(units, totals)}
    for (label, method), (unit, t) in by_key.items():
        arms = [(m, by_key.get((label, m))) for m in ("uniform", "retry", "perturb")]
        if method != "uniform" or not all(arm and len(arm[1]["rings"]) > 1 for _, arm in arms):
            continue
        spec = Spec(**unit.params["spec"])
        ring = edge_distance(spec, _click(spec))
        uniform = spec.mines / int((ring >= 0).sum())
        for m, (_, a) in arms:
            counts = np.array(a["rings"], dtype=float)
            for d in range(counts.shape[1]):
                cells = int((ring == d).sum())
                if not cells:
                    continue  # a ring the opening covers whole
                density = counts[:, d] / cells
                mean, low, high = mean_interval(density)
                rows.append({"board": label, "width": spec.width, "height": spec.height, "mines": spec.mines,
                             "method": m, "distance": d, "cells": cells, "boards": len(density),
                             "density": mean, "se": standard_error(density), "low": low, "high": high,
                             "relative": mean / uniform, "relative_low": low / uniform,
                             "relative_high": high / uniform})
    return pd.DataFrame(rows)


def _figure(rings: pd.DataFrame):
    """The mine density of each ring of cells relative to uniform, a panel per size,
    at the width the paper prints it (:mod:`mscsp.experiments.figures`)."""
    from .figures import figure

    # the three classic sizes and the densest board compared, where even retry boards lean to the border
    labels = [lab for lab in ("beginner", "intermediate", "expert", "30x16/130") if (rings["board"] == lab).any()]
    methods = ("uniform", "retry", "perturb")
    fig, axes = figure(WIDTH, 2.0 * ((len(labels) + 1) // 2) + 0.4, nrows=(len(labels) + 1) // 2,
                       ncols=min(2, len(labels)), sharey=True, squeeze=False)
    axes = axes.ravel()
    for ax, label in zip(axes, labels):
        part = rings[rings["board"] == label]
        ax.axhline(1.0, color="grey", linestyle=":", linewidth=0.8, label="mines spread uniformly")
        for j, method in enumerate(methods):
            arm = part[part["method"] == method]
            ax.errorbar(arm["distance"] + (j - 1) * 0.2, arm["relative"],
                        yerr=[arm["relative"] - arm["relative_low"], arm["relative_high"] - arm["relative"]],
                        fmt="o", markersize=3.5, capsize=1.5, elinewidth=0.8, color=f"C{j}",
                        label=f"{method}")
        first = part.iloc[0]
        size = f"{first['width']}\u00d7{first['height']}/{first['mines']}"
        ax.set_title(size if label.startswith(str(first["width"])) else f"{label} {size}")
        ax.set_xticks(sorted(part["distance"].unique()))
        ax.set_xlabel("distance to the edge")
    for ax in axes[len(labels):]:
        ax.axis("off")
    for ax in axes[::2]:
        ax.set_ylabel("mine density / uniform")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncol=len(names), columnspacing=1.2, handlelength=1.5)
    return fig


def _rings_text(rings: pd.DataFrame, samples: int) -> str:
    """The section of ``README.md`` on :func:`_rings`, its standard errors stated."""
    if not len(rings):
        return "(no pair of methods on the same board)\n"
    p = float(rings["density"].mean())
    arms = rings[rings["method"] != "uniform"]
    return "\n".join([
        f"One cell's mine frequency from {samples} boards has a standard error near "
        f"sqrt(p(1 - p)/{samples}) = {(p * (1 - p) / samples) ** 0.5:.3f} at p = {p:.2f}, as large as the shifts "
        "in question, so the cells are pooled by their distance to the nearest edge (0: the border), "
        "without the cells the first-click rule keeps free. `density` is the mean share of a ring's cells "
        "holding a mine, `se` its standard error over the boards and `low`/`high` its 95% interval; "
        "`relative` divides them by the mines per allowed cell, 1 in expectation for uniform boards "
        f"(`mine_frequency.png`). The retry and perturbation rows have standard errors from "
        f"{arms['se'].min():.4f} to {arms['se'].max():.4f}.\n",
        markdown_table(rings, columns=["board", "method", "distance", "cells", "boards", "density", "se",
                                       "relative", "relative_low", "relative_high"], digits=4),
        "![mine density by distance to the edge](mine_frequency.png)\n",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=200, seed=42, quick=4)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    units = _units(args.samples, QUICK_ROWS if args.quick else ROWS)
    parts = run_units(NAME, units, _work, args, CHUNK, "board")
    totals = [_combine(p) for p in parts]
    summary, bias = _tables(units, totals)
    rings = _rings(units, totals)
    summary, timing = split_timings(summary, KEYS, TIMING)
    cols = ["board", "method", "n", "k", "p", "low", "high", "mean_attempts", "se_attempts", "mean_perturbations",
            "se_perturbations", "mean_3bv", "se_3bv", "border_density_ratio", "border_ratio_low", "border_ratio_high"]
    md = "\n".join([
        "# No-guess generation: retries against perturbation\n",
        f"Per row up to {args.samples} boards (seed {args.seed}; fewer where retries are slow), opening at the "
        "centre, guarantee: complete deduction with the mine total. `p` is the share generated within "
        "`time_limit_s` per board (Wilson 95% in `low`/`high`). "
        "`se_*` are standard errors of the means. `border_density_ratio`: mean mine density on the border "
        "cells over that of the interior cells, both without the cells the first-click rule keeps free "
        "(the click and its neighbours), with its 95% interval (`border_ratio_low`/`_high`); 1 in "
        "expectation for boards whose mines are spread uniformly.\n",
        markdown_table(summary, columns=cols, digits=3),
        "\n## What perturbation does to the boards\n",
        "Retry boards are exactly uniform over the no-guess boards; perturbation is compared with them. "
        "`uniform` boards are drawn by the first-click rule alone (what retry draws before one verifies), "
        "the baseline of both measures. Means carry 95% intervals (`_low`/`_high`). `ks_distance_3bv` is the "
        "two-sample Kolmogorov–Smirnov distance between the retry and perturbation 3BV distributions, "
        "`ks_p_3bv` its asymptotic p-value (conservative: 3BV values tie).\n",
        markdown_table(bias, digits=3) if len(bias) else "(no pair of methods on the same board)\n",
        "\n## Mine density by distance to the edge\n",
        _rings_text(rings, args.samples),
    ])
    timing_md = "\n".join([
        "# No-guess generation: timings\n",
        "Seconds per accepted board: mean, median and 90th percentile.\n",
        markdown_table(timing, digits=4),
    ])
    print(markdown_table(summary, columns=cols, digits=3), end="")
    if len(bias):
        print(markdown_table(bias, digits=3), end="")
    print(markdown_table(timing, digits=4), end="")
    finish(out, NAME, args, {"summary": summary, "bias": bias, "rings": rings}, md, started,
           {"mine_frequency": _figure(rings)} if len(rings) else None, timings=Timings(timing, timing_md))
    return 0
