"""The ``mscsp`` command line (its options, outputs and exit statuses: README, "Commands").

Bad input of any kind ends with one line on standard error and exit status 2, never
a traceback; a command writes its output only once it has all of it, so nothing is
half-written.

One module, not several: one small function per command over one argument parser, whose
shared options (board, time and memory limits, solver) are defined once here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
from dataclasses import replace
from typing import Callable, Sequence

from . import __version__
from .board import PRESETS, Spec, format_layout
from .budget import DEFAULT_MEMORY, Budget
from .errors import BudgetExceeded, InconsistentError, InputError, MscspError, quoted
from .formats.files import (
    MAX_AREA,
    MAX_CELLS,
    MAX_SPARSE_CELLS,
    check_cells,
    check_output_file,
    make_output_folder,
    write_whole,
)
from .rules import FirstClickRule, generate
from .formats.text import excerpt, natural

__all__ = ["main", "build_parser", "parse_cell", "UNDECIDED"]

#: Exit status of a command that ran out of its budget before it had an answer
#: (2 is bad input, 1 an impossible position).
UNDECIDED = 3
#: Exit status of an internal error (EX_SOFTWARE): a bug, said in one line.
INTERNAL = 70

#: When the running command started (set by :func:`main`): a --time-limit counts from
#: there, reading and parsing the input included.
_STARTED = time.perf_counter()

#: Default --time-limit of solve, count, verify, consistent and generate --no-guess:
#: a command on the hardest input ends well inside half a minute.
DEFAULT_SECONDS = 20.0
#: Default --memory-limit of the commands that bound the whole process's memory.
RESIDENT_MEMORY = 2 * DEFAULT_MEMORY
#: The largest --time-limit (a week) and --memory-limit (1 TiB, in megabytes): a
#: bound past any run this tool is for; infinity or 1e30 would remove the bound.
MAX_SECONDS = 7 * 24 * 3600
MAX_MEGABYTES = 2**20
#: The most digits of a --density's numerator and denominator: finer densities
#: (1e-5000) would make every layout's weight a number of thousands of digits.
MAX_DENSITY_DIGITS = 30


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")

    def parse_known_args(self, args=None, namespace=None):
        # argparse takes the value of `--time-limit=--` for its "--" separator and gives
        # the option an empty list, never calling its type: refused here instead
        for arg in sys.argv[1:] if args is None else args:
            if arg == "--":
                break
            option, equals, value = str(arg).partition("=")
            if equals and value == "--" and option.startswith("-"):
                self.error(f"argument {option}: expected a value, not '--'")
        return super().parse_known_args(args, namespace)


def parse_cell(text: str) -> tuple[int, int]:
    """Read ``X,Y`` as a pair of non-negative integers.

    Examples
    --------
    >>> parse_cell("15,8")
    (15, 8)
    """
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"expected X,Y with non-negative integers, not {excerpt(text)}")
    try:
        return natural(parts[0], "X"), natural(parts[1], "Y")
    except InputError as exc:
        raise argparse.ArgumentTypeError(f"expected X,Y with non-negative integers: {exc}") from None


def _non_negative(text: str) -> int:
    try:
        return natural(text, "the value")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError("expected a positive integer")
    return value


def add_board_arguments(parser: argparse.ArgumentParser, *, rule_default: str = "safe") -> None:
    """Board size, mines, rule, click and seed, shared by ``generate`` and ``play``."""
    parser.add_argument("--preset", choices=sorted(PRESETS), help="a standard board (sizes can still be overridden)")
    parser.add_argument("--width", type=_positive, help="columns")
    parser.add_argument("--height", type=_positive, help="rows")
    parser.add_argument("--mines", type=_non_negative, help="number of mines")
    parser.add_argument("--seed", type=_non_negative, help="random seed (default: a fresh one, printed)")
    parser.add_argument(
        "--rule",
        default=rule_default,
        choices=[r.value for r in FirstClickRule],
        help=f"first-click rule (default: {rule_default})",
    )


def spec_from_args(args: argparse.Namespace) -> Spec:
    """The board size the arguments ask for: a preset, explicit sizes, or both."""
    base = PRESETS[args.preset] if args.preset else None
    width = args.width if args.width is not None else (base.width if base else None)
    height = args.height if args.height is not None else (base.height if base else None)
    mines = args.mines if args.mines is not None else (base.mines if base else None)
    missing = [n for n, v in (("--width", width), ("--height", height), ("--mines", mines)) if v is None]
    if missing:
        raise InputError(f"give {', '.join(missing)} or a --preset")
    check_cells(width, height, MAX_CELLS)
    return Spec(width, height, mines)


# -- generate --------------------------------------------------------------------------
def _cmd_generate(args: argparse.Namespace) -> int:
    spec = spec_from_args(args)
    click = args.click if args.click is not None else (spec.width // 2, spec.height // 2)
    extra: dict = {}
    if args.no_guess:
        from .play.noguess import generate_no_guess

        result = generate_no_guess(
            spec, args.rule, click, args.seed, method=args.method, solver=args.solver,
            use_total=not args.no_total, max_attempts=args.max_attempts, time_limit=args.time_limit,
            memory_limit=args.memory_limit,
        )
        board = result
        attempts, seconds = result.attempts, result.seconds
        extra = {"method": result.method.value, "solver": result.solver.value, "mine_total": result.use_total,
                 "perturbations": result.perturbations, "guarantee": result.guarantee,
                 "sampling": result.sampling, "chain_steps": result.steps}
    else:
        board = generate(spec, args.rule, click, args.seed)
        attempts, seconds = 1, board.seconds
    layout = board.layout
    if args.json:
        record = {
            "width": spec.width,
            "height": spec.height,
            "mines": spec.mines,
            "seed": board.seed,
            "rule": board.rule.value,
            "click": list(click),
            "layout": layout.rows(),
            "no_guess": bool(args.no_guess),
            "attempts": attempts,
            "seconds": round(seconds, 6),
            "generator": board.generator,
            **extra,
        }
        sys.stdout.write(json.dumps(record) + "\n")
    else:
        comments = [
            f"mscsp generate: {spec.width}x{spec.height}, {spec.mines} mines, "
            f"rule {board.rule.value}, click {click[0]},{click[1]}",
            f"seed: {board.seed}",
            f"generator: {board.generator}",
        ]
        if args.no_guess:
            comments += [f"no-guess: {extra['guarantee']}",
                         f"method: {extra['method']}, attempts: {attempts}, perturbations: {extra['perturbations']}, "
                         f"seconds: {seconds:.3f}",
                         f"sampling: {extra['sampling']}"]
        sys.stdout.write(format_layout(layout, comments))
    return 0


# -- play and replay -----------------------------------------------------------------
def _cmd_play(args: argparse.Namespace) -> int:
    from .terminal import play_terminal

    spec = spec_from_args(args)
    if sys.stdin is None:  # closed (`<&-`): no game can be played, so none is started
        raise InputError("standard input is closed; play reads its commands there")
    if args.save:
        check_output_file(args.save)  # before the game, not after it
    elif not args.no_save:
        check_output_file("mscsp-replay.json")  # the default lands in this folder
    return play_terminal(
        spec,
        args.rule,
        args.seed,
        save=args.save,
        default_save=not args.no_save,
        stdin=sys.stdin,
        stdout=sys.stdout,
        color=args.color,
    )


def _cmd_replay(args: argparse.Namespace) -> int:
    from .formats.files import read_source
    from .game import Replay
    from .terminal import render

    replay = Replay.from_json(read_source(args.file))
    game = replay.play()
    sys.stdout.write(render(game, reveal_mines=game.status.over))
    sys.stdout.write(f"{game.status.value} after {len(replay.actions)} actions, {game.elapsed:.1f} s\n")
    return 0


# -- solve and verify -----------------------------------------------------------------
SOLVERS = ["single-point", "subset", "sat"]


def _cmd_solve(args: argparse.Namespace) -> int:
    from .analysis.full import analyse
    from .formats.files import read_source
    from .position import parse_position
    from .report import error_record, solve_record, solve_text

    if args.dimacs:
        from .budget import Budget
        from .reduction.dimacs import write_dimacs

        if len(args.files) != 1:
            raise InputError("--dimacs takes exactly one position file")
        name = args.files[0]
        position = parse_position(read_source(name), source=name, max_cells=MAX_CELLS, max_area=MAX_AREA)
        budget = Budget.of(_left(args.time_limit, _STARTED), None)
        write_dimacs(position, sys.stdout, use_total=not args.no_total, budget=budget)
        return 0
    worst = 0
    for k, name in enumerate(args.files):
        since = _STARTED if k == 0 else time.perf_counter()  # each file has the whole limit
        try:
            position = parse_position(read_source(name), source=name, max_cells=MAX_CELLS, max_area=MAX_AREA)
        except InputError as exc:
            worst = 2
            if args.json:
                sys.stdout.write(json.dumps(error_record(name, str(exc))) + "\n")
            sys.stderr.write(f"mscsp solve: error: {exc}\n")
            continue
        analysis = analyse(
            position,
            args.solver,
            use_total=not args.no_total,
            counter=args.counter,
            density=args.density,
            time_limit=_left(args.time_limit, since),
            memory_limit=args.memory_limit,
            resident_limit=_growth_bound(args.memory_limit),
        )
        if not analysis.consistent:
            worst = max(worst, 1)
        shown = None if name == "-" else name
        if args.json:
            sys.stdout.write(json.dumps(solve_record(analysis, file=shown, fractions=args.fractions)) + "\n")
        else:
            sys.stdout.write(solve_text(analysis, file=shown and quoted(shown)))
        sys.stdout.flush()
    return worst


def _cmd_verify(args: argparse.Namespace) -> int:
    from .board import parse_layout
    from .formats.files import read_source
    from .play.verify import verify

    layout = parse_layout(read_source(args.layout), source=args.layout, max_cells=MAX_CELLS, max_area=MAX_AREA)
    result = verify(layout, args.click, args.solver, use_total=not args.no_total, time_limit=args.time_limit,
                    memory_limit=args.memory_limit)
    if args.json:
        record = result.to_dict()
        record.update({"solver": args.solver, "total": not args.no_total, "click": list(args.click)})
        sys.stdout.write(json.dumps(record) + "\n")
    else:
        verdict = "solved" if result.solved else "not solved"
        sys.stdout.write(
            f"{verdict}: opened {result.opened} of {result.safe_cells} safe cells in {result.steps} steps "
            f"(solver {args.solver}, mine total {'used' if not args.no_total else 'not used'}, "
            f"{result.engine} play loop)\n"
        )
    return 0


def _density(text: str):
    from fractions import Fraction

    unreadable = argparse.ArgumentTypeError(f"expected a density such as 0.2 or 1/5, not {excerpt(text)}")
    too_fine = argparse.ArgumentTypeError(f"a density's fraction may have at most {MAX_DENSITY_DIGITS} digits "
                                          f"above and below its line, not {excerpt(text)}")
    if not text.isascii():
        raise unreadable
    # Fraction("1e-999999999") would build 10**999999999: the text is measured first
    exponent = re.search(r"[eE][+-]?([0-9]+)$", text)
    if len(text) > 100 or (exponent and len(exponent.group(1).lstrip("0")) > 3):
        raise too_fine
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise unreadable from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError("a density lies strictly between 0 and 1")
    if max(value.numerator, value.denominator) >= 10**MAX_DENSITY_DIGITS:
        raise too_fine
    return value


def _cmd_count(args: argparse.Namespace) -> int:
    from .analysis.counting import probabilities
    from .formats.files import read_source
    from .position import parse_position
    from .report import decimal

    position = parse_position(read_source(args.file), source=args.file, max_cells=MAX_CELLS, max_area=MAX_AREA)
    if args.no_total:
        position = position.with_mines(None)
    budget = replace(Budget.of(_left(args.time_limit, _STARTED), args.memory_limit),
                     resident=_growth_bound(args.memory_limit))
    estimate = None
    try:
        probs = probabilities(position, counter=args.counter, budget=budget)
        layouts, status, reason = probs.layouts, 0, None
        if layouts is None:  # the budget ran out: what was estimated, and why
            estimate = probs.stats.get("estimate", {})
            status, reason = UNDECIDED, str(probs.reason)
    except InconsistentError as exc:
        layouts, status, reason = 0, 1, str(exc)
    if args.json:
        record = {"layouts": None if layouts is None else decimal(layouts), "mines": position.mines}
        if status == 1:
            record["contradiction"] = reason
        elif estimate is not None:
            record.update(exact=False, reason=reason, estimate=estimate.get("layouts"),
                          interval=estimate.get("layouts_interval"))
        sys.stdout.write(json.dumps(record) + "\n")
    elif layouts is not None:
        sys.stdout.write(f"{decimal(layouts)}\n")
    if status == 1:
        sys.stderr.write(f"mscsp count: inconsistent: {reason}\n")
    elif estimate is not None:
        kind = "proven bounds" if estimate.get("bounds") == "proven" else "95% interval"
        about = "" if estimate.get("layouts") is None else (
            f"; an estimate is {estimate['layouts']} ({kind} {' to '.join(estimate['layouts_interval'])})")
        sys.stderr.write(f"mscsp count: not counted exactly: {reason}{about}\n")
    return status


def _cmd_consistent(args: argparse.Namespace) -> int:
    from .analysis.consistency import decide
    from .formats.files import read_source
    from .position import parse_position
    from .report import contradiction_record

    position = parse_position(read_source(args.file), source=args.file, max_cells=MAX_SPARSE_CELLS)
    mapping = None
    if args.decode:
        from .reduction.compile import decode, read_map

        mapping = read_map(read_source(args.decode), position.geometry, source=quoted(args.decode),
                           memory=args.memory_limit)
    started = _STARTED
    from .reduction.lift import lifted_core

    # a board compiled from a formula: the formula's own core, lifted, is where a small
    # reason is looked for first (a fifth of the time at most)
    hint = lifted_core(position, deadline=started + args.time_limit / 5)
    verdict = decide(position, time_limit=_left(args.time_limit, started),
                     memory_limit=args.memory_limit, hint=hint)
    assignment = None
    if verdict.consistent and mapping is not None:
        assignment = decode(verdict.witness, mapping)
    if args.json:
        record: dict = {"file": args.file, "consistent": verdict.consistent, "seconds": round(verdict.seconds, 6)}
        if verdict.consistent:
            record["witness"] = verdict.witness.rows()
            if assignment is not None:
                record["assignment"] = {str(v): b for v, b in sorted(assignment.items())}
        else:
            record["contradiction"] = contradiction_record(verdict.contradiction)
        sys.stdout.write(json.dumps(record) + "\n")
    elif verdict.consistent:
        if assignment is not None:
            sys.stdout.write("v " + " ".join(str(v if b else -v) for v, b in sorted(assignment.items())) + " 0\n")
        else:
            comment = f"a layout consistent with {quoted(args.file)} (checked)"
            sys.stdout.write(format_layout(verdict.witness, [comment]))
    else:
        c = verdict.contradiction
        names = ", ".join(f"[{x},{y}]" for x, y in c.clues)
        sys.stdout.write(f"inconsistent: {c.text}\n")
        if names:
            sys.stdout.write(f"clues that cannot all hold: {names}" + (" and the mine total" if c.uses_total else "")
                             + ("" if c.minimal else f" ({len(c.clues)} clues, not shrunk to a minimal set in time)")
                             + "\n")
    return 0 if verdict.consistent else 1


def _cmd_from_cnf(args: argparse.Namespace) -> int:
    from .formats.files import read_source
    from .position import format_position
    from .reduction.cnf import parse_dimacs
    from .reduction.compile import compile_cnf

    if args.map:
        check_output_file(args.map)
    cnf = parse_dimacs(read_source(args.formula), source=args.formula)
    compiled = compile_cnf(cnf, max_cells=MAX_SPARSE_CELLS)
    text = format_position(compiled.position, [
        f"compiled by mscsp from-cnf from {quoted(args.formula)}: {cnf.variables} variables, "
        f"{len(cnf.clauses)} clauses",
        "consistent exactly when the formula is satisfiable (Kaye's reduction; gadgets in mscsp.reduction.gadgets)",
    ])
    if args.map:
        write_whole(args.map, compiled.map_json() + "\n")
    sys.stdout.write(text)
    return 0


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so that it unwinds as Ctrl-C does."""


