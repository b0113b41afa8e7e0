"""Two versions of the player on the same boards: the paired difference in games won.

A change to a guessing policy moves the win rate by tenths of a point, well inside
the Wilson interval of any affordable number of games. Played on the same boards,
most games end alike, and the difference between two versions is measured game by
game with Newcombe's paired interval (:func:`mscsp.stats.paired_difference`), several
times narrower. This script plays games ``first .. first + games - 1`` of each start
with each version and prints, per start, both win rates, the games only one of them
won, the difference with its 95% interval, and CPU milliseconds per game.

A version is a source tree (``--a`` and ``--b``: a checkout or ``git worktree`` of
mscsp with its extensions built, default this one) and a policy (``--policy-a`` and
``--policy-b``, default ``+endgame``) with its options (``--options-a`` and
``--options-b``: ``name=value`` pairs of :func:`mscsp.play.policies.move`'s keyword
arguments, integers and fractions such as ``1/100`` read as numbers; ``rollouts=K``,
with ``rollout_margin``, ``rollout_width`` and ``rollout_seed``, plays the guesses of
:func:`mscsp.play.rollout.rollout_move` on ``K`` layouts instead), so the same
command compares two revisions of the code, two rungs of the ladder, two settings of
one, or all of these. Each version plays in processes of its
own (``PYTHONPATH`` set to its tree), ``--jobs`` at a time, the games split into
chunks; game ``i`` of a start is dealt from ``SeedSequence(seed, spawn_key=(crc32(start),
i))`` under the start's rule and first click, so the boards do not depend on the
version, the chunking or the number of jobs.

    git worktree add /tmp/base HEAD~1 && (cd /tmp/base && python setup.py -q build_ext --inplace)
    python benchmarks/paired.py --a /tmp/base --games 2000 --jobs 2
    python benchmarks/paired.py --policy-a least-p --policy-b +progress --starts expert-classic --games 500
    python benchmarks/paired.py --options-b rollouts=32 --games 2000 --jobs 2

Each start costs about ``games`` x (CPU ms per game of both versions); a modern
Expert game of ``+endgame`` takes some 20 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent

#: Start name -> (preset, first-click rule, first click).
STARTS = {
    "expert-modern": ("expert", "opening", (3, 3)),
    "expert-classic": ("expert", "safe", (0, 0)),
    "intermediate-33": ("intermediate", "opening", (3, 3)),
    "intermediate-safe": ("intermediate", "safe", (0, 0)),
    "beginner-33": ("beginner", "opening", (3, 3)),
    "beginner-safe": ("beginner", "safe", (0, 0)),
}


def boards(start: str, seed: int, first: int, count: int):
    """The boards of games ``first .. first + count - 1`` of ``start``, one at a time,
    dealt by the mscsp importable here."""
    import numpy as np

    from mscsp.board import PRESETS
    from mscsp.rules import generate

    preset, rule, click = STARTS[start]
    spec = PRESETS[preset]
    key = zlib.crc32(start.encode())
    for i in range(first, first + count):
        ss = np.random.SeedSequence(seed, spawn_key=(key, i))
        yield generate(spec, rule, click, np.random.Generator(np.random.PCG64(ss)))


def play_chunk(start: str, policy: str, seed: int, first: int, count: int, options: dict | None = None) -> dict:
    """Games ``first .. first + count - 1`` of ``start`` with the mscsp importable
    here: one character per game (``1`` won), and the process's CPU seconds.
    ``options`` (values as :func:`parse_options` gives them) go to the policy."""
    from mscsp.game import Game
    from mscsp.play.loop import play_game

    extra = _guessing(policy, _numbers(options or {}))
    won = []
    began = time.process_time()
    for board in boards(start, seed, first, count):
        record = play_game(Game.from_board(board, record=False), board.click, policy=policy, **extra)
        won.append("1" if record.won else "0")
    return {"won": "".join(won), "cpu": time.process_time() - began}


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``name=value`` pairs as a dict of strings (made numbers in the playing process,
    by :func:`_numbers`); SystemExit on a pair without ``=``.

    >>> parse_options(["rollouts=32", "rollout_margin=1/100"])
    {'rollouts': '32', 'rollout_margin': '1/100'}
    """
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.isidentifier():
            raise SystemExit(f"paired.py: an option is name=value, not {pair!r}")
        out[name] = value
    return out


def _numbers(options: dict[str, str]) -> dict:
    """Option values as numbers where they are: ``32`` an int, ``1/100`` a Fraction.

    >>> _numbers({"rollouts": "32", "rollout_margin": "1/100", "name": "x"})
    {'rollouts': 32, 'rollout_margin': Fraction(1, 100), 'name': 'x'}
    """
    from fractions import Fraction

    out: dict = {}
    for name, value in options.items():
        try:
            out[name] = int(value)
        except ValueError:
            try:
                out[name] = Fraction(value)
            except ValueError:
                out[name] = value
    return out


def _guessing(policy: str, options: dict) -> dict:
    """``play_game``'s keyword arguments for a policy's options: ``rollouts`` (and the
    ``rollout_*`` options beside it) as :func:`mscsp.play.rollout.rollout_guess`, the rest
    as the policy's own."""
    rolled = {k: options.pop(k) for k in list(options) if k == "rollouts" or k.startswith("rollout_")}
    extra: dict = {"options": options} if options else {}
    if rolled.get("rollouts"):
        from mscsp.play.rollout import rollout_guess

        names = {"rollouts": "samples", "rollout_margin": "margin", "rollout_width": "width", "rollout_seed": "seed"}
        unknown = set(rolled) - set(names)
        if unknown or options:
            raise SystemExit(f"paired.py: rollouts take no options but {', '.join(sorted(names))}")
        extra = {"guess": rollout_guess(policy, **{names[k]: v for k, v in rolled.items()})}
    return extra


