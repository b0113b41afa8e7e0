"""Every rung of the guessing ladder makes the recorded guesses on 1,500 seeded games.

Speed work on the player (shared analyses, cached tallies, compiled deduction) must
not change a single move: ``data/ladder_moves.json`` holds, for 300 games of each
rung (100 Beginner and 100 Intermediate with the opening start at (2, 2), 50 modern
Expert from (3, 3) and 50 classic Expert from (0, 0)), every guess in order and
whether the game was won. It was recorded before the speed work began; a deliberate
change of policy records it again::

    python tests/test_ladder_moves.py --record

and says so in its commit.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from mscsp.board import PRESETS
from mscsp.game import Game
from mscsp.play.loop import play_game
from mscsp.play.policies import Policy
from mscsp.rules import generate

RECORD = Path(__file__).with_name("data") / "ladder_moves.json"
SEED = 20261202
#: (name, preset, first-click rule, first click, games)
STARTS = [
    ("beginner/opening", "beginner", "opening", (2, 2), 100),
    ("intermediate/opening", "intermediate", "opening", (2, 2), 100),
    ("expert/opening", "expert", "opening", (3, 3), 50),
    ("expert/safe", "expert", "safe", (0, 0), 50),
]


def play(start: int, policy: str) -> list[str]:
    """Each game of a start as its guesses ("x,y x,y ...") and a last word, won or lost."""
    _, preset, rule, click, games = STARTS[start]
    lines = []
    for i in range(games):
        ss = np.random.SeedSequence(SEED, spawn_key=(start, i))
        board = generate(PRESETS[preset], rule, click, np.random.Generator(np.random.PCG64(ss)))
        record = play_game(Game.from_board(board, record=False), board.click, policy=policy)
        lines.append(" ".join([f"{x},{y}" for x, y in record.guessed] + ["won" if record.won else "lost"]))
    return lines


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(RECORD.read_text())


@pytest.mark.parametrize("policy", [p.value for p in Policy])
@pytest.mark.parametrize("start", range(len(STARTS)), ids=[s[0] for s in STARTS])
def test_same_guesses_as_recorded(recorded, start, policy):
    expected = recorded["games"][f"{STARTS[start][0]}/{policy}"]
    played = play(start, policy)
    differ = [i for i, (a, b) in enumerate(zip(played, expected)) if a != b]
    assert not differ and len(played) == len(expected), (
        f"game {differ[0]}: played {played[differ[0]]!r}, recorded {expected[differ[0]]!r}" if differ else "")


def test_record_is_varied(recorded):
    """The record exercises what it guards: guesses on every start and both outcomes."""
    for name, *_ in STARTS:
        for p in Policy:
            games = recorded["games"][f"{name}/{p.value}"]
            assert any(len(g.split()) > 1 for g in games)
            if name.startswith("expert"):
                assert {g.split()[-1] for g in games} == {"won", "lost"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help=f"write {RECORD.name} from the code as it is")
    args = parser.parse_args()
    if not args.record:
        parser.error("nothing to do: pass --record")
    games = {f"{name}/{p.value}": play(s, p.value) for s, (name, *_) in enumerate(STARTS) for p in Policy}
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(json.dumps({"seed": SEED, "games": games}, indent=0) + "\n")


if __name__ == "__main__":
    main()
