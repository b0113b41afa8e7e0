"""Guessing policies: which covered cell to click when nothing is proven.

Each policy is a function of what the player sees (the position with its proven
mines flagged and the mine total), never of the layout, and all of them read the
exact counts of :mod:`mscsp.analysis.counting`. They form a ladder, each rung keeping the
one below for what it does not decide:

``least-p``
    the covered cell with the least mine probability (ties in row order).
``+progress``
    among the cells within ``tolerance`` of the least probability, the one most
    likely to be safe *and* to let the next position prove a safe cell (or open a
    zero), the "safety and progress" rule of JSMinesweeper's earlier versions.
``+lookahead``
    secondary safety, as David Hill's JSMinesweeper solver now uses: for each of
    the safest candidates, the probability of surviving the click *and* the next
    one, summed exactly over every number the first click can show (one exact count
    per number), the next click's safety blended four to one from the best and the
    second-best cell after it (:data:`SECOND_WEIGHT`: a position that leaves two good
    clicks is worth more than one that leaves one); ties by ``least-p``.
``+fifty``
    unavoidable guesses first, and no clicking for information where there is
    none: when some undecided cells are walled off by open numbers and proven mines
    and hold the same number of mines in every layout, no click elsewhere (nor the
    mine total) can ever tell their layouts apart, so one guess among them is
    needed sooner or later; it is taken now, the best of them by ``+lookahead``,
    before any avoidable risk. Failing those, a *pseudo-50/50*
    (:mod:`mscsp.play.pseudo`), a cell that is a mine only as one side of a pair
    or 2x2 block that nothing can ever tell from its twin, is guessed first the
    same way: the risk it carries is one the board already holds. A *dead*
    candidate, one that can show only one number, is passed over while any other
    candidate is left, and the tolerance that admits candidates is measured from
    the safest cell that is not dead (``_living_least``), as David Hill's solvers
    drop dead tiles before their cut-offs (see docs/decisions.md, "Tolerance measured
    from the safest living cell"). When the safest cells include one away from the
    numbers, each candidate away from them has its look-ahead value multiplied by its
    long-term 50/50 credit, ``1 + 9/10 * I / S`` after David Hill's solvers: ``I``
    the layouts in which it is the mine side of a dead pair or square the position
    does not show yet (:func:`~mscsp.play.pseudo.fifty_influence`), a guess due
    later anyway that a click now settles, ``S`` the layouts with it safe. It sends
    the classic start's second click to a far corner rather than along the edge
    from the first click's number (the far corner wins more; see docs/decisions.md,
    "Long-term 50/50 credit").
``+endgame``
    once at most :data:`~mscsp.play.endgame.ENDGAME_LAYOUTS` layouts remain, the
    move of exact expectimax over all of them (:mod:`mscsp.play.endgame`), optimal
    from there on; and the guess ``+fifty`` takes inside a walled-off set is the
    set's own exact optimum (:func:`~mscsp.play.endgame.solve_walled`).
``+deep``
    ``+endgame`` with a larger exact search, for more CPU a game: from
    :data:`~mscsp.play.endgame.DEEP_LAYOUTS` layouts, with
    :data:`~mscsp.play.endgame.DEEP_NODES` knowledge states a move. The search weighs
    the move ``+endgame``'s heuristic would play (without the endgame) first, and
    when it runs out of states it still plays a guess it proved to win more than that
    one (:func:`~mscsp.play.endgame.solve_from`), as David Hill's solvers do.

A number ``v`` at a candidate cell ``c`` is weighed by the layouts of the position
with ``c`` opened showing ``v``, counted by the same engine, so every comparison is
between exact fractions.

One module, not several: each rung of the ladder keeps the one below for what it does
not decide, and all of them share the candidate pool, the outcomes of a click and the
ranking, so the ladder reads top to bottom in one place.

Examples
--------
>>> from mscsp.position import parse_position
>>> pos = parse_position("mines: 3\\n.....\\n.....\\n..1..\\n")
>>> [choose(pos, p) for p in ("least-p", "+progress", "+lookahead")]
[(1, 1), (0, 2), (0, 2)]

Beside the 1 a cell is a mine one time in five, elsewhere two in nine; but [0,2],
a little less safe, more often shows a number that decides the next click.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..analysis import Survey
from ..board import Geometry
from ..errors import BudgetExceeded, Choice, InconsistentError, InputError
from ..position import Mark, Position
from .endgame import (
    DEEP_LAYOUTS,
    DEEP_NODES,
    ENDGAME_LAYOUTS,
    ENDGAME_NODES,
    Endgame,
    _click_wins,
    _solve_walled,
    solve_endgame,
    solve_from,
)
from .pseudo import INFLUENCE_SCALE, _fifty_influences, _pseudo_fifties

__all__ = ["Policy", "choose", "move", "rank", "Candidate", "Move", "outcomes", "Outcome", "unavoidable"]


#: The weight of the second-best next click in the look-ahead (see
#: :meth:`Outcome.blended_safety`), after David Hill's solvers: a position that leaves
#: two good clicks is worth more than one that leaves one (see docs/decisions.md,
#: "Second-best next click weighed one fifth"). Hill's engines take the two
#: next clicks among the cells that can show more than one number only; here every
#: cell counts: the living rule gave the same wins for 3-4 times the CPU (see
#: docs/decisions.md, "Living cells only for the look-ahead's next click").
SECOND_WEIGHT = Fraction(1, 5)

#: Take each kind of cell away from the numbers (see :func:`_pool`) from its first
#: cell column by column (x first, then y), as David Hill's solvers scan the board,
#: instead of row by row (the flat index). On classic Expert the first guess after
#: the corner's number is then (0, 15), Hill's, rather than (29, 0). Off by default
#: (see docs/decisions.md, "Hill's column-first corner").
COLUMN_FIRST = False

#: The default of :func:`move`'s ``edge_candidates``: how many of the safest cells next
#: to the numbers on the board's edge (fewer than eight neighbours) within the
#: tolerance the pool admits beyond its own. David Hill's solver often guesses at an
#: edge or corner where mscsp's pool holds interior cells only (see docs/decisions.md,
#: "Where the classic deficit to Hill sits"). Off by default: within the tolerance such
#: cells are almost always in the pool already (see docs/decisions.md, "Edge and corner
#: cells in the pool").
EDGE_CANDIDATES = 0

#: The default of :func:`move`'s ``room``: in the open game, pass over the candidates
#: in a small covered area (fewer than this many cells, see :func:`_roomy`) while one in
#: a larger area is left, as David Hill's solvers do (his space threshold, 8). It gains
#: two hundredths of a point on classic Expert and nothing on modern; 0 passes over
#: none (see docs/decisions.md, "Hill's space threshold").
ROOM = 8


class Policy(Choice, what="policy"):
    """The rungs of the guessing ladder (see the module docstring), weakest first."""

    LEAST_P = "least-p"
    PROGRESS = "+progress"
    LOOKAHEAD = "+lookahead"
    FIFTY = "+fifty"
    ENDGAME = "+endgame"
    DEEP = "+deep"

    def __ge__(self, other: "Policy") -> bool:
        order = list(Policy)
        return order.index(self) >= order.index(other)


@dataclass(frozen=True)
class Outcome:
    """One number a clicked cell can show, with what the position after it offers.

    ``least`` is the least mine probability among the covered cells that are not
    certainly mines afterwards; None when there are none (the game is then won).
    ``second`` is the second least (the least again when two cells share it; None
    when fewer than two cells are left).
    """

    number: int
    layouts: int
    least: Fraction | None
    second: Fraction | None = None

    @property
    def next_safety(self) -> Fraction:
        """The chance that the best next click is safe: 1 when a cell is proven safe
        or nothing is left to click."""
        return Fraction(1) if self.least is None else 1 - self.least

    def blended_safety(self, weight: Fraction) -> Fraction:
        """The next click's safety blended with the second-best click's:
        ``(1 - weight)`` times :attr:`next_safety` plus ``weight`` times the chance
        that the second safest cell is safe (a position with two good clicks left
        is worth more than one with one)."""
        first = self.next_safety
        if not weight:
            return first
        second = first if self.second is None else 1 - self.second
        return (1 - weight) * first + weight * second

    @property
    def progress(self) -> bool:
        """Whether the position after it proves some covered cell safe (or is won)."""
        return self.least is None or self.least == 0


def outcomes(survey: Survey, cell: tuple[int, int]) -> list[Outcome]:
    """Every number the covered cell ``(x, y)`` can show, with its layouts and the least
    mine probability after.

    The layouts of all outcomes add up to the layouts in which ``cell`` is safe. The
    outcomes' surveys share ``survey``'s cache of component tallies, so the parts of
    the board a click leaves alone are counted once for every cell of a position.

    Examples
    --------
    >>> from mscsp.analysis import Survey
    >>> from mscsp.position import parse_position
    >>> [(o.number, o.layouts, o.least) for o in outcomes(Survey(parse_position("mines: 1\\n...\\n")), (0, 0))]
    [(0, 1, Fraction(0, 1)), (1, 1, Fraction(0, 1))]
    """
    return list(_each_outcome(survey, survey.position.geometry.cell(cell)))


def _each_outcome(survey: Survey, cell: int) -> Iterator[Outcome]:
    """The outcomes of :func:`outcomes` (``cell`` a flat index) one at a time, least
    number first, so that a caller can stop once the rest cannot change its choice."""
    return map(_outcome, _each_pair(survey, cell))


def _each_pair(survey: Survey, cell: int) -> Iterator[tuple[int, int, tuple[int, int] | None, tuple[int, int] | None]]:
    """:func:`_each_outcome` as ``(number, layouts, least, second)`` with the two
    probabilities as unreduced pairs (:meth:`Survey._least_two_after_pairs`)."""
    covered, flags, _ = survey._neighbourhood(cell)
    for v in range(flags, flags + len(covered) + 1):
        try:
            layouts, least, second = survey._least_two_after_pairs(cell, v)
        except InconsistentError:
            continue
        if layouts:
            yield v, layouts, least, second


def _outcome(pairs: tuple[int, int, tuple[int, int] | None, tuple[int, int] | None]) -> Outcome:
    """One item of :func:`_each_pair` as an :class:`Outcome`."""
    number, layouts, least, second = pairs
    return Outcome(number, layouts, None if least is None else Fraction(*least),
                   None if second is None else Fraction(*second))


def unavoidable(survey: Survey) -> list[tuple[tuple[int, int], ...]]:
    """Sets of undecided cells one of which must be guessed, whatever happens elsewhere.

    A set qualifies when its cells touch no undecided cell outside it (every other
    covered neighbour is a proven mine), share no clue with one, lie next to a clue
    each, and hold the same number of mines in every layout: then neither a click
    elsewhere nor the mine total can ever tell its layouts apart. Each set's cells
    are ``(x, y)`` in row order, the sets in order of their first cell. The
    undecided cells are those with a mine probability strictly between 0 and 1.

    Examples
    --------
    >>> from mscsp.analysis import Survey
    >>> from mscsp.position import parse_position
    >>> unavoidable(Survey(parse_position("mines: 1\\n11\\n..\\n")))
    [((0, 1), (1, 1))]
    """
    undecided = {c for c, p in survey.probabilities.by_index.items() if p is not None and 0 < p < 1}
    g = survey.position.geometry
    return [tuple(map(g.coords, cells)) for cells in _unavoidable(survey, undecided)]


def _unavoidable(survey: Survey, undecided: set[int]) -> list[tuple[int, ...]]:
    """:func:`unavoidable` among the flat cells ``undecided``, as flat indices (the
    sets in order of their smallest cell), for the policies and the marks."""
    system = survey.system
    frontier = set(system.frontier)
    g = system.position.geometry
    # A set with a cell away from the numbers never qualifies (its mines trade with
    # the rest), so only frontier cells are joined, and a set touching an undecided
    # cell away from the numbers is set aside as tainted.
    parent = {c: c for c in undecided if c in frontier}
    tainted = {c for c in parent if any(n in undecided and n not in frontier for n in g.neighbours(c))}

    def find(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def join(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for c in parent:
        for n in g.neighbours(c):
            if n in parent:
                join(c, n)
    for con in system.constraints:
        inside = [c for c in con.cells if c in parent]
        for c in inside[1:]:
            join(inside[0], c)
    sets: dict[int, list[int]] = {}
    for c in parent:
        sets.setdefault(find(c), []).append(c)
    spoilt = {find(c) for c in tainted}
    return sorted(tuple(sorted(cells)) for root, cells in sets.items()
                  if root not in spoilt and survey._mine_count_fixed(cells))


@dataclass(frozen=True)
class Candidate:
    """A cell a policy weighed, with the exact values its rung computed (None where the
    rung did not compute one).

    Attributes
    ----------
    cell : (int, int)
        The cell, ``(x, y)``.
    probability : Fraction
        Its mine probability.
    lookahead : Fraction or None
        The chance of surviving it *and* the next click, that click's safety blended
        from the best and the second-best cell (:meth:`Outcome.blended_safety`;
        ``+lookahead`` and above).
    progress : Fraction or None
        The chance that it is safe and the position after it proves a cell safe or it
        shows a 0 (``+progress``, and beside ``lookahead`` from the same counts).
    win : Fraction or None
        The chance of winning when it is clicked now and play is optimal after, from the
        exact endgame search (``+endgame``, when it decided); inside a walled-off set,
        the chance of winning the set's own game.
    dead : bool or None
        Whether it can show one number only (so its click tells nothing), where its
        numbers were counted.
    credit : Fraction or None
        (``+fifty`` and above) the factor its ``lookahead`` was multiplied by for the
        potential 50/50s a click on it settles, ``1 + 9/10 * I / S``
        (:func:`~mscsp.play.pseudo.fifty_influence`); None where none was given.
    """

    cell: tuple[int, int]
    probability: Fraction
    lookahead: Fraction | None = None
    progress: Fraction | None = None
    win: Fraction | None = None
    dead: bool | None = None
    credit: Fraction | None = None


@dataclass(frozen=True)
class Move:
    """A policy's click ``cell``, ``(x, y)``, and what decided it.

    ``rung`` is the rung whose own rule chose the cell (a safe cell, when there is
    one, counts as ``least-p``'s); ``endgame`` is the exact search's answer when
    ``+endgame`` or ``+deep`` decided, with the win probability the click gives (when
    ``+deep``'s search was cut off, ``endgame.complete`` is False and the probability
    is that of its move, proven better than the heuristic's). When the search
    played a walled-off set alone (:func:`~mscsp.play.endgame.solve_walled`),
    ``walled`` holds its cells (``(x, y)``, like every cell here), and the
    answer's layouts and win probability are the set's own. When ``+fifty`` took a guess that was due, ``walled`` holds
    the walled-off set it came from, or ``pseudo`` the pseudo-50/50s it was
    chosen among (:func:`~mscsp.play.pseudo.pseudo_fifties`). With ``rank``,
    ``candidates`` holds the cells the deciding rung weighed, best first (the
    move's cell first); see :func:`rank`.
    """

    cell: tuple[int, int]
    rung: Policy
    endgame: Endgame | None = None
    walled: tuple[tuple[int, int], ...] | None = None
    pseudo: tuple[tuple[int, int], ...] | None = None
    candidates: tuple[Candidate, ...] = ()


def choose(position: Position, policy: Policy | str = Policy.LEAST_P, **options) -> tuple[int, int]:
    """The cell ``policy`` clicks in ``position``, ``(x, y)``; see :func:`move`
    for the options.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> choose(parse_position("mines: 1\\n.1...\\n"), "+lookahead")
    (3, 0)
    """
    return position.geometry.coords(_choose_index(position, policy, **options))


def _choose_index(position: Position, policy: Policy | str = Policy.LEAST_P, **options) -> int:
    """:func:`choose` as a flat index, for the play loops."""
    return _move_index(position, policy, **options)[0]


def move(position: Position, policy: Policy | str = Policy.LEAST_P, **options) -> Move:
    """The cell ``policy`` clicks in ``position``, with the rung that decided it.

    Parameters
    ----------
    position : Position
        What the player sees, with nothing left to prove (proven mines may be flagged).
    policy : {'least-p', '+progress', '+lookahead', '+fifty', '+endgame', '+deep'}
    candidates : int
        (``+lookahead`` and above) how many of the safest cells next to a number are
        weighed at least, and (``+progress`` and above) how many kinds of cell away
        from the numbers.
    tolerance : Fraction
        Cells whose mine probability is within this of the least are weighed too
        (up to twice ``candidates`` next to the numbers); ``+progress`` weighs only
        these.
    survey : Survey, optional
        The position's survey, when the caller has one (its probabilities and
        tallies are then not counted again).
    endgame_layouts, endgame_nodes : int, int or None
        (``+endgame`` and ``+deep``) the exact search runs when at most this many
        layouts remain, visiting at most this many knowledge states (past them the
        rung below decides; a state budget keeps the moves the same on every
        machine). By default the rung's own: :data:`~mscsp.play.endgame.ENDGAME_LAYOUTS`
        and :data:`~mscsp.play.endgame.ENDGAME_NODES` for ``+endgame``,
        :data:`~mscsp.play.endgame.DEEP_LAYOUTS` and :data:`~mscsp.play.endgame.DEEP_NODES`
        for ``+deep``.
    endgame_density : int or None
        (``+endgame`` and ``+deep``) the exact search also runs, past
        ``endgame_layouts``, when ``layouts * density**3 <= endgame_density``, ``density``
        the share of the undecided cells (covered, neither proven safe nor a proven mine,
        flagged or not) that are safe, compared exactly; David Hill's solvers search
        such positions, whose trees are small because few cells are safe (their value
        :data:`~mscsp.play.endgame.ENDGAME_DENSITY`). A search it starts that runs out of
        states falls back like any other. None (the default) keeps the layout count
        alone.
    rank : bool
        Also return the cells weighed, with their values, in ``Move.candidates``
        (see :func:`rank`). The cell chosen is the same; the rung's early stops are
        skipped so that every value is complete, which costs a few more counts.
    time_limit : float or None
        (with ``rank``, when the endgame decides) seconds for the searches that give
        each cell's win probability; cells not reached in time have none.
    second_weight : Fraction
        (``+lookahead`` and above) the weight of the second-best next click in the
        value of each number a cell can show (:meth:`Outcome.blended_safety`); 0
        weighs the best next click alone.
    edge_candidates : int
        (``+lookahead`` and above) also weigh up to this many of the safest cells next
        to the numbers on the board's edge (with fewer than eight neighbours: edges and
        corners) within ``tolerance`` of the least probability that the pool does not
        hold already; 0 adds none. By default :data:`EDGE_CANDIDATES`.
    room : int
        (``+lookahead`` and above, where the look-ahead decides) weigh only the
        candidates in a covered area of at least this many cells (:func:`_roomy`)
        while there is one; 0 weighs them all. By default :data:`ROOM`.

    Raises
    ------
    InputError
        When no covered cell can be clicked, or (above ``least-p``) the
        probabilities are not exact.
    """
    g = position.geometry
    cell, rung, end, walled, pseudo, listed = _move_index(position, policy, **options)
    return Move(g.coords(cell), rung, end, None if walled is None else tuple(map(g.coords, walled)),
                None if pseudo is None else tuple(map(g.coords, pseudo)), listed)


#: The default of :func:`move`'s ``endgame_layouts`` and ``endgame_nodes``: the rung's own.
_RUNG = object()


def _move_index(position: Position, policy: Policy | str = Policy.LEAST_P, *, candidates: int = 6,
                tolerance: Fraction = Fraction(1, 20), survey: Survey | None = None,
                endgame_layouts=_RUNG, endgame_nodes=_RUNG, endgame_density: int | None = None, rank: bool = False,
                time_limit: float | None = None, second_weight: Fraction = SECOND_WEIGHT,
                edge_candidates: int = EDGE_CANDIDATES, room: int = ROOM) -> tuple:
    """:func:`move` in the engines' flat indices: ``(cell, rung, endgame, walled,
    pseudo, candidates)``, the cells of ``walled`` and ``pseudo`` flat, the
    candidates already named by ``(x, y)``."""
    policy = Policy.parse(policy)
    deep = policy >= Policy.DEEP
    if endgame_layouts is _RUNG:
        endgame_layouts = DEEP_LAYOUTS if deep else ENDGAME_LAYOUTS
    if endgame_nodes is _RUNG:
        endgame_nodes = DEEP_NODES if deep else ENDGAME_NODES
    survey = Survey(position) if survey is None else survey
    probs = survey.probabilities
    if policy is Policy.LEAST_P:  # estimates will do: proven cells are exact either way
        best = probs.best_index()
        if best is None:
            raise InputError("no covered cell can be clicked")
        listed = ()
        if rank:
            least = sorted((p, c) for c, p in probs.by_index.items() if p is not None and p != 1)
            g = position.geometry
            listed = tuple(Candidate(g.coords(c), p)
                           for p, c in [(probs.by_index[best], best)] + [pc for pc in least if pc[1] != best])
        return best, Policy.LEAST_P, None, None, None, listed[:candidates]
    if not probs.exact or probs.layouts is None:
        raise InputError(f"policy {policy.value!r} needs exact probabilities")
    if probs.model is not None and None in probs.by_index.values():
        raise InputError(f"policy {policy.value!r} needs the mine total: without it the cells away from the "
                         "numbers have no probability")
    ranked = _ranked(probs.by_index, probs.groups)
    if not ranked:
        raise InputError("no covered cell can be clicked")
    if ranked[0][0] == 0:
        safe = tuple(Candidate(position.geometry.coords(c), p) for p, c in ranked if p == 0) if rank else ()
        return ranked[0][1], Policy.LEAST_P, None, None, None, safe
    searched = endgame_layouts  # the layouts the whole-board search may list
    if (policy >= Policy.ENDGAME and endgame_density is not None and probs.layouts > endgame_layouts
            and _dense_enough(probs.layouts, _safe_cells(position), len(ranked), endgame_density)):
        searched = probs.layouts
    better = None  # +deep: a move its cut-off search proved better than the heuristic's
    if deep and probs.layouts <= searched:
        heuristic = _move_index(position, Policy.FIFTY, candidates=candidates, tolerance=tolerance, survey=survey,
                                second_weight=second_weight, edge_candidates=edge_candidates, room=room)[0]
        end = solve_from(position, position.geometry.coords(heuristic), layout_limit=searched,
                         node_limit=endgame_nodes, survey=survey)
        if end is not None and end.complete:
            listed = (_by_wins(survey, probs.by_index, end, None, searched, endgame_nodes, time_limit)
                      if rank else ())
            return end.cell_index, Policy.DEEP, end, None, None, listed
        better = end  # a walled-off set's exact optimum, when it is found, is better still
    elif policy >= Policy.ENDGAME and probs.layouts <= searched:
        try:
            end = solve_endgame(position, layout_limit=searched, node_limit=endgame_nodes, survey=survey)
            listed = (_by_wins(survey, probs.by_index, end, None, searched, endgame_nodes, time_limit)
                      if rank else ())
            return end.cell_index, Policy.ENDGAME, end, None, None, listed
        except BudgetExceeded:
            pass  # too many states: the rung below decides
    weighed: list[Candidate] | None = [] if rank else None
    pool = _pool(position, survey.system.frontier, ranked, candidates, tolerance, edges=edge_candidates)
    if policy is Policy.PROGRESS:
        # progress is no reason to take more risk than the tolerance: early positions are
        # small and a risky cell often shows progress (see docs/decisions.md, "+progress
        # weighs only cells within the tolerance")
        pool = [c for c in pool if probs.by_index[c] <= ranked[0][0] + tolerance]
        cell = _progress(survey, pool, weighed)
        return cell, Policy.PROGRESS, None, None, None, _first(position.geometry.coords(cell), weighed)
    skip_dead, rung, walled, pseudo = False, Policy.LOOKAHEAD, None, None
    if policy >= Policy.FIFTY:
        forced = _unavoidable(survey, {c for _, c in ranked})
        if forced:
            # the set whose safest cell is safest: its guess is due anyway
            cells = min(forced, key=lambda cs: (min(probs.by_index[c] for c in cs), cs))
            if policy >= Policy.ENDGAME:
                try:  # a game of its own: its exact optimum is a best move of the whole
                    end = _solve_walled(position, cells, layout_limit=endgame_layouts, node_limit=endgame_nodes,
                                       survey=survey)
                    listed = (_by_wins(survey, probs.by_index, end, cells, endgame_layouts, endgame_nodes, time_limit)
                              if rank else ())
                    return end.cell_index, Policy.DEEP if deep else Policy.ENDGAME, end, cells, None, listed
                except BudgetExceeded:
                    pass
            pool = sorted(cells, key=lambda c: (probs.by_index[c], c))
            rung, walled = Policy.FIFTY, cells
        else:
            skip_dead = True
            found = _pseudo_fifties(survey)
            if found:  # their risk is one the board already holds
                pool = sorted(found, key=lambda c: (probs.by_index[c], c))
                rung, pseudo = Policy.FIFTY, tuple(found)  # already ascending
            else:
                # dead cells are passed over: the tolerance is measured from the safest living one
                living = _living_least(survey, ranked)
                if living != ranked[0][0]:
                    pool = _pool(position, survey.system.frontier, ranked, candidates, tolerance, least=living,
                                 edges=edge_candidates)
    if better is not None:
        listed = (_by_wins(survey, probs.by_index, better, None, searched, endgame_nodes, time_limit)
                  if rank else ())
        return better.cell_index, Policy.DEEP, better, None, None, listed
    if room and rung is Policy.LOOKAHEAD:
        roomy = _roomy(position, _mined(probs), pool, room)
        if roomy:  # a small area's guess can wait: what the rest of the board shows may settle it
            pool = roomy
    cell = _lookahead(survey, pool, skip_dead, weighed, second_weight)
    return cell, rung, None, walled, pseudo, _first(position.geometry.coords(cell), weighed)


def _safe_cells(position: Position) -> int:
    """The safe cells among those not yet revealed: every covered or flagged cell that
    is not one of the mine total's mines (the flags the player placed are proven mines)."""
    return position.covered_count + position.flag_count - position.mines


