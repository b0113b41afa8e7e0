"""The long moves of the layout chain: bands of clues redrawn whole by a dynamic programme.

The blocks of :mod:`~mscsp.analysis.counting.montecarlo.blocks` hold a dozen cells. On a dense
lattice of clues (a 30x16 board whose every other cell of every other row shows a
number) that is too little: some stretches of the layout can only change by moving
many cells together, and chains that differ there stay apart for thousands of sweeps
(split R-hat of 2 to 6 after 2,000 sweeps of 32 chains). A *window* is far larger:
every variable whose clues all lie in a band of ``width`` consecutive breadth-first
levels of the clue graph (clues are neighbours when a variable touches both), the
levels counted from a pseudo-peripheral clue as for Cuthill–McKee (A. George and
J. W. H. Liu, "An implementation of a pseudoperipheral node finder", ACM TOMS 5,
1979). On a lattice a band is a strip of clues a few wide across the board, with
thirty to ninety variables.

Given the rest of the layout the clues of a window receive fixed shares from it (its
current shares, since the layout satisfies every clue), and its variables are drawn
from their exact joint distribution given those shares: forward filtering over the
variables in a narrow order (reverse Cuthill–McKee within the window; E. Cuthill and
J. McKee, "Reducing the bandwidth of sparse symmetric matrices", 1969), whose state is
the vector of partial sums of the clues open at that point (the states of counting's
sweep), then backward sampling of one path. This is the blocked Gibbs sampler of
C. S. Jensen, U. Kjærulff and A. Kong ("Blocking Gibbs sampling in very large
probabilistic expert systems", International Journal of Human-Computer Studies 42,
1995) with a junction tree that is a path. The draw ignores the mine total; the
chain takes it with probability ``min(1, rest(k') / rest(k))`` (Metropolis–Hastings
with the exact conditional as its proposal, so that only ``rest`` is left in the
ratio; N. Metropolis et al. 1953, W. K. Hastings 1970).

Windows of width ``W`` start at levels ``o, o + W, ...`` for each offset ``o < W``, a
class each: the windows of one class share no clue, so given the rest they are
independent, and every variable whose clues span fewer than ``W`` levels is inside a
window of some class. On a large board a band can hold hundreds of variables, and a
draw that must keep the band's mine count (a chain at a fixed total) is then rarely
taken; such bands are cut into pieces along their order (see :func:`build_windows`).
A window whose programme could outgrow :data:`DENSE_CAP` states is left out (its
variables still move by the small blocks).

The programme runs in C (``_windows.c``, built where a compiler is found); the pure
Python below is the same algorithm with the same random numbers (xoshiro256**, D.
Blackman and S. Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS
47, 2021; one stream per chain seeded from the chain's own ``numpy`` stream) and the
same floating-point operations in the same order, so both give the same draws, and
the tests hold one against the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ....budget import UNLIMITED, Budget
from .blocks import Model
from ..exact.order import bfs_levels, by_clues, greedy_order, neighbourhoods, pseudo_peripheral, reverse_cuthill_mckee

try:  # pragma: no cover - which one runs depends on the build
    from . import _windows
except ImportError:  # pragma: no cover
    _windows = None

__all__ = ["Windows", "build_windows", "step_windows", "seed_states", "COMPILED", "DENSE_CAP"]

#: Whether the compiled programme (``_windows.c``) was built.
COMPILED = _windows is not None
#: Most entries one step's table of states may index (the product of the open
#: clues' ranges): a window that could need more is not built, and a draw that
#: would is skipped (the chain stays where it is, which keeps the target).
DENSE_CAP = 1 << 18
#: Windows of up to this many variables also try the greedy frontier order.
GREEDY_VARIABLES = 256
#: Models of this many variables or more try no greedy order: on the 100x100 lattices
#: of clues of the stress benchmark it was the cheapest order of 5 bands in 50, by 1%
#: on average and 30% at most, and making it took half the windows' time.
GREEDY_MODEL = 2000
#: Most transitions one window's programme may record in one draw.
EDGE_CAP = 1 << 21

_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Windows:
    """Windows in classes, flattened for the programme.

    For class ``i``, arrays of ``positions[i]`` (one entry per variable of a window,
    windows one after another, ``starts[i]`` their bounds): ``variable`` (the model's
    variable at each position), ``slots`` (``slot_starts`` bounds; for each of the
    variable's clues, in the model's order, its index among the window's clues),
    ``open_starts``/``open`` (the window's clues still open after each position);
    for the window's clues (``clue_starts`` bounds, local indices), ``first`` and
    ``last`` (the positions, within the window, of their first and last variable).
    The model's tables are shared: ``options``, ``weight`` (each value's weight
    over the largest of its variable's), ``mines``, ``adds`` (``add_starts``: each
    variable's ``(options, clues)`` table, flattened) and ``nclues``.
    """

    width: int
    starts: list
    variable: list
    slot_starts: list
    slots: list
    clue_starts: list
    first: list
    last: list
    open_starts: list
    open: list
    options: np.ndarray
    weight: np.ndarray
    mines: np.ndarray
    adds: np.ndarray
    add_starts: np.ndarray
    nclues: np.ndarray
    dropped: int = 0

    @property
    def classes(self) -> int:
        return len(self.starts)

    def sizes(self, i: int) -> list[int]:
        """The number of variables of each window of class ``i``."""
        return np.diff(self.starts[i]).tolist()


def _levels(model: Model, budget: Budget | None) -> tuple[np.ndarray, np.ndarray]:
    """Each clue's breadth-first level in its connected part of the clue graph (clues
    are neighbours when a variable touches both), counted from a pseudo-peripheral
    clue found from the part's least connected one, and each clue's part (named by
    its least clue)."""
    nclues = len(model.targets)
    degree, children = neighbourhoods(nclues, list(model.clues), budget or UNLIMITED)
    level = np.full(nclues, -1, dtype=np.int64)
    part = np.full(nclues, -1, dtype=np.int64)
    for start in range(nclues):
        if level[start] >= 0:
            continue
        if budget is not None:
            budget.check("building the chain's windows")
        component = [c for ring in bfs_levels(children, start) for c in ring]
        _, rings = pseudo_peripheral(children, degree, min(component, key=lambda c: (degree[c], c)))
        for depth, ring in enumerate(rings):
            level[ring] = depth
        part[component] = start
    return level, part


def _orders(model: Model, variables: list[int], greedy: bool = True) -> list[list[int]]:
    """Narrow orders of the window's variables (the cheapest, by :func:`_plan`'s bound,
    is kept): reverse Cuthill–McKee from a pseudo-peripheral variable and from a least
    connected one, each also backwards, and (on windows of at most
    :data:`GREEDY_VARIABLES`, when ``greedy``) the greedy frontier order (the variable
    that closes most clues and opens fewest next) from either end of the first; no one
    of them is best on every band (the bends of an L-shaped band differ most)."""
    local = {v: i for i, v in enumerate(variables)}
    by_clue: dict[int, list[int]] = {}
    for v in variables:
        for c in model.clues[v]:
            by_clue.setdefault(c, []).append(local[v])
    clue_id = {c: j for j, c in enumerate(by_clue)}
    clues = [[clue_id[c] for c in model.clues[v]] for v in variables]
    members = list(by_clue.values())
    out = []
    for peripheral in (True, False):
        order = reverse_cuthill_mckee(len(variables), members, peripheral)
        out.extend([order, order[::-1]])
    if greedy and len(variables) <= GREEDY_VARIABLES:  # the greedy order's cost grows with the frontier
        for end in (out[0][0], out[0][-1]):
            out.append(greedy_order(clues, members, end))
    # the clues in Cuthill–McKee order, each bringing in its variables not yet taken
    clue_order = reverse_cuthill_mckee(len(members), clues)
    out.extend(by_clues(len(variables), members, ordered) for ordered in (clue_order, clue_order[::-1]))
    return [[variables[i] for i in order] for order in out]


def _layout(model: Model, order: list[int], most_adds: list[list[int]] | None) -> tuple:
    """A window's clues in the order they open: each position's clues (``slots``, local
    indices), each clue's first and last position, and its reach (one more than the
    most its partial sum can be: its target, or what the window can give it)."""
    local: dict[int, int] = {}
    first: list[int] = []
    last: list[int] = []
    slots: list[list[int]] = []
    for p, v in enumerate(order):
        row = []
        for c in model.clues[v]:
            if c not in local:
                local[c] = len(first)
                first.append(p)
                last.append(p)
            last[local[c]] = p
            row.append(local[c])
        slots.append(row)
    most = [0] * len(first)
    for v, row in zip(order, slots):
        table = most_adds[v] if most_adds is not None else model.adds[v].max(axis=0).tolist()
        for j, c in enumerate(row):
            most[c] += table[j]
    reach = [min(int(model.targets[c]), m) + 1 for c, m in zip(local, most)]  # local: in index order
    return slots, first, last, reach


def _work(model: Model, order: list[int], most_adds: list[list[int]] | None = None) -> int | None:
    """:func:`_plan`'s bound on the work alone (None where it gives None), without
    the lists of open clues: the table's size is kept as a running product, each
    clue's reach multiplied in when it opens and divided out when it closes."""
    slots, first, last, reach = _layout(model, order, most_adds)
    opens: list[list[int]] = [[] for _ in order]
    closes: list[list[int]] = [[] for _ in order]
    for c, (a, b) in enumerate(zip(first, last)):
        if a < b:
            opens[a].append(reach[c])
            closes[b].append(reach[c])
    size = 1
    work = 0
    for p in range(len(order)):
        for r in closes[p]:
            size //= r
        for r in opens[p]:
            size *= r
        if size > DENSE_CAP:
            return None
        work += size
    return work


