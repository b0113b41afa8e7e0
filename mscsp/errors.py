"""The exception hierarchy of mscsp.

Every error the toolkit raises on purpose derives from :class:`MscspError`, so a
script can catch the toolkit's own failures without swallowing programming errors.
Bad input derives from :class:`ValueError` as well, because that is what it is.

The command line turns :class:`InputError` into a one-line message and exit status 2,
:class:`InconsistentError` into exit status 1.
"""

from __future__ import annotations

from enum import Enum

__all__ = [
    "quoted",
    "parse_choice",
    "Choice",
    "MscspError",
    "InputError",
    "ParseError",
    "InconsistentError",
    "Clash",
    "GenerationError",
    "IllegalMove",
    "Resource",
    "BudgetExceeded",
]


def quoted(name: str) -> str:
    """A file name as a message shows it: as given, or quoted like a Python string
    when it holds a line break or another unprintable character, so that the message
    stays one line.

    Examples
    --------
    >>> quoted("board.txt"), quoted("two\\nlines.txt")
    ('board.txt', "'two\\\\nlines.txt'")
    """
    return name if name.isprintable() else repr(name)


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
        where = f"{quoted(self.source)}:" if self.source else "line "
        return f"{where}{self.line}:{self.column}: {self.message}"

    def with_source(self, source: str) -> "ParseError":
        """Return the same error naming the file it came from."""
        return ParseError(self.message, line=self.line, column=self.column, source=source)


class Clash(Enum):
    """Why a position has no layout.

    The first four are seen at a glance, on one number or on the counter (the words
    for them are :func:`mscsp.analysis.words.clash_text`'s); ``NO_LAYOUT`` is
    found by a search over several clues, which the explanation then names.
    """

    #: A number touches more flags than it shows.
    OVERFLAGGED = "overflagged"
    #: A number has too few covered neighbours left for the mines it still needs.
    UNDERCOVERED = "undercovered"
    #: More flags than mines on the whole board.
    FLAGS_OVER_TOTAL = "flags-over-total"
    #: More mines left to place than covered cells.
    TOTAL_OVER_COVERED = "total-over-covered"
    #: No layout satisfies a set of clues together (and maybe the total).
    NO_LAYOUT = "no-layout"


class InconsistentError(MscspError):
    """A position that no mine layout satisfies.

    Parameters
    ----------
    message : str
        Why, in words a player can follow.
    clues : tuple of int
        Flat indices of a small set of clues that cannot all hold.
    uses_total : bool
        Whether the mine total is part of the clash.
    minimal : bool
        Whether no clue (nor the total) can be dropped from the set: False when it
        was too large, or the time too short, to shrink all the way.
    clash : Clash
        What kind of impossibility it is (the message says it in words).
    """

    def __init__(self, message: str, clues: tuple[int, ...] = (), uses_total: bool = False, minimal: bool = True,
                 *, clash: "Clash" = Clash.NO_LAYOUT):
        self.clues = tuple(clues)
        self.uses_total = uses_total
        self.minimal = minimal
        self.clash = clash
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


class Resource(Enum):
    """What a bounded computation ran out of."""

    TIME = "time"
    MEMORY = "memory"
    STATES = "states"


class BudgetExceeded(MscspError):
    """A bounded computation stopped at its budget before it had an answer.

    Parameters
    ----------
    message : str
        What was being computed and how far it got.
    resource : Resource
        Which budget ran out: seconds, bytes, or the states of one table.

    Examples
    --------
    >>> err = BudgetExceeded("counting stopped after 2.0 s", Resource.TIME)
    >>> err.resource.value, str(err)
    ('time', 'counting stopped after 2.0 s')
    """

    def __init__(self, message: str, resource: Resource):
        self.resource = resource
        super().__init__(message)


def parse_choice(enum_cls, value, what: str):
    """The member of a string-valued enum named ``value``, or an InputError naming the choices.

    Examples
    --------
    >>> from enum import Enum
    >>> class Colour(Enum):
    ...     RED = "red"
    >>> parse_choice(Colour, "RED", "colour")
    <Colour.RED: 'red'>
    """
    if isinstance(value, enum_cls):
        return value
    try:
        return enum_cls(str(value).lower())
    except ValueError:
        choices = ", ".join(m.value for m in enum_cls)
        raise InputError(f"unknown {what} {value!r}; choose one of {choices}") from None


class Choice(Enum):
    """A string-valued enum of named options with a forgiving :meth:`parse`.

    Subclasses say what their members are called in errors with the class keyword
    ``what``.

    Examples
    --------
    >>> class Colour(Choice, what="colour"):
    ...     RED = "red"
    >>> Colour.parse("Red")
    <Colour.RED: 'red'>
    >>> Colour.parse("blue")
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: unknown colour 'blue'; choose one of red
    """

    def __init_subclass__(cls, what: str = "choice", **kwargs):
        super().__init_subclass__(**kwargs)
        cls._what = what

    @classmethod
    def parse(cls, value):
        """The member named ``value`` (any case), or an InputError naming the choices."""
        return parse_choice(cls, value, cls._what)
