"""Where the layout chains start: a layout of the sampled components found by SAT.

The complete solver's witness (:meth:`mscsp.analysis.solvers.sat.SatEngine.witness`)
satisfies every clue; asked without the mine total it is found in a fraction of the
time (on a dense 30x16 lattice of clues, 0.03 s against 1.5 s with the total's
cardinality encoding), and the chains then walk its mine count to the total
themselves. With the total it is the fallback when they cannot.
"""

from __future__ import annotations

import numpy as np

from ...budget import Budget
from ...errors import BudgetExceeded, InconsistentError
from ..constraints import ConstraintSystem
from ..solvers.sat import SatEngine
from .blocks import Model

__all__ = ["witness_values"]


def _values(model: Model, layout: dict[int, bool]) -> np.ndarray:
    """The value of every variable that puts the mines of ``layout`` in its kinds."""
    out = np.zeros(model.size, dtype=np.int64)
    sizes = np.asarray([len(k) for k in model.kinds])
    wanted: dict[int, list[tuple[int, int]]] = {}
    for kind, (v, slot) in enumerate(zip(model.kind_var.tolist(), model.kind_slot.tolist())):
        wanted.setdefault(v, []).append((slot, sum(layout[c] for c in model.kinds[kind])))
    for v, pairs in wanted.items():
        slots = [s for s, _ in pairs]
        mines = np.asarray([m for _, m in pairs])
        kinds = [k for k in np.flatnonzero(model.kind_var == v)]
        held = np.rint(model.fraction[v, : model.options[v], :][:, slots] * sizes[kinds][None, :])
        out[v] = int(np.flatnonzero((held == mines[None, :]).all(axis=1))[0])
    return out


def witness_values(model: Model, system: ConstraintSystem, components: list[tuple[int, ...]], budget: Budget, *,
                   total: bool, count: int = 1, rng: np.random.Generator | None = None,
                   more: Budget | None = None) -> list[np.ndarray]:
    """Up to ``count`` values of every variable of ``model`` (the variables of
    ``components``, in order) satisfying every clue, and the mine total when
    ``total``: different layouts where the solver finds them (random phases from
    ``rng``), fewer when ``budget``'s deadline passes (or ``more``'s, after the
    first), none when none is found.

    Without the total only the sampled components' clues are given to the solver.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.variables import build_problem
    >>> from mscsp.analysis.counting.blocks import build_model
    >>> s = build_constraints(parse_position("mines: 1\\n.1...\\n"))
    >>> m = build_model([build_problem(s, c) for c in s.components])
    >>> starts = witness_values(m, s, list(s.components), Budget.of(5), total=False, count=8,
    ...                         rng=np.random.default_rng(0))
    >>> sorted({int(v[0]) for v in starts})  # both values of the chain [0,0] = not [2,0]
    [0, 1]
    """
    if total:
        sub = system
    else:
        ids = sorted(e for comp in components for e in comp)
        constraints = tuple(system.constraints[e] for e in ids)
        cells = tuple(sorted({c for con in constraints for c in con.cells}))
        sub = ConstraintSystem(system.position, constraints, cells, None)
    seconds = budget.seconds_left()
    engine = SatEngine(sub, use_total=total, time_limit=seconds if seconds != float("inf") else 600.0,
                       memory_limit=budget.resident)
    try:
        layouts = engine.witnesses(count, rng if rng is not None else np.random.default_rng(0),
                                   None if more is None else more.deadline)
    except (BudgetExceeded, InconsistentError):
        return []
    return [_values(model, layout) for layout in layouts]
