"""The paper in ``paper/``: every number and table from ``results/``, and the PDF.

``mscsp paper`` reads the CSV tables of ``results/*/`` and writes
``paper/generated/``: ``numbers.tex``, one macro per number the prose quotes, and
one ``.tex`` table per results table; then LaTeX (``latexmk``) builds
``paper/mscsp.pdf``. The prose never types a result: it writes
``\\R{completion/expert/opening/centre/sat+total/p}``, a key made of the results
folder, the table (when not ``summary``), the values of the columns that name the
row, and the column. Each macro is defined with a comment naming its file, row,
column and style, so every number in the PDF can be traced to one cell of one CSV
(``tests/test_paper.py`` recomputes them all from the CSVs).

Every ``results/*/run.json`` names the git revision and the machine of its run: the
paper prints them in a table of runs, and ``mscsp paper`` warns on standard error, one
line per revision, when the folders were made at more than one.

Figures are the vector PDFs the experiments write beside their PNGs; the paper
includes them with ``\\resultfigure{FOLDER/NAME}``, and a missing one stops the
build with one line that says to run ``mscsp reproduce``.

One module, not several: most of its length is the list of sources (which table, which
columns name a row, which numbers the prose quotes) and one small writer per results
table, all read by the one command that builds the paper.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..board import PRESETS
from ..errors import InputError, MscspError

__all__ = ["Source", "Number", "SOURCES", "VERDICTS", "verdict", "render", "read_table", "numbers", "numbers_tex", "tables",
           "revision", "runs", "machine_labels", "by_revision", "mixed_revisions", "article_completion",
           "required_figures", "write_generated", "build_pdf", "TexMissing", "TEX_MISSING"]

#: Exit status of ``mscsp paper`` when no TeX is installed (EX_UNAVAILABLE of sysexits.h):
#: ``paper/generated/`` is written, the PDF is not.
TEX_MISSING = 69

PAPER = Path("paper")
RESULTS = Path("results")


class TexMissing(MscspError):
    """``latexmk`` (TeX Live) is not installed, so the PDF cannot be built."""


@dataclass(frozen=True)
class Source:
    """A results table and what the paper quotes of it: ``keys`` name a row,
    ``columns`` maps each quoted column to its style (see :func:`render`)."""

    file: str
    keys: tuple[str, ...]
    columns: dict[str, str]


@dataclass(frozen=True)
class Number:
    """One quoted number: its macro key, where it comes from, and its TeX text.

    ``row`` selects the row (column, value pairs); ``column`` is the quoted column,
    or ``#count`` for the number of rows that ``row`` selects.
    """

    key: str
    file: str
    row: tuple[tuple[str, str], ...]
    column: str
    style: str
    tex: str

    def definition(self) -> str:
        """The macro's definition with its provenance as a comment line above it."""
        where = ",".join(f"{c}={v}" for c, v in self.row)
        return (f"% results/{self.file} | {where} | {self.column} | {self.style}\n"
                f"\\expandafter\\newcommand\\csname r@{self.key}\\endcsname{{{self.tex}}}\n")


_P4 = {"p": "dec4", "low": "dec4", "high": "dec4"}
#: Two players on the same boards: each one's rate with its Wilson interval, the boards
#: only one of them won, and the paired difference (mscsp minus the peer).
_HEAD_TO_HEAD = {"n": "int", **{f"{who}_{c}": "pct2" for who in ("mscsp", "java") for c in ("p", "low", "high")},
                 "mscsp_only": "int", "java_only": "int", "diff": "pp2", "low": "pp2", "high": "pp2"}
_PCT = {"p": "pct1", "low": "pct1", "high": "pct1", "n": "int", "k": "int"}

#: What the prose quotes of each results table.
SOURCES = [
    Source("first_click/summary.csv", ("board", "rule"),
           {**_P4, "exact": "dec4", "delta": "signed4", "z": "signed2", "n": "int", "k": "int"}),
    Source("first_click/maps.csv", ("board", "rule"),
           {"min": "pct1", "max": "pct1", "centre": "pct1", "min_x": "int", "min_y": "int", "best_x": "int",
            "best_y": "int", "kostka_min": "pct0", "kostka_max": "pct0"}),
    Source("first_click/fit.csv", (), {"chi2": "dec2", "df": "int", "p": "dec2"}),
    Source("first_click_article/summary.csv", ("board", "rule"),
           {**_P4, "exact": "dec4", "delta": "signed4", "z": "signed2", "ci95_normal": "dec4", "n": "int"}),
    Source("completion/summary.csv", ("board", "rule", "click", "solver"),
           {**_PCT, "p": "pct2", "low": "pct2", "high": "pct2"}),
    Source("completion/timings.csv", ("board", "rule", "click_x", "click_y", "solver"),
           {"ms_per_verification": "sig2", "expected_wait_s": "sig2"}),
    Source("completion_article/summary.csv", ("board",),
           {"p": "dec3", "normal_halfwidth": "dec3", "low": "dec4", "high": "dec4", "n": "int", "k": "int"}),
    Source("winrate/summary.csv", ("board", "rule", "policy"),
           {**_PCT, "mean_guesses": "dec2", "games_without_guess": "int", "record": "pctg",
            "record_margin": "pp2"}),
    Source("winrate/optimum.csv", ("board", "mines", "rule"),
           {"layouts": "int", "optimum": "pct2", "least-p": "pct2", "+endgame": "pct2", "gap least-p": "pp2",
            "gap +progress": "pp2", "gap +lookahead": "pp2", "gap +fifty": "pp2", "gap +endgame": "pp2",
            "+deep": "pct2", "gap +deep": "pp2"}),
    Source("winrate/paired.csv", ("board", "rule", "policy", "against"),
           {"n": "int", "policy_only": "int", "against_only": "int", "diff": "pp2", "low": "pp2", "high": "pp2"}),
    Source("winrate/timings.csv", ("board", "rule", "policy"), {"ms_per_game": "sig2", "ms_per_guess": "sig2"}),
    Source("consistency/summary.csv", ("variables", "ratio"),
           {**_PCT, "clauses": "int", "width": "int", "height": "int", "mean_cells": "int", "mean_clues": "int"}),
    Source("consistency/timings.csv", ("variables", "ratio"),
           {"mean_decide_s": "sig2", "max_decide_s": "sig2", "mean_direct_ms": "sig2", "mean_compile_s": "sig2"}),
    Source("noguess_cost/summary.csv", ("board", "method"),
           {**_PCT, "mean_attempts": "sig3", "se_attempts": "sig2", "mean_perturbations": "sig3",
            "se_perturbations": "sig2", "mean_3bv": "dec1", "se_3bv": "dec1", "border_density_ratio": "dec3",
            "border_ratio_low": "dec3", "border_ratio_high": "dec3"}),
    Source("noguess_cost/bias.csv", ("board",),
           {**{f"{stem}_{arm}{end}": style for stem, style in (("mean_3bv", "dec1"), ("border_ratio", "dec3"))
               for arm in ("uniform", "retry", "perturb") for end in ("", "_low", "_high")},
            **{f"boards_{arm}": "int" for arm in ("uniform", "retry", "perturb")},
            "ks_distance_3bv": "dec3", "ks_p_3bv": "sig2"}),
    Source("noguess_cost/timings.csv", ("board", "method"), {"mean_s": "sig2", "median_s": "sig2", "p90_s": "sig2"}),
    Source("speed/summary.csv", ("comparison", "corpus", "stage"),
           {"n": "int", "mscsp_ms": "sig2", "peer_ms": "sig2", "ratio": "sig2", "mscsp_wins": "int",
            "peer_wins": "int", "diff": "pp2", "low": "pp2", "high": "pp2", "limit_ms": "int"}),
    Source("headtohead/summary.csv", ("start",), _HEAD_TO_HEAD),
    Source("headtohead_tu/summary.csv", ("start",), _HEAD_TO_HEAD),
    Source("headtohead_deep/summary.csv", ("start",), _HEAD_TO_HEAD),
    Source("headtohead_deep/timings.csv", ("start",), {"mscsp_ms": "dec1", "java_ms": "dec1"}),
    Source("noguess_bias/summary.csv", ("board", "method"),
           {"n": "int", "k": "int", "mean_3bv": "dec1", "border_density_ratio": "dec2", "border_ratio_low": "dec2",
            "border_ratio_high": "dec2"}),
    Source("noguess_bias/tests.csv", ("board", "method"),
           {"diff_3bv": "signed1", "ks_3bv_p": "sig2", "diff_border": "signed2", "ks_border_p": "sig2"}),
    Source("noguess_uniform/census.csv", ("setting", "method"), {"p_value": "sig2", "chi2": "dec1", "df": "int"}),
]

