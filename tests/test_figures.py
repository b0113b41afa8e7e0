"""The paper's figures print their text at 8 pt or more, in the body's font.

Each figure the paper includes is drawn by a quick run of its experiment, and its PDF
is read back with the standard library: the fonts it embeds must be Latin Modern,
and every font size, times the scale at which ``\\includegraphics`` prints the page
(the width the paper gives it over the page's MediaBox width), at least 8 pt. The
paper's ``\\linewidth`` is computed here from its document class and geometry, not
taken from the code under test.
"""

from __future__ import annotations

import re
import zlib
from fractions import Fraction

import pytest

from conftest import REPO
from mscsp.experiments import figures

TEX = (REPO / "paper" / "mscsp.tex").read_text(encoding="utf-8")
#: Which run of which experiment writes each results folder the paper takes figures from.
RUNS = {"first_click": ("first_click", []), "completion": ("completion", []), "winrate": ("winrate", []),
        "noguess_cost": ("noguess_cost", []), "consistency": ("consistency", [])}


def linewidth_pt() -> Fraction:
    """``\\linewidth`` of the paper in TeX points: the A4 width (210 mm) less the
    geometry package's two margins; 72.27 TeX points to 25.4 mm."""
    assert re.search(r"\\documentclass\[[^]]*a4paper[^]]*\]\{article\}", TEX)
    margin = re.search(r"\\usepackage\[margin=(\d+)mm\]\{geometry\}", TEX)
    assert margin, "the test knows the geometry of one margin for all four sides"
    assert "twocolumn" not in TEX.split("\\begin{document}")[0]
    return (210 - 2 * Fraction(margin.group(1))) * Fraction(7227, 100) / Fraction(254, 10)


def includes() -> list[tuple[str, Fraction]]:
    """``(FOLDER/NAME, printed width in TeX points)`` of every figure of the paper."""
    found = re.findall(r"\\includegraphics\[width=([\d.]*)\\linewidth\]\{\\resultfigure\{([^}]+)\}\}", TEX)
    return [(name, Fraction(share or "1") * linewidth_pt()) for share, name in found]


def test_the_linewidth_the_figures_are_drawn_for_is_the_papers():
    assert figures.LINEWIDTH_PT == pytest.approx(float(linewidth_pt()), abs=1e-4)


def test_every_figure_of_the_paper_is_checked():
    names = [name for name, _ in includes()]
    assert len(names) == len(re.findall(r"\\resultfigure\{", TEX))  # none included another way
    assert {name.split("/")[0] for name in names} <= set(RUNS)
    assert "first_click/opening_map_expert" in names and "noguess_cost/mine_frequency" in names


@pytest.fixture(scope="module")
def quick_results(tmp_path_factory):
    """Quick runs of the experiments the paper's figures come from."""
    import importlib

    out = tmp_path_factory.mktemp("results")
    for folder in sorted({name.split("/")[0] for name, _ in includes()}):
        module, extra = RUNS[folder]
        main = importlib.import_module(f"mscsp.experiments.{module}").main
        assert main([*extra, "--quick", "--out", str(out / folder), "--jobs", "1"]) == 0
    return out


@pytest.mark.parametrize("name,printed", includes(), ids=[name for name, _ in includes()])
def test_the_figure_prints_its_text_at_8pt_or_more_in_latin_modern(quick_results, name, printed):
    data = (quick_results / f"{name}.pdf").read_bytes()
    assert figures.too_small(data, float(printed)) == []
    fonts, sizes = figures.pdf_text(data)
    assert fonts and all(f.startswith("LMRoman") for f in fonts)
    # drawn at the width it is printed: LaTeX neither shrinks nor enlarges it
    assert figures.pdf_width(data) == pytest.approx(float(printed) * 72 / 72.27, rel=0.005)
    assert min(sizes) >= 9


def _pdf(size: float, family: str = figures.FAMILY, width: float = 1.0) -> bytes:
    from mscsp.experiments.output import _pdf

    plt = figures.pyplot()
    fig, ax = figures.figure(width, 1.5)
    ax.plot([0, 1], [0, 1])
    ax.set_title("a title", fontsize=size, family=family)
    ax.tick_params(labelsize=9)
    try:
        return _pdf(fig)
    finally:
        plt.close(fig)


def test_the_check_refuses_7pt_text_and_another_font():
    width = float(linewidth_pt())
    assert figures.too_small(_pdf(9), width) == []
    small = figures.too_small(_pdf(7), width)
    assert len(small) == 1 and small[0].startswith("text at 7.03 pt")  # 7 PDF points are 7.03 TeX points
    assert any("DejaVuSans" in p for p in figures.too_small(_pdf(9, "DejaVu Sans"), width))
    # a full-width figure printed at 0.85 of the line: 9 pt prints at 7.7 pt
    assert any(p.startswith("text at 7.") for p in figures.too_small(_pdf(9), 0.85 * width))


def test_the_parser_reads_sizes_from_compressed_and_plain_streams():
    plain = b"/MediaBox [0 0 100 50] /BaseFont /XYZABC+LMRoman10-Regular stream\nBT /F2 8.5 Tf (x) Tj ET\nendstream"
    packed = b"stream\n" + zlib.compress(b"BT /F1 12 Tf (y) Tj ET") + b"\nendstream"
    assert figures.pdf_text(plain + packed) == ({"LMRoman10-Regular"}, [8.5, 12.0])
    assert figures.pdf_width(plain) == 100


def test_the_opening_maps_colour_bar_ends_at_the_largest_value_drawn():
    from mscsp.board import PRESETS
    from mscsp.experiments.first_click import RULES, _maps
    from mscsp.odds import opening_map

    spec = PRESETS["expert"]
    _, drawn = _maps({"expert": spec})
    fig = drawn["opening_map_expert"]
    top = max(float(p) for rule in RULES for p in opening_map(spec.geometry, spec.mines, rule).values())
    images = [im for ax in fig.axes for im in ax.get_images()]
    assert len(images) == len(RULES) and {im.norm.vmax for im in images} == {top}
    assert top < 0.6  # not the rounded 0.6 the bar used to end at
    figures.pyplot().close(fig)
