"""Docstrings and comments in ``mscsp/`` carry no trial records.

A trial record is a paired or interval figure such as ``[+0.02, +0.04]``,
``[−0.03, +0.26]`` or ``[54.04, 54.66]``, or the seed of a trial run in prose, such
as ``(seed 81)``, ``--seed 95`` or ``seeds 203 and 204``. It belongs in
``docs/decisions.md``; the code says what it does and why, and points there.

What is read: the docstrings of the ``.py`` files (every string statement: module,
class, function and attribute docstrings) and their comments, and the comments of
the ``.c`` files. Doctest examples (``>>>`` and ``...`` lines and their output) are
code, not prose, and are left out, so ``seed=7`` or ``[0.451, 0.0]`` there are
fine. One rule for the experiments: a ``--seed`` on the command line that makes a
published table (``python experiments/NAME.py ...`` or ``mscsp reproduce ...``)
documents that table's configuration and is allowed; any other seed number in prose
is a trial's.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import subprocess
import tokenize
from pathlib import Path

import pytest

from conftest import REPO

PACKAGE = REPO / "mscsp"

#: An interval: two decimal numbers in brackets (either may be signed, with an ASCII
#: hyphen or U+2212), or one whose second number is on the next line; or a bracket
#: opening on a signed decimal, the start of a paired figure such as ``[+0.0``.
INTERVAL = re.compile(r"\[\s*[+\u2212-]?\d+\.\d+,\s*(?:[+\u2212-]?\d+\.\d+\s*\]|$)|\[[+\u2212-]\d+\.\d", re.M)
#: A seed number in prose: ``seed 81``, ``seeds 203 and 204``, ``--seed 95``,
#: ``--seed=95``, ``seed ``14````; not ``seed=7`` nor ``default_rng(5)``.
SEED = re.compile(r"--seed[=\s]+\d|\bseeds?\s+(?:``)?\d", re.I)
#: The command that makes a published table: its ``--seed`` is documentation.
PUBLISHED_COMMAND = re.compile(r"python experiments/\w+\.py|mscsp reproduce")


def _without_examples(lines: list[str]) -> list[str]:
    """The lines of a docstring with its doctest examples blanked (the count kept)."""
    out, example = [], False
    for line in lines:
        text = line.strip().lstrip("'\"rRbBuUfF").strip()  # an example may follow the quotes
        if text.startswith(">>>"):
            example = True
        elif not text or text in ('"""', "'''"):
            example = False
        if example:
            out.append("")
        else:
            out.append(line)
    return out


def prose_blocks(source: str, suffix: str) -> list[tuple[int, str]]:
    """The docstrings and comments of a ``.py`` or ``.c`` source as ``(first line,
    text)`` blocks, a block's lines kept one to a line."""
    blocks: list[tuple[int, str]] = []
    if suffix == ".py":
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                raw = lines[node.lineno - 1:node.end_lineno]
                blocks.append((node.lineno, "\n".join(_without_examples(raw))))
        run_start, run, last = 0, [], None
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type != tokenize.COMMENT:
                continue
            row = tok.start[0]
            if last is not None and row != last + 1:
                blocks.append((run_start, "\n".join(run)))
                run = []
            if not run:
                run_start = row
            run.append(tok.string.lstrip("#:"))
            last = row
        if run:
            blocks.append((run_start, "\n".join(run)))
    elif suffix == ".c":
        literal_or_comment = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)
        for m in literal_or_comment.finditer(source):
            if m.group().startswith("/"):
                text = "\n".join(re.sub(r"^\s*\*(?!/)", "", line) for line in m.group().split("\n"))
                blocks.append((source.count("\n", 0, m.start()) + 1, text))
    else:
        raise ValueError(f"no reader for {suffix!r} files")
    return blocks


def trial_records(source: str, suffix: str) -> list[tuple[int, str]]:
    """``(line, excerpt)`` of every trial interval or trial seed in the docstrings and
    comments of ``source``, in line order."""
    hits = []
    for first, text in prose_blocks(source, suffix):
        lines = text.split("\n")
        for pattern in (INTERVAL, SEED):
            for m in pattern.finditer(text):
                i = text.count("\n", 0, m.start())
                if pattern is SEED and PUBLISHED_COMMAND.search(lines[i]):
                    continue
                hits.append((first + i, lines[i].strip()))
    return sorted(set(hits))


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".c") and "__pycache__" not in p.parts)