def _raise_terminated(signum, frame) -> None:
    raise _Terminated


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from .experiments import reproduce

    selected = reproduce.select(args.only)
    jobs = args.jobs or os.cpu_count() or 1
    out = args.out or ("results-quick" if args.quick else "results")
    if args.resume and args.check:
        raise InputError("--check regenerates every experiment from scratch; --resume does not apply")
    if not args.check:
        make_output_folder(out)
    # SIGTERM would end this process at once and leave its workers running: unwound
    # instead, like Ctrl-C, so that the runner stops them
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        if args.check:
            return reproduce.check(out, selected, jobs=jobs, quick=args.quick, seed=args.seed)
        status = reproduce.run(out, selected, jobs=jobs, quick=args.quick, resume=args.resume, seed=args.seed)
        # the paper quotes the default seed's numbers: a smoke run or another seed leaves it alone
        return status or (0 if args.quick or args.seed is not None else reproduce.paper(out))
    except (KeyboardInterrupt, _Terminated) as exc:
        how, status = ("terminated", 143) if isinstance(exc, _Terminated) else ("interrupted", 130)
        kept = "" if args.check else "; finished chunks are kept: rerun with --resume to go on from them"
        fresh_line = "\n" if sys.stderr.isatty() else ""  # a progress bar may be half drawn
        sys.stderr.write(f"{fresh_line}mscsp reproduce: {how}{kept}\n")
        return status
    finally:
        signal.signal(signal.SIGTERM, previous)


