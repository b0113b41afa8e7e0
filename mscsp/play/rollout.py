"""Rollouts where the look-ahead hesitates: candidates played out over sampled layouts.

A *rollout* of a base policy (Tesauro and Galperin, "On-line policy improvement using
Monte-Carlo search", NIPS 1996; Bertsekas, Tsitsiklis and Wu, "Rollout algorithms for
combinatorial optimization", J. Heuristics 3, 1997) scores each candidate move by the
games the base policy wins after it. With the exact value of every candidate, the
rollout's choice is never worse than the base policy's own; here the value is estimated
from a sample of layouts, drawn uniformly from those the position admits (:func:`sample_layouts`),
and every candidate is played on the same sample (common random numbers), so the
comparison between candidates carries less noise than each estimate alone.

The play after a candidate is the one :func:`mscsp.play.loop.play_game` gives: the
compiled deduction loop and the base policy at each stall, on a game that holds the
*sampled* layout, never the real one. The player's own game is not read: the position
and the mine total are all the sampler sees.

Examples
--------
>>> from mscsp.analysis import Survey
>>> from mscsp.position import parse_position
>>> survey = Survey(parse_position("mines: 1\\n1.\\n..\\n"))
>>> sample_layouts(survey, 4, 7).sum(axis=1).tolist()
[1, 1, 1, 1]
"""

from __future__ import annotations

import zlib

import numpy as np

from ..analysis import Survey
from ..board import Layout
from ..errors import InputError
from ..game import Game, Status
from ..position import Mark, Position
from ..sampling import as_generator

__all__ = ["sample_layouts", "rollout_wins", "position_seed"]


def _below(bitgen: np.random.BitGenerator, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` for a bound of any size (layout counts pass
    2**64 early in an Expert game): whole 64-bit draws, the top one masked to the
    bound's bits, rejected when not below it (fewer than two tries on average)."""
    bits = bound.bit_length()
    while True:
        value, have = 0, 0
        while have < bits:
            value = (value << 64) | int(bitgen.random_raw())
            have += 64
        value >>= have - bits
        if value < bound:
            return value


def sample_layouts(survey: Survey, count: int, rng) -> np.ndarray:
    """``count`` layouts drawn uniformly and independently from those the position
    admits with its mine total, one boolean row of the board's cells each (flags are
    mines).

    Each cell next to a number is decided in turn, a mine with the share of the
    layouts still admitted that have it a mine (:meth:`Survey.layouts_with`, exact
    integers); the mines left then go to the cells away from the numbers, every set
    of them equally likely.

    Parameters
    ----------
    survey : Survey
        The position's survey; its counts must be exact and the mine total known.
    count : int
        How many layouts.
    rng : int, numpy.random.Generator or numpy.random.SeedSequence

    Raises
    ------
    InputError
        Without the mine total or an exact count.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> rows = sample_layouts(Survey(parse_position("mines: 1\\n1.\\n..\\n")), 300, 1)
    >>> bool(rows[:, 0].any()), sorted({int(np.flatnonzero(r)[0]) for r in rows})
    (False, [1, 2, 3])
    """
    position = survey.position
    probs = survey.probabilities
    if position.mines is None or not probs.exact or probs.layouts is None:
        raise InputError("sampling layouts needs the mine total and an exact count")
    if count < 0:
        raise InputError(f"cannot draw {count} layouts")
    system = survey.system
    by_index = probs.by_index
    certain = [c for c, p in by_index.items() if p == 1]
    undecided = [c for c in system.frontier if 0 < by_index[c] < 1]
    rest = list(system.unconstrained)
    total = survey.layouts
    base = np.asarray(position.flagged, dtype=bool).ravel().copy()
    base[certain] = True
    generator = as_generator(rng)
    bitgen = generator.bit_generator
    out = np.zeros((count, position.geometry.area), dtype=bool)
    for row in out:
        row |= base
        mines: list[int] = []
        safes: list[int] = []
        left = total
        for c in undecided:
            with_mine = survey._layouts_with(mines + [c], safes)
            if _below(bitgen, left) < with_mine:
                mines.append(c)
                left = with_mine
            else:
                safes.append(c)
                left -= with_mine
        row[mines] = True
        # the cells away from the numbers are alike: the mines left fall on any set of them
        away = system.remaining - len(mines) - sum(1 for c in certain if c not in system.unconstrained)
        if away:
            chosen = generator.choice(len(rest), size=away, replace=False)
            row[[rest[i] for i in chosen]] = True
    return out


def position_seed(position: Position, seed: int = 0) -> np.random.SeedSequence:
    """The seed of a position's rollouts: the same position and ``seed`` draw the same
    layouts on any machine, whatever game it came up in.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 1\\n1.\\n..\\n")
    >>> position_seed(pos).entropy == position_seed(parse_position("mines: 1\\n1.\\n..\\n")).entropy
    True
    """
    grid = np.ascontiguousarray(position.grid, dtype=np.int8).tobytes()
    return np.random.SeedSequence([seed, zlib.crc32(grid), position.mines or 0, position.geometry.width])


def rollout_wins(position: Position, cells: list[int], layouts: np.ndarray, policy) -> list[int]:
    """For each flat cell of ``cells``, the games ``policy`` wins after clicking it,
    one game on each row of ``layouts`` (the same rows for every cell).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 1\\n...\\n")
    >>> rows = sample_layouts(Survey(pos), 30, 3)
    >>> wins = rollout_wins(pos, [0, 1], rows, "+endgame")
    >>> wins[0] == int((~rows[:, 0]).sum()), wins[1] < int((~rows[:, 1]).sum())
    (True, True)

    An end cell, when safe, shows which of the other two holds the mine; the middle
    one, when safe, shows a 1 whichever it is, and a 50/50 is left.
    """
    from .loop import play_game  # the loop imports the policies, which import this module

    geometry = position.geometry
    grid = np.asarray(position.grid).ravel()
    revealed = (grid >= 0).astype(np.uint8).tobytes()
    flagged = (grid == Mark.FLAG).astype(np.uint8).tobytes()
    wins = [0] * len(cells)
    for row in layouts:
        layout = Layout(geometry, row)
        for k, cell in enumerate(cells):
            game = Game(layout, record=False)
            game._adopt_proven(revealed, flagged)
            if game.status is Status.WON:
                raise InputError("the position is already won")
            # the base policy without rollouts of its own, whatever the defaults say
            record = play_game(game, geometry.coords(cell), policy=policy, options={"rollouts": 0})
            wins[k] += record.won
    return wins
