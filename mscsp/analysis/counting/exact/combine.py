"""Counting, stage 6: the components' tallies weighed together into probabilities.

Components are independent but for the mine total. Their mine-count polynomials
convolve; the unconstrained cells (touching no clue) add ``C(U, u)`` ways for ``u``
mines; the total picks the coefficient. Every probability is an exact
:class:`fractions.Fraction` and the layout count a Python int, however large.
Without a total, each component is weighed alone under the model the caller names.

One module, not several: :class:`Probabilities` is what the combination builds, and the
polynomial helpers (products, suffixes, the weights of the rest of the board) serve the
total's and the density's weighing alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cached_property
from itertools import compress
from math import comb
from operator import mul
from typing import NamedTuple

from ....board import Geometry
from ....errors import InconsistentError, InputError, Resource
from ..outcomes import GaveUp, NoTotalModel

__all__ = ["Group", "Tally", "OneChanging", "Probabilities", "with_total", "without_total",
           "conditional_given_rest", "poly_mul", "unpack", "support", "sum_support",
           "plain_weight", "weigh_total", "fill_groups"]


class Group(NamedTuple):
    """Covered cells that share one mine probability: cells touched by exactly the same
    clues, or the cells of a chain of links that are mines together.

    ``constraints`` are the indices of the clue equations on them."""

    cells: tuple[int, ...]
    constraints: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Tally:
    """Exact counts for one component.

    ``ways[k]`` is the number of assignments of the component's cells with ``k``
    mines satisfying its clues; ``mines[g][k]`` sums, over those assignments, the
    mines in group ``g``. Counts above ``len(ways) - 1`` mines were not kept because
    the mine total rules them out. With ``by_count`` False the tally is one weighted
    sum (``ways == (W,)``, ``mines[g] == (M_g,)``) and has no mine-count axis.
    """

    groups: tuple[Group, ...]
    ways: tuple[int, ...]
    mines: tuple[tuple[int, ...], ...]
    exact: bool = True
    by_count: bool = True

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted(c for g in self.groups for c in g.cells))

    @cached_property
    def least_given_count(self) -> tuple[int, int]:
        """A lower bound on the mine probability of every cell of the component, whatever
        the rest of the board: the least, over its groups and the mine counts ``k`` it can
        hold, of ``mines[g][k] / (size * ways[k])``, as ``(numerator, denominator)``.

        A group's probability weighs these conditional probabilities by ``ways[k]``
        times the weight of the rest of the board given ``k``, which is never negative,
        so it lies between their least and greatest (1 when there is no group).

        Examples
        --------
        >>> # two cells a0, a1 and a cell b: layouts {a0} and {b}, and {a0, b}
        >>> t = Tally((Group((0, 1), (0,)), Group((2,), (0,))), (0, 2, 1), ((0, 1, 1), (0, 1, 1)))
        >>> t.least_given_count  # a cell of a0, a1 given one mine: 1 / (2 * 2)
        (1, 4)
        """
        least = (1, 1)
        for g, row in zip(self.groups, self.mines):
            size = len(g.cells)
            for k, w in enumerate(self.ways):
                if w and row[k] * least[1] < least[0] * size * w:
                    least = (row[k], size * w)
        return least


@dataclass(frozen=True)
class Probabilities:
    """Mine probabilities of a position.

    Attributes
    ----------
    by_index : dict
        Covered (unflagged) cell by flat index ``y * width + x`` ->
        :class:`~fractions.Fraction` (or None where there is no number: cells away
        from clues when the total is unknown, or every cell when counting gave up
        without an estimate — ``reason`` says why): the table the engines walk.
        :attr:`cells` is the same table by ``(x, y)``, :meth:`probability` one cell.
    layouts : int or None
        Exact number of layouts of the covered cells consistent with everything
        visible (and the total, when given); None when it was not counted exactly.
    exact : bool
        False when probabilities are estimates (or missing).
    model : NoTotalModel or None
        How layouts are weighted when the mine total is unknown; None when it is
        known (then every consistent layout of the whole board counts once).
        ``str`` of it says it in words.
    intervals_by_index : dict
        For estimated cells (by flat index), the 95% interval ``(low, high)`` of the
        probability; :attr:`intervals` is the same by ``(x, y)``.
    reason : GaveUp or None
        Why counting was not exact (the budgets that ran out, and whether an
        estimate failed too), when it was not; ``str`` of it says it in words.
    geometry : Geometry or None
        The board, so that cells can be named by ``(x, y)``.
    groups : tuple or None
        The cells of :attr:`by_index` that share one probability, ``(cells,
        probability)`` a group (flat indices), when counting gave them so (one per
        group of cells touched by the same clues, and the cells away from them):
        :meth:`forced` and :meth:`best` then look at a few groups rather than every
        cell. None otherwise; a copy made with another ``by_index`` must not keep them.
    witnessed : (frozenset, frozenset) or None
        With an estimate by layout chains: the cells (flat indices) that some layout
        meeting every clue and the total showed holding a mine, and those it showed
        safe. A cell in both is not forced either way, which spares the proofs a
        question (:func:`~mscsp.analysis.solvers.solve` takes them).

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis import probabilities
    >>> p = probabilities(parse_position("mines: 1\\n.1...\\n"))
    >>> p.probability((0, 0)), p.probability((4, 0)), p.layouts
    (Fraction(1, 2), Fraction(0, 1), 2)
    >>> p.cells
    {(0, 0): Fraction(1, 2), (2, 0): Fraction(1, 2), (3, 0): Fraction(0, 1), (4, 0): Fraction(0, 1)}
    >>> p.model is None and p.reason is None  # a total, and counted exactly
    True
    >>> probabilities(parse_position(".1...\\n")).model
    NoTotalModel(density=None)
    >>> probabilities(parse_position("mines: 1\\n.1...\\n"), state_limit=0).reason
    GaveUp(parts=1, resources=(<Resource.STATES: 'states'>,), detail='a counting table passed 0 states',
           estimate_failed=None)
    """

    by_index: dict[int, Fraction | None]
    layouts: int | None
    exact: bool = True
    model: NoTotalModel | None = None
    stats: dict = field(default_factory=dict, compare=False)
    intervals_by_index: dict[int, tuple[float, float]] = field(default_factory=dict, compare=False)
    reason: GaveUp | None = None
    geometry: Geometry | None = field(default=None, compare=False, repr=False)
    groups: tuple[tuple[tuple[int, ...], Fraction], ...] | None = field(default=None, compare=False, repr=False)
    witnessed: tuple[frozenset[int], frozenset[int]] | None = field(default=None, compare=False, repr=False)

    def _board(self) -> Geometry:
        if self.geometry is None:
            raise InputError("these probabilities do not know their board: read .by_index by flat index")
        return self.geometry

    def _named(self, table: dict) -> dict:
        """``table`` (flat index -> value) by ``(x, y)``, in row order."""
        coords = self._board().coords
        return {coords(c): table[c] for c in sorted(table)}

    @property
    def cells(self) -> dict[tuple[int, int], Fraction | None]:
        """Each covered (unflagged) cell ``(x, y)``, in row order -> its mine
        probability (None where there is no number)."""
        return self._named(self.by_index)

    @property
    def intervals(self) -> dict[tuple[int, int], tuple[float, float]]:
        """For estimated cells ``(x, y)``, in row order, the 95% interval
        ``(low, high)`` of the probability."""
        return self._named(self.intervals_by_index)

    def probability(self, cell) -> Fraction | None:
        """The mine probability of the covered cell ``(x, y)`` (None where there is no
        number); InputError for a cell that is not covered or not on the board."""
        index = self._board().cell(cell)
        if index not in self.by_index:
            raise InputError(f"[{cell[0]}, {cell[1]}] is not a covered cell of this position")
        return self.by_index[index]

    def forced(self) -> dict[tuple[int, int], bool]:
        """The cells an exact count proves, ``(x, y)`` in row order: True for a mine.

        Every weight is positive (a density, when there is one, lies strictly between
        0 and 1), so a cell has probability 0 exactly when no consistent layout puts a
        mine on it, and 1 exactly when every one does: the cells the clues (and the
        total) force. Estimates prove nothing: without an exact count, no cell.

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> from mscsp.analysis import probabilities
        >>> probabilities(parse_position("mines: 1\\n.1..\\n")).forced()
        {(3, 0): False}
        """
        return self._named(self.forced_index())

    def forced_index(self) -> dict[int, bool]:
        """:meth:`forced` by flat index, for the engines (in no particular order).

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> from mscsp.analysis import probabilities
        >>> probabilities(parse_position("mines: 1\\n.1..\\n")).forced_index()
        {3: False}
        """
        if not self.exact:
            return {}
        if self.groups is not None:
            out = {}
            for group, p in self.groups:
                if p.denominator == 1:  # reduced, between 0 and 1: exactly 0 or 1
                    if len(group) == 1:  # most forced groups are single cells
                        out[group[0]] = p.numerator != 0
                    else:
                        out.update(dict.fromkeys(group, p.numerator != 0))
            return out
        # the cells of a group share one Fraction: look at each value once, not each cell,
        # and walk the cells in C (map, zip, compress) to the few that are forced
        cells = self.by_index
        ids = list(map(id, cells.values()))
        values = dict(zip(ids, cells.values()))
        mine = {k: p.numerator != 0 for k, p in values.items()
                if p is not None and (p.numerator == 0 or p.numerator == p.denominator)}
        if not mine:
            return {}
        return {c: mine[k] for c, k in compress(zip(cells, ids), map(mine.__contains__, ids))}

    def best(self, proven_safe=()) -> tuple[int, int] | None:
        """The suggested next click, ``(x, y)``.

        A cell of ``proven_safe`` (cells ``(x, y)``) if there is one, the first in
        row order; otherwise the covered cell with the least mine probability, ties
        broken by row order (smallest ``y``, then ``x``). Never a cell that is
        certainly a mine: None when nothing else is covered or every probability is
        unknown.

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> from mscsp.analysis import probabilities
        >>> p = probabilities(parse_position("mines: 1\\n.1...\\n"))
        >>> p.best(), p.best([(4, 0), (3, 0)])
        ((3, 0), (3, 0))
        """
        g = self._board()
        best = self.best_index({g.cell(c) for c in proven_safe})
        return None if best is None else g.coords(best)

    def best_index(self, proven_safe: set[int] | frozenset[int] = frozenset()) -> int | None:
        """:meth:`best` by flat index, for the engines: ``proven_safe`` and the answer
        are flat indices."""
        if proven_safe:
            return min(proven_safe)
        if self.groups is not None:
            lowest = min((p for _, p in self.groups if p != 1), default=None)
            if lowest is None:
                return None
            return min(min(group) for group, p in self.groups if p == lowest)
        # the cells of a group share one Fraction: compare each value once, not each cell
        values = {id(p): p for p in self.by_index.values() if p is not None}
        lowest = min((p for p in values.values() if p != 1), default=None)
        if lowest is None:
            return None
        ties = {k for k, p in values.items() if p == lowest}
        return min(c for c, p in self.by_index.items() if id(p) in ties)


#: Packed polynomials of more bits than this are packed in whole bytes (shifting a
#: long value once a coefficient is quadratic; below this, shifting is quicker).
_BYTES_FROM = 8192


def poly_mul(a: list, b: list) -> list:
    """Exact product of two coefficient lists, through one big-integer product.

    Examples
    --------
    >>> poly_mul([1, 1], [1, 2, 1])
    [1, 3, 3, 1]
    """
    if not a or not b:
        return []
    if len(a) == 1 and a[0] == 1:  # the empty product, where prefix and suffix products start
        return list(b)
    if min(len(a), len(b)) <= 2:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out
    top = max(max(a), max(b))
    bits = 2 * max(top.bit_length(), 1) + max(len(a), len(b)).bit_length() + 1
    if bits * max(len(a), len(b)) > _BYTES_FROM:
        bits += -bits % 8  # whole bytes: packing and unpacking are then linear
    prod = _pack(a, bits) * _pack(b, bits)
    return unpack(prod, bits, len(a) + len(b) - 1)


def unpack(value: int, bits: int, length: int) -> list[int]:
    """Coefficients ``0..length-1`` of a polynomial packed ``bits`` bits a coefficient.

    Examples
    --------
    >>> unpack(3 + (5 << 8), 8, 3), unpack(3 + (5 << 5), 5, 2)
    ([3, 5, 0], [3, 5])
    """
    if bits % 8 == 0:
        # through bytes: shifting a long value once a coefficient is quadratic
        size = bits // 8
        raw = memoryview(value.to_bytes(max(size * length, (value.bit_length() + 7) // 8), "little"))
        return [int.from_bytes(raw[i:i + size], "little") for i in range(0, size * length, size)]
    mask = (1 << bits) - 1
    out = []
    for _ in range(length):
        out.append(value & mask)
        value >>= bits
    return out


def _pack(coeffs: list[int], bits: int) -> int:
    if bits % 8 == 0:
        size = bits // 8
        return int.from_bytes(b"".join([c.to_bytes(size, "little") for c in coeffs]), "little")
    value = 0
    for c in reversed(coeffs):
        value = (value << bits) | c
    return value


def support(values) -> int:
    """The mine counts with a nonzero entry, as the bits of an int."""
    bits = 0
    for k, v in enumerate(values):
        if v:
            bits |= 1 << k
    return bits


def sum_support(a: int, b: int) -> int:
    """The achievable sums of one count from ``a`` and one from ``b`` (bit sets)."""
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out


def with_total(tallies: list[Tally], unconstrained: tuple[int, ...], remaining: int, *,
               strict: bool = True) -> tuple[list[tuple[tuple[int, ...], int, int]], int]:
    """Weigh the components' tallies with the mine total.

    Returns ``(parts, layouts)``: for every group of cells with one probability, and
    for the unconstrained cells, ``(cells, numerator, denominator)`` of that
    probability (not reduced), and the exact number of layouts.

    Raises
    ------
    InconsistentError
        When no layout meets the total (with ``strict``; otherwise the layouts are 0
        and every denominator too).
    """
    return weigh_total(weighing_input(tallies), unconstrained, remaining, strict=strict)


def weighing_input(tallies: list[Tally]) -> list:
    """The tallies as :func:`weigh_total` takes them: each one's ``(ways, groups)``,
    ``groups`` its ``(cells, mines)`` pairs."""
    return [(t.ways, tuple(zip((g.cells for g in t.groups), t.mines))) for t in tallies]


def weigh_total(components, unconstrained: tuple[int, ...], remaining: int, *,
                strict: bool = True, suffix: list[list[int]] | None = None
                ) -> tuple[list[tuple[tuple[int, ...], int, int]], int]:
    """:func:`with_total` on plain values: ``components`` holds each component's
    ``(ways, groups)``, ``groups`` its ``(cells, mines)`` pairs (a group's cells and its
    row of the tally). ``suffix``, the components' suffix products
    (:func:`suffix_products`), spares a caller that weighs the same components with
    many totals the products each time."""
    u = len(unconstrained)
    parts: list[tuple[tuple[int, ...], int, int]] = []
    if suffix is None:
        suffix = _suffixes([ways for ways, _ in components])
    every = suffix[0]

    # Ways to place the rest among the u unconstrained cells when the frontier holds j
    # mines, C(u, R - j), up to one common factor: E[j] = C(u, R - j) * D / C(u, L0)
    # with L0 = R - jmax and D = R! / L0!. E[j] has about jmax * log2(R) bits whatever
    # u is, so a 1000x1000 board weighs its frontier as cheaply as an Expert one.
    span = len(every)
    rest, jmin, jmax = _rest_weights(span, u, remaining)
    scaled_total = sum(map(mul, every, rest))
    if scaled_total == 0 and strict:
        raise InconsistentError("no layout satisfies the clues together with the mine total", (), uses_total=True)
    total = 0
    if jmin <= jmax:
        total, leftover = divmod(comb(u, remaining - jmax) * scaled_total, rest[jmax])
        if leftover:  # pragma: no cover - E is built so that this division is exact
            raise ArithmeticError("layout count is not an integer")
    # The weight of the rest of the board when component ci holds k mines is
    # sum_j others[j] rest[k + j], others the product of the other components. With
    # others = prefix[ci] * suffix[ci + 1], the sum over the prefix is carried along
    # (seen[k] = sum_j prefix[ci][j] rest[k + j], one component's few counts at a time),
    # so no product of two long polynomials is formed: linear in the components, not
    # quadratic.
    seen = rest
    last = len(components) - 1
    for ci, (ways, groups) in enumerate(components):
        if ci == last:  # nothing after it: the weights are the prefix's sums themselves
            weight = seen[:len(ways)]
        else:
            after = suffix[ci + 1]
            weight = [sum(map(mul, after, seen[k:k + len(after)])) for k in range(len(ways))]
            seen = [sum(map(mul, ways, seen[k:k + len(ways)])) for k in range(len(seen) - len(ways) + 1)]
        for cells, mines in groups:
            num = sum(map(mul, mines, weight))
            parts.append((cells, num, len(cells) * scaled_total))
    if u:
        # expected mines among the unconstrained cells: sum of (R - j) C(u, R - j) weights
        num = sum(w * (remaining - k) * rest[k] for k, w in enumerate(every) if w)
        parts.append((unconstrained, num, u * scaled_total))
    return parts, total


def ways_by_count(tallies: list[Tally]) -> list[int]:
    """The ways to place ``j`` mines on the cells of all ``tallies``, for each ``j``: the
    product of their mine-count polynomials.

    Examples
    --------
    >>> t = Tally((Group((0, 1), (0,)),), (0, 2), ((0, 2),))  # two cells, one mine
    >>> ways_by_count([t, t])
    [0, 0, 4]
    """
    every = [1]
    for t in tallies:
        every = poly_mul(every, list(t.ways))
    return every


def total_layouts(every: list[int], unconstrained: int, remaining: int) -> int:
    """The layouts of :func:`with_total` alone, without the probabilities: each count
    ``j`` of :func:`ways_by_count` times the ``C(unconstrained, remaining - j)`` ways to
    place the rest.

    Examples
    --------
    >>> t = Tally((Group((0, 1), (0,)),), (0, 2), ((0, 2),))  # two cells, one mine
    >>> total_layouts(ways_by_count([t]), 2, 2), with_total([t], (8, 9), 2)[1]
    (4, 4)
    """
    return sum(w * comb(unconstrained, remaining - j) for j, w in enumerate(every)
               if w and 0 <= remaining - j <= unconstrained)


def fill_groups(parts: list[tuple[tuple[int, ...], int, int]], cells: dict) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Each part's cells, from :func:`weigh_total`'s ``(cells, numerator, denominator)``,
    mapped in ``cells`` to its probability (one Fraction a part, shared by its cells);
    returns the parts as ``(cells, probability)`` pairs (:attr:`Probabilities.groups`:
    a few groups stand for hundreds of cells).

    Examples
    --------
    >>> cells = {}
    >>> fill_groups([((0, 2), 1, 4), ((5,), 0, 3)], cells), cells[2]
    ((((0, 2), Fraction(1, 4)), ((5,), Fraction(0, 1))), Fraction(1, 4))
    """
    groups = []
    for group, num, den in parts:
        # proven cells are many near the end of a game: their 0 and 1 are made once
        p = Fraction(num, den) if not den or 0 < num < den else _ONE if num else _ZERO
        groups.append((group, p))
        if len(group) == 1:
            cells[group[0]] = p
        else:  # the cells away from the numbers are often hundreds: mapped in C
            cells.update(dict.fromkeys(group, p))
    return tuple(groups)


