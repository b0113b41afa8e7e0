"""``mscsp solve`` output: one JSON object per position, or a board for people.

The JSON keys are CONTRACT.md's. Cells are ``[x, y]``, lists sorted by ``y`` then
``x`` (flat index order).
"""

from __future__ import annotations

from .position import Mark, Position
from .solvers.result import SolveResult

__all__ = ["solve_record", "solve_text", "error_record"]


def _xy(position: Position, cell: int) -> list[int]:
    return list(position.geometry.coords(cell))


def _cells(position: Position, cells) -> list[list[int]]:
    return [_xy(position, c) for c in sorted(cells)]


def solve_record(position: Position, result: SolveResult, *, file: str | None = None, extra: dict | None = None) -> dict:
    """The CONTRACT.md JSON object for one solved position."""
    g = position.geometry
    record = {
        "file": file,
        "width": g.width,
        "height": g.height,
        "mines": position.mines,
        "solver": result.solver.value,
        "consistent": result.consistent,
        "safe": _cells(position, result.safe),
        "mine": _cells(position, result.mines),
        "probability": None,
        "exact": None,
        "layouts": None,
        "best": None,
        "explanations": [
            {"cells": _cells(position, e.cells), "clues": _cells(position, e.clues), "total": e.uses_total, "text": e.text}
            for e in result.explanations
        ],
        "contradiction": None
        if result.contradiction is None
        else {
            "clues": _cells(position, result.contradiction.clues),
            "total": result.contradiction.uses_total,
            "text": result.contradiction.text,
        },
        "complete": result.complete,
    }
    if extra:
        record.update(extra)
    return record


def error_record(file: str, message: str) -> dict:
    return {"file": file, "error": message}


def solve_text(position: Position, result: SolveResult, *, file: str | None = None) -> str:
    """A readable board: ``o`` proven safe, ``*`` proven mine, ``.`` undecided."""
    g = position.geometry
    head = f"{file + ': ' if file else ''}{g.width}x{g.height}"
    head += f", {position.mines} mines" if position.mines is not None else ", mine total not given"
    head += f", solver {result.solver.value}"
    lines = [head]
    if result.contradiction is not None:
        c = result.contradiction
        names = ", ".join(f"[{x},{y}]" for x, y in _cells(position, c.clues))
        lines.append(f"impossible: {c.text}")
        if names:
            lines.append(f"clues involved: {names}" + (" and the mine total" if c.uses_total else ""))
        return "\n".join(lines) + "\n"
    safe, mines = set(result.safe), set(result.mines)
    cw = max(2, len(str(g.width - 1)) + 1)
    lw = len(str(g.height - 1))
    lines.append(" " * (lw + 1) + "".join(str(x).rjust(cw) for x in range(g.width)))
    for y in range(g.height):
        row = []
        for x in range(g.width):
            i = y * g.width + x
            code = int(position.grid[i])
            if i in safe:
                ch = "o"
            elif i in mines:
                ch = "*"
            elif code >= 0:
                ch = str(code)
            else:
                ch = {Mark.COVERED: ".", Mark.FLAG: "F", Mark.HOLE: " "}[Mark(code)]
            row.append(ch.rjust(cw))
        lines.append(str(y).rjust(lw) + " " + "".join(row))
    lines.append(f"o proven safe ({len(safe)}), * proven mine ({len(mines)}), . undecided")
    if not result.complete:
        lines.append("note: the search hit its time limit; undecided cells may still be forced")
    if result.explanations:
        lines.append("why:")
        lines.extend(f"  - {e.text}" for e in result.explanations)
    return "\n".join(lines) + "\n"
