"""No-guess generation side by side: mscsp retry and perturb against ms_toollib and Simon Tatham's Mines.

For each row (board size and mine count; the click at the centre [width//2,
height//2], rule ``opening``: the 3x3 around the click is mine-free, as ms_toollib
does) four generators make ``--boards`` boards each, and a fifth with ``--tatham``:

- ``mscsp retry``: :func:`mscsp.play.noguess.generate_no_guess` with ``method="retry"``
  (rejection sampling; complete SAT solver with the mine total);
- ``mscsp perturb``: the same with ``method="perturb"`` (Tatham-style changes where
  the solver is stuck);
- ``ms laymine_solvable``: ms_toollib's rejection sampler (``is_solvable``, no mine
  total), called in chunks of ``max_times`` attempts until it succeeds or the time
  budget is spent;
- ``ms laymine_solvable_adjust``: ms_toollib's adjusting generator (one call, no
  attempt bound of its own).
- ``Tatham mines`` (with ``--tatham PATH``, the Mines program of Simon Tatham's
  Portable Puzzle Collection, https://git.tartarus.org/?p=simon/puzzles.git; measured
  here with release 20230122, commit 806ae71ca45f913ebfd4aa18c8f0c80a67738a13, as
  Debian's package ``sgt-puzzles`` 20230122.806ae71-2 installs it, ``/usr/games/sgt-mines``):
  his perturbing generator, whose solver uses the mine total. Each board is one run of
  ``mines --generate 1 --time-generation --save FILE WxHnM#SEED`` (the seed
  ``SEED.WxHnM.i``); the time is the one the program prints, its user CPU seconds
  (``getrusage``) around the making of the game, and the board is read back from the
  saved game's description (``x,y,m`` and the masked mine bitmap, unmasked here by
  :func:`decode_desc`). The program chooses its first click itself, at random, with the
  same rule (no mine in the 3x3 around it); the checks use that click.

Each board gets ``--time-limit`` seconds. The two rejection samplers (mscsp retry and
ms laymine_solvable) get ``--retry-limit`` seconds instead on rows whose mine density
is at least ``--retry-density``, and a generator that fails its first ``--give-up``
boards of a row without one success is not run on the rest of that row. ms_toollib
runs in a forked child process that is killed at the budget (one
``laymine_solvable_adjust`` call can run for minutes on 100x100/3500), and the time
is measured inside the child around the calls only. mscsp boards are seeded from
``SeedSequence(seed)`` (per row: ``SeedSequence([seed, width, height, mines])``
spawned once per board, the same child for retry and perturb); ms_toollib has no
seed, so its boards differ from run to run.

Every board a generator returns as successful is checked again with mscsp's complete
verifier (``verify(layout, click, "sat", use_total=True).solved``), and also with
``ms_toollib.is_solvable`` (no mine total): a rejection there is a failure for the
ms_toollib generators, which promise exactly that, and only shows how many mscsp
boards need the mine total (or deduction beyond ms_toollib's) for mscsp's. Boards
with the wrong mine count or a mine next to the click also count as failures.

Prints one line per row and generator: success rate, median and p90 seconds per
accepted board, mean attempts and perturbations (mscsp), and verification failures;
then every failing board (``--save-failures DIR`` writes them as layout files), a
cross-check of ``is_solvable`` against mscsp's verifier without the mine total on all
accepted boards, and the figures Tatham reports for his generator. Needs ``pip install ms-toollib`` (a
benchmark-only dependency). mscsp's and ms_toollib's times are wall seconds around the call;
Tatham's are his program's own CPU figure (single-threaded generation: the two agree on an
idle machine).

Beside the table, the peers' drivers serve ``experiments/noguess_bias.py``:
:func:`tatham_generate`, :func:`ms_generate` (any click) and :func:`js_generate`, the
no-guess generator of David Hill's JSMinesweeper (github.com/DavidNHill/JSMinesweeper,
``createNoGuessGame``), his browser scripts loaded unchanged into Node from a checkout by
``benchmarks/hill/jsnoguess.mjs``, one seeded ``Math.random`` stream a board.

    python benchmarks/noguess.py --seed 2026
    python benchmarks/noguess.py --rows 30x16/99,30x16/130 --tatham /usr/games/sgt-mines
    python benchmarks/noguess.py --rows 30x16/99,30x16/170 --boards 10
    python benchmarks/noguess.py --rows 30x16/99 --boards 5 --json generation.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mscsp.board import Geometry, Layout, Spec, format_layout
from mscsp.errors import GenerationError
from mscsp.play.noguess import generate_no_guess
from mscsp.play.verify import verify

DEFAULT_ROWS = "30x16/99,30x16/130,30x16/170,30x16/200,50x50/500,100x100/2000,100x100/3500"
GENERATORS = ("mscsp retry", "mscsp perturb", "ms laymine_solvable", "ms laymine_solvable_adjust")
RETRY_SAMPLERS = ("mscsp retry", "ms laymine_solvable")
TATHAM = "Tatham mines"
TATHAM_BANNER = "Mines, from Simon Tatham's Portable Puzzle Collection"
CHUNK_SECONDS = 0.25  # a laymine_solvable chunk grows while it takes less than this
GRACE = 10.0  # seconds a child may overrun its own budget before it is killed
CHECK_LIMIT = 300.0  # seconds for ms_toollib.is_solvable on one board (in a child)

REFERENCE = """\
# For comparison, as Simon Tatham reports his generator (perturbation) on his machine, mean
# time per board ("Writing a soluble-grid generator for Mines", not measured by this script):
#     30x16/99  2.7 ms     30x16/170  36 ms     30x16/200  362 ms     100x100/3500  134 s"""


