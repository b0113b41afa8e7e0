"""Exact mine probabilities on Expert positions from real play: mscsp against ms_toollib.

The corpus is built by playing seeded games with the complete solver (by default
Expert, 30x16 with 99 mines, opening rule at the centre [15,8]; ``--stages`` adds
classic Expert, the first click safe at the corner [0,0], and Beginner-sized random
8x8 boards with 10 mines): proven-safe cells are opened and
proven mines flagged (``mscsp.analysis.solvers.deduce``); when nothing is proven, the covered
cell with the least mine probability (mscsp's engine) is opened, and a mine ends the
game. The player's position is kept after the opening, every few solver rounds and
at every stuck position (never a won or lost game's final state), without duplicates.

On each position both engines run in the same process, best of ``--repeat`` runs:

- ``mscsp.analysis.counting.probabilities`` (exact fractions, the mine total used);
- ``mscsp.analysis.analyse`` (everything ``mscsp solve`` computes: the proven cells
  with their explanations, the probabilities, the suggested click), again with
  ``explain=False`` (the same, without the minimal reasons: what ms_toollib gives,
  plus the proofs and the suggested click), and again reading every explanation's
  sentence (an explanation is put into words when its sentence is first read: the
  first timing has every reason, the last every sentence too);
- ``ms_toollib.cal_probability_onboard`` (Rust; PyPI ms-toollib), given the same
  position as rows of codes (flags as 11, which it re-derives: they are proven mines).

Every covered unflagged cell must agree to 1e-9, for the counting engine and for
``analyse``; disagreements are counted and the first ones shown. ``analyse``'s
proven safe cells and mines must be exactly those the complete SAT solver proves
(``mscsp.analysis.solvers.deduce``, timed apart). Prints median, p90 and max milliseconds per
position for each, the ratios of medians to ms_toollib, and the same timing and
check on ``examples/positions/long_frontier.txt``. With ``--stages`` it also prints
the medians and ratios by start and by stage of the game: *early* while less than a
third of the safe cells is open (right after the opening, or after a corner click
that showed a number), *mid* up to two thirds, *late* beyond. Needs
``pip install ms-toollib`` (a benchmark-only dependency).

    python benchmarks/probability.py --positions 200 --seed 2026 --repeat 3
    python benchmarks/probability.py --positions 150 --stages --repeat 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from mscsp.analysis.counting import probabilities
from mscsp.analysis.full import analyse
from mscsp.analysis.solvers import deduce
from mscsp.board import Spec
from mscsp.game import Game, Status
from mscsp.position import Mark, Position, parse_position
from mscsp.rules import generate

TOLERANCE = 1e-9
SNAPSHOT_EVERY = 4  # solver rounds between snapshots of a game that is not stuck
SHOW = 5  # disagreements printed in full
LONG_FRONTIER = Path(__file__).resolve().parent.parent / "examples" / "positions" / "long_frontier.txt"
MS_COVERED, MS_FLAG = 10, 11


def _play(board, every: int):
    """Yield the player's positions during one game played by the complete solver."""
    game = Game.from_board(board)
    game.reveal(board.click)
    rounds = 0
    while game.status is Status.PLAYING:
        position = game.position()
        known = deduce(position, "sat").by_index
        new = {c: mine for c, mine in known.items() if position.grid[c] == Mark.COVERED}
        stuck = not new
        if stuck or rounds % every == 0:
            yield position
        rounds += 1
        if stuck:
            guess = probabilities(position).best()
            if guess is None:
                return
            game.reveal(guess)
            continue
        for c, mine in sorted(new.items()):
            if game.status is not Status.PLAYING:
                break
            (game.flag if mine else game.reveal)(game.geometry.coords(c))


#: The corpora of ``--stages``: name -> (board, first-click rule, first click).
STARTS = {
    "modern Expert": (Spec.preset("expert"), "opening", (15, 8)),
    "classic Expert": (Spec.preset("expert"), "safe", (0, 0)),
    "small 8x8/10": (Spec(8, 8, 10), "safe", (3, 3)),
}

#: Stages of a game by the share of its safe cells open (upper bounds).
STAGES = (("early", 1 / 3), ("mid", 2 / 3), ("late", 1.0))


def stage(position: Position) -> str:
    """The stage of the game a position is in, by the share of its safe cells open."""
    safe = position.geometry.area - position.mines
    share = int(position.revealed.sum()) / safe
    return next(name for name, top in STAGES if share < top or top == 1.0)


