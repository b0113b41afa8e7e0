"""Sentences a player can follow: why cells are proven, and what cannot all hold.

The solvers give each proven cell a small set of clues (and whether the mine total
is needed); this module says it in words, naming numbers and cells as ``[x,y]``:

- one clue: "the 2 at [4,3] has exactly two covered neighbours, [5,2] and [5,3],
  so they are mines";
- a few clues: "the 1 at [3,3] needs one mine among [4,2] and [4,3]; the 2 at [4,3]
  needs two among [4,2], [4,3] and [5,2]: so [5,2] is a mine";
- with the total: "...; and 1 mine is left on the whole board: so ... are safe".

It also says what a search finds impossible (:func:`describe_contradiction`). Cells,
clues, counts and what is impossible at a glance are named by :mod:`mscsp.analysis.words`;
counting's own answers (the model without a total, why a count is not exact) say
themselves in words (:mod:`mscsp.analysis.counting.outcomes`).

Examples
--------
>>> from mscsp.position import parse_position
>>> from mscsp.analysis.constraints import build_constraints
>>> p = parse_position("1.\\n")
>>> describe_deduction(p, build_constraints(p), [1], True, (0,), False)
'the 1 at [0,0] has exactly one covered neighbour, [1,0], so it is a mine'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Clash
from ..position import Position
from .words import cells_text, clue_name, number_word, shown_number

if TYPE_CHECKING:  # the equations are read, never built, here
    from .constraints import ConstraintSystem

__all__ = ["describe_deduction", "describe_contradiction", "contradiction_words", "TOTAL_CLASHES"]


def _flag_note(flags: int) -> str:
    """Said after a clue that touches flags (a clue's flags: its number less its equation's count)."""
    if not flags:
        return ""
    return f" (it touches {number_word(flags)} flag{'s' if flags != 1 else ''})"


def _need(position: Position, system: ConstraintSystem, clue: int) -> str:
    con = system.equation_of(clue)
    if con is None:
        return f"{clue_name(position, clue)} is already satisfied"
    note = _flag_note(shown_number(position, clue) - con.count)
    more = " more" if note else ""
    noun = "mine" if con.count == 1 else "mines"
    # one covered cell left: "no mine at [2,1]", not "no mines among [2,1]"
    where = f"at {cells_text(position, con.cells)}" if len(con.cells) == 1 else f"among {cells_text(position, con.cells)}"
    return f"{clue_name(position, clue)} needs {number_word(con.count)}{more} {noun}{note} {where}"


def _conclusion(position: Position, cells: list[int], mine: bool) -> str:
    many = len(cells) > 1
    what = ("are mines" if many else "is a mine") if mine else ("are safe" if many else "is safe")
    return f"{cells_text(position, cells)} {what}"


def _total_text(system: ConstraintSystem) -> str:
    r = system.remaining
    return f"{number_word(r)} mine{'s are' if r != 1 else ' is'} left on the whole board, flags aside"


def describe_deduction(
    position: Position, system: ConstraintSystem, cells: list[int], mine: bool, clues: tuple[int, ...],
    uses_total: bool, said: dict[int, str] | None = None,
) -> str:
    """One sentence for cells forced, all the same way, by ``clues`` (and the total).

    ``said`` keeps what each clue needs, in words, between the sentences of one
    position (a clue is named in many of them): pass one dict to every call.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> p = parse_position(".2.\\n")
    >>> s = build_constraints(p)
    >>> describe_deduction(p, s, [0, 2], True, (1,), False)
    'the 2 at [1,0] has exactly two covered neighbours, [0,0] and [2,0], so they are mines'
    """
    if len(clues) == 1 and not uses_total:
        clue = clues[0]
        con = system.equation_of(clue)
        if con is not None and con.count == len(con.cells) and mine:
            pron = "they are mines" if len(con.cells) > 1 else "it is a mine"
            return (
                f"{clue_name(position, clue)} has exactly {number_word(len(con.cells))} covered "
                f"neighbour{'s' if len(con.cells) != 1 else ''}{_flag_note(shown_number(position, clue) - con.count)}, "
                f"{cells_text(position, con.cells)}, so {pron}"
            )
        if con is not None and con.count == 0 and not mine:
            if shown_number(position, clue) == 0:
                return f"{clue_name(position, clue)} touches no mine, so {_conclusion(position, cells, False)}"
            flags = shown_number(position, clue)  # its equation needs no more mines
            return (
                f"{clue_name(position, clue)} already has its {number_word(flags)} "
                f"flag{'s' if flags != 1 else ''}, so {_conclusion(position, cells, False)}"
            )
    if not clues and not uses_total:  # every forced cell has a reason; none was found within the time limit
        return f"{_conclusion(position, cells, mine)}: proven, but not explained within the time limit"
    said = {} if said is None else said
    needs = []
    for c in clues[:3] if len(clues) + uses_total > 4 else clues:
        text = said.get(c)
        if text is None:
            text = said[c] = _need(position, system, c)
        needs.append(text)
    if len(clues) + uses_total > 4:
        head = f"taking {len(clues)} clues together ({'; '.join(needs)}; and more)"
    else:
        head = "; ".join(needs + ([_total_text(system)] if uses_total else []))
    return f"{head}: so {_conclusion(position, cells, mine)}"


def describe_contradiction(position: Position, system: ConstraintSystem | None, clues: tuple[int, ...], uses_total: bool) -> str:
    """A sentence saying which clues (and the total) cannot all hold."""
    return contradiction_words(position, system, clues, uses_total)[0]


def contradiction_words(position: Position, system: ConstraintSystem | None, clues: tuple[int, ...],
                        uses_total: bool) -> tuple[str, bool]:
    """:func:`describe_contradiction`'s sentence, and whether it names the mine total
    itself (a long set is cut short before the total is named), so that a reader who
    shows the sentence knows whether to add that the total takes part.

    Examples
    --------
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.position import parse_position
    >>> p = parse_position("mines: 1\\n1..11..11..1\\n")
    >>> contradiction_words(p, build_constraints(p), (0, 3), True)
    ('the 1 at [0,0] needs one mine at [1,0]; the 1 at [3,0] needs one mine at [2,0]; one mine is left on the whole
    board, flags aside: no layout satisfies them all', True)
    >>> contradiction_words(p, build_constraints(p), (0, 3, 4, 7, 8, 11), True)[1]
    False
    """
    if system is None:
        names = ", ".join(clue_name(position, c) for c in clues)
        return f"no layout satisfies {names}" + (" and the mine total" if uses_total else ""), uses_total
    if len(clues) + uses_total > 6:
        shown = "; ".join(_need(position, system, c) for c in clues[:4])
        more = len(clues) - 4 + uses_total
        return f"{shown}; and {more} more constraints: no layout satisfies them all", False
    parts = [_need(position, system, c) for c in clues]
    if uses_total:
        parts.append(_total_text(system))
    if not parts:
        return "no layout satisfies the position", False
    if len(parts) == 1:
        return f"{parts[0]}, which is impossible", uses_total
    return "; ".join(parts) + ": no layout satisfies them all", uses_total


#: The clashes seen at a glance whose sentence is about the mine total alone.
TOTAL_CLASHES = frozenset({Clash.FLAGS_OVER_TOTAL, Clash.TOTAL_OVER_COVERED})
