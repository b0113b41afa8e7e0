"""What a position says about guessing: dead cells, unavoidable guesses, pseudo-50/50s.

Three kinds of covered cell that a strong player treats apart, each found from what
the player sees (never the layout) by the exact counts of :mod:`mscsp.analysis`:

*dead*
    a cell that can show one number only, in every layout where it is safe: opening
    it tells nothing new (JSMinesweeper's solver calls such cells dead and never
    guesses them while another cell is left);
*unavoidable*
    a set of undecided cells walled off from the rest, holding the same number of
    mines in every layout, so that no click elsewhere nor the mine total can ever
    tell its layouts apart: one of its cells must be guessed sooner or later (two
    cells with one mine are the classic 50/50); see
    :func:`~mscsp.play.policies.unavoidable`;
*pseudo-50/50*
    a cell that is a mine only as one side of a pair or 2x2 block that nothing can
    tell from its twin; see :mod:`mscsp.play.pseudo`.

Examples
--------
>>> from mscsp.analysis import Survey
>>> from mscsp.position import parse_position
>>> pos = parse_position("mines: 1\\n11\\n..\\n")
>>> found = guess_marks(Survey(pos))
>>> found.unavoidable, found.dead
([((0, 1), (1, 1))], [(0, 1), (1, 1)])

The two covered cells under the 1s hold the mine between them, and each, when safe,
can only show 1.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..analysis import Survey
from ..errors import InconsistentError
from ..position import Mark
from .policies import _unavoidable
from .pseudo import _pseudo_fifties

__all__ = ["GuessMarks", "guess_marks", "dead_cells"]


@dataclass(frozen=True)
class GuessMarks:
    """The cells :func:`guess_marks` found, as ``(x, y)`` in row order.

    All three are None while some covered cell is proven safe: they are sought when
    a guess is due, and opening that cell may tell the layouts of a set apart (a dead
    cell would stay dead, but finding them costs a count or two per cell, so they are
    left for when they matter). ``complete`` is False when the time ran out before
    every cell was checked for deadness (those found are dead all the same).
    """

    dead: list[tuple[int, int]] | None
    unavoidable: list[tuple[tuple[int, int], ...]] | None
    pseudo: list[tuple[int, int]] | None
    complete: bool = True


def dead_cells(survey: Survey, deadline: float | None = None) -> tuple[list[tuple[int, int]], bool]:
    """The undecided covered cells that can show one number only, as ``(x, y)`` in row
    order, and whether every candidate was checked before ``deadline`` (a
    :func:`time.perf_counter` value).

    A cell with no undecided neighbour is dead at once; for the others, each value the
    cell could show is counted (one count of its component) until two values have
    layouts, fewest undecided neighbours first, where dead cells are likeliest. Cells
    away from the numbers that touch another undecided cell away from them are not
    checked: that neighbour can be a mine or not whatever else holds, so the number
    varies, save in rare cases missed here.
    """
    position, probs, system = survey.position, survey.probabilities, survey.system
    g = position.geometry
    frontier = set(system.frontier)
    undecided = {c for c, p in probs.by_index.items() if p is not None and 0 < p < 1}
    order = []
    for c in undecided:
        around = g.neighbours(c)
        if c not in frontier and any(n in undecided and n not in frontier for n in around):
            continue
        order.append((sum(n in undecided for n in around), c))
    dead = []
    for unknown, c in sorted(order):
        if not unknown:  # every neighbour decided: one number only
            dead.append(c)
            continue
        if deadline is not None and time.perf_counter() > deadline:
            return list(map(g.coords, sorted(dead))), False
        around = g.neighbours(c)
        flags = sum(position.grid[n] == Mark.FLAG for n in around)
        covered = sum(position.grid[n] == Mark.COVERED for n in around)
        shown = 0
        for v in range(flags, flags + covered + 1):
            try:
                shown += survey._opened_index(c, v).layouts > 0
            except InconsistentError:
                continue
            if shown > 1:
                break
        if shown == 1:
            dead.append(c)
    return list(map(g.coords, sorted(dead))), True


def guess_marks(survey: Survey, *, time_limit: float | None = None) -> GuessMarks:
    """Dead cells, unavoidable sets and pseudo-50/50s of a position counted exactly
    with its mine total, when no cell is proven safe (else all None).

    Parameters
    ----------
    survey : Survey
        The position; its counts must be exact and use the mine total.
    time_limit : float or None
        Seconds for the dead-cell checks (the other two are one pass each).

    Raises
    ------
    InputError
        Without the mine total or exact counts.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    probs = survey.probabilities
    undecided = {c for c, p in probs.by_index.items() if p is not None and 0 < p < 1}
    if any(p == 0 for p in probs.by_index.values()):
        return GuessMarks(None, None, None)
    g = survey.position.geometry
    sets = [tuple(map(g.coords, cells)) for cells in _unavoidable(survey, undecided)]
    pseudo = list(map(g.coords, _pseudo_fifties(survey)))
    dead, complete = dead_cells(survey, deadline)
    return GuessMarks(dead, sets, pseudo, complete)
