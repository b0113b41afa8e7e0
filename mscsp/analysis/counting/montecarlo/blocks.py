"""The moves of the layout chain: small blocks of variables and every way to fill them.

A *block* is the set of variables (:mod:`~mscsp.analysis.counting.exact.variables`) whose
clues all lie in a small connected group of clues. Its *patterns* are the joint values
of its variables that some values outside can complete: every clue the block touches
receives at most its number from the block, and at least what the outside cannot
supply. Patterns are sorted by what they add to the block's clues (a mixed-radix key)
and then by their mine count, so that, given the rest of a layout, the patterns that
fit are one run of the table: in a layout that satisfies every clue, the outside
leaves each clue exactly the block's current share, so the current share is the key.

Blocks whose groups are disjoint share no clue, so given everything else they are
independent (the clue equations factor over them) and are updated at once, one
vectorised step for all of them and for every chain. A *class* is therefore one
random partition of the clues into groups (each grown from a random clue by the
neighbour that makes the most variables interior, while the block stays small
enough to list): partitions grown from different orders put their borders in
different places, so a variable on a border of one is inside a block of another. A
variable that no partition takes in (one under many clues) gets a block of its own;
those are coloured into classes greedily (D. J. A. Welsh and M. B. Powell, "An upper
bound for the chromatic number of a graph and its application to timetabling
problems", The Computer Journal 10, 1967). This is the blocking of the block Gibbs
sampler (C. S. Jensen, U. Kjærulff and A. Kong, "Blocking Gibbs sampling in very
large probabilistic expert systems", International Journal of Human-Computer Studies
42, 1995), with the blocks enumerated rather than solved by junction trees because
they are small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ....budget import CHECK_EVERY, Budget
from ..exact.variables import Problem

__all__ = ["Model", "Block", "Classes", "build_model", "build_classes"]

#: Joint values a block may have before its clues prune them: a block of twelve cells.
MAX_RAW = 1 << 12
#: Variables a block may hold.
MAX_VARIABLES = 20
#: Rows a block's listing may reach before its clues prune them, at any step: past
#: this the block is not listed (no move). Blocks grown within :data:`MAX_RAW` stay far
#: below it; a block grown around one variable of many clues need not (on a board
#: compiled from a formula, one listing grew to seven gigabytes).
MAX_ROWS = 1 << 18
#: The mixed-radix key of a block's clue shares must fit an int64 with room for the
#: offsets of the other blocks of its class (and a mine count packed beside it).
MAX_RADIX = 1 << 36
#: The keys of a class's blocks, one after another, must stay below this.
_CLASS_KEYS = 1 << 52


@dataclass(frozen=True)
class Model:
    """The sampled components as one set of variables over clue equations.

    Variables of every part are numbered together, and so are their clues; a mine
    total couples the parts, which is why they are sampled as one layout.

    Attributes
    ----------
    clues : list of tuple of int
        Each variable's clues (global indices).
    members : list of list of int
        Each clue's variables.
    targets : ndarray
        Each clue's number of mines.
    adds : list of ndarray
        Each variable's ``(options, clues)`` table: what each value adds to each of
        its clues.
    mines, logw : ndarray
        ``(variables, most options)``: each value's mines and log weight (-inf pads).
    options : ndarray
        Each variable's number of values.
    kinds : list of tuple of int
        Cells sharing one probability, variable by variable.
    kind_var : ndarray
        The variable of each kind.
    fraction : ndarray
        ``(variables, most options, most kinds)``: the mine fraction of each kind of
        a variable under each value.
    kind_slot : ndarray
        Each kind's index among its variable's kinds.
    live : ndarray
        Each variable's values that put no clue over its number: what a block's
        size is measured in (a cell next to a 0 has one).
    """

    clues: list
    members: list
    targets: np.ndarray
    adds: list
    mines: np.ndarray
    logw: np.ndarray
    options: np.ndarray
    kinds: list
    kind_var: np.ndarray
    fraction: np.ndarray
    kind_slot: np.ndarray
    live: np.ndarray

    @property
    def size(self) -> int:
        return len(self.clues)

    @property
    def ncells(self) -> int:
        return sum(len(k) for k in self.kinds)


def build_model(problems: list[Problem], log_mine: float = 0.0, log_safe: float = 0.0,
                budget: Budget | None = None) -> Model:
    """The variables of ``problems`` numbered together.

    A value of ``j`` mines among ``n`` cells weighs ``log(weight) + j * log_mine +
    (n - j) * log_safe`` (a density's odds without a total; 0 and 0 to count layouts).

    Raises
    ------
    BudgetExceeded
        When ``budget``'s deadline passes first (a model of a hundred thousand
        variables takes seconds).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> s = build_constraints(parse_position("2..\\n...\\n"))
    >>> m = build_model([build_problem(s, s.components[0])])
    >>> m.size, m.targets.tolist(), m.options.tolist(), np.exp(m.logw[0]).round().tolist()
    (1, [2], [4], [1.0, 3.0, 3.0, 1.0])
    """
    clues, members, targets, adds, kinds, kind_var, kind_slot = [], [], [], [], [], [], []
    opts = []
    for problem in problems:
        base = len(targets)
        targets.extend(problem.targets)
        members.extend([] for _ in problem.targets)
        for var in problem.variables:
            v = len(clues)
            if budget is not None and not v % CHECK_EVERY:
                budget.check("building the chain's model")
            clues.append(tuple(base + c for c in var.clues))
            for c in var.clues:
                members[base + c].append(v)
            adds.append(np.asarray([o.adds for o in var.options], dtype=np.int64).reshape(len(var.options),
                                                                                          len(var.clues)))
            for j, kind in enumerate(var.kinds):
                kinds.append(tuple(kind))
                kind_var.append(v)
                kind_slot.append(j)
            opts.append(var)
    width = max((len(v.options) for v in opts), default=1)
    nk = max((len(v.kinds) for v in opts), default=1)
    mines = np.zeros((len(opts), width), dtype=np.int64)
    logw = np.full((len(opts), width), -np.inf)
    fraction = np.zeros((len(opts), width, nk))
    for v, var in enumerate(opts):
        if budget is not None and not v % CHECK_EVERY:
            budget.check("building the chain's model")
        for i, o in enumerate(var.options):
            mines[v, i] = o.mines
            logw[v, i] = math.log(o.weight) + o.mines * log_mine + (var.size - o.mines) * log_safe
            for j, kind in enumerate(var.kinds):
                fraction[v, i, j] = o.kind_mines[j] / max(len(kind), 1)
    targets = np.asarray(targets, dtype=np.int64)
    live = np.zeros(len(opts), dtype=np.int64)
    for v, (a, c) in enumerate(zip(adds, clues)):
        if budget is not None and not v % CHECK_EVERY:
            budget.check("building the chain's model")
        live[v] = int((a <= targets[list(c)][None, :]).all(axis=1).sum()) if len(c) else len(a)
    return Model(clues, members, targets, adds, mines, logw,
                 np.asarray([len(v.options) for v in opts], dtype=np.int64), kinds,
                 np.asarray(kind_var, dtype=np.int64), fraction, np.asarray(kind_slot, dtype=np.int64), live)


@dataclass(frozen=True)
class Block:
    """Variables updated together, with every pattern that can fill them.

    ``variables`` and ``touched`` (its clues) are global indices; ``adds`` is
    ``(variables, most options, touched)``; a pattern ``p`` gives variable ``i`` the
    value ``patterns[p, i]``, adds ``shares[p]`` to the touched clues, holds
    ``pattern_mines[p]`` mines and weighs ``pattern_logw[p]``. ``keys`` (sorted, with
    ties by mine count) encode the shares: ``sum((share - low) * radix)``. ``span`` is
    the most patterns one key has.
    """

    variables: np.ndarray
    touched: np.ndarray
    adds: np.ndarray
    patterns: np.ndarray
    shares: np.ndarray
    pattern_mines: np.ndarray
    pattern_logw: np.ndarray
    keys: np.ndarray
    low: np.ndarray
    radix: np.ndarray
    span: int

    @property
    def size(self) -> int:
        return len(self.keys)


def _interior(model: Model, seed: int) -> tuple[list[int], set[int]]:
    """The variables and clues of the block grown from variable ``seed``."""
    clues = model.clues
    options = model.live
    inside: set[int] = set(clues[seed])
    hits: dict[int, int] = {}
    for c in inside:
        for u in model.members[c]:
            hits[u] = hits.get(u, 0) + 1
    block = [u for u, h in hits.items() if h == len(clues[u])] if inside else [seed]
    raw = math.prod(int(options[u]) for u in block)
    while len(block) < MAX_VARIABLES:
        best = None
        for u, h in hits.items():
            if h == len(clues[u]):
                continue
            for c in clues[u]:
                if c in inside:
                    continue
                gained = [w for w in model.members[c] if w not in block and hits.get(w, 0) + 1 == len(clues[w])]
                if not gained:
                    continue
                grown = raw * math.prod(int(options[w]) for w in gained)
                if grown > MAX_RAW or len(block) + len(gained) > MAX_VARIABLES:
                    continue
                score = (len(gained), -grown, -c)
                if best is None or score > best[0]:
                    best = (score, c, gained, grown)
        if best is None:
            break
        _, c, gained, raw = best
        inside.add(c)
        for u in model.members[c]:
            hits[u] = hits.get(u, 0) + 1
        block.extend(gained)
    return sorted(block), inside


def _patterns(model: Model, block: list[int], touched: np.ndarray) -> Block | None:
    """Every joint value of ``block`` that some outside values can complete (None if
    only one: a block that cannot move is no move; None too past :data:`MAX_ROWS`)."""
    t = len(touched)
    local = {c: i for i, c in enumerate(touched.tolist())}
    targets = model.targets[touched]
    inside = set(block)
    # the most the variables outside the block can add to each touched clue
    outside = np.zeros(t, dtype=np.int64)
    for c, i in local.items():
        for u in model.members[c]:
            if u not in inside:
                outside[i] += model.adds[u][:, model.clues[u].index(c)].max()
    width = model.mines.shape[1]
    adds = np.zeros((len(block), width, t), dtype=np.int64)
    for bi, u in enumerate(block):
        for k, c in enumerate(model.clues[u]):
            adds[bi, : model.options[u], local[c]] = model.adds[u][:, k]
    values = np.zeros((1, 0), dtype=np.int64)
    shares = np.zeros((1, t), dtype=np.int64)
    for bi, u in enumerate(block):
        n = int(model.options[u])
        if len(values) * n > MAX_ROWS:
            return None
        values = np.hstack([np.repeat(values, n, axis=0), np.tile(np.arange(n), len(values))[:, None]])
        shares = np.repeat(shares, n, axis=0) + np.tile(adds[bi, :n], (len(shares), 1))
        fits = (shares <= targets).all(axis=1)
        values, shares = values[fits], shares[fits]
    fits = (shares >= targets - outside).all(axis=1)
    values, shares = values[fits], shares[fits]
    if len(values) < 2:
        return None
    cols = np.asarray(block)
    mines = model.mines[cols[None, :], values].sum(axis=1)
    logw = model.logw[cols[None, :], values].sum(axis=1)
    low = shares.min(axis=0)
    base = shares.max(axis=0) - low + 1
    radix = np.ones(t, dtype=np.int64)
    for i in range(t - 2, -1, -1):
        radix[i] = radix[i + 1] * base[i + 1]
    if t and int(radix[0]) * int(base[0]) > MAX_RADIX:
        return None
    keys = (shares - low) @ radix if t else np.zeros(len(values), dtype=np.int64)
    order = np.lexsort((mines, keys))
    keys = keys[order]
    _, counts = np.unique(keys, return_counts=True)
    return Block(cols, touched, adds, values[order], shares[order], mines[order], logw[order], keys, low, radix,
                 int(counts.max()))


def _tile(model: Model, seeds: list[int], neighbours: list[list[int]], rng: np.random.Generator,
          max_raw: int) -> list[list[int]]:
    """One partition of (some of) the clues into connected groups: the interior
    variables of every group that has one.

    Each group starts from the clues of the next variable of ``seeds`` whose clues
    are all free (so that variable is interior from the start), then grows by the
    neighbouring clue that makes the most variables interior (ties at random) while
    the interior has at most ``max_raw`` joint values."""
    clues, members, options = model.clues, model.members, model.live
    taken = np.zeros(len(model.targets), dtype=bool)
    out = []
    for seed in seeds:
        start = clues[seed]
        if not start or taken[list(start)].any():
            continue
        group = set(start)
        taken[list(start)] = True
        hits: dict[int, int] = {}
        for c in start:
            for u in members[c]:
                hits[u] = hits.get(u, 0) + 1
        interior = [u for u, h in hits.items() if h == len(clues[u])]
        raw = math.prod(int(options[u]) for u in interior)
        while len(interior) < MAX_VARIABLES:
            best, best_score = None, None
            for c in {c for g in group for c in neighbours[g]}:
                if taken[c]:
                    continue
                gained = [u for u in members[c] if hits.get(u, 0) + 1 == len(clues[u])]
                if not gained:
                    continue  # a clue that brings no variable in only widens the borders
                grown = raw * math.prod(int(options[u]) for u in gained)
                if grown > max_raw or len(interior) + len(gained) > MAX_VARIABLES:
                    continue
                score = (len(gained), sum(1 for u in members[c] if u in hits), rng.random())
                if best_score is None or score > best_score:
                    best, best_score = (c, gained, grown), score
            if best is None:
                break
            c, gained, raw = best
            group.add(c)
            taken[c] = True
            for u in members[c]:
                hits[u] = hits.get(u, 0) + 1
            interior.extend(gained)
        out.append(sorted(interior))
    return out


def build_classes(model: Model, rng: np.random.Generator, *, tilings: int = 8, max_raw: int = MAX_RAW,
                  budget: Budget | None = None, covered: np.ndarray | None = None) -> "Classes":
    """The blocks of ``tilings`` random partitions of the clues, a class each, and
    classes for the variables that no partition made interior (and that ``covered``,
    a mask of the variables other moves take care of, does not hold).

    The blocks of one partition share no clue (a block's variables have all their
    clues in its group), so each partition is a class; partitions grown from
    different random orders put their borders in different places, so that a
    variable on a border of one is inside a block of another.

    Raises
    ------
    BudgetExceeded
        When ``budget``'s deadline passes.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> s = build_constraints(parse_position("1.1...1.1\\n.........\\n"))
    >>> m = build_model([build_problem(s, c) for c in s.components])
    >>> classes = build_classes(m, np.random.default_rng(0), tilings=1)
    >>> [len(blocks) for blocks in classes.members]  # the two ends, apart: one class of two blocks
    [2]
    """
    neighbours: list[list[int]] = []
    for c, vs in enumerate(model.members):
        neighbours.append(sorted({d for u in vs for d in model.clues[u] if d != c}))
    blocks: list[Block] = []
    groups: list[list[int]] = []
    inside = np.zeros(model.size + 1, dtype=np.int64)
    seen: set[tuple[int, ...]] = set()

    def add(variables: list[int], into: list[int]) -> None:
        key = tuple(variables)
        if key in seen:
            return
        seen.add(key)
        touched = np.asarray(sorted({c for u in variables for c in model.clues[u]}), dtype=np.int64)
        found = _patterns(model, variables, touched)
        if found is not None:
            into.append(len(blocks))
            blocks.append(found)
            inside[variables] += 1

    for _ in range(tilings):
        if budget is not None:
            budget.check("building the chain's moves")
        # variables inside the fewest blocks so far seed first, the others at random
        seeds = np.lexsort((rng.random(model.size), inside[: model.size])).tolist()
        group: list[int] = []
        for i, variables in enumerate(_tile(model, seeds, neighbours, rng, max_raw)):
            if budget is not None and not i % 64:
                # one tiling of a 100x100 lattice is thousands of blocks: a good part of a second
                budget.check("building the chain's moves")
            add(variables, group)
        if group:
            groups.append(group)
    # variables no partition made interior (many clues, or none): blocks of their own,
    # grown as far as the limits allow, coloured into classes of their own
    extra: list[int] = []
    alone = inside[: model.size] == 0
    if covered is not None:
        alone &= ~covered
    for v in np.flatnonzero(alone).tolist():
        if budget is not None:
            budget.check("building the chain's moves")
        add(_interior(model, v)[0], extra)
    if extra:
        groups.extend(_colour([blocks[b] for b in extra], extra, len(model.targets)))
    groups = [part for members in groups for part in _fitting(blocks, members)]
    packed = []
    for members in groups:
        if budget is not None:
            budget.check("building the chain's moves")
        packed.append(_pack(model, blocks, members))
    if not packed:
        return Classes([], [], [], [], [], [], [], [], [], [], [], [], [])
    return Classes(groups, *(list(column) for column in zip(*packed)))


@dataclass(frozen=True)
class Classes:
    """Blocks in classes that share no variable and no clue, packed for one update each.

    For class ``i``: ``members[i]`` lists its blocks; ``variables[i]`` and
    ``touched[i]`` are ``(blocks + 1, most)`` with pads (variable ``model.size`` and
    clue ``len(model.targets)``); the last row is an empty block, the partner of a
    block left without one. The class's patterns lie in one table: rows of block
    ``b`` have keys offset by ``offset[i][b]``, so that one sorted array serves the
    class.
    """

    members: list
    variables: list
    touched: list
    adds: list
    radix: list
    low: list
    offset: list
    keys: list
    patterns: list
    shares: list
    pattern_mines: list
    pattern_logw: list
    span: list


def _colour(chosen: list[Block], names: list[int], nclues: int) -> list[list[int]]:
    """Blocks in classes that share no clue: a greedy colouring, most interactions first
    (Welsh–Powell). Two blocks with a common variable share its clues, so a shared clue
    is the only interaction to look at."""
    by_clue: list[list[int]] = [[] for _ in range(nclues)]
    for b, block in enumerate(chosen):
        for c in block.touched.tolist():
            by_clue[c].append(b)
    near: list[set[int]] = [set() for _ in chosen]
    for touching in by_clue:
        for b in touching:
            near[b].update(touching)
    colour = [-1] * len(chosen)
    for b in sorted(range(len(chosen)), key=lambda b: (-len(near[b]), b)):
        taken = {colour[o] for o in near[b] if o != b}
        c = 0
        while c in taken:
            c += 1
        colour[b] = c
    out: dict[int, list[int]] = {}
    for b, c in enumerate(colour):
        out.setdefault(c, []).append(names[b])
    return [members for _, members in sorted(out.items())]


def _key_range(block: Block) -> int:
    """How many keys a block's shares may take (its radix times its first base)."""
    return int(block.radix[0] * (block.shares[:, 0].max() - block.low[0] + 1)) if len(block.touched) else 1