_ZERO, _ONE = Fraction(0), Fraction(1)


def as_fraction(pair: tuple[int, int] | None) -> Fraction | None:
    """An unreduced ``(numerator, denominator)`` pair as a Fraction (None stays None)."""
    return None if pair is None else Fraction(*pair)


class TwoLeast:
    """The least and the second least probability among groups of cells, fed one
    ``(numerator, denominator, cells)`` group at a time (``cells`` cells sharing one
    probability), so that a caller can stop once what is left cannot come below
    :attr:`second`. Certain mines (numerator equal to denominator) are left out; the
    second is the least again when two cells share it. :attr:`first` and
    :attr:`second` are unreduced ``(numerator, denominator)`` pairs (or None), compared
    as cross products.

    Examples
    --------
    >>> TwoLeast([(1, 4, 1), (1, 3, 1), (2, 2, 5)]).fractions()
    (Fraction(1, 4), Fraction(1, 3))
    >>> TwoLeast([(1, 3, 2), (1, 4, 1)]).fractions(), TwoLeast([(1, 1, 3)]).fractions()
    ((Fraction(1, 4), Fraction(1, 3)), (None, None))
    """

    __slots__ = ("first", "second")

    def __init__(self, values=()):
        self.first = self.second = None
        for num, den, cells in values:
            self.add(num, den, cells)

    def add(self, num: int, den: int, cells: int) -> None:
        second = self.second
        if second is not None and num * second[1] >= second[0] * den:
            return  # most values: no lower than the second
        if num == den:
            return
        for _ in range(min(cells, 2)):
            first, second = self.first, self.second
            if first is None or num * first[1] < first[0] * den:
                self.first, self.second = (num, den), first
            elif second is None or num * second[1] < second[0] * den:
                self.second = (num, den)
            else:
                break

    def fractions(self) -> tuple[Fraction | None, Fraction | None]:
        return as_fraction(self.first), as_fraction(self.second)


