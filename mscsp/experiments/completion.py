"""How often each solver finishes a board without a guess, and what a retry costs.

Reproduces and extends the reference article's second table (Sheng 2026: a
single-point solver finishes 0.637 of Beginner, 0.241 of Intermediate and 0.001 of
Expert boards from a centre opening): for the three sizes, centre and corner
clicks, the ``opening`` and ``safe`` rules, every board is played from the click by
each rung of the solver ladder — single-point, subset, subset with the mine total,
complete (SAT) without and with the mine total — on the same boards (a paired
comparison). Each row gives the share finished with its Wilson 95% interval, the
mean time per verification, and the expected wait for an accepted board when
retrying: (generation + verification time per attempt) / acceptance rate.

``--rng article`` replays the article's own random stream (``random.seed(42)``,
``random.sample`` over the cells outside the centre's 3x3 block, in index order,
sizes in table order) and decides each board with mscsp's single-point solver, so
the article's three numbers come out digit for digit.

    python experiments/completion.py --samples 2000 --seed 42 --jobs 2 --out results/completion
"""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..board import PRESETS, Layout, Spec
from ..rules import generate
from ..play.verify import verify
from .cli import experiment_parser, finish, run_units
from .output import Timings, markdown_table, split_timings, summary_row
from .runner import Chunk, Unit, merge_counts, sample_seeds

NAME = "completion"
SIZES = ["beginner", "intermediate", "expert"]
RULES = ["opening", "safe"]
#: (label, solver, mine total used)
SOLVERS = [
    ("single-point", "single-point", False),
    ("subset", "subset", False),
    ("subset+total", "subset", True),
    ("sat", "sat", False),
    ("sat+total", "sat", True),
]
CHUNK = 50
#: What names a row of the summary, and the columns that depend on the machine:
#: times, and how many boards the compiled play loop (when it was built) decided.
KEYS = ["board", "rule", "click_x", "click_y", "solver"]
TIMING = ["ms_per_verification", "expected_wait_s", "compiled_loop"]


