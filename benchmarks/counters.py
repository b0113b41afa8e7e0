"""mscsp's counting against real model counters: pyganak and D4 (exact), pyapproxmc (approximate).

The positions are the hard ones of ``benchmarks/stress.py`` (lattices of clues, a strip,
a board compiled from a 12-variable formula), the sample ``long_frontier.txt`` and a
few Expert positions from real play, each with and without its mine total. Every
counter is given the same question — how many layouts fit — as it expects it:

- mscsp: ``mscsp.analysis.counting.probabilities`` (which also gives every cell's probability,
  the others give the count only), exact integers;
- pyganak (Ganak 2, exact projected model counting, PyPI ``pyganak``): the position's
  DIMACS export (``mscsp solve --dimacs``: clues in the binomial encoding, the total in
  the complete solver's own totalizers, their outputs defined), projected on the cell
  variables;
- D4 (the decision-DNNF compiler and counter of Lagniez and Marquis 2017, "An improved
  decision-DNNF compiler", IJCAI 2017, 667-673; PyPI ``d4solver``, imported as ``py_d4``):
  the same CNF, projected on the cell variables. Its Python clause list takes no
  projection, so the CNF goes through a DIMACS file whose ``c p show`` line names the
  cells, which D4 reads as the projection set. Without the total the cells are all
  the variables and the file has no such line: the plain count is the projected one
  (see ``docs/decisions.md``, "D4 projects only past the cells");
- pyapproxmc (ApproxMC 4, PyPI ``pyapproxmc``): the same CNF, with its default
  (epsilon 0.8, delta 0.2) guarantee, projected on the cell variables.

Each run is a fresh process with a deadline (``--timeout``); counts must agree with
mscsp's exactly (Ganak, D4) or within the (1 + epsilon) factor (ApproxMC). Needs
``pip install pyganak d4solver pyapproxmc`` (benchmark-only dependencies).

    python benchmarks/counters.py --timeout 60
    python benchmarks/counters.py --no-approxmc --no-d4 --only "strip 1500x2" --json counts.json
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stress import LATTICE_30x6, cnf_with, compile_board, lattice, strip  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def _positions(folder: Path) -> dict[str, str]:
    from mscsp.analysis.solvers import deduce
    from mscsp.board import Spec
    from mscsp.game import Game
    from mscsp.position import format_position
    from mscsp.rules import generate

    out = {
        "lattice 30x6/32": LATTICE_30x6,
        "lattice 30x16/68": lattice(30, 16, 68, seed=1),
        "strip 1500x2": strip(1500, 0.3, seed=1500),
        "long_frontier": (REPO / "examples" / "positions" / "long_frontier.txt").read_text(),
    }
    board, _ = compile_board(cnf_with(12, 40, True, seed=12), folder, "cnf12x40")
    out["compiled 12v/40c"] = board.read_text()
    for seed in (1, 2):  # an Expert position at its first stall
        b = generate(Spec.preset("expert"), "opening", (15, 8), seed)
        game = Game.from_board(b)
        game.reveal(b.click)
        while True:
            known = deduce(game.position(), "sat").by_index
            revealed = game.revealed
            safe = [c for c, mine in known.items() if not mine and not revealed[c]]
            if not safe or game.status.over:
                break
            for c in safe:
                if not game.status.over:
                    game.reveal(game.geometry.coords(c))
        out[f"expert stall #{seed}"] = format_position(game.position())
    return out


def _run_mscsp(text: str, total: bool, queue) -> None:
    from mscsp.analysis.counting import probabilities
    from mscsp.position import parse_position

    position = parse_position(text)
    if not total:
        position = position.with_mines(None)
    started = time.perf_counter()
    count = probabilities(position).layouts
    queue.put((time.perf_counter() - started, count))


def _cnf(text: str, total: bool):
    from mscsp.position import parse_position
    from mscsp.reduction.dimacs import position_to_cnf

    cnf, var = position_to_cnf(parse_position(text), use_total=total)
    return [list(c) for c in cnf.clauses], cnf.variables, sorted(var.values())  # one variable per covered cell: project on them


def _run_ganak(text: str, total: bool, queue) -> None:
    import pyganak

    clauses, top, cells = _cnf(text, total)
    started = time.perf_counter()
    counter = pyganak.Counter()
    counter.new_vars(top)
    counter.add_clauses(clauses)
    counter.set_sampling_set(cells)
    count = counter.count()
    queue.put((time.perf_counter() - started, count))


def _run_d4(text: str, total: bool, queue) -> None:
    import os
    import tempfile

    import py_d4

    clauses, top, cells = _cnf(text, total)
    if not top:
        # D4 dies of a floating-point exception on a formula without variables
        raise ValueError("D4 needs at least one variable: the position has no covered cell")
    # the projection reaches D4 only through a DIMACS file's "c p show" line; a line
    # naming every variable would change no count but send D4 down its slower
    # projected search (docs/decisions.md, "D4 projects only past the cells")
    fd, path = tempfile.mkstemp(prefix="mscsp-d4-", suffix=".cnf")
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(f"p cnf {top} {len(clauses)}\n")
        if len(cells) < top:
            out.write(f"c p show {' '.join(map(str, cells))} 0\n")
        out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    # D4 prints its statistics on the process's standard output, where the table goes
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        started = time.perf_counter()
        solver = py_d4.Solver(path)
        os.unlink(path)  # read by now: a counter killed at its deadline leaves no file behind
        count = int(solver.count().getIntResult())
        elapsed = time.perf_counter() - started
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
        if os.path.exists(path):
            os.unlink(path)
    queue.put((elapsed, count))


def _run_approxmc(text: str, total: bool, queue) -> None:
    import pyapproxmc

    clauses, top, cells = _cnf(text, total)
    # ApproxMC refuses to project on a variable no clause mentions: count those apart
    used = {abs(lit) for clause in clauses for lit in clause}
    free = sum(1 for v in cells if v not in used)
    started = time.perf_counter()
    counter = pyapproxmc.Counter(seed=1)
    counter.add_clauses(clauses)
    cell_count, hashes = counter.count([v for v in cells if v in used])
    queue.put((time.perf_counter() - started, cell_count * 2**hashes * 2**free))


def _timed(target, text: str, total: bool, timeout: float):
    queue = mp.Queue()
    process = mp.Process(target=target, args=(text, total, queue))
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join()
        return None, "timeout"
    if queue.empty():
        return None, "failed"
    return queue.get()


def _agree(same: bool | None) -> str:
    return "-" if same is None else ("yes" if same else "NO")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a counter may take on one position")
    parser.add_argument("--no-approxmc", action="store_true", help="leave ApproxMC out")
    parser.add_argument("--no-d4", action="store_true", help="leave D4 out")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these positions only (names as printed)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    import json
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="mscsp-counters-"))
    positions = _positions(folder)
    if args.only:
        unknown = sorted(set(args.only) - set(positions))
        if unknown:
            parser.error(f"no position named {unknown[0]!r}; the names are {', '.join(map(repr, positions))}")
        positions = {name: text for name, text in positions.items() if name in args.only}
    print(f"{'position':22} {'total':5} | {'mscsp s':>9} | {'ganak s':>9} {'agree':>5} | {'d4 s':>9} {'agree':>5} | "
          f"{'approxmc s':>10} {'within':>6}")
    found = []

    def fmt(s):
        return f"{s:9.3f}" if isinstance(s, float) else f"{str(s):>9}"

    for name, text in positions.items():
        for total in (True, False) if "mines:" in text else (False,):
            m_s, m_n = _timed(_run_mscsp, text, total, args.timeout)
            g_s, g_n = _timed(_run_ganak, text, total, args.timeout)
            d_s, d_n = (None, "skipped") if args.no_d4 else _timed(_run_d4, text, total, args.timeout)
            a_s, a_n = (None, "skipped") if args.no_approxmc else _timed(_run_approxmc, text, total, args.timeout)
            g_agree = None if g_s is None or m_s is None else g_n == m_n
            d_agree = None if d_s is None or m_s is None else d_n == m_n
            found.append({"position": name, "total": total, "mscsp_s": m_s, "ganak_s": g_s,
                          "ganak": None if g_s is not None else g_n, "agree": g_agree,
                          "d4_s": d_s, "d4": None if d_s is not None else d_n, "d4_agree": d_agree,
                          "approxmc_s": a_s})
            within = "-" if a_s is None or m_s is None or not m_n else (
                "yes" if m_n / 1.8 <= a_n <= m_n * 1.8 else "no")
            print(f"{name:22} {'yes' if total else 'no':5} | {fmt(m_s if m_s is not None else m_n)} | "
                  f"{fmt(g_s if g_s is not None else g_n)} {_agree(g_agree):>5} | "
                  f"{fmt(d_s if d_s is not None else d_n)} {_agree(d_agree):>5} | "
                  f"{fmt(a_s if a_s is not None else a_n):>10} {within:>6}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"timeout": args.timeout, "rows": found}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
