"""Files the command line reads and writes: size limits, checked paths, whole writes.

Every file argument is checked before any work starts: an input larger than
:data:`MAX_FILE_BYTES` or a board with more cells than its command allows is refused
at once (one line, exit status 2), and an output path whose folder is missing, that
is a folder itself, or that cannot be written is refused before a game is played or
an experiment runs. Outputs are written whole or not at all: to a temporary file
beside the target, then renamed over it (:func:`write_whole` says what happens to
links, devices and pipes).

Limits (documented in the README):

============================  ==================================================
:data:`MAX_FILE_BYTES`        32 MiB for any file read (positions, layouts, CNF,
                              maps, replays, standard input)
:data:`MAX_CELLS`             1,000,000 cells (holes aside) for commands that
                              report on every cell (solve, count, verify,
                              generate, play, replay)
:data:`MAX_AREA`              4,000,000 grid positions (holes included) for them
:data:`MAX_SPARSE_CELLS`      10,000,000 grid positions for ``consistent`` and
                              ``from-cnf``, whose compiled boards are mostly holes
:data:`WAIT_SECONDS`          10 s for a pipe or device named as input to give
                              its first byte (or its end)
============================  ==================================================
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import select
import stat
import sys
import tempfile

from ..errors import InputError, quoted
from .text import MAX_DIGITS

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_CELLS",
    "MAX_AREA",
    "MAX_SPARSE_CELLS",
    "WAIT_SECONDS",
    "read_source",
    "check_cells",
    "check_output_file",
    "check_output_folder",
    "make_output_folder",
    "write_whole",
    "load_json",
    "Fields",
    "cell_of",
]

MAX_FILE_BYTES = 32 * 2**20
MAX_CELLS = 1_000_000
MAX_AREA = 4_000_000
MAX_SPARSE_CELLS = 10_000_000
#: Seconds a pipe or device named as input may stay silent before it is refused.
WAIT_SECONDS = 10.0


def read_source(path: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """Read a file (``-`` for standard input) as UTF-8 text, refusing one over ``limit`` bytes.

    A byte-order mark at the start is dropped (a second one is an error). A pipe or
    device named as the file (not standard input) must give its first byte, or its
    end, within :data:`WAIT_SECONDS`: a FIFO nobody writes to would otherwise block
    the command for ever. Raises InputError naming the file when it is missing,
    unreadable, silent, not UTF-8 or too large, or standard input is closed.
    """
    name = quoted(path)
    try:
        if path == "-":
            if sys.stdin is None:  # closed (`<&-`), which is not an empty input
                raise InputError("-: standard input is closed")
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream standing in for standard input
                text = sys.stdin.read(limit + 1)
                if len(text) > limit:
                    raise InputError(f"{path}: more than the limit of {limit} bytes")
                return _one_mark_off(text, name)
            data = stream.read(limit + 1)
        else:
            data = _read_named(path, name, limit)
    except OSError as exc:
        raise InputError(f"{name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"{name}: more than the limit of {limit} bytes")
    try:
        return _one_mark_off(data.decode("utf-8"), name)
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def _read_named(path: str, name: str, limit: int) -> bytes:
    """The bytes of a named file, at most ``limit + 1`` of them."""
    # opened without blocking: the open of a FIFO with no writer would wait for one
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{name}: is a folder, not a file")
        if stat.S_ISREG(info.st_mode):
            if info.st_size > limit:
                raise InputError(f"{name}: {info.st_size} bytes is more than the limit of {limit} bytes")
        elif not select.select([fd], [], [], WAIT_SECONDS)[0]:
            raise InputError(f"{name}: nothing to read after {WAIT_SECONDS:g} s (a pipe that no one writes to?)")
        os.set_blocking(fd, True)
        return handle.read(limit + 1)


def _one_mark_off(text: str, name: str) -> str:
    """``text`` without its byte-order mark; a second one is a located error."""
    text = text.removeprefix("\ufeff")
    if text.startswith("\ufeff"):
        raise InputError(f"{name}:1:1: a second byte-order mark (U+FEFF); a file may start with one at most")
    return text


def check_cells(width: int, height: int, limit: int, what: str = "board", *, holes: int = 0,
                max_area: int | None = None) -> None:
    """Refuse a board of more than ``limit`` cells (grid positions less ``holes``), or
    of more than ``max_area`` grid positions in all.

    Examples
    --------
    >>> check_cells(30, 16, MAX_CELLS)
    >>> check_cells(100_000, 100_000, MAX_CELLS)
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: a board of 100000x100000 = 10000000000 cells is larger than the limit of 1000000 cells
    """
    area = width * height
    if max_area is not None and area > max_area:
        raise InputError(f"a {what} of {width}x{height} = {area} grid positions is larger than the limit of "
                         f"{max_area}")
    if area - holes > limit:
        cells = f"{width}x{height} = {area} cells" if not holes else f"{width}x{height} with {area - holes} cells"
        raise InputError(f"a {what} of {cells} is larger than the limit of {limit} cells")


def check_output_file(path: str) -> None:
    """Refuse an output path that cannot be written: a folder, or in a missing or
    read-only folder (that of the file a symbolic link points to), or a device or
    pipe that cannot be written. Nothing is created."""
    if os.path.isdir(path):
        raise InputError(f"{quoted(path)}: is a folder; give a file name")
    info = _stat(path)
    if info is not None and not stat.S_ISREG(info.st_mode):  # a device or a pipe: written in place
        if not os.access(path, os.W_OK):
            raise InputError(f"{quoted(path)}: cannot be written (permission denied)")
        return
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise InputError(f"{quoted(path)}: the folder {quoted(folder)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (info is not None and not os.access(target, os.W_OK)):
        raise InputError(f"{quoted(path)}: cannot be written (permission denied)")


def _stat(path: str) -> os.stat_result | None:
    """What ``path`` names, links followed (``/dev/stdout`` too), or None if nothing."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def check_output_folder(path: str) -> None:
    """Refuse an output folder that cannot be made: it, or the nearest of its parents
    that exists, must be a writable folder. Nothing is created."""
    current = os.path.abspath(path)
    while not os.path.exists(current):
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    if not os.path.isdir(current):
        raise InputError(f"{quoted(path)}: {quoted(current)} is a file, not a folder")
    if not os.access(current, os.W_OK | os.X_OK):
        raise InputError(f"{quoted(path)}: {quoted(current)} cannot be written (permission denied)")