@dataclass(frozen=True)
class Row:
    width: int
    height: int
    mines: int

    @classmethod
    def parse(cls, text: str) -> "Row":
        try:
            size, mines = text.strip().split("/")
            width, height = size.lower().split("x")
            row = cls(int(width), int(height), int(mines))
        except ValueError:
            raise ValueError(f"a row is WIDTHxHEIGHT/MINES, such as 30x16/99, not {text!r}") from None
        if row.width < 3 or row.height < 3:
            raise ValueError(f"{text}: ms_toollib aborts the process on boards smaller than 3x3")
        if not 0 <= row.mines <= row.width * row.height - 9:
            raise ValueError(f"{text}: the opening rule needs the 3x3 around the click free of mines")
        return row

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}/{self.mines}"

    @property
    def click(self) -> tuple[int, int]:
        """(x, y) of the centre cell."""
        return self.width // 2, self.height // 2

    @property
    def density(self) -> float:
        return self.mines / (self.width * self.height)

    def default_boards(self) -> int:
        area = self.width * self.height
        return 20 if area <= 1000 else 5 if area <= 2500 else 3


@dataclass
class Outcome:
    """One board of one generator."""

    ok: bool  # the generator claimed success
    seconds: float
    attempts: int | None = None
    perturbations: int | None = None
    mines: np.ndarray | None = None  # flat bool, y * width + x, when ok
    note: str = ""  # why it failed (timeout, crash, ...)
    click: tuple[int, int] | None = None  # (x, y) when the generator chose it, else the row's


@dataclass
class Checked:
    outcome: Outcome
    verify_ok: bool | None = None  # mscsp sat + mine total
    ms_ok: bool | None = None  # ms_toollib.is_solvable (no total)
    local_ok: bool | None = None  # mscsp sat without the total (to compare with is_solvable)
    problems: list[str] = field(default_factory=list)


# -- ms_toollib in a child process ---------------------------------------------------
def _child_main(conn, kind: str, args: tuple) -> None:
    import ms_toollib as ms

    if kind == "adjust":
        rows, cols, mines, r0, c0 = args
        t0 = time.perf_counter()
        board, ok = ms.laymine_solvable_adjust(rows, cols, mines, r0, c0)
        seconds = time.perf_counter() - t0
        conn.send((bool(ok), seconds, None, np.asarray(board, dtype=np.int8)))
    elif kind == "retry":
        rows, cols, mines, r0, c0, budget = args
        seconds, attempts, chunk = 0.0, 0, 1
        while True:
            t0 = time.perf_counter()
            board, ok = ms.laymine_solvable(rows, cols, mines, r0, c0, chunk)
            took = time.perf_counter() - t0
            seconds += took
            if ok:  # somewhere in the last chunk: only an upper bound on attempts
                conn.send((True, seconds, attempts + chunk, np.asarray(board, dtype=np.int8)))
                break
            attempts += chunk
            if seconds >= budget:
                conn.send((False, seconds, attempts, None))
                break
            if took < CHUNK_SECONDS / 2:
                chunk *= 2
    elif kind == "is_solvable":
        board, r0, c0 = args
        conn.send(bool(ms.is_solvable(board, r0, c0)))
    conn.close()


