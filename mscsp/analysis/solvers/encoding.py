"""CNF encodings of "exactly k of these cells are mines".

A clue touches at most eight cells, so the default is the *binomial* (direct)
encoding: forbid every set of k+1 mines and every set of n-k+1 safe cells. It needs
no auxiliary variables, so its models are exactly the assignments with k mines
(tests count them against ``math.comb``), and unit propagation on it is as strong as
on the equation itself. The pysat encodings (sequential counter, totalizer,
cardinality networks; Sinz 2005, Bailleux & Boufkhad 2003, Asín et al. 2011) are
available for comparison; ``benchmarks/encodings.py`` measures them.

For the whole-board total over hundreds of cells the binomial encoding is out of the
question; :func:`exact_counter` is a sequential counter whose auxiliary variables
are *defined* (both directions of each implication), so it too keeps the model count
exact — what an outside #SAT solver needs to check our layout counts from a DIMACS
export.
"""

from __future__ import annotations

from itertools import combinations

__all__ = ["ENCODINGS", "exactly", "exact_counter"]

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


def exact_counter(lits: list[int], k: int, *, top: int) -> tuple[list[list[int]], int]:
    """A sequential counter for "exactly k of lits" with fully defined auxiliaries.

    ``s[i][j]`` (for the first ``i`` literals, ``1 <= j <= k + 1``) is equivalent to
    "at least ``j`` of them are true", so every assignment of ``lits`` extends to
    exactly one model: model counts are layout counts.

    Examples
    --------
    >>> from itertools import product
    >>> clauses, top = exact_counter([1, 2, 3, 4], 2, top=4)
    >>> from pysat.solvers import Solver
    >>> with Solver(bootstrap_with=clauses) as s:
    ...     print(sum(1 for _ in s.enum_models()))
    6
    """
    n = len(lits)
    if not 0 <= k <= n:
        return [[]], top
    width = k + 1
    nxt = top
    prev: list[int | None] = [None] * (width + 1)  # prev[j]: var for "at least j among first i-1"
    clauses: list[list[int]] = []
    for i, x in enumerate(lits, start=1):
        cur: list[int | None] = [None] * (width + 1)
        for j in range(1, min(i, width) + 1):
            nxt += 1
            s = nxt
            cur[j] = s
            a = prev[j]  # at least j before
            b = prev[j - 1] if j > 1 else None  # at least j-1 before (True when j == 1)
            # s <-> a or (x and b)
            if a is not None:
                clauses.append([-a, s])
            if j == 1:
                clauses.append([-x, s])
                clauses.append([-s, x] + ([a] if a is not None else []))
            else:
                clauses.append([-x, -b, s])
                clauses.append([-s, b] + ([a] if a is not None else []))
                clauses.append([-s, x] + ([a] if a is not None else []))
        prev = cur
    # at least k, not at least k + 1
    if k >= 1:
        clauses.append([prev[k]])
    if k + 1 <= n:
        clauses.append([-prev[k + 1]])
    return clauses, nxt
