"""Pictures of positions, analyses, boards and games: SVG for notebooks, matplotlib for figures.

A researcher reads a :class:`~mscsp.position.Position` or an
:class:`~mscsp.analysis.full.Analysis` faster as a board than as text. This module
draws them two ways from one description of the picture:

- ``*_svg`` functions return the SVG as a ``str``, built by hand (a board is a grid
  of squares), so they need no plotting library; Jupyter shows them through the
  ``_repr_svg_`` methods of :class:`~mscsp.position.Position`,
  :class:`~mscsp.analysis.full.Analysis`, :class:`~mscsp.board.Layout`,
  :class:`~mscsp.game.Game` and :class:`~mscsp.rules.GeneratedBoard` (so a no-guess
  board too);
- ``plot_*`` functions draw on a matplotlib Axes (``ax=``, a new figure when it is
  None, as ``networkx.draw`` does) and return it; matplotlib is imported only when
  one of them is called, so ``import mscsp`` stays light.

The module sits with the model and imports nothing of mscsp: it reads the objects
through their public attributes (a position's text-format rows, a layout's rows and
numbers, a game's view and exploded cell, an analysis' proofs and probabilities), so
the model's classes can call it from their ``_repr_svg_``.

What is drawn:

- a position: covered cells raised, open cells flat with their numbers in the
  classic colours, flags, and the grid positions that are not cells left blank;
- an analysis: covered cells shaded by their mine probability (labelled in percent),
  proven safe cells with a green tick, proven mines with a mine on red, the
  suggested click ringed; when the analysis is not exact, estimated probabilities
  are hatched, labelled ``≈`` and the caption says they are estimates;
- a board (a :class:`~mscsp.board.Layout`): its mines, and its numbers unless
  ``numbers=False``;
- a game: what the player sees, and the mine that ended it when it is lost;
- a no-guess board (:class:`~mscsp.play.noguess.NoGuessBoard`): the board, its
  click ringed and its guarantee as the caption.

Every function takes ``highlight`` (cells ``(x, y)`` to outline), ``coordinates``
(column and row numbers on the edges), ``cell_size`` (pixels in SVG, points in
matplotlib) and ``title``. Cells are ``(x, y)``, x the column from the left, y the
row from the top. Each SVG cell is a ``rect`` of class ``cell``, and every mark
carries ``data-x`` and ``data-y``, so a page's script (or a test) can find it.

Examples
--------
>>> import mscsp
>>> from mscsp import draw
>>> pos = mscsp.parse_position("mines: 2\\n.....\\n.121.\\n")
>>> svg = draw.position_svg(pos)
>>> svg.startswith('<svg'), svg.count('class="cell ')
(True, 10)
>>> 'class="best"' in draw.analysis_svg(mscsp.analyse(pos))
True
"""

from __future__ import annotations

import hashlib
import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from xml.sax.saxutils import escape

from .errors import InputError


__all__ = [
    "position_svg", "analysis_svg", "board_svg", "game_svg", "no_guess_svg", "notebook_svg",
    "plot_position", "plot_analysis", "plot_board", "plot_game", "plot_no_guess",
    "NUMBER_COLOURS", "NOTEBOOK_AREA",
]

#: The classic colours of the numbers 1-8.
NUMBER_COLOURS = {1: "#0000ff", 2: "#008000", 3: "#ff0000", 4: "#000080", 5: "#800000", 6: "#008080",
                  7: "#000000", 8: "#808080"}

#: Largest board (grid positions) a notebook shows as a picture; past it the text
#: repr stays (a compiled formula's board can have millions of positions).
NOTEBOOK_AREA = 20_000

_COVERED, _OPEN, _EDGE, _HOLE = "#c0c6cc", "#f4f4f2", "#8a939c", "#ffffff"
_SAFE_FILL, _SAFE_TICK, _MINE_FILL, _EXPLODED = "#cdebc5", "#1e8449", "#e8a7a0", "#ff3b30"
_RING, _HIGHLIGHT, _TEXT = "#e67e22", "#8e44ad", "#222222"
# probability ramp: from pale (no chance of a mine) to red (certain)
_LOW, _HIGH = (0xfb, 0xf6, 0xe4), (0xd7, 0x30, 0x1f)


