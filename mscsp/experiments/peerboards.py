"""The peers' boards of an experiment, recorded and replayed.

Some peers a generator experiment measures take no seed (ms_toollib's
``laymine_solvable``), and none of them is a dependency of the toolkit, so an
experiment that must repeat byte for byte on any machine cannot run them. What it
can do is run them once, keep every board they were asked for — made, failed (and
why) or not asked for — and replay those boards later, computing everything else
afresh. :func:`save_peer_boards` writes such a file, a gzipped CSV with one row a
board (:data:`PEER_COLUMNS`; a board as its rows from the top, ``*`` a mine, joined
by ``/``) and a JSON beside it saying how it was made; :func:`load_peer_boards`
reads it back, with one-line errors for a file that is not one.
:mod:`mscsp.experiments.noguess_bias` is the experiment that uses it.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
from enum import StrEnum
from pathlib import Path

import numpy as np

from ..board import Spec
from ..errors import InputError
from .runner import Unit

__all__ = ["PEER_COLUMNS", "Status", "layout_text", "layout_mines", "save_peer_boards", "load_peer_boards"]

#: The columns of a peer-board file: one row a board a peer was asked for.
PEER_COLUMNS = ["board", "generator", "sample", "status", "click_x", "click_y", "seconds", "note", "layout"]


class Status(StrEnum):
    """What became of one board a peer was asked for, as the file spells it."""

    MADE = "made"
    FAILED = "failed"
    UNTRIED = "untried"


def layout_text(spec: Spec, mines: np.ndarray) -> str:
    """A board as its rows from the top, ``*`` a mine and ``.`` a safe cell, joined by ``/``."""
    rows = np.asarray(mines, dtype=bool).reshape(spec.height, spec.width)
    return "/".join("".join("*" if m else "." for m in row) for row in rows)


def layout_mines(spec: Spec, text: str, where: str) -> np.ndarray:
    rows = text.split("/")
    if len(rows) != spec.height or any(len(r) != spec.width or set(r) - {"*", "."} for r in rows):
        raise InputError(f"{where}: a layout of {spec.height} rows of {spec.width} '*' or '.' was expected")
    return np.array([c == "*" for c in "".join(rows)], dtype=bool)


def _sidecar(path: Path) -> Path:
    name = path.name.removesuffix(".gz").removesuffix(".csv")
    return path.with_name(f"{name}.json")


def save_peer_boards(path: Path, units: list[Unit], totals: list[dict], about: dict) -> None:
    """Write every board the peers were asked for (``totals`` of a live run, unit by
    unit) to the gzipped CSV ``path``, one row a board in :data:`PEER_COLUMNS`:
    ``status`` made, failed (``note`` says why) or untried, the click as ``click_x``,
    ``click_y``, the generator's ``seconds`` and the ``layout`` (rows from the top,
    ``*`` a mine, joined by ``/``); ``about`` (the seed, the boards per generator, the
    peers' versions, the command, the revision) goes beside it in ``NAME.json``. The
    file is the same bytes for the same boards (no time stamp in the gzip header).

    Examples
    --------
    >>> import tempfile
    >>> spec = Spec(3, 2, 1)
    >>> unit = Unit("tiny/JSMinesweeper", {"label": "tiny", "generator": "JSMinesweeper", "spec": spec.__dict__}, 2)
    >>> made = {"sample": 0, "status": "made", "click": [0, 0], "seconds": 0.5, "layout": "..*/..."}
    >>> total = {"record": [made, {"sample": 1, "status": "failed", "note": "no board"}]}
    >>> path = Path(tempfile.mkdtemp()) / "peers.csv.gz"
    >>> save_peer_boards(path, [unit], [total], {"seed": 1, "samples": 2})
    >>> back = load_peer_boards(path)
    >>> back["seed"], back["boards"][("tiny", "JSMinesweeper")][0]["mines"].nonzero()[0].tolist()
    (1, [2])
    """
    text = io.StringIO()
    writer = csv.DictWriter(text, PEER_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for unit, total in zip(units, totals):
        for row in sorted(total.get("record", []), key=lambda r: r["sample"]):
            click = row.get("click") or ["", ""]
            seconds = row.get("seconds")
            writer.writerow({"board": unit.params["label"], "generator": unit.params["generator"],
                             "sample": row["sample"], "status": row["status"], "click_x": click[0],
                             "click_y": click[1], "seconds": "" if seconds is None else f"{seconds:.6f}",
                             "note": row.get("note", ""), "layout": row.get("layout", "")})
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sizes = {u.params["label"]: u.params["spec"] for u in units}
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(text.getvalue().encode())
    _sidecar(path).write_text(json.dumps({**about, "sizes": sizes}, indent=2, sort_keys=True) + "\n")
    load_peer_boards.cache_clear()


@functools.lru_cache(maxsize=4)
def load_peer_boards(path: Path) -> dict:
    """A peer-board file (:func:`save_peer_boards`): what its sidecar says, with
    ``boards``, a ``(board, generator)`` pair to its rows by sample, each with
    ``status``, ``note``, ``seconds``, ``click`` and ``mines`` (a flat bool array).
    A missing or malformed file is bad input (:class:`~mscsp.errors.InputError`,
    one line naming the file, and the line for a bad row)."""
    path = Path(path)
    try:
        about = json.loads(_sidecar(path).read_text())
        sizes = {label: Spec(**spec) for label, spec in about["sizes"].items()}
        text = gzip.decompress(path.read_bytes()).decode()
    except FileNotFoundError as exc:
        raise InputError(f"{exc.filename}: no such peer-board file (make one with --peers live --save-peers)") \
            from None
    except (OSError, EOFError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a peer-board file ({exc})") from None
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames != PEER_COLUMNS:
        raise InputError(f"{path}: line 1: expected the columns {','.join(PEER_COLUMNS)}")
    boards: dict[tuple[str, str], dict[int, dict]] = {}
    for line, row in enumerate(reader, start=2):
        where = f"{path}: line {line}"
        spec = sizes.get(row["board"])
        if spec is None or not row["generator"] or row["status"] not in set(Status) or not row["sample"].isdigit():
            raise InputError(f"{where}: unknown board, generator, status or sample")
        entry = {"status": row["status"], "note": row["note"], "seconds": None, "click": None, "mines": None}
        if row["status"] == Status.MADE:
            try:
                entry["click"] = (int(row["click_x"]), int(row["click_y"]))
                entry["seconds"] = float(row["seconds"])
            except ValueError:
                raise InputError(f"{where}: a made board needs its click and seconds") from None
            entry["mines"] = layout_mines(spec, row["layout"], where)
        boards.setdefault((row["board"], row["generator"]), {})[int(row["sample"])] = entry
    return {**about, "boards": boards}
