"""The solver ladder: single-point, subset and complete (SAT) deduction.

All three are functions of a :class:`~mscsp.position.Position` — what a player sees
— and never of a hidden layout. Each is sound (a cell it calls safe is safe in every
layout consistent with the clues, flags taken as mines); ``sat`` is also complete
(it finds every cell the clues, and the mine total when given, force).

Examples
--------
>>> from mscsp.position import parse_position
>>> r = solve(parse_position("mines: 2\\n.....\\n.121.\\n"))
>>> r.mines, r.safe
(((1, 0), (3, 0)), ((0, 0), (2, 0), (4, 0), (0, 1), (4, 1)))
>>> r.explanations[1].text
'the 2 at [2,1] needs two mines among [1,0], [2,0] and [3,0]; the 1 at [3,1] needs one mine among [2,0], [3,0], [4,0] and [4,1]: so [1,0] is a mine'
"""

from __future__ import annotations

import time
from functools import cache, partial

import numpy as np

from ...budget import DEFAULT_STATE_LIMIT, Budget
from ...errors import BudgetExceeded, Clash, InconsistentError, InputError
from ...position import Position
from ..constraints import ConstraintSystem, build_constraints, read_equations, system_of
from ..explain import TOTAL_CLASHES, contradiction_words, describe_deduction
from .local import reasons_at_once
from .propagation import Propagator, minimal_reason
from .result import (
    Contradiction,
    Deduction,
    Explanation,
    Proven,
    SolveResult,
    SolverName,
)
from .sat import SatEngine

__all__ = [
    "solve",
    "deduce",
    "SolverName",
    "SolveResult",
    "Deduction",
    "Explanation",
    "Contradiction",
    "Proven",
    "Propagator",
]


def contradiction(position: Position, system: ConstraintSystem | None, err: InconsistentError) -> Contradiction:
    """The answer for a position that has no layout: its clues as ``(x, y)``, and words.

    A clash seen at a glance keeps its own sentence; one found by a search is said
    clue by clue (:func:`~mscsp.analysis.explain.describe_contradiction`).
    """
    if err.clash is not Clash.NO_LAYOUT or system is None:
        text, names_total = str(err), err.clash in TOTAL_CLASHES
    else:
        text, names_total = contradiction_words(position, system, err.clues, err.uses_total)
    # a compiled board's clash can name hundreds of thousands of clues: their (x, y) in one pass
    ys, xs = np.divmod(np.sort(np.asarray(err.clues, dtype=np.int64)), position.geometry.width)
    return Contradiction(tuple(zip(xs.tolist(), ys.tolist())), err.uses_total, text, err.minimal, err.clash,
                         names_total)


def deduce(
    position: Position,
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    counter: str | None = "auto",
    time_limit: float = 30.0,
    state_limit: int = DEFAULT_STATE_LIMIT,
    system: ConstraintSystem | None = None,
    cache: dict | None = None,
) -> Proven:
    """The solver ladder's one entry point: the cells a rung proves, no explanations.

    Play loops (verification, generation, win rates), analysis and the web all ask
    here. The answer names the proven covered cells as ``(x, y)`` (and by flat index
    in ``by_index``, for the play loops); ``complete`` is False when the SAT search
    ran out of ``time_limit`` seconds (what it proved still holds), or, on a board
    of a million cells, the propagation of the lower rungs did.

    Parameters
    ----------
    position : Position
    solver : {'single-point', 'subset', 'sat'}
        The rung.
    use_total : bool
        Let the solver use the mine total when the position gives one.
    counter : {'auto', 'dp'} or None
        Whether exact counting decides the complete rung (ignored by the others; the
        answers are the same, the speed is not). ``'dp'`` reads the forced cells off
        the counting dynamic programme (a cell is forced exactly when its mine
        probability is 0 or 1; needs the mine total, and raises BudgetExceeded past
        ``state_limit``); None asks the SAT solver one question per covered cell
        group; ``'auto'`` counts when the total is known and falls back to SAT past
        ``state_limit``.
    time_limit : float
        Seconds for the SAT search.
    state_limit : int
        Table entries counting may use (``counter='auto'`` or ``'dp'``).
    system : ConstraintSystem, optional
        The position's constraints, when the caller has built them already.
    cache : dict, optional
        A cache of component tallies (a :class:`~mscsp.analysis.Survey`'s) that the
        counting engine reads and fills, so that a guess at the same position counts
        no component again.

    Raises
    ------
    InconsistentError
        When no layout fits the position (the clues are not minimised).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> pos = parse_position("mines: 2\\n.....\\n.121.\\n")
    >>> deduce(pos, "sat", counter="dp") == deduce(pos, "sat", counter=None)
    True
    >>> deduce(pos, "single-point")  # no clue decides a cell on its own
    Proven(safe=(), mines=(), complete=True)
    >>> deduce(pos, "subset").mines  # the total finishes it
    ((1, 0), (3, 0))
    """
    solver = SolverName.parse(solver)
    if counter not in ("auto", "dp", None):
        raise InputError(f"unknown counter {counter!r} for deduce; choose auto, dp or None")
    if not use_total and position.mines is not None:
        position = position.with_mines(None)
        system = cache = None
    system = system if system is not None else build_constraints(position)
    geometry = position.geometry
    if solver is not SolverName.SAT:
        prop = Propagator(system, subset=solver is SolverName.SUBSET, use_total=use_total,
                          budget=Budget.of(time_limit, None)).run()
        return Proven._of(geometry, prop.known, prop.finished)
    if counter == "dp" or (counter == "auto" and system.remaining is not None):
        from ..counting import (
            forced_cells,  # counting builds on the constraint layer, not on solvers
        )

        try:
            return Proven._of(geometry, forced_cells(position, system=system, state_limit=state_limit, cache=cache),
                              True)
        except BudgetExceeded:
            if counter == "dp":
                raise
    out = SatEngine(system, use_total=use_total, time_limit=time_limit).run(explain=False)
    return Proven._of(geometry, out.known, out.complete)


