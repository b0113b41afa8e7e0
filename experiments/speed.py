"""Speed beside the peers: the benchmarks' figures as a results folder the paper quotes.

Runs five benchmarks of ``benchmarks/`` on this machine, one after another, and
writes what they measured to ``--out`` (``results/speed`` by default):

- ``benchmarks/probability.py --stages``: exact mine probabilities (the counting
  engine alone, and the whole ``analyse`` with its SAT proofs) against
  ms_toollib's ``cal_probability_onboard`` on positions from real play, modern and
  classic Expert and 8x8 boards, by stage of the game, median milliseconds;
- ``benchmarks/verify.py``: whether an Expert board can be finished without a guess,
  against ms_toollib's ``is_solvable``, median milliseconds;
- ``benchmarks/counters.py --no-approxmc``: the exact layout count of hard positions
  (lattices, a strip, a long frontier, a compiled formula, Expert stalls; with and
  without the mine total) against the model counter Ganak (PyPI ``pyganak``) on the
  position's DIMACS export, each given 60 s; the counts must agree;
- ``benchmarks/noguess.py``: no-guess boards made by perturbation and by retry
  against ms_toollib's ``laymine_solvable`` on 30x16/99 and 30x16/130, median
  milliseconds per board made, every board checked again; and, when the Mines
  program of Simon Tatham's Portable Puzzle Collection is given with ``--tatham``
  (Debian's ``sgt-puzzles`` installs it as ``/usr/games/sgt-mines``), mscsp's
  perturbation against his generator (his CPU milliseconds per board);
- ``benchmarks/players.py --same-boards``: the ``+endgame`` player against David
  Hill's Java solver on the same boards (CPU milliseconds per game, win rates and
  the paired difference), when a checkout of his solver is given with
  ``--hill-java`` (built there with ``javac``).

ms_toollib (PyPI ``ms-toollib``) and pyganak are benchmark dependencies only. Every figure is a
timing of this machine, so the whole folder is timing files: ``summary.csv`` (one
row a comparison, corpus and stage; ``ratio`` is mscsp's time over the peer's:
below 1, mscsp is faster; ``limit_ms``, where set, is the time each side was given,
and a peer time left blank means the peer did not finish within it), each benchmark's printed report (``*.txt``) and
``run.json`` (command, machine, package and peer versions, git revision).
``mscsp reproduce`` does not run it: the peers are not dependencies of the toolkit.

    python experiments/speed.py --hill-java PATH --tatham /usr/games/sgt-mines   # about ten minutes
    python experiments/speed.py --quick --out /tmp/speed    # a minute: the plumbing
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import pandas as pd

from mscsp.experiments.output import RUN_FILE, markdown_table, provenance

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parent / "benchmarks"

#: The columns of summary.csv, in order.
COLUMNS = ["comparison", "corpus", "stage", "n", "mscsp_ms", "peer", "peer_ms", "ratio",
           "mscsp_wins", "peer_wins", "diff", "low", "high", "limit_ms"]

#: How large each benchmark runs: the full size and ``--quick``.
SIZES = {
    "full": {"positions": 200, "repeat": 3, "boards": 1000, "games": 2000, "counter_timeout": 60,
             "counted": None, "generated": "30x16/99,30x16/130", "generator_boards": 20},
    "quick": {"positions": 6, "repeat": 1, "boards": 20, "games": 10, "counter_timeout": 10,
              "counted": ["strip 1500x2"], "generated": "30x16/99", "generator_boards": 2},
}

SEED = 2026


def _run(name: str, args: list[str], out: Path, work: Path) -> dict:
    """Run ``benchmarks/NAME.py`` with ``args`` and ``--json``; keep its report as
    ``NAME.txt`` in ``out``; return what it wrote as JSON."""
    answer = work / f"{name}.json"
    command = [sys.executable, str(BENCHMARKS / f"{name}.py"), *args, "--json", str(answer)]
    print(f"speed: {' '.join(command[1:])}", file=sys.stderr, flush=True)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"speed: benchmarks/{name}.py failed (exit {done.returncode}): "
                         f"{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'no message'}")
    (work / f"{name}.txt").write_text(done.stdout, encoding="utf-8")
    return json.loads(answer.read_text(encoding="utf-8"))


def probability_rows(found: dict) -> list[dict]:
    """summary.csv rows of the probability benchmark: the engine and ``analyse``."""
    rows = []
    for r in found["rows"]:
        for comparison, column, ratio in (("probabilities", "mscsp_ms", "ratio"),
                                          ("analyse", "analyse_ms", "analyse_ratio")):
            rows.append({"comparison": comparison, "corpus": r["start"], "stage": r["stage"], "n": r["positions"],
                         "mscsp_ms": r[column], "peer": "ms_toollib", "peer_ms": r["ms_toollib_ms"],
                         "ratio": r[ratio]})
    return rows


def verify_rows(found: dict) -> list[dict]:
    """summary.csv rows of the verification benchmark: each mscsp mode against
    ms_toollib (which does not use the mine total)."""
    by = {r["engine"]: r for r in found["rows"]}
    theirs = by.pop("ms")
    modes = {"local": "without total", "total": "with total", "quick_local": "quick without total",
             "quick": "quick with total"}
    return [{"comparison": "verification", "corpus": "modern Expert", "stage": modes[key], "n": r["boards"],
             "mscsp_ms": r["median_ms"], "peer": "ms_toollib", "peer_ms": theirs["median_ms"], "ratio": r["ratio"],
             "mscsp_wins": r["accepted"], "peer_wins": theirs["accepted"]} for key, r in by.items()]


def player_rows(found: list[dict]) -> list[dict]:
    """summary.csv rows of the same-boards player comparison: CPU per game, the
    wins of each and the paired difference in win rate (mscsp minus Java)."""
    return [{"comparison": "player", "corpus": r["start"], "stage": "whole game", "n": r["games"],
             "mscsp_ms": round(r["mscsp_ms"], 3), "peer": "Hill Java", "peer_ms": round(r["java_ms"], 3),
             "ratio": round(r["mscsp_ms"] / r["java_ms"], 3), "mscsp_wins": r["mscsp_wins"],
             "peer_wins": r["java_wins"], "diff": round(r["diff"], 5), "low": round(r["low"], 5),
             "high": round(r["high"], 5)} for r in found]


def counting_rows(found: dict) -> list[dict]:
    """summary.csv rows of the model-counter benchmark: mscsp's layout count (with every
    cell's probability) against Ganak's count, per position, with and without the mine
    total. A count Ganak did not finish within the timeout has no peer time and no
    ratio; its ``limit_ms`` says how long it was given. A count that disagrees, or a
    counter that failed, stops the run: the comparison is of two exact answers."""
    rows = []
    for r in found["rows"]:
        if r["agree"] is False:
            raise SystemExit(f"speed: Ganak's count differs from mscsp's on {r['position']}")
        if r["ganak"] == "failed":  # not a timeout: no time to bound, no count to compare
            raise SystemExit(f"speed: Ganak failed on {r['position']}")
        if r["mscsp_s"] is None:
            raise SystemExit(f"speed: mscsp did not count {r['position']} within {found['timeout']:g} s")
        ganak = r["ganak_s"]
        mscsp_ms = round(1000 * r["mscsp_s"], 3)
        rows.append({"comparison": "counting", "corpus": r["position"],
                     "stage": "with total" if r["total"] else "without total", "n": 1, "mscsp_ms": mscsp_ms,
                     "peer": "Ganak", "peer_ms": None if ganak is None else round(1000 * ganak, 3),
                     "ratio": None if ganak is None else round(r["mscsp_s"] / ganak, 3),
                     "limit_ms": round(1000 * found["timeout"])})
    return rows


def generation_rows(found: dict) -> list[dict]:
    """summary.csv rows of the no-guess generation benchmark: mscsp's perturbation and
    retry against ms_toollib's rejection sampler (``laymine_solvable``), median seconds
    per board made; the boards each made of those asked for. Where Simon Tatham's
    generator ran too, a row of mscsp's perturbation against it (peer ``Tatham``, stage
    ``perturb vs Tatham``: the keys comparison, corpus and stage name one row)."""
    by = {(r["row"], r["generator"]): r for r in found["rows"]}
    rows = []
    for (board, generator), r in by.items():
        if not generator.startswith("mscsp"):
            continue
        if r["bad"]:
            raise SystemExit(f"speed: {generator} made {r['bad']} boards on {board} that fail a check")
        theirs = by[board, "ms laymine_solvable"]
        ours, peer = r["median_s"], theirs["median_s"]
        rows.append({"comparison": "generation", "corpus": board, "stage": generator.split()[1], "n": r["boards"],
                     "mscsp_ms": None if ours is None else round(1000 * ours, 3), "peer": "ms_toollib",
                     "peer_ms": None if peer is None else round(1000 * peer, 3),
                     "ratio": None if ours is None or peer is None else round(ours / peer, 3),
                     "mscsp_wins": r["made"], "peer_wins": theirs["made"],
                     "limit_ms": round(1000 * min(r["budget_s"], theirs["budget_s"]))})
        tatham = by.get((board, "Tatham mines"))
        if tatham is not None and generator == "mscsp perturb":
            peer = tatham["median_s"]
            rows.append({"comparison": "generation", "corpus": board, "stage": "perturb vs Tatham", "n": r["boards"],
                         "mscsp_ms": None if ours is None else round(1000 * ours, 3), "peer": "Tatham",
                         "peer_ms": None if peer is None else round(1000 * peer, 3),
                         "ratio": None if ours is None or peer is None else round(ours / peer, 3),
                         "mscsp_wins": r["made"], "peer_wins": tatham["made"],
                         "limit_ms": round(1000 * min(r["budget_s"], tatham["budget_s"]))})
    return rows


def _peer_versions(hill_java: Path | None, tatham: dict | None) -> dict:
    versions = {}
    for package in ("ms-toollib", "pyganak"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    if hill_java is not None:
        commit = subprocess.run(["git", "-C", str(hill_java), "rev-parse", "HEAD"], capture_output=True, text=True)
        java = subprocess.run(["java", "-version"], capture_output=True, text=True)
        versions["hill_java_commit"] = commit.stdout.strip() or None
        versions["java"] = (java.stderr.strip().splitlines() or [None])[0]
    if tatham is not None:
        versions["tatham_mines"] = tatham["version"]
        versions["tatham_commit"] = tatham["commit"]
    return versions


def _tatham(path: Path) -> dict:
    """The Mines program at ``path`` as ``benchmarks/noguess.py`` checks it (path,
    version, commit); ValueError in one line when it is not one."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("noguess_benchmark", BENCHMARKS / "noguess.py")
    noguess = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = noguess  # its dataclasses look their module up there
    spec.loader.exec_module(noguess)
    return noguess.tatham_mines(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("results/speed"))
    parser.add_argument("--hill-java", type=Path, metavar="PATH",
                        help="a checkout of David Hill's Java solver (GitHub DavidNHill/Minesweeper)")
    parser.add_argument("--tatham", type=Path, metavar="PATH",
                        help="the Mines program of Simon Tatham's Portable Puzzle Collection (/usr/games/sgt-mines)")
    parser.add_argument("--quick", action="store_true", help="a few positions, boards and games: the plumbing only")
    args = parser.parse_args(argv)
    for module, package in (("ms_toollib", "ms-toollib"), ("pyganak", "pyganak")):
        try:
            __import__(module)
        except ImportError:
            print(f"speed: {module} is not installed: pip install {package}", file=sys.stderr)
            return 2
    if args.hill_java is not None and shutil.which("javac") is None:
        print("speed: --hill-java needs a JDK (javac on PATH)", file=sys.stderr)
        return 2
    try:
        tatham = _tatham(args.tatham) if args.tatham is not None else None
    except ValueError as exc:
        print(f"speed: {exc}", file=sys.stderr)
        return 2
    size = SIZES["quick" if args.quick else "full"]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mscsp-speed-") as tmp:
        work = Path(tmp)
        rows = probability_rows(_run("probability", ["--stages", "--positions", str(size["positions"]),
                                                     "--repeat", str(size["repeat"]), "--seed", str(SEED)],
                                     args.out, work))
        rows += verify_rows(_run("verify", ["--boards", str(size["boards"]), "--seed", str(SEED)], args.out, work))
        counted = ["--only", *size["counted"]] if size["counted"] else []
        rows += counting_rows(_run("counters", ["--no-approxmc", "--timeout", str(size["counter_timeout"]), *counted],
                                   args.out, work))
        peer = ["--tatham", tatham["path"]] if tatham else []
        rows += generation_rows(_run("noguess", ["--rows", size["generated"], "--boards", str(size["generator_boards"]),
                                                 "--seed", str(SEED), *peer], args.out, work))
        if args.hill_java is not None:
            rows += player_rows(_run("players", ["--same-boards", "--hill-java", str(args.hill_java),
                                                 "--games", str(size["games"]), "--seed", "2"], args.out, work))
        table = pd.DataFrame(rows, columns=COLUMNS).astype({"n": "Int64", "mscsp_wins": "Int64", "peer_wins": "Int64",
                                                            "limit_ms": "Int64"})
        run = {"experiment": "speed", "quick": args.quick, "seed": SEED,
               "wall_seconds": round(time.perf_counter() - started, 1), **provenance(),
               "peers": _peer_versions(args.hill_java, tatham)}
        # everything is written at the end, whole: a failed benchmark leaves the old folder as it was
        args.out.mkdir(parents=True, exist_ok=True)
        for report in work.glob("*.txt"):
            shutil.copy(report, args.out / report.name)
        table.to_csv(args.out / "summary.csv", index=False)
        (args.out / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
        (args.out / "README.md").write_text(
            "# speed\n\nmscsp beside its peers on this machine (see `run.json`): median milliseconds "
            "(CPU milliseconds per game for the player); `ratio` is mscsp's time over the peer's, below 1 "
            "mscsp is faster. Made by `python experiments/speed.py`; each benchmark's own report is "
            "beside this file.\n\n" + markdown_table(table, digits=3) + "\n", encoding="utf-8")
    print(markdown_table(table, digits=3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
