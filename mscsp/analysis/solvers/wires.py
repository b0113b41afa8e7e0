"""Small clashes on boards of long wires: chains of links shrunk as single units.

A board compiled from a formula (Kaye's reduction) is mostly *links* — clues that
touch two covered cells and need one mine — chained into wires thousands of cells
long; the clues that decide anything are the few gadget numbers between them. A
clash on such a board needs those numbers and the stretches of wire that join them,
and dropping one link of a stretch cuts the wire, which is as good as dropping all
of it. So every maximal stretch of links between two *important* cells (cells of a
gadget number, ends and branch points of wires) becomes one unit, encoded as one
selector-guarded equivalence of its two ends (or their negation, for an odd number
of links), and the units are shrunk by deletion — the classic deletion-based MUS
extraction (J. Marques-Silva, "Minimal unsatisfiability: models, algorithms and
applications", ISMVL 2010) on a formula the size of the gadgets, not of the board.
A set minimal over units is minimal over clues: no gadget number and no link can be
dropped.

Only clues matter here, not the mine total (compiled boards have none).
"""

from __future__ import annotations

import threading
import time

from ..constraints import ConstraintSystem, is_link
from .encoding import exactly

__all__ = ["wire_clash", "prune_hanging"]


def _segments(system: ConstraintSystem, links: list[int], important: set[int]) -> list[tuple[int, int, int, list[int]]]:
    """Maximal stretches of links: ``(end, other end, parity, link ids)``.

    Inner cells of a stretch are touched by exactly two links and no other clue; a
    ring of links with no important cell becomes a stretch from one cell to itself.
    """
    constraints = system.constraints
    adj: dict[int, list[tuple[int, int]]] = {}
    for e in links:
        a, b = constraints[e].cells
        adj.setdefault(a, []).append((b, e))
        adj.setdefault(b, []).append((a, e))
    stops = important | {c for c, edges in adj.items() if len(edges) != 2}
    used: set[int] = set()
    out = []

    def walk(start: int, cell: int, link: int) -> None:
        path = [link]
        used.add(link)
        while cell not in stops:
            (n1, e1), (n2, e2) = adj[cell]
            cell, link = (n2, e2) if e1 == path[-1] else (n1, e1)
            if link in used:  # back at the start of a ring
                break
            used.add(link)
            path.append(link)
        out.append((start, cell, len(path) % 2, path))

    for start in sorted(stops & adj.keys()):
        for cell, link in adj[start]:
            if link not in used:
                walk(start, cell, link)
    for e in links:  # rings touching nothing else
        if e not in used:
            a, b = constraints[e].cells
            stops.add(a)
            walk(a, b, e)
    return out


def prune_hanging(units: list[tuple[list[int], list[int]]], keep: list[int]) -> list[int]:
    """Drop, again and again, every link or stretch of wire with an end that no other
    kept unit touches: any layout of the others extends along it, so the rest clashes
    exactly when the whole did. ``units[i]`` is ``(cells it touches, ends)``; a unit
    with no ends (a gadget's number) is never dropped."""
    uses: dict[int, int] = {}
    for i in keep:
        for c in units[i][0]:
            uses[c] = uses.get(c, 0) + 1
    by_cell: dict[int, list[int]] = {}
    for i in keep:
        for c in units[i][1]:
            by_cell.setdefault(c, []).append(i)
    alive = set(keep)
    queue = [i for i in keep if units[i][1] and min(uses[c] for c in units[i][1]) == 1]
    while queue:
        i = queue.pop()
        if i not in alive or min(uses[c] for c in units[i][1]) != 1:
            continue
        alive.discard(i)
        for c in units[i][0]:
            uses[c] -= 1
            if uses[c] == 1:
                queue.extend(j for j in by_cell.get(c, ()) if j in alive)
    return [i for i in keep if i in alive]


def wire_clash(system: ConstraintSystem, eq_ids: list[int], *, deadline: float, needed: frozenset[int] = frozenset(),
               conflicts: int = 100_000) -> tuple[list[int], bool] | None:
    """A small set of the clues ``eq_ids`` that no layout satisfies: ``(clues, minimal)``.

    ``needed`` are clues known to belong to every clash found here (they are not
    tried again). ``minimal`` is False when the deadline came before every unit was
    shown to be needed (the set is still a clash). None when the clues are
    satisfiable or the first question runs out of time.
    """
    from pysat.solvers import (
        Solver,  # imported when needed, as in mscsp.analysis.solvers.sat._Part
    )

    constraints = system.constraints
    links = [e for e in eq_ids if is_link(constraints[e])]
    others = [e for e in eq_ids if not is_link(constraints[e])]
    important = {c for e in others for c in constraints[e].cells}
    segments = _segments(system, links, important)
    if time.perf_counter() > deadline:
        return None
    var: dict[int, int] = {}

    def lit(cell: int) -> int:
        return var.setdefault(cell, len(var) + 1)

    for e in others:
        for c in constraints[e].cells:
            lit(c)
    for a, b, _, _ in segments:
        lit(a), lit(b)
    top = len(var)
    units: list[tuple[list[int], list[int]]] = []  # (cells touched, ends that may hang) of each unit
    clue_ids: list[list[int]] = []  # the clue ids behind each unit
    selectors: list[int] = []
    clauses: list[list[int]] = []
    for n, e in enumerate(others):
        if n % 4096 == 4095 and time.perf_counter() > deadline:
            return None
        con = constraints[e]
        top += 1
        sel = top
        body, top = exactly([lit(c) for c in con.cells], con.count, top=top)
        clauses.extend(cl + [-sel] for cl in body)
        selectors.append(sel)
        units.append((list(con.cells), []))
        clue_ids.append([e])
    for a, b, odd, path in segments:
        top += 1
        x, y = lit(a), lit(b)
        if odd:  # the ends differ
            clauses += [[x, y, -top], [-x, -y, -top]]
        else:  # the ends agree
            clauses += [[-x, y, -top], [x, -y, -top]]
        selectors.append(top)
        units.append(([a, b] if a != b else [a], [a, b] if a != b else []))
        clue_ids.append(path)
    n_others = len(others)
    keep_units = prune_hanging(units, list(range(len(units))))
    with Solver(name="g4", bootstrap_with=clauses) as solver:
        def ask(chosen: list[int]) -> bool | None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            solver.conf_budget(conflicts)
            timer = threading.Timer(left, solver.interrupt)
            timer.start()
            try:
                return solver.solve_limited(assumptions=[selectors[i] for i in chosen], expect_interrupt=True)
            finally:
                timer.cancel()
                solver.clear_interrupt()

        def shrink_to_core(chosen: list[int]) -> list[int]:
            core = set(solver.get_core() or [])
            return [i for i in chosen if selectors[i] in core] if core else chosen

        if ask(keep_units) is not False:
            return None
        keep = prune_hanging(units, shrink_to_core(keep_units))
        fixed = [i for i in keep if i < n_others and others[i] in needed]
        trying = [i for i in keep if not (i < n_others and others[i] in needed)]
        finished = True
        k = 0
        while k < len(trying):
            trial = fixed + trying[:k] + trying[k + 1:]
            res = ask(trial)
            if res is False:
                rest = set(prune_hanging(units, shrink_to_core(trial)))
                fixed = [i for i in fixed if i in rest]
                trying = [i for i in trying[:k] + trying[k + 1:] if i in rest]
            elif res is None:
                finished = False
                break
            else:
                k += 1
    return sorted(e for i in fixed + trying for e in clue_ids[i]), finished
