"""A second, independent counting backend: OR-tools CP-SAT enumerates every solution.

Each component's cells are Boolean variables (cells, not groups), each clue a linear
equality; CP-SAT's solution callback tallies the solutions by mine count and, for
every cell, how often it holds a mine. It shares nothing with the dynamic programme of
:mod:`mscsp.analysis.counting` but the input equations, so the tests can demand
identical integers from both. Enumeration is exponential: this backend is for cross-checks
and small components (``mscsp solve --counter cpsat``).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ....errors import BudgetExceeded, Resource
from ...constraints import ConstraintSystem
from .combine import Group, Tally

__all__ = ["tally_component_cpsat"]


class _Tally(cp_model.CpSolverSolutionCallback):
    def __init__(self, variables, n):
        super().__init__()
        self.variables = variables
        self.ways = [0] * (n + 1)
        self.per_cell = [[0] * (n + 1) for _ in variables]

    def on_solution_callback(self) -> None:
        values = [self.Value(v) for v in self.variables]
        k = sum(values)
        self.ways[k] += 1
        for i, v in enumerate(values):
            if v:
                self.per_cell[i][k] += 1


def _groups(system: ConstraintSystem, component: tuple[int, ...]) -> list[Group]:
    """The component's cells in groups with identical clue sets (ordered by first cell), as the DP reports them."""
    by_set: dict[tuple[int, ...], list[int]] = {}
    for c in system.component_cells(component):
        by_set.setdefault(tuple(system.by_cell[c]), []).append(c)
    groups = [Group(tuple(cells), key) for key, cells in by_set.items()]
    groups.sort(key=lambda g: g.cells[0])
    return groups


def tally_component_cpsat(system: ConstraintSystem, component: tuple[int, ...], *, time_limit: float = 600.0) -> Tally:
    """Tallies of one component by enumerating all its solutions with CP-SAT.

    Raises
    ------
    BudgetExceeded
        If the enumeration does not finish within ``time_limit`` seconds.
    """
    cells = list(system.component_cells(component))
    index = {c: i for i, c in enumerate(cells)}
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"m{c}") for c in cells]
    for ci in component:
        con = system.constraints[ci]
        model.Add(sum(x[index[c]] for c in con.cells) == con.count)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # enumeration needs a single worker
    solver.parameters.max_time_in_seconds = time_limit
    callback = _Tally(x, len(cells))
    status = solver.Solve(model, callback)
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise BudgetExceeded(f"CP-SAT enumeration of a {len(cells)}-cell component did not finish in "
                             f"{time_limit:g} s", Resource.TIME)
    groups = _groups(system, component)
    mines = []
    for g in groups:
        row = [0] * (len(cells) + 1)
        for c in g.cells:
            for k, v in enumerate(callback.per_cell[index[c]]):
                row[k] += v
        mines.append(tuple(row))
    return Tally(tuple(groups), tuple(callback.ways), tuple(mines))
