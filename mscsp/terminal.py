"""A terminal front end for :class:`~mscsp.game.Game`: ``mscsp play``.

Commands are read line by line, so a game can be typed or piped::

    r X Y    reveal          (also just "X Y" or "X,Y")
    f X Y    flag or unflag
    c X Y    chord
    q        quit

The board is drawn from the player's :class:`~mscsp.position.Position` (plus the
mines, once the game is over), never from the layout while the game runs.
"""

from __future__ import annotations

import re
from typing import TextIO

from .board import Spec
from .errors import IllegalMove, InputError
from .formats.files import write_whole
from .game import Game, Status
from .position import Mark
from .formats.text import excerpt, natural

__all__ = ["render", "play_terminal", "parse_command"]

HELP = (
    "commands: r X Y (reveal; 'X Y' alone also reveals), f X Y (flag/unflag), "
    "c X Y (chord), h (help), q (quit)"
)

_COLOURS = {1: 34, 2: 32, 3: 31, 4: 35, 5: 33, 6: 36, 7: 30, 8: 37}


def render(game: Game, *, reveal_mines: bool = False, color: bool = False) -> str:
    """Draw the board with column and row numbers.

    ``.`` covered, ``F`` flag, digits for numbers (``0`` shown as blank); after the
    game, with ``reveal_mines``, ``*`` marks mines, ``X`` the exploded one and ``!``
    a wrong flag.
    """
    g = game.geometry
    position = game.position()
    layout = game.layout() if reveal_mines else None
    cw = max(2, len(str(g.width - 1)) + 1)
    lw = len(str(g.height - 1))
    lines = [" " * (lw + 1) + "".join(str(x).rjust(cw) for x in range(g.width))]
    for y in range(g.height):
        row = []
        for x in range(g.width):
            i = y * g.width + x
            code = int(position.grid[i])
            if layout is not None and i == game.exploded_index:
                ch = "X"
            elif layout is not None and code == Mark.FLAG and not layout.mines[i]:
                ch = "!"
            elif layout is not None and code == Mark.COVERED and layout.mines[i]:
                ch = "*"
            elif code >= 0:
                ch = " " if code == 0 else str(code)
                if color and code > 0:
                    ch = f"\x1b[{_COLOURS[code]}m{ch}\x1b[0m"
            else:
                ch = {Mark.COVERED: ".", Mark.FLAG: "F", Mark.HOLE: " "}[Mark(code)]
            row.append(" " * (cw - 1) + ch)
        lines.append(str(y).rjust(lw) + " " + "".join(row))
    return "\n".join(lines) + "\n"


_COMMAND = re.compile(r"^\s*(?:([a-zA-Z]+)\s*)?([0-9]+)\s*[, ]\s*([0-9]+)\s*$")


def parse_command(line: str) -> tuple[str, tuple[int, int] | None]:
    """Split a typed command into its verb and cell.

    Examples
    --------
    >>> parse_command("f 3 4"), parse_command("3,4"), parse_command("q")
    (('flag', (3, 4)), ('reveal', (3, 4)), ('quit', None))
    """
    text = line.strip().lower()
    if text in ("q", "quit", "exit"):
        return "quit", None
    if text in ("h", "help", "?"):
        return "help", None
    match = _COMMAND.match(text)
    if not match:
        raise InputError(f"cannot read {excerpt(line.strip())}; {HELP}")
    verb = match.group(1) or "r"
    verbs = {"r": "reveal", "reveal": "reveal", "o": "reveal", "open": "reveal",
             "f": "flag", "flag": "flag", "c": "chord", "chord": "chord"}
    if verb not in verbs:
        raise InputError(f"unknown command {verb!r}; {HELP}")
    return verbs[verb], (natural(match.group(2), "X"), natural(match.group(3), "Y"))


def play_terminal(
    spec: Spec,
    rule: str,
    seed: int | None,
    *,
    save: str | None,
    stdin: TextIO,
    stdout: TextIO,
    color: bool = False,
    default_save: bool = True,
) -> int:
    """Play one game reading commands from ``stdin``; save the replay at the end.

    The replay goes to ``save`` (default ``mscsp-replay-SEED.json``) unless
    ``default_save`` is False.

    Returns the exit status: 0 whether the game was won, lost or quit.
    """
    game = Game.deferred(spec, rule, seed)
    seed_value = game.replay().seed
    stdout.write(
        f"mscsp play: {spec.width}x{spec.height}, {spec.mines} mines, rule {rule}, seed {seed_value}\n{HELP}\n"
    )
    stdout.write(render(game, color=color))
    for line in stdin:
        if not line.strip():
            continue
        try:
            verb, cell = parse_command(line)
            if verb == "quit":
                break
            if verb == "help":
                stdout.write(HELP + "\n")
                continue
            index = game.geometry.index(*cell)
            if verb == "reveal":
                game.reveal(cell)
            elif verb == "chord":
                game.chord(cell)
            elif game.flagged[index]:
                game.unflag(cell)
            else:
                game.flag(cell)
        except (InputError, IllegalMove) as exc:
            stdout.write(f"? {exc}\n")
            continue
        stdout.write(render(game, reveal_mines=game.status.over, color=color))
        left = game.mines - int(game.flagged.sum())
        stdout.write(f"mines left: {left}   time: {game.elapsed:.1f} s\n")
        if game.status.over:
            break
    if game.status is Status.WON:
        stdout.write(f"You won in {game.elapsed:.1f} s.\n")
    elif game.status is Status.LOST:
        stdout.write("Boom. You lost.\n")
    else:
        stdout.write("Game left unfinished.\n")
    path = (save or f"mscsp-replay-{seed_value}.json") if default_save else None
    if path:
        write_whole(path, game.replay().to_json() + "\n")
        stdout.write(f"replay saved to {path}\n")
    return 0