def _fitting(blocks: list[Block], members: list[int]) -> list[list[int]]:
    """``members`` cut into runs whose keys, one block after another, fit ``_CLASS_KEYS``."""
    out: list[list[int]] = [[]]
    used = 0
    for b in members:
        size = _key_range(blocks[b])
        if out[-1] and used + size >= _CLASS_KEYS:
            out.append([])
            used = 0
        out[-1].append(b)
        used += size
    return out


def _pack(model: Model, blocks: list[Block], members: list[int]):
    """One class's arrays (see :class:`Classes`), an empty block last."""
    chosen = [blocks[b] for b in members]
    nb = len(chosen) + 1
    bmax = max(len(b.variables) for b in chosen)
    tmax = max(max(len(b.touched) for b in chosen), 1)
    width = model.mines.shape[1]
    variables = np.full((nb, bmax), model.size, dtype=np.int64)
    touched = np.full((nb, tmax), len(model.targets), dtype=np.int64)
    adds = np.zeros((nb, bmax, width, tmax), dtype=np.int64)
    radix = np.zeros((nb, tmax), dtype=np.int64)
    low = np.zeros((nb, tmax), dtype=np.int64)
    offset = np.zeros(nb, dtype=np.int64)
    rows_keys, rows_patterns, rows_shares, rows_mines, rows_logw = [], [], [], [], []
    at = 0
    for i, b in enumerate(chosen):
        nv, nt = len(b.variables), len(b.touched)
        variables[i, :nv] = b.variables
        touched[i, :nt] = b.touched
        adds[i, :nv, :, :nt] = b.adds
        radix[i, :nt] = b.radix
        low[i, :nt] = b.low
        offset[i] = at
        rows_keys.append(b.keys + at)
        rows_patterns.append(np.pad(b.patterns, ((0, 0), (0, bmax - nv))))
        rows_shares.append(np.pad(b.shares, ((0, 0), (0, tmax - nt))))
        rows_mines.append(b.pattern_mines)
        rows_logw.append(b.pattern_logw)
        at += _key_range(b)
    offset[-1] = at  # the empty block: one pattern, nothing added, no mines
    rows_keys.append(np.asarray([at], dtype=np.int64))
    rows_patterns.append(np.zeros((1, bmax), dtype=np.int64))
    rows_shares.append(np.zeros((1, tmax), dtype=np.int64))
    rows_mines.append(np.zeros(1, dtype=np.int64))
    rows_logw.append(np.zeros(1))
    span = max(b.span for b in chosen)
    return (variables, touched, adds, radix, low, offset, np.concatenate(rows_keys), np.vstack(rows_patterns),
            np.vstack(rows_shares), np.concatenate(rows_mines), np.concatenate(rows_logw), span)
