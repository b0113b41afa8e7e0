"""Cells, clues, counts and clashes in words: how every sentence of mscsp names things.

A cell is ``[x,y]`` as players and the JSON output write it, a clue ``the 3 at
[x,y]``, counts up to eight in words; an impossibility seen at a glance is a
sentence of its own (:func:`clash_text`). A leaf: the constraint builder words its
clashes here, and :mod:`mscsp.analysis.explain` builds its deductions from these names.

Examples
--------
>>> from mscsp.position import parse_position
>>> p = parse_position(".2.\\n")
>>> cell_name(p, 2), clue_name(p, 1), count_words(1, "flag"), count_words(3, "flag"), number_word(12)
('[2,0]', 'the 2 at [1,0]', 'one flag', 'three flags', '12')
"""

from __future__ import annotations

from ..errors import Clash
from ..position import Position

__all__ = ["cell_name", "shown_number", "clue_name", "number_word", "count_words", "clash_text", "cells_text"]

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def cell_name(position: Position, cell: int) -> str:
    """``[x,y]`` of a cell given by flat index."""
    x, y = position.geometry.coords(cell)
    return f"[{x},{y}]"


def shown_number(position: Position, clue: int) -> int:
    """The number a clue shows, by flat index (the solvers name clues so)."""
    return int(position.grid[clue])


def clue_name(position: Position, clue: int) -> str:
    """``the 3 at [x,y]``."""
    return f"the {shown_number(position, clue)} at {cell_name(position, clue)}"


def number_word(k: int) -> str:
    """``no``, ``one``, ... ``eight``; larger numbers as digits."""
    return _WORDS[k] if 0 <= k < len(_WORDS) else str(k)


def count_words(n: int, noun: str) -> str:
    """``one flag``, ``two flags``, ``no flags``."""
    return f"{number_word(n)} {noun}{'' if n == 1 else 's'}"


def clash_text(position: Position, clash: Clash, *, clue: int | None = None, flags: int = 0, covered: int = 0,
               remaining: int = 0) -> str:
    """An impossibility seen at a glance, in words.

    ``clue`` is the number concerned (for the two clashes on one number), ``flags``
    the flags it touches (or on the board, for the total), ``covered`` its covered
    neighbours (or the board's covered cells), ``remaining`` the mines left to place.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> p = parse_position("mines: 1\\n1F\\nF.\\n")
    >>> clash_text(p, Clash.OVERFLAGGED, clue=0, flags=2)
    'the 1 at [0,0] already touches two flags'
    >>> clash_text(p, Clash.FLAGS_OVER_TOTAL, flags=2)
    'two flags are placed but the board has only one mine'
    >>> clash_text(p, Clash.TOTAL_OVER_COVERED, remaining=1, covered=0)
    'one mine is left to place but no cell is covered'
    """
    if clash is Clash.OVERFLAGGED:
        return f"{clue_name(position, clue)} already touches {count_words(flags, 'flag')}"
    if clash is Clash.UNDERCOVERED:
        have = "only " if covered else ""
        extra = f" and {count_words(flags, 'flag')}" if flags else ""
        return f"{clue_name(position, clue)} has {have}{count_words(covered, 'covered neighbour')}{extra}"
    if clash is Clash.FLAGS_OVER_TOTAL:
        mines = position.mines
        has = f"only {count_words(mines, 'mine')}" if mines else "no mines"
        return f"{count_words(flags, 'flag')} {'is' if flags == 1 else 'are'} placed but the board has {has}"
    if clash is Clash.TOTAL_OVER_COVERED:
        left = f"{count_words(remaining, 'mine')} {'is' if remaining == 1 else 'are'} left to place"
        if not covered:
            return f"{left} but no cell is covered"
        return f"{left} but only {count_words(covered, 'cell')} {'is' if covered == 1 else 'are'} covered"
    raise ValueError(f"{clash} is found by a search, not at a glance: see mscsp.analysis.explain.describe_contradiction")


def cells_text(position: Position, cells: list[int] | tuple[int, ...], limit: int = 8) -> str:
    """``[1,2]``, ``[1,2] and [3,4]``, ``[1,2], [3,4] and [5,6]`` (long lists cut)."""
    width = position.geometry.width
    names = [f"[{c % width},{c // width}]" for c in sorted(map(int, cells))]  # cell_name's, inline
    if len(names) > limit:
        shown = names[: limit - 1]
        return ", ".join(shown) + f" and {len(names) - len(shown)} more cells"
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
