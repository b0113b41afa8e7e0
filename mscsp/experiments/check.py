"""Comparing a regenerated results folder with a reference one, deterministic files only.

What ``mscsp reproduce --check`` reports: every difference in the files that depend
only on the code, the seed and the samples (:func:`~mscsp.experiments.output.is_timing_file`
says which do not), located as precisely as the format allows — a CSV cell by row
and column, a line of Markdown, a key of JSON; a figure only as a whole.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
from dataclasses import dataclass
from pathlib import Path

from .output import RUN_FILE, is_timing_file

__all__ = ["Difference", "compare_folders", "deterministic_files"]

#: Columns that, where a table has them, name its rows in a report.
_ROW_NAMES = ["board", "rule", "click_x", "click_y", "solver", "policy", "method", "ratio"]


@dataclass(frozen=True)
class Difference:
    """One difference: the file, where in it, and the two versions (None: absent)."""

    file: str
    where: str
    reference: str | None
    regenerated: str | None

    def describe(self, reference: str = "reference", regenerated: str = "regenerated") -> str:
        """One line for people; ``reference`` and ``regenerated`` name the two sides.

        Examples
        --------
        >>> Difference("a/summary.csv", "row 2, column k", "7", "8").describe("results/")
        'a/summary.csv: row 2, column k: 7 in results/, 8 regenerated'
        """
        where = f"{self.file}: {self.where}" if self.where else self.file
        if self.reference is None:
            return f"{where}: only regenerated" + (f": {self.regenerated}" if self.regenerated else "")
        if self.regenerated is None:
            return f"{where}: only in {reference}" + (f": {self.reference}" if self.reference else "")
        return f"{where}: {self.reference} in {reference}, {self.regenerated} {regenerated}"


def deterministic_files(folder: Path) -> list[str]:
    """The names of the deterministic files in a results folder, sorted."""
    return sorted(p.name for p in Path(folder).iterdir()
                  if p.is_file() and not p.name.startswith(".") and not is_timing_file(p.name))


def compare_folders(reference: Path, regenerated: Path, label: str = "") -> list[Difference]:
    """Every difference between the deterministic files of two results folders;
    ``label`` prefixes the file names in the report.

    Examples
    --------
    >>> import tempfile
    >>> a, b = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    >>> for folder, k in ((a, 7), (b, 8)):
    ...     _ = (folder / "summary.csv").write_text(f"board,k\\nexpert,{k}\\n")
    ...     _ = (folder / "run.json").write_text(f'{{"wall_seconds": {k}}}')
    >>> [d.describe() for d in compare_folders(a, b, "x/")]
    ['x/summary.csv: row 1 (board=expert), column k: 7 in reference, 8 regenerated']
    """
    reference, regenerated = Path(reference), Path(regenerated)
    ours, theirs = set(deterministic_files(reference)), set(deterministic_files(regenerated))
    out: list[Difference] = []
    for name in sorted(ours | theirs):
        file = f"{label}{name}"
        if name not in theirs:
            out.append(Difference(file, "", "", None))
        elif name not in ours:
            out.append(Difference(file, "", None, ""))
        else:
            out += _compare_file(file, reference / name, regenerated / name, reference, regenerated)
    return out


def _compare_file(file: str, a: Path, b: Path, ref_folder: Path, new_folder: Path) -> list[Difference]:
    old, new = a.read_bytes(), b.read_bytes()
    if old == new:
        return []
    suffix = a.suffix.lower()
    try:
        if suffix == ".csv":
            found = _compare_csv(file, old.decode(), new.decode())
        elif suffix == ".json":
            found = _compare_json(file, json.loads(old), json.loads(new))
        elif suffix in (".md", ".txt"):
            found = _compare_lines(file, old.decode(), new.decode())
        else:
            found = [Difference(file, "", f"{len(old):,} bytes", f"{len(new):,} bytes" + _renderers(ref_folder,
                                                                                                   new_folder))]
    except (UnicodeDecodeError, json.JSONDecodeError, csv.Error):
        found = []
    # bytes differ but the parsed contents agree (say, line endings): still a difference
    return found or [Difference(file, "bytes", f"{len(old):,} bytes", f"{len(new):,} bytes")]


def _renderers(ref_folder: Path, new_folder: Path) -> str:
    """A note when the two figures were drawn by different matplotlib releases."""
    versions = []
    for folder in (ref_folder, new_folder):
        try:
            versions.append(json.loads((folder / RUN_FILE).read_text())["packages"]["matplotlib"])
        except (OSError, ValueError, KeyError, TypeError):
            versions.append(None)
    if None in versions or versions[0] == versions[1]:
        return ""
    return f" (drawn by matplotlib {versions[0]} there, {versions[1]} here)"


def _compare_csv(file: str, old: str, new: str) -> list[Difference]:
    a, b = list(csv.reader(io.StringIO(old))), list(csv.reader(io.StringIO(new)))
    head_a, head_b = (a[0] if a else []), (b[0] if b else [])
    out = [Difference(file, f"column {c}", "", None) for c in head_a if c not in head_b]
    out += [Difference(file, f"column {c}", None, "") for c in head_b if c not in head_a]
    common = [c for c in head_a if c in head_b]
    rows_a = [dict(zip(head_a, r)) for r in a[1:]]
    rows_b = [dict(zip(head_b, r)) for r in b[1:]]
    for i, (ra, rb) in enumerate(zip(rows_a, rows_b), start=1):
        for c in common:
            if ra.get(c) != rb.get(c):
                out.append(Difference(file, f"row {i}{_row_name(ra)}, column {c}", ra.get(c), rb.get(c)))
    for i, row in enumerate(rows_a[len(rows_b):], start=len(rows_b) + 1):
        out.append(Difference(file, f"row {i}", ",".join(row.values()), None))
    for i, row in enumerate(rows_b[len(rows_a):], start=len(rows_a) + 1):
        out.append(Difference(file, f"row {i}", None, ",".join(row.values())))
    return out


def _row_name(row: dict) -> str:
    named = [f"{c}={row[c]}" for c in _ROW_NAMES if row.get(c)]
    return f" ({', '.join(named)})" if named else ""


def _flatten(value, prefix: str = "") -> dict[str, str]:
    if isinstance(value, dict):
        flat: dict[str, str] = {}
        for k, v in value.items():
            flat.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return flat
    return {prefix: json.dumps(value)}


def _compare_json(file: str, old, new) -> list[Difference]:
    a, b = _flatten(old), _flatten(new)
    return [Difference(file, key, a.get(key), b.get(key)) for key in [*a, *(k for k in b if k not in a)]
            if a.get(key) != b.get(key)]


def _compare_lines(file: str, old: str, new: str) -> list[Difference]:
    a, b = old.splitlines(), new.splitlines()
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            line_a = a[i1 + k] if i1 + k < i2 else None
            line_b = b[j1 + k] if j1 + k < j2 else None
            where = f"line {i1 + k + 1}" if line_a is not None else f"after line {i2}"
            out.append(Difference(file, where, _quote(line_a), _quote(line_b)))
    return out


def _quote(line: str | None) -> str | None:
    return None if line is None else json.dumps(line, ensure_ascii=False)
