"""Where the layout chains start: a layout of the sampled components found by SAT.

The complete solver's witness (:meth:`mscsp.analysis.solvers.sat.SatEngine.witness`)
satisfies every clue; asked without the mine total it is found in a fraction of the
time (on a dense 30x16 lattice of clues, 0.03 s against 1.5 s with the total's
cardinality encoding), and the chains then walk its mine count to the total
themselves. With the total it is the fallback when they cannot.
"""

from __future__ import annotations

import numpy as np

from ....budget import Budget
from ....errors import BudgetExceeded, InconsistentError
from ...constraints import ConstraintSystem
from ...solvers.sat import SatEngine
from .blocks import Model

__all__ = ["witness_values"]


def _values(model: Model, layouts: list[dict[int, bool]]) -> list[np.ndarray]:
    """The value of every variable that puts the mines of each layout in its kinds.

    A variable's value is the one option whose mines in each of its kinds match the
    layout's; the options' mines per kind are tabled once for all the layouts."""
    if not layouts:
        return []
    sizes = np.asarray([len(k) for k in model.kinds], dtype=np.int64)
    cells = np.asarray([c for k in model.kinds for c in k], dtype=np.int64)
    bounds = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    # each option's mines in each kind: (variables, options, kinds of the variable)
    width = model.fraction.shape[2]
    slot_sizes = np.zeros((model.size, width), dtype=np.int64)
    slot_sizes[model.kind_var, model.kind_slot] = sizes
    held = np.rint(model.fraction * slot_sizes[:, None, :]).astype(np.int64)
    valid = np.arange(model.mines.shape[1])[None, :] < model.options[:, None]
    out = []
    for layout in layouts:
        mines = np.asarray([layout[c] for c in cells.tolist()], dtype=np.int64)
        per_kind = np.add.reduceat(mines, bounds) if len(cells) else np.zeros(0, dtype=np.int64)
        wanted = np.zeros((model.size, width), dtype=np.int64)
        wanted[model.kind_var, model.kind_slot] = per_kind
        match = (held == wanted[:, None, :]).all(axis=2) & valid
        out.append(match.argmax(axis=1).astype(np.int64))
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
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> from mscsp.analysis.counting.montecarlo.blocks import build_model
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
    return _values(model, layouts)
