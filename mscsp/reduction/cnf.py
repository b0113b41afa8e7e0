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

from ..errors import InputError, ParseError
from ..formats.text import excerpt, natural

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


def parse_dimacs(text: str, source: str | None = None) -> CNF:
    """Read DIMACS CNF (``p cnf V C`` header, clauses ending in 0, ``c`` comments).

    The header's clause count must match the clauses that follow, each of which ends
    with ``0``; a line starting with ``%`` ends the formula (the SATLIB benchmarks
    end with ``%`` and a stray ``0``, which is not an empty clause).

    Raises
    ------
    ParseError
        With the line and column of the first problem.

    Examples
    --------
    >>> parse_dimacs("c example\\np cnf 3 2\\n1 -2 0\\n2 3 0\\n").clauses
    ((1, -2), (2, 3))
    >>> parse_dimacs("p cnf 3 2\\n1 -2 0\\n")
    Traceback (most recent call last):
    ...
    mscsp.errors.ParseError: line 1:9: the header says 2 clauses, but the file has 1
    """
    def fail(message: str, line: int, column: int):
        err = ParseError(message, line=line, column=column)
        raise err.with_source(source) if source else err

    def count(token: str, what: str, line: int, column: int) -> int:
        try:
            return natural(token, what)
        except InputError as exc:
            fail(str(exc), line, column)

    header = None
    header_at = (1, 1)
    clauses: list[tuple[int, ...]] = []
    comments: list[str] = []
    current: list[int] = []
    last = (1, 1)  # where the last literal ends: where a missing 0 belongs
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("c"):
            comments.append(stripped[1:].strip())
            continue
        if stripped.startswith("%"):
            break
        if not stripped:
            continue
        if stripped.startswith("p"):
            parts = list(re.finditer(r"\S+", line))
            if header is not None:
                fail("a second 'p' line", number, 1)
            if len(parts) != 4 or parts[0].group() != "p" or parts[1].group() != "cnf":
                fail("expected 'p cnf VARIABLES CLAUSES'", number, 1)
            header = (count(parts[2].group(), "the variable count", number, parts[2].start() + 1),
                      count(parts[3].group(), "the clause count", number, parts[3].start() + 1))
            header_at = (number, parts[3].start() + 1)
            continue
        if header is None:
            fail("a clause before the 'p cnf' line", number, 1)
        for match in re.finditer(r"\S+", line):
            token = match.group()
            if not re.fullmatch(r"-?[0-9]+", token):
                fail(f"expected an integer literal, not {excerpt(token)}", number, match.start() + 1)
            lit = count(token.removeprefix("-"), "a literal", number, match.start() + 1)
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            elif lit > header[0]:
                fail(f"literal {token} names a variable above {header[0]}", number, match.start() + 1)
            else:
                current.append(-lit if token.startswith("-") else lit)
            last = (number, match.end() + 1)
    if header is None:
        fail("no 'p cnf' line", 1, 1)
    if current:
        fail("the last clause does not end with 0", *last)
    if len(clauses) != header[1]:
        fail(f"the header says {header[1]} clauses, but the file has {len(clauses)}", *header_at)
    return CNF(header[0], tuple(clauses), tuple(comments))