def solve(
    position: Position,
    solver: SolverName | str = SolverName.SAT,
    *,
    use_total: bool = True,
    explain: bool = True,
    time_limit: float = 30.0,
    system: ConstraintSystem | None = None,
    proven: dict[int, bool] | None = None,
    memory_limit: int | None = None,
    witnessed: tuple[frozenset[int], frozenset[int]] | None = None,
) -> SolveResult:
    """Prove what can be proven about a position, with reasons.

    Parameters
    ----------
    position : Position
        What the player sees.
    solver : {'single-point', 'subset', 'sat'}
        Which rung of the ladder decides the reported ``safe`` and ``mines``.
    use_total : bool
        Let the solver use the mine total when the position gives one.
    explain : bool
        Give each proven cell a small set of clues that forces it (and sentences).
    time_limit : float
        Seconds for the SAT search; what is not finished is reported as incomplete.
    system : ConstraintSystem, optional
        The position's equations, when the caller has built them already.
    proven : dict, optional
        Every cell the clues (and the total) force, cell -> True for a mine, when an
        exact count has established them already (:func:`mscsp.analysis.analyse`:
        a cell is forced exactly when its probability is 0 or 1). Consistency then
        counts as decided, and ``sat`` only explains these cells instead of
        proving them again. Wrong cells would be reported as proven: pass only
        what an exact method found.
    memory_limit : int, optional
        Bytes the process may hold while the clues are encoded for SAT; past it the
        search stops there and reports itself incomplete.
    witnessed : (frozenset, frozenset), optional
        Cells (flat indices) that layouts meeting every clue and the total were seen
        to give a mine, and cells they were seen to leave safe
        (:attr:`~mscsp.analysis.counting.Probabilities.witnessed`, from the layout
        chains): ``sat`` does not ask those values again. Pass only what such
        layouts showed.

    Returns
    -------
    SolveResult
        Consistency is always decided completely (by SAT), whatever the solver: a
        contradiction carries a minimal set of clues that cannot all hold.
    """
    solver = SolverName.parse(solver)
    started = time.perf_counter()
    if not use_total and position.mines is not None:
        position = position.with_mines(None)
        system = None
    if solver is SolverName.SAT and proven is not None and not explain:
        # an exact count decided everything, and nothing is to be explained: no equations needed
        return _result(solver, position, None, dict(proven), {}, True, 0, False, started)
    if solver is SolverName.SAT and proven is not None and system is None:
        # an exact count proved the cells (the quick path, which makes no system): the
        # compiled search explains them from the equations read off the grid, and the
        # system is made only if it cannot, or when a sentence is first read
        found = read_equations(position)
        if found is not None:
            reason = reasons_at_once(position, found, proven, started + time_limit, use_total=use_total)
            if reason is not None:
                return _result(solver, position, cache(partial(system_of, position, found)), dict(proven), reason,
                               True, 0, True, started)
            try:
                system = system_of(position, found)
            except InconsistentError as err:
                return SolveResult(solver, contradiction=contradiction(position, None, err))
    try:
        system = system if system is not None else build_constraints(position)
    except InconsistentError as err:
        return SolveResult(solver, contradiction=contradiction(position, None, err))
    engine = SatEngine(system, use_total=use_total, time_limit=time_limit, memory_limit=memory_limit,
                       witnessed=witnessed)
    try:
        if solver is SolverName.SAT and proven is not None:
            known, complete = dict(proven), True
            reason = engine.explain(known)
            calls = engine.calls
        elif solver is SolverName.SAT:
            out = engine.run(explain=explain)
            known, reason, complete, calls = out.known, out.reason, out.complete, out.calls
        else:
            try:
                clash = None if proven is not None else engine.contradiction()
                decided = True
            except BudgetExceeded:  # consistency undecided: say so, and prove what the rules prove
                clash, decided = None, False
            if clash is not None:
                raise clash
            subset = solver is SolverName.SUBSET
            prop = Propagator(system, subset=subset, use_total=use_total,
                              budget=Budget(started + time_limit, None)).run()
            known, reason, complete, calls = prop.known, prop.reason, decided and prop.finished, engine.calls
            if explain:  # each proven cell's reason, shrunk, while time allows; the rest say so
                deadline = started + time_limit
                shrunk = {}
                for c in sorted(known):
                    if time.perf_counter() > deadline:
                        break
                    shrunk[c] = minimal_reason(system, c, known[c], reason[c], subset=subset,
                                               use_total=use_total, deadline=deadline)
                reason = shrunk
    except InconsistentError as err:
        return SolveResult(solver, contradiction=contradiction(position, system, err), complete=True)
    return _result(solver, position, system, known, reason, complete, calls, explain, started)


