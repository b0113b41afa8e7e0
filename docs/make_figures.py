"""Draw the figures of the documentation into docs/figures/ (run from anywhere).

    python docs/make_figures.py            # SVG files, committed with the docs
    python docs/make_figures.py --png DIR  # PNG previews into DIR instead

Every figure is computed by mscsp itself from a fixed position or a seeded board, and
its boards are drawn by :mod:`mscsp.draw` (the pictures a notebook shows), so the
pictures show what the code does; the SVG output is byte-for-byte the same on
every run with the same matplotlib (fixed ids, no dates). Run it again after a change
that alters what a figure shows, and commit the result.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, Rectangle  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # document the checkout, not an installed copy

from mscsp.analysis.full import analyse  # noqa: E402
from mscsp.board import Layout, Spec  # noqa: E402
from mscsp.analysis.constraints import build_constraints  # noqa: E402
from mscsp.analysis.counting.exact.order import choose_order  # noqa: E402
from mscsp.analysis.counting.exact.variables import build_problem  # noqa: E402
from mscsp.game import Game  # noqa: E402
from mscsp.reduction.gadgets import GADGETS, TILE  # noqa: E402
from mscsp.play.loop import Deducer  # noqa: E402
from mscsp.position import Position, parse_position  # noqa: E402
from mscsp import compile_cnf, draw, parse_dimacs  # noqa: E402
from mscsp.rules import generate  # noqa: E402
from mscsp.play.dead import dead_pair, dead_square  # noqa: E402

plt.rcParams.update({
    "svg.hashsalt": "mscsp-docs",  # stable element ids: the same SVG on every run
    "svg.fonttype": "none",  # text stays text: small files that scale
    "font.family": "DejaVu Sans",
    "font.size": 9,
})

#: Colours of the marks the figures add to mscsp.draw's boards.
EDGE = "#8a939c"
SAFE, MINE, RING, OUTLINE = "#1e8449", "#111111", "#d35400", "#c0392b"
GROUP = ["#f5b041", "#5dade2", "#af7ac5", "#58d68d", "#ec7063", "#f7dc6f", "#48c9b0", "#eb984e"]


# -- drawing a board ------------------------------------------------------------------
def cell(ax, x: int, y: int, colour: str, *, edge: str = EDGE, lw: float = 0.6) -> None:
    ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, edgecolor=edge, linewidth=lw))


def draw_position(ax, position: Position, *, labels: bool = True, digits: bool = True) -> None:
    """Open numbers, covered cells, flags; holes left blank (:func:`mscsp.draw.plot_position`)."""
    draw.plot_position(position, ax=ax, coordinates=labels, numbers=digits)


def safe_mark(ax, x: int, y: int) -> None:
    ax.plot([x + 0.25, x + 0.45, x + 0.78], [y + 0.52, y + 0.72, y + 0.28], color=SAFE, lw=2.2,
            solid_capstyle="round")


def mine_mark(ax, x: int, y: int) -> None:
    ax.plot(x + 0.5, y + 0.5, marker="*", markersize=11, color=MINE)


def ring(ax, x: int, y: int) -> None:
    ax.add_patch(Circle((x + 0.5, y + 0.5), 0.46, fill=False, edgecolor=RING, lw=2.0))


def outline(ax, cells: list[tuple[int, int]], colour: str = OUTLINE, lw: float = 2.0) -> None:
    for x, y in cells:
        ax.add_patch(Rectangle((x + 0.06, y + 0.06), 0.88, 0.88, fill=False, edgecolor=colour, lw=lw))


def save(fig, name: str, out: Path, png: bool) -> None:
    path = out / (name + (".png" if png else ".svg"))
    fig.savefig(path, bbox_inches="tight", pad_inches=0.04, dpi=110,
                metadata={"Software": None} if png else {"Date": None, "Creator": None})
    plt.close(fig)
    print(path)


def figsize(width: int, height: int, scale: float = 0.32) -> tuple[float, float]:
    return width * scale + 0.3, height * scale + 0.3


# -- the figures --------------------------------------------------------------------------
def example(name: str) -> str:
    """A file of docs/examples/, which the pages show and run too."""
    return (HERE / "examples" / name).read_text(encoding="utf-8")


def fig_position(out: Path, png: bool) -> None:
    position = parse_position(example("position.txt"))
    fig, axes = plt.subplots(1, 2, figsize=(5.4, 1.6))
    draw_position(axes[0], position)
    axes[0].set_title("the position", fontsize=9, pad=11)
    draw.plot_analysis(analyse(position), ax=axes[1])
    axes[1].set_title("what mscsp solve finds", fontsize=9, pad=11)
    save(fig, "position", out, png)


def fig_analysis(out: Path, png: bool) -> None:
    # a seed whose first opening leaves proofs and many different chances (found by scanning)
    board = generate(Spec(12, 12, 24), "opening", (6, 6), seed=33)
    game = Game.from_board(board)
    game.reveal(board.click)
    position = game.position()
    fig, ax = plt.subplots(figsize=figsize(12, 12, 0.36))
    draw.plot_analysis(analyse(position), ax=ax)
    save(fig, "analysis", out, png)


def fig_explanation(out: Path, png: bool) -> None:
    position = parse_position(example("one_two_one.txt"))
    analysis = analyse(position)
    fig, axes = plt.subplots(1, 2, figsize=(5.0, 1.3))
    for ax, target in zip(axes, ((2, 0), (1, 0))):
        why = next(e for e in analysis.explanations if target in e.cells)
        draw.plot_position(position, ax=ax, highlight=why.clues)
        mine = target in analysis.mines
        (mine_mark if mine else safe_mark)(ax, *target)
        ax.set_title(f"[{target[0]},{target[1]}] is {'a mine' if mine else 'safe'}: "
                     f"{len(why.clues)} clues", fontsize=8, pad=11)
    save(fig, "explanation", out, png)


def fig_groups(out: Path, png: bool) -> None:
    position = parse_position(example("groups.txt"))
    system = build_constraints(position)
    g = position.geometry
    fig, ax = plt.subplots(figsize=(3.0, 1.6))
    draw_position(ax, position)
    problem = build_problem(system, system.components[0])
    for k, var in enumerate(problem.variables):
        name = "ABC"[k]
        for c in var.kinds[0]:
            x, y = g.coords(c)
            cell(ax, x, y, GROUP[k])
            ax.text(x + 0.5, y + 0.53, name, ha="center", va="center", fontsize=9, fontweight="bold")
    for c in system.unconstrained:
        x, y = g.coords(c)
        ax.text(x + 0.5, y + 0.53, "U", ha="center", va="center", fontsize=9, color="#444444")
    save(fig, "groups", out, png)


def fig_sweep(out: Path, png: bool) -> None:
    # the top left corner of a stress case of the repository: two rows of clues
    text = (HERE.parent / "examples" / "positions" / "long_frontier.txt").read_text()
    rows = [r[:13] for r in text.splitlines() if r and not r.startswith("#") and ":" not in r][:3]
    position = Position.from_rows(rows)
    system = build_constraints(position)
    g = position.geometry
    comp = max(system.components, key=len)
    problem = build_problem(system, comp)
    order = choose_order(problem, g.width).order
    cut = len(order) // 2
    decided = set(order[:cut])
    members = problem.clue_members()
    open_clues = [problem.clue_cells[c] for c, vs in enumerate(members)
                  if any(v in decided for v in vs) and not all(v in decided for v in vs)]
    fig, ax = plt.subplots(figsize=figsize(g.width, g.height, 0.42))
    draw_position(ax, position)
    for step, vi in enumerate(order):
        var = problem.variables[vi]
        colour = GROUP[0] if vi in decided else GROUP[1]
        for kind in var.kinds:
            for c in kind:
                x, y = g.coords(c)
                cell(ax, x, y, colour)
                ax.text(x + 0.5, y + 0.53, str(step + 1), ha="center", va="center", fontsize=7)
    outline(ax, [g.coords(c) for c in open_clues])
    save(fig, "sweep", out, png)


def _stall(layout: Layout, click: int) -> Position:
    game = Game(layout, record=False)
    deducer = Deducer(game, "sat", use_total=True)
    deducer._opened_index(game._reveal_index(click))
    deducer.run()
    return game.position()


def fig_verify(out: Path, png: bool) -> None:
    spec, click = Spec(9, 9, 10), (4, 4)
    fig, axes = plt.subplots(1, 3, figsize=(9.3, 3.2))
    # seed 42 holds a dead 2x2 block, seed 14 a dead pair (found by scanning seeds)
    layout = generate(spec, "opening", click, 42).layout
    g = layout.geometry
    first = Game(layout, record=False)
    first.reveal(click)
    draw_position(axes[0], first.position())
    ring(axes[0], *click)
    axes[0].set_title("the click opens a region", fontsize=8, pad=11)
    for ax, seed, find, words in ((axes[1], 42, dead_square, "a dead 2x2 block"),
                                  (axes[2], 14, dead_pair, "a dead pair")):
        layout = generate(spec, "opening", click, seed).layout
        cells = find(layout, click)
        draw_position(ax, _stall(layout, g.index(*click)))
        outline(ax, list(cells))
        for xy in cells:
            if layout.is_mine(xy):
                mine_mark(ax, *xy)
        ax.set_title(f"the solver stalls at {words}", fontsize=8, pad=11)
    save(fig, "verify", out, png)


def fig_perturb(out: Path, png: bool) -> None:
    # the dead pair of fig_verify (seed 14): one perturbation moves its mine away
    from mscsp.play.perturb import _pass_from_click, _Perturber  # private: the figure shows one step
    from mscsp.rules import FirstClickRule
    from mscsp.sampling import as_generator

    spec, click = Spec(9, 9, 10), (4, 4)
    layout = generate(spec, "opening", click, 14).layout
    g = layout.geometry
    start = g.index(*click)
    stall = _pass_from_click(layout, start, "sat", True, float("inf"))
    perturber = _Perturber(layout, FirstClickRule.parse("opening"), start, as_generator(14))
    perturber.perturb(stall)
    changed = perturber.layout()
    moved_from = [c for c in range(g.area) if layout.mines[c] and not changed.mines[c]]
    moved_to = [c for c in range(g.area) if changed.mines[c] and not layout.mines[c]]
    fig, axes = plt.subplots(1, 2, figsize=(6.2, 3.2))
    draw_position(axes[0], _stall(layout, start))
    outline(axes[0], [g.coords(c) for c in moved_from], colour=SAFE)
    outline(axes[0], [g.coords(c) for c in moved_to])
    for c in moved_to:
        mine_mark(axes[0], *g.coords(c))
    axes[0].set_title("stuck: a mine moves to a far covered cell", fontsize=8, pad=11)
    draw_position(axes[1], _stall(changed, start))
    axes[1].set_title("a new pass from the click finishes", fontsize=8, pad=11)
    save(fig, "perturb", out, png)


def fig_gadgets(out: Path, png: bool) -> None:
    names = ["H", "TAP_E", "CROSS", "CLAUSE_1W"]
    fig, axes = plt.subplots(1, len(names), figsize=(9.5, 2.6))
    for ax, name in zip(axes, names):
        gadget = GADGETS[name]
        position = Position.from_rows(list(gadget.rows))
        draw_position(ax, position, labels=False)
        ax.add_patch(Rectangle((0, 0), gadget.width, gadget.height, fill=False, edgecolor="#888888", lw=0.6,
                               linestyle="--", clip_on=False))
        for port, (x, y) in gadget.ports.items():
            outline(ax, [(x, y)], colour=RING, lw=1.5)
        ax.set_title(name, fontsize=9, pad=11)
    save(fig, "gadgets", out, png)


def fig_compiled(out: Path, png: bool) -> None:
    compiled = compile_cnf(parse_dimacs(example("formula.cnf")))
    position = compiled.position
    g = position.geometry
    fig, ax = plt.subplots(figsize=(g.width * 0.075 + 0.4, g.height * 0.075 + 0.3))
    draw_position(ax, position, labels=False, digits=False)
    for ty, row in enumerate(compiled.tiles):
        for tx, name in enumerate(row):
            if name is None:
                continue
            tall = 2 if name.startswith("CLAUSE_2") else 1
            ax.add_patch(Rectangle((tx * TILE, ty * TILE), TILE, tall * TILE, fill=False, edgecolor="#555555",
                                   lw=0.8, linestyle="--"))
            ax.text(tx * TILE + 1, ty * TILE + 2.2, name, fontsize=6.5, color="#333333")
    for v, (x, y) in compiled.variables.items():
        ring(ax, x, y)
        ax.text(x + 2.2, y - 1.0, f"x{v}", fontsize=8, color=RING, fontweight="bold")
    save(fig, "compiled", out, png)


def fig_draw_estimate(out: Path, png: bool) -> None:
    # the position of fig_analysis, counted exactly and then estimated (counting made to give up)
    board = generate(Spec(12, 12, 24), "opening", (6, 6), seed=33)
    game = Game.from_board(board)
    game.reveal(board.click)
    position = game.position()
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 5.2))
    draw.plot_analysis(analyse(position), ax=axes[0], title="exact")
    draw.plot_analysis(analyse(position, state_limit=0), ax=axes[1], title="estimated (state_limit=0)")
    save(fig, "draw_estimate", out, png)


def fig_draw_game(out: Path, png: bool) -> None:
    # a seeded Beginner game the default player loses at its one guess (seed 14, found by scanning)
    from mscsp.play.loop import play_game

    board = generate(Spec(9, 9, 10), "opening", (4, 4), seed=14)
    game = Game.from_board(board)
    play_game(game, board.click)
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.4))
    draw.plot_game(game, ax=axes[0], title="the game, lost")
    draw.plot_board(game.layout(), ax=axes[1], title="its layout")
    save(fig, "draw_game", out, png)


def fig_draw_no_guess(out: Path, png: bool) -> None:
    from mscsp.play.noguess import generate_no_guess

    board = generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=2)
    fig, ax = plt.subplots(figsize=(3.4, 3.6))
    draw.plot_no_guess(board, ax=ax)
    save(fig, "draw_no_guess", out, png)


FIGURES = [fig_position, fig_analysis, fig_explanation, fig_groups, fig_sweep, fig_verify, fig_perturb,
           fig_gadgets, fig_compiled, fig_draw_estimate, fig_draw_game, fig_draw_no_guess]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", metavar="DIR", help="write PNG previews into DIR instead of SVG into docs/figures")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these figures (e.g. groups sweep)")
    args = parser.parse_args(argv)
    out = Path(args.png) if args.png else HERE / "figures"
    out.mkdir(parents=True, exist_ok=True)
    for make in FIGURES:
        if not args.only or make.__name__[4:] in args.only:
            make(out, bool(args.png))
    return 0


if __name__ == "__main__":
    sys.exit(main())