@dataclass(frozen=True)
class Version:
    tree: Path
    policy: str
    options: tuple[tuple[str, str], ...] = ()

    def label(self) -> str:
        extra = "".join(f" {k}={v}" for k, v in self.options)
        return f"{self.policy}{extra} @ {self.tree}"


def _run(version: Version, start: str, seed: int, first: int, count: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(version.tree))
    # the driver is this file, imported from its own folder; mscsp comes from the version's tree
    code = (f"import sys, json; sys.path.insert(1, {str(HERE)!r}); import paired; "
            f"print(json.dumps(paired.play_chunk({start!r}, {version.policy!r}, {seed}, {first}, {count}, "
            f"{dict(version.options)!r})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(version.tree), capture_output=True,
                         text=True)
    if out.returncode:
        raise SystemExit(f"paired.py: {version.label()} failed on {start} games {first}..{first + count - 1}:\n"
                         + out.stderr.strip().splitlines()[-1])
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(a: Version, b: Version, starts: list[str], games: int, first: int, seed: int, jobs: int,
            chunk: int) -> list[dict]:
    """Both versions on every start; one row per start."""
    from mscsp.stats import paired_difference, wilson

    versions = (a, b)
    tasks = [(arm, s, f, min(chunk, first + games - f)) for s in starts for arm in (0, 1)
             for f in range(first, first + games, chunk)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda t: _run(versions[t[0]], t[1], seed, t[2], t[3]), tasks))
    rows = []
    for s in starts:
        won, cpu = [], []
        for arm in (0, 1):
            parts = [r for t, r in zip(tasks, results) if t[0] == arm and t[1] == s]
            won.append("".join(r["won"] for r in parts))  # an arm's tasks are in game order
            cpu.append(sum(r["cpu"] for r in parts))
        both = sum(x == y == "1" for x, y in zip(*won))
        a_only = sum(x == "1" and y == "0" for x, y in zip(*won))
        b_only = sum(x == "0" and y == "1" for x, y in zip(*won))
        neither = games - both - a_only - b_only
        diff, low, high = paired_difference(both, b_only, a_only, neither)  # b - a
        rows.append({"start": s, "games": games, "a_wins": both + a_only, "b_wins": both + b_only,
                     "a_interval": wilson(both + a_only, games), "b_interval": wilson(both + b_only, games),
                     "a_only": a_only, "b_only": b_only, "diff": diff, "low": low, "high": high,
                     "a_ms": 1e3 * cpu[0] / games, "b_ms": 1e3 * cpu[1] / games})
    return rows


def _table(rows: list[dict], a: Version, b: Version) -> str:
    lines = [f"# a: {a.label()}", f"# b: {b.label()}",
             "| start | games | a won % | b won % | a only | b only | b - a (points) | 95% paired | a ms | b ms |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['start']} | {r['games']} | {100 * r['a_wins'] / r['games']:.2f} | "
                     f"{100 * r['b_wins'] / r['games']:.2f} | {r['a_only']} | {r['b_only']} | "
                     f"{100 * r['diff']:+.2f} | [{100 * r['low']:+.2f}, {100 * r['high']:+.2f}] | "
                     f"{r['a_ms']:.1f} | {r['b_ms']:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, default=TREE, help="source tree of version a (default: this one)")
    parser.add_argument("--b", type=Path, default=TREE, help="source tree of version b (default: this one)")
    parser.add_argument("--policy-a", default="+endgame")
    parser.add_argument("--policy-b", default="+endgame")
    parser.add_argument("--options-a", nargs="+", default=[], metavar="NAME=VALUE",
                        help="keyword arguments of mscsp.play.policies.move for version a")
    parser.add_argument("--options-b", nargs="+", default=[], metavar="NAME=VALUE",
                        help="keyword arguments of mscsp.play.policies.move for version b")
    parser.add_argument("--starts", nargs="+", choices=list(STARTS), default=["expert-modern", "expert-classic"])
    parser.add_argument("--games", type=int, default=500, help="games per start and version (default 500)")
    parser.add_argument("--first", type=int, default=0, help="number of the first game (default 0)")
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--chunk", type=int, default=100, help="games per process (default 100)")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.chunk < 1 or args.jobs < 1 or args.first < 0:
        parser.error("--games, --chunk and --jobs must be positive and --first not negative")
    for tree in (args.a, args.b):
        if not (tree / "mscsp" / "__init__.py").is_file():
            parser.error(f"{tree} is not an mscsp source tree (no mscsp/__init__.py)")
    a = Version(args.a.resolve(), args.policy_a, tuple(parse_options(args.options_a).items()))
    b = Version(args.b.resolve(), args.policy_b, tuple(parse_options(args.options_b).items()))
    if a == b:
        parser.error("the two versions are the same tree, policy and options: give --a/--b, "
                     "--policy-a/--policy-b or --options-a/--options-b")
    rows = compare(a, b, args.starts, args.games, args.first, args.seed, args.jobs, args.chunk)
    sys.stdout.write(_table(rows, a, b))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
