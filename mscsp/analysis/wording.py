"""How cells, clues and small counts are named in sentences a player reads.

One place for the words, so that explanations, errors and reports say a cell the
same way: ``[x,y]`` as players and the JSON output write it, clues as ``the 3 at
[x,y]``, and counts up to eight in words.

Examples
--------
>>> from mscsp.position import parse_position
>>> p = parse_position(".2.\\n")
>>> cell_name(p, 2), clue_name(p, 1), count_words(1, "flag"), count_words(3, "flag"), number_word(12)
('[2,0]', 'the 2 at [1,0]', 'one flag', 'three flags', '12')
"""

from __future__ import annotations

from ..position import Position

__all__ = ["cell_name", "clue_name", "number_word", "count_words"]

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def cell_name(position: Position, cell: int) -> str:
    """``[x,y]`` of a cell given by flat index."""
    x, y = position.geometry.coords(cell)
    return f"[{x},{y}]"


def clue_name(position: Position, clue: int) -> str:
    """``the 3 at [x,y]``."""
    return f"the {position.number(clue)} at {cell_name(position, clue)}"


def number_word(k: int) -> str:
    """``no``, ``one``, ... ``eight``; larger numbers as digits."""
    return _WORDS[k] if 0 <= k < len(_WORDS) else str(k)


def count_words(n: int, noun: str) -> str:
    """``one flag``, ``two flags``, ``no flags``."""
    return f"{number_word(n)} {noun}{'' if n == 1 else 's'}"
