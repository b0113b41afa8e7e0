"""Re-verifying a no-guess board after a swap: resumed from the play's record, or from scratch.

A Markov chain over no-guess boards swaps one mine with one covered safe cell and asks
whether the new board is still no-guess. ``mscsp.play.fastplay.replay_after_swap``
resumes the previous board's play at the first round that opened a changed cell (a
swapped cell or a neighbour of one); a play from the click reaches the same answer.
This runs short chains on 30x16 boards with 99 and 170 mines (opening rule at the
centre [15,8]; no-guess starting boards from ``perturb``; the complete solver with the
mine total), times both ways on every proposed board (CPU time of the thread, the least of three
runs, each way first in turn, since the machine may be shared), checks that they
agree, and prints the median microseconds of each with their ratio (and of a dead-structure
check in C, which rejects some proposals without playing), the share of proposals
still no-guess, and the mean share of the play the replay skipped.

    python benchmarks/replay.py --boards 20 --moves 50 --seed 2026
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from mscsp.board import Layout, Spec
from mscsp.play import fastplay
from mscsp.play.noguess import generate_no_guess

REPEATS = 3


def chain(board, moves: int, rng: np.random.Generator, use_total: bool) -> dict[str, list[float]]:
    layout, click = board.layout, board.click_index
    geometry = layout.geometry
    keep = {click, *geometry.neighbour_rows(np.array([click]))[0].tolist()}
    keep = np.array(sorted(c for c in keep if c < geometry.area))
    current = fastplay._play_index(layout, click, use_total=use_total, rounds=True)
    assert current is not None and current.won
    out: dict[str, list[float]] = {"replay": [], "scratch": [], "scratch_rounds": [], "structure": [],
                                   "accepted": [], "skipped": [], "dead": []}
    for _ in range(moves):
        mines = np.flatnonzero(layout.mines)
        free = np.setdiff1d(np.flatnonzero(~layout.mines & geometry.mask), keep)
        a, b = int(rng.choice(mines)), int(rng.choice(free))
        cells = set(np.flatnonzero(layout.mines).tolist())
        proposal = Layout._from_indices(geometry, (cells - {a}) | {b})
        calls = {
            "replay": lambda: fastplay._replay_index(proposal, click, current, [a, b], use_total=use_total),
            "scratch": lambda: fastplay._play_index(proposal, click, use_total=use_total),
            "scratch_rounds": lambda: fastplay._play_index(proposal, click, use_total=use_total, rounds=True),
            "structure": lambda: fastplay._structure(proposal, click, use_total),
        }
        best = dict.fromkeys(calls, float("inf"))
        answers = {}
        for rep in range(REPEATS):  # each way first in turn; the least CPU time of each
            names = list(calls)
            for name in names[rep % len(names):] + names[:rep % len(names)]:
                t0 = time.thread_time_ns()
                answers[name] = calls[name]()
                best[name] = min(best[name], time.thread_time_ns() - t0)
        replayed, scratch, recorded = answers["replay"], answers["scratch"], answers["scratch_rounds"]
        assert (replayed.won, replayed.opened, replayed.steps, replayed.revealed) == (
            scratch.won, scratch.opened, scratch.steps, scratch.revealed)
        assert recorded.revealed == scratch.revealed
        for name in calls:
            out[name].append(best[name] / 1e3)
        # the part of the play the replay did not redo: openings and flags before the
        # first opening of a changed cell
        changed = {a, b, *geometry.neighbour_rows(np.array([a, b])).ravel().tolist()}
        opened = np.frombuffer(current.revealed, dtype=bool)
        first = min((int(current.order[c]) for c in changed if c < geometry.area and opened[c]), default=None)
        touched = int((current.order >= 0).sum())
        out["skipped"].append((first if first is not None else touched) / max(1, touched))
        out["accepted"].append(float(replayed.won))
        out["dead"].append(float(answers["structure"] is not None))
        assert not (replayed.won and answers["structure"] is not None)
        if replayed.won:
            layout, current = proposal, replayed
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--mines", type=int, nargs="+", default=[99, 170])
    args = parser.parse_args(argv)
    if args.boards < 1 or args.moves < 1:
        print("--boards and --moves must be positive", file=sys.stderr)
        return 2
    if not fastplay.available():
        print("the compiled play loop was not built", file=sys.stderr)
        return 2
    click = (15, 8)
    print(f"30x16, opening at [15,8], sat with the mine total; {args.boards} chains of {args.moves} swaps, "
          f"seed {args.seed}")
    for s, mines in enumerate(args.mines):
        totals: dict[str, list[float]] = {}
        for i in range(args.boards):
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(args.seed, spawn_key=(s, i))))
            board = generate_no_guess(Spec(30, 16, mines), "opening", click, rng, method="perturb")
            for key, values in chain(board, args.moves, rng, True).items():
                totals.setdefault(key, []).extend(values)
        rep, scr, rec, dead = (statistics.median(totals[k]) for k in ("replay", "scratch", "scratch_rounds",
                                                                       "structure"))
        # a chain that looks for a dead structure first plays only the proposals without one
        first = [d + (0.0 if found else r) for d, r, found in zip(totals["structure"], totals["replay"],
                                                                    totals["dead"])]
        print(f"30x16/{mines}: replay median {rep:7.1f} us, from scratch {scr:7.1f} us "
              f"(with rounds {rec:7.1f} us), ratio {rep / scr:.2f}; still no-guess "
              f"{statistics.mean(totals['accepted']):.2f}; share of the play skipped "
              f"{statistics.mean(totals['skipped']):.2f}")
        print(f"           dead structure check {dead:5.1f} us, finds one in {statistics.mean(totals['dead']):.2f} "
              f"of the proposals; check then replay: median {statistics.median(first):7.1f} us, "
              f"mean {statistics.mean(first):7.1f} us (replay alone: mean {statistics.mean(totals['replay']):7.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