#: Phrases the prose takes from the statistics rather than typing them: (file, row
#: keys, column, style). ``vs-interval`` places the row's value of ``column`` against
#: the row's 95% interval ``[low, high]`` (the measured rate against a record);
#: ``vs-zero`` places zero against it (a paired difference); ``vs-alpha`` reads a
#: p-value at the 5% level; ``vs-one`` reads a ratio of times (mscsp's over a
#: peer's). Each is quoted as ``\\R{...}/verdict``, or by the name given last.
VERDICTS = [
    ("winrate/summary.csv", ("board", "rule", "policy"), "record", "vs-interval", "verdict"),
    ("winrate/paired.csv", ("board", "rule", "policy", "against"), "diff", "vs-zero", "verdict"),
    ("first_click/fit.csv", (), "p", "vs-alpha", "verdict"),
    ("speed/summary.csv", ("comparison", "corpus", "stage"), "diff", "vs-zero", "verdict"),
    ("speed/summary.csv", ("comparison", "corpus", "stage"), "ratio", "vs-one", "pace"),
    ("headtohead/summary.csv", ("start",), "diff", "vs-zero", "verdict"),
    ("headtohead_tu/summary.csv", ("start",), "diff", "vs-zero", "verdict"),
    ("headtohead_deep/summary.csv", ("start",), "diff", "vs-zero", "verdict"),
]


def verdict(row: dict, column: str, style: str) -> str:
    """The words a row's statistics allow (see :data:`VERDICTS`).

    Examples
    --------
    >>> verdict({"record": "0.41132", "low": "0.4037", "high": "0.4098"}, "record", "vs-interval")
    'significantly below'
    >>> verdict({"diff": "0.02", "low": "-0.01", "high": "0.05"}, "diff", "vs-zero")
    'no significant difference'
    >>> verdict({"p": "0.356"}, "p", "vs-alpha")
    'no more than chance alone produces'
    >>> verdict({"ratio": "0.62"}, "ratio", "vs-one"), verdict({"ratio": "1.03"}, "ratio", "vs-one")
    ('faster than', 'about as fast as')
    """
    if style == "vs-one":  # within 5% either way is no difference worth a word on one machine
        ratio = float(row[column])
        return "faster than" if ratio < 0.95 else "slower than" if ratio > 1.05 else "about as fast as"
    if style == "vs-alpha":
        return "no more than chance alone produces" if float(row[column]) >= 0.05 else \
            "more than chance alone produces at the 5\\% level"
    low, high = float(row["low"]), float(row["high"])
    if style == "vs-interval":
        value = float(row[column])
        return "significantly below" if value > high else "significantly above" if value < low else \
            "indistinguishable from"
    if style == "vs-zero":
        return "a significant gain" if low > 0 else "a significant loss" if high < 0 else "no significant difference"
    raise ValueError(f"unknown verdict style {style!r}")


def machine(run: dict) -> str:
    """The hardware and software of a run, as the paper names it.

    Examples
    --------
    >>> machine({"processor": "AMD EPYC", "cpus": 2, "python": "3.11.7", "platform": "Linux-6.18-x86_64"})
    'AMD EPYC, 2 CPUs, Linux, Python 3.11.7'
    """
    system = str(run.get("platform", "")).split("-")[0] or "unknown system"
    return _tex(f"{run.get('processor') or 'unknown processor'}, {run.get('cpus')} CPUs, {system}, "
                f"Python {run.get('python')}")


def revision(run: dict) -> str:
    """The git revision a run was made at, seven digits, ``+dirty`` when the work
    tree had changes, ``unknown`` when the run did not record one.

    Examples
    --------
    >>> revision({"git": {"revision": "9027a2e88b498abab4dc248381d48d5702b9dcb9", "dirty": False}})
    '9027a2e'
    >>> revision({"git": {"revision": "2b920aa1429287a8", "dirty": True}}), revision({})
    ('2b920aa+dirty', 'unknown')
    """
    git = run.get("git") or {}
    rev = str(git.get("revision") or "")[:7] or "unknown"
    return rev + ("+dirty" if git.get("dirty") and rev != "unknown" else "")


def runs(results: Path = RESULTS) -> dict[str, dict]:
    """The run record (``run.json``) of every results folder that has one, by folder
    name in alphabetical order; an unreadable record is bad input.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as top:
    ...     for folder in ("winrate", "first_click", "screenshots"):
    ...         (Path(top) / folder).mkdir()
    ...     for folder in ("winrate", "first_click"):
    ...         _ = (Path(top) / folder / "run.json").write_text('{"cpus": 2}')
    ...     runs(Path(top))
    {'first_click': {'cpus': 2}, 'winrate': {'cpus': 2}}
    """
    out = {}
    for path in sorted(Path(results).glob("*/run.json")):
        try:
            out[path.parent.name] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise InputError(f"{path}: cannot read the run's record ({err}); run `mscsp reproduce`") from None
    return out


