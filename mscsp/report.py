"""``mscsp solve`` output: one JSON object per position, or a board for people.

The JSON keys are those the README documents. Cells are ``[x, y]``, lists sorted by ``y`` then
``x`` (flat index order).
"""

from __future__ import annotations

import sys

from .analysis.full import Analysis
from .analysis.solvers.result import Contradiction
from .position import Mark

__all__ = ["solve_record", "solve_text", "error_record", "contradiction_record", "decimal"]


def decimal(n: int) -> str:
    """``n`` in decimal, however many digits.

    Layout counts of big boards run to hundreds of thousands of digits, and CPython's
    own conversion takes time quadratic in them (a million-cell board's count: about
    a second; four million cells: a quarter of a minute). Long numbers are split in
    halves by powers of two computed in the :mod:`decimal` module, whose products of
    huge numbers are subquadratic (number-theoretic transforms), and only the small
    pieces go through ``str``.

    Examples
    --------
    >>> text = decimal(3 ** 50_000)
    >>> text[:12], len(text)
    ('115540963049', 23857)
    """
    if n.bit_length() <= _SPLIT_BITS:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)
    import decimal as dec

    powers: dict[int, dec.Decimal] = {}

    def two_to(w: int) -> dec.Decimal:
        if w not in powers:
            powers[w] = dec.Decimal(2) ** w if w <= _SPLIT_BITS else two_to(w // 2) * two_to(w - w // 2)
        return powers[w]

    def convert(m: int, w: int) -> dec.Decimal:  # m < 2**w
        if w <= _SPLIT_BITS:
            return dec.Decimal(str(m))
        half = w // 2
        return convert(m >> half, w - half) * two_to(half) + convert(m & ((1 << half) - 1), half)

    with dec.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = dec.MAX_PREC, dec.MAX_EMAX, dec.MIN_EMIN
        ctx.traps[dec.Inexact] = True
        return str(convert(n, n.bit_length()))


#: Below this many bits an int is converted by ``str`` directly (fast enough).
_SPLIT_BITS = 8_000


def _cells(cells) -> list[list[int]]:
    """``(x, y)`` pairs as JSON's ``[x, y]``, in row order."""
    return [[x, y] for x, y in sorted(cells, key=lambda xy: (xy[1], xy[0]))]


def _probability_rows(analysis: Analysis, fractions: bool) -> list[list] | None:
    probs = analysis.probabilities
    if probs is None:
        return None
    g = analysis.position.geometry
    rows = []
    for y in range(g.height):
        row = []
        for x in range(g.width):
            c = y * g.width + x
            p = probs.by_index.get(c)
            if p is None or (fractions and c in probs.intervals_by_index):  # an estimate has no exact fraction
                row.append(None)
            else:
                row.append(f"{p.numerator}/{p.denominator}" if fractions else float(p))
        rows.append(row)
    return rows


def _interval_rows(analysis: Analysis) -> list[list]:
    """The 95% interval ``[low, high]`` of every estimated probability (else null)."""
    g = analysis.position.geometry
    intervals = analysis.probabilities.intervals_by_index
    return [[list(intervals[c]) if c in intervals else None
             for c in range(y * g.width, (y + 1) * g.width)] for y in range(g.height)]


def contradiction_record(contradiction: Contradiction) -> dict:
    """A contradiction as JSON: ``clues``, ``total``, ``minimal``, ``text``, ``clash`` (how
    it was found: ``overflagged``, ``undercovered``, ``flags-over-total``,
    ``total-over-covered`` at a glance, ``no-layout`` by a search) and ``names_total``
    (whether ``text`` names the mine total itself)."""
    return {
        "clues": _cells(contradiction.clues),
        "total": contradiction.uses_total,
        "minimal": contradiction.minimal,
        "text": contradiction.text,
        "clash": contradiction.clash.value,
        "names_total": contradiction.names_total,
    }


def solve_record(analysis: Analysis, *, file: str | None = None, fractions: bool = False) -> dict:
    """The ``mscsp solve --json`` object for one analysed position.

    With ``fractions`` an extra ``probability_exact`` field gives every probability
    as an exact ``"p/q"`` string.
    """
    position, result, probs = analysis.position, analysis.result, analysis.probabilities
    g = position.geometry
    record = {
        "file": file,
        "width": g.width,
        "height": g.height,
        "mines": position.mines,
        "solver": result.solver.value,
        "consistent": result.consistent,
        "safe": _cells(result.safe),
        "mine": _cells(result.mines),
        "probability": _probability_rows(analysis, False),
        "exact": None if probs is None else probs.exact,
        "layouts": None if probs is None or probs.layouts is None else decimal(probs.layouts),
        "best": None if analysis.best is None else list(analysis.best),
        "explanations": [
            {"cells": _cells(e.cells), "clues": _cells(e.clues), "total": e.uses_total, "text": e.text}
            for e in result.explanations
        ],
        "contradiction": None if result.contradiction is None else contradiction_record(result.contradiction),
        "complete": result.complete,
    }
    if probs is not None and probs.model is not None:
        record["model"] = str(probs.model)
    if probs is not None and not probs.exact:
        record["estimate"] = dict(probs.stats.get("estimate", {}), reason=str(probs.reason))
        record["interval"] = _interval_rows(analysis)
    if fractions:
        record["probability_exact"] = _probability_rows(analysis, True)
    return record


def error_record(file: str, message: str) -> dict:
    return {"file": file, "error": message}


def solve_text(analysis: Analysis, *, file: str | None = None) -> str:
    """A readable board: open numbers as digits, ``o`` proven safe, ``*`` proven mine,
    a covered cell's mine chance with a percent sign (``~`` when estimated), the
    suggested click in brackets, and a legend.

    Examples
    --------
    >>> from mscsp.analysis import analyse
    >>> from mscsp.position import parse_position
    >>> print(solve_text(analyse(parse_position("mines: 1\\n.1...\\n"), explain=False)), end="")
    5x1, 1 mine, solver sat
         0    1    2    3    4
    0  50%    1  50%  [o]    o
    digits: open numbers; o: proven safe (2); *: proven mine (0); F: flag; 12%: a covered cell's chance of a mine; .: covered, no number; [..]: the suggested click
    layouts consistent with the position: 2
    """
    position, result, probs = analysis.position, analysis.result, analysis.probabilities
    g = position.geometry
    head = f"{file + ': ' if file else ''}{g.width}x{g.height}"
    if position.mines is not None:
        head += f", {position.mines} mine{'s' if position.mines != 1 else ''}"
    else:
        head += ", mine total not given"
    head += f", solver {result.solver.value}"
    lines = [head]
    if result.contradiction is not None:
        c = result.contradiction
        names = ", ".join(f"[{x},{y}]" for x, y in _cells(c.clues))
        lines.append(f"impossible: {c.text}")
        if names:
            lines.append(f"clues involved: {names}" + (" and the mine total" if c.uses_total else ""))
        return "\n".join(lines) + "\n"
    index = g.index
    safe, mines = {index(*xy) for xy in result.safe}, {index(*xy) for xy in result.mines}
    best = None if analysis.best is None else index(*analysis.best)
    cells = probs.by_index if probs is not None else {}
    estimated = probs.intervals_by_index if probs is not None else {}
    # a plain list and a table of characters: a board of a million cells is drawn in about a second
    plain = {**{d: str(d) for d in range(9)}, int(Mark.COVERED): ".", int(Mark.FLAG): "F", int(Mark.HOLE): " "}
    marks = [plain[code] for code in position.grid.tolist()]
    for i, p in cells.items():
        if p is not None:
            pct = 100 * p
            ch = ("<1" if 0 < pct < 1 else ">99" if 99 < pct < 100 else f"{round(pct)}") + "%"
            marks[i] = "~" + ch if i in estimated else ch
    for i in safe:
        marks[i] = "o"
    for i in mines:
        marks[i] = "*"
    if best is not None:
        marks[best] = "[" + marks[best] + "]"
    cw = max(max(map(len, marks), default=1), len(str(g.width - 1))) + 1
    lw = len(str(g.height - 1))
    lines.append(" " * (lw + 1) + "".join(str(x).rjust(cw) for x in range(g.width)))
    for y in range(g.height):
        lines.append(str(y).rjust(lw) + " " + "".join(m.rjust(cw) for m in marks[y * g.width:(y + 1) * g.width]))
    lines.append(
        f"digits: open numbers; o: proven safe ({len(safe)}); *: proven mine ({len(mines)}); F: flag; "
        f"12%: a covered cell's chance of a mine" + ("; ~12%: an estimate" if estimated else "")
        + "; .: covered, no number; [..]: the suggested click"
    )
    if probs is not None:
        if probs.layouts is not None:
            lines.append(f"layouts consistent with the position: {decimal(probs.layouts)}")
        if not probs.exact:
            est = probs.stats.get("estimate", {})
            lines.append(f"not counted exactly: {str(probs.reason)}")
            if probs.intervals_by_index and est.get("bounds") == "proven":
                widest = max(hi - lo for lo, hi in probs.intervals_by_index.values())
                lines.append(f"percentages off proven cells come from {est['method']}; each lies within "
                             f"{widest / 2:.0e} of the exact value (--json gives each interval)")
            elif probs.intervals_by_index:
                widest = max(hi - lo for lo, hi in probs.intervals_by_index.values())
                lines.append(f"percentages off proven cells are ESTIMATES ({est.get('method', 'sampling')}, "
                             f"{est.get('samples')} samples); their 95% intervals are up to {100 * widest:.0f} "
                             f"points wide (--json gives each); proven cells are exact")
            elif any(p is None for p in probs.by_index.values()):
                lines.append("cells without a number could not be weighed; proven cells are exact")
        if probs.model is not None:
            lines.append(f"model: {str(probs.model)}")
    if not result.complete:
        lines.append("note: the search hit its time limit; undecided cells may still be forced")
    if result.explanations:
        lines.append("why:")
        lines.extend(f"  - {e.text}" for e in result.explanations)
    return "\n".join(lines) + "\n"
