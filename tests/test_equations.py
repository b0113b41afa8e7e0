"""The clue equations read off the grid by the compiled pass (``_equations.c``) are the
NumPy path's, and what a plain reading of the rules gives: one equation per number with
a covered neighbour, in cell order, its covered neighbours ascending, the number less
the flags it touches; and a number that cannot be met is refused the same way."""

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import EXAMPLES, require_built
from oracles import brute_neighbours
from strategies import small_positions

from mscsp.analysis import constraints as constraints_module
from mscsp.analysis.constraints import COMPILED_EQUATIONS, build_constraints
from mscsp.errors import InconsistentError
from mscsp.position import Mark


def _plain(position):
    """The equations by the rules, or None when a number cannot be met."""
    g = position.geometry
    holes = frozenset(range(g.area)) - set(g.cells.tolist())
    grid = position.grid.tolist()
    out = []
    for clue, code in enumerate(grid):
        if not 0 <= code <= 8:
            continue
        around = brute_neighbours(g.width, g.height, holes, clue)
        cells = sorted(c for c in around if grid[c] == Mark.COVERED)
        flags = sum(grid[c] == Mark.FLAG for c in around)
        need = code - flags
        if need < 0 or need > len(cells):
            return None
        if cells:
            out.append((tuple(cells), need, clue))
    return out


def _built(position):
    try:
        system = build_constraints(position)
    except InconsistentError as err:
        return err
    ptr, cells, counts = (array("i", part).tolist() for part in system.csr)
    return ([(c.cells, c.count, c.clue) for c in system.constraints], system.remaining, system.covered,
            (ptr, cells, counts))


def _csr(equations):
    """Offsets, cells and counts of equations given as (cells, count, clue)."""
    ptr = [0]
    for cells, _, _ in equations:
        ptr.append(ptr[-1] + len(cells))
    return ptr, [c for cells, _, _ in equations for c in cells], [count for _, count, _ in equations]


def test_the_compiled_reading_is_built_where_required():
    """MSCSP_REQUIRE_FASTPLAY=1 (CI sets it) requires every C accelerator built."""
    require_built(COMPILED_EQUATIONS, "the compiled reading of equations")


@settings(max_examples=EXAMPLES)
@given(small_positions(), st.booleans())
def test_equations_are_the_rules_and_the_same_either_way(position, with_total):
    if not with_total:
        position = position.with_mines(None)
    compiled = _built(position)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(constraints_module, "_compiled_equations", None)
        numpy_path = _built(position)
    plain = _plain(position)
    if plain is None:  # a number that cannot be met: both refuse it, naming the same clue
        assert isinstance(compiled, InconsistentError) and isinstance(numpy_path, InconsistentError)
        assert compiled.clues == numpy_path.clues and str(compiled) == str(numpy_path)
        return
    if isinstance(compiled, InconsistentError):  # the total against the flags or the covered cells
        assert isinstance(numpy_path, InconsistentError) and str(compiled) == str(numpy_path)
        return
    assert compiled == numpy_path  # the compiled pass's int32 arrays too, against the property's
    assert compiled[0] == plain and compiled[3] == _csr(plain)
    assert all(type(c) is int for cells, _, clue in compiled[0] for c in (*cells, clue))


def test_holes_and_flags():
    from mscsp.position import parse_position

    # the 1 at [0,0] has its flag and no covered neighbour (the cell below it is a hole): no equation
    p = parse_position("mines: 3\n1F.\n-2.\n..1\n")
    assert _built(p)[0] == _plain(p) == [((2, 5, 6, 7), 1, 4), ((5, 7), 1, 8)]