def machine_labels(records: dict[str, dict]) -> dict[str, str]:
    """A letter for each machine, in the order the folders first name it, so that the
    paper spells each processor out once (in the table of runs) and calls it by its
    letter elsewhere.

    Examples
    --------
    >>> a = {"processor": "Xeon", "cpus": 2, "python": "3.11", "platform": "Linux-6"}
    >>> machine_labels({"a": a, "b": {**a, "processor": "EPYC"}, "c": a})
    {'Xeon, 2 CPUs, Linux, Python 3.11': 'A', 'EPYC, 2 CPUs, Linux, Python 3.11': 'B'}
    """
    labels: dict[str, str] = {}
    for run in records.values():
        labels.setdefault(machine(run), chr(ord("A") + len(labels)))
    return labels


def by_revision(records: dict[str, dict]) -> dict[str, list[str]]:
    """The folders made at each revision, revisions in the order the folders first name them.

    Examples
    --------
    >>> by_revision({"a": {"git": {"revision": "1111111aa"}}, "b": {"git": {"revision": "2222222bb"}},
    ...              "c": {"git": {"revision": "1111111aa"}}})
    {'1111111': ['a', 'c'], '2222222': ['b']}
    """
    groups: dict[str, list[str]] = {}
    for folder, run in records.items():
        groups.setdefault(revision(run), []).append(folder)
    return groups


def mixed_revisions(results: Path = RESULTS) -> list[str]:
    """One warning line per revision when ``results/`` was made at more than one
    (a copy that one command at one revision did not make); none when every folder
    names the same revision.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as top:
    ...     for folder, rev in (("a", "1111111aa"), ("b", "2222222bb"), ("c", "1111111aa")):
    ...         (Path(top) / folder).mkdir()
    ...         _ = (Path(top) / folder / "run.json").write_text(json.dumps({"git": {"revision": rev}}))
    ...     for line in mixed_revisions(Path(top)):
    ...         print(line.split(";")[1])
     1111111 made a, c
     2222222 made b
    """
    groups = by_revision(runs(results))
    if len(groups) < 2:
        return []
    return [f"mscsp paper: warning: {Path(results).name}/ mixes {len(groups)} git revisions; {rev} made "
            f"{', '.join(folders)}" for rev, folders in groups.items()]


#: Counts of rows, quoted as numbers: (key, file, row selector).
COUNTS = [
    ("first_click/rows", "first_click/summary.csv", ()),
    ("first_click/covers", "first_click/summary.csv", (("covers_exact", "True"),)),
    ("noguess_uniform/census/settings", "noguess_uniform/census.csv", (("method", "chain"),)),
]

#: The least and the largest value of a column over the rows a selector picks, quoted
#: as a range: (key, file, row selector, column, style, ``min`` or ``max``).
EXTREMES = [
    ("noguess_uniform/census/chain/p_value_min", "noguess_uniform/census.csv", (("method", "chain"),), "p_value",
     "sig2", "min"),
    ("noguess_uniform/census/chain/p_value_max", "noguess_uniform/census.csv", (("method", "chain"),), "p_value",
     "sig2", "max"),
    ("noguess_uniform/census/perturb/p_value_max", "noguess_uniform/census.csv", (("method", "perturb"),),
     "p_value", "sig2", "max"),
    # the standard errors of the pooled mine densities of Fig. mine-frequency
    *((f"noguess_cost/rings/{arm}/se_{which}", "noguess_cost/rings.csv", (("method", arm),), "se", "dec3", which)
      for arm in ("retry", "perturb") for which in ("min", "max")),
]


def _minus(text: str) -> str:
    return "\\ensuremath{-}" + text[1:] if text.startswith("-") else text


def _group(digits: str) -> str:
    """Thousands of the whole part separated by a thin comma: ``200{,}000``, ``8{,}019.15``."""
    sign, digits = ("-", digits[1:]) if digits.startswith("-") else ("", digits)
    digits, point, decimals = digits.partition(".")
    groups = []
    while len(digits) > 3:
        digits, tail = digits[:-3], digits[-3:]
        groups.insert(0, tail)
    return sign + "{,}".join([digits, *groups]) + point + decimals


def render(text: str, style: str) -> str:
    """A CSV cell as TeX in a style: ``int`` (thousands grouped), ``decD`` (D
    decimals), ``signedD`` (with its sign), ``pctD`` (a percentage, D decimals),
    ``pctg`` (a percentage with the digits it has), ``ppD`` (percentage points),
    ``sigD`` (D significant digits, but never fewer than the whole digits); an
    infinite value is the sign of infinity.

    Every style rounds the cell's decimal text half away from zero (not a binary
    float, which rounds some halves up and others down), so a table's column has one
    precision; a percentage that is not zero but would round to zero is given two
    significant digits instead, so that no small rate reads as none.

    Examples
    --------
    >>> render("0.15448690437861692", "dec4"), render("0.0013", "signed4"), render("-0.0021346", "signed4")
    ('0.1545', '+0.0013', '\\\\ensuremath{-}0.0021')
    >>> render("200000", "int"), render("0.41132", "pctg"), render("0.543", "pct1"), render("0.0634", "sig2")
    ('200{,}000', '41.132\\\\%', '54.3\\\\%', '0.063')
    >>> render("8019.15", "sig3"), render("13.885", "sig3"), render("1.2849e-05", "sig2")
    ('8{,}019', '13.9', '\\\\ensuremath{1.3\\\\times 10^{-5}}')
    >>> render("0.8065", "pct1"), render("0.8255", "pct1"), render("2.675", "dec2"), render("-0.125", "dec2")
    ('80.7\\\\%', '82.6\\\\%', '2.68', '\\\\ensuremath{-}0.13')
    >>> render("0.0004", "pct1"), render("0.0005", "pct1"), render("8.974", "sig2"), render("0.00034", "sig2")
    ('0.040\\\\%', '0.1\\\\%', '9.0', '0.00034')
    """
    if float(text) in (float("inf"), float("-inf")):  # an expected wait with no success at all
        return ("\\ensuremath{-}" if float(text) < 0 else "") + "\\ensuremath{\\infty}"
    value = Decimal(text.strip())
    kind, digits = re.fullmatch(r"([a-z]+?)(\d*|g)", style).groups()
    if kind == "int":
        return _minus(_group(f"{_round(value, 0):f}"))
    if kind == "dec":
        return _minus(_group(f"{_round(value, int(digits)):f}"))
    if kind == "signed":
        rounded = _round(value, int(digits))
        return _minus(f"{rounded:f}" if rounded.is_signed() else f"+{rounded:f}")
    if kind == "pct" and digits == "g":
        return f"{round(100 * float(value), 6):g}\\%"
    if kind == "pct":
        return _minus(_fixed(value * 100, int(digits))) + "\\%"
    if kind == "pp":  # a difference: one that rounds to zero is no difference worth a digit
        return _minus(f"{_round(value * 100, int(digits)):f}")
    if kind == "sig":
        return _significant(value, int(digits))
    raise ValueError(f"unknown style {style!r}")