def _cmd_paper(args: argparse.Namespace) -> int:
    from .experiments import layout, paper

    written = paper.write_generated(results=args.results)
    sys.stderr.write(f"mscsp paper: wrote {len(written)} files to {written[0].parent}/\n")
    if args.no_pdf:
        return 0
    try:
        pdf = paper.build_pdf()
    except paper.TexMissing as exc:
        sys.stderr.write(f"mscsp paper: no PDF: {exc}\n")
        return paper.TEX_MISSING
    for line in layout.warnings(pdf, paper.PAPER / "build" / "mscsp.aux"):
        sys.stderr.write(f"mscsp paper: warning: {line}\n")
    sys.stdout.write(f"{pdf}\n")
    return 0


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {excerpt(text)}") from None
    if not 0 < value <= MAX_SECONDS:  # NaN and infinity fail too: a bound must bound
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds up to {MAX_SECONDS} (a week), "
                                         f"not {excerpt(text)}")
    return value


def _megabytes(text: str) -> int:
    """Megabytes on the command line, bytes inside."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected megabytes, not {excerpt(text)}") from None
    if not 1 <= value <= MAX_MEGABYTES:  # NaN and infinity fail too: a bound must bound
        raise argparse.ArgumentTypeError(f"expected from 1 to {MAX_MEGABYTES} megabytes (1 TiB), not {excerpt(text)}")
    return int(value * 2**20)


def _left(limit: float, since: float) -> float:
    """What is left of ``limit`` seconds counted from ``since`` (a twentieth at least,
    so that a command given a moment still tries)."""
    return max(limit - (time.perf_counter() - since), limit / 20)


def _growth_bound(memory_limit: int) -> int:
    """The resident bytes past which solve and count stop growing: nine tenths of
    ``--memory-limit``, as the process is measured between growths and what follows
    (the estimate, the answer) needs room. The whole process is bounded, not only the
    counting tables: their big numbers and the rest of a count took a third more than
    the tables' own allowance."""
    return int(0.9 * memory_limit)


