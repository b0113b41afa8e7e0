"""The bias of no-guess generators: each measured against uniform no-guess boards of its own setting.

Every popular no-guess generator builds its boards by repair, and repair moves the
distribution of boards away from the uniform one over the boards the generator
promises. This experiment measures how far, for

- ``mscsp perturb`` (:func:`mscsp.play.noguess.generate_no_guess`, ``method="perturb"``):
  opening at the centre, complete deduction with the mine total;
- ``Tatham mines``, the Mines program of Simon Tatham's Portable Puzzle Collection
  ("Writing a soluble-grid generator for Mines"; Debian's ``sgt-puzzles`` installs it
  as ``/usr/games/sgt-mines``), driven headless by ``benchmarks/noguess.py``: its own
  first click, uniform over every cell, with no mine in the 3x3 around it; its solver
  uses the mine total but is weaker than complete deduction;
- ms_toollib's ``laymine_solvable`` (rejection against ``is_solvable``, which never
  uses the mine total) and ``laymine_solvable_adjust`` (adjusting, documented as not
  uniform), PyPI ``ms-toollib``: opening at the centre, unseeded;
- JSMinesweeper's no-guess generator (David Hill's ``createNoGuessGame``, game type
  "zero": the 3x3 around the click is mine-free; a move only on a cell his probability
  engine, which uses the mine total, finds safe with certainty), his browser scripts
  loaded unchanged into Node from a checkout named with ``--jsminesweeper`` (or
  ``$MSCSP_JSMINESWEEPER``)
  (``benchmarks/hill/jsnoguess.mjs``): opening at the centre.

The peers are optional: a generator whose program, package or checkout is missing
is skipped and the results say why (``generators.csv``).

Run with ``--peers live`` (the default), the peers make their boards on this machine;
``--save-peers`` then writes every board they were asked for, made or not, to
``--peer-file`` (:func:`~mscsp.experiments.peerboards.save_peer_boards`). ms_toollib takes no seed, so no two live
runs agree board for board. ``--peers recorded`` replays the boards of such a file
instead (:func:`~mscsp.experiments.peerboards.load_peer_boards`): the peers need not be installed, and every number
is recomputed from their boards (verification, measures, tests) beside the uniform
references and mscsp's own perturbation boards, which are drawn afresh from the seed.
That is how ``mscsp reproduce`` runs this experiment and how ``--check`` checks it byte
for byte: the file of the committed run, ``experiments/data/noguess_bias_peers.csv.gz``,
with the peers' versions, the command and the revision that made it beside it
(``noguess_bias_peers.json``).

Each generator is compared with reference boards drawn *for the same setting*: the
same first-click rule (``opening``), the same click (the centre, or for Tatham's
Mines a click drawn uniformly over every cell as his program draws it) and the
solver closest to the generator's promise: mscsp's complete deduction with the mine
total for perturb, Tatham and JSMinesweeper, without it for ms_toollib. The
reference sampler is ``--reference``: ``uniform`` (the Markov chain of
``generate_no_guess(method="uniform")``) or ``retry`` (rejection sampling, exactly
uniform; the 30x16 rows at 130 and 170 mines are then skipped, with the reason
recorded, as retry needs thousands of attempts a board there).

Measures, per generator and board size, each with its 95% interval: the mine
frequency of every cell (figures), 3BV (:func:`mscsp.metrics.bbbv`) and the number
of openings (:func:`mscsp.metrics.openings`), means with normal intervals; the
border density ratio of :mod:`mscsp.experiments.noguess_cost` (with a random click,
the mean border density over the mean interior density, per board, with a
delta-method interval: 1 in expectation on uniform boards whatever the clicks); the
share solvable by single-point deduction alone (without the mine total; Wilson
interval). Against the reference: two-sample Kolmogorov–Smirnov tests of 3BV,
openings and border mine counts; a chi-square test of homogeneity of the per-cell
mine frequencies (:func:`mscsp.stats.cells_chi2`), its asymptotic p-value beside a
permutation p-value (:func:`mscsp.stats.cells_chi2_permutation`: the boards of both
samples pooled and split again at random, 999 times, seeded; exact whatever ties
the cells of a board); and a two-proportion test of the single-point share, each
with its p-value. Every board a generator returns is also checked with mscsp's verifier at
the reference's strength (``verified``).

One module, not several: the generators' settings, the references drawn for them, the
tables and the figures all turn on the same pairing of a generator with its reference;
the peers' drivers live in ``benchmarks/noguess.py`` and the recorded boards' file
format in :mod:`mscsp.experiments.peerboards`.

    python experiments/noguess_bias.py --boards 200 --jsminesweeper ~/src/JSMinesweeper --save-peers
    python experiments/noguess_bias.py --peers recorded --out results/noguess_bias
    python experiments/noguess_bias.py --quick --reference retry --out /tmp/noguess_bias
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..board import Layout, Spec
from ..errors import GenerationError, InputError
from ..metrics import bbbv, openings
from ..play.noguess import Method, generate_no_guess
from ..play.verify import verify
from ..stats import cells_chi2, cells_chi2_permutation, ks_two_sample, mean_interval, two_proportions, wilson
from .cli import _positive, experiment_parser, finish, run_units
from .noguess_cost import border_cells, border_ratio
from .output import Timings, markdown_table, provenance, split_timings, summary_row
from .peerboards import Status, layout_text, load_peer_boards, save_peer_boards
from .peers import benchmark, find_generators
from .runner import Chunk, Unit, sample_seeds

__all__ = ["main", "border_ratio_boards", "NAME", "PEER_FILE"]

NAME = "noguess_bias"
CHUNK = 5
RULE = "opening"
BOARDS = [
    ("beginner", Spec(9, 9, 10)),
    ("intermediate", Spec(16, 16, 40)),
    ("expert", Spec(30, 16, 99)),
    ("30x16/130", Spec(30, 16, 130)),
    ("30x16/170", Spec(30, 16, 170)),
]
QUICK_BOARDS = BOARDS[:1]
#: Densities from which retry, as the reference, is skipped: thousands of attempts a board.
RETRY_MAX_DENSITY = 0.25


@dataclass(frozen=True)
class Setting:
    """What a generator promises and where it clicks: the reference is drawn for it."""

    name: str
    use_total: bool
    random_click: bool

    @property
    def solver(self) -> str:
        return "sat+total" if self.use_total else "sat"


CENTRE_TOTAL = Setting("centre, with the total", True, False)
CENTRE_NO_TOTAL = Setting("centre, without the total", False, False)
RANDOM_TOTAL = Setting("random click, with the total", True, True)

#: generator: (setting of its reference, its first-click rule and guarantee, in words)
GENERATORS = {
    "mscsp perturb": (CENTRE_TOTAL, "opening at the centre; complete deduction with the mine total"),
    "Tatham mines": (RANDOM_TOTAL, "opening at his own click, uniform over all cells; his solver, with the "
                                   "mine total (weaker than complete deduction)"),
    "ms laymine_solvable": (CENTRE_NO_TOTAL, "opening at the centre; is_solvable, without the total"),
    "ms laymine_solvable_adjust": (CENTRE_NO_TOTAL, "opening at the centre; is_solvable, without the total"),
    "JSMinesweeper": (CENTRE_TOTAL, "opening (game type zero) at the centre; his probability engine, "
                                    "with the mine total"),
}
SHORT = {"mscsp perturb": "perturb", "Tatham mines": "tatham", "ms laymine_solvable": "ms",
         "ms laymine_solvable_adjust": "ms-adjust", "JSMinesweeper": "js"}
#: What names a row of the summary, and its machine-dependent columns.
KEYS = ["board", "method"]
TIMING = ["mean_s", "median_s"]
#: In one chunk, a generator that failed this many boards in a row, with none made, stops there.
GIVE_UP = 2
#: Random splits of the pooled boards behind the per-cell test's permutation p-value.
PERMUTATIONS = 999
#: The peers' boards of the committed run, which ``--peers recorded`` replays.
PEER_FILE = Path(__file__).resolve().parents[2] / "experiments" / "data" / "noguess_bias_peers.csv.gz"
def _reference_name(setting: Setting, reference: str) -> str:
    return f"{reference} ({setting.name})"


# -- statistics -----------------------------------------------------------------------------
def border_ratio_boards(border: list[int], weighed: list[tuple[int, int]], mines: int,
                        z: float = 1.959963984540054) -> tuple[float, float, float]:
    """The border density ratio of boards whose clicks differ: board ``i`` has
    ``border[i]`` mines on its ``weighed[i] = (nb, ni)`` weighed border and interior
    cells (:func:`~mscsp.experiments.noguess_cost.border_cells` for its click). The
    ratio is the mean border density ``b/nb`` over the mean interior density
    ``(M - b)/ni``; on uniform boards both densities have expectation
    ``M / (nb + ni)`` for every click, so the ratio is 1 in expectation whatever the
    clicks. With one click it is :func:`~mscsp.experiments.noguess_cost.border_ratio`.
    The 95% interval is the delta method's for a ratio of means: ``(ratio, low, high)``.

    Examples
    --------
    >>> border_ratio_boards([4, 5], [(32, 40), (32, 40)], 10)[0] == (4.5 / 32) / (5.5 / 40)
    True
    """
    b = np.asarray(border, dtype=float)
    nb = np.array([w[0] for w in weighed], dtype=float)
    ni = np.array([w[1] for w in weighed], dtype=float)
    x, y = b / nb, (mines - b) / ni
    n = len(b)
    ratio = float(x.mean() / y.mean())
    if n < 2:
        return ratio, ratio, ratio
    cov = np.cov(x, y, ddof=1)
    var = ratio ** 2 * (cov[0, 0] / x.mean() ** 2 + cov[1, 1] / y.mean() ** 2
                        - 2 * cov[0, 1] / (x.mean() * y.mean())) / n
    half = z * math.sqrt(max(var, 0.0))
    return ratio, ratio - half, ratio + half


# -- the work ---------------------------------------------------------------------------------
def _centre(spec: Spec) -> tuple[int, int]:
    return spec.width // 2, spec.height // 2


def _state(ss: np.random.SeedSequence) -> int:
    """A 32-bit seed for a program that takes its own (Tatham's Mines, JSMinesweeper)."""
    return int(ss.generate_state(1)[0])


def _made(spec: Spec, mines: np.ndarray, click: tuple[int, int], setting: Setting, check: bool) -> dict:
    layout = Layout(spec.geometry, np.asarray(mines, dtype=bool))
    border, inner = border_cells(spec, click)
    row = {"click": list(click), "bbbv": bbbv(layout), "openings": openings(layout),
           "border": int(layout.mines[border].sum()), "weighed": [int(border.sum()), int(inner.sum())],
           "single_point": bool(verify(layout, click, "single-point", use_total=False).solved),
           "mines": np.flatnonzero(layout.mines).tolist()}
    if check:
        row["verified"] = bool(verify(layout, click, "sat", use_total=setting.use_total).solved)
    return row


def _misplaced(spec: Spec, mines: np.ndarray, click: tuple[int, int]) -> str:
    """Why a peer's board breaks the setting (the mine count, the 3x3 around the
    click), or an empty string."""
    g = spec.geometry
    if int(np.count_nonzero(mines)) != spec.mines:
        return f"{int(np.count_nonzero(mines))} mines instead of {spec.mines}"
    if np.asarray(mines)[list(g.closed_neighbourhood(g.cell(click)))].any():
        return "a mine in the 3x3 around the click"
    return ""


def _is_peer(generator: str) -> bool:
    return generator in GENERATORS and generator != "mscsp perturb"


def _replay(chunk: Chunk) -> dict:
    """The chunk's boards from a peer-board file, exactly as a live run recorded them."""
    p = chunk.params
    spec, setting = Spec(**p["spec"]), Setting(**p["setting"])
    recorded = load_peer_boards(p["recorded"])["boards"][(p["label"], p["generator"])]
    boards, seconds, failures, untried, notes = [], [], 0, 0, set()
    for i in range(chunk.start, chunk.stop):
        row = recorded[i]
        if row["status"] == Status.UNTRIED:
            untried += 1
        elif row["status"] == Status.FAILED:
            failures += 1
            notes.add(row["note"] or "failed")
        else:
            seconds.append(row["seconds"])
            boards.append(_made(spec, row["mines"], row["click"], setting, check=True))
    return {"boards": boards, "seconds": seconds, "failures": failures, "untried": untried, "notes": sorted(notes),
            "record": []}


def _work(chunk: Chunk) -> dict:
    p = chunk.params
    if p.get("recorded"):
        return _replay(chunk)
    spec = Spec(**p["spec"])
    setting = Setting(**p["setting"])
    generator, limit = p["generator"], p["limit"]
    seeds = sample_seeds(chunk)
    boards, seconds, failures, untried, notes, record = [], [], 0, 0, set(), []
    bench = benchmark("noguess") if _is_peer(generator) else None
    if generator == "JSMinesweeper":
        outcomes = bench.js_generate(p["peer"]["path"], spec.width, spec.height, spec.mines, _centre(spec),
                                     [_state(ss) for ss in seeds], limit)
    for i, ss in enumerate(seeds):
        sample = chunk.start + i
        if failures >= GIVE_UP and not boards:
            untried += 1
            record.append({"sample": sample, "status": Status.UNTRIED})
            continue
        click = _centre(spec)
        started = time.perf_counter()
        mines = note = None
        if generator not in GENERATORS or generator == "mscsp perturb":
            rng = np.random.default_rng(ss)
            if setting.random_click:
                click = (int(rng.integers(spec.width)), int(rng.integers(spec.height)))
            method = "perturb" if generator == "mscsp perturb" else p["reference"]
            try:
                made = generate_no_guess(spec, RULE, click, rng, method=method, solver="sat",
                                         use_total=setting.use_total, time_limit=limit)
                mines, took = made.layout.mines, time.perf_counter() - started
            except GenerationError:
                note = "no board within the time limit"
        else:
            if generator == "Tatham mines":
                out = bench.tatham_generate(p["peer"]["path"], spec.width, spec.height, spec.mines,
                                            str(_state(ss)), limit)
            elif generator == "JSMinesweeper":
                out = outcomes[i]
            else:
                kind = "retry" if generator == "ms laymine_solvable" else "adjust"
                out = bench.ms_generate(kind, spec.width, spec.height, spec.mines, click, limit)
            if out.ok:
                mines, took, click = out.mines, out.seconds, tuple(out.click or click)
                note = _misplaced(spec, mines, click)
                if note:
                    mines = None
            else:
                note = out.note
        if mines is None:
            failures += 1
            notes.add(note or "failed")
            record.append({"sample": sample, "status": Status.FAILED, "note": note or "failed"})
            continue
        seconds.append(took)
        boards.append(_made(spec, mines, click, setting, check=generator in GENERATORS))
        if bench is not None:
            record.append({"sample": sample, "status": Status.MADE, "click": list(click), "seconds": took,
                           "layout": layout_text(spec, mines)})
    return {"boards": boards, "seconds": seconds, "failures": failures, "untried": untried, "notes": sorted(notes),
            "record": record if bench is not None else []}


def _combine(parts: list[dict]) -> dict:
    out = {"boards": [], "seconds": [], "failures": 0, "untried": 0, "notes": set(), "record": []}
    for part in parts:
        out["boards"] += part["boards"]
        out["seconds"] += part["seconds"]
        out["failures"] += part["failures"]
        out["untried"] += part["untried"]
        out["notes"].update(part["notes"])
        out["record"] += part.get("record", [])
    out["notes"] = sorted(out["notes"])
    return out


def _units(boards, ran: dict, args) -> tuple[list[Unit], list[dict]]:
    """The units (references first, then the generators) and the rows skipped, with why."""
    units, skipped = [], []
    for label, spec in boards:
        settings = []
        for name, peer in ran.items():
            setting = GENERATORS[name][0]
            if setting not in settings:
                settings.append(setting)
        retry_out = args.reference == "retry" and spec.mines / (spec.width * spec.height) > RETRY_MAX_DENSITY
        for setting in settings:
            name = _reference_name(setting, args.reference)
            if retry_out:
                skipped.append({"board": label, "method": name, "reason": "retry as the reference: thousands of "
                                "attempts a board at this density (use --reference uniform)"})
                continue
            units.append(Unit(f"{label}/{name}", {"label": label, "spec": spec.__dict__, "generator": name,
                                                  "setting": setting.__dict__, "reference": args.reference,
                                                  "limit": args.time_limit, "peer": None}, args.samples))
        for name, peer in ran.items():
            limit = min(args.time_limit, args.retry_limit) if name == "ms laymine_solvable" else args.time_limit
            params = {"label": label, "spec": spec.__dict__, "generator": name,
                      "setting": GENERATORS[name][0].__dict__, "reference": args.reference, "limit": limit,
                      "peer": peer or None}
            if _is_peer(name) and getattr(args, "peers", "live") == "recorded":
                params["recorded"] = str(args.peer_file)
            units.append(Unit(f"{label}/{name}", params, args.samples))
    return units, skipped


def _recorded_generators(args, boards) -> tuple[dict, dict, dict]:
    """For ``--peers recorded``: the generators that run (mscsp perturb live, the
    peers from the file), those skipped with why, and the file's sidecar. Bad input
    when the file was made with another seed, or holds fewer boards than asked for."""
    about = load_peer_boards(Path(args.peer_file))
    if about.get("seed") != args.seed:
        raise InputError(f"{args.peer_file}: its boards were drawn with seed {about.get('seed')}, not {args.seed}; "
                         "use that seed or --peers live")
    ran, skipped = {}, {}
    for name in args.generators:
        if not _is_peer(name):
            ran[name] = {}
        elif name in about.get("generators", {}):
            ran[name] = {k: v for k, v in about["generators"][name].items() if k != "path"}
        else:
            skipped[name] = about.get("skipped", {}).get(name) or "not in the recorded peer boards"
    for label, spec in boards:
        for name in ran:
            if not _is_peer(name):
                continue
            rows = about["boards"].get((label, name), {})
            have = next((i for i in range(args.samples) if i not in rows), args.samples)
            if have < args.samples:
                raise InputError(f"{args.peer_file}: {name} has {have} boards of {label} in a row, not {args.samples};"
                                 " ask for fewer (--boards) or record more (--peers live --save-peers)")
            if about["sizes"].get(label) != spec.__dict__:
                raise InputError(f"{args.peer_file}: its {label} is not {spec.width}x{spec.height} with {spec.mines} "
                                 "mines")
    return ran, skipped, about


def _shown(path: Path) -> str:
    """A peer-board file as the results name it: from the checkout's top where it lies there."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(PEER_FILE.parents[2]))
    except ValueError:
        return str(path)


# -- the tables ---------------------------------------------------------------------------------
def _measures(spec: Spec, setting: Setting, t: dict) -> dict:
    boards = t["boards"]
    row = {}
    if not boards:
        return row
    for key in ("bbbv", "openings"):
        mean, low, high = mean_interval([b[key] for b in boards])
        row.update({f"mean_{'3bv' if key == 'bbbv' else key}": mean,
                    f"{'3bv' if key == 'bbbv' else key}_low": low, f"{'3bv' if key == 'bbbv' else key}_high": high})
    if setting.random_click:
        ratio = border_ratio_boards([b["border"] for b in boards], [tuple(b["weighed"]) for b in boards], spec.mines)
    else:
        ratio = border_ratio([b["border"] for b in boards], spec, _centre(spec))
    row.update({"border_density_ratio": ratio[0], "border_ratio_low": ratio[1], "border_ratio_high": ratio[2]})
    k = sum(b["single_point"] for b in boards)
    low, high = wilson(k, len(boards))
    row.update({"single_point_share": k / len(boards), "single_point_low": low, "single_point_high": high})
    checked = [b["verified"] for b in boards if "verified" in b]
    if checked:
        row.update({"verified": sum(checked), "verified_share": sum(checked) / len(checked)})
    return row


def _mine_sum(spec: Spec, boards: list[dict]) -> np.ndarray:
    out = np.zeros(spec.width * spec.height, dtype=np.int64)
    for b in boards:
        out[b["mines"]] += 1
    return out


def _mine_rows(spec: Spec, boards: list[dict]) -> np.ndarray:
    out = np.zeros((len(boards), spec.width * spec.height), dtype=bool)
    for i, b in enumerate(boards):
        out[i, b["mines"]] = True
    return out


def _tables(units: list[Unit], totals: list[dict], reference: str, seed: int):
    rows, tests = [], []
    by = {(u.params["label"], u.params["generator"]): (u, t) for u, t in zip(units, totals)}
    for u, (unit, t) in enumerate(zip(units, totals)):
        p = unit.params
        spec, setting, name = Spec(**p["spec"]), Setting(**p["setting"]), p["generator"]
        tried = len(t["boards"]) + t["failures"]
        secs = np.array(t["seconds"]) if t["seconds"] else np.array([np.nan])
        click = None if setting.random_click else _centre(spec)
        is_ref = name not in GENERATORS
        rows.append(summary_row(
            p["label"], spec, RULE, click, tried, len(t["boards"]), solver=setting.solver, method=name,
            role="reference" if is_ref else "generator", setting=setting.name, untried=t["untried"],
            **_measures(spec, setting, t), notes="; ".join(t["notes"]),
            mean_s=float(np.nanmean(secs)), median_s=float(np.nanmedian(secs))))
        if is_ref:
            continue
        ref = by.get((p["label"], _reference_name(setting, reference)))
        row = {"board": p["label"], "method": name, "reference": _reference_name(setting, reference),
               "boards": len(t["boards"]), "reference_boards": len(ref[1]["boards"]) if ref else 0}
        if ref is None or not t["boards"] or not ref[1]["boards"]:
            row["note"] = "no reference boards" if ref is None or not ref[1]["boards"] else "no boards made"
            tests.append(row)
            continue
        mine, theirs = t["boards"], ref[1]["boards"]
        for key, col in (("bbbv", "3bv"), ("openings", "openings"), ("border", "border")):
            a, b = [x[key] for x in mine], [x[key] for x in theirs]
            row[f"diff_{col}"] = float(np.mean(a) - np.mean(b))
            row[f"ks_{col}"], row[f"ks_{col}_p"] = ks_two_sample(a, b)
        row["chi2_cells"], row["chi2_df"], row["chi2_cells_p"] = cells_chi2(
            _mine_sum(spec, mine), len(mine), _mine_sum(spec, theirs), len(theirs))
        row["chi2_cells_perm_p"] = cells_chi2_permutation(
            _mine_rows(spec, mine), _mine_rows(spec, theirs), np.random.default_rng([seed, u]), PERMUTATIONS)
        row["diff_single_point"], row["single_point_p"] = two_proportions(
            sum(x["single_point"] for x in mine), len(mine), sum(x["single_point"] for x in theirs), len(theirs))
        row["note"] = ""
        tests.append(row)
    tests = pd.DataFrame(tests)
    if "chi2_df" in tests.columns:
        tests["chi2_df"] = tests["chi2_df"].astype("Int64")
    return pd.DataFrame(rows), tests


def _figures(units: list[Unit], totals: list[dict], reference: str) -> dict:
    """One figure a board size: a row a setting, its reference's mine frequency per
    cell, then each generator's beside its difference from the reference."""
    from .figures import pyplot

    plt = pyplot()  # the figures' font, as in every experiment

    figures = {}
    for label in dict.fromkeys(u.params["label"] for u in units):
        here = [(u, t) for u, t in zip(units, totals) if u.params["label"] == label and t["boards"]]
        if not here:
            continue
        spec = Spec(**here[0][0].params["spec"])
        freq = {u.params["generator"]: _mine_sum(spec, t["boards"]).reshape(spec.height, spec.width) / len(t["boards"])
                for u, t in here}
        count = {u.params["generator"]: len(t["boards"]) for u, t in here}
        rows: dict[str, list[str]] = {}
        for u, _ in here:
            rows.setdefault(Setting(**u.params["setting"]).name, []).append(u.params["generator"])
        panels = []  # per row: (name, whether a difference from the row's reference) per column
        for setting, names in rows.items():
            ref = next((n for n in names if n not in GENERATORS), None)
            row = [(ref, False)] if ref else [(None, False)]
            for n in names:
                if n in GENERATORS:
                    row += [(n, False), (n, True)] if ref else [(n, False)]
            panels.append((ref, row))
        cols = max(len(r) for _, r in panels)
        top = max([spec.mines / (spec.width * spec.height) * 2, *(float(f.max()) for f in freq.values())])
        span = max([0.05, *(float(np.abs(freq[n] - freq[ref]).max()) for ref, row in panels if ref
                            for n, diff in row if diff)])
        aspect = spec.height / spec.width
        size = (2.3 * cols + 1.2, len(panels) * (2.3 * aspect + 0.55) + 0.5)
        fig, axes = plt.subplots(len(panels), cols, figsize=size, squeeze=False, layout="constrained")
        shown = diff_shown = None
        for r, (ref, row) in enumerate(panels):
            for c in range(cols):
                ax = axes[r][c]
                if c >= len(row) or row[c][0] is None:
                    ax.axis("off")
                    if c == 0:
                        ax.text(0.5, 0.5, "no reference\n(skipped.csv)", ha="center", va="center", fontsize=8)
                    continue
                n, diff = row[c]
                if diff:
                    diff_shown = ax.imshow(freq[n] - freq[ref], cmap="RdBu_r", vmin=-span, vmax=span)
                    ax.set_title(f"{n}\nminus its reference", fontsize=8)
                else:
                    shown = ax.imshow(freq[n], cmap="magma", vmin=0, vmax=top)
                    ax.set_title(f"{n}\n({count[n]:,} boards)", fontsize=8)
                ax.set_xticks([])
                ax.set_yticks([])
        fig.colorbar(shown, ax=axes, shrink=0.6, label="share of boards with a mine", location="right")
        if diff_shown is not None:
            fig.colorbar(diff_shown, ax=axes, shrink=0.6, label="difference from the reference", location="right")
        fig.suptitle(f"{label} ({spec.width}x{spec.height}, {spec.mines} mines): mine frequency per cell", fontsize=10)
        figures[f"mine_frequency_{label.replace('/', '_')}"] = fig
    return figures


def _generator_list(text: str) -> list[str]:
    by_short = {v: k for k, v in SHORT.items()}
    names = []
    for word in text.split(","):
        word = word.strip()
        if word not in by_short:
            raise argparse.ArgumentTypeError(f"unknown generator {word!r}; choose from {', '.join(SHORT.values())}")
        names.append(by_short[word])
    return list(dict.fromkeys(names))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(NAME, __doc__, samples=200, seed=42, quick=4)
    parser.add_argument("--boards", type=_positive, dest="samples", help="boards per generator and board size "
                        "(the same as --samples)")
    parser.add_argument("--reference", choices=["uniform", "retry"], default="uniform",
                        help="the sampler of uniform no-guess boards to compare with (default: uniform)")
    parser.add_argument("--generators", type=_generator_list, default=list(GENERATORS),
                        help=f"comma-separated, from {','.join(SHORT.values())} (default: all that are installed)")
    parser.add_argument("--tatham", default="auto", metavar="PATH",
                        help="the Mines program of Simon Tatham's Puzzle Collection (default: sgt-mines where "
                             "installed; none: skip it)")
    parser.add_argument("--jsminesweeper", metavar="PATH", default=os.environ.get("MSCSP_JSMINESWEEPER"),
                        help="a checkout of DavidNHill/JSMinesweeper (default: $MSCSP_JSMINESWEEPER; without "
                             "either, JSMinesweeper is skipped)")
    parser.add_argument("--time-limit", type=_seconds, default=60.0, help="seconds per board (default: 60)")
    parser.add_argument("--retry-limit", type=_seconds, default=10.0,
                        help="seconds per board for ms laymine_solvable, rejection without the mine total, "
                             "hopeless at high density (default: 10)")
    parser.add_argument("--peers", choices=["live", "recorded"], default="live",
                        help="live: run the peers here; recorded: replay their boards from --peer-file, "
                             "as mscsp reproduce does (default: live)")
    parser.add_argument("--peer-file", type=Path, default=PEER_FILE, metavar="PATH",
                        help="the peers' boards (gzipped CSV, its JSON beside it) that --peers recorded replays "
                             "and --save-peers writes (default: experiments/data/noguess_bias_peers.csv.gz)")
    parser.add_argument("--save-peers", action="store_true",
                        help="with --peers live, write every board the peers were asked for to --peer-file")
    parser.set_defaults(_numbers_depend_on=[("--reference", "reference"), ("--time-limit", "time_limit"),
                                            ("--retry-limit", "retry_limit"), ("--peers", "peers")])
    args = parser.parse_args(argv)
    if args.reference == "uniform" and "uniform" not in {m.value for m in Method}:
        print(f"experiments/{NAME}.py: this mscsp has no uniform sampler (generate_no_guess(method='uniform')); "
              "use --reference retry", file=sys.stderr)
        return 2
    if args.save_peers and args.peers != "live":
        print(f"experiments/{NAME}.py: --save-peers records a live run; it cannot go with --peers recorded",
              file=sys.stderr)
        return 2
    started = time.perf_counter()
    out = Path(args.out)
    boards = QUICK_BOARDS if args.quick else BOARDS
    about = None
    if args.peers == "recorded":
        try:
            ran, skipped_peers, about = _recorded_generators(args, boards)
        except InputError as exc:
            print(f"experiments/{NAME}.py: {exc}", file=sys.stderr)
            return 2
    else:
        ran, skipped_peers = find_generators(args.generators, args.tatham, args.jsminesweeper)
    units, skipped_rows = _units(boards, ran, args)
    parts = run_units(NAME, units, _work, args, CHUNK, "board")
    totals = [_combine(p) for p in parts]
    if args.save_peers:
        peers = [(u, t) for u, t in zip(units, totals) if _is_peer(u.params["generator"])]
        save_peer_boards(args.peer_file, [u for u, _ in peers], [t for _, t in peers], {
            "seed": args.seed, "samples": args.samples, "time_limit": args.time_limit,
            "retry_limit": args.retry_limit,
            "generators": {n: {k: v for k, v in info.items() if k != "path"} for n, info in ran.items()
                           if _is_peer(n)},
            "skipped": skipped_peers,
            "made_by": {k: v for k, v in provenance([f"python experiments/{NAME}.py", *args.argv]).items()
                        if k in ("command_line", "finished_utc", "git", "python", "platform")}})
    summary, tests = _tables(units, totals, args.reference, args.seed)
    summary, timing = split_timings(summary, KEYS, TIMING)
    def source(name: str) -> str:
        if not _is_peer(name) or about is None:
            return "live"
        made = about.get("made_by", {})
        return (f"recorded ({_shown(args.peer_file)}, made at {str(made.get('git', {}).get('revision', '?'))[:7]}"
                f" on {str(made.get('finished_utc', '?'))[:10]})")

    generators = pd.DataFrame(
        [{"generator": n, "ran": True, "source": source(n),
          "reference": _reference_name(GENERATORS[n][0], args.reference),
          "reference_solver": GENERATORS[n][0].solver, "setting": GENERATORS[n][1], "reason": ""} for n in ran]
        + [{"generator": n, "ran": False, "source": "", "reference": "", "reference_solver": "",
            "setting": GENERATORS[n][1], "reason": why} for n, why in skipped_peers.items()])
    skipped = pd.DataFrame(skipped_rows, columns=["board", "method", "reason"])
    cols = ["board", "method", "role", "solver", "n", "k", "p", "low", "high", "untried", "verified_share", "mean_3bv",
            "3bv_low", "3bv_high", "mean_openings", "openings_low", "openings_high", "border_density_ratio",
            "border_ratio_low", "border_ratio_high", "single_point_share", "single_point_low", "single_point_high"]
    cols = [c for c in cols if c in summary.columns]
    test_cols = [c for c in ["board", "method", "boards", "reference_boards", "diff_3bv", "ks_3bv_p", "diff_openings",
                             "ks_openings_p", "diff_border", "ks_border_p", "chi2_cells", "chi2_df", "chi2_cells_p",
                             "chi2_cells_perm_p", "diff_single_point", "single_point_p", "note"] if c in tests.columns]
    md = "\n".join([
        "# The bias of no-guess generators against uniform no-guess boards\n",
        f"Up to {args.samples} boards per generator and board size (seed {args.seed}), {args.time_limit:g} s a "
        f"board ({min(args.time_limit, args.retry_limit):g} s for ms laymine_solvable; in each chunk of {CHUNK} "
        f"boards a generator that fails its first {GIVE_UP} is not asked for the rest, counted in `untried`). "
        f"The reference: `{args.reference}` "
        + ("(rejection sampling, exactly uniform)" if args.reference == "retry" else "(the Markov chain of "
           "`generate_no_guess(method=\"uniform\")`)")
        + ", drawn for each generator's own setting: rule `opening` (no mine in the 3x3 around the click), the "
        "same click (the centre; Tatham's Mines draws its click uniformly over all cells, and so does its "
        "reference) and mscsp's complete deduction (`solver`: `sat+total` with the mine total, `sat` without) "
        "as the nearest strength to what the generator promises.\n",
        *([f"The peers' boards are replayed from `{_shown(args.peer_file)}` (`source` below: the revision and "
           "day of the live run that made them; ms_toollib takes no seed, so a live run cannot repeat its "
           "boards); everything else is computed here from them, the uniform references and mscsp's own "
           "perturbation boards drawn afresh from the seed.\n"] if about is not None else []),
        "## Generators\n",
        markdown_table(generators, digits=3),
        "\n## Measures\n",
        "`n` boards tried, `k` made (`p`, Wilson 95% in `low`/`high`), `untried` not asked for; "
        "`verified_share`: the made boards mscsp's verifier finishes at the reference's strength. "
        "Means with 95% intervals (`_low`/`_high`); "
        "`border_density_ratio`: mine density on the border over the interior, without the cells the rule "
        "keeps free (1 in expectation on uniform boards); `single_point_share`: boards finished by single-point "
        "deduction alone, without the mine total (Wilson 95%).\n",
        markdown_table(summary, columns=cols, digits=3),
        "\n## Tests against the reference\n",
        "`diff_*`: generator's mean minus the reference's; `ks_*_p`: two-sample Kolmogorov–Smirnov p-values "
        "(3BV, openings, mines on the border; conservative where values tie); `chi2_cells`: chi-square "
        "of every cell's mine frequency against the reference's, summed over the cells (`chi2_df` degrees of "
        f"freedom, `chi2_cells_p` asymptotic, `chi2_cells_perm_p` by {PERMUTATIONS} random splits of the pooled "
        "boards); "
        "`single_point_p`: the pooled two-proportion test of the single-point share.\n",
        markdown_table(tests, columns=test_cols, digits=3) if len(tests) else "(no generator ran)\n",
        *(["\n## Skipped\n", markdown_table(skipped, digits=3)] if len(skipped) else []),
    ])
    timing_md = "\n".join(["# No-guess generators: timings\n",
                           "Seconds per board made (Tatham: his program's CPU figure; JSMinesweeper: Node's CPU "
                           "seconds; the others wall seconds).\n", markdown_table(timing, digits=4)])
    print(markdown_table(summary, columns=cols, digits=3), end="")
    if len(tests):
        print(markdown_table(tests, columns=test_cols, digits=3), end="")
    finish(out, NAME, args, {"summary": summary, "tests": tests, "generators": generators, "skipped": skipped},
           md, started, _figures(units, totals, args.reference), timings=Timings(timing, timing_md),
           extra={"reference": args.reference, "time_limit": args.time_limit, "retry_limit": args.retry_limit,
                  "generators": {n: {k: v for k, v in info.items() if k != "path"} for n, info in ran.items()},
                  "skipped": skipped_peers, "peers": args.peers,
                  **({"peer_file": _shown(args.peer_file),
                      "peer_file_made_by": about.get("made_by", {})} if about is not None else {})})
    return 0