@dataclass
class _Cell:
    """One grid position of a picture: its fill, its label and its mark."""

    x: int
    y: int
    kind: str  # hole, covered, open, flag, mine, exploded, safe, proven-mine, p
    fill: str
    label: str | None = None
    label_class: str = "number"
    colour: str = _TEXT
    bold: bool = False
    symbol: str | None = None  # flag, mine, tick
    hatch: bool = False


@dataclass
class _Scene:
    """A whole picture, for either back end."""

    width: int
    height: int
    cells: list[_Cell]
    rings: list[tuple[int, int]] = field(default_factory=list)
    highlight: list[tuple[int, int]] = field(default_factory=list)
    title: str | None = None
    caption: list[str] = field(default_factory=list)


# -- what to draw -------------------------------------------------------------------------
def _position_scene(position, *, numbers: bool = True) -> _Scene:
    g = position.geometry
    cells = []
    for y, row in enumerate(position.rows()):  # the text format's characters: . F - 0-8
        for x, ch in enumerate(row):
            if ch == "-":
                cells.append(_Cell(x, y, "hole", _HOLE))
            elif ch == ".":
                cells.append(_Cell(x, y, "covered", _COVERED))
            elif ch == "F":
                cells.append(_Cell(x, y, "flag", _COVERED, symbol="flag"))
            else:
                label = ch if ch != "0" and numbers else None
                cells.append(_Cell(x, y, "open", _OPEN, label, colour=NUMBER_COLOURS.get(int(ch), _TEXT), bold=True))
    return _Scene(g.width, g.height, cells)


def _ramp(p: float) -> str:
    return "#" + "".join(f"{round(a + (b - a) * p):02x}" for a, b in zip(_LOW, _HIGH))


def _percent(p: Fraction) -> str:
    """A probability in whole percent, never rounded to 0 or 100 unless it is one."""
    value = round(100 * p)
    if value == 0 and p > 0:
        return "<1%"
    if value == 100 and p < 1:
        return ">99%"
    return f"{value}%"


def _analysis_scene(analysis, *, labels: bool = True) -> _Scene:
    position = analysis.position
    scene = _position_scene(position)
    g = position.geometry
    safe, mines = set(analysis.safe), set(analysis.mines)
    probs = analysis.probabilities
    estimated = False
    for c in scene.cells:
        if c.kind != "covered":
            continue
        xy = (c.x, c.y)
        if xy in safe:
            c.kind, c.fill, c.symbol = "safe", _SAFE_FILL, "tick"
            continue
        if xy in mines:
            c.kind, c.fill, c.symbol = "proven-mine", _MINE_FILL, "mine"
            continue
        if probs is None:
            continue
        index = g.index(*xy)
        p = probs.by_index.get(index)
        if p is None:  # an estimate that could not be made: no number to show
            c.kind, c.label, c.label_class = "p", "?", "p"
            continue
        guess = index in probs.intervals_by_index
        estimated |= guess
        c.kind, c.fill, c.hatch = "p", _ramp(float(p)), guess
        if labels:
            c.label, c.label_class = ("≈" if guess else "") + _percent(p), "p"
            c.colour = "#ffffff" if p > Fraction(3, 5) else _TEXT
    if analysis.best is not None:
        scene.rings.append(tuple(analysis.best))
    if not analysis.consistent:
        clash = analysis.contradiction
        if clash is not None and clash.clues:
            scene.highlight.extend(tuple(xy) for xy in clash.clues)
            total = " and the mine total" if clash.uses_total else ""
            scene.caption.append(f"no layout fits the outlined clues{total}")
        else:
            scene.caption.append("no layout fits this position")
    elif probs is None:
        scene.caption.append("no probabilities: counting gave up")
    elif estimated or not analysis.exact:
        scene.caption.append("≈ hatched: estimated probabilities (not exact)")
    else:
        scene.caption.append("exact probabilities")
    if any(c.label == "?" for c in scene.cells):
        # without a total, cells away from every number have no probability (see Probabilities)
        scene.caption.append("?: no probability for this cell")
    scene.caption.append("tick: proven safe · mine: proven mine · ring: suggested click")
    return scene