def _products(polynomials: list) -> tuple[list[list[int]], list[list[int]]]:
    """The prefix and suffix products of the components' mine-count polynomials (each
    component's product with all the others is a prefix times a suffix)."""
    prefix = [[1]]
    for ways in polynomials:
        prefix.append(poly_mul(prefix[-1], list(ways)))
    return prefix, _suffixes(polynomials)


def suffix_products(components) -> list[list[int]]:
    """The suffix products :func:`weigh_total` takes, of its ``components``."""
    return _suffixes([ways for ways, _ in components])


def _suffixes(polynomials: list) -> list[list[int]]:
    """The suffix products of the components' mine-count polynomials: ``[i]`` is the
    product of those from ``i`` on (``[0]`` all of them, the last ``[1]``)."""
    suffix = [[1]]
    for ways in reversed(polynomials):
        suffix.append(poly_mul(suffix[-1], list(ways)))
    suffix.reverse()
    return suffix


def _rest_weights(span: int, unconstrained: int, remaining: int) -> tuple[list[int], int, int]:
    """:func:`with_total`'s weights of the unconstrained cells when the frontier holds
    ``j`` mines (``j < span``), up to one common factor, with ``jmin`` and ``jmax``."""
    u = unconstrained
    jmin, jmax = max(0, remaining - u), min(span - 1, remaining)
    rest = [0] * span
    if jmin <= jmax:
        e = 1
        for i in range(remaining - jmax + 1, remaining + 1):
            e *= i
        rest[jmax] = e
        for j in range(jmax, jmin, -1):  # E[j-1] = E[j] * (u - L_j) / (L_j + 1), exactly
            left = remaining - j
            e = e * (u - left) // (left + 1)
            rest[j - 1] = e
    return rest, jmin, jmax


