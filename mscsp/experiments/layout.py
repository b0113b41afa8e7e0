"""How full the paper's pages are, measured on the rendered PDF.

A reader sees white space that the LaTeX log does not report: a float pushed to the
next page leaves the bottom of this one empty, and a last line of the bibliography can
take a page of its own. Each page is rendered (``pdftoppm`` from Debian's
``poppler-utils``) and read as a grey image; its *blank share* is the part of the text
block's height taken by vertical runs of empty rows at least :data:`GAP_PT` high, so
the spaces between lines and paragraphs do not count but an empty half page does.

A page may be more than :data:`MAX_BLANK` blank only where a reader expects it: on the
last page, or on the page before a section starts (LaTeX writes each section's page to
the ``.aux`` file; a section begins a new page here only when its first lines would not
fit, so the page before it ends early).

``mscsp paper`` warns, one line per page, after building the PDF, and
``tests/test_paper.py`` requires that no page of the committed paper is left.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import MscspError

__all__ = ["GAP_PT", "MAX_BLANK", "Page", "blank_share", "section_pages", "render", "pages", "too_blank", "warnings"]

#: Empty vertical runs at least this high (points) count as blank: more than a section
#: heading's space above it, so that headings, paragraphs and float separations do not.
GAP_PT = 20
#: The largest blank share allowed on a page that neither ends the paper nor precedes a section.
MAX_BLANK = 0.25
#: Pixels darker than this (0 black, 255 white) are ink.
_INK = 200


@dataclass(frozen=True)
class Page:
    """One rendered page: its number (from 1), its blank share and whether a blank
    end is expected there (the last page, or the page before a section)."""

    number: int
    blank: float
    ends_section: bool


def blank_share(image: np.ndarray, *, dpi: float, top: int | None = None) -> float:
    """The share of a page's text block taken by runs of empty rows at least
    :data:`GAP_PT` high.

    The text block runs from ``top`` (the first row with ink when not given) to the last
    empty row above the page's last line of ink, the page number.

    Parameters
    ----------
    image : numpy.ndarray
        A grey page, one byte a pixel (0 black, 255 white), rows from the top.
    dpi : float
        The resolution it was rendered at.
    top : int, optional
        The first row of the text block (the same on every page of a document).

    Examples
    --------
    A page whose lines of text stop half way down, above its page number:

    >>> page = np.full((1100, 850), 255, dtype=np.uint8)
    >>> for y in range(100, 550, 14):
    ...     page[y:y + 8, 100:750] = 0
    >>> page[1000:1008, 420:430] = 0
    >>> round(blank_share(page, dpi=100), 1)
    0.5
    >>> page[550:990:14, 100:750] = 0  # the rest filled with lines
    >>> blank_share(page, dpi=100)
    0.0
    """
    ink = (image < _INK).any(axis=1)
    rows = np.flatnonzero(ink)
    if rows.size == 0:
        return 1.0
    start = rows[0] if top is None else top
    # the page number is the last cluster of ink; the block ends above it
    end = rows[-1]
    while end > start and ink[end]:
        end -= 1
    height = end - start
    if height <= 0:
        return 1.0
    gap = dpi * GAP_PT / 72
    blank, run = 0, 0
    for has_ink in ink[start:end + 1]:
        if has_ink:
            blank += run if run >= gap else 0
            run = 0
        else:
            run += 1
    blank += run if run >= gap else 0
    return min(1.0, float(blank / height))


def section_pages(aux: str) -> set[int]:
    """The pages on which a section or subsection starts, from a LaTeX ``.aux`` file.

    Examples
    --------
    >>> aux = (r"\\@writefile{toc}{\\contentsline {section}{\\numberline {1}Introduction}{1}{section.1}\\protected@file@percent }"
    ...        "\\n" r"\\@writefile{toc}{\\contentsline {subsection}{\\numberline {2.1}Rules}{3}{subsection.2.1}}")
    >>> sorted(section_pages(aux))
    [1, 3]
    """
    pages = set()
    for line in aux.splitlines():
        m = re.match(r"\\@writefile\{toc\}\{\\contentsline \{(?:sub)*section\}(.*)", line)
        if m:
            # the page is the second-last braced group: {title}{page}{anchor}
            groups = re.findall(r"\{([^{}]*)\}", m.group(1))
            if len(groups) >= 2 and groups[-2].isdigit():
                pages.add(int(groups[-2]))
    return pages


def render(pdf: Path, folder: Path, *, dpi: int) -> list[np.ndarray]:
    """Every page of ``pdf`` as a grey image (``pdftoppm``), in order."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise MscspError("pdftoppm is not installed (Debian: apt-get install poppler-utils)")
    run = subprocess.run([pdftoppm, "-gray", "-r", str(dpi), str(pdf), str(folder / "page")],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise MscspError(f"pdftoppm could not render {pdf}: {run.stderr.strip() or run.returncode}")
    return [_pgm(path) for path in sorted(folder.glob("page-*.pgm"), key=lambda p: int(p.stem.split("-")[-1]))]


def _pgm(path: Path) -> np.ndarray:
    """A binary PGM (P5, 8 bits) as an array."""
    data = path.read_bytes()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if m is None or int(m.group(3)) > 255:
        raise MscspError(f"{path} is not an 8-bit binary PGM")
    width, height = int(m.group(1)), int(m.group(2))
    return np.frombuffer(data, dtype=np.uint8, count=width * height, offset=m.end()).reshape(height, width)


def pages(pdf: Path, aux: Path, *, dpi: int = 50) -> list[Page]:
    """Every page of ``pdf`` with its blank share; ``aux`` is the build's ``.aux`` file.

    The text block's top is the same on every page: the median over the pages of their
    first row of ink (the title page starts lower, and its blank space above the title is
    not counted).
    """
    starts = section_pages(Path(aux).read_text(encoding="utf-8", errors="replace"))
    with tempfile.TemporaryDirectory() as tmp:
        images = render(Path(pdf), Path(tmp), dpi=dpi)
    firsts = [int(np.flatnonzero((im < _INK).any(axis=1))[0]) for im in images if (im < _INK).any()]
    top = int(np.median(firsts)) if firsts else 0
    out = []
    for number, image in enumerate(images, start=1):
        first = np.flatnonzero((image < _INK).any(axis=1))
        share = blank_share(image, dpi=dpi, top=max(top, int(first[0])) if number == 1 and first.size else top)
        out.append(Page(number, share, number == len(images) or number + 1 in starts))
    return out


def too_blank(pdf: Path, aux: Path, *, dpi: int = 50) -> list[Page]:
    """The pages more than :data:`MAX_BLANK` blank that neither end the paper nor
    precede a section."""
    return [p for p in pages(pdf, aux, dpi=dpi) if p.blank > MAX_BLANK and not p.ends_section]


def warnings(pdf: Path, aux: Path) -> list[str]:
    """One line per page :func:`too_blank` finds (none when every page is full enough),
    or one line saying why the pages could not be looked at."""
    try:
        found = too_blank(pdf, aux)
    except (MscspError, OSError) as exc:
        return [f"the pages' white space was not measured: {exc}"]
    return [f"page {p.number} of {pdf} is {p.blank:.0%} blank (at most {MAX_BLANK:.0%} but before a section or at "
            "the end): move a float or cut text" for p in found]
