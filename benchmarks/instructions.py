"""Two versions of the player on the same games, in instructions rather than seconds.

CPU time on a shared or virtual machine varies by a fifth between runs of the same
code (other guests, frequency), more than most single changes to the player are
worth. The instructions a game executes do not: this script plays games ``first ..
first + games - 1`` of a start (dealt as ``benchmarks/paired.py`` deals them) with each
version under Valgrind's callgrind, subtracts a run of no games (the interpreter and
the imports), and prints each version's instructions a game and their ratio (``b``
over ``a``: below 1, ``b`` executes fewer). Instructions are a proxy for time, not
time: a cache miss or a big-integer product costs more than an add. Every version must
play the same games for the ratio to mean anything; ``--moves`` also hashes each
game's guesses and says whether the two versions guessed alike.

A version is a source tree with its extensions built (``--a``, ``--b``; default this
one), as for ``benchmarks/paired.py``. Needs ``valgrind`` (Debian's package); a run of
40 classic Expert games takes about a minute a version.

    git worktree add /tmp/base HEAD~1 && (cd /tmp/base && python setup.py -q build_ext --inplace)
    python benchmarks/instructions.py --a /tmp/base --start expert-classic --games 40
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent


def collected(report: str) -> int:
    """The instruction count callgrind reports on stderr at the end of a run.

    >>> collected("==12== Events    : Ir\\n==12== Collected : 2645697188\\n==12==\\n")
    2645697188
    """
    found = re.findall(r"Collected\s*:\s*(\d+)", report)
    if not found:
        raise SystemExit("instructions.py: callgrind reported no instruction count:\n" + report[-2000:])
    return int(found[-1])


def _driver(start: str, policy: str, seed: int, first: int, count: int) -> str:
    """The Python a measured process runs: ``count`` games, then a hash of their guesses."""
    return (f"import sys, hashlib; sys.path.insert(1, {str(HERE)!r}); import paired\n"
            "from mscsp.game import Game\n"
            "from mscsp.play.loop import play_game\n"
            "h = hashlib.sha256()\n"
            f"for board in paired.boards({start!r}, {seed}, {first}, {count}):\n"
            f"    record = play_game(Game.from_board(board, record=False), board.click, policy={policy!r})\n"
            "    h.update(repr((record.won, record.guessed)).encode())\n"
            "print(h.hexdigest())\n")


def measure(tree: Path, start: str, policy: str, seed: int, first: int, count: int) -> tuple[int, str]:
    """The instructions of ``count`` games (under callgrind, less a run of none) with
    the mscsp of ``tree``, and the hash of their guesses."""
    out = []
    for n in (0, count):
        with tempfile.TemporaryDirectory() as scratch:
            run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out",
                                  sys.executable, "-c", _driver(start, policy, seed, first, n)],
                                 env=dict(os.environ, PYTHONPATH=str(tree)), cwd=str(tree),
                                 capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"instructions.py: the games failed under {tree}:\n" + run.stderr[-2000:])
        out.append((collected(run.stderr), run.stdout.strip().splitlines()[-1]))
    return out[1][0] - out[0][0], out[1][1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, default=TREE, help="the baseline's source tree (default this one)")
    parser.add_argument("--b", type=Path, default=TREE, help="the version measured against it (default this one)")
    parser.add_argument("--start", default="expert-classic", help="a start of benchmarks/paired.py (default "
                        "expert-classic)")
    parser.add_argument("--policy", default="+endgame")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--moves", action="store_true", help="say whether the versions guessed alike")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("instructions.py: needs valgrind (apt-get install valgrind)")
    if args.games < 1:
        raise SystemExit("instructions.py: --games must be at least 1")
    sys.path.insert(0, str(HERE))
    import paired

    if args.start not in paired.STARTS:
        raise SystemExit(f"instructions.py: unknown start {args.start!r}; choose from {', '.join(paired.STARTS)}")
    with ThreadPoolExecutor(max_workers=2) as pool:
        (a, ha), (b, hb) = pool.map(lambda t: measure(t, args.start, args.policy, args.seed, args.first, args.games),
                                    (args.a, args.b))
    print(f"# {args.games} games of {args.start} from game {args.first}, seed {args.seed}; {args.policy}")
    print(f"a {args.a}: {a / args.games / 1e6:.2f}M instructions a game")
    print(f"b {args.b}: {b / args.games / 1e6:.2f}M instructions a game")
    print(f"ratio b/a: {b / a:.3f}")
    if args.moves:
        print("guesses: " + ("the same" if ha == hb else "DIFFERENT") + f" (sha256 {ha[:12]} / {hb[:12]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
