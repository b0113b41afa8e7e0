"""Independent reference implementations for tests: plain, slow, obviously right."""

from __future__ import annotations

from collections import deque

import numpy as np


def brute_neighbours(width: int, height: int, holes: frozenset[int], cell: int) -> set[int]:
    """Every grid position at king-move distance one that is not a hole."""
    if cell in holes:
        return set()
    x, y = cell % width, cell // width
    out = set()
    for yy in range(height):
        for xx in range(width):
            j = yy * width + xx
            if max(abs(xx - x), abs(yy - y)) == 1 and j not in holes:
                out.add(j)
    return out


def brute_numbers(width, height, holes, mines: set[int]) -> list[int]:
    return [len(brute_neighbours(width, height, holes, c) & mines) for c in range(width * height)]


def flood_region(width, height, holes, mines: set[int], flags: set[int], start: int) -> set[int]:
    """Cells a reveal at a safe, unflagged ``start`` opens: breadth-first over zeros.

    The region is the cells reachable from ``start`` through zero cells without
    crossing a flag, zero cells included and their (unflagged) boundary.
    """
    numbers = brute_numbers(width, height, holes, mines)
    seen = {start}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        if numbers[c] != 0:
            continue
        for n in brute_neighbours(width, height, holes, c):
            if n not in seen and n not in flags:
                seen.add(n)
                queue.append(n)
    return seen


def brute_force(position, clues=None, use_total=True, with_layouts=False):
    """Enumerate every assignment of the covered cells (vectorised over 2**n rows).

    ``clues`` restricts the check to those revealed cells (default: all of them);
    flags count as mines, as everywhere in mscsp. Returns a dict with ``count`` (the
    number of consistent layouts), ``safe`` and ``mine`` (cells forced either way,
    empty when there is no layout) and ``per_cell`` (layouts with a mine on each
    covered cell); with ``with_layouts``, also ``layouts``: each consistent layout
    as the set of its mines among the covered cells.
    """
    import numpy as np

    g = position.geometry
    covered = np.flatnonzero(position.covered).tolist()
    flagged = set(np.flatnonzero(position.flagged).tolist())
    n = len(covered)
    assert n <= 20, "too many covered cells to enumerate"
    rows = np.arange(2**n, dtype=np.int64)
    bits = ((rows[:, None] >> np.arange(n)) & 1).astype(np.int8)  # (2**n, n)
    ok = np.ones(2**n, dtype=bool)
    clue_cells = np.flatnonzero(position.revealed).tolist() if clues is None else list(clues)
    col = {c: i for i, c in enumerate(covered)}
    for clue in clue_cells:
        nbrs = brute_neighbours(g.width, g.height, g.holes, clue)
        need = int(position.grid[clue]) - len(nbrs & flagged)
        idx = [col[c] for c in nbrs if c in col]
        have = bits[:, idx].sum(axis=1) if idx else np.zeros(2**n, dtype=np.int64)
        ok &= have == need
    if use_total and position.mines is not None:
        ok &= bits.sum(axis=1) == position.mines - len(flagged)
    good = bits[ok]
    count = int(ok.sum())
    per_cell = {c: int(good[:, i].sum()) for c, i in col.items()}
    safe = {c for c in covered if count and per_cell[c] == 0}
    mine = {c for c in covered if count and per_cell[c] == count}
    out = {"count": count, "safe": safe, "mine": mine, "per_cell": per_cell}
    if with_layouts:
        out["layouts"] = [{covered[i] for i in np.flatnonzero(row).tolist()} for row in good]
    return out


def enumerate_tile(rows, virtual):
    """Every layout of a tile drawn in the position alphabet, with extra virtual
    covered cells (the neighbours' port cells) at the given (x, y) outside it.

    Plain backtracking with a sum check per clue; returns a list of dicts
    cell -> 0/1 over the tile's covered cells and the virtual cells.
    """
    h, w = len(rows), len(rows[0])
    covered = [(x, y) for y in range(h) for x in range(w) if rows[y][x] == "."] + list(virtual)
    index = {c: i for i, c in enumerate(covered)}
    clues = []
    for y in range(h):
        for x in range(w):
            ch = rows[y][x]
            if ch.isdigit():
                seen = [index[(x + dx, y + dy)] for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                        if (dx or dy) and (x + dx, y + dy) in index]
                clues.append((seen, int(ch)))
    watch = [[] for _ in covered]
    for k, (seen, _) in enumerate(clues):
        for i in seen:
            watch[i].append(k)
    value = [None] * len(covered)
    out = []

    def fits(i):
        for k in watch[i]:
            seen, need = clues[k]
            ones = sum(1 for j in seen if value[j] == 1)
            free = sum(1 for j in seen if value[j] is None)
            if ones > need or ones + free < need:
                return False
        return True

    def walk(i):
        if i == len(covered):
            out.append({c: value[index[c]] for c in covered})
            return
        for v in (0, 1):
            value[i] = v
            if fits(i):
                walk(i + 1)
        value[i] = None

    walk(0)
    return out


