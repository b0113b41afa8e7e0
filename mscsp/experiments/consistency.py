"""Consistency of compiled 3-CNF boards: Kaye's reduction at work.

Random 3-CNF formulas (three distinct variables per clause, random signs) with ``n``
variables and ``m = ratio * n`` clauses, at ratios through the satisfiability
threshold near 4.26, are compiled into positions by ``mscsp from-cnf``
(:mod:`mscsp.reduction`) and decided by ``mscsp consistent``
(:func:`mscsp.analysis.consistency.decide`). For every formula the board's verdict is checked
against a direct SAT call on the formula, and a witness is decoded back into an
assignment that must satisfy it. Rows give the share of satisfiable formulas
(Wilson 95%), the board size, and the time to decide the board against the time to
solve the formula directly.

    python experiments/consistency.py --samples 100 --seed 42 --jobs 2 --out results/consistency
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from pysat.solvers import Solver

from ..analysis.consistency import decide
from ..reduction.cnf import CNF
from ..reduction.compile import compile_cnf, decode, read_map
from ..stats import wilson
from .cli import experiment_parser, finish, run_units
from .output import Timings, markdown_table, split_timings
from .runner import Chunk, Unit, merge_counts, sample_seeds

NAME = "consistency"
SIZES = [10, 20, 30, 50]
RATIOS = [3.0, 4.0, 4.26, 4.5, 5.5]
QUICK_SIZES = [5, 8]
CHUNK = 2
#: The paper prints the two figures side by side, each this share of the line width.
HALF = 0.49
#: What names a row of the summary, and the columns that depend on the machine.
KEYS = ["board", "variables", "clauses", "ratio"]
TIMING = ["mean_compile_s", "mean_decide_s", "max_decide_s", "mean_direct_ms"]


def random_3cnf(n: int, m: int, rng: np.random.Generator) -> CNF:
    """``m`` clauses of three distinct variables out of ``n``, each negated with probability 1/2."""
    clauses = []
    for _ in range(m):
        vs = rng.choice(n, size=3, replace=False) + 1
        signs = rng.integers(0, 2, size=3) * 2 - 1
        clauses.append(tuple(int(v * s) for v, s in zip(vs, signs)))
    return CNF(n, tuple(clauses))


def _work(chunk: Chunk) -> dict:
    n, m = chunk.params["n"], chunk.params["m"]
    out = {"samples": 0, "sat": 0, "agree": 0, "decoded_ok": 0, "cells": 0, "width": 0, "height": 0,
           "clues": 0, "compile_s": 0.0, "decide_s": 0.0, "direct_s": 0.0, "max_decide_s": 0.0}
    for ss in sample_seeds(chunk):
        cnf = random_3cnf(n, m, np.random.default_rng(ss))
        t0 = time.perf_counter()
        with Solver(name="g4", bootstrap_with=[list(c) for c in cnf.clauses]) as solver:
            sat = solver.solve()
        t1 = time.perf_counter()
        compiled = compile_cnf(cnf)
        t2 = time.perf_counter()
        verdict = decide(compiled.position, explain=False)  # the verdict is counted, not its reason
        t3 = time.perf_counter()
        g = compiled.position.geometry
        out["samples"] += 1
        out["sat"] += int(sat)
        out["agree"] += int(verdict.consistent == sat)
        if verdict.consistent:
            assignment = decode(verdict.witness, read_map(compiled.map_json(), compiled.position.geometry))
            out["decoded_ok"] += int(cnf.satisfied_by(assignment))
        out["cells"] += g.size
        out["width"] += g.width
        out["height"] += g.height
        out["clues"] += int(compiled.position.revealed.sum())
        out["direct_s"] += t1 - t0
        out["compile_s"] += t2 - t1
        out["decide_s"] += t3 - t2
        out["max_decide_s"] = max(out["max_decide_s"], t3 - t2)
    return out


def _merge(parts: list[dict]) -> dict:
    total = merge_counts([{k: v for k, v in p.items() if k != "max_decide_s"} for p in parts])
    total["max_decide_s"] = max(p["max_decide_s"] for p in parts)
    return total


def _units(samples: int, sizes: list[int]) -> list[Unit]:
    return [Unit(f"n{n}/r{ratio}", {"n": n, "m": round(ratio * n), "ratio": ratio}, samples)
            for n in sizes for ratio in RATIOS]


def _rows(units: list[Unit], totals: list[dict]) -> pd.DataFrame:
    rows = []
    for unit, t in zip(units, totals):
        n = t["samples"]
        low, high = wilson(t["sat"], n)
        rows.append({
            "board": f"3-CNF n={unit.params['n']} m={unit.params['m']}",
            "width": t["width"] / n, "height": t["height"] / n, "mines": None, "rule": "none",
            "click_x": None, "click_y": None, "solver": "consistency of the compiled board",
            "n": n, "k": t["sat"], "p": t["sat"] / n, "low": low, "high": high, "exact": None,
            "variables": unit.params["n"], "clauses": unit.params["m"], "ratio": unit.params["ratio"],
            "agree": t["agree"], "decoded_ok": t["decoded_ok"], "mean_cells": t["cells"] / n,
            "mean_clues": t["clues"] / n, "mean_decide_s": t["decide_s"] / n,
            "max_decide_s": t["max_decide_s"], "mean_compile_s": t["compile_s"] / n,
            "mean_direct_ms": 1e3 * t["direct_s"] / n,
        })
    return pd.DataFrame(rows)


def _figure(df: pd.DataFrame):
    """The share satisfiable against the clause ratio, one line per formula size."""
    from .figures import figure

    fig, ax = figure(HALF, 2.4)
    for n, part in df.groupby("variables"):
        ax.errorbar(part["ratio"], part["p"], yerr=[part["p"] - part["low"], part["high"] - part["p"]],
                    marker="o", capsize=2, elinewidth=0.8, label=f"{n} variables")
    ax.axvline(4.26, color="grey", linestyle=":", label="threshold 4.26")
    ax.set_xlabel("clauses / variables")
    ax.set_ylabel("share satisfiable")
    ax.legend(handlelength=1.5, borderaxespad=0.3)
    return fig


def _timing_figure(timing: pd.DataFrame):
    """Seconds to decide the compiled board against a SAT call on the formula, at
    the threshold ratio 4.26 (``timings.png``: it plots times)."""
    from .figures import decimal_labels, figure

    fig, ax = figure(HALF, 2.4)
    at = timing[timing["ratio"] == 4.26].sort_values("variables")
    ax.plot(at["variables"], at["mean_decide_s"], marker="o", label="decide the compiled board")
    ax.plot(at["variables"], at["mean_direct_ms"] / 1e3, marker="s", label="SAT on the formula")
    ax.set_yscale("log")
    decimal_labels(ax.yaxis)
    ax.set_xlabel("variables (ratio 4.26)")
    ax.set_ylabel("seconds per formula")
    ax.legend(handlelength=1.5, borderaxespad=0.3)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=100, seed=42, quick=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    units = _units(args.samples, QUICK_SIZES if args.quick else SIZES)
    parts = run_units(NAME, units, _work, args, CHUNK, "formula")
    df = _rows(units, [_merge(p) for p in parts])
    if (df["agree"] != df["n"]).any() or (df["decoded_ok"] != df["k"]).any():
        raise AssertionError("a compiled board disagreed with its formula")  # never expected
    df, timing = split_timings(df, KEYS, TIMING)
    cols = ["variables", "clauses", "ratio", "n", "k", "p", "low", "high", "mean_cells", "mean_clues"]
    md = "\n".join([
        "# Consistency of compiled 3-CNF boards\n",
        f"{args.samples} random 3-CNF formulas per row (seed {args.seed}), compiled with `mscsp from-cnf` and "
        "decided with `mscsp consistent`; `p` is the share satisfiable (Wilson 95% in `low`/`high`). Every "
        "board's verdict equalled a direct SAT call on its formula, and every witness decoded to a "
        "satisfying assignment.\n",
        markdown_table(df, columns=cols, digits=3),
    ])
    timing_md = "\n".join([
        "# Consistency of compiled 3-CNF boards: timings\n",
        "Seconds per formula to compile it into a board (`mean_compile_s`) and to decide the board "
        "(`mean_decide_s`, the slowest in `max_decide_s`), against milliseconds for a direct SAT call on the "
        "formula (`mean_direct_ms`). `timings.png` plots them at ratio 4.26.\n",
        markdown_table(timing, digits=3),
    ])
    print(markdown_table(df, columns=cols, digits=3), end="")
    print(markdown_table(timing, digits=3), end="")
    finish(out, NAME, args, {"summary": df}, md, started, {"consistency": _figure(df)},
           timings=Timings(timing, timing_md, _timing_figure(timing)))
    return 0