def make_output_folder(path: str) -> None:
    """Check an output folder (:func:`check_output_folder`) and make it, with its
    missing parents; a folder the system will not make (``/proc/x``) is a one-line
    InputError, before any work."""
    check_output_folder(path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{quoted(path)}: cannot be made ({exc.strerror or exc})") from None


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all.

    A regular file (or a new one) is written to a temporary file beside it, then
    renamed over it; through a symbolic link, the file the link points to is the one
    replaced, and the link stays. A new file gets the permissions the user's umask
    gives (``0666 & ~umask``), a replaced one keeps its own. A device such as
    ``/dev/null`` or a FIFO is written through, in place (renaming over it would
    replace it with a plain file), and a path to this process's own standard output
    or error (``/dev/stdout``) is written to that stream.
    """
    check_output_file(path)
    info = _stat(path)
    stream = None if info is None else _standard_stream(info)
    try:
        if stream is not None:  # in order with what the command prints there
            stream.write(text)
            stream.flush()
        elif info is None or stat.S_ISREG(info.st_mode):
            _replace(os.path.realpath(path), text, 0o666 & ~_umask() if info is None else stat.S_IMODE(info.st_mode))
        else:
            _write_through(path, text)
    except OSError as exc:  # a full disk, a folder gone read-only since the check
        raise InputError(f"{quoted(path)}: cannot be written ({exc.strerror or exc})") from None


def _replace(target: str, text: str, mode: int) -> None:
    """Write a temporary file of ``mode`` beside ``target``, then rename it over it."""
    handle, temp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".mscsp-", suffix=".tmp")
    try:
        os.fchmod(handle, mode)  # mkstemp's 0600 is not what the user's umask says
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _write_through(path: str, text: str) -> None:
    """Write into an existing device or FIFO, in place."""
    try:
        # without blocking: a FIFO no one reads would block the open for ever
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise InputError(f"{quoted(path)}: cannot be written (a pipe that no one reads)") from None
        raise
    os.set_blocking(fd, True)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def _standard_stream(info: os.stat_result):
    """This process's standard output or error when it writes to the file ``info``
    describes (``/dev/stdout`` redirected to a file), else None."""
    for stream in (sys.stdout, sys.stderr):
        try:
            mine = os.fstat(stream.fileno())
        except (AttributeError, OSError, ValueError):  # replaced, closed, or no descriptor
            continue
        if (mine.st_dev, mine.st_ino) == (info.st_dev, info.st_ino):
            return stream
    return None


def _umask() -> int:
    """The process's umask (read where the system says it, else set and restored)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# -- JSON files ---------------------------------------------------------------------------
_MISSING = object()


def load_json(text: str, what: str):
    """Parse JSON text, as a one-line InputError naming ``what`` when it is not JSON.

    Examples
    --------
    >>> load_json("[" * 100_000, "replay")
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: replay is nested too deeply to be read
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply to be read") from None
    except ValueError:  # an integer longer than int() converts; json does not say where
        raise InputError(f"{what} has a number of more than {MAX_DIGITS} digits{_long_number_at(text)}") from None


def _long_number_at(text: str) -> str:
    """Where the first over-long number of a JSON text starts (strings skipped), as
    words for a message."""
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|-?[0-9]{%d,}' % (MAX_DIGITS + 1), text):
        if not match.group().startswith('"'):
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            return f" at line {line} column {column}"
    return ""


def _type_name(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null",
            int: "a whole number", float: "a number"}.get(type(value), type(value).__name__)


class Fields:
    """Typed access to the fields of one JSON object, each error one line naming the field.

    Examples
    --------
    >>> f = Fields({"width": 30, "rule": "safe"}, "replay")
    >>> f.integer("width", low=1), f.string("rule", choices=("safe", "opening"))
    (30, 'safe')
    >>> f.integer("height", low=1)
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: replay: 'height' is missing
    >>> Fields({"width": "30"}, "replay").integer("width")
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: replay: 'width' must be a whole number, not a string
    """

    def __init__(self, data, what: str):
        if not isinstance(data, dict):
            raise InputError(f"{what} must be a JSON object, not {_type_name(data)}")
        self.data = data
        self.what = what

    def fail(self, name: str, problem: str) -> InputError:
        return InputError(f"{self.what}: {name!r} {problem}")

    def _field(self, name: str, default, check):
        """The field, checked by ``check``; ``default`` when absent or null (an error
        if there is none)."""
        if name not in self.data or self.data[name] is None:
            if default is _MISSING:
                raise InputError(f"{self.what}: {name!r} is missing")
            return default
        return check(self.data[name])

    def integer(self, name: str, *, low: int | None = None, high: int | None = None, default=_MISSING):
        def check(value):
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(name, f"must be a whole number, not {_type_name(value)}")
            if (low is not None and value < low) or (high is not None and value > high):
                bounds = (f"from {low}" if high is None else f"from {low} to {high}" if low is not None
                          else f"up to {high}")
                raise self.fail(name, f"must be {bounds}, not {value}")
            return value
        return self._field(name, default, check)

    def number(self, name: str, *, low: float | None = None, default=_MISSING):
        def check(value):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self.fail(name, f"must be a number, not {_type_name(value)}")
            try:
                value = float(value)
            except OverflowError:  # a whole number past any float
                value = math.inf
            if not math.isfinite(value):  # NaN, Infinity, 1e400
                raise self.fail(name, "must be a finite number")
            if low is not None and value < low:
                raise self.fail(name, f"must be at least {low}, not {value}")
            return value
        return self._field(name, default, check)

    def string(self, name: str, *, choices=None, default=_MISSING):
        def check(value):
            if not isinstance(value, str):
                raise self.fail(name, f"must be a string, not {_type_name(value)}")
            if choices is not None and value not in choices:
                raise self.fail(name, f"must be one of {', '.join(map(str, choices))}, not {value!r}")
            return value
        return self._field(name, default, check)

    def array(self, name: str, *, default=_MISSING) -> list:
        return self._field(name, default, lambda value: self._typed(name, value, list, "a list"))

    def object(self, name: str, *, default=_MISSING) -> dict:
        return self._field(name, default, lambda value: self._typed(name, value, dict, "an object"))

    def _typed(self, name: str, value, kind: type, words: str):
        if not isinstance(value, kind):
            raise self.fail(name, f"must be {words}, not {_type_name(value)}")
        return value


def cell_of(value, width: int, height: int, what: str) -> tuple[int, int]:
    """A cell given as ``[x, y]`` on a board of ``width`` x ``height``.

    Examples
    --------
    >>> cell_of([3, 1], 5, 5, "click")
    (3, 1)
    >>> cell_of([7, 1], 5, 5, "click")
    Traceback (most recent call last):
    ...
    mscsp.errors.InputError: click [7, 1] is off the 5x5 board
    """
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise InputError(f"{what} must be [x, y] with two whole numbers, not {json.dumps(value)[:40]}")
    x, y = value
    if not (0 <= x < width and 0 <= y < height):
        raise InputError(f"{what} [{x}, {y}] is off the {width}x{height} board")
    return x, y
