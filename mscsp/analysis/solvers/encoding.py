"""CNF encodings of "exactly k of these cells are mines".

A clue touches at most eight cells, so the default is the *binomial* (direct)
encoding: forbid every set of k+1 mines and every set of n-k+1 safe cells. It needs
no auxiliary variables, so its models are exactly the assignments with k mines
(tests count them against ``math.comb``), and unit propagation on it is as strong as
on the equation itself. The pysat encodings (sequential counter, totalizer,
cardinality networks; Sinz 2005, Bailleux & Boufkhad 2003, Asín et al. 2011) are
available for comparison; ``benchmarks/encodings.py`` measures them.

For the mine total over hundreds of cells the binomial encoding is out of the
question. :class:`MineTotal` is the one encoding of the total, used by the complete
solver and by the DIMACS export alike: two totalizers (Bailleux & Boufkhad,
"Efficient CNF encoding of Boolean cardinality constraints", CP 2003), one counting
mines and one counting safe cells, whose outputs are *defined* (both directions of
each implication), so that every assignment of the cells extends to exactly one
model and model counts stay layout counts; the bounds are assumption literals, so an
incremental solver can shift them. Past a size limit the complete solver takes two
native cardinality constraints of a solver that has them (Minicard), added in time
linear in the cells where a network over thousands of cells has millions of clauses;
each holds one extra literal which, assumed true, takes one from its bound, so the
bounds still shift by one. A formula written out falls back to a cardinality network
with fixed bounds (Asín et al. 2011), whose auxiliaries are not defined, so that
only a count projected on the cells is then exact.
"""

from __future__ import annotations

from itertools import combinations

__all__ = ["ENCODINGS", "exactly", "Totalizer", "MineTotal", "TOTALIZER_LIMIT"]

#: Largest pair of totalizers (cells times bound) built for the mine total; past it a
#: cardinality network with fixed bounds.
TOTALIZER_LIMIT = 2_000_000

ENCODINGS = ("binomial", "seqcounter", "totalizer", "cardnetwrk", "sortnetwrk")


def exactly(lits: list[int], k: int, *, top: int, encoding: str = "binomial",
            guard: int | None = None) -> tuple[list[list[int]], int]:
    """Clauses saying exactly ``k`` of ``lits`` are true.

    Returns the clauses and the highest variable used (``top`` if none was added).
    With ``guard``, that literal is added to every clause: the clauses then bind
    only when it is false (a selector ``s`` guards with ``-s``).

    Examples
    --------
    >>> exactly([1, 2, 3], 1, top=3)
    ([[-1, -2], [-1, -3], [-2, -3], [1, 2, 3]], 3)
    >>> exactly([1, 2], 1, top=3, guard=-4)
    ([[-1, -2, -4], [1, 2, -4]], 3)
    """
    n = len(lits)
    tail = [] if guard is None else [guard]
    if not 0 <= k <= n:
        return [tail], top
    if encoding == "binomial":
        negated = [-v for v in lits]
        clauses = [[*group, *tail] for group in combinations(negated, k + 1)]
        clauses += [[*group, *tail] for group in combinations(lits, n - k + 1)]
        return clauses, top
    from pysat.card import CardEnc, EncType  # only these encodings need pysat at all

    kind = {
        "seqcounter": EncType.seqcounter,
        "totalizer": EncType.totalizer,
        "cardnetwrk": EncType.cardnetwrk,
        "sortnetwrk": EncType.sortnetwrk,
    }[encoding]
    cnf = CardEnc.equals(lits=lits, bound=k, top_id=top, encoding=kind)
    return [[*c, *tail] for c in cnf.clauses], max(top, cnf.nv)


