"""The paper: every quoted number is its CSV cell, no result is typed into the text,
the figures are deterministic vector PDFs, and the PDF builds.

The numbers are recomputed here from the CSV files with the csv module and this
file's own formatting, not with :mod:`mscsp.experiments.paper`'s, so a wrong row, column or
rounding in the generator fails the test.
"""

from __future__ import annotations

import csv
import json
import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO
from mscsp.experiments import layout, paper
from mscsp.errors import InputError

PAPER, RESULTS = REPO / "paper", REPO / "results"
TEX = (PAPER / "mscsp.tex").read_text(encoding="utf-8")
#: Numbers in the text that are not results: the level of every interval, the
#: satisfiability threshold of random 3-CNF from the literature, and other work's
#: published win rates, quoted with their citation (those of Table tab:published with
#: the number of the table they stand in), each checked by hand against its source.
ALLOWED = {"95\\%", "4.26", "39.616", "40.06", "25\\%", "91.25\\%", "75.94\\%", "32.90\\%", "6.2", "81.627",
           "78.122", "81.79", "78.22",
           # the search players' READMEs: minesolve by depth, Tu et al.'s public solver (PSEQ, PSEQ-D256)
           "39.00\\%", "40.27\\%", "40.68\\%", "40.80\\%", "39.61\\%", "52.79\\%", "40.04\\%", "53.45\\%",
           # trials of docs/decisions.md, quoted with their entries: the earlier +progress's
           # loss, and rollouts' paired games
           "3.2", "0.60", "1.54", "1.60", "3.87", "0.67",
           # the exact count's cost, kept with the oracle of tests/test_rounded.py
           "3.3",
           # the head-to-head's earlier run, and it pooled with this copy's, quoted from README.md
           # (not in results/)
           "0.09", "0.34", "0.16", "0.07", "0.29", "0.15", "0.20", "0.38", "0.02", "0.23", "0.08"}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """paper/generated/ written from results/ into a copy of paper/."""
    out = tmp_path_factory.mktemp("paper")
    for name in ("mscsp.tex", "references.bib"):
        shutil.copy(PAPER / name, out / name)
    paper.write_generated(out, RESULTS)
    return out / "generated"


def _definitions(numbers_tex: str) -> list[tuple[str, str, str, str, str, str]]:
    """(file, row selector, column, style, key, TeX) of every macro, from the comment
    line above each definition."""
    found = re.findall(r"^% results/(\S+) \| (.*?) \| (.+?) \| (\S+)\n"
                       r"\\expandafter\\newcommand\\csname r@(.+?)\\endcsname\{(.*)\}$", numbers_tex, re.M)
    assert found and len(found) == numbers_tex.count("\\newcommand\\csname")
    return found


def _half_away(x: Fraction, places: int) -> Fraction:
    """x to ``places`` decimals, half away from zero, in exact arithmetic."""
    scale = Fraction(10) ** places
    magnitude = math.floor(abs(x) * scale + Fraction(1, 2)) / scale
    return magnitude if x >= 0 else -magnitude


def _decimals(x: Fraction, places: int) -> str:
    """x, already at ``places`` decimals, written out (a minus sign even for a rounded -0)."""
    sign = "-" if x < 0 else ""
    whole, part = divmod(abs(x) * 10 ** places, 10 ** places)
    return sign + str(int(whole)) + (f".{int(part):0{places}d}" if places > 0 else "")


