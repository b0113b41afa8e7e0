"""Guessing policies: which covered cell to click when nothing is proven.

Each policy is a function of what the player sees (the position with its proven
mines flagged and the mine total), never of the layout, and all of them read the
exact counts of :func:`mscsp.counting.probabilities`. They form a ladder:

``least-p``
    the covered cell with the least mine probability (ties in row order).
``+progress``
    among the cells within ``tolerance`` of the least probability, the one most
    likely to be safe *and* to let the next position prove a safe cell (or open a
    zero), the "safety and progress" rule of JSMinesweeper's earlier versions.
``+lookahead``
    secondary safety, as David Hill's JSMinesweeper solver now uses: for each of
    the safest candidates, the probability of surviving the click *and* the best
    click after it, summed exactly over every number the first click can show
    (one exact count per number); ties by ``least-p``.

A number ``v`` at a candidate cell ``c`` is weighed by the layouts of the position
with ``c`` opened showing ``v``, counted by the same engine, so every comparison is
between exact fractions.

Examples
--------
>>> from mscsp.position import parse_position
>>> pos = parse_position("mines: 3\\n.....\\n.....\\n..1..\\n")
>>> [pos.geometry.coords(choose(pos, p)) for p in ("least-p", "+progress", "+lookahead")]
[(1, 1), (0, 2), (0, 2)]

Beside the 1 a cell is a mine one time in five, elsewhere two in nine; but [0,2],
a little less safe, more often shows a number that decides the next click.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from ..counting import Probabilities, count_components, probabilities
from ..errors import InconsistentError, InputError, parse_choice
from ..position import Mark, Position

__all__ = ["Policy", "choose", "outcomes", "Outcome"]


class Policy(Enum):
    """The rungs of the guessing ladder (see the module docstring)."""

    LEAST_P = "least-p"
    PROGRESS = "+progress"
    LOOKAHEAD = "+lookahead"

    @classmethod
    def parse(cls, name: "str | Policy") -> "Policy":
        return parse_choice(cls, name, "policy")


@dataclass(frozen=True)
class Outcome:
    """One number a clicked cell can show, with the position it leads to."""

    number: int
    layouts: int
    after: Probabilities
    least: Fraction | None

    @property
    def next_safety(self) -> Fraction:
        """The chance that the best next click is safe: 1 when a cell is proven safe."""
        return Fraction(1) if self.least is None else 1 - self.least

    @property
    def progress(self) -> bool:
        """Whether the position after it proves some covered cell safe."""
        return self.least == 0


def outcomes(position: Position, cell: int, cache: dict | None = None) -> list[Outcome]:
    """Every number ``cell`` can show, with its layouts and the exact probabilities after.

    The layouts of all outcomes add up to the layouts in which ``cell`` is safe.
    ``cache`` (see :func:`mscsp.counting.count_components`) lets the outcomes of
    several cells of one position share the counts of the parts they leave alone.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 1\\n...\\n")
    >>> [(o.number, o.layouts) for o in outcomes(pos, 0)]
    [(0, 1), (1, 1)]
    """
    g = position.geometry
    neighbours = g.neighbours(cell)
    flags = sum(position.grid[n] == Mark.FLAG for n in neighbours)
    covered = sum(position.grid[n] == Mark.COVERED for n in neighbours)
    out = []
    for v in range(flags, flags + covered + 1):
        grid = position.grid.copy()
        grid[cell] = v
        try:
            after = count_components(Position(g, grid, position.mines), cache=cache).probabilities()
        except InconsistentError:
            continue
        if after.layouts:
            known = [p for p in after.cells.values() if p is not None]
            out.append(Outcome(v, after.layouts, after, min(known) if known else None))
    return out


def choose(position: Position, policy: Policy | str = Policy.LEAST_P, *, candidates: int = 6,
           tolerance: Fraction = Fraction(1, 20), probs: Probabilities | None = None) -> int:
    """The cell ``policy`` clicks in ``position`` (flat index).

    Parameters
    ----------
    position : Position
        What the player sees, with nothing left to prove (proven mines may be flagged).
    policy : {'least-p', '+progress', '+lookahead'}
    candidates : int
        (``+lookahead``) how many of the safest cells are looked ahead from, at least.
    tolerance : Fraction
        Cells whose mine probability is within this of the least are candidates too.
    probs : Probabilities, optional
        The position's probabilities, when the caller has them.

    Raises
    ------
    InputError
        When no covered cell can be clicked, or (above ``least-p``) the
        probabilities are not exact.
    """
    policy = Policy.parse(policy)
    probs = probs if probs is not None else probabilities(position)
    if policy is Policy.LEAST_P:  # estimates will do: proven cells are exact either way
        best = probs.best()
        if best is None:
            raise InputError("no covered cell can be clicked")
        return best
    if not probs.exact or probs.layouts is None:
        raise InputError(f"policy {policy.value!r} needs exact probabilities")
    ranked = sorted((p, c) for c, p in probs.cells.items() if p != 1)
    if not ranked:
        raise InputError("no covered cell can be clicked")
    least = ranked[0][0]
    if least == 0:
        return ranked[0][1]
    if policy is Policy.PROGRESS:
        near = [c for p, c in ranked if p <= least + tolerance]
        cache: dict = {}
        score = {c: sum(o.layouts for o in outcomes(position, c, cache) if o.progress or o.number == 0)
                 for c in near}
        return max(near, key=lambda c: (score[c], -probs.cells[c], -c))
    pool = [c for i, (p, c) in enumerate(ranked) if i < candidates or p <= least + tolerance]
    total = probs.layouts
    best, best_key = None, None
    cache: dict = {}
    for c in pool:
        # P(c safe and shows v) * P(the best next click is safe | v), summed over v
        value = sum((Fraction(o.layouts, total) * o.next_safety for o in outcomes(position, c, cache)), Fraction(0))
        key = (value, -probs.cells[c], -c)
        if best_key is None or key > best_key:
            best, best_key = c, key
        if 1 - probs.cells[c] <= best_key[0]:
            break  # surviving two clicks is no likelier than surviving this one
    return best
