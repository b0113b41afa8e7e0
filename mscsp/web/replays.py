"""Loading a saved replay into a game that can be shown or played on.

:meth:`mscsp.game.Replay.play` checks a replay (the seed still gives the stored
layout, every action is legal, the final status matches) and rebuilds its final
state on a frozen clock. The play page also lets a player continue an unfinished
replay, so the game is rebuilt once more here on a :class:`ResumableClock`: the
recorded times while the actions are applied, then live time that continues from
the recorded elapsed time.

No-guess boards are stored with their layout; their seed gives the layout only
through the no-guess generator, so they are checked against the stored layout.
"""

from __future__ import annotations

import dataclasses
import json
import time

from ..board import Layout, Spec
from ..errors import InputError
from ..game import ActionKind, Game, Replay
from ..play.noguess import NOGUESS_VERSION
from ..rules import FirstClickRule, GeneratedBoard
from .games import HELPERS

__all__ = ["ResumableClock", "LoadedReplay", "load_replay"]


class ResumableClock:
    """A game clock: set by hand while a replay is applied, then running.

    Examples
    --------
    >>> clock = ResumableClock()
    >>> clock.now = 4.0
    >>> clock()
    4.0
    >>> clock.go_live(10.0)
    >>> 10.0 <= clock() < 11.0
    True
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._live_since: float | None = None

    def __call__(self) -> float:
        if self._live_since is None:
            return self.now
        return self.now + (time.monotonic() - self._live_since)

    def go_live(self, at: float) -> None:
        """From now on, run from ``at`` at the speed of real time."""
        self.now = at
        self._live_since = time.monotonic()


@dataclasses.dataclass(frozen=True)
class LoadedReplay:
    """A game rebuilt from a replay, with what the page shows about its board."""

    game: Game
    rule: FirstClickRule
    no_guess: bool
    seed: int | None
    guarantee: str | None
    helped: str | None = None


def load_replay(data: object) -> LoadedReplay:
    """Rebuild the game of a replay (a parsed ``mscsp-replay/1`` JSON object).

    Raises
    ------
    InputError
        For a malformed replay, or one that does not replay to its recorded end.

    Examples
    --------
    >>> g = Game.deferred(Spec(5, 5, 3), "opening", seed=9)
    >>> _ = g.reveal((2, 2))
    >>> loaded = load_replay(g.replay().to_dict())
    >>> loaded.game.position() == g.position(), loaded.game.status.value
    (True, 'playing')
    """
    if not isinstance(data, dict):
        raise InputError("a replay is a JSON object")
    replay = Replay.from_json(json.dumps(data))
    no_guess = replay.generator == NOGUESS_VERSION
    if no_guess:
        if not replay.layout:
            raise InputError("a no-guess replay must hold its layout")
        # checked against the stored layout: only the no-guess generator maps the seed to it
        dataclasses.replace(replay, seed=None, rule=None).play()
    else:
        replay.play()
    clock = ResumableClock()
    game = _fresh_game(replay, clock)
    started = None
    for action in replay.actions:
        clock.now = action.t
        if started is None and action.kind is ActionKind.REVEAL:
            started = action.t
        game.apply(action)
    if not game.status.over:
        last = replay.actions[-1].t if replay.actions else 0.0
        clock.go_live(started + replay.elapsed if started is not None else last)
    rule = FirstClickRule.parse(replay.rule) if replay.rule else FirstClickRule.SAFE
    guarantee = data.get("guarantee") if isinstance(data.get("guarantee"), str) else None
    helped = data.get("helped")
    if helped is not None and helped not in HELPERS:
        raise InputError(f"'helped' must be one of {', '.join(HELPERS)} or absent")
    return LoadedReplay(game, rule, no_guess, replay.seed, guarantee, helped)


def _fresh_game(replay: Replay, clock: ResumableClock) -> Game:
    """The game of a replay before its first action, as :meth:`Replay.play` builds it."""
    spec = Spec(replay.width, replay.height, replay.mines)
    if not replay.layout:
        return Game.deferred(spec, replay.rule, replay.seed, clock=clock)
    layout = Layout.from_rows(replay.layout)
    if replay.seed is not None and replay.rule is not None and replay.click is not None:
        board = GeneratedBoard(
            layout,
            FirstClickRule.parse(replay.rule),
            tuple(replay.click),
            replay.seed,
            replay.generator,
        )
        return Game.from_board(board, clock=clock)
    return Game(layout, clock=clock)
