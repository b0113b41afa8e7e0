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

:func:`rollout_move` plays out the close candidates of a policy's look-ahead (those
whose value is within a margin of the best), where the look-ahead decides;
:func:`rollout_guess` makes it the ``guess`` of :func:`~mscsp.play.loop.play_game`, so a
whole game can be played with it. It sits above the loop and the policies, which it
uses both, rather than inside the ladder: it is a trial, not a rung (see
docs/decisions.md, "Rollouts where the look-ahead hesitates").

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
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from ..analysis import Survey
from ..board import Layout
from ..errors import InputError
from ..game import Game
from ..position import Mark, Position
from ..sampling import as_generator
from .loop import play_game
from .policies import Policy, move

__all__ = ["sample_layouts", "rollout_wins", "position_seed", "close_candidates", "rollout_move", "rollout_guess",
           "MARGIN", "WIDTH"]

#: Candidates whose look-ahead value is within this of the best one's are played out.
MARGIN = Fraction(1, 100)

#: At most this many candidates, best first, are played out.
WIDTH = 3


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
    geometry = position.geometry
    unopened = position.covered_count + position.flag_count
    grid = np.asarray(position.grid).ravel()
    revealed = (grid >= 0).astype(np.uint8).tobytes()
    flagged = (grid == Mark.FLAG).astype(np.uint8).tobytes()
    wins = [0] * len(cells)
    for row in layouts:
        if int(row.sum()) == unopened:  # every safe cell of this layout is open already
            raise InputError("the position is already won")
        layout = Layout(geometry, row)
        for k, cell in enumerate(cells):
            game = Game(layout, record=False)
            game._adopt_proven(revealed, flagged)
            record = play_game(game, geometry.coords(cell), policy=policy)
            wins[k] += record.won
    return wins


def close_candidates(position: Position, policy: Policy | str = Policy.ENDGAME, *, margin: Fraction = MARGIN,
                     width: int = WIDTH, survey: Survey | None = None) -> list[int]:
    """The flat cells a rollout would play out in ``position``: where ``policy``'s
    look-ahead decides, its choice first, then the other living candidates (those that
    can show more than one number, from ``+fifty`` up) whose look-ahead value is within
    ``margin`` of the best, ``width`` at most in all; just the policy's cell where fewer
    than two are that close or another rule decides.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 3\\n.....\\n.....\\n..1..\\n")
    >>> [pos.geometry.coords(c) for c in close_candidates(pos, "+lookahead", margin=Fraction(1, 50))]
    [(0, 2), (2, 1)]
    """
    policy = Policy.parse(policy)
    survey = Survey(position) if survey is None else survey
    g = position.geometry
    plain = move(position, policy, survey=survey)
    if plain.rung is not Policy.LOOKAHEAD:
        # ranked, an endgame move would also search every other cell's win probability
        return [g.cell(plain.cell)]
    chosen = move(position, policy, rank=True, survey=survey)  # the same cell, every value complete
    cell = g.cell(chosen.cell)
    if not chosen.candidates:
        return [cell]
    living = [c for c in chosen.candidates if not (policy >= Policy.FIFTY and c.dead)]
    if not living:
        return [cell]
    best = max(c.lookahead for c in living)
    close = [g.cell(c.cell) for c in living if best - c.lookahead <= margin]
    return ([cell] + [c for c in close if c != cell])[:width]


def rollout_move(position: Position, policy: Policy | str = Policy.ENDGAME, *, samples: int = 32,
                 margin: Fraction = MARGIN, width: int = WIDTH, seed: int = 0,
                 survey: Survey | None = None) -> tuple[int, int]:
    """``policy``'s move in ``position``, ``(x, y)``, or, where its look-ahead hesitates
    (:func:`close_candidates` gives more than one cell), the close candidate that wins
    most when each is played out by ``policy`` on the same ``samples`` layouts, drawn
    from :func:`position_seed` of the position and ``seed`` (ties keep the look-ahead's
    choice).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 3\\n.....\\n.....\\n..1..\\n")
    >>> rollout_move(pos, "+lookahead", samples=20, margin=Fraction(1, 50)) in [(0, 2), (2, 1)]
    True
    """
    survey = Survey(position) if survey is None else survey
    cells = close_candidates(position, policy, margin=margin, width=width, survey=survey)
    g = position.geometry
    if len(cells) < 2:
        return g.coords(cells[0])
    layouts = sample_layouts(survey, samples, position_seed(position, seed))
    wins = rollout_wins(position, cells, layouts, policy)
    return g.coords(cells[wins.index(max(wins))])


def rollout_guess(policy: Policy | str = Policy.ENDGAME, **options) -> Callable[[Position, int], tuple[int, int]]:
    """:func:`rollout_move` as the ``guess`` of :func:`~mscsp.play.loop.play_game`:
    ``guess(position, k)`` is the rollout move of ``policy`` with ``options``.

    Examples
    --------
    >>> from mscsp.board import PRESETS
    >>> from mscsp.game import Game
    >>> from mscsp.rules import generate
    >>> board = generate(PRESETS["beginner"], "safe", (0, 0), seed=3)
    >>> record = play_game(Game.from_board(board, record=False), board.click,
    ...                    guess=rollout_guess("+endgame", samples=4))
    >>> record.won in (True, False)
    True
    """
    return lambda position, k: rollout_move(position, policy, **options)