def _plan(model: Model, order: list[int], most_adds: list[list[int]] | None = None) -> tuple | None:
    """A window's positions as flat lists and a bound on its programme's work (the
    summed sizes of its tables, each clue's range bounded by its target and by what
    the window can give it), or None when a table could outgrow :data:`DENSE_CAP`.
    ``most_adds`` gives, for every variable of the model, the most each of its values
    adds to each of its clues (:func:`_most_adds`; made here when not given)."""
    slots, first, last, reach = _layout(model, order, most_adds)
    opened: list[list[int]] = []
    live: list[int] = []
    work = 0
    for p in range(len(order)):
        live = [c for c in live if last[c] > p] + [c for c in slots[p] if first[c] == p and last[c] > p]
        size = math.prod(reach[c] for c in live)
        if size > DENSE_CAP:
            return None
        work += size
        opened.append(list(live))
    return slots, first, last, opened, work


def _most_adds(model: Model) -> list[list[int]]:
    """The most each variable's values add to each of its clues, in the model's order
    of its clues (one look at each table, not one per candidate order)."""
    return [model.adds[v].max(axis=0).tolist() if len(model.clues[v]) else [] for v in range(model.size)]


def build_windows(model: Model, width: int = 3, budget: Budget | None = None,
                  piece: int | None = None) -> Windows:
    """The windows of ``width`` levels, in ``width`` classes (see the module docstring).

    With ``piece``, a band of more
    variables is cut along its order into windows of at most that many, and cut again
    with the cuts moved by half a piece into a class of its own: a long band's draw
    keeps its mine count (which a chain with a mine total needs) less often the longer
    it is. The pieces of one band share clues; each is drawn given the others as they
    are then, which keeps the target all the same.

    Raises
    ------
    BudgetExceeded
        When ``budget``'s deadline passes first.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis.constraints import build_constraints
    >>> from mscsp.analysis.counting.exact.variables import build_problem
    >>> from mscsp.analysis.counting.montecarlo.blocks import build_model
    >>> s = build_constraints(parse_position("1.2.1.1\\n.......\\n"))
    >>> m = build_model([build_problem(s, c) for c in s.components])
    >>> w = build_windows(m, width=2)  # four clues in a row: levels 0, 1, 2, 3
    >>> m.size, w.classes, [w.sizes(i) for i in range(w.classes)]
    (7, 2, [[3, 3], [1, 3, 1]])
    >>> sorted(set(np.concatenate(w.variable).tolist())) == list(range(m.size))  # each in some window
    True
    """
    level, part = _levels(model, budget)
    var_low = np.asarray([min((level[c] for c in cs), default=-1) for cs in model.clues], dtype=np.int64)
    var_high = np.asarray([max((level[c] for c in cs), default=-1) for cs in model.clues], dtype=np.int64)
    component = np.asarray([part[cs[0]] if cs else -1 for cs in model.clues], dtype=np.int64)
    opts = model.options
    with np.errstate(divide="ignore", invalid="ignore"):
        weight = np.exp(model.logw - model.logw.max(axis=1, keepdims=True))
    weight = np.where(np.isfinite(model.logw), weight, 0.0)
    nclues = np.asarray([len(c) for c in model.clues], dtype=np.int64)
    add_starts = np.zeros(model.size + 1, dtype=np.int64)
    add_starts[1:] = np.cumsum(opts * nclues)
    adds = np.concatenate([model.adds[v].reshape(-1) for v in range(model.size)] or [np.zeros(0, np.int64)])
    columns: tuple[list, ...] = ([], [], [], [], [], [], [], [], [])
    dropped = 0
    most_adds = _most_adds(model)
    greedy = model.size < GREEDY_MODEL
    for offset in range(width):
        if budget is not None:
            budget.check("building the chain's windows")
        band = np.where(var_low >= 0, (var_low - offset) // width, -1)
        inside = (var_low >= 0) & ((var_high - offset) // width == band)
        keys = np.flatnonzero(inside)
        groups: dict[tuple[int, int], list[int]] = {}
        for v in keys.tolist():
            groups.setdefault((int(band[v]), int(component[v])), []).append(v)
        whole: list[tuple] = []
        shifted: list[tuple] = []
        for n, key in enumerate(sorted(groups)):
            if budget is not None and not n % 16:
                budget.check("building the chain's windows")
            # the orders are compared by their bound alone; the winner's plan is made once
            costs = [(work, i, order) for i, order in enumerate(_orders(model, groups[key], greedy))
                     if (work := _work(model, order, most_adds)) is not None]
            if not costs:
                dropped += 1
                continue
            _, _, order = min(costs, key=lambda t: t[:2])
            plan = _plan(model, order, most_adds)
            if piece is None or len(order) <= piece:
                whole.append((order, plan))
                continue
            # a long band in pieces along its order, and again with the cuts moved by half
            for cuts, into in ((range(0, len(order), piece), whole),
                               ([0, *range(piece // 2, len(order), piece)], shifted)):
                bounds = [*cuts, len(order)]
                for a, b in zip(bounds, bounds[1:]):
                    part = order[a:b]
                    found = _plan(model, part, most_adds)
                    if found is not None:
                        into.append((part, found))
        for windows in (whole, shifted):
            if windows:
                for column, value in zip(columns, _flatten(windows)):
                    column.append(value)
    return Windows(width, *columns, opts.astype(np.int64), np.ascontiguousarray(weight, dtype=np.float64),
                   np.ascontiguousarray(model.mines, dtype=np.int64), adds.astype(np.int64), add_starts, nclues,
                   dropped)


def _flatten(windows: list[tuple]) -> tuple[np.ndarray, ...]:
    """One class's arrays (see :class:`Windows`) from its windows' orders and plans."""
    starts, variable, slot_starts, slots, clue_starts, first, last, open_starts, opened = (
        [0], [], [0], [], [0], [], [], [0], [])
    for order, (w_slots, w_first, w_last, w_open, _) in windows:
        variable.extend(order)
        starts.append(len(variable))
        for row in w_slots:
            slots.extend(row)
            slot_starts.append(len(slots))
        first.extend(w_first)
        last.extend(w_last)
        clue_starts.append(len(first))
        for row in w_open:
            opened.extend(row)
            open_starts.append(len(opened))
    return tuple(np.asarray(value, dtype=np.int64) for value in (
        starts, variable, slot_starts, slots, clue_starts, first, last, open_starts, opened))


def seed_states(streams: list[np.random.Generator]) -> np.ndarray:
    """One xoshiro256** state per chain, ``(chains, 4)`` ``uint64``, from each chain's stream."""
    out = np.stack([s.bit_generator.random_raw(4).astype(np.uint64) for s in streams])
    out[(out == 0).all(axis=1), 0] = 1  # the all-zero state is the generator's one fixed point
    return out


def step_windows(windows: Windows, i: int, x: np.ndarray, k: np.ndarray, log_rest: np.ndarray,
                 states: np.ndarray, compiled: bool | None = None, direction: np.ndarray | None = None,
                 goal: np.ndarray | None = None, tilt: float = 1.0) -> tuple[int, int, int]:
    """Redraw every window of class ``i`` in every chain (``x``, ``k`` and ``states``
    change in place): the counts of draws taken, refused (the mine total) and skipped
    (too many states).

    With ``direction`` (one of -1, 0, +1 a chain) this is a walk towards the mine
    total, not a move of the target: a chain with 0 is left alone, the others draw
    with every value's weight tilted by ``exp(tilt * mines)`` in their direction and
    always take the draw, window after window until their mine count reaches
    ``goal`` (at least it going up, at most it going down).

    ``compiled`` picks the implementation (default: C where built); both give the
    same draws.
    """
    args = (windows.starts[i], windows.variable[i], windows.slot_starts[i], windows.slots[i],
            windows.clue_starts[i], windows.first[i], windows.last[i], windows.open_starts[i], windows.open[i],
            windows.options, windows.weight, windows.mines, windows.adds, windows.add_starts, windows.nclues)
    if direction is None:
        walk = (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64))
    else:
        walk = (np.ascontiguousarray(np.sign(direction), dtype=np.int64), _tilted(windows, tilt),
                np.ascontiguousarray(goal, dtype=np.int64))
    if compiled is None:
        compiled = COMPILED
    if compiled:
        if _windows is None:
            raise RuntimeError("the compiled window sampler was not built")
        return _windows.step(x, k, np.ascontiguousarray(log_rest, dtype=np.float64), states, *args,
                             DENSE_CAP, EDGE_CAP, *walk)
    return _step_python(x, k, log_rest, states, *args, *walk)


def _tilted(windows: Windows, tilt: float) -> np.ndarray:
    """The weights tilted towards fewer mines and towards more, ``(2, variables, options)``,
    each row over its largest."""
    out = []
    for sign in (-1.0, 1.0):
        w = windows.weight * np.exp(sign * tilt * windows.mines)
        top = w.max(axis=1, keepdims=True)
        out.append(np.where(top > 0, w / np.where(top > 0, top, 1.0), 0.0))
    return np.ascontiguousarray(np.stack(out), dtype=np.float64)


# -- the reference implementation (the C code does the same, operation for operation) --

def _rotl(a: int, s: int) -> int:
    return ((a << s) | (a >> (64 - s))) & _MASK


def _next(s: list[int]) -> int:
    result = (_rotl((s[1] * 5) & _MASK, 7) * 9) & _MASK
    t = (s[1] << 17) & _MASK
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


def _uniform(s: list[int]) -> float:
    return (_next(s) >> 11) * (1.0 / 9007199254740992.0)


def _step_python(x, k, log_rest, states, starts, variable, slot_starts, slots, clue_starts, first, last,
                 open_starts, opened, options, weight, mines, adds, add_starts, nclues, direction,
                 tilted, goal) -> tuple[int, int, int]:
    taken = refused = skipped = 0
    nwin = len(starts) - 1
    walk = len(direction) > 0
    for chain in range(len(x)):
        if walk and direction[chain] == 0:
            continue
        chosen = weight if not walk else tilted[1 if direction[chain] > 0 else 0]
        s = [int(v) for v in states[chain]]
        row = x[chain]
        for w in range(nwin):
            if walk and (k[chain] >= goal[chain] if direction[chain] > 0 else k[chain] <= goal[chain]):
                break
            outcome, k_new = _window(row, int(k[chain]), log_rest, s, int(starts[w]), int(starts[w + 1]),
                                     int(clue_starts[w]), int(clue_starts[w + 1]), variable, slot_starts, slots,
                                     first, last, open_starts, opened, options, chosen, mines, adds, add_starts,
                                     nclues, walk)
            if outcome == 0:
                taken += 1
                k[chain] = k_new
            elif outcome == 1:
                refused += 1
            else:
                skipped += 1
        states[chain] = np.asarray(s, dtype=np.uint64)
    return taken, refused, skipped


def _window(row, k, log_rest, s, lo, hi, c_lo, c_hi, variable, slot_starts, slots, first, last, open_starts,
            opened, options, weight, mines, adds, add_starts, nclues, walk=False) -> tuple[int, int]:
    """One window of one chain: (0 taken, 1 refused, 2 skipped) and the new mine count
    (a walk's draw is always taken)."""
    nc = c_hi - c_lo
    share = [0] * nc
    old = 0
    for p in range(lo, hi):
        v = int(variable[p])
        o = int(row[v])
        old += int(mines[v, o])
        n = int(nclues[v])
        base = int(add_starts[v]) + o * n
        for j in range(n):
            share[int(slots[int(slot_starts[p]) + j])] += int(adds[base + j])
    firsts = [int(first[c_lo + c]) for c in range(nc)]
    lasts = [int(last[c_lo + c]) for c in range(nc)]
    # forward: layers of (state index, weight), and for each state the (from, option) pairs into it
    prev_idx, prev_w = [0], [1.0]
    prev_open: list[int] = []
    prev_stride: dict[int, int] = {}
    weights: list[list[float]] = []
    edges: list[list[list[tuple[int, int]]]] = []
    total_edges = 0
    for p in range(lo, hi):
        q = p - lo
        v = int(variable[p])
        n = int(nclues[v])
        mine_slots = [int(slots[int(slot_starts[p]) + j]) for j in range(n)]
        now = [int(c) for c in opened[int(open_starts[p]):int(open_starts[p + 1])]]
        stride: dict[int, int] = {}
        size = 1
        for c in now:
            stride[c] = size
            size *= share[c] + 1
        if size > DENSE_CAP:
            return 2, k
        idx_list: list[int] = []
        w_list: list[float] = []
        into: list[list[tuple[int, int]]] = []
        where: dict[int, int] = {}
        part = [0] * nc
        for si in range(len(prev_idx)):
            sidx = prev_idx[si]
            for c in prev_open:
                part[c] = (sidx // prev_stride[c]) % (share[c] + 1)
            for o in range(int(options[v])):
                om = float(weight[v, o])
                if om == 0.0:
                    continue
                base = int(add_starts[v]) + o * n
                ok = True
                vals: dict[int, int] = {}
                for j in range(n):
                    c = mine_slots[j]
                    value = (0 if firsts[c] == q else part[c]) + int(adds[base + j])
                    if value > share[c] or (lasts[c] == q and value != share[c]):
                        ok = False
                        break
                    vals[c] = value
                if not ok:
                    continue
                idx = 0
                for c in now:
                    idx += (vals[c] if c in vals else part[c]) * stride[c]
                t = where.get(idx)
                if t is None:
                    t = len(idx_list)
                    where[idx] = t
                    idx_list.append(idx)
                    w_list.append(0.0)
                    into.append([])
                w_list[t] += prev_w[si] * om
                into[t].append((si, o))
                total_edges += 1
        if not idx_list or total_edges > EDGE_CAP:
            return 2, k
        most = max(w_list)
        w_list = [a / most for a in w_list]
        weights.append(prev_w)
        edges.append(into)
        prev_idx, prev_w, prev_open, prev_stride = idx_list, w_list, now, stride
    # backward: one path from the end (every clue closed: one state)
    t = 0
    new = [0] * (hi - lo)
    for q in range(hi - lo - 1, -1, -1):
        v = int(variable[lo + q])
        before = weights[q]
        pairs = edges[q][t]
        total = 0.0
        for si, o in pairs:
            total += before[si] * float(weight[v, o])
        u = _uniform(s) * total
        cum = 0.0
        pick = len(pairs) - 1
        for e, (si, o) in enumerate(pairs):
            cum += before[si] * float(weight[v, o])
            if u < cum:
                pick = e
                break
        si, o = pairs[pick]
        new[q] = o
        t = si
    k_new = k - old + sum(int(mines[int(variable[lo + q]), new[q]]) for q in range(hi - lo))
    if not walk:
        a, b = float(log_rest[k_new]), float(log_rest[k])
        if a == -math.inf:
            return 1, k
        if a < b and not _uniform(s) < math.exp(a - b):
            return 1, k
    for q in range(hi - lo):
        row[int(variable[lo + q])] = new[q]
    return 0, k_new