def _expected(text: str, style: str) -> str:
    """The TeX a CSV cell should become, computed independently of the generator:
    exact fractions of the cell's decimal text, rounded half away from zero."""
    minus = "\\ensuremath{-}"

    def signed(s: str) -> str:
        return minus + s[1:] if s.startswith("-") else s

    def grouped(s: str) -> str:
        whole, _, part = s.partition(".")
        neg = whole.startswith("-")
        whole = f"{int(whole.lstrip('-')):,}".replace(",", "{,}")
        return signed(("-" if neg else "") + whole + ("." + part if part else ""))

    if float(text) in (float("inf"), float("-inf")):
        return (minus if float(text) < 0 else "") + "\\ensuremath{\\infty}"
    x = Fraction(text)
    d = int(style[-1]) if style[-1].isdigit() else None

    def fixed(v: Fraction, places: int) -> str:
        r = _half_away(v, places)
        if v != 0 and r == 0:  # never a zero for a value that is not: two significant digits
            places = 1 - math.floor(math.log10(abs(v)))
            r = _half_away(v, places)
        return _decimals(r, places) if not (r == 0 and v < 0) else "-" + _decimals(r, places)

    if style == "int":
        return grouped(_decimals(_half_away(x, 0), 0))
    if style.startswith("dec"):
        r = _half_away(x, d)
        return grouped(("-" if x < 0 and r == 0 else "") + _decimals(r, d))
    if style.startswith("signed"):
        r = _half_away(x, d)
        return signed(("-" if x < 0 else "+") + _decimals(abs(r), d))
    if style == "pctg":
        return f"{Decimal(text) * 100:f}".rstrip("0").rstrip(".") + "\\%"
    if style.startswith("pct"):
        return signed(fixed(100 * x, d)) + "\\%"
    if style.startswith("pp"):
        r = _half_away(100 * x, d)
        return signed(("-" if x < 0 and r == 0 else "") + _decimals(r, d))
    if style.startswith("sig"):
        if x == 0:
            return "0"
        if abs(x) >= 10 ** (d - 1):
            return grouped(_decimals(_half_away(x, 0), 0))
        places = d - 1 - math.floor(math.log10(abs(x)))
        r = _half_away(x, places)
        if abs(r) >= Fraction(10) ** (d - places):  # 0.0995 -> 0.100: one digit fewer after the point
            places -= 1
            r = _half_away(x, places)
        if abs(r) < Fraction(1, 10 ** 4):
            exponent = math.floor(math.log10(abs(r)))
            mantissa = _decimals(r / Fraction(10) ** exponent, d - 1)
            return f"\\ensuremath{{{signed(mantissa)}\\times 10^{{{exponent}}}}}"
        return signed(_decimals(r, places))
    raise AssertionError(f"unknown style {style}")


def test_numbers_round_half_away_from_zero_from_their_decimals():
    # hand-computed: binary floats would give 80.6 (0.8065 is stored below the tie) and 2.67
    cases = {("0.8065", "pct1"): "80.7\\%", ("0.8255", "pct1"): "82.6\\%", ("0.15425", "pct2"): "15.43\\%",
             ("2.675", "dec2"): "2.68", ("-2.675", "dec2"): "\\ensuremath{-}2.68", ("1.0005", "dec3"): "1.001",
             ("0.00125", "signed4"): "+0.0013", ("-0.00125", "signed4"): "\\ensuremath{-}0.0013",
             ("2500.5", "int"): "2{,}501", ("-0.00505", "pp2"): "\\ensuremath{-}0.51",
             ("8019.15", "dec1"): "8{,}019.2", ("8.974", "sig2"): "9.0", ("0.0995", "sig2"): "0.10",
             # a small share or ratio is never a zero: two significant digits
             ("0.0004", "pct1"): "0.040\\%", ("0.00034", "sig2"): "0.00034",
             # a difference in points keeps its column's decimals
             ("0.0000499", "pp2"): "0.00", ("-0.0000499", "pp2"): "\\ensuremath{-}0.00",
             ("0", "pct1"): "0.0\\%"}
    wrong = {k: (paper.render(*k), v) for k, v in cases.items() if paper.render(*k) != v}
    assert not wrong, wrong
    assert all(_expected(*k) == v for k, v in cases.items())  # the oracle below agrees with the hand values


