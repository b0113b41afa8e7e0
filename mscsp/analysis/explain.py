"""Sentences a player can follow: deductions, contradictions, and what counting assumed or left undone.

The solvers give each proven cell a small set of clues (and whether the mine total
is needed); this module says it in words, naming numbers and cells as ``[x,y]``:

- one clue: "the 2 at [4,3] has exactly two covered neighbours, [5,2] and [5,3],
  so they are mines";
- a few clues: "the 1 at [3,3] needs one mine among [4,2] and [4,3]; the 2 at [4,3]
  needs two among [4,2], [4,3] and [5,2]: so [5,2] is a mine";
- with the total: "...; and 1 mine is left on the whole board: so ... are safe".

It is also the one place a position's impossibility is put into words: what is seen at
a glance (:func:`clash_text`: "the 1 at [0,0] already touches two flags") and what a
search finds (:func:`describe_contradiction`); and the one place counting's answers
are: how layouts are weighed without a mine total (:func:`describe_model`), why a
count is not exact (:func:`describe_gave_up`) and why an estimate could not be made
either (:func:`describe_no_estimate`). And it names things the same way
everywhere: a cell ``[x,y]`` as players and the JSON output write it, a clue ``the 3
at [x,y]``, counts up to eight in words.

Examples
--------
>>> from mscsp.position import parse_position
>>> p = parse_position(".2.\\n")
>>> cell_name(p, 2), clue_name(p, 1), count_words(1, "flag"), count_words(3, "flag"), number_word(12)
('[2,0]', 'the 2 at [1,0]', 'one flag', 'three flags', '12')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Clash
from ..position import Position

if TYPE_CHECKING:  # the equations and counting's answers are read, never built, here
    from .constraints import ConstraintSystem
    from .counting.combine import GaveUp, NoEstimate, NoTotalModel

__all__ = ["describe_deduction", "describe_contradiction", "contradiction_words", "TOTAL_CLASHES", "describe_model",
           "describe_gave_up", "describe_no_estimate", "cells_text", "clash_text", "cell_name", "clue_name",
           "number_word", "count_words"]

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def cell_name(position: Position, cell: int) -> str:
    """``[x,y]`` of a cell given by flat index."""
    x, y = position.geometry.coords(cell)
    return f"[{x},{y}]"


def _shown(position: Position, clue: int) -> int:
    """The number a clue shows, by flat index (the solvers name clues so)."""
    return int(position.grid[clue])


def clue_name(position: Position, clue: int) -> str:
    """``the 3 at [x,y]``."""
    return f"the {_shown(position, clue)} at {cell_name(position, clue)}"


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
    raise ValueError(f"{clash} is found by a search, not at a glance: see describe_contradiction")


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


def _flag_note(flags: int) -> str:
    """Said after a clue that touches flags (a clue's flags: its number less its equation's count)."""
    if not flags:
        return ""
    return f" (it touches {number_word(flags)} flag{'s' if flags != 1 else ''})"


def _need(position: Position, system: ConstraintSystem, clue: int) -> str:
    con = system.equation_of(clue)
    if con is None:
        return f"{clue_name(position, clue)} is already satisfied"
    note = _flag_note(_shown(position, clue) - con.count)
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
                f"neighbour{'s' if len(con.cells) != 1 else ''}{_flag_note(_shown(position, clue) - con.count)}, "
                f"{cells_text(position, con.cells)}, so {pron}"
            )
        if con is not None and con.count == 0 and not mine:
            if _shown(position, clue) == 0:
                return f"{clue_name(position, clue)} touches no mine, so {_conclusion(position, cells, False)}"
            flags = _shown(position, clue)  # its equation needs no more mines
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


def describe_model(model: NoTotalModel) -> str:
    """How counting weighs layouts without a mine total, in words.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from mscsp.analysis.counting.combine import NoTotalModel
    >>> print(describe_model(NoTotalModel()))
    no mine total: every consistent assignment of the cells next to clues counts once;
    cells away from clues get no number
    >>> describe_model(NoTotalModel(Fraction(1, 5)))
    'no mine total: each covered cell a mine independently with density 1/5, conditioned on the clues'
    """
    if model.density is None:
        return ("no mine total: every consistent assignment of the cells next to clues counts once; "
                "cells away from clues get no number")
    return (f"no mine total: each covered cell a mine independently with density {model.density}, "
            "conditioned on the clues")


def describe_no_estimate(failed: NoEstimate) -> str:
    """Why no estimate could be made, in words.

    Examples
    --------
    >>> from mscsp.analysis.counting.combine import EstimateFailure, NoEstimate
    >>> describe_no_estimate(NoEstimate(EstimateFailure.FEW_PATHS, runs=16, good=1, total=True))
    'only 1 of 16 sampling runs found a path satisfying every clue and the mine total'
    >>> describe_no_estimate(NoEstimate(EstimateFailure.NO_START_WITH_TOTAL))
    'no layout that meets the mine total was found within the time'
    """
    what = "every clue and the mine total" if failed.total else "every clue"
    sentences = {
        "PILOT_OUT_OF_TIME": "the time ran out during the pilot sampling run",
        "TOO_FEW_RUNS": f"only {failed.runs} sampling runs fitted in the time left",
        "NO_PATH": f"no sampled path satisfied {what}",
        "FEW_PATHS": f"only {failed.good} of {failed.runs} sampling runs found a path satisfying {what}",
        "RUNS_DISAGREE": (f"the sampling runs disagree: {failed.effective or 0.0:.1f} of {failed.runs} runs "
                          "carry the weight"),
        "TOTAL_OUT_OF_REACH": "the part that could not be counted cannot hold a mine count the total allows",
        "NO_TIME_TO_START": "the time ran out before the layout chains could start",
        "NO_START": f"the solver found no layout satisfying {what} to start the layout chains from",
        "NO_START_WITH_TOTAL": "no layout that meets the mine total was found within the time",
        "NO_SWEEP": "the time ran out before the layout chains finished one sweep",
        "NOT_BUILT": "the time ran out while the part's equations were being gathered for sampling",
    }
    return sentences[failed.why.name]  # by name: explain reads counting's values, never imports them


def describe_gave_up(gave_up: GaveUp) -> str:
    """Why a count is not exact, in words: the parts and budgets, and a failed estimate.

    Examples
    --------
    >>> from mscsp.errors import Resource
    >>> from mscsp.analysis.counting.combine import GaveUp
    >>> describe_gave_up(GaveUp(1, (Resource.STATES,), "a counting table passed 0 states"))
    'exact counting of 1 part of the frontier ran out of its states budget (a counting table passed 0 states)'
    >>> from mscsp.analysis.counting.combine import EstimateFailure, NoEstimate
    >>> print(describe_gave_up(GaveUp(2, (Resource.MEMORY, Resource.TIME), "exact counting ran out of time",
    ...                               NoEstimate(EstimateFailure.TOO_FEW_RUNS, runs=1))))
    exact counting of 2 parts of the frontier ran out of its memory and time budget (exact counting
    ran out of time); no estimate either: only 1 sampling runs fitted in the time left
    """
    n = gave_up.parts
    text = (f"exact counting of {n} part{'s' if n != 1 else ''} of the frontier ran out of its "
            f"{' and '.join(r.value for r in gave_up.resources)} budget ({gave_up.detail})")
    if gave_up.estimate_failed:
        text += f"; no estimate either: {gave_up.estimate_failed}"
    return text
