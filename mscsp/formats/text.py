"""Reading the grid text format shared by position and layout files.

The format: whole-line comments starting with ``#``, blank lines
ignored, ``key: value`` header lines before the grid, then rows of equal length.
This module knows the syntax only; :mod:`mscsp.position` and :mod:`mscsp.board`
give the characters their meaning. Every error names its line and column (1-based).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputError, ParseError

__all__ = ["Header", "GridText", "read_grid_text", "parse_count", "MAX_DIGITS", "natural", "excerpt"]

#: The most digits a number in a file or on the command line may have: Python's own
#: default limit for turning text into an ``int`` (past it ``int()`` refuses, and the
#: conversion grows quadratic), far beyond any count or size a board can hold.
MAX_DIGITS = 4300

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Header:
    """One ``key: value`` line: the value and where it starts."""

    value: str
    line: int
    column: int


@dataclass(frozen=True)
class GridText:
    """The parts of a grid file: its headers and its rows with their line numbers."""

    headers: dict[str, Header]
    rows: tuple[str, ...]
    row_lines: tuple[int, ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)


def _describe(ch: str) -> str:
    return repr(ch) if ch.isprintable() and ch != " " else f"U+{ord(ch):04X}"


def read_grid_text(
    text: str, *, alphabet: str, keys: frozenset[str], what: str = "position"
) -> GridText:
    """Split grid text into headers and rows, checking the syntax.

    Parameters
    ----------
    text : str
        The file's contents.
    alphabet : str
        The characters a grid row may contain.
    keys : frozenset of str
        The header keys this kind of file knows; any other is an error.
    what : str
        The kind of file, for messages.

    Raises
    ------
    ParseError
        On an unknown or repeated key, a header after the grid, a character outside
        ``alphabet``, a row of another length, or no grid at all.

    Examples
    --------
    >>> g = read_grid_text("# c\\nmines: 2\\n..\\n1.\\n", alphabet=".1", keys=frozenset({"mines"}))
    >>> g.headers["mines"].value, g.rows, g.row_lines
    ('2', ('..', '1.'), (3, 4))
    """
    headers: dict[str, Header] = {}
    rows: list[str] = []
    row_lines: list[int] = []
    if text.startswith("\ufeff"):  # a byte-order mark some editors put first
        text = text[1:]
    valid_row = re.compile(f"[{re.escape(alphabet)}]*").fullmatch
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r").rstrip(" \t")
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        if ":" in line:
            if rows:
                raise ParseError(
                    "header line after the grid (headers come first)", line=number, column=1
                )
            key, _, value = line.partition(":")
            key_text = key.strip()
            key_col = len(key) - len(key.lstrip(" \t")) + 1
            if not _KEY.fullmatch(key_text):
                raise ParseError(f"bad header key {key_text!r}", line=number, column=key_col)
            if key_text not in keys:
                known = ", ".join(sorted(keys)) or "none"
                raise ParseError(
                    f"unknown header {key_text!r} (a {what} file knows: {known})",
                    line=number,
                    column=key_col,
                )
            if key_text in headers:
                raise ParseError(f"header {key_text!r} given twice", line=number, column=key_col)
            value_col = len(key) + 2 + (len(value) - len(value.lstrip(" \t")))
            headers[key_text] = Header(value.strip(), number, value_col)
            continue
        for column, ch in enumerate(line if not valid_row(line) else "", start=1):
            if ch not in alphabet:
                raise ParseError(
                    f"unexpected character {_describe(ch)} in a {what} grid "
                    f"(allowed: {' '.join(alphabet)})",
                    line=number,
                    column=column,
                )
        if rows and len(line) != len(rows[0]):
            raise ParseError(
                f"row has {len(line)} cells but the first row (line {row_lines[0]}) has {len(rows[0])}",
                line=number,
                column=min(len(line), len(rows[0])) + 1,
            )
        rows.append(line)
        row_lines.append(number)
    if not rows:
        last = len(lines) if lines[-1] else max(len(lines) - 1, 1)
        raise ParseError(f"no grid: the file has no {what} rows", line=last, column=1)
    return GridText(headers, tuple(rows), tuple(row_lines))


def natural(text: str, what: str = "a count") -> int:
    """The non-negative integer ``text`` spells, or an InputError saying why it is none.

    Only the ASCII digits ``0``-``9`` count (``str.isdigit`` also passes ``²`` and
    other characters ``int`` refuses), and at most :data:`MAX_DIGITS` of them, so the
    answer never costs more than a moment.

    Examples
    --------
    >>> natural("042")
    42
    >>> natural("²", "mines")
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: mines must be a non-negative integer, not '²'
    >>> natural("1" * 5000, "mines")
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: mines has 5000 digits, more than the 4300 a number may have
    """
    if not text.isascii() or not text.isdigit():
        raise InputError(f"{what} must be a non-negative integer, not {excerpt(text)}")
    if len(text) > MAX_DIGITS:
        raise InputError(f"{what} has {len(text)} digits, more than the {MAX_DIGITS} a number may have")
    return int(text)


def excerpt(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut short for a one-line message.

    Examples
    --------
    >>> excerpt("abc"), excerpt("9" * 100, limit=5)
    ("'abc'", "'99999'... (100 characters)")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def parse_count(header: Header, name: str) -> int:
    """Read a header value as a non-negative integer, or raise a located error."""
    try:
        return natural(header.value, name)
    except InputError as exc:
        raise ParseError(str(exc), line=header.line, column=header.column) from None
