"""Exact optimal play on small boards: the best win probability any player can reach.

A player's knowledge is the set of opened cells and their numbers; the layouts
consistent with it (and with the first-click rule and the mine count) are equally
likely. Counting in whole layouts keeps everything exact: for a set ``S`` of
consistent layouts, ``W(S)`` is the number of them that the best strategy wins, so
the win probability is ``W(S) / |S|``.

- When every safe cell is open, ``W(S) = |S|``.
- When some covered cell is safe in every layout of ``S``, opening it loses
  nothing (knowledge only grows), so the search opens it and sums ``W`` over the
  numbers it can show. Cells are opened one at a time; a zero's neighbours are then
  safe in every layout and open next, which is the game's flood fill.
- Otherwise the player must guess: ``W(S)`` is the largest, over covered cells
  ``c``, of the sum of ``W`` over the numbers ``c`` shows in the layouts where it is
  safe. A guess wins at most the layouts where it is safe, so candidates are tried
  safest first and the search stops as soon as no remaining one can beat the best.

Knowledge states are memoised (the opened cells and their numbers determine
``S``); cells safe in every layout are opened together, split by the numbers they
show, so the states between one such cell and the next are never stored. For the
optimum, states that are mirror images of each other under a symmetry of the board
that fixes the first click share an entry, since they have the same value.

The same recursion with the guess chosen by a policy, which sees only the player's
position, gives that policy's exact win probability on the same board, so the gap
to the optimum is exact too. Here mirror images do not share an entry: a policy
that breaks ties by position may play them differently.

Most states hold one or two layouts, and those have a value without a search: one
layout is known and won; two are won both when a cell safe in both shows a
different number in each, and one otherwise, since every guess is then safe in one
of them only (:meth:`Search.settle`).

One module, not several: the whole-board search, its bit-set form for the
endgame (:class:`SmallSearch`) and the three questions asked of it (the optimum, a
policy's value, a policy's regrets) share one recursion, its memo and its private
helpers; apart, each would import the others' internals.

This is exhaustive search in the spirit of the small-board analyses of optimal
Minesweeper play. Measured on one core: 6x6 with 6 mines and an opening in the
corner (906,192 layouts) takes about 110 s for the optimum and 20-45 s a policy;
6x6 with 5 mines and a safe corner click 81 s for the optimum, most of it guesses
tried and pruned.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Callable

import numpy as np

from ..board import Geometry, Spec
from ..errors import BudgetExceeded, InputError, Resource
from ..position import Mark, Position
from ..rules import FirstClickRule

__all__ = ["Optimum", "Regret", "Search", "SmallSearch", "optimal_play", "policy_play", "regrets", "MAX_LAYOUTS"]

#: Layouts the search enumerates at most (6x6 with 6 mines has 1,623,160 for the
#: safe rule).
MAX_LAYOUTS = 4_000_000

#: A guessing rule as a function: the player's position (nothing left to prove) ->
#: the covered cell to click, ``(x, y)`` (the rungs of
#: :class:`mscsp.play.policies.Policy` are such functions through ``choose``).
Chooser = Callable[[Position], tuple[int, int]]


def _flat(choose: Chooser | None) -> Callable[[Position], int] | None:
    """``choose`` answering the flat index the search plays."""
    if choose is None:
        return None
    return lambda position: position.geometry.cell(choose(position), "policy's click")


@dataclass(frozen=True)
class Optimum:
    """The exact win probability from a first click, and how it was found.

    Attributes
    ----------
    spec : Spec
    rule : FirstClickRule
    click : (int, int)
    layouts : int
        Layouts the rule allows for this click, all equally likely.
    wins : int
        How many of them the strategy wins.
    states : int
        Knowledge states searched.
    seconds : float
    """

    spec: Spec
    rule: FirstClickRule
    click: tuple[int, int]
    layouts: int
    wins: int
    states: int
    seconds: float

    @property
    def probability(self) -> Fraction:
        """``wins / layouts``, exactly."""
        return Fraction(self.wins, self.layouts)


def out_of(resource: Resource, node_limit: int | None = None) -> BudgetExceeded:
    """The error of a search that ran out of its states (``node_limit``) or its time."""
    if resource is Resource.STATES:
        return BudgetExceeded(f"the exact search visited its {node_limit} states", Resource.STATES)
    return BudgetExceeded("the time limit ran out in the exact search", Resource.TIME)


class Search:
    """Memoised expectimax over a fixed list of equally likely layouts of some cells.

    Columns are the cells still covered when the search starts; ``mines[l, j]``
    says whether layout ``l`` has a mine in column ``j`` and ``numbers[l, j]`` is
    the number column ``j`` shows when opened in that layout. Every layout holds
    the same number of mines. Used from a first click on a whole board
    (:func:`optimal_play`) and from the end of a game (:mod:`mscsp.play.endgame`).

    Parameters
    ----------
    mines, numbers : numpy.ndarray
        ``(layouts, columns)`` arrays, bool and int8.
    symmetries : list of list of int, optional
        Column permutations that map the layouts onto themselves (states equal
        under one share a memo entry); the identity alone by default.
    deadline : float, optional
        ``time.perf_counter()`` value past which the search raises BudgetExceeded.
    node_limit : int, optional
        Knowledge states the search may visit before it raises BudgetExceeded
        (states): a budget that, unlike time, gives the same answer on every machine.
    see : callable, optional
        ``see(layouts, opened, certain_mines) -> Position``: what the player sees,
        for searches that follow a policy.
    batch : bool
        Open every cell that is safe in all layouts in one step (split by the numbers
        they show together) rather than one cell at a time. The values are the same,
        since the knowledge once all of them are open is the same in either order,
        but far fewer states are visited; the endgame search keeps one cell at a time
        because its state budget is counted in those states.
    few : bool
        Value a set of one or two layouts at once rather than search it
        (:meth:`settle`). The values are the same and far fewer states are visited
        (sets of one or two layouts are most of a whole board's states); off for the
        endgame search, for the reason ``batch`` is.
    """

    def __init__(self, mines: np.ndarray, numbers: np.ndarray, *, symmetries: list[list[int]] | None = None,
                 deadline: float | None = None, see: Callable | None = None, node_limit: int | None = None,
                 batch: bool = False, few: bool = False):
        self.mines, self.numbers, self.deadline, self.see, self.batch = mines, numbers, deadline, see, batch
        self.few = few
        self.nodes, self.node_limit = 0, node_limit
        self.columns = mines.shape[1]
        self.safe_total = self.columns - (int(mines[0].sum()) if len(mines) else 0)
        # a state's image under a symmetry ``perm`` shows at ``perm[c]`` what it showed at ``c``, so
        # its codes are the state's codes read through the inverse permutation
        self.inverses = (np.argsort(np.asarray(symmetries), axis=1)
                         if symmetries and len(symmetries) > 1 else None)
        self.memo: dict[bytes, tuple[int, bool]] = {}  # W, or an upper bound on it

    def check_time(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise out_of(Resource.STATES, self.node_limit)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise out_of(Resource.TIME)

    def reveal(self, layouts: np.ndarray, cell: int) -> list[np.ndarray]:
        """The layouts where ``cell`` is safe, split by the number it shows."""
        safe = layouts[~self.mines[layouts, cell]]
        shown = self.numbers[safe, cell]
        return [safe[shown == v] for v in np.flatnonzero(np.bincount(shown, minlength=9)).tolist()]

    # -- a set of layouts: an array of row indices here (see SmallSearch) -----------------
    @staticmethod
    def count(layouts: np.ndarray) -> int:
        """How many layouts a set holds."""
        return len(layouts)

    @staticmethod
    def first(layouts: np.ndarray) -> int:
        """The set's first layout (its row in ``mines``)."""
        return int(layouts[0])

    def everything(self) -> np.ndarray:
        """The set of every layout."""
        return np.arange(len(self.mines))

    def wins(self, layouts: np.ndarray, opened: tuple[int, ...], choose: Chooser | None, alpha: int = -1) -> int:
        """W(S) for the knowledge ``opened`` (ascending columns), or a bound when it is small.

        Returns W(S) exactly when it exceeds ``alpha``; otherwise some ``u`` with
        ``W(S) <= u <= alpha``, which is all a caller that already has ``alpha``
        needs (the pruning of expectimax search: Ballard's star1).
        """
        n = self.count(layouts)
        if len(opened) == self.safe_total:
            return n
        if n <= 2 and self.few:
            return self.settle(layouts, opened)
        key = self.key(self.first(layouts), opened)
        known = self.memo.get(key)
        if known is not None and (known[1] or known[0] <= alpha):
            return known[0]
        self.check_time()
        covered, mine_count = self.covered(layouts, opened)
        safe = [c for c, m in zip(covered, mine_count) if m == 0]
        if len(safe) > 1 and self.batch:
            value, exact = self.sum_over(*self.open_all(layouts, opened, np.array(safe)), choose, alpha)
        elif safe or choose is not None:
            # free information (a cell safe in every layout), or the policy's guess
            cell = safe[0] if safe else choose(
                self.see(layouts, opened, [c for c, m in zip(covered, mine_count) if m == n]))
            value, exact = self.sum_parts(layouts, opened, cell, choose, alpha)
        else:
            value, exact, _ = self.best_guess(layouts, opened, covered, mine_count, alpha)
        self.memo[key] = (value, exact)
        return value

    def settle(self, layouts: np.ndarray, opened: tuple[int, ...]) -> int:
        """W(S) of a set of one or two layouts, not yet won, without a search.

        One layout is known, so every safe cell is opened: W = 1. Of two, opening
        the cells safe in both (which loses nothing) tells them apart, W = 2, if
        one of those cells shows a different number in each; otherwise every
        covered cell left is a mine in both (flagged) or in exactly one, so any
        guess is safe in one layout only, after which that layout is known: W = 1,
        whichever cell is guessed, by the best player or by a policy (which never
        opens a proven mine).
        """
        if len(layouts) == 1:
            return 1
        a, b = int(layouts[0]), int(layouts[1])
        closed = np.ones(self.columns, dtype=bool)
        closed[list(opened)] = False
        both = closed & ~self.mines[a] & ~self.mines[b]
        return 2 if bool((self.numbers[a, both] != self.numbers[b, both]).any()) else 1

    def covered(self, layouts: np.ndarray, opened: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The covered columns and, for each, how many of ``layouts`` put a mine there."""
        closed = np.ones(self.columns, dtype=bool)
        closed[list(opened)] = False
        covered = np.flatnonzero(closed)
        return covered.tolist(), self.mines[layouts].sum(axis=0)[covered].tolist()

    def best_guess(self, layouts: np.ndarray, opened: tuple[int, ...], covered: list[int],
                   mine_count: list[int], alpha: int = -1) -> tuple[int, bool, int | None]:
        """The best guess's W, whether it is exact (it is when above ``alpha``), and
        the column guessed (the first of the safest among equals; None when pruned)."""
        n = self.count(layouts)
        value, exact, ceiling, best = 0, False, 0, None
        for i in sorted(range(len(mine_count)), key=mine_count.__getitem__):  # stable: safest, then leftmost
            bound = n - mine_count[i]  # a guess wins at most where it is safe
            need = max(alpha, value)
            if bound <= need:
                ceiling = max(ceiling, bound)
                break  # so does every cell after this one
            won, done = self.sum_parts(layouts, opened, covered[i], None, need)
            if done:
                value, exact, best = won, True, covered[i]
            else:
                ceiling = max(ceiling, won)
        if not exact or value <= alpha:
            return max(value, ceiling), False, None
        return value, True, best

    def key(self, layout: int, opened: tuple[int, ...]) -> bytes:
        """The memo key of a knowledge state, the same for every image of it under a
        symmetry of the board that keeps the first click in place: per column, 0 when
        covered and one more than its number when open (the least image, bytewise)."""
        cells = list(opened)
        codes = np.zeros(self.columns, dtype=np.int8)
        codes[cells] = self.numbers[layout, cells] + 1
        if self.inverses is None:
            return codes.tobytes()
        return min(row.tobytes() for row in codes[self.inverses])

    def open_all(self, layouts: np.ndarray, opened: tuple[int, ...],
                 cells: np.ndarray) -> tuple[list[np.ndarray], tuple[int, ...]]:
        """The knowledge states that opening all of ``cells`` (safe in every layout)
        leads to: the layouts split by the numbers they show, and the opened cells."""
        return self.split(layouts, cells), tuple(sorted(opened + tuple(cells.tolist())))

    def from_click(self, cell: int, choose: Chooser | None = None) -> int:
        """W over every layout, from the first click at column ``cell``."""
        with _deep_recursion():
            return sum(self.wins(part, (cell,), choose) for part in self.reveal(self.everything(), cell))

    def split(self, layouts: np.ndarray, cells: np.ndarray) -> list[np.ndarray]:
        """``layouts`` (in which every one of ``cells`` is safe) split by the numbers
        ``cells`` show together."""
        shown = self.numbers[np.ix_(layouts, cells)]
        if len(cells) <= 19:  # 9**19 < 2**63: one integer per layout
            codes = shown.astype(np.int64) @ (9 ** np.arange(len(cells), dtype=np.int64))
            _, inverse = np.unique(codes, return_inverse=True)
        else:
            _, inverse = np.unique(shown, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        order = np.argsort(inverse, kind="stable")
        return np.split(layouts[order], np.cumsum(np.bincount(inverse))[:-1])

    def sum_parts(self, layouts: np.ndarray, opened: tuple[int, ...], cell: int, choose: Chooser | None,
                  alpha: int) -> tuple[int, bool]:
        """W after opening ``cell``: the sum over the numbers it shows, exact when it
        exceeds ``alpha``; else ``(u, False)`` with the sum at most ``u <= alpha``."""
        return self.sum_over(self.reveal(layouts, cell), _insert(opened, cell), choose, alpha)

    def sum_over(self, parts: list[np.ndarray], after: tuple[int, ...], choose: Chooser | None,
                 alpha: int) -> tuple[int, bool]:
        """W summed over ``parts``, the knowledge states ``after`` opens, with the
        bound of :meth:`sum_parts`."""
        count = self.count
        parts = sorted(parts, key=count, reverse=True)
        bound = sum(map(count, parts))
        for part in parts:
            rest = bound - count(part)
            w = self.wins(part, after, choose, alpha - rest)
            bound = rest + w
            if bound <= alpha:
                return bound, False
        return bound, True


class SmallSearch(Search):
    """:class:`Search` over a few hundred layouts, each set of them one Python integer.

    A set of layouts is a bit set (bit ``l`` for row ``l``), and each column keeps
    the set of layouts with a mine there and, per number, the set where it is safe
    and shows that number: splitting a set by what a click shows is then a few
    ``&`` of integers, and its size a ``bit_count``, where the array form pays
    NumPy's fixed cost per call on arrays of a few dozen rows. The search visits the
    same states in the same order, so its answers and state counts are those of
    :class:`Search`; the endgame of a game (:mod:`mscsp.play.endgame`) uses it.
    """

    def __init__(self, mines: np.ndarray, numbers: np.ndarray, *, deadline: float | None = None,
                 node_limit: int | None = None):
        super().__init__(mines, numbers, deadline=deadline, node_limit=node_limit)
        rows, columns = mines.shape
        weights = [1 << r for r in range(rows)]
        mine_rows = mines.T.tolist()
        shown_rows = numbers.T.tolist()
        self.mine_bits = [sum(w for w, m in zip(weights, col) if m) for col in mine_rows]
        self.shows = []
        for col, shown in zip(mine_rows, shown_rows):
            by_number = [0] * 9
            for w, m, v in zip(weights, col, shown):
                if not m:
                    by_number[v] |= w
            self.shows.append(by_number)
        self.rows = numbers.tolist()

    @staticmethod
    def count(layouts: int) -> int:
        return layouts.bit_count()

    @staticmethod
    def first(layouts: int) -> int:
        return (layouts & -layouts).bit_length() - 1

    def everything(self) -> int:
        return (1 << len(self.mines)) - 1

    def reveal(self, layouts: int, cell: int) -> list[int]:
        return [part for part in (layouts & v for v in self.shows[cell]) if part]

    def covered(self, layouts: int, opened: tuple[int, ...]) -> tuple[list[int], list[int]]:
        shut = set(opened)
        covered = [c for c in range(self.columns) if c not in shut]
        bits = self.mine_bits
        return covered, [(layouts & bits[c]).bit_count() for c in covered]

    def key(self, layout: int, opened: tuple[int, ...]) -> bytes:
        if self.inverses is not None:
            return super().key(layout, opened)
        codes = bytearray(self.columns)
        row = self.rows[layout]
        for c in opened:
            codes[c] = row[c] + 1
        return bytes(codes)

    def split(self, layouts: int, cells: np.ndarray) -> list[int]:
        rows = [r for r in range(len(self.mines)) if layouts >> r & 1]
        parts = Search.split(self, np.array(rows, dtype=np.int64), cells)
        return [sum(1 << int(r) for r in part) for part in parts]


def _start(spec: Spec, rule: FirstClickRule, click: int, deadline: float | None, symmetric: bool = True,
           batch: bool = True, few: bool = True) -> Search:
    """The search over every layout ``rule`` allows for a first click at ``click``;
    ``symmetric`` lets states that are images of each other share a memo entry, which
    is right for the optimum but not for a policy that breaks ties by position, and
    ``batch`` and ``few`` are :class:`Search`'s."""
    g = spec.geometry
    if g.has_holes:
        raise InputError("exact optimal play is for rectangular boards")
    excluded = set(rule.excluded(g, click)) | {click}
    allowed = [c for c in range(g.area) if c not in excluded]
    total = comb(len(allowed), spec.mines)
    if total > MAX_LAYOUTS:
        raise InputError(f"{total:,} layouts is more than the {MAX_LAYOUTS:,} exact search handles")
    mines = np.zeros((total, g.area), dtype=bool)
    for i, chosen in enumerate(combinations(allowed, spec.mines)):
        mines[i, list(chosen)] = True
    numbers = _numbers(g, mines)

    def see(layouts: np.ndarray, opened: tuple[int, ...], certain: np.ndarray) -> Position:
        """What the player sees: the open numbers, proven mines flagged, the mine total."""
        grid = np.full(g.area, Mark.COVERED, dtype=np.int8)
        grid[list(opened)] = numbers[layouts[0], list(opened)]
        grid[certain] = Mark.FLAG
        return Position(g, grid, spec.mines)

    return Search(mines, numbers, symmetries=_symmetries(g, click) if symmetric else None, deadline=deadline,
                  see=see, batch=batch, few=few)


def _symmetries(g: Geometry, click: int) -> list[list[int]]:
    """The symmetries of the rectangle (as cell permutations) that fix ``click``:
    the layouts the rule allows, and so every value, are the same under them."""
    w, h = g.width, g.height
    maps = [lambda x, y: (x, y), lambda x, y: (w - 1 - x, y), lambda x, y: (x, h - 1 - y),
            lambda x, y: (w - 1 - x, h - 1 - y)]
    if w == h:
        maps += [lambda x, y: (y, x), lambda x, y: (h - 1 - y, w - 1 - x), lambda x, y: (h - 1 - y, x),
                 lambda x, y: (y, w - 1 - x)]
    out = []
    for f in maps:
        perm = [f(*g.coords(c))[1] * w + f(*g.coords(c))[0] for c in range(g.area)]
        if perm[click] == click:
            out.append(perm)
    return out


def _insert(opened: tuple[int, ...], cell: int) -> tuple[int, ...]:
    return tuple(sorted(opened + (cell,)))


@contextmanager
def _deep_recursion():
    """Room for the searches' recursion, whose depth is at most one level per cell."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _numbers(g: Geometry, mines: np.ndarray) -> np.ndarray:
    """Each layout's number on every cell (mines included; they are never read)."""
    out = np.zeros(mines.shape, dtype=np.int8)
    for c in range(g.area):
        out[:, c] = mines[:, list(g.neighbours(c))].sum(axis=1)
    return out


@dataclass(frozen=True)
class Regret:
    """A position where a policy's guess wins fewer layouts than the best guess.

    Both counts assume optimal play after the guess, so ``cost`` is what this one
    decision loses; over the positions a policy meets, the costs add up to its gap
    to the optimum exactly (:func:`regrets`).

    Attributes
    ----------
    position : Position
        What the player sees (proven mines flagged, the mine total).
    layouts : int
        Layouts consistent with it.
    chosen, best : (int, int)
        The policy's guess and an optimal one (the safest of the optimal guesses,
        then row order).
    chosen_wins, best_wins : int
        Layouts won by optimal play after each.
    """

    position: Position
    layouts: int
    chosen: tuple[int, int]
    chosen_wins: int
    best: tuple[int, int]
    best_wins: int

    @property
    def cost(self) -> int:
        """Layouts the policy's guess loses here: ``best_wins - chosen_wins``."""
        return self.best_wins - self.chosen_wins


def _begin(spec: Spec, rule: FirstClickRule | str, click: tuple[int, int]) -> tuple[FirstClickRule, int]:
    rule = FirstClickRule.parse(rule)
    if rule not in (FirstClickRule.SAFE, FirstClickRule.OPENING):
        raise InputError(f"exact play is defined for the 'safe' and 'opening' rules, not {rule.value!r}")
    return rule, spec.geometry.cell(click, "click")


def _play(spec: Spec, rule: FirstClickRule | str, click: tuple[int, int], choose: Chooser | None,
          time_limit: float | None) -> Optimum:
    started = time.perf_counter()
    rule, cell = _begin(spec, rule, click)
    search = _start(spec, rule, cell, None if time_limit is None else started + time_limit, choose is None)
    wins = search.from_click(cell, _flat(choose))
    return Optimum(spec, rule, spec.geometry.coords(cell), len(search.mines), wins, len(search.memo),
                   time.perf_counter() - started)


def optimal_play(spec: Spec, rule: FirstClickRule | str, click: tuple[int, int], *,
                 time_limit: float | None = 600.0) -> Optimum:
    """The exact best win probability from a first click at ``click`` under ``rule``.

    Parameters
    ----------
    spec : Spec
        A small rectangular board (up to about two million layouts).
    rule : {'safe', 'opening'}
    click : (int, int)
        ``(x, y)`` of the first click.
    time_limit : float or None
        Seconds at most; past them BudgetExceeded.

    Examples
    --------
    >>> o = optimal_play(Spec(4, 4, 3), "safe", (0, 0))
    >>> o.layouts, o.probability > Fraction(1, 2)
    (455, True)
    >>> optimal_play(Spec(3, 1, 1), "safe", (0, 0)).probability  # [0,0] shows 0 or 1
    Fraction(1, 1)
    """
    return _play(spec, rule, click, None, time_limit)


def policy_play(spec: Spec, rule: FirstClickRule | str, click: tuple[int, int], policy: Chooser, *,
                time_limit: float | None = 600.0) -> Optimum:
    """The exact win probability of a guessing policy from the same start.

    The player opens every cell safe in all consistent layouts (what complete
    deduction with the mine total proves) and, when none is left, clicks the cell
    ``policy`` picks from the position it sees. Every layout is played, so the
    result is exact and comparable with :func:`optimal_play`.

    Examples
    --------
    >>> first_covered = lambda position: position.covered_xy[0]
    >>> p = policy_play(Spec(4, 4, 3), "safe", (0, 0), first_covered).probability
    >>> p <= optimal_play(Spec(4, 4, 3), "safe", (0, 0)).probability
    True
    """
    return _play(spec, rule, click, policy, time_limit)


def regrets(spec: Spec, rule: FirstClickRule | str, click: tuple[int, int], policy: Chooser, *,
            time_limit: float | None = 600.0) -> list[Regret]:
    """Where a policy's guesses lose against optimal play, each with its exact cost.

    The policy is followed from the first click over every layout, as in
    :func:`policy_play`. At each guess, the layouts that optimal play wins after the
    policy's click are compared with those it wins after the best click. A layout
    meets each position of the policy's play at most once, so the costs of the
    positions where the two differ add up to the gap between
    :func:`optimal_play` and :func:`policy_play`: the policy's gap, taken apart
    decision by decision.

    Returns
    -------
    list of Regret
        The positions where the policy's guess costs layouts, costliest first (then
        in the order play meets them).

    Examples
    --------
    >>> first_covered = lambda position: position.covered_xy[0]
    >>> spec = Spec(4, 4, 3)
    >>> lost = regrets(spec, "safe", (0, 0), first_covered)
    >>> gap = optimal_play(spec, "safe", (0, 0)).wins - policy_play(spec, "safe", (0, 0), first_covered).wins
    >>> sum(r.cost for r in lost) == gap
    True
    """
    started = time.perf_counter()
    rule, cell = _begin(spec, rule, click)
    best = _start(spec, rule, cell, None if time_limit is None else started + time_limit)
    found: list[Regret] = []

    def follow(layouts: np.ndarray, opened: tuple[int, ...]) -> None:
        n = len(layouts)
        if len(opened) == best.safe_total:
            return
        best.check_time()
        covered, mine_count = best.covered(layouts, opened)
        safe = [c for c, m in zip(covered, mine_count) if m == 0]
        if safe:
            parts, after = best.open_all(layouts, opened, np.array(safe))
            for part in parts:
                follow(part, after)
            return
        position = best.see(layouts, opened, [c for c, m in zip(covered, mine_count) if m == n])
        chosen = position.geometry.cell(policy(position), "policy's click")
        after = _insert(opened, chosen)
        parts = best.reveal(layouts, chosen)
        chosen_wins = sum(best.wins(part, after, None) for part in parts)
        top, _, top_cell = best.best_guess(layouts, opened, covered, mine_count)
        if top > chosen_wins:
            g = position.geometry
            found.append(Regret(position, n, g.coords(chosen), chosen_wins, g.coords(top_cell), top))
        for part in parts:
            follow(part, after)

    with _deep_recursion():
        for part in best.reveal(np.arange(len(best.mines)), cell):
            follow(part, (cell,))
    return sorted(found, key=lambda r: -r.cost)