class OneChanging:
    """:func:`with_total`'s layouts and least probability for many sets of tallies that
    share every component but one, each weighed in a few dot products.

    A look-ahead weighs the position after each number a clicked cell can show; only
    the tally of the component of the cell's own equation differs between them. What
    depends on the other components alone (their product, each one's product with the
    rest of them, the weights of the unconstrained cells) is computed here once;
    :meth:`least` then takes the changing tally. Same integers as :func:`with_total`.

    Parameters
    ----------
    others : list of Tally
        The components that do not change (by mine count).
    length : int
        The length of every changing tally's ``ways``.
    unconstrained, remaining : int
        The cells away from the numbers, and the mines not flagged.

    Examples
    --------
    >>> t = Tally((Group((0, 1), (0,)),), (0, 2), ((0, 2),))  # two cells, one mine
    >>> OneChanging([], 2, 2, 2).least(t)  # and two cells away from it, one mine
    (4, Fraction(1, 2))
    >>> parts, total = with_total([t], (8, 9), 2)
    >>> total, min(Fraction(n, d) for _, n, d in parts)
    (4, Fraction(1, 2))
    """

    def __init__(self, others: list[Tally], length: int, unconstrained: int, remaining: int):
        prefix, suffix = _products([t.ways for t in others])
        self.product = prefix[-1]
        span = len(self.product) + length - 1
        rest, jmin, jmax = _rest_weights(span, unconstrained, remaining)
        self.rest = rest
        self.scale = (comb(unconstrained, remaining - jmax), rest[jmax]) if jmin <= jmax else None
        n = len(self.product)
        # the weight of the rest of the board when the changing component holds k mines
        self.weight = [sum(map(mul, self.product, rest[k:k + n])) for k in range(length)]
        # lowest bound first, so that the second least is found early and most of the
        # others fall short of it (the order is only for speed: each bound is checked)
        self.others = sorted(((t, poly_mul(prefix[i], suffix[i + 1])) for i, t in enumerate(others)),
                             key=lambda tp: tp[0].least_given_count[0] / tp[0].least_given_count[1])
        self.away = [(remaining - k) * r for k, r in enumerate(rest)] if unconstrained else None
        self.unconstrained = unconstrained

    def least(self, tally: Tally) -> tuple[int, Fraction | None]:
        """The layouts and the least mine probability that is not 1 (None when every
        one is, or when there is no layout), with ``tally`` as the changing component."""
        total, least, _ = self.least_two(tally)
        return total, least

    def least_two(self, tally: Tally) -> tuple[int, Fraction | None, Fraction | None]:
        """:meth:`least` and the second least probability of a cell (the least again
        when two cells share it; None when fewer than two cells are not mines)."""
        total, least = self.least_two_pairs(tally)
        return (total, *least.fractions())

    def least_two_pairs(self, tally: Tally) -> tuple[int, "TwoLeast"]:
        """:meth:`least_two` with the two probabilities as unreduced
        ``(numerator, denominator)`` pairs, in :attr:`TwoLeast.first` and
        :attr:`TwoLeast.second` (no Fraction is made).

        The changing component and the cells away from the numbers are weighed first;
        the other components then in the order of :attr:`Tally.least_given_count`,
        each skipped when its bound is no lower than the second least found (none of
        its cells can come below it)."""
        ways = list(tally.ways)
        every = poly_mul(self.product, ways) if len(self.product) > 1 else ways
        scaled = sum(map(mul, every, self.rest))
        least = TwoLeast()
        if not scaled or self.scale is None:
            return 0, least
        total = self.scale[0] * scaled // self.scale[1]
        # each probability is num / (size * scaled)
        weight, rest = self.weight, self.rest
        for g, row in zip(tally.groups, tally.mines):
            size = len(g.cells)
            least.add(sum(map(mul, row, weight)), size * scaled, size)
        if self.away is not None:
            least.add(sum(map(mul, every, self.away)), self.unconstrained * scaled, self.unconstrained)
        for t, product in self.others:
            second = least.second
            if second is not None:
                num, den = t.least_given_count
                if num * second[1] >= second[0] * den:
                    continue
            others = poly_mul(product, ways)
            n = len(others)
            w = [sum(map(mul, others, rest[k:k + n])) for k in range(len(t.ways))]
            for g, row in zip(t.groups, t.mines):
                size = len(g.cells)
                least.add(sum(map(mul, row, w)), size * scaled, size)
        return total, least


