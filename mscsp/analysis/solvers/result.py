"""What a solver returns: proven cells, why, and what cannot be true.

These are answers for people and scripts, so they name cells as ``(x, y)`` (column,
row) in row order (by ``y``, then ``x``), as the rest of the public API does; the
engines that produce them work on flat indices ``y * width + x`` inside.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...errors import Choice, Clash

__all__ = ["SolverName", "Deduction", "Contradiction", "SolveResult", "Explanation", "Proven"]


class SolverName(Choice, what="solver"):
    """The solver ladder: each is sound; each finds at least what the previous finds."""

    SINGLE_POINT = "single-point"
    SUBSET = "subset"
    SAT = "sat"



@dataclass(frozen=True, init=False)
class Deduction:
    """One proven cell and a set of clues that forces it.

    Attributes
    ----------
    cell : (int, int)
        ``(x, y)`` of the proven cell.
    mine : bool
        True for a proven mine, False for a proven safe cell.
    clues : tuple of (int, int)
        The revealed numbers that, with ``uses_total``, force the cell.
    uses_total : bool
        Whether the mine total is part of the reason.
    """

    cell: tuple[int, int]
    mine: bool
    clues: tuple[tuple[int, int], ...]
    uses_total: bool = False

    def __init__(self, cell: tuple[int, int], mine: bool, clues: tuple[tuple[int, int], ...],
                 uses_total: bool = False):
        # an analysis makes one per proven cell: the fields go straight into the
        # instance's dict (a frozen dataclass's own __init__ calls object.__setattr__
        # for each, twice the time)
        fields = self.__dict__
        fields["cell"] = cell
        fields["mine"] = mine
        fields["clues"] = clues
        fields["uses_total"] = uses_total


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Explanation:
    """Cells forced by the same reason, with a sentence a player can follow
    (``cells`` and ``clues`` as ``(x, y)``).

    ``text`` may be given as the sentence or as a function of no arguments that
    makes it: the solvers give the function, and the sentence is made when it is
    first read (an analysis puts many cells in words that a caller never shows; the
    reasons themselves, ``clues`` and ``uses_total``, are always found at once).
    Equality, hashing, ``repr`` and pickling see the sentence.

    Examples
    --------
    >>> e = Explanation(((2, 0),), ((1, 0),), False, lambda: "the 1 at [1,0] ...")
    >>> e.text, e == Explanation(((2, 0),), ((1, 0),), False, "the 1 at [1,0] ...")
    ('the 1 at [1,0] ...', True)
    """

    cells: tuple[tuple[int, int], ...]
    clues: tuple[tuple[int, int], ...]
    uses_total: bool
    _text: str | Callable[[], str]

    def __init__(self, cells: tuple[tuple[int, int], ...], clues: tuple[tuple[int, int], ...], uses_total: bool,
                 text: str | Callable[[], str]):
        fields = self.__dict__  # frozen: written once, here (as Deduction does)
        fields["cells"] = cells
        fields["clues"] = clues
        fields["uses_total"] = uses_total
        fields["_text"] = text

    @property
    def text(self) -> str:
        """The sentence (made on first reading when it was given as a function)."""
        text = self._text
        if not isinstance(text, str):
            text = self.__dict__["_text"] = text()
        return text

    def _key(self) -> tuple:
        return self.cells, self.clues, self.uses_total, self.text

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Explanation(cells={self.cells!r}, clues={self.clues!r}, uses_total={self.uses_total!r}, "
                f"text={self.text!r})")

    def __reduce__(self):
        return self.__class__, self._key()


@dataclass(frozen=True)
class Contradiction:
    """A small set of clues (``(x, y)`` each, and maybe the total) that no layout satisfies.

    ``minimal`` says whether it was shrunk until no clue (nor the total) could be
    dropped; a set too large to shrink in time is still checked to hold no layout.
    ``clash`` says how it was found (at a glance on one number or on the counter, or
    by a search over several clues), and ``names_total`` whether ``text`` names the
    mine total itself, so that one who shows ``text`` need not read it to know
    whether to add that the total takes part.
    """

    clues: tuple[tuple[int, int], ...]
    uses_total: bool
    text: str
    minimal: bool = True
    clash: Clash = Clash.NO_LAYOUT
    names_total: bool = False


@dataclass(frozen=True)
class SolveResult:
    """The outcome of one solver on one position.

    ``safe`` and ``mines`` are ``(x, y)`` in row order. ``complete`` is False when a
    bounded search stopped early: the proven cells are still proven, but a complete
    solver may have missed some.

    The solvers find every reason at once, but put ``deductions`` and
    ``explanations`` together from them when either is first read (an analysis
    is often asked for its cells and probabilities alone); equality, ``repr``,
    copies and pickling see them as if they had been made at once.

    Examples
    --------
    >>> r = SolveResult._assembled(SolverName.SAT, ((0, 0),), (), True, {},
    ...                            lambda: ((Deduction((0, 0), False, ((1, 0),)),), ()))
    >>> r.deductions[0].clues, r == SolveResult(SolverName.SAT, ((0, 0),), (), r.deductions)
    (((1, 0),), True)
    """

    solver: SolverName
    safe: tuple[tuple[int, int], ...] = ()
    mines: tuple[tuple[int, int], ...] = ()
    # default_factory, not a default: no class attribute, so that a result whose
    # parts are not put together yet reaches __getattr__ for them
    deductions: tuple[Deduction, ...] = field(default_factory=tuple)
    explanations: tuple[Explanation, ...] = field(default_factory=tuple)
    contradiction: Contradiction | None = None
    complete: bool = True
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def consistent(self) -> bool:
        return self.contradiction is None

    @classmethod
    def _assembled(cls, solver: SolverName, safe: tuple, mines: tuple, complete: bool, stats: dict,
                   assemble: Callable[[], tuple[tuple[Deduction, ...], tuple[Explanation, ...]]]) -> "SolveResult":
        """A consistent result whose ``(deductions, explanations)`` ``assemble()`` makes
        when first read (the fields go straight into the instance's dict, as
        :class:`Deduction` writes its own)."""
        self = object.__new__(cls)
        fields = self.__dict__
        fields["solver"] = solver
        fields["safe"] = safe
        fields["mines"] = mines
        fields["contradiction"] = None
        fields["complete"] = complete
        fields["stats"] = stats
        fields["_assemble"] = assemble
        return self

    def __getattr__(self, name: str):
        # reached only for what the instance lacks: the parts not put together yet
        if name == "deductions" or name == "explanations":
            fields = self.__dict__
            assemble = fields.get("_assemble")
            if assemble is not None:
                fields["deductions"], fields["explanations"] = assemble()
                fields.pop("_assemble", None)
                return fields[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict:
        self.deductions  # noqa: B018 - put together before a copy or a pickle is taken
        return {k: v for k, v in self.__dict__.items() if k != "_assemble"}


@dataclass(frozen=True)
class Proven:
    """What :func:`~mscsp.analysis.solvers.deduce` proves: cells and nothing else.

    Attributes
    ----------
    safe, mines : tuple of (int, int)
        The proven safe cells and mines, ``(x, y)`` in row order.
    complete : bool
        False when a bounded search ran out of time: what is proven still holds, but
        a complete solver may have missed some cells.
    by_index : dict
        The same cells by flat index ``y * width + x``, True for a mine: the form the
        play loops and engines work in.

    Examples
    --------
    >>> from mscsp.position import parse_position
    >>> from mscsp.analysis import deduce
    >>> p = deduce(parse_position("mines: 2\\n.....\\n.121.\\n"))
    >>> p.mines, p.safe, p.complete
    (((1, 0), (3, 0)), ((0, 0), (2, 0), (4, 0), (0, 1), (4, 1)), True)
    """

    safe: tuple[tuple[int, int], ...]
    mines: tuple[tuple[int, int], ...]
    complete: bool
    by_index: dict[int, bool] = field(repr=False, compare=False)

    @classmethod
    def _of(cls, geometry, known: dict[int, bool], complete: bool) -> "Proven":
        """The cells of ``known`` (flat index -> mine) named on ``geometry``."""
        order = sorted(known)
        coords = geometry.coords
        return cls(tuple(coords(c) for c in order if not known[c]), tuple(coords(c) for c in order if known[c]),
                   complete, known)