def _round(value: Decimal, places: int) -> Decimal:
    """``value`` to ``places`` decimals, half away from zero (``ROUND_HALF_UP`` in
    :mod:`decimal` is away from zero for negative numbers too)."""
    return value.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)


def _fixed(value: Decimal, places: int) -> str:
    """``value`` with ``places`` decimals, or with two significant digits when it is
    not zero but would round to zero.

    Examples
    --------
    >>> _fixed(Decimal("0.05"), 1), _fixed(Decimal("0.04"), 1), _fixed(Decimal("0"), 1), _fixed(Decimal("15.25"), 1)
    ('0.1', '0.040', '0.0', '15.3')
    """
    rounded = _round(value, places)
    if value and not rounded:
        rounded = _round(value, 1 - value.adjusted())
    return f"{rounded:f}"


def _significant(value: Decimal, digits: int) -> str:
    """``value`` to ``digits`` significant digits, trailing zeros kept (``9.0``), but
    never fewer than its whole digits (``8{,}019``); below 10^-4 as a power of ten.

    Examples
    --------
    >>> _significant(Decimal("0.0995"), 2), _significant(Decimal("54730.4"), 2), _significant(Decimal("0"), 2)
    ('0.10', '54{,}730', '0')
    """
    if not value:
        return "0"
    if abs(value) >= 10 ** (digits - 1):  # every whole digit counts: 8019, not 8020
        return _minus(_group(f"{_round(value, 0):f}"))
    rounded = _round(value, digits - 1 - value.adjusted())
    rounded = _round(rounded, digits - 1 - rounded.adjusted())  # 0.0995 carries to 0.100: two digits, 0.10
    if rounded.adjusted() < -4:  # a tiny p-value: 1.3e-05 is printed as 1.3 x 10^-5
        mantissa = _round(rounded.scaleb(-rounded.adjusted()), digits - 1)
        return f"\\ensuremath{{{_minus(f'{mantissa:f}')}\\times 10^{{{rounded.adjusted()}}}}}"
    return _minus(f"{rounded:f}")


def read_table(results: Path, file: str) -> list[dict[str, str]]:
    """The rows of ``results/FILE`` as dicts of strings, with a ``click`` column
    (``centre`` or ``corner``) where the table has click coordinates.

    A missing or unreadable table is bad input, said in one line.
    """
    path = Path(results) / file
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"{path}: cannot read the table ({exc.__class__.__name__}); run `mscsp reproduce` "
                         "to make the results") from None
    for row in rows:
        if row.get("click_x") not in (None, "") and row.get("width"):
            corner = row["click_x"] == "0" and row["click_y"] == "0"
            row["click"] = "corner" if corner else "centre"
    return rows


def _key_part(value: str) -> str:
    return re.sub(r"\s+", "-", value.strip())


def _prefix(file: str) -> str:
    folder, name = file.split("/")
    stem = name.rsplit(".", 1)[0]
    return folder if stem == "summary" else f"{folder}/{stem}"


def numbers(results: Path = RESULTS) -> list[Number]:
    """Every quotable number of the results tables, in table order.

    A table whose rows its keys do not tell apart, or that lacks a column the paper
    quotes (a results folder older than the paper), is bad input.
    """
    out: list[Number] = []
    for source in SOURCES:
        rows = read_table(results, source.file)
        missing = [c for c in (*source.keys, *source.columns) if rows and c not in rows[0]]
        if missing or not rows:
            raise InputError(f"{Path(results) / source.file}: no column {missing[0]!r}" if missing else
                             f"{Path(results) / source.file}: no rows" + "; the results folder is older than "
                             "the paper: run `mscsp reproduce` to regenerate it")
        seen = set()
        for row in rows:
            selector = tuple((k, row[k]) for k in source.keys)
            if selector in seen:
                raise InputError(f"{Path(results) / source.file}: two rows with {dict(selector)}")
            seen.add(selector)
            stem = "/".join([_prefix(source.file), *(_key_part(v) for _, v in selector)])
            for column, style in source.columns.items():
                if row[column] != "":
                    out.append(Number(f"{stem}/{_key_part(column)}", source.file, selector, column, style,
                                      render(row[column], style)))
    for file, keys, column, style, name in VERDICTS:
        for row in read_table(results, file):
            if row.get(column, "") == "":
                continue
            selector = tuple((k, row[k]) for k in keys)
            stem = "/".join([_prefix(file), *(_key_part(v) for _, v in selector)])
            out.append(Number(f"{stem}/{name}", file, selector, column, style, verdict(row, column, style)))
    records = runs(results)
    labels = machine_labels(records)
    for folder, run in records.items():
        file = f"{folder}/run.json"
        # the processor is spelt out once, in the table of runs; elsewhere its letter
        out.append(Number(f"machine/{folder}", file, (), "machine", "machine", f"machine~{labels[machine(run)]}"))
        out.append(Number(f"revision/{folder}", file, (), "git.revision", "revision",
                          f"\\texttt{{{revision(run)}}}"))
    out.append(Number("runs/revisions", "*/run.json", (), "git.revision", "#distinct",
                      render(str(len(by_revision(records))), "int")))
    out.append(Number("runs/machines", "*/run.json", (), "machine", "#distinct", render(str(len(labels)), "int")))
    for key, file, selector in COUNTS:
        rows = read_table(results, file)
        count = sum(all(r.get(c) == v for c, v in selector) for r in rows)
        out.append(Number(key, file, selector, "#count", "int", render(str(count), "int")))
    for key, file, selector, column, style, which in EXTREMES:
        values = [r[column] for r in read_table(results, file)
                  if all(r.get(c) == v for c, v in selector) and r.get(column, "") != ""]
        if not values:
            raise InputError(f"{Path(results) / file}: no rows with {dict(selector)}; run `mscsp reproduce`")
        # compared as decimals, so the quoted cell is the CSV's own text
        pick = (min if which == "min" else max)(values, key=Decimal)
        out.append(Number(key, file, selector, f"#{which}:{column}", style, render(pick, style)))
    return out