def _run_facts(results=RESULTS) -> dict[str, str]:
    """What the paper should say of each run.json: its machine's letter (letters in
    the order the folders, alphabetically, first name a machine), its revision, and
    how many revisions and machines there are."""
    letters, revisions, facts = {}, set(), {}
    for path in sorted(results.glob("*/run.json")):
        run = json.loads(path.read_text(encoding="utf-8"))
        name = (f"{run.get('processor') or 'unknown processor'}, {run['cpus']} CPUs, "
                f"{run['platform'].split('-')[0]}, Python {run['python']}")
        letters.setdefault(name, "ABCDEFGH"[len(letters)])
        rev = run["git"]["revision"][:7] + ("+dirty" if run["git"]["dirty"] else "")
        revisions.add(rev)
        facts[f"machine/{path.parent.name}"] = f"machine~{letters[name]}"
        facts[f"revision/{path.parent.name}"] = f"\\texttt{{{rev}}}"
    facts["runs/revisions"], facts["runs/machines"] = str(len(revisions)), str(len(letters))
    return facts


def _rows(file: str) -> list[dict]:
    with open(RESULTS / file, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _match(row: dict, selector: str) -> bool:
    # a value may hold commas ("5x5/5 opening (2,2), no total"): a pair starts where a column name and "=" follow
    for pair in filter(None, re.split(r",(?=[\w ]+=)", selector)):
        column, value = pair.split("=", 1)
        if column == "click":  # the generator's name for where the first click was
            column, value = "click_x", ("0" if value == "corner" else row["click_x"] if row["click_x"] != "0" else "x")
        if row.get(column) != value:
            return False
    return True


def _cells(table: str) -> list[list[str]]:
    """The body rows of a generated booktabs table, as lists of cells."""
    body = table.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    return [[c.strip() for c in line.removesuffix(" \\\\").split(" & ")]
            for line in body.splitlines() if line.endswith("\\\\")]


def test_a_small_ratio_of_times_is_never_a_zero(generated):
    timed = [r for r in _rows("speed/summary.csv") if r["comparison"] == "counting" and r["mscsp_ms"] and r["peer_ms"]]
    # the smallest ratio the counting table prints: it must be small enough to round to 0 at two decimals
    row = min(timed, key=lambda r: Fraction(r["mscsp_ms"]) / Fraction(r["peer_ms"]))
    ratio = Fraction(row["mscsp_ms"]) / Fraction(row["peer_ms"])
    assert ratio < Fraction(1, 100)
    for name in ("speed_exact.tex", "speed.tex"):
        for cells in _cells((generated / name).read_text(encoding="utf-8")):
            shown = cells[4] if name == "speed_exact.tex" else cells[5]
            assert not re.fullmatch(r"(\$<\$ )?0(\.0*)?", shown), (name, cells)
    # two significant digits, rounded half away from zero from the decimal value
    value = Decimal(ratio.numerator) / Decimal(ratio.denominator)
    expected = str(value.quantize(Decimal(1).scaleb(value.adjusted() - 1), rounding=ROUND_HALF_UP))
    label = "layout count, no total" if row["stage"] == "without total" else "layout count"
    exact = _cells((generated / "speed_exact.tex").read_text(encoding="utf-8"))
    # the table's corpus back to the CSV's, as the next test reads it
    assert [c[4] for c in exact if c[0] == label
            and c[1].replace("$\\times$", "x").replace("\\", "") == row["corpus"]] == [expected]


def test_the_counting_table_shows_every_position_with_and_without_its_total(generated):
    # the rows without the total are those where Ganak does best: none may be left out
    wanted = sorted((r["corpus"], r["stage"]) for r in _rows("speed/summary.csv") if r["comparison"] == "counting")
    shown = sorted((c[1].replace("$\\times$", "x").replace("\\", ""),
                    "without total" if c[0].endswith("no total") else "with total")
                   for c in _cells((generated / "speed_exact.tex").read_text(encoding="utf-8"))
                   if c[0].startswith("layout count"))
    assert shown == wanted and any(stage == "without total" for _, stage in wanted)


def test_the_article_tables_show_the_published_values_and_kostka_beside_8x8(generated):
    # the article's single-point rates as it publishes them (Sheng 2026): 0.637, 0.241, 0.001
    article = _cells((generated / "completion_article.tex").read_text(encoding="utf-8"))
    assert [c[2] for c in article] == ["0.637", "0.241", "0.001"]
    assert all(c[1].split(" $")[0] == c[2] for c in article)  # regenerated = published, digit for digit
    maps = _cells((generated / "first_click_maps.tex").read_text(encoding="utf-8"))
    kostka = {(c[0], c[1]): c[5] for c in maps if c[5]}
    # Kostka: Beginner 0.19-0.60 (the 8x8 board's range), Intermediate 0.21-0.60, Expert 0.12-0.50
    assert kostka == {("8$\\times$8/10", "winxp"): "0.19--0.60", ("16$\\times$16/40", "winxp"): "0.21--0.60",
                      ("30$\\times$16/99", "winxp"): "0.12--0.50"}


def test_a_column_of_percentages_has_one_precision(generated):
    # the records of Table winrate's last column keep the digits their sources print
    for name, columns in (("completion.tex", slice(3, None)), ("winrate.tex", slice(2, -1))):
        for column in list(zip(*_cells((generated / name).read_text(encoding="utf-8"))))[columns]:
            places = {len(c.removesuffix("\\%").split(".")[1]) for c in column}
            assert len(places) == 1, (name, column)


def test_every_macro_is_its_csv_cell(generated):
    defined = _definitions((generated / "numbers.tex").read_text(encoding="utf-8"))
    wrong = []
    for file, selector, column, style, key, tex in defined:
        if style in ("machine", "revision", "#distinct"):
            expected = _run_facts()[key]
            if tex != expected:
                wrong.append(f"{key}: {tex!r} but the run.json files say {expected!r}")
            continue
        rows = [r for r in _rows(file) if _match(r, selector)]
        if column == "#count":
            value = str(len(rows))
        elif column.startswith(("#min:", "#max:")):
            # a range's end: the least or largest cell of the column over the rows, compared as decimals
            which, name = column[1:].split(":")
            value = (min if which == "min" else max)((r[name] for r in rows if r[name] != ""), key=Decimal)
        elif style.startswith("vs-"):
            assert len(rows) == 1 and key.endswith("/pace" if style == "vs-one" else "/verdict"), key
            r = rows[0]
            if style == "vs-one":  # a ratio of times: under 0.95 faster, over 1.05 slower
                ratio = float(r[column])
                expected = ["faster than", "about as fast as", "slower than"][(ratio >= 0.95) + (ratio > 1.05)]
                if tex != expected:
                    wrong.append(f"{key}: {tex!r} but {file} has ratio {r[column]}")
                continue
            if style == "vs-alpha":
                expected = "no more than chance alone produces" if float(r[column]) >= 0.05 else \
                    "more than chance alone produces at the 5\\% level"
                if tex != expected:
                    wrong.append(f"{key}: {tex!r} but {file} has p = {r[column]}")
                continue
            low, high = float(r["low"]), float(r["high"])
            at = float(r[column]) if style == "vs-interval" else 0.0
            words = {"vs-interval": ("significantly above", "indistinguishable from", "significantly below"),
                     "vs-zero": ("a significant loss", "no significant difference", "a significant gain")}[style]
            # vs-interval: where the record lies against the interval; vs-zero: where the interval lies against 0
            side = (0 if at < low else 2 if at > high else 1) if style == "vs-interval" else \
                (0 if high < 0 else 2 if low > 0 else 1)
            if tex != words[side]:
                wrong.append(f"{key}: {tex!r} but {file} has {at} against [{low}, {high}]")
            continue
        else:
            assert len(rows) == 1, f"{key}: {len(rows)} rows of {file} match {selector}"
            value = rows[0][column]
            # the key names the file, the row and the column it comes from
            assert key.endswith("/" + re.sub(r"\s+", "-", column)), key
            assert all(v.replace(" ", "-") in key for v in re.findall(r"=([^,]+)", selector)), key
        if tex != _expected(value, style):
            wrong.append(f"{key}: {tex} but {file} says {value} ({style})")
    assert not wrong, "\n".join(wrong)


def test_every_result_the_text_quotes_is_defined(generated):
    keys = {d[4] for d in _definitions((generated / "numbers.tex").read_text(encoding="utf-8"))}
    code = re.sub(r"(?<!\\)%.*", "", TEX)
    used = set(re.findall(r"\\R\{([^}]+)\}", code))
    assert used and not used - keys, f"undefined: {sorted(used - keys)}"
    for name in re.findall(r"\\input\{generated/([^}]+)\}", TEX):
        assert (generated / f"{name}.tex").is_file(), name


def _prose(tex: str) -> str:
    """The text a reader sees as written by hand: comments, macros of results,
    labels, references, citations, file names and lengths removed."""
    body = tex.split("\\begin{document}", 1)[1]
    body = re.sub(r"(?<!\\)%.*", "", body)
    body = re.sub(r"\\(R|ref|eqref|label|cite[tp]?|input|code|resultfigure|bibliography\w*)\{[^}]*\}", " ", body)
    body = re.sub(r"\[width=[^\]]*\]", " ", body)
    return re.sub(r"\\begin\{verbatim\}.*?\\end\{verbatim\}", " ", body, flags=re.S)


def test_no_result_is_typed_into_the_text():
    numbers = re.findall(r"\d+\.\d+(?:\\?%)?|\d+\s*\\%", _prose(TEX))
    typed = [n for n in numbers if n not in ALLOWED]
    assert not typed, f"numbers typed into paper/mscsp.tex instead of \\R{{...}} macros: {typed}"


def test_the_typed_number_check_catches_one():
    assert re.findall(r"\d+\.\d+(?:\\?%)?|\d+\s*\\%", _prose("\\begin{document} wins 54.3\\% or 0.12 \\R{a/0.5}"))


def _copy_paper(top):
    (top / "paper").mkdir()
    for name in ("mscsp.tex", "references.bib"):
        shutil.copy(PAPER / name, top / "paper" / name)


def _mscsp(*args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "mscsp", *args], cwd=cwd, capture_output=True, text=True, env=env)