def _clicks(spec: Spec) -> dict[str, tuple[int, int]]:
    return {"centre": (spec.width // 2, spec.height // 2), "corner": (0, 0)}


def _work(chunk: Chunk) -> dict:
    p = chunk.params
    spec = Spec(**p["spec"])
    out: dict = {"n": 0, "gen_seconds": 0.0}
    for label, _, _ in SOLVERS:
        out[f"{label}:k"] = 0
        out[f"{label}:seconds"] = 0.0
        out[f"{label}:compiled"] = 0
    for ss in sample_seeds(chunk):
        t0 = time.perf_counter()
        board = generate(spec, p["rule"], tuple(p["click"]), np.random.Generator(np.random.PCG64(ss)))
        out["gen_seconds"] += time.perf_counter() - t0
        out["n"] += 1
        for label, solver, total in SOLVERS:
            t0 = time.perf_counter()
            result = verify(board.layout, board.click, solver, use_total=total, quick=True)
            out[f"{label}:seconds"] += time.perf_counter() - t0
            out[f"{label}:k"] += int(result.solved)
            out[f"{label}:compiled"] += int(result.engine == "compiled")
    return out


def _units(samples: int) -> list[Unit]:
    units = []
    for size in SIZES:
        spec = PRESETS[size]
        for where, click in _clicks(spec).items():
            for rule in RULES:
                units.append(Unit(f"{size}/{where}/{rule}", {"spec": spec.__dict__, "size": size, "rule": rule,
                                                           "click": click, "where": where}, samples))
    return units


def _rows(units: list[Unit], totals: list[dict]) -> pd.DataFrame:
    rows = []
    for unit, t in zip(units, totals):
        spec = Spec(**unit.params["spec"])
        x, y = unit.params["click"]
        n = t["n"]
        gen = t["gen_seconds"] / n
        for label, solver, total in SOLVERS:
            k = t[f"{label}:k"]
            per = t[f"{label}:seconds"] / n
            p = k / n
            rows.append(summary_row(
                unit.params["size"], spec, unit.params["rule"], (x, y), n, k, solver=label,
                mine_total=total, click=unit.params["where"], ms_per_verification=1e3 * per,
                expected_wait_s=(gen + per) / p if p > 0 else math.inf,
                compiled_loop=t.get(f"{label}:compiled", 0),
            ))
    return pd.DataFrame(rows)


def _figure(df: pd.DataFrame):
    """The share finished by each solver, a panel per rule and click, at the paper's
    full width (:mod:`mscsp.experiments.figures`)."""
    from .figures import decimal_labels, figure

    clicks = [c for c in ("centre", "corner") if (df["click"] == c).any()]
    fig, axes = figure(1.0, 2.0 * len(clicks) + 0.45, nrows=len(clicks), ncols=2, sharey=True, squeeze=False)
    floor = 3e-4  # a log axis, so that Expert's rates of a few per thousand are seen; 0 is drawn at the floor
    labels = [label for label, _, _ in SOLVERS]
    width = 0.16
    for row, click in enumerate(clicks):
        for ax, rule in zip(axes[row], RULES):
            sub = df[(df["rule"] == rule) & (df["click"] == click)]
            for i, label in enumerate(labels):
                part = sub[sub["solver"] == label].set_index("board").loc[SIZES]
                xs = np.arange(len(SIZES)) + (i - 2) * width
                p = np.maximum(part["p"].to_numpy(), floor)
                low = np.maximum(part["low"].to_numpy(), floor)
                ax.bar(xs, p - floor, width, bottom=floor, label=label, color=f"C{i}",
                       yerr=[p - low, np.maximum(part["high"].to_numpy() - p, 0)], capsize=1.5,
                       error_kw={"elinewidth": 0.8, "capthick": 0.8})
                for x, value in zip(xs, part["p"]):
                    if value == 0:
                        ax.text(x, floor * 1.15, "0", ha="center", va="bottom")
            ax.set_yscale("log")
            ax.set_ylim(floor, 1.0)
            decimal_labels(ax.yaxis)
            ax.set_xticks(np.arange(len(SIZES)), SIZES)
            ax.set_title(f"rule {rule}, {click} click")
        axes[row][0].set_ylabel("share finished")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncol=len(labels), handlelength=1.2,
               columnspacing=1.2)
    return fig


def article_table(samples: int = 2000, seed: int = 42) -> pd.DataFrame:
    """The article's single-point table from its own random stream, decided by mscsp."""
    rng = random.Random(seed)
    rows = []
    for size in SIZES:
        spec = PRESETS[size]
        g = spec.geometry
        click = g.index(spec.width // 2, spec.height // 2)
        zone = set(g.closed_neighbourhood(click))
        pool = [i for i in range(g.area) if i not in zone]
        k = 0
        for _ in range(samples):
            layout = Layout._from_indices(g, rng.sample(pool, spec.mines))
            k += verify(layout, g.coords(click), "single-point", use_total=False).solved
        p = k / samples
        rows.append(summary_row(size, spec, "opening", (spec.width // 2, spec.height // 2), samples, k,
                                solver="single-point", normal_halfwidth=1.96 * (p * (1 - p) / samples) ** 0.5))
    return pd.DataFrame(rows)


def article_lines(df: pd.DataFrame) -> str:
    names = {"beginner": "Beginner 9x9/10", "intermediate": "Intermediate 16x16/40", "expert": "Expert 30x16/99"}
    return "".join(
        f"{names[r['board']]:24s} single-point solver finishes without guessing: {r['p']:.3f} +/- "
        f"{r['normal_halfwidth']:.3f}  (n={r['n']})\n"
        for _, r in df.iterrows()
    )


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=2000, seed=42, quick=20, article=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    cols = ["board", "rule", "click_x", "click_y", "solver", "n", "k", "p", "low", "high"]
    if args.rng == "article":
        df = article_table(args.samples, args.seed)
        text = article_lines(df)
        md = (f"# Single-point completion — the article's random stream\n\n`random.seed({args.seed})`, "
              f"{args.samples} boards per size, centre click, mines outside the 3x3 block, decided by "
              f"mscsp's single-point solver.\n\n```text\n{text}```\n\nWith Wilson 95% intervals:\n\n"
              + markdown_table(df, columns=cols))
        print(text, end="")
        finish(out, NAME, args, {"summary": df}, md, started)
        return 0
    units = _units(args.samples)
    parts = run_units(NAME, units, _work, args, CHUNK, "board")
    df, timing = split_timings(_rows(units, [merge_counts(p) for p in parts]), KEYS, TIMING)
    md = "\n".join([
        "# How often each solver finishes a board\n",
        f"{args.samples} boards per configuration (seed {args.seed}); every solver plays the same boards. "
        "`p` is the share finished without a guess, `low`/`high` its Wilson 95% interval. "
        "Solvers: single-point and subset as in the article (subset+total adds the simple "
        "mine-total rules), sat is the complete solver, sat+total also uses the mine total.\n",
        markdown_table(df, columns=cols),
        "\nFor comparison, the article's single-point figures (its own boards): Beginner 0.637, "
        "Intermediate 0.241, Expert 0.001 (`--rng article` reproduces them digit for digit).\n",
    ])
    timing_md = "\n".join([
        "# How often each solver finishes a board: timings\n",
        "`ms_per_verification` is the mean time to verify one board; `expected_wait_s` = (generation + "
        "verification time) / `p`, the mean wait for an accepted board when retrying. `compiled_loop` counts "
        "the boards the compiled play loop decided (the others: the Python loop; both give the same answer).\n",
        markdown_table(timing),
    ])
    print(markdown_table(df, columns=cols), end="")
    print(markdown_table(timing), end="")
    finish(out, NAME, args, {"summary": df}, md, started, {"completion": _figure(df)},
           timings=Timings(timing, timing_md))
    return 0