def _board_scene(layout, *, numbers: bool = True) -> _Scene:
    g = layout.geometry
    shown = layout.numbers.tolist()
    cells = []
    for y, row in enumerate(layout.rows()):  # * a mine, . safe, - not a cell
        for x, ch in enumerate(row):
            if ch == "-":
                cells.append(_Cell(x, y, "hole", _HOLE))
            elif ch == "*":
                cells.append(_Cell(x, y, "mine", _OPEN, symbol="mine"))
            else:
                n = shown[y * g.width + x]
                label = str(n) if n and numbers else None
                cells.append(_Cell(x, y, "open", _OPEN, label, colour=NUMBER_COLOURS.get(n, _TEXT), bold=True))
    return _Scene(g.width, g.height, cells)


def _game_scene(game) -> _Scene:
    scene = _position_scene(game.position())
    exploded = game.exploded
    if exploded is not None:
        c = scene.cells[exploded[1] * scene.width + exploded[0]]
        c.kind, c.fill, c.symbol = "exploded", _EXPLODED, "mine"
    scene.caption.append(f"{game.status.value}: {game.opened_count} cells open, {game.mines} mines")
    return scene


def _no_guess_scene(board, *, numbers: bool = True) -> _Scene:
    scene = _board_scene(board.layout, numbers=numbers)
    scene.rings.append(tuple(board.click))
    guarantee = getattr(board, "guarantee", None)
    seed = "" if board.seed is None else f", seed {board.seed}"
    scene.caption.append(guarantee or f"first click [{board.click[0]},{board.click[1]}] ({board.rule.value}{seed})")
    return scene


def _finish(scene: _Scene, highlight, title) -> _Scene:
    for xy in highlight:
        pair = tuple(xy.tolist() if hasattr(xy, "tolist") else xy) if hasattr(xy, "__len__") else ()
        if (len(pair) != 2 or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in pair)
                or not (0 <= pair[0] < scene.width and 0 <= pair[1] < scene.height)):
            raise InputError(f"a highlighted cell must be a pair (x, y) on the {scene.width}x{scene.height} "
                             f"board, not {xy!r}")
        scene.highlight.append((int(pair[0]), int(pair[1])))
    scene.title = title
    return scene


def _size(cell_size) -> float:
    if isinstance(cell_size, bool) or not isinstance(cell_size, numbers.Real) or not 0 < cell_size < 1000:
        raise InputError(f"cell_size must be a number of pixels (points) above 0 and below 1000, not {cell_size!r}")
    return float(cell_size)