def test_a_missing_figure_is_one_line_that_says_what_to_run(tmp_path):
    _copy_paper(tmp_path)
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results, ignore=shutil.ignore_patterns("*.pdf"))
    with pytest.raises(InputError, match=r"\.pdf is missing .*run `mscsp reproduce`"):
        paper.write_generated(tmp_path / "paper", results)
    assert not (tmp_path / "paper" / "generated").exists()  # nothing half-written
    run = _mscsp("paper", cwd=tmp_path)
    assert run.returncode == 2 and "pdf is missing" in run.stderr
    assert len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr


def _results_at(top, revisions: dict[str, str]):
    """A copy of results/ (without its figures' bitmaps) whose run.json files name
    the given revisions, folder by folder, and one revision for the others."""
    results = top / "results"
    shutil.copytree(RESULTS, results, ignore=shutil.ignore_patterns("*.png", "*.gz"))
    for path in results.glob("*/run.json"):
        run = json.loads(path.read_text(encoding="utf-8"))
        run["git"] = {"revision": revisions.get(path.parent.name, "a" * 40), "dirty": False}
        path.write_text(json.dumps(run), encoding="utf-8")
    return results


def test_results_of_one_revision_build_without_a_warning(tmp_path):
    _copy_paper(tmp_path)
    results = _results_at(tmp_path, {})
    run = _mscsp("paper", "--no-pdf", "--results", str(results), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr and len(run.stderr.splitlines()) == 1
    runs = (tmp_path / "paper" / "generated" / "runs.tex").read_text(encoding="utf-8")
    # one revision: one row per machine
    assert runs.count("\\texttt{aaaaaaa}") == int(_run_facts(results)["runs/machines"])


def test_results_of_mixed_revisions_warn_one_line_per_revision(tmp_path):
    _copy_paper(tmp_path)
    results = _results_at(tmp_path, {"winrate": "b" * 40, "speed": "c" * 40, "completion": "c" * 40})
    run = _mscsp("paper", "--no-pdf", "--results", str(results), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 3 and all("mixes 3 git revisions" in line for line in warnings), warnings
    made = {line.split("; ")[1].split(" made ")[0]: line.split(" made ")[1].split(", ") for line in warnings}
    others = sorted(p.parent.name for p in results.glob("*/run.json")
                    if p.parent.name not in ("winrate", "speed", "completion"))
    assert made == {"bbbbbbb": ["winrate"], "ccccccc": ["completion", "speed"], "aaaaaaa": others}
    runs = (tmp_path / "paper" / "generated" / "runs.tex").read_text(encoding="utf-8")
    for rev in ("aaaaaaa", "bbbbbbb", "ccccccc"):
        assert f"\\texttt{{{rev}}}" in runs
    numbers = (tmp_path / "paper" / "generated" / "numbers.tex").read_text(encoding="utf-8")
    assert "r@revision/winrate\\endcsname{\\texttt{bbbbbbb}}" in numbers
    assert "r@runs/revisions\\endcsname{3}" in numbers


def test_every_machine_is_spelt_out_once(generated):
    runs = (generated / "runs.tex").read_text(encoding="utf-8")
    processors = {json.loads(p.read_text(encoding="utf-8"))["processor"] for p in RESULTS.glob("*/run.json")}
    for name in processors:
        assert runs.count(re.sub(r"([%&#_])", r"\\\1", name) + ",") == 1, name
    pdf_text = TEX + "".join((generated / f).read_text(encoding="utf-8") for f in ("numbers.tex",))
    assert not any(name in pdf_text for name in processors)  # nowhere else


def test_without_tex_the_numbers_are_written_and_one_line_says_why_there_is_no_pdf(tmp_path):
    import os

    _copy_paper(tmp_path)
    bare = tmp_path / "bin"  # a PATH without TeX
    bare.mkdir()
    run = _mscsp("paper", "--results", str(RESULTS), cwd=tmp_path, env={**os.environ, "PATH": str(bare)})
    assert run.returncode == paper.TEX_MISSING == 69, run.stderr
    assert (tmp_path / "paper" / "generated" / "numbers.tex").is_file()
    assert not (tmp_path / "paper" / "mscsp.pdf").exists()
    assert run.stderr.splitlines()[-1].startswith("mscsp paper: no PDF: latexmk") and "Traceback" not in run.stderr


def test_bad_options_are_one_line_and_status_2(tmp_path):
    run = _mscsp("paper", "--results", str(tmp_path / "nowhere"), cwd=REPO)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1 and "no such folder" in run.stderr
    run = _mscsp("paper", "--frobnicate", cwd=REPO)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1


def test_figures_are_also_written_as_pdf_the_same_bytes_every_time(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from mscsp.experiments.output import write_results

    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    for out in (tmp_path / "a", tmp_path / "b"):
        write_results(out, {"summary": pd.DataFrame({"k": [1]})}, "# t\n", {}, {"curve": fig})
    plt.close(fig)
    one, two = (tmp_path / "a" / "curve.pdf").read_bytes(), (tmp_path / "b" / "curve.pdf").read_bytes()
    assert one.startswith(b"%PDF") and one == two
    assert b"CreationDate" not in one and b"Matplotlib" not in one


def test_every_figure_of_the_results_has_its_pdf():
    # the experiments' folders (each has its config.json), not the screenshots
    pngs = [p for p in RESULTS.glob("*/*.png") if (p.parent / "config.json").is_file()]
    missing = [str(p.relative_to(REPO)) for p in pngs if not p.with_suffix(".pdf").is_file()]
    assert not missing, f"run `mscsp reproduce` to draw: {missing}"


@pytest.mark.skipif(shutil.which("latexmk") is None or shutil.which("pdflatex") is None,
                    reason="latexmk and pdflatex are not installed (Debian: texlive-latex-recommended "
                           "texlive-latex-extra texlive-fonts-recommended latexmk)")
def test_the_pdf_builds_with_every_reference_resolved(generated):
    work = generated.parent
    pdf = paper.build_pdf(work)
    assert pdf.read_bytes().startswith(b"%PDF")
    log = (work / "build" / "mscsp.log").read_text(encoding="utf-8", errors="replace")
    assert "undefined" not in log.lower() and "Overfull \\hbox" not in log, "see " + str(work / "build")
    assert "There were undefined" not in log and "Rerun to get" not in log


@pytest.mark.skipif(shutil.which("latexmk") is None or shutil.which("pdflatex") is None,
                    reason="latexmk and pdflatex are not installed")
def test_a_pass_left_one_run_behind_is_finished(generated):
    # latexmk trusts an auxiliary file whose size and whole-second time stamp did not change,
    # so on a fast machine its last pass can still warn; the build must not stop there
    work = generated.parent
    paper.build_pdf(work)
    log = work / "build" / "mscsp.log"
    log.write_text(log.read_text(encoding="utf-8", errors="replace")
                   + "\nLaTeX Warning: Label(s) may have changed. Rerun to get cross-references right.\n",
                   encoding="utf-8")
    paper.build_pdf(work)
    assert "Rerun to get" not in log.read_text(encoding="utf-8", errors="replace")


_NO_TEX_OR_POPPLER = (shutil.which("latexmk") is None or shutil.which("pdflatex") is None
                      or shutil.which("pdftoppm") is None)


@pytest.mark.skipif(_NO_TEX_OR_POPPLER, reason="latexmk, pdflatex or pdftoppm (poppler-utils) is not installed")
def test_no_page_is_more_than_a_quarter_blank_but_before_a_section(generated):
    work = generated.parent
    pdf = paper.build_pdf(work)
    pages = layout.pages(pdf, work / "build" / "mscsp.aux")
    assert len(pages) >= 10
    assert [p for p in pages if p.blank > 0.25 and not p.ends_section] == []


@pytest.mark.skipif(_NO_TEX_OR_POPPLER, reason="latexmk, pdflatex or pdftoppm (poppler-utils) is not installed")
def test_a_half_empty_page_inside_a_section_is_found_and_one_before_a_section_is_not(tmp_path):
    lines = "\n\n".join(f"Line {i} of the text." for i in range(22))
    (tmp_path / "t.tex").write_text(
        "\\documentclass{article}\\pagestyle{plain}\\begin{document}\n"
        f"\\section{{One}}\n{lines}\n\\newpage\n"       # page 1: half a page, then a break
        f"{lines}\n\n{lines}\n\n"                         # page 2: full
        f"{lines}\n\\newpage\n\\section{{Two}}\n{lines}\n"  # page 3: half, before section Two on page 4
        "\\end{document}\n", encoding="utf-8")
    for _ in range(2):  # the second pass writes the sections' pages to the .aux
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "t.tex"], cwd=tmp_path, capture_output=True,
                       check=True)
    pages = layout.pages(tmp_path / "t.pdf", tmp_path / "t.aux")
    assert len(pages) == 4
    assert pages[0].blank > 0.4 and not pages[0].ends_section
    assert pages[1].blank < 0.1
    assert pages[2].blank > 0.25 and pages[2].ends_section and pages[3].ends_section
    assert [p.number for p in layout.too_blank(tmp_path / "t.pdf", tmp_path / "t.aux")] == [1]


#: The fields each entry type needs here (BibTeX's required fields, plus pages and
#: volume for articles, and a way to find the rest).
NEEDS = {
    "article": {"author", "title", "journal", "volume", "pages", "year"},
    "inproceedings": {"author", "title", "booktitle", "year"},
    "book": {"author", "title", "publisher", "year"},
    "techreport": {"author", "title", "institution", "number", "year"},
    "mastersthesis": {"author", "title", "school", "year"},
    "misc": {"title", "howpublished"},
}


def _bib() -> dict[str, tuple[str, set[str]]]:
    text = (PAPER / "references.bib").read_text(encoding="utf-8")
    entries = {}
    for kind, key, body in re.findall(r"@(\w+)\{([^,]+),(.*?)\n\}", text, re.S):
        entries[key] = (kind.lower(), set(re.findall(r"^\s*(\w+)\s*=", body, re.M)))
    assert entries and len(entries) == text.count("\n@") + text.startswith("@")
    return entries


def test_every_bibliography_entry_has_the_fields_its_type_needs():
    missing = []
    for key, (kind, fields) in _bib().items():
        assert kind in NEEDS, f"{key}: entry type {kind} has no rule here"
        lacking = NEEDS[kind] - fields
        if kind == "misc" and not fields & {"url", "year"}:
            lacking.add("url or year")
        if lacking:
            missing.append(f"{key} ({kind}): {sorted(lacking)}")
    assert not missing, "\n".join(missing)


def _bib_fields() -> dict[str, dict[str, str]]:
    text = (PAPER / "references.bib").read_text(encoding="utf-8")
    return {key: dict(re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?$", body, re.M))
            for _, key, body in re.findall(r"@(\w+)\{([^,]+),(.*?)\n\}", text, re.S)}


def test_a_key_that_names_a_year_names_the_entry_s_year():
    wrong = {key: fields.get("year") for key, fields in _bib_fields().items()
             if re.search(r"(19|20)\d\d", key) and re.search(r"(19|20)\d\d", key).group() != fields.get("year")}
    assert not wrong, wrong


def test_every_web_source_has_a_year_and_an_access_date():
    lacking = [key for key, fields in _bib_fields().items() if "url" in fields and
               not ("year" in fields and re.search(r"[Aa]ccessed \d{1,2} \w+ \d{4}", fields.get("note", "")))]
    assert not lacking, lacking


def test_every_citation_has_an_entry_and_every_entry_is_cited():
    cited = {k.strip() for group in re.findall(r"\\cite[tp]?\{([^}]+)\}", TEX) for k in group.split(",")}
    entries = set(_bib())
    assert cited - entries == set() and entries - cited == set()


def test_no_option_prints_with_a_single_dash():
    # the T1 fonts join -- into an en dash outside verbatim text: options go through \\opt
    body = re.sub(r"\\begin\{verbatim\}.*?\\end\{verbatim\}", "", TEX, flags=re.S)
    joined = re.findall(r"\\(?:code|texttt)\{[^}]*--[^}]*\}", body)
    assert not joined, joined
    assert "\\newcommand{\\opt}[1]{\\texttt{-{}-#1}}" in TEX


def test_the_head_to_head_and_the_generators_bias_are_quoted(generated):
    """The same-board comparison with Hill's solver, the generators' bias and the
    uniform sampler's census are in the numbers, each traced to its CSV cell; the
    ends of the census range are recomputed here from the CSV."""
    text = (generated / "numbers.tex").read_text(encoding="utf-8")
    keys = {d[4]: d[5] for d in _definitions(text)}
    for start in ("expert-classic", "expert-modern"):
        for column in ("n", "mscsp_p", "mscsp_low", "mscsp_high", "java_p", "java_low", "java_high", "diff",
                       "low", "high", "verdict"):
            assert f"headtohead/{start}/{column}" in keys, (start, column)
    for method in ("mscsp-perturb", "Tatham-mines", "ms-laymine_solvable_adjust", "JSMinesweeper"):
        for column in ("diff_3bv", "ks_3bv_p"):
            assert f"noguess_bias/tests/30x16/170/{method}/{column}" in keys, (method, column)
    census = _rows("noguess_uniform/census.csv")
    chain = sorted((Decimal(r["p_value"]) for r in census if r["method"] == "chain"))
    assert keys["noguess_uniform/census/settings"] == str(len(chain))
    assert keys["noguess_uniform/census/chain/p_value_min"] == _expected(str(chain[0]), "sig2")
    assert keys["noguess_uniform/census/chain/p_value_max"] == _expected(str(chain[-1]), "sig2")
    # the classic start's interval lies below zero in the CSV: Hill's solver ahead, resolved
    classic = next(r for r in _rows("headtohead/summary.csv") if r["start"] == "expert-classic")
    assert float(classic["high"]) < 0 and keys["headtohead/expert-classic/verdict"] == "a significant loss"
    assert (generated / "generators_bias.tex").is_file()
