"""Uniform no-guess boards: the chain against every no-guess board, and against retry.

``generate_no_guess(method="uniform")`` (:mod:`mscsp.play.chain`) claims boards uniform
over the no-guess boards of a setting at any density. This experiment tests the claim
three ways and measures what it costs:

1. **Census** (``census.csv``): on small settings every no-guess board is listed
   (:func:`mscsp.play.census.census`) and boards made by the chain alone (no retry
   first) and by perturbation are tested against the uniform distribution over them:
   Pearson's χ² with its p-value, over every board where the sample expects five draws
   of each, else over blocks of consecutive boards expecting ten, and the total variation
   distance (which even a perfect sampler leaves at about ``sqrt(K / n) / 2`` for ``K``
   boards and ``n`` draws: ``tv_floor``).
2. **Distance against steps** (``mixing.csv``, figure ``mixing``): the chain's exact
   distance to uniform from its worst start, from its transition matrix over the census
   (:func:`mscsp.play.census.mixing`), with fresh draws in the share of a regeneration
   run, of a swap run, and none, against the Doeblin bound of the regeneration run.
3. **Expert agreement** (``agreement.csv``, figure ``mine_frequency``): where retry is
   exactly uniform and still affordable (30x16 with 99 and 130 mines, opening at the
   centre), boards of the chain alone against retry's: mean 3BV and border density ratio
   (``mscsp.experiments.noguess_cost``), two-sample Kolmogorov–Smirnov tests of 3BV and of
   the border mine count, and the per-cell mine frequencies compared cell by cell
   (:func:`mscsp.stats.cells_chi2`, with a permutation p-value).
4. **Chains** (``chains.csv``): :func:`mscsp.play.noguess.sample_no_guess` on 30x16 with
   99, 130 and 170 mines — burn-in, thinning, acceptance, effective sample sizes and
   split R-hat of the edge mine count, 3BV and the click's opening — and the seconds a
   board (``timings.csv``).

Every board is made with the complete solver and the mine total.

    python experiments/noguess_uniform.py --samples 6000 --seed 7 --jobs 2 --out results/noguess_uniform
    python experiments/noguess_uniform.py --quick --out /tmp/noguess_uniform
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..board import Layout, Spec
from ..metrics import bbbv
from ..play.census import census, mixing, uniformity
from ..play.chain import JUMP, PILOT_JUMP
from ..play.noguess import generate_no_guess, sample_no_guess
from ..play.verify import verify
from ..stats import cells_chi2, cells_chi2_permutation, ks_two_sample, mean_interval
from .cli import experiment_parser, finish, run_units
from .noguess_cost import _click, border_cells, border_ratio
from .output import Timings, markdown_table, summary_row
from .runner import Chunk, Unit, sample_seeds

NAME = "noguess_uniform"
CHUNK = 50

#: Small settings whose every no-guess board is listed: (label, spec, rule, click, total).
CENSUS = [
    ("4x4/3 safe (1,1)", Spec(4, 4, 3), "safe", (1, 1), True),
    ("5x5/5 opening (2,2)", Spec(5, 5, 5), "opening", (2, 2), True),
    ("5x5/5 opening (2,2), no total", Spec(5, 5, 5), "opening", (2, 2), False),
    ("5x5/6 safe (0,0)", Spec(5, 5, 6), "safe", (0, 0), True),
    ("5x5/7 uniform (2,2)", Spec(5, 5, 7), "uniform", (2, 2), True),
    ("5x5/8 opening (2,2)", Spec(5, 5, 8), "opening", (2, 2), True),
    ("4x8/6 safe (1,1)", Spec(4, 8, 6), "safe", (1, 1), True),
]
QUICK_CENSUS = CENSUS[:1]

#: Where the chain is compared with retry: (label, spec, share of --samples).
AGREEMENT = [("30x16/99", Spec(30, 16, 99), 0.1), ("30x16/130", Spec(30, 16, 130), 0.05)]
QUICK_AGREEMENT = [("30x16/99", Spec(30, 16, 99), 1.0)]

#: Bulk chains: (label, spec, boards); quick: fewer boards.
CHAINS = [("30x16/99", Spec(30, 16, 99), 200), ("30x16/130", Spec(30, 16, 130), 200),
          ("30x16/170", Spec(30, 16, 170), 200)]
QUICK_CHAINS = [("30x16/99", Spec(30, 16, 99), 16)]

#: Steps at which the exact distance is reported, and the setting it is computed on.
MIXING_STEPS = (25, 50, 100, 200, 400, 800)
MIXING = CENSUS[0]

#: Expected draws per block when the χ² pools boards.
PER_BLOCK = 10


def _work(chunk: Chunk) -> dict:
    p = chunk.params
    spec = Spec(**p["spec"])
    click = tuple(p["click"])
    boards, seconds = [], []
    for ss in sample_seeds(chunk):
        started = time.perf_counter()
        rng = np.random.default_rng(ss)
        if p["method"] == "chain":
            b = generate_no_guess(spec, p["rule"], click, rng, method="uniform", retry_first=0,
                                  use_total=p["total"], time_limit=600.0)
        else:
            b = generate_no_guess(spec, p["rule"], click, rng, method=p["method"], use_total=p["total"],
                                  time_limit=600.0, max_attempts=10**7)
        seconds.append(time.perf_counter() - started)
        boards.append(np.flatnonzero(b.layout.mines).tolist())
    return {"boards": boards, "seconds": seconds}


def _units(samples: int, quick: bool) -> list[Unit]:
    units = []
    for label, spec, rule, click, total in (QUICK_CENSUS if quick else CENSUS):
        for method in ("chain", "perturb"):
            units.append(Unit(f"census {label}/{method}", {"part": "census", "label": label, "spec": spec.__dict__,
                                                           "rule": rule, "click": list(click), "total": total,
                                                           "method": method}, samples))
    for label, spec, share in (QUICK_AGREEMENT if quick else AGREEMENT):
        for method in ("chain", "retry"):
            units.append(Unit(f"agreement {label}/{method}", {"part": "agreement", "label": label,
                                                              "spec": spec.__dict__, "rule": "opening",
                                                              "click": list(_click(spec)), "total": True,
                                                              "method": method},
                              max(2, round(samples * share))))
    return units


def _solver(total: bool) -> str:
    return "sat+total" if total else "sat"


def _census_rows(units, parts, censuses) -> tuple[list[dict], list[dict], list[dict]]:
    rows, summary, times = [], [], []
    for unit, part in zip(units, parts):
        p = unit.params
        if p["part"] != "census":
            continue
        c = censuses[p["label"]]
        g = c.spec.geometry
        known = set(c.boards)
        boards = [tuple(g.coords(m) for m in b) for chunk in part for b in chunk["boards"]]
        sample = [b for b in boards if b in known]
        summary.append(summary_row(p["label"], c.spec, c.rule.value, c.click, len(boards), len(sample),
                                   solver=_solver(p["total"]), method=p["method"], part="census"))
        n, k = len(sample), len(c.boards)
        groups = None if n >= 5 * k else max(2, min(k, n // PER_BLOCK))
        fit = uniformity(sample, c, groups=groups)
        rows.append({"setting": p["label"], "method": p["method"], "candidates": c.candidates, "boards": k,
                     "n": n, "chi2_over": "boards" if groups is None else f"{groups} blocks", "df": fit.df,
                     "chi2": float(fit.chi2), "p_value": fit.p_value, "tv": float(fit.tv),
                     "tv_floor": tv_floor(n, k)})
        secs = [s for chunk in part for s in chunk["seconds"]]
        times.append({"board": p["label"], "method": p["method"], "median_s": float(np.median(secs))})
    return rows, summary, times


def _agreement_rows(units, parts, seed: int) -> tuple[list[dict], dict, list[dict], list[dict]]:
    arms: dict[str, dict[str, list]] = {}
    specs = {}
    times = []
    for unit, part in zip(units, parts):
        p = unit.params
        if p["part"] != "agreement":
            continue
        arms.setdefault(p["label"], {})[p["method"]] = [b for chunk in part for b in chunk["boards"]]
        specs[p["label"]] = Spec(**p["spec"])
        secs = [s for chunk in part for s in chunk["seconds"]]
        times.append({"board": p["label"], "method": p["method"], "median_s": float(np.median(secs))})
    rows, maps, summary = [], {}, []

    for label, by in arms.items():
        spec = specs[label]
        g = spec.geometry
        click = _click(spec)
        border, _ = border_cells(spec, click)
        row = {"setting": label}
        measures = {}
        for method, boards in by.items():
            layouts = [Layout._from_indices(g, b) for b in boards]
            checked = sum(verify(lay, click).solved for lay in layouts)
            summary.append(summary_row(label, spec, "opening", click, len(layouts), checked, solver="sat+total",
                                       method=method, part="agreement"))
            counts = np.zeros(g.area, dtype=np.int64)
            for b in boards:
                counts[b] += 1
            values = [bbbv(lay) for lay in layouts]
            borders = [int(lay.mines[border].sum()) for lay in layouts]
            measures[method] = (values, borders, counts)
            maps[(label, method)] = (counts / len(boards)).reshape(spec.height, spec.width)
            row[f"n_{method}"] = len(boards)
            row[f"mean_3bv_{method}"], row[f"mean_3bv_{method}_low"], row[f"mean_3bv_{method}_high"] = \
                mean_interval(values)
            row[f"border_ratio_{method}"], row[f"border_ratio_{method}_low"], row[f"border_ratio_{method}_high"] = \
                border_ratio(borders, spec, click)
        (va, ba, ca), (vb, bb, cb) = measures["chain"], measures["retry"]
        row["ks_p_3bv"] = ks_two_sample(va, vb)[1]
        row["ks_p_border"] = ks_two_sample(ba, bb)[1]
        na, nb = len(by["chain"]), len(by["retry"])
        row["cells_chi2"], row["cells_df"], row["cells_p"] = cells_chi2(ca, na, cb, nb)
        boards_a = np.zeros((na, g.area), dtype=bool)
        boards_b = np.zeros((nb, g.area), dtype=bool)
        for i, b in enumerate(by["chain"]):
            boards_a[i, b] = True
        for i, b in enumerate(by["retry"]):
            boards_b[i, b] = True
        row["cells_perm_p"] = cells_chi2_permutation(boards_a, boards_b, np.random.default_rng(seed))
        rows.append(row)
    return rows, maps, summary, times


def _chain_rows(quick: bool, seed: int) -> tuple[list[dict], list[dict], list[dict]]:
    rows, summary, times = [], [], []
    for label, spec, n in (QUICK_CHAINS if quick else CHAINS):
        s = sample_no_guess(spec, "opening", _click(spec), n, np.random.SeedSequence([seed, spec.mines]), chains=4)
        checked = sum(verify(lay, _click(spec)).solved for lay in s.boards)
        summary.append(summary_row(label, spec, "opening", _click(spec), len(s.boards), checked, solver="sat+total",
                                   method="bulk", part="chains"))
        rows.append({"setting": label, "boards": len(s.boards), "chains": s.chains,
                     "burn_in": int(np.median(s.burn_in)), "thin": int(np.median(s.thin)),
                     "proven_tv": s.bound, "acceptance": s.acceptance,
                     **{f"ess_{k}": v for k, v in s.effective.items()},
                     **{f"rhat_{k}": v for k, v in s.rhat.items()}})
        times.append({"board": label, "method": "bulk", "median_s": s.seconds / len(s.boards)})
    return rows, summary, times


def _mixing_rows(c) -> tuple[list[dict], dict]:
    b = len(c.boards) / c.candidates
    top = max(MIXING_STEPS)
    curves = {"regeneration run": mixing(c, top, jump=PILOT_JUMP), "swap run": mixing(c, top, jump=JUMP),
              "swaps alone": mixing(c, top, jump=0.0)}
    bound = [(1 - PILOT_JUMP * b) ** t for t in range(1, top + 1)]
    rows = []
    for t in MIXING_STEPS:
        rows.append({"steps": t, **{name: curve[t - 1] for name, curve in curves.items()},
                     "regeneration bound": bound[t - 1]})
    return rows, {**curves, "regeneration bound": bound}


def tv_floor(n: int, k: int) -> float:
    """The expected total variation distance to uniform of ``n`` independent uniform
    draws from ``k`` boards: ``k/2`` times the mean absolute deviation of a binomial
    ``(n, 1/k)`` count over ``n`` (de Moivre's closed form of that deviation).

    Examples
    --------
    >>> tv_floor(1, 2)  # one draw of two boards: 1/2 on one, 0 on the other
    0.5
    >>> round(tv_floor(10_000, 100), 4)  # about sqrt(2 k / (pi n)) / 2
    0.0397
    """
    p = 1.0 / k
    j = math.floor(n * p) + 1
    if j > n:
        return 0.0
    log_mad = (math.log(2) + (n - j + 1) * math.log1p(-p) + j * math.log(p) + math.log(j)
               + math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1))
    return 0.5 * k * math.exp(log_mad) / n


def _figures(maps: dict, curves: dict, label: str) -> dict:
    from .figures import pyplot

    plt = pyplot()  # the figures' font, as in every experiment

    figures = {}
    settings = sorted({k[0] for k in maps})
    if settings:
        top = max(float(m.max()) for m in maps.values())
        fig, axes = plt.subplots(len(settings), 2, figsize=(9, 1.2 + 2.4 * len(settings)), squeeze=False,
                                 layout="constrained")
        image = None
        for r, setting in enumerate(settings):
            for col, method in enumerate(("chain", "retry")):
                ax = axes[r][col]
                image = ax.imshow(maps[(setting, method)], cmap="magma", vmin=0, vmax=top)
                ax.set_title(f"{setting}, {method}", fontsize=11)
                ax.set_xticks([])
                ax.set_yticks([])
        fig.colorbar(image, ax=axes, shrink=0.8, label="share of boards with a mine on the cell")
        figures["mine_frequency"] = fig
    fig, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
    for name, curve in curves.items():
        ax.semilogy(range(1, len(curve) + 1), np.maximum(curve, 1e-16), label=name,
                    linestyle="--" if name == "regeneration bound" else "-")
    ax.set_xlabel("steps")
    ax.set_ylabel("total variation to uniform, worst start")
    ax.set_title(label, fontsize=11)
    ax.set_ylim(1e-6, 1.5)
    ax.legend(fontsize=9)
    figures["mixing"] = fig
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=6000, seed=7, quick=60)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out)
    units = _units(args.samples, args.quick)
    parts = run_units(NAME, units, _work, args, CHUNK, "board")
    censuses = {label: census(spec, rule, click, use_total=total)
                for label, spec, rule, click, total in (QUICK_CENSUS if args.quick else CENSUS)}
    census_rows, census_summary, census_times = _census_rows(units, parts, censuses)
    agreement_rows, maps, agreement_summary, agreement_times = _agreement_rows(units, parts, args.seed)
    chain_rows, chain_summary, chain_times = _chain_rows(args.quick, args.seed)
    label, spec, rule, click, total = MIXING
    mixing_rows, curves = _mixing_rows(censuses[label] if label in censuses else census(spec, rule, click))
    census_df = pd.DataFrame(census_rows)
    agreement_df = pd.DataFrame(agreement_rows)
    chains_df = pd.DataFrame(chain_rows)
    mixing_df = pd.DataFrame(mixing_rows)
    summary = pd.DataFrame(census_summary + agreement_summary + chain_summary)
    timing = pd.DataFrame(census_times + agreement_times + chain_times)
    md = "\n".join([
        "# Uniform no-guess boards\n",
        "Boards made with the complete solver and the mine total (except where a row says `no total`). "
        "`chain`: `generate_no_guess(method=\"uniform\", retry_first=0)`, the Markov chain alone; "
        "`retry`: rejection sampling, exactly uniform; `perturb`: Tatham-style perturbation; `bulk`: "
        "`sample_no_guess`.\n",
        "## Every board checked\n",
        "`n` boards made, `k` of them no-guess by an independent check (membership of the census; "
        "elsewhere `verify` again), with the Wilson 95% interval.\n",
        markdown_table(summary, digits=4),
        "## Against every no-guess board (census)\n",
        "`boards`: the no-guess boards of the setting among `candidates` layouts the rule allows; "
        "`chi2_over`: Pearson's χ² over every board, or over blocks of consecutive boards expecting "
        f"{PER_BLOCK} draws each; `tv`: total variation distance of the sample to uniform, `tv_floor` the "
        "expected distance of a perfect sampler's `n` draws.\n",
        markdown_table(census_df, digits=4),
        f"\n## Exact distance to uniform against steps ({label})\n",
        "From the chain's transition matrix over the census, the worst start: fresh draws in half of the "
        "steps (a regeneration run), in 1/32 (a swap run), and none; the regeneration bound is "
        "`(1 - b/2)^t` with `b` the share of drawn boards that are no-guess.\n",
        markdown_table(mixing_df, digits=6),
        "\n## The chain against retry where retry is affordable\n",
        "Means with 95% intervals; `ks_p_*`: two-sample Kolmogorov–Smirnov p-values (asymptotic, conservative "
        "with ties); `cells_chi2`: each cell's 2x2 χ² (mine or not, chain or retry) summed over the cells, its "
        "asymptotic p-value `cells_p` and `cells_perm_p` from 999 random splits of the pooled boards (exact "
        "whatever ties the cells of a board).\n",
        markdown_table(agreement_df, digits=4) if len(agreement_df) else "(none)\n",
        "\n## Chains in bulk\n",
        "`sample_no_guess` with four chains: median burn-in and thinning in steps, `proven_tv` where the "
        "runs rely on fresh draws, swap acceptance, effective sample sizes (`ess_*`) and split R-hat "
        "(`rhat_*`) of the edge mine count, 3BV and the click's opening.\n",
        markdown_table(chains_df, digits=4),
    ])
    timing_md = "\n".join([
        "# Uniform no-guess boards: timings\n",
        "Median seconds a board, one board a call (`bulk`: the sample's seconds over its boards):\n",
        markdown_table(timing, digits=4),
    ])
    print(md)
    figures = _figures(maps, curves, label)
    finish(out, NAME, args, {"summary": summary, "census": census_df, "mixing": mixing_df,
                             "agreement": agreement_df, "chains": chains_df}, md, started, figures,
           timings=Timings(timing, timing_md))
    return 0
