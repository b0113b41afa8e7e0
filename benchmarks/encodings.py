"""Which clue encoding and SAT backend the complete solver should use: measured.

Every clue is an exact cardinality constraint over at most eight cells. This runs the
complete solver (``SatEngine``, with the mine total) over Expert positions from real
play (the corpus of ``benchmarks/probability.py``) once per encoding and backend, in
the same process, checks that all agree on every proven cell, and prints the median
and p90 milliseconds per position with the ratio to the default (binomial, Glucose 4).

Then the mine total: on the same positions, the solver's own encoding
(``MineTotal``: totalizers written here, whose outputs ``mscsp solve --dimacs``
defines as well) against PySAT's ``ITotalizer`` pair, which the solver used before;
each is built over every covered cell and loaded into Glucose 4, which must find the
same answer under the bounds; median milliseconds and the ratio.

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
from mscsp.analysis.solvers.encoding import ENCODINGS, MineTotal  # noqa: E402
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


def _pysat_total(lits: list[int], remaining: int, top: int) -> tuple[list[list[int]], list[int]]:
    """The mine total as two PySAT ITotalizers (cells, and their negations) with its bound assumptions."""
    from pysat.card import ITotalizer

    n, clauses, bounds = len(lits), [], []
    if remaining < n:
        upper = ITotalizer(lits=lits, ubound=remaining + 1, top_id=top)
        clauses += upper.cnf.clauses
        bounds.append(-upper.rhs[remaining])
        top = upper.top_id
    if remaining > 0:
        lower = ITotalizer(lits=[-v for v in lits], ubound=n - remaining + 1, top_id=top)
        clauses += lower.cnf.clauses
        bounds.append(-lower.rhs[n - remaining])
    return clauses, bounds


def totals(corpus) -> None:
    """The solver's encoding of the total against PySAT's, built and solved in this process."""
    from pysat.solvers import Solver

    ours, theirs = [], []
    for position in corpus:
        system = build_constraints(position)
        if system.remaining is None:
            continue
        lits = list(range(1, len(system.covered) + 1))
        answers = []
        for kind, times in (("mscsp", ours), ("pysat", theirs)):
            started = time.perf_counter()
            if kind == "mscsp":
                total = MineTotal(lits, system.remaining, 0, top=len(lits))
                clauses, bounds = total.clauses, total.assumptions()
            else:
                clauses, bounds = _pysat_total(lits, system.remaining, len(lits))
            with Solver(name="g4", bootstrap_with=clauses) as solver:
                answers.append(solver.solve(assumptions=bounds))
            times.append((time.perf_counter() - started) * 1e3)
        assert answers[0] == answers[1]
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"mine total over every covered cell, {len(ours)} positions: MineTotal {a:.3f} ms, "
          f"PySAT ITotalizer pair {b:.3f} ms (median), ratio {a / b:.2f}")


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
    totals(corpus)
    return 0


if __name__ == "__main__":
    sys.exit(main())