def _dense_enough(layouts: int, safe: int, undecided: int, limit: int) -> bool:
    """Whether ``layouts * (safe / undecided)**3 <= limit``, in integers: the density rule
    of :func:`move`'s ``endgame_density``.

    Examples
    --------
    >>> _dense_enough(2000, 5, 20, 250), _dense_enough(20000, 10, 20, 250)
    (True, False)

    A quarter of the cells safe weighs 2000 layouts as 2000 / 64 = 31.25; half of them
    weighs 20000 as 2500. At 2000 layouts and half the cells safe, 2000 / 8 = 250
    exactly: the rule holds at 250 and fails at 249.

    >>> _dense_enough(2000, 10, 20, 250), _dense_enough(2000, 10, 20, 249)
    (True, False)
    """
    return layouts * safe**3 <= limit * undecided**3


def _ranked(cells: dict[int, Fraction], groups=None) -> list[tuple[Fraction, int]]:
    """``sorted((p, c) for c, p in cells.items() if p != 1)``, comparing each group's
    probability once: the cells of a group share one Fraction object, and there are
    a few groups to a board of hundreds of cells. ``groups``, the ``(cells,
    probability)`` pairs of :attr:`~mscsp.analysis.counting.Probabilities.groups`
    when counting gave them, spares finding the groups cell by cell."""
    out: list[tuple[Fraction, int]] = []
    last, merged = None, []
    for p, members in sorted(_shared(cells, groups), key=lambda pm: pm[0]):
        if last is not None and p == last:  # equal values held by different objects
            merged.extend(members)
            continue
        if last is not None and last != 1:
            out.extend((last, c) for c in sorted(merged))
        last, merged = p, list(members)
    if last is not None and last != 1:
        out.extend((last, c) for c in sorted(merged))
    return out


