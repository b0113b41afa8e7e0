"""No-guess generation: retries against perturbation, and what perturbation does to the boards.

For each board size and density, no-guess boards (complete deduction with the mine
total, opening at the centre) are generated with both methods of
:mod:`mscsp.play.noguess`: ``retry`` (rejection sampling: exactly uniform over no-guess
boards) and ``perturb`` (Tatham-style changes where the solver is stuck). Rows give
the share generated within the time limit (Wilson 95%), seconds per accepted board
(mean, median, p90), attempts and perturbations.

Perturbation changes the distribution of boards. On sizes where retries are cheap
enough to sample the uniform distribution, the experiment compares the two: the
per-cell mine frequency maps (figure) and the distribution of 3BV
(:func:`mscsp.metrics.bbbv`) — mean, quartiles and the two-sample Kolmogorov–Smirnov
distance — and the mine density on the border against the interior.

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


def _work(chunk: Chunk) -> dict:
    p = chunk.params
    spec = Spec(**p["spec"])
    click = (spec.width // 2, spec.height // 2)
    seconds, attempts, perturbations, values, failures = [], [], [], [], 0
    mine_sum = np.zeros(spec.width * spec.height, dtype=np.int64)
    for ss in sample_seeds(chunk):
        started = time.perf_counter()
        try:
            b = generate_no_guess(spec, "opening", click, np.random.default_rng(ss), method=p["method"],
                                  time_limit=p["limit"])
        except GenerationError:
            failures += 1
            continue
        seconds.append(time.perf_counter() - started)
        attempts.append(b.attempts)
        perturbations.append(b.perturbations)
        values.append(bbbv(b.layout))
        mine_sum += b.layout.mines
    return {"seconds": seconds, "attempts": attempts, "perturbations": perturbations, "bbbv": values,
            "failures": failures, "mines": mine_sum.tolist()}


def _combine(parts: list[dict]) -> dict:
    out = {"seconds": [], "attempts": [], "perturbations": [], "bbbv": [], "failures": 0}
    mines = None
    for p in parts:
        for key in ("seconds", "attempts", "perturbations", "bbbv"):
            out[key] += p[key]
        out["failures"] += p["failures"]
        mines = np.array(p["mines"]) if mines is None else mines + np.array(p["mines"])
    out["mines"] = mines
    return out


def _units(samples: int, rows) -> list[Unit]:
    units = []
    for label, spec, methods, share, limit in rows:
        for method in methods:
            units.append(Unit(f"{label}/{method}", {"label": label, "spec": spec.__dict__, "method": method,
                                                    "limit": limit}, max(1, round(samples * share))))
    return units


def _ks(a: list[int], b: list[int]) -> float:
    """Two-sample Kolmogorov–Smirnov distance between two samples."""
    if not a or not b:
        return float("nan")
    grid = np.union1d(a, b)
    fa = np.searchsorted(np.sort(a), grid, side="right") / len(a)
    fb = np.searchsorted(np.sort(b), grid, side="right") / len(b)
    return float(np.abs(fa - fb).max())


def _border_ratio(mines: np.ndarray, spec: Spec, boards: int) -> float:
    grid = mines.reshape(spec.height, spec.width) / max(boards, 1)
    border = np.zeros_like(grid, dtype=bool)
    border[0, :] = border[-1, :] = border[:, 0] = border[:, -1] = True
    inner = grid[~border]
    return float(grid[border].mean() / inner.mean()) if inner.mean() > 0 else float("nan")


def _tables(units: list[Unit], totals: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = []
    for unit, t in zip(units, totals):
        spec = Spec(**unit.params["spec"])
        k = len(t["seconds"])
        n = k + t["failures"]
        secs = np.array(t["seconds"]) if k else np.array([np.nan])
        rows.append(summary_row(
            unit.params["label"], spec, "opening", (spec.width // 2, spec.height // 2), n, k, solver="sat+total",
            method=unit.params["method"], time_limit_s=unit.params["limit"],
            mean_s=float(np.nanmean(secs)), median_s=float(np.nanmedian(secs)),
            p90_s=float(np.nanpercentile(secs, 90)),
            mean_attempts=float(np.mean(t["attempts"])) if k else None,
            mean_perturbations=float(np.mean(t["perturbations"])) if k else None,
            mean_3bv=float(np.mean(t["bbbv"])) if k else None,
            border_density_ratio=_border_ratio(t["mines"], spec, k) if k else None,
        ))
    summary = pd.DataFrame(rows)
    bias = []
    by_key = {(u.params["label"], u.params["method"]): t for u, t in zip(units, totals)}
    for (label, method), t in by_key.items():
        if method != "perturb" or (label, "retry") not in by_key:
            continue
        r = by_key[(label, "retry")]
        if not r["bbbv"] or not t["bbbv"]:
            continue
        bias.append({
            "board": label, "boards_retry": len(r["bbbv"]), "boards_perturb": len(t["bbbv"]),
            "mean_3bv_retry": float(np.mean(r["bbbv"])), "mean_3bv_perturb": float(np.mean(t["bbbv"])),
            "median_3bv_retry": float(np.median(r["bbbv"])), "median_3bv_perturb": float(np.median(t["bbbv"])),
            "ks_distance_3bv": _ks(r["bbbv"], t["bbbv"]),
            "border_ratio_retry": _border_ratio(r["mines"], Spec(**next(u.params["spec"] for u in units
                                                                      if u.params["label"] == label)),
                                                len(r["bbbv"])),
            "border_ratio_perturb": _border_ratio(t["mines"], Spec(**next(u.params["spec"] for u in units
                                                                        if u.params["label"] == label)),
                                                  len(t["bbbv"])),
        })
    return summary, pd.DataFrame(bias)


def _figure(units: list[Unit], totals: list[dict]):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pairs = [(u, t) for u, t in zip(units, totals) if u.params["label"] in ("expert", "beginner", "intermediate")
             and t["seconds"]]
    labels = sorted({u.params["label"] for u, _ in pairs}, key=["beginner", "intermediate", "expert"].index)
    fig, axes = plt.subplots(len(labels), 2, figsize=(10, 2.8 * len(labels)), squeeze=False)
    for row, label in enumerate(labels):
        for col, method in enumerate(("retry", "perturb")):
            ax = axes[row][col]
            match = [(u, t) for u, t in pairs if u.params["label"] == label and u.params["method"] == method]
            if not match:
                ax.axis("off")
                continue
            u, t = match[0]
            spec = Spec(**u.params["spec"])
            freq = t["mines"].reshape(spec.height, spec.width) / len(t["seconds"])
            im = ax.imshow(freq, cmap="magma", vmin=0, vmax=max(0.35, float(freq.max())))
            ax.set_title(f"{label}, {method}: mine frequency ({len(t['seconds'])} boards)", fontsize=9)
            ax.set_xticks([])
            ax.set_yticks([])
            fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=200, seed=42, quick=4)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    units = _units(args.samples, QUICK_ROWS if args.quick else ROWS)
    parts = run_units(NAME, units, _work, args, CHUNK, "board")
    totals = [_combine(p) for p in parts]
    summary, bias = _tables(units, totals)
    summary, timing = split_timings(summary, KEYS, TIMING)
    cols = ["board", "method", "n", "k", "p", "low", "high", "mean_attempts", "mean_perturbations", "mean_3bv",
            "border_density_ratio"]
    md = "\n".join([
        "# No-guess generation: retries against perturbation\n",
        f"Per row up to {args.samples} boards (seed {args.seed}; fewer where retries are slow), opening at the "
        "centre, guarantee: complete deduction with the mine total. `p` is the share generated within "
        "`time_limit_s` per board (Wilson 95% in `low`/`high`). "
        "`border_density_ratio`: mine frequency on the border cells over that of the interior "
        "(about 1 for uniform boards).\n",
        markdown_table(summary, columns=cols, digits=3),
        "\n## What perturbation does to the boards\n",
        "Retry boards are exactly uniform over the no-guess boards; perturbation is compared with them. "
        "`ks_distance_3bv` is the two-sample Kolmogorov–Smirnov distance between the 3BV distributions.\n",
        markdown_table(bias, digits=3) if len(bias) else "(no pair of methods on the same board)\n",
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
    finish(out, NAME, args, {"summary": summary, "bias": bias}, md, started,
           {"mine_frequency": _figure(units, totals)}, timings=Timings(timing, timing_md))
    return 0
