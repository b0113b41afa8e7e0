"""Writing an experiment's results: CSV, a Markdown table, figures and ``config.json``.

Every results folder records how it was made: the command line, seed, samples,
package versions, the git revision (and whether anything outside ``results/`` had
uncommitted changes) and the wall time, so each number can be traced to one command.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pandas as pd

__all__ = ["markdown_table", "write_results", "provenance", "summary_row", "SUMMARY_COLUMNS"]

#: The tidy columns every summary CSV starts with.
SUMMARY_COLUMNS = [
    "board", "width", "height", "mines", "rule", "click_x", "click_y",
    "solver", "n", "k", "p", "low", "high", "exact",
]

_PACKAGES = ["mscsp", "numpy", "pandas", "matplotlib", "python-sat", "ortools"]


def summary_row(board: str, spec, rule: str, first_click: tuple[int, int] | None, n: int, k: int, *,
                solver: str | None = None, policy: str | None = None, exact: float | None = None,
                **extra) -> dict:
    """One tidy summary row: the board, the proportion ``k/n`` with its
    Wilson 95% interval, and any experiment-specific columns after them.

    Examples
    --------
    >>> from mscsp.board import Spec
    >>> r = summary_row("beginner", Spec(9, 9, 10), "safe", (4, 4), 10, 5, solver="sat")
    >>> r["p"], round(r["low"], 3), list(r)[:8]
    (0.5, 0.237, ['board', 'width', 'height', 'mines', 'rule', 'click_x', 'click_y', 'solver'])
    """
    from ..stats import wilson

    low, high = wilson(k, n)
    row = {"board": board, "width": spec.width, "height": spec.height, "mines": spec.mines, "rule": rule,
           "click_x": first_click[0] if first_click else None, "click_y": first_click[1] if first_click else None}
    if policy is not None:
        row["policy"] = policy
    else:
        row["solver"] = solver
    row.update({"n": n, "k": k, "p": k / n, "low": low, "high": high, "exact": exact})
    row.update(extra)
    return row


def _fmt(value, digits: int) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown_table(df: pd.DataFrame, digits: int = 4, columns: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table (no third-party formatter needed).

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"a": [1], "p": [0.12345]})), end="")
    | a | p |
    | --- | --- |
    | 1 | 0.1235 |
    """
    cols = columns or list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    columns_data = [df[c].tolist() for c in cols]  # per column, so ints stay ints
    for i in range(len(df)):
        lines.append("| " + " | ".join(_fmt(col[i], digits) for col in columns_data) + " |")
    return "\n".join(lines) + "\n"


def _git_revision() -> dict:
    here = Path(__file__).resolve().parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        # the outputs themselves do not make a run dirty: reproduce writes results/
        # folder by folder, and the later experiments would see the earlier ones
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ":(top,exclude)results", ":(top,exclude)results-quick"], cwd=here,
                               capture_output=True, text=True, timeout=10)
        if rev.returncode == 0:
            return {"revision": rev.stdout.strip(), "dirty": bool(dirty.stdout.strip())}
    except (OSError, subprocess.SubprocessError):
        pass
    return {"revision": None, "dirty": None}


def provenance(argv: list[str] | None = None) -> dict:
    """Command, versions and revision of this run."""
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    from .. import fastplay

    return {
        "command": " ".join(argv if argv is not None else sys.argv),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
        "git": _git_revision(),
        # which play loop verifies boards: the compiled one, or the Python reference
        "play_loop": "compiled" if fastplay.available() else "python",
    }


def write_results(
    out: Path,
    tables: dict[str, pd.DataFrame],
    markdown: str,
    config: dict,
    figures: dict | None = None,
) -> None:
    """Write ``NAME.csv`` per table, ``README.md`` (the Markdown), figures, ``config.json``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    (out / "README.md").write_text(markdown)
    for name, fig in (figures or {}).items():
        fig.savefig(out / f"{name}.png", dpi=120, bbox_inches="tight")
    (out / "config.json").write_text(json.dumps(config, indent=2, default=str) + "\n")