def _shared(cells: dict[int, Fraction], groups=None) -> list[tuple[Fraction, list[int]]]:
    """The cells by the probability they share, ``(probability, cells)`` pairs: read
    off counting's ``groups`` when given, else found by the Fraction object each cell
    holds (the cells of a group share one)."""
    if groups is not None:
        return [(p, members) for members, p in groups]
    by_id: dict[int, tuple[Fraction, list[int]]] = {}
    for c, p in cells.items():
        group = by_id.get(id(p))
        if group is None:
            by_id[id(p)] = (p, [c])
        else:
            group[1].append(c)
    return list(by_id.values())


def rank(position: Position, policy: Policy | str = Policy.ENDGAME, **options) -> list[Candidate]:
    """The cells ``policy`` weighs in ``position``, best first, with their exact values.

    The first is the cell :func:`move` chooses; the others follow in the order of the
    deciding rung's own rule: the win probability when the endgame search decided
    (every cell that is not certainly a mine, then the safer, then row order), the
    look-ahead value for ``+lookahead`` and ``+fifty`` (cells that can show one number
    only last, where ``+fifty`` passes them over), the progress chance for
    ``+progress``, the mine probability for ``least-p`` (the ``candidates`` safest)
    and when some cell is proven safe (those cells). Options are those of
    :func:`move`.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 3\\n.....\\n.....\\n..1..\\n")
    >>> best = rank(pos, "+lookahead")[0]
    >>> best.cell, best.probability, best.lookahead
    ((0, 2), Fraction(2, 9), Fraction(133, 180))
    >>> [round(float(c.lookahead), 3) for c in rank(pos, "+lookahead")][:3]
    [0.739, 0.733, 0.717]

    Near the 1, cells are a mine one time in five, but [0,2] more often shows a number
    that decides the next click.
    """
    return list(move(position, policy, rank=True, **options).candidates)