def numbers_tex(quoted: list[Number], results_dir: str) -> str:
    """``numbers.tex``: ``\\R{KEY}`` (an unknown key stops LaTeX with an error),
    ``\\resultfigure{FOLDER/NAME}`` and one macro per number."""
    head = [
        "% Written by `mscsp paper` from the CSV tables of results/: do not edit.",
        "% Each number: its file, row, column and style, then its macro.",
        f"\\newcommand\\resultsdir{{{results_dir}}}",
        "\\newcommand\\resultfigure[1]{\\resultsdir/#1.pdf}",
        "\\newcommand\\R[1]{\\ifcsname r@#1\\endcsname\\csname r@#1\\endcsname"
        "\\else\\PackageError{numbers}{no result named #1}{See paper/generated/numbers.tex}\\fi}",
        "",
    ]
    return "\n".join(head) + "".join(n.definition() for n in quoted)


# -- tables -------------------------------------------------------------------------------


def _tex(text: str) -> str:
    """A label from a CSV as TeX: ``x`` between sizes as a times sign, specials escaped."""
    text = re.sub(r"(\d)x(\d)", r"\1$\\times$\2", text)
    return re.sub(r"([%&#_])", r"\\\1", text)


def _board_label(row: dict) -> str:
    """A board as every table names it, width x height / mines: ``9x9/10`` for
    Beginner (and ``8x8/10`` for the older Beginner), ``30x16/130`` for a board of no
    name (the paper's notation, defined in its introduction; the names would not fit
    the wider tables); :func:`_tex` turns the ``x`` into a times sign."""
    board = row["board"]
    name = board.split()[0]
    if name not in PRESETS:
        return board
    spec = PRESETS[name]
    w, h, m = (row["width"], row["height"], row["mines"]) if row.get("width") else (spec.width, spec.height, spec.mines)
    return f"{w}x{h}/{m}"


def _labelled(rows: list[dict]) -> list[dict]:
    """The rows with each board named by :func:`_board_label` (copies: the macros read the originals)."""
    return [{**r, "board": _board_label(r)} for r in rows]


def _tabular(spec: str, header: list[str], body: list[list[str]], rules_after: set[int] = frozenset()) -> str:
    """A booktabs tabular; ``rules_after`` puts a thin rule after those body rows."""
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(header) + " \\\\", "\\midrule"]
    for i, row in enumerate(body):
        lines.append(" & ".join(row) + " \\\\")
        if i in rules_after and i != len(body) - 1:
            lines.append("\\addlinespace")
    lines += ["\\bottomrule", "\\end{tabular}", ""]
    return "\n".join(lines)


def _breaks(rows: list[dict], column: str) -> set[int]:
    return {i for i in range(len(rows) - 1) if rows[i][column] != rows[i + 1][column]}


def _interval(row: dict, style: str) -> str:
    return f"[{render(row['low'], style)}, {render(row['high'], style)}]"


def _first_click(results: Path) -> str:
    rows = _labelled(read_table(results, "first_click/summary.csv"))
    # an interval that misses the exact value is marked, so that the one in twenty is seen
    body = [[_tex(r["board"]), r["rule"], render(r["exact"], "dec4"), render(r["p"], "dec4"),
             _interval(r, "dec4") + ("" if r["covers_exact"] == "True" else "$^{\\ast}$"),
             render(r["z"], "signed2")] for r in rows]
    return _tabular("llrrcr", ["board", "rule", "exact", "simulated", "Wilson 95\\%", "$z$"], body,
                    _breaks(rows, "board"))


def _first_click_maps(results: Path) -> str:
    """The least and most favourable first clicks; Kostka's published range in the
    \\code{winxp} row only (the rule it is), and Beginner's beside the 8x8 board it
    matches rather than the 9x9 board of today's Beginner."""
    raw = read_table(results, "first_click/maps.csv")
    published = {r["board"]: r for r in raw if r["kostka_min"]}
    if "beginner" in published and any(r["board"] == "beginner 8x8" for r in raw):
        published["beginner 8x8"] = published.pop("beginner")
    rows = _labelled(raw)
    body = []
    for original, r in zip(raw, rows):
        source = published.get(original["board"]) if r["rule"] == "winxp" else None
        kostka = (f"{render(source['kostka_min'], 'dec2')}--{render(source['kostka_max'], 'dec2')}"
                  if source else "")
        body.append([_tex(r["board"]), r["rule"], f"{render(r['min'], 'dec3')} ({r['min_x']},{r['min_y']})",
                     render(r["centre"], "dec3"), f"{render(r['max'], 'dec3')} ({r['best_x']},{r['best_y']})",
                     kostka])
    return _tabular("llrrrc", ["board", "rule", "least (cell)", "centre", "most (cell)", "Kostka"], body,
                    _breaks(rows, "board"))


def _first_click_article(results: Path) -> str:
    rows = _labelled(read_table(results, "first_click_article/summary.csv"))
    names = {"uniform": "random board", "safe": "click excluded"}
    body = [[_tex(r["board"]), names[r["rule"]],
             render(r["exact"], "dec4"), render(r["p"], "dec4"), render(r["ci95_normal"], "dec4"),
             render(r["delta"], "signed4")] for r in rows]
    return _tabular("llrrrr", ["board", "rule", "exact", "MC", "CI95", "delta"], body)


def _pivot(rows: list[dict], keys: list[str], column: str, value) -> tuple[list[tuple], list[str], dict]:
    """Rows grouped by ``keys`` (first-seen order), the values of ``column`` as
    columns (first-seen order), and ``value(row)`` in each cell."""
    groups: list[tuple] = []
    columns: list[str] = []
    cells = {}
    for r in rows:
        g = tuple(r[k] for k in keys)
        if g not in groups:
            groups.append(g)
        if r[column] not in columns:
            columns.append(r[column])
        cells[g, r[column]] = value(r)
    return groups, columns, cells


def _pivot_table(rows, keys, column, value, spec_keys: str, extra: tuple | None = None) -> str:
    """A pivot of ``rows`` as a table; ``extra`` = (header, function of a group's
    first row) adds a last column."""
    groups, columns, cells = _pivot(rows, keys, column, value)
    first = {}
    for r in rows:
        first.setdefault(tuple(r[k] for k in keys), r)
    body = [[_tex(str(v)) for v in g] + [cells.get((g, c), "") for c in columns]
            + ([extra[1](first[g])] if extra else []) for g in groups]
    breaks = {i for i in range(len(groups) - 1) if groups[i][0] != groups[i + 1][0]}
    header = keys + [_tex(c) for c in columns] + ([extra[0]] if extra else [])
    return _tabular(spec_keys + "r" * (len(columns) + bool(extra)), header, body, breaks)


