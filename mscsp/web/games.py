"""Games kept on the server, and what a player may see of them.

A game lives in a :class:`GameStore` under a random id (128 bits, so ids cannot be
guessed). The page only ever receives :func:`game_view`: the player's position,
the counters and the clock. The layout, and the seed that would rebuild it, are
sent only once the game is over, to show where the mines were.

No-guess boards depend on the first click, so such a game starts as a plain
deferred game (which can take flags) and its board is made at the first reveal by
a caller-supplied function; the flags placed so far carry over.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from typing import Awaitable, Callable, Generic, TypeVar

from ..board import Spec
from ..errors import IllegalMove, InputError
from ..game import ActionKind, Game, Status
from ..metrics import bbbv
from ..play.noguess import NoGuessBoard
from ..rules import FirstClickRule
from .validate import RequestError

__all__ = ["HELPERS", "GameEntry", "GameStore", "Kept", "game_view", "play_move", "replay_record"]

T = TypeVar("T")

#: Who can have a hand in a game besides its player, weakest first: auto-clear (cells
#: proven safe opened after the player's moves), the hint (the analysis of the position
#: shown), the solver (moves played for the player). A game keeps the strongest.
HELPERS = ("auto", "hint", "solver")

#: Makes the no-guess board of a game for its first click (a flat index).
BoardMaker = Callable[["GameEntry", int], Awaitable[NoGuessBoard]]


class GameEntry:
    """One game on the server.

    Parameters
    ----------
    game_id : str
        The random id the page uses to address the game.
    game : Game
        The engine; for a no-guess game, a deferred placeholder until the first reveal.
    rule : FirstClickRule
        The first-click rule.
    no_guess : bool
        Whether the board is made no-guess at the first reveal.
    seed : int or None
        The seed of the board, when known.
    guarantee : str, optional
        For a no-guess board, what was checked ("solvable by complete deduction ...").
    clicks : int
        The player's clicks so far (reveals, flags, unflags and chords asked for),
        without the cells the solver or auto-clear opened.
    helped : str, optional
        Who else had a hand in the game (see :data:`HELPERS`), kept with the game so
        that a reloaded page still knows it.
    no_guess_method : str
        How a no-guess board is made: ``perturb`` (fast, not uniform), ``uniform``
        or ``retry`` (:func:`~mscsp.play.noguess.generate_no_guess`).
    """

    def __init__(
        self,
        game_id: str,
        game: Game,
        rule: FirstClickRule,
        no_guess: bool,
        seed: int | None,
        guarantee: str | None = None,
        clicks: int = 0,
        helped: str | None = None,
        no_guess_method: str = "perturb",
    ):
        self.id = game_id
        self.game = game
        self.rule = rule
        self.no_guess = no_guess
        self.seed = seed
        self.guarantee = guarantee
        self.clicks = clicks
        self.helped = helped
        self.no_guess_method = no_guess_method
        self.sampling: str | None = None
        self.board_made = not no_guess or _has_layout(game)
        self.lock = asyncio.Lock()
        self._bbbv: int | None = None

    def help(self, by: str) -> None:
        """Note that ``by`` (one of :data:`HELPERS`) had a hand in the game while it
        runs; the strongest help so far is kept.

        Examples
        --------
        >>> entry = GameEntry("id", Game.deferred(Spec(3, 3, 1), seed=1), FirstClickRule.SAFE, False, 1)
        >>> entry.help("hint"); entry.help("auto"); entry.helped
        'hint'
        >>> entry.help("solver"); entry.helped
        'solver'
        """
        if self.game.status.over:
            return  # a finished game keeps who played it
        if HELPERS.index(by) > (HELPERS.index(self.helped) if self.helped else -1):
            self.helped = by

    @property
    def bbbv(self) -> int:
        """The 3BV of the layout (:func:`mscsp.metrics.bbbv`), once it is placed."""
        if self._bbbv is None:
            self._bbbv = bbbv(self.game.layout())
        return self._bbbv

    @property
    def spec(self) -> Spec:
        g = self.game.geometry
        return Spec(g.width, g.height, self.game.mines)


def _has_layout(game: Game) -> bool:
    try:
        game.layout()
    except InputError:
        return False
    return True


class Kept(Generic[T]):
    """Things of one server under random ids (128 bits, so they cannot be guessed),
    the least recently used dropped beyond ``limit``; ``missing`` is the message of
    the 404 for an id not (or no longer) kept."""

    def __init__(self, limit: int, missing: str):
        self._limit = limit
        self._missing = missing
        self._kept: OrderedDict[str, T] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def values(self) -> list[T]:
        return list(self._kept.values())

    def add(self, make: Callable[[str], T]) -> T:
        """Store ``make(new_id)`` under a fresh random id."""
        key = secrets.token_urlsafe(16)
        thing = make(key)
        self._kept[key] = thing
        while len(self._kept) > self._limit:
            self._kept.popitem(last=False)
        return thing

    def get(self, key: str) -> T:
        """The thing with this id; RequestError 404 when there is none."""
        thing = self._kept.get(key)
        if thing is None:
            raise RequestError(404, self._missing)
        self._kept.move_to_end(key)
        return thing


class GameStore(Kept[GameEntry]):
    """The games of one server, dropping the least recently used beyond ``limit``.

    Examples
    --------
    >>> store = GameStore(limit=1)
    >>> first = store.add(lambda gid: GameEntry(gid, Game.deferred(Spec(3, 3, 1), seed=1), FirstClickRule.SAFE, False, 1))
    >>> second = store.add(lambda gid: GameEntry(gid, Game.deferred(Spec(3, 3, 1), seed=2), FirstClickRule.SAFE, False, 2))
    >>> len(store), store.get(second.id) is second
    (1, True)
    >>> store.get(first.id)
    Traceback (most recent call last):
    ...
    mscsp.web.validate.RequestError: no game with this id (games are kept while the server runs, up to 1 at once)
    """

    def __init__(self, limit: int):
        super().__init__(limit, f"no game with this id (games are kept while the server runs, up to {limit} at once)")


def game_view(entry: GameEntry) -> dict:
    """What the page may know of a game.

    Keys: ``id``, ``width``, ``height``, ``mines``, ``rule``, ``no_guess``,
    ``status`` (ready, playing, won, lost), ``elapsed`` (seconds), ``flags``,
    ``mines_left`` (mines minus flags), ``rows`` (the position's text rows),
    ``guarantee``, ``clicks`` (the player's, see :class:`GameEntry`), ``helped`` (who
    else had a hand in the game, one of :data:`HELPERS`, or null), and, only when
    the game is over, ``layout`` (rows of ``*`` and ``.``), ``exploded`` (``[x, y]``
    or null), ``seed`` and ``bbbv`` (the board's 3BV: the least clicks that clear it),
    null while it runs, and ``bbbv_per_s`` (3BV over the time taken), for a won game
    only.
    """
    game = entry.game
    g = game.geometry
    over = game.status.over
    flags = int(game.flagged.sum())
    exploded = game.exploded
    won = game.status is Status.WON
    return {
        "id": entry.id,
        "width": g.width,
        "height": g.height,
        "mines": game.mines,
        "rule": entry.rule.value,
        "no_guess": entry.no_guess,
        "no_guess_method": entry.no_guess_method if entry.no_guess else None,
        "sampling": entry.sampling,
        "status": game.status.value,
        "elapsed": round(game.elapsed, 3),
        "flags": flags,
        "mines_left": game.mines - flags,
        "rows": game.position().rows(),
        "guarantee": entry.guarantee,
        "layout": game.layout().rows() if over else None,
        "exploded": list(exploded) if over and exploded is not None else None,
        "seed": entry.seed if over else None,
        "clicks": entry.clicks,
        "helped": entry.helped,
        "bbbv": entry.bbbv if over else None,
        "bbbv_per_s": round(entry.bbbv / game.elapsed, 3) if won and game.elapsed > 0 else None,
    }


async def play_move(entry: GameEntry, kind: ActionKind, cell: int, make_board: BoardMaker) -> None:
    """Apply one player action; the first reveal of a no-guess game makes its board.

    Raises
    ------
    RequestError
        409 for a move the rules do not allow now (the game is over, flagging an
        open cell, chording a covered one).
    """
    try:
        if kind is ActionKind.REVEAL and not entry.board_made:
            made = await make_board(entry, cell)
            game = Game.from_board(made)
            for flagged in entry.game.flagged.nonzero()[0].tolist():
                if flagged != cell:
                    game.apply((ActionKind.FLAG, game.geometry.coords(flagged)))
            entry.game, entry.guarantee, entry.board_made = game, made.guarantee, True
            entry.sampling = made.sampling
        entry.game.apply((kind, entry.game.geometry.coords(cell)))
    except IllegalMove as exc:
        raise RequestError(409, str(exc)) from None


def replay_record(entry: GameEntry) -> dict:
    """The replay of a finished game, as saved by ``mscsp play``, plus ``no_guess``
    and, for a game played with help, ``helped`` (see :data:`HELPERS`).

    Raises
    ------
    RequestError
        409 while the game runs: a replay holds the layout.
    """
    if not entry.game.status.over:
        raise RequestError(409, "a replay holds the mine layout, so it can be saved once the game is over")
    record = entry.game.replay().to_dict()
    record["no_guess"] = entry.no_guess
    if entry.guarantee:
        record["guarantee"] = entry.guarantee
    if entry.helped:
        record["helped"] = entry.helped
    return record