def _first(cell: tuple[int, int], weighed: list["Candidate"] | None) -> tuple["Candidate", ...]:
    """The weighed candidates with the chosen one first (the rest in the order given)."""
    if not weighed:
        return ()
    return tuple([w for w in weighed if w.cell == cell] + [w for w in weighed if w.cell != cell])


def _by_wins(survey: Survey, probabilities: dict, end: Endgame, walled: tuple[int, ...] | None,
             layouts: int, nodes: int | None, time_limit: float | None) -> tuple["Candidate", ...]:
    """Every cell the endgame could click, with its exact win probability, most first
    (the search's own move first; cells not searched in time last, without one)."""
    try:
        wins = _click_wins(survey.position, walled, layout_limit=layouts, node_limit=nodes, time_limit=time_limit,
                          survey=survey)
    except BudgetExceeded:
        wins = {}
    cells = walled if walled is not None else [c for c, p in probabilities.items() if p != 1]
    first = end.cell_index
    rest = sorted((c for c in cells if c != first and probabilities[c] != 1),
                  key=lambda c: (wins.get(c) is None, -(wins.get(c) or 0), probabilities[c], c))
    g = survey.position.geometry
    return tuple(Candidate(g.coords(c), probabilities[c], win=wins.get(c)) for c in [first] + rest)