def build_corpus(n: int, seed: int, every: int = SNAPSHOT_EVERY, spec: Spec | None = None, rule: str = "opening",
                 click: tuple[int, int] = (15, 8)) -> tuple[list[Position], int]:
    """The first ``n`` distinct positions of seeded games (Expert, opening at the centre,
    unless told otherwise), and the games played."""
    spec = spec or Spec.preset("expert")
    root = np.random.SeedSequence(seed)
    corpus: dict[Position, None] = {}
    games = 0
    while len(corpus) < n:
        (ss,) = root.spawn(1)  # the same children as root.spawn(games), one at a time
        board = generate(spec, rule, click, np.random.default_rng(ss))
        games += 1
        for position in _play(board, every):
            corpus.setdefault(position)
            if len(corpus) == n:
                break
    return list(corpus), games


def ms_board(position: Position) -> list[list[int]]:
    """The position as ms_toollib's ``game_board[row][col]``: 0-8, 10 covered, 11 flag."""
    g = position.geometry
    if not g.mask.all():
        raise ValueError("ms_toollib has no holes: the board must be a full rectangle")
    if g.width < 3 or g.height < 3:
        raise ValueError("ms_toollib aborts the process on boards smaller than 3x3")
    grid = position.grid.astype(np.int16)
    grid = np.where(grid == Mark.COVERED, MS_COVERED, np.where(grid == Mark.FLAG, MS_FLAG, grid))
    return grid.reshape(g.height, g.width).tolist()