# -- SVG ------------------------------------------------------------------------------------
def _f(v: float) -> str:
    """A coordinate in at most two decimals: short files, identical on every run."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _svg(scene: _Scene, *, coordinates: bool, cell_size: float) -> str:
    s = _size(cell_size)
    left = top = 0.8 * s if coordinates else 2.0
    if scene.title:
        top += 0.8 * s
    line = 0.55 * s
    body_w, body_h = scene.width * s, scene.height * s
    total_w = left + body_w + 2
    total_h = top + body_h + 2 + (len(scene.caption) * line + 0.3 * s if scene.caption else 0)
    total_w = max(total_w, left + max((len(t) for t in scene.caption), default=0) * 0.25 * s + 4)
    # every picture is alone on a notebook page with others: its pattern id is its own
    key = hashlib.sha1(repr((scene.width, scene.height, [c.__dict__ for c in scene.cells])).encode()).hexdigest()
    hatch_id = f"mscsp-hatch-{key[:12]}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(total_w)}" height="{_f(total_h)}" '
           f'viewBox="0 0 {_f(total_w)} {_f(total_h)}" font-family="DejaVu Sans, Arial, sans-serif" '
           f'class="mscsp-board">']
    out.append(f"<title>{escape(scene.title or f'{scene.width}x{scene.height} board')}</title>")
    if any(c.hatch for c in scene.cells):
        out.append(f'<defs><pattern id="{hatch_id}" patternUnits="userSpaceOnUse" width="5" height="5" '
                   'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="5" stroke="#333333" '
                   'stroke-width="1.2" stroke-opacity="0.45"/></pattern></defs>')
    if scene.title:
        out.append(f'<text class="title" x="{_f(left + body_w / 2)}" y="{_f(0.55 * s)}" text-anchor="middle" '
                   f'font-size="{_f(0.5 * s)}" fill="{_TEXT}">{escape(scene.title)}</text>')
    if coordinates:
        size = _f(0.36 * s)
        for x in range(scene.width):
            out.append(f'<text class="coord" x="{_f(left + (x + 0.5) * s)}" y="{_f(top - 0.2 * s)}" '
                       f'text-anchor="middle" font-size="{size}" fill="#666666">{x}</text>')
        for y in range(scene.height):
            out.append(f'<text class="coord" x="{_f(left - 0.2 * s)}" y="{_f(top + (y + 0.5) * s)}" '
                       f'text-anchor="end" dominant-baseline="central" font-size="{size}" fill="#666666">{y}</text>')
    out.append(f'<g transform="translate({_f(left)},{_f(top)})">')
    for c in scene.cells:
        x0, y0 = c.x * s, c.y * s
        where = f'data-x="{c.x}" data-y="{c.y}"'
        stroke = 'stroke="none"' if c.kind == "hole" else f'stroke="{_EDGE}" stroke-width="0.6"'
        out.append(f'<rect class="cell {c.kind}" {where} x="{_f(x0)}" y="{_f(y0)}" width="{_f(s)}" '
                   f'height="{_f(s)}" fill="{c.fill}" {stroke}/>')
        if c.hatch:
            out.append(f'<rect class="estimate" {where} x="{_f(x0)}" y="{_f(y0)}" width="{_f(s)}" '
                       f'height="{_f(s)}" fill="url(#{hatch_id})"/>')
        if c.symbol == "flag":
            out.append(f'<g class="flag" {where}><line x1="{_f(x0 + 0.38 * s)}" y1="{_f(y0 + 0.22 * s)}" '
                       f'x2="{_f(x0 + 0.38 * s)}" y2="{_f(y0 + 0.8 * s)}" stroke="#333333" stroke-width="1.4"/>'
                       f'<polygon points="{_f(x0 + 0.38 * s)},{_f(y0 + 0.2 * s)} {_f(x0 + 0.76 * s)},'
                       f'{_f(y0 + 0.37 * s)} {_f(x0 + 0.38 * s)},{_f(y0 + 0.54 * s)}" fill="#d62728"/></g>')
        elif c.symbol == "mine":
            cx, cy, r = x0 + 0.5 * s, y0 + 0.5 * s, 0.22 * s
            spikes = "".join(
                f'<line x1="{_f(cx - dx * 0.36 * s)}" y1="{_f(cy - dy * 0.36 * s)}" x2="{_f(cx + dx * 0.36 * s)}" '
                f'y2="{_f(cy + dy * 0.36 * s)}" stroke="#111111" stroke-width="1.4"/>'
                for dx, dy in ((1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071)))
            out.append(f'<g class="mine" {where}>{spikes}<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" '
                       f'fill="#111111"/><circle cx="{_f(cx - 0.3 * r)}" cy="{_f(cy - 0.3 * r)}" '
                       f'r="{_f(0.25 * r)}" fill="#ffffff"/></g>')
        elif c.symbol == "tick":
            out.append(f'<polyline class="tick" {where} points="{_f(x0 + 0.24 * s)},{_f(y0 + 0.52 * s)} '
                       f'{_f(x0 + 0.43 * s)},{_f(y0 + 0.72 * s)} {_f(x0 + 0.78 * s)},{_f(y0 + 0.28 * s)}" '
                       f'fill="none" stroke="{_SAFE_TICK}" stroke-width="{_f(0.1 * s)}" '
                       'stroke-linecap="round" stroke-linejoin="round"/>')
        if c.label is not None:
            size = 0.6 * s if c.label_class == "number" else (0.27 if len(c.label) > 4 else 0.31) * s
            weight = ' font-weight="bold"' if c.bold else ""
            out.append(f'<text class="{c.label_class}" {where} x="{_f(x0 + 0.5 * s)}" y="{_f(y0 + 0.5 * s)}" '
                       f'text-anchor="middle" dominant-baseline="central" font-size="{_f(size)}"{weight} '
                       f'fill="{c.colour}">{escape(c.label)}</text>')
    for x, y in scene.highlight:
        out.append(f'<rect class="highlight" data-x="{x}" data-y="{y}" x="{_f((x + 0.07) * s)}" '
                   f'y="{_f((y + 0.07) * s)}" width="{_f(0.86 * s)}" height="{_f(0.86 * s)}" fill="none" '
                   f'stroke="{_HIGHLIGHT}" stroke-width="{_f(max(1.5, 0.09 * s))}"/>')
    for x, y in scene.rings:
        out.append(f'<circle class="best" data-x="{x}" data-y="{y}" cx="{_f((x + 0.5) * s)}" '
                   f'cy="{_f((y + 0.5) * s)}" r="{_f(0.45 * s)}" fill="none" stroke="{_RING}" '
                   f'stroke-width="{_f(max(1.5, 0.09 * s))}"/>')
    out.append("</g>")
    for k, text in enumerate(scene.caption):
        out.append(f'<text class="caption" x="{_f(left)}" y="{_f(top + body_h + 0.3 * s + (k + 0.75) * line)}" '
                   f'font-size="{_f(0.42 * s)}" fill="#444444">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def position_svg(position, *, highlight=(), coordinates: bool = True, cell_size: float = 24,
                 title: str | None = None, numbers: bool = True) -> str:
    """A position as SVG text: covered cells, numbers, flags; holes blank.

    Parameters
    ----------
    position : Position
    highlight : iterable of (int, int)
        Cells ``(x, y)`` to outline.
    coordinates : bool
        Column and row numbers on the edges.
    cell_size : float
        Pixels a cell.
    title : str, optional
        A line above the board.
    numbers : bool
        Show the open cells' numbers.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> svg = position_svg(parse_position("1F\\n.-\\n"), coordinates=False)
    >>> [svg.count(f'class="cell {k}"') for k in ("open", "flag", "covered", "hole")]
    [1, 1, 1, 1]
    """
    return _svg(_finish(_position_scene(position, numbers=numbers), highlight, title),
                coordinates=coordinates, cell_size=cell_size)


def analysis_svg(analysis, *, highlight=(), coordinates: bool = True, cell_size: float = 28,
                 title: str | None = None, labels: bool = True) -> str:
    """An :class:`~mscsp.analysis.full.Analysis` as SVG text: probabilities, proofs and the click.

    Covered cells are shaded by their mine probability and labelled in percent
    (``labels=False`` leaves the shading alone); proven safe cells carry a tick,
    proven mines a mine on red, the suggested click a ring. Estimated probabilities
    are hatched and labelled ``≈``, and the caption says so. Other parameters as
    for :func:`position_svg`.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.full import analyse
    >>> svg = analysis_svg(analyse(parse_position("mines: 1\\n.1...\\n")))
    >>> svg.count('class="tick"'), svg.count('class="best" data-x="3" data-y="0"')
    (2, 1)
    """
    return _svg(_finish(_analysis_scene(analysis, labels=labels), highlight, title),
                coordinates=coordinates, cell_size=cell_size)


def board_svg(layout, *, numbers: bool = True, highlight=(), coordinates: bool = True,
              cell_size: float = 24, title: str | None = None) -> str:
    """A :class:`~mscsp.board.Layout` as SVG text: every mine, and the numbers unless
    ``numbers=False``. Other parameters as for :func:`position_svg`.

    Examples
    --------
    >>> from mscsp.board import Layout
    >>> board_svg(Layout.from_rows(["*..", "..*"])).count('class="mine"')
    2
    """
    return _svg(_finish(_board_scene(layout, numbers=numbers), highlight, title),
                coordinates=coordinates, cell_size=cell_size)


def game_svg(game, *, highlight=(), coordinates: bool = True, cell_size: float = 24,
             title: str | None = None) -> str:
    """A :class:`~mscsp.game.Game` as SVG text: what the player sees, and the mine
    that ended it (on red) when it is lost. Other parameters as for :func:`position_svg`.

    Examples
    --------
    >>> from mscsp.game import Game
    >>> from mscsp.board import Layout
    >>> g = Game(Layout.from_rows(["*..", "..."]))
    >>> _ = g.reveal((0, 0))
    >>> game_svg(g).count('class="cell exploded" data-x="0" data-y="0"')
    1
    """
    return _svg(_finish(_game_scene(game), highlight, title), coordinates=coordinates, cell_size=cell_size)


def no_guess_svg(board, *, numbers: bool = True, highlight=(), coordinates: bool = True,
                 cell_size: float = 24, title: str | None = None) -> str:
    """A generated board (a :class:`~mscsp.play.noguess.NoGuessBoard` or any
    :class:`~mscsp.rules.GeneratedBoard`) as SVG text: the layout, its first click
    ringed, and its guarantee (or rule and seed) as the caption. Other parameters as
    for :func:`board_svg`.

    Examples
    --------
    >>> from mscsp.board import Spec
    >>> from mscsp.rules import generate
    >>> svg = no_guess_svg(generate(Spec(5, 5, 3), "opening", (2, 2), seed=1))
    >>> svg.count('class="best" data-x="2" data-y="2"')
    1
    """
    return _svg(_finish(_no_guess_scene(board, numbers=numbers), highlight, title),
                coordinates=coordinates, cell_size=cell_size)


def notebook_svg(obj) -> str | None:
    """The picture a notebook shows for a Position, Analysis, Layout, Game or
    generated board, or None past :data:`NOTEBOOK_AREA` grid positions (the notebook
    then shows the text repr). What their ``_repr_svg_`` methods return.

    Examples
    --------
    >>> from mscsp.board import Layout
    >>> notebook_svg(Layout.from_rows(["*."])).startswith("<svg")
    True
    """
    # told apart by what they hold, not by class: the model's classes import this module
    if hasattr(obj, "probabilities") and hasattr(obj, "best"):
        geometry, draw = obj.position.geometry, analysis_svg
    elif hasattr(obj, "layout") and hasattr(obj, "click") and not callable(obj.layout):
        geometry, draw = obj.layout.geometry, no_guess_svg
    elif hasattr(obj, "exploded") and callable(getattr(obj, "position", None)):
        geometry, draw = obj.geometry, game_svg
    elif hasattr(obj, "numbers") and hasattr(obj, "mines") and hasattr(obj, "rows"):
        geometry, draw = obj.geometry, board_svg
    elif hasattr(obj, "grid") and hasattr(obj, "rows"):
        geometry, draw = obj.geometry, position_svg
    else:
        raise TypeError(f"mscsp.draw has no picture of a {type(obj).__name__}")
    return draw(obj) if geometry.area <= NOTEBOOK_AREA else None


# -- matplotlib -------------------------------------------------------------------------------
def _points_per_cell(ax, width: int, height: int) -> float:
    """How many points one cell spans on the Axes (equal aspect): the font sizes follow it."""
    fig = ax.figure
    box = ax.get_position()
    w_in, h_in = box.width * fig.get_figwidth(), box.height * fig.get_figheight()
    return 72 * min(w_in / width, h_in / height)


def _plot(scene: _Scene, ax, *, coordinates: bool, cell_size: float):
    from matplotlib.patches import Circle, Polygon, Rectangle

    if ax is None:
        import matplotlib.pyplot as plt

        extra = 0.8 if coordinates else 0.1
        inches = _size(cell_size) / 72
        _, ax = plt.subplots(figsize=((scene.width + extra) * inches + 0.2,
                                      (scene.height + extra + 0.8 * len(scene.caption)) * inches + 0.3))
    ax.set_xlim(-0.05, scene.width + 0.05)
    ax.set_ylim(scene.height + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    pts = _points_per_cell(ax, scene.width, scene.height)
    if coordinates:
        for x in range(scene.width):
            ax.text(x + 0.5, -0.15, str(x), ha="center", va="bottom", fontsize=0.3 * pts, color="#666666",
                    gid="coord")
        for y in range(scene.height):
            ax.text(-0.15, y + 0.5, str(y), ha="right", va="center", fontsize=0.3 * pts, color="#666666",
                    gid="coord")
    for c in scene.cells:
        if c.kind == "hole":  # left blank: a compiled board is mostly holes, and a figure file stays small
            continue
        x, y, where = c.x, c.y, f"{c.x},{c.y}"
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=c.fill, edgecolor=_EDGE, linewidth=0.6,
                               gid=f"cell {c.kind} {where}"))
        if c.hatch:
            ax.add_patch(Rectangle((x, y), 1, 1, fill=False, hatch="////", edgecolor="#777777", linewidth=0,
                                   gid=f"estimate {where}"))
        if c.symbol == "flag":
            ax.plot([x + 0.38, x + 0.38], [y + 0.22, y + 0.8], color="#333333", lw=1.2, gid=f"flag {where}")
            ax.add_patch(Polygon([(x + 0.38, y + 0.2), (x + 0.76, y + 0.37), (x + 0.38, y + 0.54)],
                                 color="#d62728", gid=f"flag {where}"))
        elif c.symbol == "mine":
            for dx, dy in ((1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071)):
                ax.plot([x + 0.5 - 0.36 * dx, x + 0.5 + 0.36 * dx], [y + 0.5 - 0.36 * dy, y + 0.5 + 0.36 * dy],
                        color="#111111", lw=max(1.0, 0.07 * pts), gid=f"mine {where}")
            ax.add_patch(Circle((x + 0.5, y + 0.5), 0.22, color="#111111", gid=f"mine {where}"))
        elif c.symbol == "tick":
            ax.plot([x + 0.24, x + 0.43, x + 0.78], [y + 0.52, y + 0.72, y + 0.28], color=_SAFE_TICK,
                    lw=max(1.0, 0.09 * pts), solid_capstyle="round", gid=f"tick {where}")
        if c.label is not None:
            size = 0.5 * pts if c.label_class == "number" else (0.22 if len(c.label) > 4 else 0.26) * pts
            ax.text(x + 0.5, y + 0.53, c.label, ha="center", va="center", fontsize=size, color=c.colour,
                    fontweight="bold" if c.bold else "normal", gid=f"{c.label_class} {where}")
    for x, y in scene.highlight:
        ax.add_patch(Rectangle((x + 0.07, y + 0.07), 0.86, 0.86, fill=False, edgecolor=_HIGHLIGHT,
                               lw=max(1.0, 0.07 * pts), gid=f"highlight {x},{y}"))
    for x, y in scene.rings:
        ax.add_patch(Circle((x + 0.5, y + 0.5), 0.45, fill=False, edgecolor=_RING, lw=max(1.0, 0.07 * pts),
                            gid=f"best {x},{y}"))
    if scene.title:
        ax.set_title(scene.title, fontsize=9, pad=11 if coordinates else 4)
    if scene.caption:
        ax.set_xlabel("\n".join(scene.caption), fontsize=7, color="#444444", loc="left")
    return ax


def plot_position(position, *, ax=None, highlight=(), coordinates: bool = True, cell_size: float = 24,
                  title: str | None = None, numbers: bool = True):
    """:func:`position_svg` drawn on a matplotlib Axes (a new figure when ``ax`` is
    None, ``cell_size`` points a cell); returns the Axes.

    The cell ``(x, y)`` spans ``[x, x + 1] x [y, y + 1]`` in data coordinates, y
    pointing down, so a caller can draw more on top. Every patch and text carries
    a ``gid`` naming what it is and its cell (``"cell open 2,1"``, ``"number 2,1"``);
    holes get no patch (the background shows).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from mscsp.position import parse_position
    >>> ax = plot_position(parse_position("1F\\n.-\\n"), coordinates=False)
    >>> len([p for p in ax.patches if p.get_gid().startswith("cell ")]), [t.get_text() for t in ax.texts]
    (3, ['1'])
    """
    return _plot(_finish(_position_scene(position, numbers=numbers), highlight, title), ax,
                 coordinates=coordinates, cell_size=cell_size)


def plot_analysis(analysis, *, ax=None, highlight=(), coordinates: bool = True, cell_size: float = 28,
                  title: str | None = None, labels: bool = True):
    """:func:`analysis_svg` drawn on a matplotlib Axes; returns the Axes (see
    :func:`plot_position`). The caption (estimate or exact, what the marks mean) is
    the Axes' x label."""
    return _plot(_finish(_analysis_scene(analysis, labels=labels), highlight, title), ax,
                 coordinates=coordinates, cell_size=cell_size)


def plot_board(layout, *, ax=None, numbers: bool = True, highlight=(), coordinates: bool = True,
               cell_size: float = 24, title: str | None = None):
    """:func:`board_svg` drawn on a matplotlib Axes; returns the Axes."""
    return _plot(_finish(_board_scene(layout, numbers=numbers), highlight, title), ax,
                 coordinates=coordinates, cell_size=cell_size)


def plot_game(game, *, ax=None, highlight=(), coordinates: bool = True, cell_size: float = 24,
              title: str | None = None):
    """:func:`game_svg` drawn on a matplotlib Axes; returns the Axes."""
    return _plot(_finish(_game_scene(game), highlight, title), ax, coordinates=coordinates, cell_size=cell_size)


def plot_no_guess(board, *, ax=None, numbers: bool = True, highlight=(), coordinates: bool = True,
                  cell_size: float = 24, title: str | None = None):
    """:func:`no_guess_svg` drawn on a matplotlib Axes; returns the Axes."""
    return _plot(_finish(_no_guess_scene(board, numbers=numbers), highlight, title), ax,
                 coordinates=coordinates, cell_size=cell_size)