def _in_child(kind: str, args: tuple, timeout: float):
    """Run one ms_toollib job in a forked child: ("ok", value), ("timeout", None) or
    ("crash", exit code). A Rust panic aborts only the child."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_main, args=(child, kind, args), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(timeout):
            try:
                return "ok", parent.recv()
            except EOFError:
                pass
        else:
            proc.kill()
            proc.join()
            return "timeout", None
        proc.join()
        return "crash", proc.exitcode
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()


def _ms_generate(kind: str, row: Row, budget: float) -> Outcome:
    x, y = row.click
    if kind == "retry":
        status, value = _in_child("retry", (row.height, row.width, row.mines, y, x, budget), budget + GRACE)
    else:
        status, value = _in_child("adjust", (row.height, row.width, row.mines, y, x), budget)
    if status == "timeout":
        return Outcome(False, budget, note="killed at the time limit")
    if status == "crash":
        return Outcome(False, float("nan"), note=f"child crashed (exit code {value})")
    ok, seconds, attempts, board = value
    if not ok:
        why = "gave up" if kind == "adjust" else "no board within the budget"
        return Outcome(False, seconds, attempts, note=why)
    return Outcome(True, seconds, attempts, mines=(board == -1).ravel())


# -- mscsp ---------------------------------------------------------------------------
def _mscsp_generate(method: str, row: Row, ss: np.random.SeedSequence, budget: float) -> Outcome:
    spec = Spec(row.width, row.height, row.mines)
    t0 = time.perf_counter()
    try:
        res = generate_no_guess(spec, "opening", row.click, np.random.default_rng(ss), method=method,
                                solver="sat", use_total=True, max_attempts=10**9, time_limit=budget)
    except GenerationError as exc:
        return Outcome(False, time.perf_counter() - t0, exc.attempts, note="GenerationError")
    seconds = time.perf_counter() - t0
    return Outcome(True, seconds, res.attempts, res.perturbations, mines=res.layout.mines.copy())


# -- Simon Tatham's Mines --------------------------------------------------------------
def _mask(data: bytearray, bits: int, decode: bool) -> None:
    """Mask (or, with ``decode``, unmask) a mine bitmap of ``bits`` bits in place, as
    Mines stores it in a game description: the bytes are cut in two (the first half
    the shorter); a stream of SHA-1 digests of one half followed by "0", "1", "2", ...
    is XORed over the other half, first the front half seeded by the back, then the
    back seeded by the (masked) front; unmasking does the two steps in the other order.
    Padding bits past ``bits`` are cleared after each step."""
    first = len(data) // 2
    front, back = (slice(0, first), slice(first, len(data))), (slice(first, len(data)), slice(0, first))
    steps = [back, front] if decode else [front, back]  # (target, seed)
    for target, seed in steps:
        key = bytes(data[seed])
        span = range(*target.indices(len(data)))
        stream = b"".join(hashlib.sha1(key + str(k).encode()).digest() for k in range(len(span) // 20 + 1))
        for j, at in enumerate(span):
            data[at] ^= stream[j]
        if bits % 8:
            data[bits // 8] &= (0xFF00 >> (bits % 8)) & 0xFF


def decode_desc(desc: str, width: int, height: int) -> tuple[tuple[int, int], np.ndarray]:
    """The first click (x, y) and the mines (flat bool, y * width + x) of a Mines game
    description ``x,y,m<hex>`` (masked bitmap) or ``x,y,u<hex>`` (plain): one bit a
    cell in reading order, the first cell the top bit of the first hex digit."""
    found = re.fullmatch(r"(\d+),(\d+),([mu])([0-9a-f]*)", desc.strip())
    area = width * height
    if not found or len(found[4]) != (area + 3) // 4:
        raise ValueError(f"not a {width}x{height} Mines description: {desc[:40]!r}")
    x, y, kind, digits = int(found[1]), int(found[2]), found[3], found[4]
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"first click ({x}, {y}) outside the {width}x{height} board")
    data = bytearray(bytes.fromhex(digits + "0" * (len(digits) % 2)))
    if kind == "m":
        _mask(data, area, decode=True)
    bits = np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8))[:area]
    return (x, y), bits.astype(bool)


def saved_desc(text: str) -> str:
    """The DESC field of a Mines saved game (lines ``KEY:length:value``)."""
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        length, _, value = rest.partition(":")
        if key.strip() == "DESC" and length.isdigit():
            return value[:int(length)]
    raise ValueError("the saved game has no DESC line")


def tatham_mines(path: str | Path) -> dict:
    """The Mines program at ``path`` (the executable, or a folder holding ``mines`` or
    ``sgt-mines``): its path, version line and commit. ValueError, in one line, when it
    is not there or not Mines with ``--time-generation``."""
    path = Path(path)
    if path.is_dir():
        inside = [path / name for name in ("mines", "sgt-mines") if (path / name).is_file()]
        if not inside:
            raise ValueError(f"--tatham {path}: the folder holds no mines or sgt-mines program")
        path = inside[0]
    if not path.is_file():
        raise ValueError(f"--tatham {path}: no such program")
    try:
        shown = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=30)
        timed = subprocess.run([str(path), "--generate", "1", "--time-generation", "4x4n1#check"],
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ValueError(f"--tatham {path}: does not run ({exc})") from None
    lines = shown.stdout.splitlines()
    if not lines or lines[0].strip() != TATHAM_BANNER:
        raise ValueError(f"--tatham {path}: not the Mines program of Simon Tatham's Portable Puzzle Collection")
    if not re.fullmatch(r"Mines \S+: [0-9.]+", timed.stdout.strip()):
        raise ValueError(f"--tatham {path}: its --time-generation does not print a time (an older version?)")
    version = lines[1].strip() if len(lines) > 1 else ""
    commit = re.search(r"\d{8}\.([0-9a-f]{7,40})\b", version)
    return {"path": str(path.resolve()), "version": version, "commit": commit[1] if commit else None}


def _tatham_generate(program: str, row: Row, seed: str, budget: float) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="mscsp-tatham-") as tmp:
        save = Path(tmp) / "game"
        command = [program, "--generate", "1", "--time-generation", "--save", str(save),
                   f"{row.width}x{row.height}n{row.mines}#{seed}"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=budget + GRACE)
        except subprocess.TimeoutExpired:
            return Outcome(False, budget, note="killed at the time limit")
        timed = re.fullmatch(r"Mines \S+: ([0-9.]+)", done.stdout.strip())
        if done.returncode != 0 or not timed:
            why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
            return Outcome(False, float("nan"), note=f"failed: {why}")
        click, mines = decode_desc(saved_desc((Path(tmp) / "game0").read_text()), row.width, row.height)
    return Outcome(True, float(timed[1]), mines=mines, click=click)


def tatham_generate(program: str, width: int, height: int, mines: int, seed: str, budget: float) -> Outcome:
    """One board of Tatham's Mines at ``program`` (see :func:`tatham_mines`) from the
    seed string ``seed``; its ``click`` is the first click his program chose."""
    return _tatham_generate(program, Row(width, height, mines), seed, budget)


def ms_generate(kind: str, width: int, height: int, mines: int, click: tuple[int, int], budget: float) -> Outcome:
    """One board of ms_toollib's ``laymine_solvable`` (``kind`` "retry", in chunks of
    attempts until ``budget`` seconds) or ``laymine_solvable_adjust`` ("adjust"), made
    in a forked child killed at the budget; unseeded, as ms_toollib is."""
    row = Row(width, height, mines)
    if tuple(click) != row.click:
        x, y = click
        row = _ClickedRow(width, height, mines, (x, y))
    return _ms_generate(kind, row, budget)


@dataclass(frozen=True)
class _ClickedRow(Row):
    at: tuple[int, int] = (0, 0)

    @property
    def click(self) -> tuple[int, int]:
        return self.at


# -- David Hill's JSMinesweeper --------------------------------------------------------
JSNOGUESS = Path(__file__).resolve().parent / "hill" / "jsnoguess.mjs"


def jsminesweeper(path: str | Path) -> dict:
    """The JSMinesweeper checkout at ``path``: its path and commit. ValueError, in one
    line, when Node.js is missing or the folder does not hold his browser scripts."""
    import shutil

    path = Path(path)
    if shutil.which("node") is None:
        raise ValueError("--jsminesweeper needs Node.js (node on PATH)")
    if not (path / "Minesweeper" / "client" / "MinesweeperGame.js").is_file():
        raise ValueError(f"--jsminesweeper {path}: not a JSMinesweeper checkout "
                         "(no Minesweeper/client/MinesweeperGame.js)")
    try:
        out = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=30)
        commit = out.stdout.strip() if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        commit = None
    return {"path": str(path.resolve()), "commit": commit}


def js_generate(checkout: str, width: int, height: int, mines: int, click: tuple[int, int], seeds: list[int],
                budget: float) -> list[Outcome]:
    """Boards of JSMinesweeper's no-guess generator (``createNoGuessGame``, game type
    "zero": the 3x3 around ``click`` mine-free), one a seed (32-bit integers seeding
    ``Math.random``), each bounded by ``budget`` seconds; run by
    ``benchmarks/hill/jsnoguess.mjs`` in one Node process. The seconds are the
    process's CPU seconds around each board."""
    x, y = click
    command = ["node", str(JSNOGUESS), str(width), str(height), str(mines), str(x), str(y), f"{budget:g}",
               ",".join(str(int(s)) for s in seeds)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env={**_environ(), "JSMS_DIR": checkout},
                              timeout=len(seeds) * (budget + GRACE) + 60)
    except subprocess.TimeoutExpired:
        return [Outcome(False, budget, note="killed at the time limit") for _ in seeds]
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return [Outcome(False, float("nan"), note=f"failed: {why}") for _ in seeds]
    out = []
    for line in done.stdout.splitlines():
        words = line.split()
        ok, count, ns = words[1] == "1", int(words[2]), int(words[3])
        flat = np.zeros(width * height, dtype=bool)
        flat[[int(w) for w in words[4:]]] = True
        note = "" if ok else "gave up or cancelled at the time limit"
        if ok and count != mines:
            ok, note = False, f"{count} mines instead of {mines}"
        out.append(Outcome(ok, ns / 1e9, mines=flat if ok else None, note=note))
    if len(out) != len(seeds):
        raise RuntimeError(f"jsnoguess.mjs answered {len(out)} boards for {len(seeds)} seeds")
    return out


