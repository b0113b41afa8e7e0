"""The documentation builds without a warning, its examples run, and the repository
stands alone.

The build is the one the README gives (``sphinx-build -W``), into a temporary folder,
so a malformed docstring, a broken cross-reference, a missing figure or a stale
command example fails the test suite, not just a docs job nobody looks at.
"""

from __future__ import annotations

import doctest
import importlib.util
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

DOCS = REPO / "docs"

needs_sphinx = pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None or importlib.util.find_spec("numpydoc") is None,
    reason="sphinx and numpydoc are not installed (pip install -e '.[docs]' or '.[test]')",
)


@needs_sphinx
def test_docs_build_without_warnings(tmp_path):
    out = tmp_path / "html"
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stdout}\n{run.stderr}"
    # -W already fails the build on a warning; this also catches one that a future
    # Sphinx might print without failing (Python's own deprecation notices aside)
    warned = [line for line in run.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    assert not warned, "sphinx-build warned:\n" + "\n".join(warned)
    # every page of the table of contents was written
    for page in sorted(DOCS.glob("*.rst")):
        assert (out / page.with_suffix(".html").name).is_file(), page.name


def _pages_with_examples() -> list:
    return sorted(p for p in DOCS.rglob("*.rst") if "_build" not in p.parts and ">>> " in p.read_text("utf-8"))


@pytest.mark.parametrize("page", _pages_with_examples(), ids=lambda p: str(p.relative_to(DOCS)))
def test_python_examples_in_the_docs_run(page, tmp_path, monkeypatch):
    # the examples open the files of docs/examples/ by their bare names, as the
    # command examples of the same pages do
    for f in (DOCS / "examples").iterdir():
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(page), module_relative=False, report=False, verbose=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0, (f"{result.failed} of {result.attempted} examples in {page.name} failed; see them "
                                f"with: python -m doctest -o ELLIPSIS -o NORMALIZE_WHITESPACE {page}")


def _tracked_files() -> list:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    run = subprocess.run(["git", "ls-files", "-z"], capture_output=True, cwd=REPO, check=True)
    return [REPO / name for name in run.stdout.decode().split("\0") if name]


def test_no_tracked_file_points_outside_the_repository():
    # spelled in pieces, so this file does not match its own search
    banned = ["contract" + ".md", "style" + ".md", "architecture" + ".md", "../" + "shared", "closing" + " note"]
    hits = []
    for path in _tracked_files():
        if not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8", errors="replace").lower()
        hits += [f"{path.relative_to(REPO)}: {word}" for word in banned if word in text]
    assert not hits, "files that point to documents outside the repository:\n" + "\n".join(hits)
