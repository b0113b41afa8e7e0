"""The game engine: player state, reveal with flood fill, chord, flags, win and loss.

The layout is hidden inside :class:`Game`; what leaves it is a
:class:`~mscsp.position.Position`, the player's view. Player state (revealed and
flagged cells) is kept apart from the layout, and the elapsed time is measured by an
injectable clock, independent of any rendering.

Revealing a zero opens its connected zero region and the numbered boundary with an
explicit stack (no recursion, so a 1000x1000 clear cannot overflow the call stack);
cells are marked when pushed, so each is handled once, and flags are never opened.

Every action is recorded (reveal, flag, unflag and chord as distinct actions, with
their times) and :class:`Replay` saves it as JSON together with the seed, rule and
click, so the game can be replayed to the identical state.

One module, not several: the engine and its replay share the action record, and a replay
is checked by playing it through the same engine.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

import numpy as np

from .board import Geometry, Layout, Spec
from .errors import IllegalMove, InputError
from .formats.files import MAX_CELLS, Fields, cell_of, check_cells, load_json
from .position import Mark, Position
from .rules import GENERATOR_VERSION, FirstClickRule, GeneratedBoard, place_mines
from .sampling import as_generator, fresh_seed

__all__ = ["Status", "ActionKind", "Action", "Game", "Replay", "REPLAY_FORMAT"]

REPLAY_FORMAT = "mscsp-replay/1"


class Status(Enum):
    """Where a game stands."""

    READY = "ready"  # no cell opened yet (and, for deferred placement, no layout yet)
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"

    @property
    def over(self) -> bool:
        return self in (Status.WON, Status.LOST)


class ActionKind(Enum):
    """The distinct actions a replay records."""

    REVEAL = "reveal"
    FLAG = "flag"
    UNFLAG = "unflag"
    CHORD = "chord"


@dataclass(frozen=True)
class Action:
    """One player action: what, where and when.

    Attributes
    ----------
    kind : ActionKind
        Reveal, flag, unflag or chord.
    cell : tuple of int
        The cell ``(x, y)`` acted on (a list or numpy pair is kept as a tuple);
        InputError for anything that is not a pair of integers.
    t : float
        Seconds since the game was created.

    Examples
    --------
    >>> g = Game(Layout.from_rows(["*..", "..."]))
    >>> g.flag((0, 0)); _ = g.reveal((2, 1))
    >>> [(a.kind.value, a.cell) for a in g.actions]
    [('flag', (0, 0)), ('reveal', (2, 1))]
    """

    kind: ActionKind
    cell: tuple[int, int]
    t: float = 0.0

    def __post_init__(self) -> None:
        cell = self.cell
        if isinstance(cell, np.ndarray):
            cell = cell.tolist()
        if (not isinstance(cell, (tuple, list)) or len(cell) != 2
                or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in cell)):
            raise InputError(f"an action's cell must be a pair (x, y) of cell coordinates, not {self.cell!r}")
        if type(cell) is not tuple or type(cell[0]) is not int or type(cell[1]) is not int:
            # a pair from JSON or numpy is kept as a tuple of ints, so that actions compare,
            # hash and write to JSON alike
            object.__setattr__(self, "cell", (int(cell[0]), int(cell[1])))


class Game:
    """One game of Minesweeper.

    Use :meth:`deferred` for a game whose mines are placed at the first reveal under
    a first-click rule, or pass a fixed layout.

    Parameters
    ----------
    layout : Layout
        The hidden mines.
    clock : callable, optional
        Returns seconds; ``time.monotonic`` by default. Tests and replays inject one.
    board : GeneratedBoard, optional
        Where the layout came from (seed, rule, click), kept for the replay.
    record : bool
        Keep the actions for a replay (default); play loops that need no replay
        switch it off.

    Examples
    --------
    >>> g = Game(Layout.from_rows(["*...", "....", "..*."]))
    >>> g.reveal((3, 0))  # a zero: its region opens
    ((3, 0), (3, 1), (2, 1), (2, 0), (1, 1), (1, 0))
    >>> g.position().rows()
    ['.100', '.211', '....']
    >>> g.flag((0, 0)); g.chord((1, 0))  # the 1 at [1, 0] has its flag: open the rest
    ((0, 1),)
    >>> for xy in ((0, 2), (1, 2), (3, 2)): _ = g.reveal(xy)
    >>> g.status
    <Status.WON: 'won'>
    """

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        board: GeneratedBoard | None = None,
        record: bool = True,
        _deferred: tuple[Spec, FirstClickRule, int] | None = None,
    ):
        if (layout is None) == (_deferred is None):
            raise InputError("a game needs either a layout or deferred placement")
        self._clock = clock
        self._created = clock()
        self._started: float | None = None
        self._ended: float | None = None
        self._actions: list[Action] = []
        self._recording = record
        self._status = Status.READY
        self._exploded: int | None = None
        self._deferred = _deferred
        self._board = board
        if layout is not None:
            self._set_layout(layout)
        else:
            spec = _deferred[0]
            self._geometry = spec.geometry
            self._mines = spec.mines
            self._layout = None
        area = self._geometry.area
        self._revealed = bytearray(area)
        self._flagged = bytearray(area)
        self._opened = 0

    @classmethod
    def deferred(
        cls,
        spec: Spec,
        rule: FirstClickRule | str = FirstClickRule.SAFE,
        seed: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> "Game":
        """A game whose mines are placed at the first reveal, under ``rule``.

        ``seed=None`` draws a fresh seed, recorded in the replay.

        Examples
        --------
        >>> g = Game.deferred(Spec(9, 9, 10), "opening", seed=3)
        >>> opened = g.reveal((4, 4))
        >>> g.position().number((4, 4))
        0
        """
        rule = FirstClickRule.parse(rule)
        seed = fresh_seed() if seed is None else int(seed)
        return cls(clock=clock, _deferred=(spec, rule, seed))

    @classmethod
    def from_board(cls, board: GeneratedBoard, *, clock: Callable[[], float] = time.monotonic,
                   record: bool = True) -> "Game":
        """A game on a generated board, keeping its seed, rule and click for the replay."""
        return cls(board.layout, clock=clock, board=board, record=record)

    def _set_layout(self, layout: Layout) -> None:
        self._layout = layout
        self._geometry = layout.geometry
        self._mines = layout.mine_count
        self._is_mine = layout.mines.tolist()
        self._numbers = layout.numbers.tolist()
        self._safe_total = layout.safe_count

    # -- state ---------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return self._geometry

    @property
    def mines(self) -> int:
        """The number of mines on the board (the player's mine counter starts here)."""
        return self._mines

    @property
    def status(self) -> Status:
        return self._status

    @property
    def exploded(self) -> tuple[int, int] | None:
        """The mine ``(x, y)`` that ended a lost game (None otherwise).

        Examples
        --------
        >>> g = Game(Layout.from_rows(["*..", "..."]))
        >>> _ = g.reveal((0, 0))
        >>> g.status.value, g.exploded, g.exploded_index
        ('lost', (0, 0), 0)
        """
        return None if self._exploded is None else self._geometry.coords(self._exploded)

    @property
    def exploded_index(self) -> int | None:
        """:attr:`exploded` as a flat index, for code that works in indices."""
        return self._exploded

    @property
    def revealed(self) -> np.ndarray:
        """Flat boolean array of opened cells (a copy)."""
        return np.frombuffer(bytes(self._revealed), dtype=bool)

    @property
    def flagged(self) -> np.ndarray:
        """Flat boolean array of flagged cells (a copy)."""
        return np.frombuffer(bytes(self._flagged), dtype=bool)

    def shown(self, cell: tuple[int, int]) -> int | None:
        """The number the open cell ``(x, y)`` shows (what the player reads), or None
        if it is not open; InputError for anything that is not a cell of the board.

        Examples
        --------
        >>> g = Game(Layout.from_rows(["*..", "..."]))
        >>> _ = g.reveal((2, 0))
        >>> g.shown((2, 0)), g.shown((1, 0)), g.shown((0, 0))
        (0, 1, None)
        """
        return self._shown_index(self._geometry.cell(cell))

    def _shown_index(self, cell: int) -> int | None:
        """:meth:`shown` by flat index, for play loops that work in indices (no checks)."""
        if not self._revealed[cell] or self._is_mine[cell]:
            return None
        return self._numbers[cell]

    def is_revealed(self, cell: tuple[int, int]) -> bool:
        """Whether the cell ``(x, y)`` is open; InputError for anything that is not a
        cell of the board.

        Examples
        --------
        >>> g = Game(Layout.from_rows(["*..", "..."]))
        >>> _ = g.reveal((2, 1))
        >>> g.is_revealed((2, 1)), g.is_revealed((0, 0))
        (True, False)
        """
        return bool(self._revealed[self._geometry.cell(cell)])

    @property
    def opened_count(self) -> int:
        return self._opened

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def elapsed(self) -> float:
        """Seconds from the first reveal to the end of the game (or to now)."""
        if self._started is None:
            return 0.0
        end = self._ended if self._ended is not None else self._clock()
        return end - self._started

    def position(self, *, mines_known: bool = True) -> Position:
        """What the player sees now: numbers, flags, covered cells and the mine total."""
        if self._layout is None:
            grid = np.where(self.flagged, Mark.FLAG, Mark.COVERED).astype(np.int8)
            grid[~self._geometry.mask] = Mark.HOLE
            return Position(self._geometry, grid, self._mines if mines_known else None)
        return Position.from_view(self._layout, self.revealed, self.flagged, mines_known=mines_known)

    def layout(self) -> Layout:
        """The hidden layout; InputError before it is placed.

        Solvers never call this. It is here for the verifier's play loop, for
        replays and for showing the mines when the game is over.
        """
        if self._layout is None:
            raise InputError("the mines are placed at the first reveal; there is no layout yet")
        return self._layout

    # -- actions -------------------------------------------------------------------
    def _check(self, cell: int) -> int:
        if self._status.over:
            raise IllegalMove(f"the game is over ({self._status.value})")
        if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not self._geometry.is_cell(int(cell)):
            raise IllegalMove(f"{cell!r} is not a cell of the board")
        return int(cell)

    def _at(self, where) -> int:
        """The flat index of a public action's ``(x, y)``."""
        try:
            return self._geometry.cell(where)
        except InputError as err:
            raise IllegalMove(str(err)) from None

    def _record(self, kind: ActionKind, cell: int) -> None:
        if self._recording:
            self._actions.append(Action(kind, self._geometry.coords(cell), self._clock() - self._created))

    def reveal(self, where: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        """Open the cell at ``(x, y)``; a zero opens its region. Returns the newly
        opened cells as ``(x, y)``, in the order they opened.

        Revealing a flagged or already open cell does nothing. Revealing a mine loses.
        """
        return tuple(map(self._geometry.coords, self._reveal_index(self._at(where))))

    def _reveal_index(self, cell: int) -> tuple[int, ...]:
        """:meth:`reveal` by flat index, for play loops and replays that work in indices."""
        cell = self._check(cell)
        self._record(ActionKind.REVEAL, cell)
        if self._layout is None:
            spec, rule, seed = self._deferred
            xy = self._geometry.coords(cell)
            layout = place_mines(self._geometry, spec.mines, rule, xy, as_generator(seed))
            self._set_layout(layout)
            self._board = GeneratedBoard(layout, rule, xy, seed, GENERATOR_VERSION)
        if self._started is None:
            self._started = self._clock()
            self._status = Status.PLAYING
        if self._flagged[cell] or self._revealed[cell]:
            return ()
        return self._open(cell)

    def _open(self, cell: int) -> tuple[int, ...]:
        """Open a covered, unflagged cell of a started game (no checks, no record)."""
        if self._is_mine[cell]:
            self._revealed[cell] = 1
            self._exploded = cell
            self._finish(Status.LOST)
            return (cell,)
        opened = self._flood(cell)
        if self._opened == self._safe_total:
            self._finish(Status.WON)
        return opened

    def _flag_proven(self, cell: int) -> None:
        """The play loop's fast path for a flag on a proven mine (no checks, no record)."""
        self._flagged[cell] = 1

    def _open_proven(self, cell: int) -> tuple[int, ...]:
        """The play loop's fast path: open a cell a solver proved safe.

        Skips the argument checks and the replay record of :meth:`reveal` (play
        loops open hundreds of thousands of cells); the cell must be covered and
        unflagged in a game in progress.
        """
        if self._revealed[cell] or self._flagged[cell]:
            return ()
        return self._open(cell)

    def _adopt_proven(self, revealed: bytes, flagged: bytes) -> None:
        """The compiled play loop's fast path: take the open cells and flags it reached.

        ``revealed`` and ``flagged`` (one byte per grid position) must extend the game's
        own: every cell they add was opened or flagged because a solver proved it,
        in a game in progress. The game is won when every safe cell is open.

        Raises
        ------
        InputError
            When they would open a mine or close an open cell (a broken caller).
        """
        area = self._geometry.area
        now_open = np.frombuffer(revealed, dtype=np.uint8, count=area).astype(bool)
        if (self.revealed & ~now_open).any() or (now_open & self._layout.mines).any():
            raise InputError("adopted cells must extend the open cells and hold no mine")
        self._revealed[:] = revealed
        self._flagged[:] = flagged
        self._opened = int(now_open.sum())
        if self._opened == self._safe_total:
            self._finish(Status.WON)

    def _flood(self, start: int) -> tuple[int, ...]:
        revealed, flagged, numbers = self._revealed, self._flagged, self._numbers
        neighbours = self._geometry.neighbours
        revealed[start] = 1
        stack = [start]
        opened = []
        while stack:
            c = stack.pop()
            opened.append(c)
            if numbers[c] == 0:
                for n in neighbours(c):
                    if not revealed[n] and not flagged[n]:
                        revealed[n] = 1
                        stack.append(n)
        self._opened += len(opened)
        return tuple(opened)

    def flag(self, where: tuple[int, int]) -> None:
        """Put a flag on the covered cell at ``(x, y)`` (no effect if it already has one)."""
        self._flag(self._check(self._at(where)))

    def _flag(self, cell: int) -> None:
        if self._revealed[cell]:
            raise IllegalMove(f"cannot flag {list(self._geometry.coords(cell))}: it is open")
        self._record(ActionKind.FLAG, cell)
        self._flagged[cell] = 1

    def unflag(self, where: tuple[int, int]) -> None:
        """Take the flag off the cell at ``(x, y)`` (no effect if there is none)."""
        self._unflag(self._check(self._at(where)))

    def _unflag(self, cell: int) -> None:
        self._record(ActionKind.UNFLAG, cell)
        self._flagged[cell] = 0

    def chord(self, where: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        """Open the covered, unflagged neighbours of the open number at ``(x, y)``
        when its flags match it; returns the opened cells as ``(x, y)``.

        When the adjacent flag count differs from the number, nothing happens (as in
        the classic game). A wrong flag can make a chord open a mine and lose.
        """
        return tuple(map(self._geometry.coords, self._chord(self._check(self._at(where)))))

    def _chord(self, cell: int) -> tuple[int, ...]:
        if not self._revealed[cell]:
            raise IllegalMove(f"cannot chord {list(self._geometry.coords(cell))}: it is not open")
        self._record(ActionKind.CHORD, cell)
        neighbours = self._geometry.neighbours(cell)
        if sum(self._flagged[n] for n in neighbours) != self._numbers[cell]:
            return ()
        opened: list[int] = []
        for n in neighbours:
            if self._revealed[n] or self._flagged[n]:
                continue
            if self._is_mine[n]:
                self._revealed[n] = 1
                self._exploded = n
                self._finish(Status.LOST)
                return tuple(opened) + (n,)
            opened.extend(self._flood(n))
        if self._opened == self._safe_total:
            self._finish(Status.WON)
        return tuple(opened)

    def apply(self, action: Action | tuple[ActionKind | str, tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        """Perform an action given as an :class:`Action` or ``(kind, (x, y))``; returns
        the cells it opened as ``(x, y)``, as :meth:`reveal` and :meth:`chord` do.

        Examples
        --------
        >>> g = Game(Layout.from_rows(["*..", "..."]))
        >>> g.apply(("flag", (0, 0))), g.apply((ActionKind.REVEAL, (2, 0)))
        ((), ((2, 0), (2, 1), (1, 1), (1, 0)))
        """
        kind, where = (action.kind, action.cell) if isinstance(action, Action) else action
        kind = ActionKind(kind)
        cell = self._check(self._at(where))
        if kind is ActionKind.REVEAL:
            opened = self._reveal_index(cell)
        elif kind is ActionKind.CHORD:
            opened = self._chord(cell)
        else:
            (self._flag if kind is ActionKind.FLAG else self._unflag)(cell)
            opened = ()
        return tuple(map(self._geometry.coords, opened))

    def _finish(self, status: Status) -> None:
        self._status = status
        self._ended = self._clock()

    # -- replays -------------------------------------------------------------------
    def replay(self) -> "Replay":
        """The record of this game so far."""
        g = self._geometry
        board = self._board
        if self._layout is None:
            spec, rule, seed = self._deferred
            rule_name, seed_value, click, generator = rule.value, seed, None, GENERATOR_VERSION
            layout_rows: tuple[str, ...] = ()
        else:
            layout_rows = tuple(self._layout.rows())
            if board is not None:
                rule_name, seed_value = board.rule.value, board.seed
                click, generator = tuple(board.click), board.generator
            else:
                rule_name = seed_value = click = generator = None
        return Replay(
            width=g.width,
            height=g.height,
            mines=self._mines,
            rule=rule_name,
            seed=seed_value,
            click=click,
            generator=generator,
            layout=layout_rows,
            actions=tuple(self._actions),
            status=self._status.value,
            elapsed=self.elapsed,
        )

    def _repr_svg_(self) -> str | None:
        """The game as a picture in a notebook (:func:`mscsp.draw.game_svg`)."""
        from . import draw
        return draw.notebook_svg(self)


@dataclass(frozen=True)
class Replay:
    """A saved game: where the board came from and every action, with times.

    ``layout`` is stored even for seeded games, so a replay is self-contained and a
    change of sampler (the same seed giving another board) is caught on replay.

    Examples
    --------
    >>> g = Game.deferred(Spec(5, 5, 3), "opening", seed=9)
    >>> _ = g.reveal((2, 2)); g.flag((0, 0))
    >>> r = Replay.from_json(g.replay().to_json())
    >>> r.play().position() == g.position()
    True
    """

    width: int
    height: int
    mines: int
    rule: str | None
    seed: int | None
    click: tuple[int, int] | None
    generator: str | None
    layout: tuple[str, ...]
    actions: tuple[Action, ...] = field(default_factory=tuple)
    status: str = Status.READY.value
    elapsed: float = 0.0

    def to_dict(self) -> dict:
        geometry = Geometry(self.width, self.height)
        return {
            "format": REPLAY_FORMAT,
            "width": self.width,
            "height": self.height,
            "mines": self.mines,
            "rule": self.rule,
            "seed": self.seed,
            "click": list(self.click) if self.click is not None else None,
            "generator": self.generator,
            "layout": list(self.layout),
            "status": self.status,
            "elapsed": round(self.elapsed, 6),
            "actions": [
                {"action": a.kind.value, "cell": list(a.cell), "t": round(a.t, 6)}
                for a in self.actions
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str, *, max_cells: int = MAX_CELLS) -> "Replay":
        """Read a replay, with a one-line InputError for anything malformed.

        Every field is checked for its type and range before anything is built: the
        board (at most ``max_cells`` positions), the layout rows, each action's kind
        and cell.
        """
        fields = Fields(load_json(text, "replay"), "replay")
        if fields.data.get("format") != REPLAY_FORMAT:
            raise InputError(f"not an {REPLAY_FORMAT} file (its 'format' field differs)")
        width = fields.integer("width", low=1)
        height = fields.integer("height", low=1)
        check_cells(width, height, max_cells, "replay's board")
        mines = fields.integer("mines", low=0, high=width * height)
        rule = fields.string("rule", choices=[r.value for r in FirstClickRule], default=None)
        seed = fields.integer("seed", low=0, default=None)
        click = fields.data.get("click")
        click = None if click is None else cell_of(click, width, height, "replay: 'click'")
        layout = fields.array("layout", default=[])
        if layout and (len(layout) != height or not all(
                isinstance(row, str) and len(row) == width and set(row) <= {"*", ".", "-"} for row in layout)):
            raise fields.fail("layout", f"must be {height} rows of {width} '*', '.' or '-' characters")
        actions = []
        kinds = [k.value for k in ActionKind]
        for n, item in enumerate(fields.array("actions")):
            action = Fields(item, f"replay: action {n + 1}")
            kind = ActionKind(action.string("action", choices=kinds))
            xy = cell_of(action.data.get("cell"), width, height, f"replay: action {n + 1}'s cell")
            actions.append(Action(kind, xy, action.number("t", low=0.0, default=0.0)))
        return cls(
            width=width,
            height=height,
            mines=mines,
            rule=rule,
            seed=seed,
            click=click,
            generator=fields.string("generator", default=None),
            layout=tuple(layout),
            actions=tuple(actions),
            status=fields.string("status", choices=[s.value for s in Status], default=Status.READY.value),
            elapsed=fields.number("elapsed", low=0.0, default=0.0),
        )

    def play(self) -> Game:
        """Replay every action on a fresh game; the result is the identical state.

        The recorded times drive the game's clock, so even the elapsed time matches.

        Raises
        ------
        InputError
            If the seed no longer gives the stored layout (the sampler changed) or
            the replay's final status differs from the recorded one.
        """
        now = [0.0]

        def clock() -> float:
            return now[0]

        spec = Spec(self.width, self.height, self.mines)
        if self.seed is not None and self.rule is not None:
            if self.generator not in (None, GENERATOR_VERSION):
                raise InputError(
                    f"replay was made by generator {self.generator!r}; this is {GENERATOR_VERSION!r}"
                )
            if self.click is None:
                game = Game.deferred(spec, self.rule, self.seed, clock=clock)
            else:
                rule = FirstClickRule.parse(self.rule)
                layout = place_mines(spec.geometry, self.mines, rule, self.click, as_generator(self.seed))
                if self.layout and tuple(layout.rows()) != self.layout:
                    raise InputError("the seed no longer gives the replay's layout: the sampler has changed")
                board = GeneratedBoard(layout, rule, tuple(self.click), self.seed, GENERATOR_VERSION)
                game = Game.from_board(board, clock=clock)
        elif self.layout:
            game = Game(Layout.from_rows(self.layout), clock=clock)
        else:
            raise InputError("a replay needs a seed and rule, or a layout")
        for action in self.actions:
            now[0] = action.t
            try:
                game.apply(action)
            except IllegalMove as exc:
                raise InputError(f"replay action {action.kind.value} is illegal here: {exc}") from None
        if game.status.value != self.status:
            raise InputError(f"replay ends {game.status.value}, but the record says {self.status}")
        if not game.status.over:
            now[0] = (game._started or 0.0) + self.elapsed
        return game