def _environ() -> dict:
    import os

    return dict(os.environ)


# -- checks --------------------------------------------------------------------------
def _check(row: Row, outcome: Outcome, generator: str) -> Checked:
    """Re-verify a board its generator called successful."""
    import ms_toollib as ms

    checked = Checked(outcome)
    if not outcome.ok:
        return checked
    x, y = outcome.click or row.click
    g = Geometry(row.width, row.height)
    layout = Layout(g, outcome.mines)
    if layout.mine_count != row.mines:
        checked.problems.append(f"{layout.mine_count} mines instead of {row.mines}")
    around = layout.mines[list(g.closed_neighbourhood(g.index(x, y)))]
    if around.any():
        checked.problems.append(f"{int(around.sum())} mines in the 3x3 around the click")
    result = verify(layout, (x, y), "sat", use_total=True)
    checked.verify_ok = result.solved
    if not result.solved:
        extra = "" if result.complete else ", a SAT round timed out"
        checked.problems.append(f"mscsp verify (sat, total) opens {result.opened}/{result.safe_cells} "
                                f"safe cells{extra}")
    checked.local_ok = verify(layout, (x, y), "sat", use_total=False).solved
    grid = np.where(outcome.mines.reshape(row.height, row.width), -1, 0).tolist()
    status, value = _in_child("is_solvable", (ms.cal_board_numbers(grid), y, x), CHECK_LIMIT)
    if status == "ok":
        checked.ms_ok = value
        if not value and generator.startswith("ms "):
            checked.problems.append("ms_toollib.is_solvable says not solvable")
    else:
        checked.problems.append(f"ms_toollib.is_solvable: {status} ({value})")
    return checked


