"""Reading and checking JSON requests.

Every handler reads its body with :func:`read_json` and its fields with the
``field_*`` helpers, which raise :class:`RequestError` — a message and an HTTP
status — for anything missing, mistyped or out of range. The application turns a
RequestError into ``{"error": message}`` with that status, so malformed input never
reaches the library and never ends in a traceback.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Any

from starlette.requests import Request

from ..board import Geometry, Spec
from ..errors import InputError
from ..rules import FirstClickRule, max_mines
from .settings import Settings

__all__ = [
    "RequestError",
    "shown",
    "read_json",
    "field_int",
    "field_bool",
    "field_str",
    "field_choice",
    "field_cell",
    "check_size",
    "read_spec",
]

#: Deepest nesting of arrays and objects a request body may have. The API's own bodies
#: go four deep (a replay's actions); a bound keeps the handlers, which walk what they
#: read, far from Python's recursion limit.
MAX_DEPTH = 32


#: Characters of a client's value an error message quotes: a 100 KB value gets a short
#: message, which still shows where it went wrong.
SHOWN = 60


def shown(value: Any) -> str:
    """``repr(value)`` for an error message, cut to about :data:`SHOWN` characters.

    Examples
    --------
    >>> shown("easy")
    "'easy'"
    >>> shown("x" * 100_000) == "'" + "x" * 59 + "… (100002 characters)"
    True
    """
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}… ({len(text)} characters)"


class RequestError(Exception):
    """A request the server cannot accept: an HTTP status and a message for people.

    Parameters
    ----------
    status : int
        The HTTP status of the answer (4xx for the client's mistakes, 503 when the
        server could not finish in time).
    message : str
        What is wrong, in words.
    extra : dict, optional
        More fields for the JSON answer (such as ``line`` and ``column``).

    Examples
    --------
    >>> RequestError(400, "width must be an integer").answer()
    {'error': 'width must be an integer'}
    """

    #: The longest message: past it, one the engine's words made from a client's huge
    #: value is cut, whatever quoted it.
    MAX_MESSAGE = 2000

    def __init__(self, status: int, message: str, extra: dict | None = None):
        if len(message) > self.MAX_MESSAGE:
            message = f"{message[:self.MAX_MESSAGE]}… (cut: {len(message)} characters in all)"
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = dict(extra or {})

    def answer(self) -> dict:
        """The JSON body of the error answer."""
        return {"error": self.message, **self.extra}


async def read_json(request: Request, limit: int) -> Any:
    """The request body parsed as JSON, read no further than ``limit`` bytes.

    Raises
    ------
    RequestError
        413 when the body is larger than ``limit`` (by its declared length or as it
        streams in), 415 for a declared content type other than JSON, 400 when the
        body is not UTF-8 JSON, nests deeper than :data:`MAX_DEPTH`, or holds an
        integer too long for Python to read.
    """
    declared = request.headers.get("content-length")
    # ASCII digits only (int() refuses "²"), compared by length before int() reads a huge one
    digits = declared.lstrip("0") if declared is not None and declared.isascii() and declared.isdigit() else ""
    if len(digits) > len(str(limit)) or (digits and int(digits) > limit):
        raise RequestError(413, f"the request body is {declared[:SHOWN]} bytes; the limit is {limit}")
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if kind not in ("application/json", "text/plain", ""):
        raise RequestError(415, f"send JSON (content type application/json), not {kind}")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise RequestError(413, f"the request body is larger than the limit of {limit} bytes")
    if not body:
        raise RequestError(400, "the request needs a JSON body")
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise RequestError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise RequestError(400, f"the request body is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise RequestError(400, _too_deep()) from None
    except ValueError:  # Python's own bound on the digits of one integer
        raise RequestError(400, f"the request body holds an integer of more than {sys.get_int_max_str_digits()} "
                                "digits") from None
    if _depth(data) > MAX_DEPTH:
        raise RequestError(400, _too_deep())
    return data


def _too_deep() -> str:
    return f"the request body nests arrays and objects more than {MAX_DEPTH} deep"


def _depth(data: Any) -> int:
    """How deep arrays and objects nest in a parsed JSON value (0 for a number or
    string), found without recursion, since the value may nest deeper than the stack.

    Examples
    --------
    >>> _depth(5), _depth([]), _depth({"a": [1, [2]]})
    (0, 1, 3)
    """
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            stack.extend((item, depth + 1) for item in value)
    return deepest


def _object(data: Any) -> dict:
    if not isinstance(data, dict):
        raise RequestError(400, f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def field_int(data: Any, key: str, low: int, high: int, default: int | None = None) -> int:
    """An integer field between ``low`` and ``high`` inclusive.

    Examples
    --------
    >>> field_int({"width": 9}, "width", 1, 100)
    9
    >>> field_int({}, "seed", 0, 10, default=3)
    3
    >>> field_int({"width": "9"}, "width", 1, 100)
    Traceback (most recent call last):
    ...
    mscsp.web.validate.RequestError: width must be an integer, not '9'
    """
    data = _object(data)
    if key not in data or data[key] is None:
        if default is None:
            raise RequestError(400, f"{key} is missing")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(400, f"{key} must be an integer, not {shown(value)}")
    if not low <= value <= high:
        raise RequestError(400, f"{key} must be between {low} and {high}, not {shown(value)}")
    return value


def field_bool(data: Any, key: str, default: bool) -> bool:
    """A true/false field.

    Examples
    --------
    >>> field_bool({"no_guess": True}, "no_guess", False), field_bool({}, "no_guess", False)
    (True, False)
    """
    data = _object(data)
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RequestError(400, f"{key} must be true or false, not {shown(value)}")
    return value


def field_str(data: Any, key: str, default: str | None = None) -> str:
    """A string field."""
    data = _object(data)
    value = data.get(key)
    if value is None:
        if default is None:
            raise RequestError(400, f"{key} is missing")
        return default
    if not isinstance(value, str):
        raise RequestError(400, f"{key} must be a string, not {type(value).__name__}")
    return value


def field_choice(data: Any, key: str, enum_cls: type[Enum], default: Enum) -> Enum:
    """A string field naming a member of a string-valued enum.

    Examples
    --------
    >>> field_choice({"rule": "opening"}, "rule", FirstClickRule, FirstClickRule.SAFE)
    <FirstClickRule.OPENING: 'opening'>
    >>> field_choice({"rule": "easy"}, "rule", FirstClickRule, FirstClickRule.SAFE)
    Traceback (most recent call last):
    ...
    mscsp.web.validate.RequestError: rule must be one of uniform, safe, opening, winxp, not 'easy'
    """
    text = field_str(data, key, default.value)
    for member in enum_cls:
        if member.value == text:
            return member
    choices = ", ".join(m.value for m in enum_cls)
    raise RequestError(400, f"{key} must be one of {choices}, not {shown(text)}")


def field_cell(data: Any, key: str, geometry: Geometry) -> int:
    """A cell given as ``[x, y]``, as its flat index.

    Examples
    --------
    >>> field_cell({"cell": [2, 1]}, "cell", Geometry(3, 2))
    5
    >>> field_cell({"cell": [3, 0]}, "cell", Geometry(3, 2))
    Traceback (most recent call last):
    ...
    mscsp.web.validate.RequestError: cell [3, 0] is not on this 3x2 board
    """
    data = _object(data)
    value = data.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise RequestError(400, f"{key} must be [x, y] with two integers, not {shown(value)}")
    x, y = value
    if not geometry.contains(x, y):
        raise RequestError(400, f"{key} [{x}, {y}] is not on this {geometry.width}x{geometry.height} board")
    return y * geometry.width + x


def check_size(width: int, height: int, settings: Settings) -> None:
    """Refuse boards beyond the server's limits (status 413).

    Examples
    --------
    >>> check_size(30, 16, Settings())
    >>> check_size(200, 2, Settings())
    Traceback (most recent call last):
    ...
    mscsp.web.validate.RequestError: a board may be at most 100 cells wide and high, not 200x2
    """
    if width > settings.max_side or height > settings.max_side:
        raise RequestError(
            413, f"a board may be at most {settings.max_side} cells wide and high, not {width}x{height}"
        )
    if width * height > settings.max_cells:
        raise RequestError(
            413, f"a board may have at most {settings.max_cells} cells, not {width}x{height} = {width * height}"
        )


def read_spec(data: Any, settings: Settings, rule: FirstClickRule) -> Spec:
    """Board size and mine count from ``width``, ``height`` and ``mines`` fields.

    The mine count must leave room for the first click under ``rule`` wherever the
    player clicks.

    Examples
    --------
    >>> read_spec({"width": 9, "height": 9, "mines": 10}, Settings(), FirstClickRule.SAFE)
    Spec(width=9, height=9, mines=10)
    >>> read_spec({"width": 3, "height": 3, "mines": 1}, Settings(), FirstClickRule.OPENING)
    Traceback (most recent call last):
    ...
    mscsp.web.validate.RequestError: at most 0 mines fit on a 3x3 board under the opening rule, not 1
    """
    width = field_int(data, "width", 1, settings.max_side)
    height = field_int(data, "height", 1, settings.max_side)
    check_size(width, height, settings)
    mines = field_int(data, "mines", 0, width * height)
    geometry = Geometry(width, height)
    # the centre has the largest neighbourhood: the tightest case for every rule
    room = max_mines(geometry, rule, geometry.index(width // 2, height // 2))
    if mines > room:
        raise RequestError(
            400, f"at most {room} mines fit on a {width}x{height} board under the {rule.value} rule, not {mines}"
        )
    try:
        return Spec(width, height, mines)
    except InputError as exc:  # pragma: no cover - the checks above come first
        raise RequestError(400, str(exc)) from None