def add_time_limit(parser: argparse.ArgumentParser, what: str) -> None:
    """``--time-limit S``, default :data:`DEFAULT_SECONDS`, at most :data:`MAX_SECONDS`."""
    parser.add_argument("--time-limit", type=_positive_float, default=DEFAULT_SECONDS, metavar="S",
                        help=f"seconds {what} (default: {DEFAULT_SECONDS:g}; at most {MAX_SECONDS}, a week)")


def add_memory_limit(parser: argparse.ArgumentParser, what: str, default: int) -> None:
    """``--memory-limit MB``: megabytes of ``what``, at most :data:`MAX_MEGABYTES`."""
    parser.add_argument("--memory-limit", type=_megabytes, default=default, metavar="MB",
                        help=f"megabytes {what} (default: {default >> 20}; at most {MAX_MEGABYTES}, 1 TiB)")


def add_solver_arguments(parser: argparse.ArgumentParser, budget: str) -> None:
    """``--solver``, ``--no-total``, ``--json`` and ``--time-limit``, shared by solve and verify."""
    parser.add_argument("--solver", choices=SOLVERS, default="sat", help="the solver (default: sat)")
    parser.add_argument("--no-total", action="store_true", help="ignore the mine total even when given")
    parser.add_argument("--json", action="store_true", help="JSON output (one object per line)")
    add_time_limit(parser, budget)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mscsp", description="Minesweeper as constraint satisfaction.")
    parser.add_argument("--version", action="version", version=f"mscsp {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    gen = commands.add_parser("generate", help="generate a board under a first-click rule")
    add_board_arguments(gen)
    gen.add_argument("--click", type=parse_cell, metavar="X,Y", help="first click (default: the centre)")
    gen.add_argument("--json", action="store_true", help="print one JSON object instead of a layout file")
    gen.add_argument("--no-guess", action="store_true", help="only a board the solver finishes from the click")
    gen.add_argument("--method", choices=["retry", "perturb", "uniform"], default="retry",
                     help="no-guess method: retry fresh boards, perturb Tatham-style, or uniform (retry, then "
                          "a Markov chain over no-guess boards where retry is too slow) (default: retry)")
    gen.add_argument("--solver", choices=SOLVERS, default="sat", help="no-guess solver (default: sat)")
    gen.add_argument("--no-total", action="store_true", help="the no-guess solver may not use the mine total")
    gen.add_argument("--max-attempts", type=_positive, default=100_000, help="fresh boards at most (default: 100000)")
    add_time_limit(gen, "at most for a no-guess board")
    add_memory_limit(gen, "the process may hold while it looks for a no-guess board", RESIDENT_MEMORY)
    gen.set_defaults(func=_cmd_generate)

    play = commands.add_parser("play", help="play a game in the terminal")
    add_board_arguments(play)
    saving = play.add_mutually_exclusive_group()
    saving.add_argument("--save", metavar="FILE", help="where to save the replay (default: mscsp-replay-SEED.json)")
    saving.add_argument("--no-save", action="store_true", help="do not save a replay")
    play.add_argument("--color", action="store_true", help="colour the numbers (ANSI)")
    play.set_defaults(func=_cmd_play)

    sol = commands.add_parser("solve", help="prove safe cells and mines of positions")
    sol.add_argument("files", nargs="+", metavar="FILE", help="position files ('-' for standard input)")
    add_solver_arguments(sol, "per file: half for the proofs, the rest for counting")
    sol.add_argument("--dimacs", action="store_true", help="print the position as DIMACS CNF instead")
    sol.add_argument("--counter", choices=["dp", "cpsat"], default="dp",
                     help="counter: dynamic programme (default) or CP-SAT enumeration")
    sol.add_argument("--density", type=_density, metavar="P",
                     help="without a mine total, weigh layouts as independent mines of density P (e.g. 0.2 or 1/5; "
                          f"at most {MAX_DENSITY_DIGITS} digits above and below its fraction line)")
    sol.add_argument("--fractions", action="store_true", help="add exact probabilities as 'p/q' strings (JSON)")
    add_memory_limit(sol, "the process may hold per file", DEFAULT_MEMORY)
    sol.set_defaults(func=_cmd_solve)

    ver = commands.add_parser("verify", help="play a layout with a solver: no guess needed?")
    ver.add_argument("layout", metavar="LAYOUT", help="a layout file ('-' for standard input)")
    ver.add_argument("--click", type=parse_cell, required=True, metavar="X,Y", help="the first click")
    add_solver_arguments(ver, "for the whole verification")
    add_memory_limit(ver, "the process may hold while it plays", RESIDENT_MEMORY)
    ver.set_defaults(func=_cmd_verify)

    cnt = commands.add_parser("count", help="the exact number of layouts consistent with a position")
    cnt.add_argument("file", metavar="FILE", help="a position file ('-' for standard input)")
    cnt.add_argument("--counter", choices=["dp", "cpsat"], default="dp", help="counter: dynamic programme (default: dp) or CP-SAT enumeration")
    cnt.add_argument("--no-total", action="store_true", help="ignore the mine total: count every mine count")
    cnt.add_argument("--json", action="store_true", help='print {"layouts": "N", "mines": M}')
    add_time_limit(cnt, "for the count")
    add_memory_limit(cnt, "the process may hold for the count", DEFAULT_MEMORY)
    cnt.set_defaults(func=_cmd_count)

    con = commands.add_parser("consistent", help="decide consistency: a checked witness or a minimal clash")
    con.add_argument("file", metavar="FILE", help="a position file ('-' for standard input)")
    con.add_argument("--json", action="store_true", help="print one JSON object")
    con.add_argument("--decode", metavar="MAP", help="decode the witness through a from-cnf map into an assignment")
    add_time_limit(con, "in all: reading the clues, the search, shrinking a clash")
    add_memory_limit(con, "the process may hold while it reads and encodes the clues", RESIDENT_MEMORY)
    con.set_defaults(func=_cmd_consistent)

    cnf = commands.add_parser("from-cnf", help="compile a DIMACS CNF formula into a position (Kaye's reduction)")
    cnf.add_argument("formula", metavar="FORMULA.cnf", help="DIMACS CNF ('-' for standard input)")
    cnf.add_argument("--map", metavar="MAP.json", help="write which cells carry each variable")
    cnf.set_defaults(func=_cmd_from_cnf)

    repro = commands.add_parser("reproduce", help="run every experiment and write results/")
    repro.add_argument("--quick", action="store_true", help="small runs (written to results-quick/ by default)")
    repro.add_argument("--jobs", type=_positive, help="worker processes (default: all cores)")
    repro.add_argument("--out", help="results folder (default: results, or results-quick with --quick); "
                                      "with --check, the one to compare with")
    repro.add_argument("--only", nargs="+", metavar="NAME", help="run only these experiments")
    repro.add_argument("--resume", action="store_true", help="reuse finished chunks of an interrupted run")
    repro.add_argument("--seed", type=_non_negative, help="override every experiment's default seed")
    repro.add_argument("--check", action="store_true",
                       help="regenerate into a temporary folder and compare every deterministic file with the "
                            "results folder (--out); exit 1 and list the differences if any")
    repro.set_defaults(func=_cmd_reproduce)

    pap = commands.add_parser("paper", help="write paper/generated/ from results/ and build paper/mscsp.pdf")
    pap.add_argument("--results", default="results", help="the results folder to read (default: results)")
    pap.add_argument("--no-pdf", action="store_true", help="write paper/generated/ only, without LaTeX")
    pap.set_defaults(func=_cmd_paper)

    from .web.command import register as register_serve

    register_serve(commands)

    rep = commands.add_parser("replay", help="replay a saved game and show where it ended")
    rep.add_argument("file", metavar="FILE", help="a replay saved by mscsp play ('-' for standard input)")
    rep.set_defaults(func=_cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    global _STARTED
    _STARTED = time.perf_counter()
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except InputError as exc:
        sys.stderr.write(f"mscsp {args.command}: error: {exc}\n")
        return 2
    except InconsistentError as exc:
        sys.stderr.write(f"mscsp {args.command}: inconsistent: {exc}\n")
        return 1
    except BudgetExceeded as exc:
        sys.stderr.write(f"mscsp {args.command}: gave up: {exc} ({exc.resource.value} budget)\n")
        return UNDECIDED
    except MemoryError:
        sys.stderr.write(f"mscsp {args.command}: gave up: the machine ran out of memory (memory budget)\n")
        return UNDECIDED
    except MscspError as exc:
        sys.stderr.write(f"mscsp {args.command}: failed: {exc}\n")
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write(f"mscsp {args.command}: interrupted\n")
        return 130
    except Exception as exc:  # a bug: one line, the traceback only when asked for
        if os.environ.get("MSCSP_DEBUG"):
            raise
        sys.stderr.write(f"mscsp {args.command}: internal error: {type(exc).__name__}: {exc} "
                         f"(MSCSP_DEBUG=1 shows the traceback; please report it)\n")
        return INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