#: How many of the safest cells :func:`_living_least` looks at for one that can show
#: more than one number.
LIVING_LOOK = 12


def _living_least(survey: Survey, ranked: list[tuple[Fraction, int]], limit: int = LIVING_LOOK) -> Fraction:
    """The least mine probability among the cells that can show more than one number,
    looked for among the ``limit`` safest of ``ranked`` (``(probability, cell)``,
    safest first); the least of all when each of those can show one number only.

    A cell that can show one number only (a *dead* cell) tells nothing when opened,
    and ``+fifty`` passes it over while another candidate is left; so its chance is
    no yardstick for the others (David Hill's solvers drop dead tiles before their
    cut-offs too).

    Examples
    --------
    >>> from mscsp.analysis import Survey
    >>> from mscsp.position import parse_position
    >>> s = Survey(parse_position("mines: 4\\n1..1\\n2...\\n.2..\\n"))
    >>> ranked = _ranked(s.probabilities.by_index)
    >>> ranked[0], _living_least(s, ranked)  # [2,1] is the safest, but can show one number only
    ((Fraction(1, 5), 6), Fraction(2, 5))
    """
    for p, c in ranked[:limit]:
        shown = 0
        for _ in _each_pair(survey, c):
            shown += 1
            if shown > 1:
                return p
    return ranked[0][0]


