"""The exception hierarchy of mscsp.

Every error the toolkit raises on purpose derives from :class:`MscspError`, so a
script can catch the toolkit's own failures without swallowing programming errors.
Bad input derives from :class:`ValueError` as well, because that is what it is.

The command line turns :class:`InputError` into a one-line message and exit status 2,
:class:`InconsistentError` into exit status 1.
"""

from __future__ import annotations

__all__ = [
    "MscspError",
    "InputError",
    "ParseError",
    "InconsistentError",
    "GenerationError",
    "IllegalMove",
]


class MscspError(Exception):
    """Base class of every error mscsp raises on purpose."""


class InputError(MscspError, ValueError):
    """Arguments or input data that the toolkit cannot accept."""


class ParseError(InputError):
    """A text file that does not follow the position or layout format.

    Parameters
    ----------
    message : str
        What is wrong, in words.
    line, column : int
        One-based location of the offending character.
    source : str, optional
        The file name, for the message.

    Examples
    --------
    >>> str(ParseError("unexpected character 'x'", line=3, column=5, source="a.txt"))
    "a.txt:3:5: unexpected character 'x'"
    """

    def __init__(self, message: str, *, line: int, column: int, source: str | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = f"{self.source}:" if self.source else "line "
        return f"{where}{self.line}:{self.column}: {self.message}"

    def with_source(self, source: str) -> "ParseError":
        """Return the same error naming the file it came from."""
        return ParseError(self.message, line=self.line, column=self.column, source=source)


class InconsistentError(MscspError):
    """A position that no mine layout satisfies.

    Parameters
    ----------
    message : str
        Why, in words a player can follow.
    clues : tuple of int
        Flat indices of a small set of clues that cannot all hold.
    """

    def __init__(self, message: str, clues: tuple[int, ...] = ()):
        self.clues = tuple(clues)
        super().__init__(message)


class GenerationError(MscspError):
    """Board generation gave up within its bound.

    Parameters
    ----------
    message : str
        What was asked and why it failed.
    attempts : int
        How many candidate boards were tried.
    """

    def __init__(self, message: str, attempts: int):
        self.attempts = attempts
        super().__init__(f"{message} (after {attempts} attempts)")


class IllegalMove(InputError):
    """A game action that the rules do not allow in the current state."""