def _result(solver: SolverName, position: Position, system: ConstraintSystem | None, known: dict[int, bool],
            reason: dict, complete: bool, calls: int, explain: bool, started: float) -> SolveResult:
    """:func:`solve`'s answer from the proven cells and their reasons (``system``, or
    the function that makes it, is read only to put the explanations in words). The
    cells are named at once; the deductions and explanations are put together from
    the reasons when first read."""
    geometry = position.geometry
    xy = geometry.xy
    if xy is None:  # a board too large for the table: name the cells one by one
        xy = _Coords(geometry)
    cells = sorted(known)
    safe = tuple([xy[c] for c in cells if not known[c]])
    mines = tuple([xy[c] for c in cells if known[c]])
    return SolveResult._assembled(solver, safe, mines, complete,
                                  {"sat_calls": calls, "seconds": time.perf_counter() - started},
                                  partial(_assemble, position, system, xy, cells, known, reason, explain))


def _assemble(position: Position, system: ConstraintSystem | None, xy, cells: list[int], known: dict[int, bool],
              reason: dict, explain: bool) -> tuple[tuple[Deduction, ...], tuple[Explanation, ...]]:
    """The deductions and explanations of :func:`_result`'s answer, ``cells`` in order."""
    # cells forced alike by the same clues share one key (and one explanation): the
    # groups in the order of their first cells, which is the order they are met in
    keys = []
    groups: dict[tuple, list[int]] = {}
    named: dict[tuple, tuple] = {}  # a reason's clues -> their (x, y)
    nothing = (False, (), False), (True, (), False)
    for cell in cells:
        why = reason.get(cell)
        if why is None:
            key = nothing[known[cell]]
        else:
            clues = why[0]
            if clues.__class__ is not tuple:
                clues = tuple(sorted(clues))
            key = (known[cell], clues, why[1])
        keys.append(key)
        group = groups.get(key)
        if group is None:
            groups[key] = [cell]
            if key[1] not in named:
                named[key[1]] = tuple([xy[c] for c in key[1]])
        else:
            group.append(cell)
    explanations = ()
    if explain:
        said: dict[int, str] = {}
        # put into words when read: callers show a few sentences of many, or none
        explanations = tuple([
            Explanation(tuple([xy[c] for c in group]), named[key[1]], key[2],
                        partial(_words, position, system, group, key[0], key[1], key[2], said))
            for key, group in groups.items()])
    deductions = tuple([Deduction(xy[c], key[0], named[key[1]], key[2]) for c, key in zip(cells, keys)])
    return deductions, explanations


def _words(position: Position, system, *args) -> str:
    """:func:`~mscsp.analysis.explain.describe_deduction`, ``system`` given as the
    system or as the function that makes it (once: its answer is cached)."""
    if system is not None and not isinstance(system, ConstraintSystem):
        system = system()
    return describe_deduction(position, system, *args)


class _Coords:
    """:meth:`~mscsp.board.Geometry.coords`, read as :attr:`~mscsp.board.Geometry.xy`
    is (``coords[cell]``), for a board too large for that table."""

    __slots__ = ("coords",)

    def __init__(self, geometry):
        self.coords = geometry.coords

    def __getitem__(self, cell: int) -> tuple[int, int]:
        return self.coords(cell)