def _pool(position: Position, frontier: tuple[int, ...], ranked: list[tuple[Fraction, int]], candidates: int,
          tolerance: Fraction, least: Fraction | None = None, edges: int = 0) -> list[int]:
    """The cells worth weighing, safest first: next to the numbers, the ``candidates``
    safest and those within ``tolerance`` of ``least`` (the least probability unless
    given; twice ``candidates`` at most), and up to ``edges`` more of the safest on
    the board's edge (fewer than eight neighbours) within that tolerance; away from
    them, where every cell has one probability, one cell of each kind (by how many
    covered neighbours it has, and how many of them are next to a number), fewest
    covered neighbours first, when that probability qualifies.

    Hill's solvers weigh every cell away from the numbers when fewer than 30 are left,
    and admit the cells next to the numbers whose chance of being safe is at least nine
    tenths of the best's; neither moved the wins measurably (see docs/decisions.md,
    "Every cell away from the numbers in the pool" and "Hill's nine-tenths admission
    to the pool")."""
    least = ranked[0][0] if least is None else least
    frontier = set(frontier)
    near = [(p, c) for i, (p, c) in enumerate(ranked) if c in frontier]
    pool = [pc for i, pc in enumerate(near) if i < candidates or (pc[0] <= least + tolerance and i < 2 * candidates)]
    if edges > 0 and len(near) > len(pool):
        # in a crowded frontier the cap can leave out every edge cell within the
        # tolerance, where Hill's solver often guesses and wins (docs/decisions.md,
        # "Where the classic deficit to Hill sits"); the pool is a prefix of ``near``
        g = position.geometry
        pool += [pc for pc in near[len(pool):] if pc[0] <= least + tolerance and _on_edge(g, pc[1])][:edges]
    away = [pc for pc in ranked if pc[1] not in frontier]
    if away and (away[0][0] <= least + tolerance or len(pool) < candidates):
        g = position.geometry
        if COLUMN_FIRST:  # every such cell has one probability: the order alone picks each kind's cell
            away.sort(key=lambda pc: (pc[0], pc[1] % g.width, pc[1]))
        # one gather over the neighbourhoods: this meets every covered cell of the board
        rows = g.neighbour_rows(np.fromiter((c for _, c in away), dtype=np.int64, count=len(away)))
        covered = np.append(position.covered, False)[rows]
        on_frontier = np.zeros(g.area + 1, dtype=bool)
        on_frontier[list(frontier)] = True
        # a cell's kind (covered neighbours, those of them next to a number) as one key
        # that sorts as the pair does; the first cell of each kind, kinds in key order
        kinds = covered.sum(axis=1) * 16 + (covered & on_frontier[rows]).sum(axis=1)
        firsts = np.unique(kinds, return_index=True)[1]
        pool += [away[i] for i in firsts[:candidates].tolist()]
    return [c for _, c in sorted(pool)]