class Totalizer:
    """A totalizer over ``lits`` counting up to ``ubound``.

    ``rhs[k]`` (for ``k < ubound``) is a literal that more than ``k`` of ``lits``
    being true makes true, so ``-rhs[k]`` as an assumption says "at most ``k``". The
    tree halves the inputs; a node with children counting ``a`` and ``b`` has
    ``a_i and b_j -> r_{i+j}``. With ``defined`` it also has
    ``not a_{i+1} and not b_{j+1} -> not r_{i+j+1}``, so that its outputs are
    determined by its inputs: every assignment of ``lits`` then extends to exactly one
    model, which a model counter needs and a solver does not.

    Examples
    --------
    >>> from itertools import product
    >>> from pysat.solvers import Solver
    >>> t = Totalizer([1, 2, 3], 2, top=3, defined=True)
    >>> with Solver(bootstrap_with=t.clauses) as s:  # one model for each input, outputs fixed
    ...     counts = {bits: sum(1 for _ in s.enum_models([v if b else -v for v, b in zip((1, 2, 3), bits)]))
    ...               for bits in product((0, 1), repeat=3)}
    >>> set(counts.values())
    {1}
    """

    def __init__(self, lits: list[int], ubound: int, *, top: int, defined: bool = False):
        self.clauses: list[list[int]] = []
        self.top = top
        self.ubound = ubound
        self.defined = defined
        self.rhs = self._node(list(lits)) if lits and ubound > 0 else []

    def _node(self, lits: list[int]) -> list[int]:
        if len(lits) == 1:
            return [lits[0]]
        half = len(lits) // 2
        a, b = self._node(lits[:half]), self._node(lits[half:])
        m = min(len(lits), self.ubound)
        r = list(range(self.top + 1, self.top + m + 1))
        self.top += m
        p, q, out = len(a), len(b), self.clauses
        # a_i and b_j -> r_{i+j} (i + j <= m; a_0 and b_0 are true)
        out.extend([r[j - 1], -b[j - 1]] for j in range(1, min(q, m) + 1))
        for i in range(1, min(p, m) + 1):
            na = -a[i - 1]
            out.append([r[i - 1], na])
            out.extend([r[i + j - 1], na, -b[j - 1]] for j in range(1, min(q, m - i) + 1))
        if self.defined:  # not a_{i+1} and not b_{j+1} -> not r_{i+j+1} (i + j < m; a_{p+1} is false)
            for i in range(min(p, m - 1) + 1):
                ai = [a[i]] if i < p else []
                out.extend([-r[i + j], *ai, b[j]] if j < q else [-r[i + j], *ai]
                           for j in range(min(q, m - 1 - i) + 1))
        return r


