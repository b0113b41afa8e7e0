"""One position analysed once and shared: the face the play wing asks its questions through.

A guessing policy asks many questions of one position and of the positions one click
away: the mine probabilities, the layouts, the least probability after each number a
candidate can show, whether a set of cells holds the same number of mines in every
layout, how many layouts give some cells fixed values. A :class:`Survey` answers them
from one constraint system and one set of component tallies, built when first asked
for. Surveys made from one another share a cache of tallies keyed by each
component's own equations (and the mines left), so the position after a click
recounts only the component the click touches; the components it leaves alone are
looked up, as minesweepr's and JSMinesweeper's engines keep the independent parts of
a frontier apart.

Every answer is exact (Python integers and :class:`~fractions.Fraction`); only
:attr:`Survey.probabilities` may hold estimates, and says so, when a component is too
large to count.

Examples
--------
>>> from mscsp.position import parse_position
>>> s = Survey(parse_position("mines: 1\\n...\\n"))
>>> s.layouts, s.probabilities.probability((0, 0))
(3, Fraction(1, 3))
>>> after = s.opened((0, 0), 1)  # [0,0] opened showing a 1: the mine is at [1,0]
>>> after.layouts, after.least()
(1, (1, Fraction(0, 1)))
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from itertools import combinations
from math import comb
from operator import attrgetter

from ..errors import BudgetExceeded, InconsistentError, InputError
from ..position import Mark, Position
from .constraints import (
    Constraint,
    ConstraintSystem,
    build_constraints,
    conditioned_system,
    flagged_system,
    opened_system,
)
from .counting import Counts, Probabilities, count_components, tally_by_label
from .counting.pipeline import cached_remaining
from .counting.exact.combine import (
    OneChanging,
    TwoLeast,
    as_fraction,
    poly_mul,
    suffix_products,
    total_layouts,
    ways_by_count,
    weigh_total,
    weighing_input,
)

__all__ = ["Survey"]

_COVERED, _FLAG = Mark.COVERED.value, Mark.FLAG.value

#: What :meth:`Survey._tallies_by_number` gives when no number has a layout.
_NO_LAYOUT = ("no layout",)
#: What the cache holds for a look-ahead's equations too large for one search.
_TOO_BIG = ("too big",)
_clue = attrgetter("clue")


class Survey:
    """A position with its equations, tallies and probabilities, each built once.

    Parameters
    ----------
    position : Position
        What the player sees.
    cache : dict, optional
        Component tallies to share with other surveys (by default a new one; the
        surveys :meth:`opened` and :meth:`flagged` make share this one).

    Raises
    ------
    InconsistentError
        From any answer, when no layout fits the position.
    """

    def __init__(self, position: Position, *, cache: dict | None = None):
        self.position = position
        self.cache = {} if cache is None else cache
        self._siblings: dict[int, list[Survey]] = {}  # per opened cell, the surveys of the numbers shown
        self._sibling: Counts | None = None  # of a survey whose equations are on the same cells
        self._by_number: dict[int, tuple | None] = {}  # per opened cell, the tallies for every number
        self._free_weighed: dict[tuple[int, int], tuple] = {}  # see least_after
        self._after: dict[tuple[int, int], tuple] = {}  # (cell, number) -> _least_two_after_pairs
        self._unchanging: dict[tuple, OneChanging] = {}  # see _tallies_by_number
        self._free_layouts: dict[tuple[int, int], int] = {}  # see _layouts_with
        self._around: dict[int, tuple[list[int], int, bool]] = {}  # see _neighbourhood

    # -- what is built once -------------------------------------------------------------
    @cached_property
    def system(self) -> ConstraintSystem:
        """The clue equations, components and unconstrained cells."""
        return build_constraints(self.position)

    @cached_property
    def counts(self) -> Counts:
        """Every component's tally (looked up in the cache where it was counted before)."""
        return count_components(self.position, system=self.system, cache=self.cache, sibling=self._sibling)

    @cached_property
    def probabilities(self) -> Probabilities:
        """Every covered cell's mine probability, and the layouts (estimates where a
        component was too large to count: ``exact`` then says False)."""
        return self.counts.probabilities()

    @cached_property
    def layouts(self) -> int:
        """The number of layouts consistent with the position and its mine total (0 when
        the total cannot be met)."""
        if self._weighed is None:
            return self.probabilities.layouts or 0
        return self._weighed[1]

    @cached_property
    def _weighed(self) -> tuple[list[tuple[tuple[int, ...], int, int]], int] | None:
        """The tallies weighed with the mine total (each group's probability as a
        numerator and denominator, and the layouts); None without an exact count or
        without the total."""
        counts, system = self.counts, self.system
        if not counts.exact or system.remaining is None:
            return None
        return counts.weighed()

    # -- questions ----------------------------------------------------------------------
    def least(self) -> tuple[int, Fraction | None]:
        """The layouts and the least mine probability among the covered cells that are
        not certainly mines (None when every covered cell is one), read off the weights
        directly: one Fraction, not one per cell."""
        total, least, _ = self.least_two()
        return total, least

    def least_two(self) -> tuple[int, Fraction | None, Fraction | None]:
        """:meth:`least` and the second least such probability (the least again when
        two cells share it; None when fewer than two cells are not certainly mines)."""
        total, least, second = self.least_two_pairs()
        return total, as_fraction(least), as_fraction(second)

    def least_two_pairs(self) -> tuple[int, tuple[int, int] | None, tuple[int, int] | None]:
        """:meth:`least_two` with the two probabilities as unreduced ``(numerator,
        denominator)`` pairs.

        Raises
        ------
        InputError
            When the count is not exact (a part of the frontier past its budget):
            estimates make no pairs, and a policy weighing the positions a click away
            compares exact values only.
        """
        if self._weighed is None:
            probs = self.probabilities
            if not probs.exact:
                raise InputError("the least probabilities after a click need an exact count, and this "
                                 f"position's is not: {probs.reason}")
            two = TwoLeast((q.numerator, q.denominator, 1) for q in probs.by_index.values() if q is not None)
            return probs.layouts or 0, two.first, two.second
        parts, total = self._weighed
        two = TwoLeast((num, den, len(cells)) for cells, num, den in parts)
        return total, two.first, two.second

    def least_after(self, cell: tuple[int, int], number: int) -> tuple[int, Fraction | None]:
        """``self.opened(cell, number).least()`` for the covered cell ``(x, y)``, without
        building that position (see :meth:`least_two_after`).

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> Survey(parse_position("mines: 1\\n...\\n")).least_after((0, 0), 1)
        (1, Fraction(0, 1))
        """
        layouts, least, _ = self.least_two_after(cell, number)
        return layouts, least

    def least_two_after(self, cell: tuple[int, int], number: int) -> tuple[int, Fraction | None, Fraction | None]:
        """``self.opened(cell, number).least_two()`` for the covered cell ``(x, y)``,
        without building that position.

        When the cell and its covered neighbours are all away from the numbers,
        opening it adds one equation on cells no other equation touches: a component
        of its own in which each of its ``k`` covered neighbours is a mine with
        probability ``m / k`` (``m`` the number less the flags around), in ``C(k, m)``
        ways with ``m`` mines in every one. Its mine-count polynomial is that one
        term, so the rest of the board is weighed exactly as the same tallies with
        ``m`` fewer mines left and ``k + 1`` fewer unconstrained cells, and the
        layouts are that count times ``C(k, m)``.

        Otherwise the positions after each number the cell can show differ only in
        the count of the cell's own equation: the tallies for every number come from
        one search (:func:`~mscsp.analysis.counting.tally_by_label`), made the first
        time the cell is asked about, and each number is one weighing. Same numbers
        as the position after, counted again, would give.

        Raises
        ------
        InconsistentError
            When no layout shows ``number`` at ``cell``.
        """
        layouts, least, second = self._least_two_after_pairs(self.position.geometry.cell(cell), number)
        return layouts, as_fraction(least), as_fraction(second)

    def _least_two_after_pairs(self, cell: int, number: int) -> tuple[int, tuple[int, int] | None,
                                                                       tuple[int, int] | None]:
        """:meth:`least_two_after` by flat index, with the two probabilities as
        ``(numerator, denominator)`` pairs, not reduced: no Fraction is made, for a
        caller that weighs many outcomes and compares most of them approximately
        first. Each answer is kept: a policy may ask for the same outcome twice."""
        found = self._after.get((cell, number))
        if found is None:
            found = self._after[cell, number] = self._count_two_after_pairs(cell, number)
        return found

    def _count_two_after_pairs(self, cell: int, number: int) -> tuple[int, tuple[int, int] | None,
                                                                      tuple[int, int] | None]:
        """:meth:`_least_two_after_pairs` counted (see :meth:`least_two_after`)."""
        free = self._free
        if free is None:
            return self._opened_index(cell, number).least_two_pairs()
        covered, flags, away = self._neighbourhood(cell)
        k, m = len(covered), number - flags
        if not 0 <= m <= k:
            return self._opened_index(cell, number).least_two_pairs()
        system = self.system
        if away:
            # cells with as many covered neighbours weigh the rest of the board alike
            rest = self._free_weighed.get((k, m))
            if rest is None:
                components, suffix = self._weighing
                parts, total = weigh_total(components, (0,) * (len(system.unconstrained) - k - 1),
                                           system.remaining - m, strict=False, suffix=suffix)
                two = TwoLeast((num, den, len(cells)) for cells, num, den in parts)
                rest = self._free_weighed[k, m] = (total, two.first, two.second)
            total, least, second = rest
            # with the new number's k cells, each a mine with probability m / k
            two = TwoLeast([(*pair, 1) for pair in (least, second) if pair is not None] + ([(m, k, k)] if k else []))
            return total * comb(k, m), two.first, two.second
        if cell not in self._by_number:
            self._by_number[cell] = self._tallies_by_number(cell, covered) if covered else None
        found = self._by_number[cell]
        if found is None:
            return self._opened_index(cell, number).least_two_pairs()
        if found is _NO_LAYOUT or found[1][m] is None:
            raise InconsistentError("no layout shows this number here", ())
        total, two = found[0].least_two_pairs(found[1][m])
        return total, two.first, two.second

    def _neighbourhood(self, cell: int) -> tuple[list[int], int, bool]:
        """The covered neighbours of ``cell`` (flat), how many flags it touches, and
        whether it and its covered neighbours are all away from the numbers (with
        exact tallies weighed with the total), worked out once a cell: a look-ahead
        asks about every number the cell can show."""
        found = self._around.get(cell)
        if found is None:
            neighbours = self.position.geometry.neighbours(cell)
            grid = self._grid
            around = [grid[c] for c in neighbours]
            covered = [c for c, v in zip(neighbours, around) if v == _COVERED]
            free = self._free
            away = free is not None and cell in free and all(c in free for c in covered)
            found = self._around[cell] = (covered, around.count(_FLAG), away)
        return found

    def _tallies_by_number(self, cell: int, covered: list[int]) -> tuple | None:
        """For :meth:`least_after`: the weighing of every number ``cell`` (whose covered
        neighbours are ``covered``) can show, with the tallies of its equation's
        component for each count; None where that is not one search (the numbers are
        then counted one by one), :data:`_NO_LAYOUT` when no number has a layout.

        Opening the cell changes only the components of its equations and of its
        neighbours' (the cell leaves its equations, its number joins its neighbours):
        they are counted as one, with the cell's equation as the label, and the
        others keep the tallies they have here.
        """
        system = self.system
        component_of = self._component_of_equation
        touched = sorted({component_of[e] for c in [cell, *covered] for e in system.by_cell.get(c, ())})
        label = Constraint(tuple(covered), 0, cell)  # its count is what is tallied by: not read
        equations = [label]
        for k in touched:
            for e in system.components[k]:
                con = system.constraints[e]
                if cell in con.cells:  # the cell leaves it, safe: the count stays
                    rest = tuple(c for c in con.cells if c != cell)
                    if con.count > len(rest):  # the cell is a mine in every layout
                        return _NO_LAYOUT
                    if not rest:
                        continue
                    con = Constraint(rest, con.count, con.clue)
                equations.append(con)
        equations.sort(key=_clue)
        equations = tuple(equations)
        at = equations.index(label)
        # the same equations come back at later guesses of a game, whose surveys share
        # the cache (the label's count is a placeholder: the key is the same for every count)
        key = ("by label", at, cached_remaining(system.remaining, equations), equations)
        by_count = self.cache.get(key)
        if by_count is None:
            part = ConstraintSystem(system.position, equations, (), system.remaining)
            by_count = self.cache[key] = tally_by_label(part, tuple(range(len(equations))), at) or _TOO_BIG
        if by_count is _TOO_BIG:
            return None
        if not any(by_count):
            return _NO_LAYOUT
        free = self._free
        unconstrained = len(free) - (cell in free) - sum(c in free for c in covered)
        length = len(next(t for t in by_count if t is not None).ways)
        # the cells of one component change the same components: the rest is weighed once
        fixed = self._unchanging.get((tuple(touched), length, unconstrained))
        if fixed is None:
            changed = set(touched)
            others = [t for k, t in enumerate(self.counts.tallies) if k not in changed]
            fixed = self._unchanging[tuple(touched), length, unconstrained] = OneChanging(
                others, length, unconstrained, system.remaining)
        return fixed, by_count

    @cached_property
    def _weighing(self) -> tuple[list, list[list[int]]]:
        """The tallies as :func:`~mscsp.analysis.counting.exact.combine.weigh_total`
        takes them, with their suffix products: a look-ahead weighs them with many
        totals (a cell away from the numbers, for each number it can show)."""
        components = weighing_input(self.counts.tallies)
        return components, suffix_products(components)

    @cached_property
    def _grid(self) -> list[int]:
        """The position's grid as a list: a look-ahead reads the cells round each
        candidate, a few at a time, and a list reads them quicker than an array."""
        return self.position.grid.tolist()

    @cached_property
    def _component_of_equation(self) -> list[int]:
        """Equation index -> the index of its component (as the tallies are ordered)."""
        out = [0] * len(self.system.constraints)
        for k, comp in enumerate(self.system.components):
            for e in comp:
                out[e] = k
        return out

    @cached_property
    def _free(self) -> frozenset[int] | None:
        """The unconstrained covered cells, when the tallies are exact and weighed with
        the mine total (the case :meth:`least_after` shortens); None otherwise."""
        if self._weighed is None or not all(t.by_count for t in self.counts.tallies):
            return None
        return frozenset(self.system.unconstrained)

    def mine_count_fixed(self, cells) -> bool:
        """Whether the clue components with a cell in ``cells``, pairs ``(x, y)``, hold
        the same number of mines in every layout (the product of their mine-count
        polynomials has one term): then neither a click elsewhere nor the total can
        tell their layouts apart.

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> s = Survey(parse_position("mines: 1\\n.1.\\n"))
        >>> s.mine_count_fixed([(0, 0), (2, 0)])
        True
        """
        return self._mine_count_fixed([self.position.geometry.cell(c) for c in cells])

    def _mine_count_fixed(self, cells: list[int] | tuple[int, ...]) -> bool:
        """:meth:`mine_count_fixed` by flat indices."""
        firsts = self._component_ways
        poly = [1]
        for c in cells:
            if c in firsts:
                poly = poly_mul(poly, list(firsts[c]))
        return sum(1 for w in poly if w) == 1

    @cached_property
    def _component_ways(self) -> dict[int, tuple[int, ...]]:
        """Each component's mine-count polynomial, found by the first cell of its groups."""
        return {min(c for grp in t.groups for c in grp.cells): t.ways for t in self.counts.tallies}

    @cached_property
    def _frontier_ways(self) -> list[int]:
        """The ways to place ``r`` mines on the cells next to the numbers, for each ``r``:
        the product of the components' mine-count polynomials."""
        return ways_by_count(self.counts.tallies)

    @cached_property
    def _component_of(self) -> dict[int, int]:
        """Cell next to the numbers (flat index) -> the index of its clue component."""
        return {c: k for k, t in enumerate(self.counts.tallies) for grp in t.groups for c in grp.cells}

    def layouts_with(self, mines, safes) -> int:
        """The layouts with every cell of ``mines`` a mine and every cell of ``safes``
        safe, both lists of ``(x, y)``.

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> Survey(parse_position("mines: 1\\n...\\n")).layouts_with([(0, 0)], [(1, 0)])
        1
        """
        g = self.position.geometry
        return self._layouts_with([g.cell(c) for c in mines], [g.cell(c) for c in safes])

    def _layouts_with(self, mines: list[int], safes: list[int]) -> int:
        """:meth:`layouts_with` by flat indices.

        When every one of these cells is away from the numbers (and the tallies are
        exact with the mine total), no clue sees them, so the count is a sum over the
        mines the numbers' cells hold, each way of placing them times the ways to place
        the rest among the other cells away from the numbers; no position is built.
        Otherwise the cells leave the equations with those values
        (:func:`~mscsp.analysis.constraints.conditioned_system`) and the components
        they touch are counted again, the others looked up in the cache: one count,
        where flagging the safe cells by inclusion-exclusion would take one for each
        subset of them. Without the total or an exact count, it is that
        inclusion-exclusion over the flagged positions' own layouts."""
        free = self._free
        if free is not None:
            if all(c in free for c in mines) and all(c in free for c in safes):
                # the count depends on how many cells are fixed each way, not which
                sizes = (len(mines), len(safes))
                found = self._free_layouts.get(sizes)
                if found is None:
                    left = self.system.remaining - len(mines)
                    room = len(free) - len(mines) - len(safes)
                    found = self._free_layouts[sizes] = total_layouts(self._frontier_ways, room, left)
                return found
            system = conditioned_system(self.system, tuple(mines), tuple(safes))
            if system is None:
                return 0
            try:
                counts = count_components(self.position, system=system, cache=self.cache, estimate=False)
            except InconsistentError:
                return 0
            except BudgetExceeded:
                pass  # a component too large to count whole: the flagged positions may be smaller
            else:
                return total_layouts(ways_by_count(counts.tallies), len(system.unconstrained), system.remaining)
        total = 0
        for k in range(len(safes) + 1):
            for extra in combinations(safes, k):
                try:
                    n = self._flagged_index(list(mines) + list(extra)).layouts
                except InconsistentError:
                    n = 0
                total += (-1) ** k * n
        return total

    # -- the positions one step away -------------------------------------------------------
    def opened(self, cell: tuple[int, int], number: int) -> "Survey":
        """The survey of the position with the covered cell ``(x, y)`` open and showing
        ``number`` (InputError otherwise, as :meth:`Position.opened` says).

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> Survey(parse_position("mines: 1\\n...\\n")).opened((2, 0), 0).layouts
        1
        """
        return self._opened_index(self.position.geometry.cell(cell), number)

    def _opened_index(self, cell: int, number: int) -> "Survey":
        """:meth:`opened` by flat index (no checks)."""
        after = Survey(self.position._opened_index(cell, number), cache=self.cache)
        if "system" in self.__dict__:  # made from this one's equations, not from the grid again
            system = after.__dict__["system"] = opened_system(self.system, after.position, cell)
            before = self._siblings.setdefault(cell, [])
            for other in reversed(before):
                if not _same_cells(other.system, system):
                    continue
                # the numbers a cell can show change the counts of its equation only, so
                # the equations' cells, and with them the components, are the other's
                known = other.system.__dict__
                for name in ("by_cell", "components"):
                    if name in known:
                        system.__dict__[name] = known[name]
                if "counts" in other.__dict__:  # not when no layout showed its number
                    after._sibling = other.counts
                    break
            before.append(after)
        return after

    def flagged(self, cells) -> "Survey":
        """The survey of the position with the covered ``cells``, pairs ``(x, y)``,
        flagged (InputError otherwise, as :meth:`Position.with_flags` says).

        Examples
        --------
        >>> from mscsp.position import parse_position
        >>> Survey(parse_position("mines: 1\\n...\\n")).flagged([(1, 0)]).layouts
        1
        """
        return self._flagged_index([self.position.geometry.cell(cell) for cell in cells])

    def _flagged_index(self, cells: list[int]) -> "Survey":
        """:meth:`flagged` by flat indices (no checks)."""
        cells = tuple(cells)
        after = Survey(self.position._with_flags_index(cells), cache=self.cache)
        if "system" in self.__dict__:  # made from this one's equations, not from the grid again
            after.__dict__["system"] = flagged_system(self.system, after.position, cells)
        return after


def _same_cells(a: ConstraintSystem, b: ConstraintSystem) -> bool:
    """Whether two systems have equations on the same cells, in the same order."""
    return len(a.constraints) == len(b.constraints) and all(
        x.cells == y.cells for x, y in zip(a.constraints, b.constraints))
