"""Which clue encoding and SAT backend the complete solver should use: measured.

Every clue is an exact cardinality constraint over at most eight cells. This runs the
complete solver (``SatEngine``, with the mine total) over Expert positions from real
play (the corpus of ``benchmarks/probability.py``) once per encoding and backend, in
the same process, checks that all agree on every proven cell, and prints the median
and p90 milliseconds per position with the ratio to the default (binomial, Glucose 4).

    python benchmarks/encodings.py --positions 200 --seed 2026
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from probability import build_corpus  # noqa: E402

from mscsp.analysis.constraints import build_constraints  # noqa: E402
from mscsp.analysis.solvers.encoding import ENCODINGS  # noqa: E402
from mscsp.analysis.solvers.sat import SatEngine  # noqa: E402

BACKENDS = ["g4", "m22", "cd195", "mc"]


def run(corpus, backend: str, encoding: str) -> tuple[list[float], list[dict]]:
    times, answers = [], []
    for position in corpus:
        system = build_constraints(position)
        started = time.perf_counter()
        out = SatEngine(system, backend=backend, encoding=encoding).run()
        times.append((time.perf_counter() - started) * 1e3)
        answers.append(out.known)
    return times, answers


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    corpus, games = build_corpus(args.positions, args.seed)
    print(f"{len(corpus)} Expert positions from {games} games, seed {args.seed}")
    base_times, base_answers = run(corpus, "g4", "binomial")
    base = statistics.median(base_times)
    rows = []
    for backend in BACKENDS:
        for encoding in ENCODINGS:
            times, answers = (base_times, base_answers) if (backend, encoding) == ("g4", "binomial") \
                else run(corpus, backend, encoding)
            agree = answers == base_answers
            q = statistics.quantiles(times, n=10)
            rows.append((backend, encoding, statistics.median(times), q[8], agree))
    print(f"{'backend':8s} {'encoding':11s} {'median ms':>10s} {'p90 ms':>8s} {'ratio':>6s} agree")
    for backend, encoding, med, p90, agree in sorted(rows, key=lambda r: r[2]):
        print(f"{backend:8s} {encoding:11s} {med:10.3f} {p90:8.3f} {med / base:6.2f} {agree}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