class MineTotal:
    """The mine total over ``lits``: ``remaining - unconstrained <= sum <= remaining``.

    The cells named are those the solver keeps as variables; ``unconstrained`` more
    cells, not encoded, can take the mines the named ones leave (the complete solver
    passes the frontier and the number of cells away from the numbers; the DIMACS
    export passes every covered cell and 0). The bounds are imposed by
    :meth:`assumptions`, which can also shift them by one (to ask whether an
    unconstrained cell is forced). With ``defined`` the totalizers' outputs are
    defined by the cells (see :class:`Totalizer`): the export asks for that, so that
    plain model counts are layout counts; the solver needs only the clauses that
    bound the count, the rest of the same formula.

    Examples
    --------
    >>> from pysat.solvers import Solver
    >>> total = MineTotal([1, 2, 3, 4], 2, 0, top=4, defined=True)
    >>> with Solver(bootstrap_with=total.clauses) as s:
    ...     print(sum(1 for _ in s.enum_models(total.assumptions())))
    6
    """

    def __init__(self, lits: list[int], remaining: int, unconstrained: int, *, top: int,
                 size_limit: int = TOTALIZER_LIMIT, defined: bool = False, native: bool = False):
        n = len(lits)
        self.n, self.remaining, self.unconstrained = n, remaining, unconstrained
        self.clauses: list[list[int]] = []
        #: ``(literals, k)``: at most k of the literals true, for a solver with native
        #: cardinality constraints (past the size limit, with ``native``)
        self.at_most: list[tuple[list[int], int]] = []
        self.upper = self.lower = None
        self.shiftable = True
        #: per native bound, the literal that imposes it and the one that takes one from it
        self.native: dict[str, tuple[int, int]] = {}
        size = self.size_of(n, remaining, unconstrained)
        if size > size_limit and native:
            for name, bound in self._native_pairs(n, remaining, unconstrained):
                group = list(lits) if name == "upper" else [-v for v in lits]
                # at most n of the group, n - bound fillers and the shift: the fillers, true
                # when the bound is imposed, leave the group ``bound`` (one less with the
                # shift); not imposed, they can all be false and nothing is bounded
                enable = top + 1
                fillers = list(range(top + 2, top + 2 + n - bound))
                shift = top + 2 + n - bound
                top = shift
                self.clauses.extend([-enable, f] for f in fillers)
                self.at_most.append((group + fillers + [shift], n))
                self.native[name] = (enable, shift)
        elif size > size_limit:
            from pysat.card import CardEnc, EncType

            for bound, kind in ((remaining, "atmost"), (remaining - unconstrained, "atleast")):
                if (kind == "atmost" and bound < n) or (kind == "atleast" and bound > 0):
                    enc = getattr(CardEnc, kind)(lits=lits, bound=bound, top_id=top, encoding=EncType.cardnetwrk)
                    self.clauses.extend(enc.clauses)
                    top = max(top, enc.nv)
            self.shiftable = False
        else:
            if remaining <= n:  # sum <= remaining (and remaining - 1, to test unconstrained cells)
                self.upper = Totalizer(lits, max(remaining, 0) + 1, top=top, defined=defined)
                self.clauses.extend(self.upper.clauses)
                top = self.upper.top
            if remaining - unconstrained >= 0:  # safe cells <= n - (remaining - u), and one less
                self.lower = Totalizer([-v for v in lits], min(n, n - (remaining - unconstrained) + 1), top=top,
                                       defined=defined)
                self.clauses.extend(self.lower.clauses)
                top = self.lower.top
        self.top = top

    @classmethod
    def native_bounds(cls, n: int, remaining: int, unconstrained: int, size_limit: int = TOTALIZER_LIMIT) -> bool:
        """Whether a total built with ``native`` over ``n`` cells has native cardinality
        constraints (``at_most`` not empty), known before it is built: a solver that can
        hold them must be chosen before the clauses are loaded.

        Examples
        --------
        >>> MineTotal.native_bounds(10, 3, 0), MineTotal.native_bounds(100_000, 20_000, 0)
        (False, True)
        """
        return cls.size_of(n, remaining, unconstrained) > size_limit and bool(
            cls._native_pairs(n, remaining, unconstrained))

    @staticmethod
    def _native_pairs(n: int, remaining: int, unconstrained: int) -> list[tuple[str, int]]:
        """The native bounds a total over ``n`` cells imposes: at most ``remaining`` mines
        ("upper") and at most ``n - (remaining - unconstrained)`` safe cells ("lower"),
        each only when it lies in ``0..n`` (outside, there is no bound, or one no
        assignment meets: see :meth:`assumptions`)."""
        bounds = (("upper", remaining), ("lower", n - (remaining - unconstrained)))
        return [(name, bound) for name, bound in bounds if 0 <= bound <= n]

    @staticmethod
    def size_of(n: int, remaining: int, unconstrained: int) -> int:
        """The size of the two totalizers (cells times bound, added), which the
        ``size_limit`` bounds."""
        return (n * (max(remaining, 0) + 2) if remaining <= n else 0) + (
            n * (min(n, n - (remaining - unconstrained) + 1) + 1) if remaining - unconstrained >= 0 else 0)

    def assumptions(self, *, upper_shift: int = 0, lower_shift: int = 0) -> list[int] | None:
        """Literals imposing ``remaining - unconstrained + lower_shift <= sum <= remaining
        - upper_shift``; None when no assignment can meet them.

        Raises
        ------
        ValueError
            When a shift is asked of fixed bounds (the cardinality-network fallback).
        """
        if not self.shiftable:
            if upper_shift or lower_shift:
                raise ValueError("the bounds of a cardinality network are fixed")
            return []
        n, out = self.n, []
        hi = self.remaining - upper_shift
        if hi < 0:
            return None
        if self.upper is not None and hi < n:
            out.append(-self.upper.rhs[hi])
        lo = self.remaining - self.unconstrained + lower_shift
        if lo > n:
            return None
        if self.lower is not None and lo > 0:
            out.append(-self.lower.rhs[n - lo])
        if self.native:
            if upper_shift > 1 or lower_shift > 1:
                raise ValueError("the native bounds shift by one at most")
            for name, amount in (("upper", upper_shift), ("lower", lower_shift)):
                if name in self.native:
                    enable, shift = self.native[name]
                    out += [enable, shift if amount else -shift]
        return out