# -- the run -------------------------------------------------------------------------
def _generators(args) -> tuple[str, ...]:
    return GENERATORS + ((TATHAM,) if args.tatham else ())


def _budget(generator: str, row: Row, args) -> float:
    if generator in RETRY_SAMPLERS and row.density >= args.retry_density:
        return min(args.retry_limit, args.time_limit)
    return args.time_limit


def run_row(row: Row, n: int, args, failures: list[str]) -> dict[str, list[Checked]]:
    seeds = np.random.SeedSequence([args.seed, row.width, row.height, row.mines]).spawn(n)
    out: dict[str, list[Checked]] = {}
    for generator in _generators(args):
        budget = _budget(generator, row, args)
        results: list[Checked] = []
        for i in range(n):
            if args.give_up and len(results) >= args.give_up and not any(c.outcome.ok for c in results):
                break
            if generator == "mscsp retry":
                outcome = _mscsp_generate("retry", row, seeds[i], budget)
            elif generator == "mscsp perturb":
                outcome = _mscsp_generate("perturb", row, seeds[i], budget)
            elif generator == "ms laymine_solvable":
                outcome = _ms_generate("retry", row, budget)
            elif generator == "ms laymine_solvable_adjust":
                outcome = _ms_generate("adjust", row, budget)
            else:
                outcome = _tatham_generate(args.tatham["path"], row,
                                           f"{args.seed}.{row.width}x{row.height}n{row.mines}.{i}", budget)
            checked = _check(row, outcome, generator)
            results.append(checked)
            if checked.problems:
                where = f"{row.name} {generator} board {i}"
                failures.append(f"{where}: " + "; ".join(checked.problems))
                if args.save_failures:
                    path = Path(args.save_failures)
                    path.mkdir(parents=True, exist_ok=True)
                    name = f"{row.name.replace('/', '_')}_{generator.replace(' ', '_')}_{i}.txt"
                    x, y = outcome.click or row.click
                    comments = [where, f"click: [{x},{y}]", *checked.problems]
                    (path / name).write_text(format_layout(Layout(Geometry(row.width, row.height),
                                                                  outcome.mines), comments))
        ok = sum(c.outcome.ok for c in results)
        print(f"  {row.name:13s} {generator:27s} {ok}/{len(results)} ok, budget {budget:g} s",
              file=sys.stderr, flush=True)
        out[generator] = results
    return out