def _timed(fn, repeat: int):
    """(result of the last run, wall time of each run in milliseconds)."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return result, times


def _fresh(position: Position) -> Position:
    """A copy of the position, so no cached view carries over from an earlier run."""
    return Position(position.geometry, position.grid, position.mines)


def time_both(position: Position, repeat: int):
    """Time both engines on one position: (ours, theirs, mscsp runs, ms_toollib runs).

    Run times are in milliseconds; callers take the best (the minimum).
    ``theirs`` is ms_toollib's probability grid, or the RuntimeError it raised. Each
    mscsp run gets a fresh copy of the position.
    """
    import ms_toollib as ms

    board = ms_board(position)
    ours, t_ours = _timed(lambda: probabilities(_fresh(position)), repeat)

    def theirs_call():
        try:
            return ms.cal_probability_onboard(board, position.mines)[0]
        except RuntimeError as exc:
            return exc

    theirs, t_theirs = _timed(theirs_call, repeat)
    return ours, theirs, t_ours, t_theirs


def time_analyse(position: Position, repeat: int):
    """``analyse`` on one position: (the analysis, run times in milliseconds)."""
    return _timed(lambda: analyse(_fresh(position)), repeat)


def time_read(position: Position, repeat: int) -> list[float]:
    """Milliseconds of :func:`analyse` followed by reading every explanation's sentence
    (the sentences are made when first read: this is what a caller who shows them all pays)."""
    def call():
        analysis = analyse(_fresh(position))
        return [e.text for e in analysis.explanations]
    return _timed(call, repeat)[1]


def time_proofs(position: Position, repeat: int) -> list[float]:
    """``analyse`` without explanations (proofs, probabilities, suggested click: what
    ms_toollib gives and more, no sentences): run times in milliseconds."""
    return _timed(lambda: analyse(_fresh(position), explain=False), repeat)[1]


def proof_mismatch(analysis) -> bool:
    """Whether the analysis proves other cells than the complete SAT solver does."""
    proven = deduce(analysis.position, "sat")
    return not proven.complete or analysis.mines != proven.mines or analysis.safe != proven.safe


def disagreements(position: Position, ours, theirs) -> list[tuple[int, object, object]]:
    """(cell, ours, theirs) for every covered unflagged cell off by more than TOLERANCE.

    An error raised by ms_toollib is one disagreement with cell None.
    """
    if isinstance(theirs, Exception):
        return [(None, "a probability table", f"{type(theirs).__name__}: {theirs}")]
    w = position.geometry.width
    bad = []
    for c in np.flatnonzero(position.covered).tolist():
        mine = ours.by_index[c]
        other = theirs[c // w][c % w]
        if mine is None or not abs(float(mine) - other) <= TOLERANCE:
            bad.append((c, mine, other))
    return bad


def _describe(position: Position, index, cell, ours, theirs) -> str:
    where = "" if cell is None else " cell [{},{}]".format(*position.geometry.coords(cell))
    value = ours if cell is None else f"{float(ours):.12f} ({ours})"
    other = theirs if cell is None else f"{theirs:.12f}"
    return f"  position {index}{where}: mscsp {value}, ms_toollib {other}"


def _summary(name: str, ms_times: list[float]) -> str:
    q = statistics.quantiles(ms_times, n=10)
    return (f"{name:34s} median {statistics.median(ms_times):9.3f} ms  p90 {q[8]:9.3f} ms  "
            f"max {max(ms_times):9.3f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stages", action="store_true", help="also time corpora of classic Expert and small "
                        "boards, and report every corpus by stage of the game")
    parser.add_argument("--json", metavar="PATH", help="also write the medians (by start and stage) here")
    args = parser.parse_args(argv)
    if args.positions < 2 or args.repeat < 1:
        parser.error("need --positions >= 2 and --repeat >= 1")
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        print("ms_toollib is not installed: pip install ms-toollib", file=sys.stderr)
        return 2

    corpus, games = build_corpus(args.positions, args.seed)
    t_ours, t_theirs, t_analyse = [], [], []
    bad_positions, bad_analyses, bad_proofs, shown, inexact = 0, 0, 0, [], 0
    timed = []  # by stage, when asked: this corpus is the modern Expert one
    for i, position in enumerate(corpus):
        ours, theirs, a, b = time_both(position, args.repeat)
        analysis, c = time_analyse(position, args.repeat)
        d = time_proofs(position, args.repeat)
        t_ours.append(min(a))
        t_theirs.append(min(b))
        t_analyse.append(min(c))
        inexact += not ours.exact
        bad = disagreements(position, ours, theirs)
        bad_positions += bool(bad)
        shown.extend(_describe(position, i, *d) for d in bad[: SHOW - len(shown)])
        bad_analysed = disagreements(position, analysis.probabilities, theirs)
        bad_analyses += bool(bad_analysed)
        shown.extend(_describe(position, f"{i} (analyse)", *d) for d in bad_analysed[: SHOW - len(shown)])
        bad_proofs += proof_mismatch(analysis)
        timed.append((stage(position), min(a), min(c), min(b), bool(bad or bad_analysed), min(d),
                      min(time_read(position, args.repeat))))

    n = len(corpus)
    covered = [p.covered_count for p in corpus]
    print(f"{n} distinct Expert positions (30x16/99, opening at [15,8]) from {games} games, "
          f"seed {args.seed}; best of {args.repeat} runs each")
    print(f"covered unflagged cells per position: median {statistics.median(covered):.0f}, "
          f"min {min(covered)}, max {max(covered)}; positions mscsp only estimated: {inexact}")
    print(_summary("mscsp probabilities", t_ours))
    print(_summary("mscsp analyse", t_analyse))
    print(_summary("ms_toollib cal_probability_onboard", t_theirs))
    theirs_median = statistics.median(t_theirs)
    print(f"median ratio mscsp/ms_toollib: probabilities {statistics.median(t_ours) / theirs_median:.2f}x, "
          f"analyse {statistics.median(t_analyse) / theirs_median:.2f}x (<= 1.0: mscsp faster)")
    print(f"positions where they disagree (|diff| > {TOLERANCE:g} on a covered cell): "
          f"probabilities {bad_positions}/{n}, analyse {bad_analyses}/{n}")
    print(f"positions where analyse proves other cells than the SAT solver: {bad_proofs}/{n}")
    for line in shown:
        print(line)

    position = parse_position(LONG_FRONTIER.read_text(), str(LONG_FRONTIER))
    g = position.geometry
    ours, theirs, a, b = time_both(position, args.repeat)
    analysis, c = time_analyse(position, args.repeat)
    bad = disagreements(position, ours, theirs) + disagreements(position, analysis.probabilities, theirs)
    print(f"{LONG_FRONTIER.name} ({g.width}x{g.height}/{position.mines}): best mscsp {min(a):.3f} ms, "
          f"analyse {min(c):.3f} ms, ms_toollib {min(b):.3f} ms, ratios {min(a) / min(b):.3f}x and "
          f"{min(c) / min(b):.3f}x; {'agree' if not bad else f'DISAGREE on {len(bad)} cells'}"
          f"{'; analyse proves other cells than SAT' if proof_mismatch(analysis) else ''}")
    print(f"  slowest of the {args.repeat} runs: mscsp {max(a):.3f} ms, analyse {max(c):.3f} ms, "
          f"ms_toollib {max(b):.3f} ms")
    for d in bad[:SHOW]:
        print(_describe(position, LONG_FRONTIER.name, *d))
    rows = [_medians("modern Expert", "all", [t[1:] for t in timed])]
    if args.stages:
        rows = stage_rows(args.positions, args.seed, args.repeat, {"modern Expert": timed})
        print(stage_table(rows))
    rows.append({"start": LONG_FRONTIER.stem, "stage": "all", "positions": 1, "mscsp_ms": round(min(a), 4),
                 "analyse_ms": round(min(c), 4), "ms_toollib_ms": round(min(b), 4),
                 "ratio": round(min(a) / min(b), 3), "analyse_ratio": round(min(c) / min(b), 3),
                 "disagreements": int(bool(bad))})
    if args.json:
        Path(args.json).write_text(json.dumps({"benchmark": "probability", "seed": args.seed, "repeat": args.repeat,
                                               "rows": rows}, indent=1) + "\n", encoding="utf-8")
    return 0


def stage_rows(n: int, seed: int, repeat: int, timed: dict[str, list] | None = None) -> list[dict]:
    """Medians by start and stage, one dict a row: ``n`` positions of each start, timed
    as above. ``timed`` holds starts already timed (their ``(stage, mscsp ms, analyse
    ms, ms_toollib ms, disagreed, analyse ms without explanations, analyse ms with every sentence
    read)`` a position), which are
    not played and timed again."""
    timed = dict(timed or {})
    rows = []
    for name, (spec, rule, click) in STARTS.items():
        if name not in timed:
            corpus, _ = build_corpus(n, seed, spec=spec, rule=rule, click=click)
            timed[name] = []
            for position in corpus:
                ours, theirs, a, b = time_both(position, repeat)
                analysis, c = time_analyse(position, repeat)
                bad = bool(disagreements(position, ours, theirs)
                           or disagreements(position, analysis.probabilities, theirs))
                timed[name].append((stage(position), min(a), min(c), min(b), bad,
                                    min(time_proofs(position, repeat)), min(time_read(position, repeat))))
        for stage_name in [s for s, _ in STAGES] + ["all"]:
            got = [r[1:] for r in timed[name] if stage_name in ("all", r[0])]
            if got:
                rows.append(_medians(name, stage_name, got))
    return rows


def _medians(start: str, stage_name: str, got: list[tuple]) -> dict:
    """One row of the table by stage: the medians of ``(mscsp ms, analyse ms,
    ms_toollib ms, disagreed, analyse ms without explanations, analyse ms with every
    sentence read)`` tuples and their ratios."""
    ours_ms, analyse_ms, theirs_ms = (statistics.median(r[i] for r in got) for i in range(3))
    proofs_ms = statistics.median(r[4] for r in got)
    read_ms = statistics.median(r[5] for r in got)
    return {"start": start, "stage": stage_name, "positions": len(got), "mscsp_ms": round(ours_ms, 4),
            "analyse_ms": round(analyse_ms, 4), "ms_toollib_ms": round(theirs_ms, 4),
            "ratio": round(ours_ms / theirs_ms, 3), "analyse_ratio": round(analyse_ms / theirs_ms, 3),
            "proofs_ms": round(proofs_ms, 4), "proofs_ratio": round(proofs_ms / theirs_ms, 3),
            "read_ms": round(read_ms, 4), "read_ratio": round(read_ms / theirs_ms, 3),
            "disagreements": sum(r[3] for r in got)}


def stage_table(rows: list[dict]) -> str:
    """The rows of :func:`stage_rows` as a Markdown table."""
    lines = ["| start | stage | positions | mscsp ms | analyse ms | analyse ms, no explanations | "
             "analyse ms, every sentence read | ms_toollib ms | mscsp / ms_toollib | analyse / ms_toollib | "
             "no explanations / ms_toollib | sentences read / ms_toollib | disagreements |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['start']} | {r['stage']} | {r['positions']} | {r['mscsp_ms']:.3f} | {r['analyse_ms']:.3f} | "
              f"{r['proofs_ms']:.3f} | {r['read_ms']:.3f} | {r['ms_toollib_ms']:.3f} | {r['ratio']:.2f}x | "
              f"{r['analyse_ratio']:.2f}x | {r['proofs_ratio']:.2f}x | {r['read_ratio']:.2f}x | {r['disagreements']} |"
              for r in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