def _roomy(position: Position, mined, cells: list[int], threshold: int) -> list[int]:
    """The cells of ``cells`` (flat) in a covered area of at least ``threshold`` cells.

    An area grows from a cell to the covered cells next to it that are not proven
    mines (in ``mined``, flat cells, or flagged), and over one revealed cell: to the open
    cells next to a revealed neighbour, so a thin wall of numbers does not split it
    (David Hill's space counter, with his threshold 8, defers a guess in a smaller area).

    Examples
    --------
    >>> from mscsp.analysis import Survey
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 3\\n.001....\\n0001....\\n0001....\\n0001....\\n")
    >>> probs = Survey(pos).probabilities.by_index
    >>> g = pos.geometry
    >>> mined = [c for c, p in probs.items() if p == 1]
    >>> [g.coords(c) for c in _roomy(pos, mined, [g.index(0, 0), g.index(5, 1)], 8)]  # (0, 0) is walled in
    [(5, 1)]
    """
    g = position.geometry
    open_ = position.covered.copy()
    open_[list(mined)] = False
    revealed = position.revealed
    large: set[int] = set()
    small: set[int] = set()
    for start in cells:
        if start in large or start in small:
            continue
        seen, queue, found = {start}, [start], False
        i = 0
        while i < len(queue) and not found:
            for n in g.neighbours(queue[i]):
                steps = g.neighbours(n) if revealed[n] else (n,)
                for k in steps:
                    if open_[k] and k not in seen:
                        if k in large:
                            found = True
                            break
                        seen.add(k)
                        queue.append(k)
                if found:
                    break
            if len(queue) >= threshold:
                found = True
            i += 1
        (large if found else small).update(seen)
    return [c for c in cells if c in large]


def _mined(probs) -> list[int]:
    """The cells (flat) that are mines in every layout, each group's probability
    compared once (:func:`_shared`)."""
    return [c for p, members in _shared(probs.by_index, probs.groups) if p == 1 for c in members]


def _on_edge(geometry: Geometry, cell: int) -> bool:
    """Whether ``cell`` (flat) has fewer than eight neighbours: on the board's edge or
    in a corner (or beside a hole).

    Examples
    --------
    >>> from mscsp.board import Geometry
    >>> g = Geometry(4, 3)
    >>> [_on_edge(g, g.index(x, y)) for x, y in ((0, 0), (2, 0), (1, 1), (3, 1))]
    [True, True, False, True]
    """
    return bool(geometry.degree[cell] < 8)


def _progress(survey: Survey, pool: list[int], weighed: list[Candidate] | None = None) -> int:
    """The cell of ``pool`` (safest first) whose click most often is safe and proves a
    cell safe or shows a 0; ties to the safer cell, then row order. With ``weighed``,
    every cell is weighed in full (no early stop, the same choice) and appended to it,
    best first."""
    probs = survey.probabilities
    prune = weighed is None
    best, best_key, keys = None, None, []
    for c in pool:
        safe = probs.layouts * (1 - probs.by_index[c])  # its layouts with progress are at most these
        if prune and best_key is not None and safe < best_key[0]:
            break  # and those of the cells after it fewer still
        score, seen, shown = 0, 0, 0
        for o in _each_outcome(survey, c):
            seen += o.layouts
            shown += 1
            if o.progress or o.number == 0:
                score += o.layouts
            if prune and best_key is not None and score + (safe - seen) < best_key[0]:
                break  # the numbers left cannot lift it to the best
        else:
            key = (score, -probs.by_index[c], -c)
            keys.append((key, Candidate(survey.position.geometry.coords(c), probs.by_index[c], progress=Fraction(score, probs.layouts), dead=shown == 1)))
            if best_key is None or key > best_key:
                best, best_key = c, key
    if weighed is not None:
        weighed.extend(w for _, w in sorted(keys, key=lambda kw: kw[0], reverse=True))
    return best


def _credits(survey: Survey, pool: list[int]) -> dict[int, Fraction]:
    """The long-term 50/50 credit of each cell of ``pool`` away from the numbers, when
    the safest cells of ``pool`` include one away from them: ``1 + INFLUENCE_SCALE * I / S``,
    with ``I`` the cell's :func:`~mscsp.play.pseudo.fifty_influence` and ``S`` the
    layouts with it safe (cells without one are left out).

    Hill's solvers give every candidate its credit, next to the numbers too, and also
    credit the cells a pair or square still needs as walls (his "enablers"), with half
    the layouts in which the structure forms. Neither moved the wins by a margin that
    paired games could resolve, and both cost more CPU (see docs/decisions.md,
    "Long-term 50/50 credit on every candidate and on enablers")."""
    probs = survey.probabilities
    frontier = set(survey.system.frontier)
    least = min(probs.by_index[c] for c in pool)
    if all(c in frontier for c in pool if probs.by_index[c] == least):
        return {}
    credits = {}
    away = [c for c in pool if c not in frontier and probs.by_index[c] != 1]
    for c, influence in zip(away, _fifty_influences(survey, away)):
        if influence:
            credits[c] = 1 + INFLUENCE_SCALE * influence / (probs.layouts * (1 - probs.by_index[c]))
    return credits