def without_total(tallies: list[Tally], unconstrained: tuple[int, ...], density: Fraction | None,
                  cells: dict) -> NoTotalModel:
    """Fill ``cells`` under the model used without a total; return the model.

    Tallies are plain sums (``by_count`` False), weighted by the caller: one per
    consistent assignment, or independent mines of ``density``.
    """
    for t in tallies:
        z = t.ways[0]
        for gi, g in enumerate(t.groups):
            p = Fraction(t.mines[gi][0], g.size * z)
            for c in g.cells:
                cells[c] = p
    for c in unconstrained:
        cells[c] = density
    return NoTotalModel(density)


def plain_weight(values: list[int], mine: int, safe: int, ncells: int) -> int:
    """A by-count vector over ``ncells`` cells weighed into one number: each mine
    ``mine``, each safe cell ``safe`` (with both 1, the plain sum).

    Examples
    --------
    >>> plain_weight([1, 2, 1], 1, 4, 2), plain_weight([1, 2, 1], 1, 1, 2)
    (25, 4)
    """
    if mine == safe == 1:
        return sum(values)
    return sum(v * mine ** k * safe ** (ncells - k) for k, v in enumerate(values) if v)


def density_weights(density: Fraction | None) -> tuple[int, int]:
    """Integer weights of a mine and of a safe cell under a density (1 and 1 without one).

    Examples
    --------
    >>> density_weights(Fraction(1, 5))
    (1, 4)
    """
    if density is None:
        return 1, 1
    density = Fraction(density)
    if not 0 < density < 1:
        raise InputError(f"a mine density must lie strictly between 0 and 1, not {density}")
    return density.numerator, density.denominator - density.numerator


def conditional_given_rest(exact: list[Tally], unconstrained: tuple[int, ...], remaining: int | None,
                           k: int) -> list[Fraction]:
    """Probabilities of the exact tallies' groups (then of the unconstrained cells, with
    a total) given that the rest of the board holds ``k`` mines.

    Without a total (``remaining`` None) the groups do not depend on ``k``.
    """
    if remaining is None:
        return [Fraction(t.mines[gi][0], g.size * t.ways[0]) for t in exact for gi, g in enumerate(t.groups)]
    parts, _ = with_total(exact, unconstrained, remaining - k, strict=False)
    return [Fraction(num, den) if den else Fraction(0) for _, num, den in parts]