def _completion(results: Path) -> str:
    rows = _labelled(read_table(results, "completion/summary.csv"))
    # two decimals: Expert's rates of a few per thousand keep their digits in a column of one precision
    return _pivot_table(rows, ["board", "rule", "click"], "solver", lambda r: render(r["p"], "pct2"), "lll")


#: The sentence of ``completion/README.md`` that gives the article's own single-point figures.
_ARTICLE_FIGURES = re.compile(r"the article's single-point figures \(its own boards\): ([^(]*?) \(")


def article_completion(results: Path = RESULTS) -> dict[str, str]:
    """The article's published single-point rates by board (``beginner``: ``0.637``),
    as the completion experiment's README quotes them; empty when it does not.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as top:
    ...     _ = (Path(top) / "completion").mkdir()
    ...     _ = (Path(top) / "completion" / "README.md").write_text("For comparison, the article's "
    ...         "single-point figures (its own boards): Beginner 0.637, Expert 0.001 (`--rng article` ...)")
    ...     article_completion(Path(top))
    {'beginner': '0.637', 'expert': '0.001'}
    """
    try:
        text = (Path(results) / "completion" / "README.md").read_text(encoding="utf-8")
    except OSError:
        return {}
    found = _ARTICLE_FIGURES.search(text)
    return {} if not found else {name.lower(): value for name, value in
                                 re.findall(r"(\w+) (\d+\.\d+)", found.group(1))}


def _completion_article(results: Path) -> str:
    published = article_completion(results)
    raw = read_table(results, "completion_article/summary.csv")
    body = [[_tex(r["board"]),
             f"{render(r['p'], 'dec3')} $\\pm$ {render(r['normal_halfwidth'], 'dec3')}",
             published.get(original["board"], "---"), render(r["n"], "int"), _interval(r, "dec4")]
            for original, r in zip(raw, _labelled(raw))]
    return _tabular("lccrc", ["board", "finished (as printed)", "article", "$n$", "Wilson 95\\%"], body)


def _winrate(results: Path) -> str:
    rows = _labelled(read_table(results, "winrate/summary.csv"))
    for r in rows:
        r["start"] = f"{r['rule']} ({r['click_x']},{r['click_y']})"
    return _pivot_table(rows, ["board", "start"], "policy", lambda r: render(r["p"], "pct1"), "ll",
                        ("record", lambda r: render(r["record"], "pctg") if r["record"] else ""))


def _winrate_optimum(results: Path) -> str:
    rows = read_table(results, "winrate/optimum.csv")
    policies = [c[len("gap "):] for c in rows[0] if c.startswith("gap ")]
    body = [[_tex(r["board"]), r["mines"], r["rule"], render(r["layouts"], "int"), render(r["optimum"], "pct2")]
            + [render(r[f"gap {p}"], "pp2") for p in policies] for r in rows]
    return _tabular("lrlrr" + "r" * len(policies),
                    ["board", "mines", "rule", "layouts", "optimum"] + [_tex(p) for p in policies], body)


def _winrate_paired(results: Path) -> str:
    """Every rung's gain over the rung below on every start, game by game on the same
    boards: the difference in points with Newcombe's interval beneath it."""
    rows = _labelled(read_table(results, "winrate/paired.csv"))
    steps: list[tuple[str, str]] = []
    for r in rows:
        if (r["policy"], r["against"]) not in steps:
            steps.append((r["policy"], r["against"]))
    starts: dict[tuple[str, str], dict] = {}
    for r in rows:
        starts.setdefault((r["board"], f"{r['rule']} ({r['click_x']},{r['click_y']})"), {})[
            r["policy"], r["against"]] = r
    body, breaks = [], set()
    for (board, start), cells in starts.items():
        gain = [render(cells[s]["diff"], "pp2") if s in cells else "" for s in steps]
        interval = [f"\\scriptsize[{render(cells[s]['low'], 'pp2')}, {render(cells[s]['high'], 'pp2')}]"
                    if s in cells else "" for s in steps]
        body += [[_tex(board), start] + gain, ["", ""] + interval]
        breaks.add(len(body) - 1)
    # a step is named by its rung; the whole ladder (top rung against bottom) by that word
    bottom = steps[0][1] if steps else ""
    header = ["board", "start"] + ["ladder" if a == bottom and i else _tex(p) for i, (p, a) in enumerate(steps)]
    return "\\setlength{\\tabcolsep}{4pt}\n" + _tabular("ll" + "r" * len(steps), header, body, breaks)


def _consistency(results: Path) -> str:
    rows = read_table(results, "consistency/summary.csv")
    groups, ratios, cells = _pivot(rows, ["variables"], "ratio", lambda r: f"{r['k']}/{r['n']}")
    size = {r["variables"]: r for r in rows}
    body = []
    for (n,) in groups:
        r = size[n]
        body.append([n, f"{render(r['width'], 'int')}$\\times${render(r['height'], 'int')}"]
                    + [cells.get(((n,), c), "") for c in ratios])
    return _tabular("rr" + "r" * len(ratios), ["variables $v$", "board (most clauses)"] + [f"$c/v={c}$" for c in ratios],
                    body)


def _pm(row: dict, mean: str, se: str, style: str) -> str:
    """A mean with its standard error, ``m $\\pm$ s`` (the mean alone without one, or
    when every value was the same)."""
    if not row.get(se) or float(row[se]) == 0:
        return render(row[mean], style)
    return f"{render(row[mean], style)} $\\pm$ {render(row[se], style)}"


def _ratio(row: dict, column: str, low: str, high: str) -> str:
    return f"{render(row[column], 'dec3')} [{render(row[low], 'dec3')}, {render(row[high], 'dec3')}]"


def _noguess(results: Path) -> str:
    rows = _labelled(read_table(results, "noguess_cost/summary.csv"))
    body = [[_tex(r["board"]), r["method"], f"{render(r['k'], 'int')}/{render(r['n'], 'int')}",
             _pm(r, "mean_attempts", "se_attempts", "dec2"), _pm(r, "mean_perturbations", "se_perturbations", "dec2"),
             _pm(r, "mean_3bv", "se_3bv", "dec1"),
             _ratio(r, "border_density_ratio", "border_ratio_low", "border_ratio_high")] for r in rows]
    # seven columns of means with their errors: a little less space between them keeps the
    # table inside the text width (the float's group keeps the setting to this table)
    return "\\setlength{\\tabcolsep}{4pt}\n" + _tabular(
        "llrrrrc", ["board", "method", "made", "attempts", "perturbations", "3BV", "border ratio [95\\%]"],
        body, _breaks(rows, "board"))