#: How far apart two look-ahead values must be in floating point before the floats
#: decide between them (or decide that a cell cannot win); closer, the exact values
#: decide. Each float value is a sum of at most nine products of correctly rounded
#: quotients, off by less than 1e-14.
_MARGIN = 1e-9


class _Weighed:
    """One cell's look-ahead value as :func:`_lookahead` weighs it: a float for the
    comparisons, the outcomes to make it exact when a comparison is too close."""

    __slots__ = ("cell", "probability", "credit", "alive", "approx", "outcomes", "_exact")

    def __init__(self, cell: int, probability: Fraction, credit: Fraction, alive: bool, approx: float,
                 outcomes: list):
        self.cell, self.probability, self.credit, self.alive = cell, probability, credit, alive
        self.approx, self.outcomes, self._exact = approx, outcomes, None

    def exact(self, total: int, second_weight: Fraction) -> Fraction:
        """The value exactly: each number's share of the layouts times its blended
        safety, times the credit (:meth:`Outcome.blended_safety`)."""
        if self._exact is None:
            value = Fraction(0)
            for outcome in map(_outcome, self.outcomes):
                value += Fraction(outcome.layouts, total) * outcome.blended_safety(second_weight)
            self._exact = value * self.credit
        return self._exact

    def beats(self, other: "_Weighed", total: int, second_weight: Fraction) -> bool:
        """Whether its key, (alive, value, safer, leftmost), is greater than ``other``'s."""
        if self.alive != other.alive:
            return self.alive
        if abs(self.approx - other.approx) > _MARGIN:
            return self.approx > other.approx
        mine, theirs = self.exact(total, second_weight), other.exact(total, second_weight)
        if mine != theirs:
            return mine > theirs
        return (-self.probability, -self.cell) > (-other.probability, -other.cell)


def _blended(least: tuple[int, int] | None, second: tuple[int, int] | None, weight: float) -> float:
    """:meth:`Outcome.blended_safety` in floating point, from the unreduced pairs."""
    first = 1.0 if least is None else 1.0 - least[0] / least[1]
    if not weight:
        return first
    return (1.0 - weight) * first + weight * (first if second is None else 1.0 - second[0] / second[1])


def _lookahead(survey: Survey, pool: list[int], skip_dead: bool, weighed: list[Candidate] | None = None,
               second_weight: Fraction = Fraction(0)) -> int:
    """The cell of ``pool`` (safest first) with the best chance of surviving it and the
    next click (that click's safety blended from the best and the second-best cell by
    ``second_weight``); with ``skip_dead``, cells that can show one number only are
    passed over while another is left, and when the safest cells include one away from
    the numbers, the value of each cell away from them is multiplied by its long-term
    50/50 credit (:func:`_credits`). With ``weighed``, every cell is weighed in full
    (no early stop: the choice is the same, since a stop only skips cells that cannot
    win: a blended safety is at most 1, times the cell's credit) and appended to it,
    best first, with its progress chance from the same counts.

    Values are compared in floating point and made exact only when two come within
    :data:`_MARGIN` of each other (a stop, too, needs a cell to fall short by more than
    that), so the choice is the one exact values give.

    Hill's solvers then swap the chosen cell for a safer one that is safe in every
    layout where the chosen one is (such a cell is at least as good whatever follows:
    clicking it first and the chosen cell after survives every layout the chosen cell
    survives, knowing one number more). Here the chosen cell almost never has one, and
    the swap changed no game's outcome for more CPU (see docs/decisions.md, "Hill's
    alternative move after the look-ahead")."""
    probs = survey.probabilities
    total = probs.layouts
    prune = weighed is None
    credits = _credits(survey, pool) if skip_dead else {}
    weight = float(second_weight)
    best: _Weighed | None = None
    done: list[tuple[_Weighed, int, int]] = []
    for c in pool:
        p = probs.by_index[c]
        credit = credits.get(c, 1)
        safe = 1.0 - float(p)  # the share of layouts with c safe
        scale = float(credit)
        if prune and best is not None and best.alive and safe * scale < best.approx - _MARGIN:
            if not credits:
                break  # surviving two clicks is no likelier than surviving this one, nor after it
            continue
        value, seen, shown, progress, outs = 0.0, 0, 0, 0, []
        for o in _each_pair(survey, c):
            number, layouts, least, second = o
            outs.append(o)
            value += layouts / total * _blended(least, second, weight)
            seen += layouts
            shown += 1
            if least is None or least[0] == 0 or number == 0:
                progress += layouts
            if (prune and best is not None and best.alive
                    and (value + safe - seen / total) * scale < best.approx - _MARGIN):
                break  # even if every number left made the next click safe, it would lose
        else:
            cand = _Weighed(c, p, credit, not (skip_dead and shown == 1), value * scale, outs)
            done.append((cand, progress, shown))
            if best is None or cand.beats(best, total, second_weight):
                best = cand
    if weighed is not None:
        order = sorted(done, key=lambda cps: (cps[0].alive, cps[0].exact(total, second_weight),
                                              -cps[0].probability, -cps[0].cell), reverse=True)
        coords = survey.position.geometry.coords
        weighed.extend(Candidate(coords(w.cell), w.probability, lookahead=w.exact(total, second_weight),
                                 progress=Fraction(progress, total), dead=shown == 1, credit=credits.get(w.cell))
                       for w, progress, shown in order)
    return None if best is None else best.cell
