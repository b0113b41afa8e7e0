"""The figures' style: the paper's body font at body sizes, each figure drawn at the
width it is printed.

The paper (``paper/mscsp.tex``: ``article``, 11 pt, A4, 25 mm margins) has a
``\\linewidth`` of 455.24411 TeX points, 160 mm. A figure it includes at
``width=F\\linewidth`` is drawn here ``F`` times that wide (:func:`figure`) and saved
without cropping (:func:`bbox_inches`), so LaTeX does not scale it and its text
prints at the size it was set: 9 pt, 10 pt for panel titles, never below
:data:`MIN_PT`. The font is Latin Modern Roman, the body's, from the OpenType files
shipped in ``fonts/`` (GUST Font License), so a figure's bytes do not depend on the
fonts a machine has installed; matplotlib's PDF backend embeds them as Type 3 fonts.

:func:`pdf_text` reads back the fonts and sizes of a PDF matplotlib wrote, with the
standard library only, and :func:`too_small` lists what prints below a size at a
given width: the test of every paper figure.
"""

from __future__ import annotations

import re
import weakref
import zlib
from pathlib import Path

__all__ = ["LINEWIDTH_PT", "LINEWIDTH_IN", "MIN_PT", "SIZE", "FAMILY", "pyplot", "figure", "decimal_labels",
           "bbox_inches", "pdf_text", "pdf_width", "too_small"]

#: ``\showthe\linewidth`` of paper/mscsp.tex, in TeX points (72.27 to the inch).
LINEWIDTH_PT = 455.24411
LINEWIDTH_IN = LINEWIDTH_PT / 72.27
#: The least size any figure text may print at, in points.
MIN_PT = 8.0
#: The size of a figure's text (the body is 11 pt; captions and tables are smaller).
SIZE = 9
FAMILY = "Latin Modern Roman"
FONTS = Path(__file__).with_name("fonts")
FONT_FILES = ("lmroman10-regular.otf", "lmroman10-italic.otf")

STYLE = {
    "font.family": FAMILY,
    "font.size": SIZE,
    "axes.titlesize": 10,
    "axes.labelsize": SIZE,
    "xtick.labelsize": SIZE,
    "ytick.labelsize": SIZE,
    "legend.fontsize": SIZE,
    "legend.title_fontsize": SIZE,
    "figure.titlesize": 10,
    "figure.labelsize": SIZE,
    # mathematics in the same font, not matplotlib's DejaVu or Computer Modern files
    "mathtext.fontset": "custom",
    "mathtext.rm": FAMILY,
    "mathtext.it": f"{FAMILY}:italic",
    "mathtext.bf": FAMILY,
    "mathtext.sf": FAMILY,
    "mathtext.tt": FAMILY,
    "mathtext.cal": FAMILY,
    "mathtext.fallback": None,
    "pdf.fonttype": 3,
    "axes.linewidth": 0.6,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "lines.linewidth": 1.2,
    "lines.markersize": 4.5,
    "legend.frameon": False,
    "savefig.dpi": 120,
}