def _noguess_bias(results: Path) -> str:
    rows = _labelled(read_table(results, "noguess_cost/bias.csv"))
    body, breaks = [], set()
    for r in rows:
        ks = f"{render(r['ks_distance_3bv'], 'dec3')} (p-value {render(r['ks_p_3bv'], 'sig2')})"
        for arm in ("uniform", "retry", "perturb"):
            body.append([_tex(r["board"]) if arm == "uniform" else "", arm, render(r[f"boards_{arm}"], "int"),
                         f"{render(r[f'mean_3bv_{arm}'], 'dec1')} [{render(r[f'mean_3bv_{arm}_low'], 'dec1')}, "
                         f"{render(r[f'mean_3bv_{arm}_high'], 'dec1')}]",
                         ks if arm == "perturb" else "",
                         _ratio(r, f"border_ratio_{arm}", f"border_ratio_{arm}_low", f"border_ratio_{arm}_high")])
        breaks.add(len(body) - 1)
    return _tabular("llrccc", ["board", "boards", "made", "mean 3BV [95\\%]", "KS distance to retry",
                               "border ratio [95\\%]"], body, breaks)


#: Each generator's own setting as the bias table names it (the caption says what each means).
_SETTINGS = {"centre, with the total": "centre, total", "centre, without the total": "centre, no total",
             "random click, with the total": "random, total"}


def _generators_bias(results: Path) -> str:
    """Every no-guess generator against uniform no-guess boards of its own setting:
    boards made, mean 3BV and its difference from the reference with the
    Kolmogorov--Smirnov p-value, and the border density ratio with its interval; each
    board size a heading row, so that the nine columns fit the text width."""
    summary = {(r["board"], r["method"]): r for r in read_table(results, "noguess_bias/summary.csv")}
    raw = read_table(results, "noguess_bias/tests.csv")
    body, breaks = [], set()
    for i, (original, r) in enumerate(zip(raw, _labelled(raw))):
        if i == 0 or raw[i - 1]["board"] != original["board"]:
            if body:
                breaks.add(len(body) - 1)
            body.append([f"\\multicolumn{{8}}{{@{{}}l}}{{\\emph{{{_tex(r['board'])}}}}}"])
        made, reference = summary[original["board"], r["method"]], summary[original["board"], r["reference"]]
        measured = r["diff_3bv"] != ""
        body.append([_tex(r["method"].removeprefix("ms ")), _SETTINGS.get(made["setting"], _tex(made["setting"])),
                     f"{render(made['k'], 'int')}/{render(made['n'], 'int')}",
                     render(made["mean_3bv"], "dec1") if measured else "---", render(reference["mean_3bv"], "dec1"),
                     render(r["diff_3bv"], "signed1") if measured else "---",
                     _significant(Decimal(r["ks_3bv_p"]), 2) if measured else "---",
                     f"{render(made['border_density_ratio'], 'dec2')} [{render(made['border_ratio_low'], 'dec2')}, "
                     f"{render(made['border_ratio_high'], 'dec2')}]" if measured else "---"])
    return "\\setlength{\\tabcolsep}{4pt}\n" + _tabular(
        "@{}llrrrrrc@{}", ["generator", "setting", "made", "3BV", "uniform", "change", "KS $p$",
                          "border ratio [95\\%]"], body, breaks)


#: How the player comparison's starts read in the paper.
_STARTS = {"expert-modern": "modern Expert", "expert-classic": "classic Expert", "beginner-22": "Beginner (2,2)",
           "beginner-33": "Beginner (3,3)", "intermediate-22": "Intermediate (2,2)",
           "intermediate-33": "Intermediate (3,3)"}


#: The verification benchmark's modes as the speed table names them (the caption says what each means).
_CHECKS = {"without total": "no-guess check", "with total": "check, total", "quick without total": "quick check",
           "quick with total": "quick check, total"}


def _speed(results: Path) -> str:
    """mscsp's time against its peers' by task: the whole corpus of each start (the
    stages are quoted in the text), verification, and the player."""
    tasks = {"probabilities": "probabilities", "analyse": "analyse, with proofs", "verification": "no-guess check",
             "player": "a game, CPU"}
    rows = [r for r in read_table(results, "speed/summary.csv")
            if r["comparison"] in ("verification", "player") or r["stage"] == "all"]
    rows.sort(key=lambda r: list(tasks).index(r["comparison"]))  # stable: each task's rows in table order
    body = []
    for r in rows:
        what = _CHECKS.get(r["stage"], r["stage"]) if r["comparison"] == "verification" else tasks[r["comparison"]]
        difference = ""
        if r["comparison"] == "player":
            difference = f"{render(r['diff'], 'pp2')} [{render(r['low'], 'pp2')}, {render(r['high'], 'pp2')}]"
        body.append([what, _tex(_STARTS.get(r["corpus"], r["corpus"])), render(r["n"], "int"),
                     render(r["mscsp_ms"], "sig2"), render(r["peer_ms"], "sig2"), _time_ratio(r),
                     difference])
    return "\\setlength{\\tabcolsep}{4pt}\n" + _tabular(
        "llrrrrc", ["task", "corpus", "$n$", "mscsp ms", "peer ms", "ratio", "difference, points [95\\%]"],
        body, _breaks(rows, "comparison"))


def _time_ratio(row: dict, peer: str = "peer_ms") -> str:
    """mscsp's time over the peer's to two significant digits, from the two times
    (the CSV's ratio keeps three decimals, so 18 ms against 54,730 ms reads 0.0 there)."""
    return _significant(Decimal(row["mscsp_ms"]) / Decimal(row[peer]), 2)


def _over(row: dict) -> tuple[str, str]:
    """A peer's time and the ratio, or, where the peer did not finish, the time it was
    given and the bound that puts on the ratio."""
    if row["peer_ms"] != "":
        return render(row["peer_ms"], "sig2"), _time_ratio(row)
    limit = Decimal(row["limit_ms"])
    return f"over {render(str(limit / 1000), 'sig2')} s", f"$<$ {_time_ratio(row, 'limit_ms')}"


def _speed_exact(results: Path) -> str:
    """mscsp against the model counter Ganak (the layout count of every hard position,
    with the mine total and without it) and against ms_toollib's no-guess generator
    (median per board made; boards made of those asked for)."""
    rows = read_table(results, "speed/summary.csv")
    # every position with the total and without it: the rows without are where the
    # peer does best, so leaving them out would flatter mscsp
    counted = [r for r in rows if r["comparison"] == "counting"]
    made = [r for r in rows if r["comparison"] == "generation"]
    body = []
    for r in counted:
        peer, ratio = _over(r)
        body.append(["layout count" + ("" if r["stage"] == "with total" else ", no total"), _tex(r["corpus"]),
                     render(r["mscsp_ms"], "sig2"), peer, ratio, ""])
    for r in made:
        peer, ratio = _over(r)
        body.append([f"no-guess, {r['stage'].replace(' vs ', ' v. ')}", _tex(r["corpus"]), render(r["mscsp_ms"], "sig2"), peer, ratio,
                     f"{render(r['mscsp_wins'], 'int')}/{render(r['n'], 'int')}, "
                     f"{render(r['peer_wins'], 'int')}/{render(r['n'], 'int')}"])
    return "\\setlength{\\tabcolsep}{4pt}\n" + _tabular(
        "llrrrc", ["task", "position or board", "mscsp ms", "peer ms", "ratio", "made"],
        body, {len(counted) - 1} if counted and made else set())