def single_point_closure(position, clues, use_total=False):
    """The cells the two single-point rules prove from ``clues`` alone, to a fixed point.

    A clue whose remaining mines equal its unknown neighbours makes them mines; a clue
    with no mines left makes them safe. Flags count as mines. Returns cell -> mine.
    (``use_total`` is accepted for symmetry and ignored: single-point never uses it.)
    """
    g = position.geometry
    flagged = set(np.flatnonzero(position.flagged).tolist())
    covered = set(np.flatnonzero(position.covered).tolist())
    known: dict[int, bool] = {}
    changed = True
    while changed:
        changed = False
        for clue in clues:
            nbrs = brute_neighbours(g.width, g.height, g.holes, clue)
            unknown = [c for c in nbrs if c in covered and c not in known]
            left = int(position.grid[clue]) - len(nbrs & flagged) - sum(1 for c in nbrs if known.get(c))
            if unknown and left in (0, len(unknown)):
                for c in unknown:
                    known[c] = left > 0
                changed = True
    return known


def clues_force(position, clues, uses_total, cells, mines):
    """Whether ``clues`` (and the total, with ``uses_total``) alone force every cell of
    ``cells``: a mine when it is in ``mines``, safe otherwise. By brute force."""
    sub = brute_force(position, clues=clues, use_total=uses_total)
    return all(c in (sub["mine"] if c in mines else sub["safe"]) for c in cells)


def flat(position, cells) -> list[int]:
    """Flat indices, in the order given, of cells named ``(x, y)`` as the public answers name them."""
    return [position.geometry.index(x, y) for x, y in cells]


def assert_explanation_is_valid_and_minimal(position, explanation, mines):
    """The clues (and the total, when named) force the explained cells, and none of
    them (nor the total) can be dropped: each check by brute force. ``mines`` are flat
    indices; the explanation names its cells and clues as ``(x, y)``."""
    e = explanation
    clues, cells = flat(position, e.clues), flat(position, e.cells)
    assert e.text
    assert clues_force(position, clues, e.uses_total, cells, mines), e
    for drop in clues:
        assert not clues_force(position, [k for k in clues if k != drop], e.uses_total, cells, mines), (e, drop)
    if e.uses_total:
        assert not clues_force(position, clues, False, cells, mines), e


def assert_core_is_inconsistent_and_minimal(position, core, use_total):
    """A named clash (its clues as ``(x, y)``) holds no layout on its own, and every clue
    of it (and the total, when it is named) is needed: counted by brute force, not by
    the code under test."""
    clues = flat(position, core.clues)
    assert core.text
    assert not core.uses_total or (use_total and position.mines is not None)
    assert brute_force(position, clues=clues, use_total=core.uses_total)["count"] == 0
    for drop in clues:
        rest = [k for k in clues if k != drop]
        assert brute_force(position, clues=rest, use_total=core.uses_total)["count"] > 0, drop
    if core.uses_total:
        assert brute_force(position, clues=clues, use_total=False)["count"] > 0


def local_force(position, clues, cell):
    """What ``clues`` alone (no total) force on ``cell``: True (a mine), False (safe) or
    None. Enumerates only the covered cells next to the clues (at most 18 of them),
    so it serves on boards of any size."""
    import numpy as np

    g = position.geometry
    flagged = set(np.flatnonzero(position.flagged).tolist())
    covered = set(np.flatnonzero(position.covered).tolist())
    near = {clue: brute_neighbours(g.width, g.height, g.holes, clue) for clue in clues}
    cells = sorted({c for nbrs in near.values() for c in nbrs if c in covered})
    if cell not in cells:
        return None
    n = len(cells)
    assert n <= 18, "too many cells next to these clues to enumerate"
    rows = np.arange(2**n, dtype=np.int64)
    bits = ((rows[:, None] >> np.arange(n)) & 1).astype(np.int8)
    col = {c: i for i, c in enumerate(cells)}
    ok = np.ones(2**n, dtype=bool)
    for clue, nbrs in near.items():
        idx = [col[c] for c in nbrs if c in col]
        ok &= bits[:, idx].sum(axis=1) == int(position.grid[clue]) - len(nbrs & flagged)
    values = bits[ok][:, col[cell]]
    if not len(values) or 0 < values.sum() < len(values):
        return None
    return bool(values[0])