_registered = False
# the figures drawn at their printed width, to be saved uncropped
_at_width: weakref.WeakSet = weakref.WeakSet()


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend with the figures' style in force
    (the fonts registered once, :data:`STYLE` in ``rcParams``).

    Examples
    --------
    >>> plt = pyplot()
    >>> plt.rcParams["font.family"], plt.rcParams["font.size"]
    (['Latin Modern Roman'], 9.0)
    """
    global _registered
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    if not _registered:
        manager = font_manager.fontManager
        # a machine's own Latin Modern files (another version, or the 12 pt design) must not
        # be chosen over these, or the figures' bytes would depend on the machine
        manager.ttflist = [f for f in manager.ttflist if f.name != FAMILY]
        for name in FONT_FILES:
            manager.addfont(str(FONTS / name))
        _registered = True
    matplotlib.rcParams.update(STYLE)
    return plt


def figure(fraction: float = 1.0, height: float = 2.5, **subplots):
    """A new figure ``fraction`` of the paper's ``\\linewidth`` wide and ``height``
    inches high, with ``constrained`` layout: ``(fig, axes)`` as
    ``plt.subplots(**subplots)`` returns them. Saved by
    :mod:`mscsp.experiments.output`, it keeps its size (:func:`bbox_inches`).

    Examples
    --------
    >>> fig, ax = figure(0.49, 2.0)
    >>> round(float(fig.get_figwidth()) / LINEWIDTH_IN, 2), bbox_inches(fig)
    (0.49, None)
    >>> pyplot().close(fig)
    """
    plt = pyplot()
    fig, axes = plt.subplots(figsize=(fraction * LINEWIDTH_IN, height), layout="constrained", **subplots)
    _at_width.add(fig)
    return fig, axes


def decimal_labels(axis) -> None:
    """Label a log ``axis`` with decimals (0.001, 0.01, ...) rather than powers of
    ten, whose exponents matplotlib sets at 70% of the text size, below :data:`MIN_PT`.

    Examples
    --------
    >>> fig, ax = figure(0.5, 1.5)
    >>> ax.set_yscale("log"); decimal_labels(ax.yaxis)
    >>> ax.yaxis.get_major_formatter()(0.001, 0)
    '0.001'
    >>> pyplot().close(fig)
    """
    from matplotlib.ticker import FuncFormatter, NullFormatter

    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def bbox_inches(fig) -> str | None:
    """How to save ``fig``: whole (``None``) when :func:`figure` made it at its
    printed width, cropped to what it draws (``"tight"``) otherwise."""
    return None if fig in _at_width else "tight"


def pdf_width(data: bytes) -> float:
    """The width of a one-page PDF's MediaBox, in PDF points (72 to the inch).

    Examples
    --------
    >>> pdf_width(b"<< /Type /Page /MediaBox [ 0 0 453.5 144 ] >>")
    453.5
    """
    box = re.search(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]", data)
    if box is None:
        raise ValueError("no /MediaBox in the PDF")
    return float(box.group(3)) - float(box.group(1))


def pdf_text(data: bytes) -> tuple[set[str], list[float]]:
    """The fonts a PDF names (``/BaseFont``, subset prefix dropped) and the size of
    every font selection (``/Fx size Tf``) in its content streams, in PDF points.

    Streams are read whether compressed (``/FlateDecode``, matplotlib's) or not.

    Examples
    --------
    >>> page = zlib.compress(b"BT /F1 9 Tf 10 10 Td (a) Tj ET BT /F1 12.5 Tf (b) Tj ET")
    >>> pdf = (b"<< /Type /Font /BaseFont /ABCDEF+LMRoman10-Regular >> stream\\n" + page
    ...        + b"\\nendstream")
    >>> pdf_text(pdf)
    ({'LMRoman10-Regular'}, [9.0, 12.5])
    """
    fonts = {m.decode("latin-1").split("+")[-1] for m in re.findall(rb"/BaseFont\s*/([^\s/<>\[\]()]+)", data)}
    sizes = []
    for stream in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        body = stream.group(1)
        try:
            body = zlib.decompress(body)
        except zlib.error:
            pass  # not compressed
        sizes += [float(s) for s in re.findall(rb"/[^\s/]+\s+([-\d.]+)\s+Tf", body)]
    return fonts, sizes


def too_small(data: bytes, printed_width_pt: float, least: float = MIN_PT) -> list[str]:
    """What in a figure's PDF would print below ``least`` points, or in another font
    than Latin Modern, when the figure is scaled to ``printed_width_pt`` (TeX points,
    as ``\\includegraphics[width=...]`` sets it); empty when nothing.

    Examples
    --------
    >>> page = zlib.compress(b"BT /F1 9 Tf (a) Tj ET")
    >>> pdf = (b"/MediaBox [ 0 0 200 100 ] /BaseFont /DejaVuSans stream\\n" + page + b"\\nendstream")
    >>> too_small(pdf, 200 * 72.27 / 72)
    ['a font that is not Latin Modern: DejaVuSans']
    >>> too_small(pdf, 100 * 72.27 / 72)  # printed at half its size
    ['a font that is not Latin Modern: DejaVuSans', 'text at 4.52 pt (9 pt in the file, scaled by 0.5)']
    """
    fonts, sizes = pdf_text(data)
    scale = (printed_width_pt * 72 / 72.27) / pdf_width(data)  # both in PDF points
    problems = [f"a font that is not Latin Modern: {f}" for f in sorted(fonts) if not f.startswith("LMRoman")]
    if not sizes:
        problems.append("no text found")
    for size in sorted(set(sizes)):
        printed = size * scale * 72.27 / 72  # back to TeX points
        if printed < least - 1e-9:
            problems.append(f"text at {printed:.3g} pt ({size:g} pt in the file, scaled by {scale:.3g})")
    return problems