def _runs(results: Path) -> str:
    """The revisions and machines the results were made at: one row per revision and
    machine with the folders made there, then each machine spelt out once."""
    records = runs(results)
    labels = machine_labels(records)
    groups: dict[tuple[str, str], list[str]] = {}
    for folder, run in records.items():
        groups.setdefault((revision(run), labels[machine(run)]), []).append(_tex(folder))
    body = [[f"\\texttt{{{rev}}}", label, ", ".join(folders)] for (rev, label), folders in groups.items()]
    # ragged right: a justified list of folder names stretches its spaces (needs the array package)
    table = _tabular("ll>{\\raggedright\\arraybackslash}p{0.6\\linewidth}",
                     ["revision", "machine", "results folders"], body)
    machines = [[f"machine {label}", name] for name, label in labels.items()]
    return table + "\\par\\medskip\n" + _tabular("ll", ["machine", "processor, CPUs, system, Python"], machines)


#: One generated table per results table: (file name in paper/generated/, writer).
TABLES = {
    "first_click.tex": _first_click,
    "first_click_maps.tex": _first_click_maps,
    "first_click_article.tex": _first_click_article,
    "completion.tex": _completion,
    "completion_article.tex": _completion_article,
    "winrate.tex": _winrate,
    "winrate_optimum.tex": _winrate_optimum,
    "winrate_paired.tex": _winrate_paired,
    "consistency.tex": _consistency,
    "noguess_cost.tex": _noguess,
    "noguess_bias.tex": _noguess_bias,
    "generators_bias.tex": _generators_bias,
    "speed.tex": _speed,
    "speed_exact.tex": _speed_exact,
    "runs.tex": _runs,
}


def tables(results: Path = RESULTS) -> dict[str, str]:
    """Every generated table, by file name."""
    return {name: "% Written by `mscsp paper` from results/: do not edit.\n" + write(Path(results))
            for name, write in TABLES.items()}


# -- building -----------------------------------------------------------------------------


def required_figures(tex: str) -> list[str]:
    """The figures a paper source includes with ``\\resultfigure{FOLDER/NAME}``.

    Examples
    --------
    >>> required_figures(r"\\includegraphics{\\resultfigure{winrate/winrate}} % \\resultfigure{x/y}")
    ['winrate/winrate']
    """
    code = "\n".join(re.sub(r"(?<!\\)%.*", "", line) for line in tex.splitlines())
    return re.findall(r"\\resultfigure\{([^}]+)\}", code)


def write_generated(paper: Path = PAPER, results: Path = RESULTS) -> list[Path]:
    """Write ``paper/generated/`` (numbers and tables) whole, after checking that
    every figure the paper includes exists; returns the files written."""
    paper, results = Path(paper), Path(results)
    source = paper / "mscsp.tex"
    if not source.is_file():
        raise InputError(f"{source}: no such file; run `mscsp paper` from the top folder of the repository")
    if not results.is_dir():
        raise InputError(f"{results}: no such folder; run `mscsp reproduce` to make the results")
    for figure in required_figures(source.read_text(encoding="utf-8")):
        if not (results / f"{figure}.pdf").is_file():
            raise InputError(f"{results / figure}.pdf is missing (the figures' vector versions): run "
                             "`mscsp reproduce` to draw them")
    # a warning, not a refusal: a results folder being regenerated piecemeal still builds
    for line in mixed_revisions(results):
        sys.stderr.write(line + "\n")
    files = {"numbers.tex": numbers_tex(numbers(results), os.path.relpath(results, paper).replace(os.sep, "/")),
             **tables(results)}
    out = paper / "generated"
    out.mkdir(exist_ok=True)
    written = []
    for name, text in files.items():
        tmp = out / f".{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out / name)
        written.append(out / name)
    return written


#: LaTeX's warning that the labels read at the start differ from those written.
_RERUN = "Rerun to get cross-references right"
#: pdflatex passes after latexmk's, at most (labels settle in one or two).
MAX_RERUNS = 3


def build_pdf(paper: Path = PAPER) -> Path:
    """Build ``paper/mscsp.pdf`` with latexmk (auxiliary files in ``paper/build/``).

    Raises :class:`TexMissing` without latexmk, and :class:`MscspError` with the
    first LaTeX error when the build fails. When the last pass still warns that
    labels may have changed, pdflatex runs again (at most :data:`MAX_RERUNS` times).
    """
    paper = Path(paper)
    latexmk, pdflatex = shutil.which("latexmk"), shutil.which("pdflatex")
    if latexmk is None or pdflatex is None:
        raise TexMissing("latexmk and pdflatex are not installed (Debian: apt-get install texlive-latex-recommended "
                         "texlive-latex-extra texlive-fonts-recommended latexmk)")
    flags = ["-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]
    run = subprocess.run([latexmk, "-pdf", *flags, "-outdir=build", "mscsp.tex"], cwd=paper,
                         capture_output=True, text=True)
    log = paper / "build" / "mscsp.log"
    # latexmk takes an auxiliary file whose size and whole-second time stamp are unchanged to
    # be unchanged, so a pass that ends within the second of the last can leave labels one
    # run behind ("Rerun to get cross-references right"); LaTeX's own warning decides here.
    for _ in range(MAX_RERUNS):
        if run.returncode != 0 or not log.is_file() or _RERUN not in log.read_text(encoding="utf-8", errors="replace"):
            break
        run = subprocess.run([pdflatex, *flags, "-output-directory=build", "mscsp.tex"], cwd=paper,
                             capture_output=True, text=True)
    if run.returncode != 0:
        text = log.read_text(encoding="utf-8", errors="replace") if log.is_file() else run.stdout + run.stderr
        first = next((line for line in text.splitlines() if line.startswith("!") or ":error:" in line.lower()
                      or re.match(r".*:\d+: ", line)), "see the log")
        raise MscspError(f"LaTeX failed: {first.strip()} ({log})")
    shutil.copyfile(paper / "build" / "mscsp.pdf", paper / "mscsp.pdf")
    return paper / "mscsp.pdf"