def test_no_trial_records_in_docstrings_or_comments():
    found = []
    for path in _sources():
        for line, excerpt in trial_records(path.read_text("utf-8"), path.suffix):
            found.append(f"{path.relative_to(REPO)}:{line}: {excerpt}")
    assert len(_sources()) > 50  # the walk found the package
    assert not found, ("trial records belong in docs/decisions.md (the code points to its entry):\n"
                       + "\n".join(found))


def test_pointers_name_entries_of_the_decisions():
    headings = {line[3:].strip() for line in (REPO / "docs" / "decisions.md").read_text("utf-8").splitlines()
                if line.startswith("## ")}
    pointers, missing = 0, []
    for path in _sources():
        for first, text in prose_blocks(path.read_text("utf-8"), path.suffix):
            for m in re.finditer(r"docs/decisions\.md,([^)]*)\)", text):
                for title in re.findall(r'"([^"]+)"', m.group(1)):
                    pointers += 1
                    if " ".join(title.split()) not in headings:
                        missing.append(f"{path.relative_to(REPO)}:{first + text.count(chr(10), 0, m.start())}: {title!r}")
    assert pointers >= 10  # the pointers are read at all (policies.py and endgame.py hold eleven)
    assert not missing, "pointers to no entry of docs/decisions.md:\n" + "\n".join(missing)


@pytest.mark.parametrize("text", [
    'def f():\n    """Drop dead tiles: classic Expert +0.02 points\n    [+0.00, +0.04] over 40,000 games."""\n',
    "#: +0.05\n#: [-0.05, +0.14] over 100,000 more\n",
    "# a paired difference of \u22120.07 [\u22120.03, +0.26]\n",
    "# mscsp 54.35% [54.04, 54.66] on the same boards\n",
    "# an interval broken over lines [54.04,\n# 54.66]\n",
    "# over 40,000 games (seed 81; 14 boards only it won)\n",
    "#: (``+endgame``, paired games on the same boards, seed 14,\n",
    "# benchmarks/paired.py --games 40000 --seed 95 against a tree with the rule\n",
    "# players.py --same-boards, seeds 203 and 204, 50,000 each\n",
    "# 1,000 classic games of seed\n# 43\n",
])
def test_the_matcher_flags_trial_records(text):
    assert trial_records(text, ".py"), text


@pytest.mark.parametrize("text", [
    'def f():\n    """Examples\n    --------\n    >>> board = generate(spec, "opening", (4, 4), seed=7)\n'
    '    >>> rng = numpy.random.default_rng(5)\n    >>> wilson_intervals(k, n)\n'
    '    ([0.451, 0.0], [0.549, 0.037])\n    """\n',
    '"""Reproduce the table:\n\n    python experiments/winrate.py --samples 20000 --seed 42 --jobs 2\n"""\n',
    "# the row's 95% interval ``[low, high]``; a probability lies in [0, 1]\n",
    "# the board of game i is drawn from SeedSequence(seed, spawn_key=(i,))\n",
    "x = rows[-1]  # the last row: rows[-1] and rows[-2] are the two least\n",
    'MESSAGE = "seed 81 [+0.00, +0.04]"  # a string in code is not a docstring\n',
])
def test_the_matcher_passes_code_and_documentation(text):
    assert trial_records(text, ".py") == []


def test_the_matcher_reads_c_comments():
    source = ('/* the search, 1.94 ms a search\n * (seed 43, 1,000 games) */\n'
              'static const char *s = "/* seed 1 */";\n'
              'int x; // +0.01 [-0.04, +0.06]\n')
    assert [line for line, _ in trial_records(source, ".c")] == [2, 4]


#: The revision before the trial records moved to docs/decisions.md.
BEFORE = "05c0345"


def _old(path: str) -> str:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    run = subprocess.run(["git", "show", f"{BEFORE}:{path}"], capture_output=True, text=True, cwd=REPO)
    if run.returncode != 0:
        pytest.skip(f"revision {BEFORE} is not in this clone ({run.stderr.strip()})")
    return run.stdout


@pytest.mark.parametrize("path, lines", [
    # read off the old files: every line with an interval or a trial seed, none other
    ("mscsp/play/policies.py", {36, 37, 46, 47, 99, 100, 101, 106, 107, 560, 561, 565, 566,
                                627, 628, 629, 630, 633, 722}),
    ("mscsp/play/endgame.py", {54, 55, 56, 62, 63}),
])
def test_the_matcher_flags_the_old_lab_notes(path, lines):
    assert {line for line, _ in trial_records(_old(path), ".py")} == lines
