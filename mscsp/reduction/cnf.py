"""The one CNF type: DIMACS in and out.

A formula is its variable count and its clauses (DIMACS literals, 1-based
variables), as in PySAT's :class:`pysat.formula.CNF`, plus comment lines. It is the
type of what ``mscsp solve --dimacs`` writes (a position's clauses, whose models are
exactly its layouts) and of what ``mscsp from-cnf`` reads and compiles (Kaye's
reduction). A frozen value, so a parsed formula can be shared and compared; the
reader names the line and column of any error, which PySAT's does not.

Examples
--------
>>> f = parse_dimacs("c a comment\\np cnf 3 2\\n1 -2 0\\n2 3 0\\n")
>>> f.variables, f.clauses, f.comments
(3, ((1, -2), (2, 3)), ('a comment',))
>>> parse_dimacs(f.to_dimacs()) == f
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._moved import deprecated
from ..errors import ParseError

__all__ = ["CNF", "parse_dimacs"]


@dataclass(frozen=True)
class CNF:
    """A formula in conjunctive normal form: DIMACS literals, 1-based variables.

    Attributes
    ----------
    variables : int
        The highest variable number (the ``p cnf`` header's first count).
    clauses : tuple of tuple of int
    comments : tuple of str
        Comment lines, without their leading ``c``.
    """

    variables: int
    clauses: tuple[tuple[int, ...], ...]
    comments: tuple[str, ...] = ()

    def satisfied_by(self, assignment: dict[int, bool]) -> bool:
        """Whether every clause has a true literal (missing variables count as false)."""
        return all(any(assignment.get(abs(l), False) == (l > 0) for l in clause) for clause in self.clauses)

    def to_dimacs(self) -> str:
        """The formula as DIMACS text: comments, the ``p cnf`` header, one clause a line."""
        lines = [f"c {c}" if c else "c" for c in self.comments]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"

    @deprecated("use pysat.formula.CNF(from_clauses=cnf.clauses)")
    def to_pysat(self):
        """The same formula as a :class:`pysat.formula.CNF` (deprecated)."""
        from pysat.formula import CNF as PysatCNF

        out = PysatCNF(from_clauses=[list(c) for c in self.clauses])
        out.nv = max(out.nv, self.variables)
        out.comments = [f"c {c}" for c in self.comments]
        return out


def parse_dimacs(text: str, source: str | None = None) -> CNF:
    """Read DIMACS CNF (``p cnf V C`` header, clauses ending in 0, ``c`` comments).

    Raises
    ------
    ParseError
        With the line and column of the first problem.

    Examples
    --------
    >>> parse_dimacs("c example\\np cnf 3 2\\n1 -2 0\\n2 3 0\\n").clauses
    ((1, -2), (2, 3))
    """
    def fail(message: str, line: int, column: int):
        err = ParseError(message, line=line, column=column)
        raise err.with_source(source) if source else err

    header = None
    clauses: list[tuple[int, ...]] = []
    comments: list[str] = []
    current: list[int] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("c"):
            comments.append(stripped[1:].strip())
            continue
        if not stripped or stripped.startswith("%"):
            continue
        if stripped.startswith("p"):
            parts = stripped.split()
            if header is not None:
                fail("a second 'p' line", number, 1)
            if len(parts) != 4 or parts[1] != "cnf" or not parts[2].isdigit() or not parts[3].isdigit():
                fail("expected 'p cnf VARIABLES CLAUSES'", number, 1)
            header = (int(parts[2]), int(parts[3]))
            continue
        if header is None:
            fail("a clause before the 'p cnf' line", number, 1)
        for match in re.finditer(r"\S+", line):
            token = match.group()
            if not re.fullmatch(r"-?\d+", token):
                fail(f"expected an integer literal, not {token!r}", number, match.start() + 1)
            lit = int(token)
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            elif abs(lit) > header[0]:
                fail(f"literal {lit} names a variable above {header[0]}", number, match.start() + 1)
            else:
                current.append(lit)
    if header is None:
        fail("no 'p cnf' line", 1, 1)
    if current:
        clauses.append(tuple(current))
    return CNF(header[0], tuple(clauses), tuple(comments))
