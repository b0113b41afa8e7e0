"""Hard, huge and hostile input for the command line: time, peak memory and the answer.

Every case is one ``mscsp`` command run in a fresh process on an input this script
writes (seeded, so the corpus is the same on every machine):

- *hard positions*: a lattice of clues with a covered cell between every two of them
  (30x6 and a whole 30x16 Expert board), a strip of clues over a row of covered cells
  (1500 and 5000 cells), each with and without its mine total; estimates where exact
  counting gives up: a 30x16 lattice of numbers 1 to 7 from 168 mines (no zero
  anywhere) and sparse 100x100 lattices of 1200 and 3000 mines, under the time limits
  a page would give (for ``solve --json`` cases the table also gives the widest
  interval, the largest R-hat and the suggested click);
- *lattices of 1s* from 100x100 to 1000x1000 (a million cells): ``solve``,
  ``solve --json``, ``count``, ``consistent`` and ``solve --dimacs`` with
  ``--time-limit 5``, each within its limit (plus 10% and half a second) and 1 GB;
- *compiled boards*: random 3-CNF formulas compiled by ``mscsp from-cnf`` (Kaye's
  reduction), solved, counted and decided, satisfiable and not, with a short
  ``--time-limit`` on the largest;
- *malformed files and paths*: JSON maps and replays of the wrong shape, output paths
  into missing folders, a byte-order mark, oversized boards and files.

For each case the table gives the exit status, wall seconds, peak resident memory
(``wait4``'s ``ru_maxrss``) and what went wrong: a traceback, more than one line on
standard error for bad input, an exit status outside the expected ones, a time or
memory budget overrun. ``--baseline DIR`` runs every case a second time with another
checkout of mscsp first on the import path (an earlier revision, its C extension
built in place) and prints the ratios of the two runs side by side.

    python benchmarks/stress.py                          # this checkout
    python benchmarks/stress.py --baseline ../mscsp-old  # before and after
    python benchmarks/stress.py --only lattice strip     # cases whose name has these
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
#: The budgets every case must meet.
SECONDS = 30.0
MEMORY_MB = 2048
#: A case run with --time-limit S must end within S * LIMIT_SLACK + LIMIT_GRACE seconds
#: (starting Python and writing the answer are outside the analysis's own clock).
LIMIT_SLACK = 1.1
LIMIT_GRACE = 0.5
#: Lattices of clues: a 1 on every other cell both ways, a quarter of the cells mines,
#: by side; each command on them with this --time-limit, under this many megabytes.
LATTICE_SIDES = (100, 200, 500, 1000)
LATTICE_LIMIT = 5.0
LATTICE_MEMORY_MB = 1024

#: The 30x6 lattice from the bug report, with its total.
LATTICE_30x6 = """mines: 32
1.1.0.1.1.2.2.1.0.0.0.1.1.0.2.
..............................
2.3.0.4.4.3.1.0.0.1.0.1.2.1.3.
..............................
0.2.2.4.5.3.2.2.2.3.1.1.1.0.1.
..............................
"""


@dataclass
class Case:
    """One command on one input, and the exit statuses that count as an answer."""

    name: str
    argv: list[str]
    ok: tuple[int, ...]
    stdin: str | None = None
    one_line: bool = False  # bad input: exactly one line on standard error
    notes: list[str] = field(default_factory=list)
    #: the case's --time-limit: it must end within it plus 10% and half a second
    limit: float | None = None
    #: peak resident megabytes it must stay under, when stricter than MEMORY_MB
    memory_mb: int | None = None
    #: whether a ``solve --json`` answer without a number for every cell counts as a
    #: failure (False: the case is about limits, and what is missing is only shown)
    needs_numbers: bool = True
    #: the widest half-interval a ``solve --json`` estimate may have (None: any)
    half_width: float | None = None


# -- inputs -------------------------------------------------------------------------------
def _numbers(mines: np.ndarray) -> np.ndarray:
    """Adjacent-mine counts of a boolean grid."""
    h, w = mines.shape
    padded = np.zeros((h + 2, w + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = mines
    out = np.zeros((h, w), dtype=np.int8)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                out += padded[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
    return out


def _position(clue: np.ndarray, mines: np.ndarray, total: bool) -> str:
    """Clue cells show their numbers, every other cell is covered."""
    numbers = _numbers(mines)
    rows = ["".join(str(numbers[y, x]) if clue[y, x] else "." for x in range(clue.shape[1]))
            for y in range(clue.shape[0])]
    head = [f"mines: {int(mines.sum())}"] if total else []
    return "\n".join(head + rows) + "\n"


def lattice(width: int, height: int, mines: int, seed: int, total: bool = True) -> str:
    """Clues on the even cells of even rows, covered cells everywhere else."""
    clue = np.zeros((height, width), dtype=bool)
    clue[::2, ::2] = True
    rng = np.random.default_rng(seed)
    free = np.flatnonzero(~clue.ravel())
    layout = np.zeros(height * width, dtype=bool)
    layout[rng.choice(free, size=mines, replace=False)] = True
    return _position(clue, layout.reshape(height, width), total)


def ones_lattice(n: int) -> str:
    """An ``n`` by ``n`` position with a 1 on every other cell both ways and a quarter
    of the cells mines: one component of every clue, which no exact count finishes."""
    rows = ("".join("1" if x % 2 == 0 and y % 2 == 0 else "." for x in range(n)) for y in range(n))
    return f"mines: {n * n // 4}\n" + "\n".join(rows) + "\n"


def no_zero_lattice(width: int, height: int, mines: int, seed: int) -> str:
    """A :func:`lattice` whose every clue shows 1 to 7: the first seed from ``seed`` on
    whose layout puts no 0 and no 8 on a clue (a dense layout, no opening anywhere)."""
    while True:
        text = lattice(width, height, mines, seed)
        if not any(ch in "08" for line in text.splitlines()[1:] for ch in line):
            return text
        seed += 1


def checkerboard(width: int, height: int, mines: int, seed: int, shown: float = 0.6) -> str:
    """Clues on a share ``shown`` of the cells of one colour of a checkerboard, chosen at
    random; every other cell covered."""
    rng = np.random.default_rng(seed)
    clue = (np.add.outer(np.arange(height), np.arange(width)) % 2 == 0) & (rng.random((height, width)) < shown)
    free = np.flatnonzero(~clue.ravel())
    layout = np.zeros(height * width, dtype=bool)
    layout[rng.choice(free, size=mines, replace=False)] = True
    return _position(clue, layout.reshape(height, width), True)


def strip(length: int, density: float, seed: int, total: bool = True) -> str:
    """A row of clues over a row of covered cells."""
    rng = np.random.default_rng(seed)
    clue = np.zeros((2, length), dtype=bool)
    clue[0] = True
    layout = np.zeros((2, length), dtype=bool)
    layout[1] = rng.random(length) < density
    return _position(clue, layout, total)


def random_cnf(variables: int, clauses: int, seed: int) -> str:
    """A uniform random 3-CNF formula in DIMACS."""
    rng = np.random.default_rng(seed)
    lines = [f"p cnf {variables} {clauses}"]
    for _ in range(clauses):
        vs = rng.choice(variables, size=3, replace=False) + 1
        signs = rng.choice([-1, 1], size=3)
        lines.append(" ".join(str(int(v * s)) for v, s in zip(vs, signs)) + " 0")
    return "\n".join(lines) + "\n"


def _satisfiable(text: str) -> bool:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(bootstrap_with=CNF(from_string=text).clauses) as s:
        return s.solve()


def cnf_with(variables: int, clauses: int, satisfiable: bool, seed: int) -> str:
    """The first seeded random 3-CNF from ``seed`` on that is (un)satisfiable as asked."""
    while True:
        text = random_cnf(variables, clauses, seed)
        if _satisfiable(text) == satisfiable:
            return text
        seed += 1


def compile_board(cnf_text: str, folder: Path, name: str) -> tuple[Path, Path]:
    """The position and map ``mscsp from-cnf`` makes of a formula (with this checkout)."""
    from mscsp.position import format_position
    from mscsp.reduction.cnf import parse_dimacs
    from mscsp.reduction.compile import compile_cnf

    compiled = compile_cnf(parse_dimacs(cnf_text))
    board = folder / f"{name}.txt"
    mapping = folder / f"{name}.map.json"
    board.write_text(format_position(compiled.position))
    mapping.write_text(compiled.map_json())
    return board, mapping


def build_corpus(folder: Path) -> list[Case]:
    """Write every input into ``folder``; return the cases that use them."""
    cases: list[Case] = []

    def write(name: str, text: str | bytes) -> str:
        path = folder / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return str(path)

    # hard positions
    lat = write("lattice30x6.txt", LATTICE_30x6)
    lat_nt = write("lattice30x6_nototal.txt", LATTICE_30x6.split("\n", 1)[1])
    expert = write("lattice30x16.txt", lattice(30, 16, 68, seed=1))
    expert_nt = write("lattice30x16_nototal.txt", lattice(30, 16, 68, seed=1, total=False))
    for name, path in (("lattice 30x6", lat), ("lattice 30x6 no total", lat_nt),
                       ("lattice 30x16/68", expert), ("lattice 30x16 no total", expert_nt)):
        cases.append(Case(f"solve {name}", ["solve", "--json", path], (0,)))
    cases.append(Case("count lattice 30x6", ["count", lat], (0,)))
    # estimates: a dense Expert lattice without a zero (every cell a number 1-7 or
    # covered) and sparse 100x100 lattices, with the time limits a page would give
    nozero = write("nozero30x16.txt", no_zero_lattice(30, 16, 168, seed=1))
    # (the goals: the no-zero position within 2 s and 500 MB, the sparse lattices
    # within 10 s and 1 GB, with a number for every cell)
    for limit, memory in (("2", 500), ("5", 1024)):
        cases.append(Case(f"solve no-zero 30x16/168 --time-limit {limit}",
                          ["solve", "--json", "--time-limit", limit, nozero], (0,), limit=float(limit),
                          memory_mb=memory, half_width=0.05))
    for mines in (1200, 3000):
        sparse = write(f"lattice100x100_{mines}.txt", lattice(100, 100, mines, seed=7))
        cases.append(Case(f"solve lattice 100x100/{mines} --time-limit 10",
                          ["solve", "--json", "--time-limit", "10", sparse], (0,), limit=10.0, memory_mb=1024))
    for n in (1500, 5000):
        s = write(f"strip{n}.txt", strip(n, 0.3, seed=n))
        cases.append(Case(f"solve strip {n}x2", ["solve", "--json", s], (0,)))
        cases.append(Case(f"count strip {n}x2", ["count", s], (0,)))

    # lattices of 1s from 10^4 to 10^6 cells: every command ends within its time limit
    # and a gigabyte, with what it proved (a count or a decision may give up: exit 3)
    for n in LATTICE_SIDES:
        path = write(f"ones{n}x{n}.txt", ones_lattice(n))
        for command, ok in ((["solve"], (0,)), (["solve", "--json"], (0,)), (["count"], (0, 3)),
                            (["consistent"], (0, 3)), (["solve", "--dimacs"], (0, 3))):
            cases.append(Case(f"{' '.join(command)} ones {n}x{n} --time-limit {LATTICE_LIMIT:g}",
                              [*command, "--time-limit", f"{LATTICE_LIMIT:g}", path], ok,
                              limit=LATTICE_LIMIT, memory_mb=LATTICE_MEMORY_MB, needs_numbers=False))

    # compiled boards
    small, small_map = compile_board(cnf_with(12, 40, True, seed=12), folder, "cnf12x40")
    cases.append(Case("solve compiled 12v/40c", ["solve", "--json", str(small)], (0,)))
    cases.append(Case("count compiled 12v/40c", ["count", str(small)], (0,)))
    cases.append(Case("consistent compiled 12v/40c --decode",
                      ["consistent", "--json", "--decode", str(small_map), str(small)], (0,)))
    unsat, _ = compile_board(cnf_with(20, 110, False, seed=20), folder, "cnf20x110_unsat")
    cases.append(Case("consistent compiled 20v/110c unsat", ["consistent", "--json", str(unsat)], (1,)))
    cases.append(Case("solve compiled 20v/110c unsat", ["solve", "--json", str(unsat)], (1,)))
    board, _ = compile_board(random_cnf(50, 213, seed=50), folder, "cnf50")
    cases.append(Case("consistent compiled 50v --time-limit 0.01",
                      ["consistent", "--json", "--time-limit", "0.01", str(board)], (0, 1, 3)))
    cases.append(Case("consistent compiled 50v", ["consistent", "--json", str(board)], (0, 1, 3)))
    # 150 variables: an 84 MB board of 66 million positions, over the documented limits
    board, _ = compile_board(random_cnf(150, 639, seed=150), folder, "cnf150")
    for extra in (["--time-limit", "0.01"], []):
        cases.append(Case(f"consistent compiled 150v {' '.join(extra)}".rstrip(),
                          ["consistent", "--json", *extra, str(board)], (2,), one_line=True))

    # malformed files and paths: one line on stderr, exit 2
    def bad(name: str, argv: list[str], stdin: str | None = None) -> None:
        cases.append(Case(name, argv, (2,), stdin=stdin, one_line=True))

    bad("decode map is a JSON list", ["consistent", "--decode", write("list.json", "[1, 2]"), str(small)])
    bad("decode map with wrong types", ["consistent", "--decode", write(
        "types.json", json.dumps({"format": "mscsp-cnf-map/1", "variables": "x", "cells": [1]})), str(small)])
    bad("from-cnf --map into a directory", ["from-cnf", "--map", str(folder), write("f.cnf", "p cnf 1 1\n1 0\n")])
    bad("from-cnf --map into a missing folder",
        ["from-cnf", "--map", str(folder / "missing" / "m.json"), str(folder / "f.cnf")])
    replay = {"format": "mscsp-replay/1", "width": 10**6, "height": 10**6, "mines": 1, "rule": "safe", "seed": 1,
              "click": [0, 0], "actions": []}
    bad("replay of width 10^6", ["replay", write("wide.json", json.dumps(replay))])
    replay = {"format": "mscsp-replay/1", "width": 3, "height": 3, "mines": 1, "layout": [123], "actions": []}
    bad("replay with layout [123]", ["replay", write("layout123.json", json.dumps(replay))])
    bad("replay of 100k nested [", ["replay", write("nested.json", "[" * 100_000)])
    bad("play --save into a missing folder",
        ["play", "--preset", "beginner", "--seed", "1", "--save", str(folder / "missing" / "r.json")], stdin="q\n")
    bad("reproduce --out under a file", ["reproduce", "--quick", "--only", "first_click",
                                         "--out", str(folder / "f.cnf" / "out")])
    bom = write("bom.txt", "\ufeffmines: 1\n.1\n".encode("utf-8"))
    cases.append(Case("solve with a UTF-8 BOM", ["solve", "--json", bom], (0,)))
    bad("generate 100000x100000", ["generate", "--width", "100000", "--height", "100000", "--mines", "1"])
    row = write("one_row.txt", "." * (10 * 2**20) + "\n")
    bad("solve a 10 MB one-row file", ["solve", row])
    return cases


# -- running ------------------------------------------------------------------------------
@dataclass
class Run:
    status: int | None
    seconds: float
    peak_mb: float
    problems: list[str]
    stderr_tail: str
    answer: str = ""


def estimate_summary(stdout: str, half_width: float | None = None) -> tuple[str, list[str]]:
    """What a ``solve --json`` record says of its probabilities: exact or not, the
    widest interval (95%, or proven bounds), the largest split R-hat, the suggested
    click; and the problems with it (a covered cell without a number, no suggested
    click, an interval wider than ``half_width`` either side)."""
    try:
        record = json.loads(stdout.splitlines()[0])
    except (ValueError, IndexError):
        return "", []
    if not isinstance(record, dict) or record.get("probability") is None:
        return "", []
    covered = [p for row in record["probability"] for p in row]
    problems = []
    # no click to suggest is right only when every covered cell is a proven mine
    if record.get("consistent") and record.get("best") is None and any(
            isinstance(p, (int, float)) and p < 1 for p in covered):
        problems.append("no suggested click")
    if record.get("exact"):
        return "exact", problems
    estimate = record.get("estimate", {})
    widths = [hi - lo for row in record.get("interval") or [] for cell in row if cell for lo, hi in [cell]]
    missing = sum(1 for row, irow in zip(record["probability"], record.get("interval") or []) for p, i in zip(row, irow)
                  if p is None and i is None) if estimate.get("failed") else 0
    if estimate.get("failed"):
        problems.append(f"no estimate ({missing or len(covered)} cells without a number)")
    if half_width is not None and widths and max(widths) / 2 > half_width:
        problems.append(f"an interval wider than +-{half_width}")
    if estimate.get("bounds") == "proven":
        widest = f"+-{max(widths) / 2:.0e}" if widths else "-"
        return f"rounded count: widest {widest} (proven bounds), best {record.get('best')}", problems
    widest = f"+-{max(widths) / 2:.3f}" if widths else "-"
    rhat = estimate.get("rhat")
    return (f"estimate: widest {widest}, R-hat {rhat if rhat is not None else '-'}, "
            f"best {record.get('best')}"), problems


def run_case(case: Case, pythonpath: str | None, timeout: float, memory_cap_mb: int) -> Run:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")

    def cap() -> None:  # a runaway case must not take the machine down with it
        limit = memory_cap_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "mscsp.cli", *case.argv], env=env, cwd=tempfile.gettempdir(),
                                stdin=subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL,
                                stdout=out, stderr=err, preexec_fn=cap)
        if case.stdin is not None:
            proc.stdin.write(case.stdin.encode())
            proc.stdin.close()
        status = None
        while True:
            pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(code)
                break
            if time.perf_counter() - started > timeout:
                proc.kill()
                _, code, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        proc.returncode = status if status is not None else -9  # reaped above
        seconds = time.perf_counter() - started
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        out.seek(0)
        answer, wrong = estimate_summary(out.read().decode(errors="replace"), case.half_width)
    problems = list(wrong) if case.needs_numbers else []
    if wrong and not case.needs_numbers:
        answer += f" ({'; '.join(wrong)})"
    if status is None:
        problems.append(f"killed after {timeout:.0f} s")
    elif status not in case.ok:
        problems.append(f"exit {status}, expected {'/'.join(map(str, case.ok))}")
    if "Traceback" in stderr:
        problems.append("traceback")
    lines = [line for line in stderr.splitlines() if line.strip()]
    if case.one_line and len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr")
    peak = usage.ru_maxrss / 1024
    if seconds > SECONDS:
        problems.append(f"over {SECONDS:.0f} s")
    if case.limit is not None and seconds > LIMIT_SLACK * case.limit + LIMIT_GRACE:
        problems.append(f"over its --time-limit {case.limit:g} (+10%, +{LIMIT_GRACE:g} s)")
    memory_mb = case.memory_mb or MEMORY_MB
    if peak > memory_mb:
        problems.append(f"over {memory_mb} MB")
    return Run(status, seconds, peak, problems, lines[-1][:100] if lines else "", answer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", metavar="DIR", help="another mscsp checkout to run every case with too")
    parser.add_argument("--only", nargs="+", metavar="WORD", help="run the cases whose name has one of these")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is killed")
    parser.add_argument("--memory-cap", type=int, default=8192, metavar="MB", help="address-space cap per case")
    parser.add_argument("--keep", metavar="DIR", help="write the corpus here and keep it")
    args = parser.parse_args(argv)
    folder = Path(args.keep or tempfile.mkdtemp(prefix="mscsp-stress-"))
    folder.mkdir(parents=True, exist_ok=True)
    cases = [c for c in build_corpus(folder) if not args.only or any(w in c.name for w in args.only)]
    failures = 0
    header = f"{'case':44} {'exit':>4} {'s':>7} {'MB':>6}"
    if args.baseline:
        header += f" | {'base exit':>9} {'s':>7} {'MB':>6} {'time x':>7} {'mem x':>6}"
    print(header + "  problems")
    for case in cases:
        now = run_case(case, str(REPO), args.timeout, args.memory_cap)
        failures += bool(now.problems)
        line = f"{case.name:44} {str(now.status):>4} {now.seconds:7.2f} {now.peak_mb:6.0f}"
        if args.baseline:
            base = run_case(case, args.baseline, args.timeout, args.memory_cap)
            line += (f" | {str(base.status):>9} {base.seconds:7.2f} {base.peak_mb:6.0f}"
                     f" {base.seconds / now.seconds:7.2f} {base.peak_mb / now.peak_mb:6.2f}")
            if base.problems:
                line += f"  [before: {'; '.join(base.problems)}]"
        if now.answer:
            line += f"  {now.answer}"
        if now.problems:
            line += f"  {'; '.join(now.problems)}: {now.stderr_tail}"
        print(line, flush=True)
    print(f"{len(cases) - failures} of {len(cases)} cases within budget and answered; corpus in {folder}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