def _seconds(values: list[float]) -> tuple[str, str]:
    if not values:
        return "-", "-"
    return f"{statistics.median(values):.3f}", f"{float(np.percentile(values, 90)):.3f}"


def _mean(values: list) -> str:
    values = [v for v in values if v is not None]
    return f"{statistics.mean(values):.1f}" if values else "-"


def table_line(row: Row, generator: str, results: list[Checked], n: int, budget: float) -> str:
    accepted = [c for c in results if c.outcome.ok]
    med, p90 = _seconds([c.outcome.seconds for c in accepted])
    if generator.startswith("mscsp"):
        if accepted:
            att = _mean([c.outcome.attempts for c in accepted])
        else:  # attempts made by the failed boards, in parentheses
            att = f"({_mean([c.outcome.attempts for c in results])})"
        pert = _mean([c.outcome.perturbations for c in accepted]) if generator.endswith("perturb") else "-"
    else:
        att = pert = "-"
    bad = sum(bool(c.problems) for c in accepted)
    vfail = sum(c.verify_ok is False for c in accepted)
    msno = sum(c.ms_ok is False for c in accepted)
    rate = f"{len(accepted)}/{len(results)}"
    notes = []
    if len(results) < n:
        notes.append(f"stopped after {len(results)} failures")
    reasons = sorted({c.outcome.note for c in results if not c.outcome.ok and c.outcome.note})
    if reasons:
        notes.append(", ".join(reasons))
    return (f"{row.name:13s} {generator:27s} {budget:6g} {rate:>6s} {med:>9s} {p90:>9s} {att:>9s} {pert:>7s} "
            f"{bad:>5d} {vfail:>6d} {msno:>6d}  {'; '.join(notes)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=None,
                        help="boards per row and generator (default 20 on 30x16, 5 on 50x50, 3 on 100x100)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per board")
    parser.add_argument("--retry-limit", type=float, default=10.0,
                        help="seconds per board for the two rejection samplers at high density")
    parser.add_argument("--retry-density", type=float, default=0.3,
                        help="mine density from which --retry-limit applies")
    parser.add_argument("--give-up", type=int, default=3,
                        help="stop a generator on a row after this many failures without a success (0: never)")
    parser.add_argument("--rows", default=DEFAULT_ROWS, help=f"comma-separated WxH/M (default {DEFAULT_ROWS})")
    parser.add_argument("--save-failures", metavar="DIR", help="write boards that fail a check as layout files")
    parser.add_argument("--json", type=Path, metavar="PATH",
                        help="also write each row and generator's figures as JSON (seconds per accepted board)")
    parser.add_argument("--tatham", metavar="PATH",
                        help="also time the Mines program of Simon Tatham's Portable Puzzle Collection "
                             "(such as /usr/games/sgt-mines)")
    args = parser.parse_args(argv)
    try:
        rows = [Row.parse(t) for t in args.rows.split(",") if t.strip()]
    except ValueError as exc:
        parser.error(str(exc))
    if args.boards is not None and args.boards < 1:
        parser.error("need --boards >= 1")
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        print("ms_toollib is not installed: pip install ms-toollib", file=sys.stderr)
        return 2
    if args.tatham is not None:
        try:
            args.tatham = tatham_mines(args.tatham)
        except ValueError as exc:
            print(f"noguess: {exc}", file=sys.stderr)
            return 2

    started = time.perf_counter()
    failures: list[str] = []
    results = {}
    for row in rows:
        n = args.boards or row.default_boards()
        print(f"{row.name}: {n} boards per generator", file=sys.stderr, flush=True)
        results[row] = (n, run_row(row, n, args, failures))

    print(f"No-guess generation, rule 'opening' at the centre [width//2, height//2], seed {args.seed}; "
          f"{time.perf_counter() - started:.0f} s in all")
    print(f"Per board: {args.time_limit:g} s; the rejection samplers (mscsp retry, ms laymine_solvable) get "
          f"{min(args.retry_limit, args.time_limit):g} s on rows with mine density >= {args.retry_density:g}"
          + (f"; a generator failing its first {args.give_up} boards of a row is stopped there" if args.give_up
             else ""))
    print("mscsp: complete SAT solver with the mine total; ms_toollib: is_solvable, no mine total, unseeded.")
    if args.tatham:
        print(f"Tatham mines: {args.tatham['path']}, {args.tatham['version']}; his solver uses the mine total; "
              "his own first click (random, the same 3x3 rule);\nhis time is the user CPU seconds his "
              "--time-generation prints, the others' wall seconds around the call.")
    print("Seconds are per accepted board. att = mean attempts per accepted board (in parentheses: per failed "
          "board);\nbad = accepted boards failing any check; vfail = failing mscsp verify(sat, total); "
          "is_no = rejected by ms_toollib.is_solvable\n(a failure only for ms_toollib's generators; for mscsp's "
          "it counts boards that need the mine total).")
    print()
    print(f"{'row':13s} {'generator':27s} {'limit':>6s} {'ok':>6s} {'median s':>9s} {'p90 s':>9s} {'att':>9s} "
          f"{'pert':>7s} {'bad':>5s} {'vfail':>6s} {'is_no':>6s}  notes")
    for row, (n, per) in results.items():
        for generator in _generators(args):
            print(table_line(row, generator, per[generator], n, _budget(generator, row, args)))
    print()
    if failures:
        print(f"Accepted boards failing a check ({len(failures)}):")
        for line in failures:
            print(f"  {line}")
    else:
        print("Every accepted board passed every check.")
    print()
    checks = [c for _, per in results.values() for cs in per.values() for c in cs if c.outcome.ok]
    compared = [c for c in checks if c.ms_ok is not None]
    disagree = sum(c.ms_ok != c.local_ok for c in compared)
    print(f"Cross-check on all {len(checks)} accepted boards: ms_toollib.is_solvable and mscsp verify(sat, no total) "
          f"disagree on {disagree} of {len(compared)}; boards solved only with the mine total: "
          f"{sum(bool(c.verify_ok) and not c.local_ok for c in checks)}.")
    print()
    print(REFERENCE)
    if args.json:
        found = []
        for row, (n, per) in results.items():
            for generator in _generators(args):
                accepted = [c for c in per[generator] if c.outcome.ok]
                seconds = [c.outcome.seconds for c in accepted]
                found.append({"row": row.name, "generator": generator, "boards": len(per[generator]),
                              "made": len(accepted), "bad": sum(bool(c.problems) for c in accepted),
                              "verified": sum(c.verify_ok is True for c in accepted),
                              "median_s": statistics.median(seconds) if seconds else None,
                              "budget_s": _budget(generator, row, args)})
        args.json.write_text(json.dumps({"seed": args.seed, "tatham": args.tatham, "rows": found}, indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
