from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force
from pysat.formula import CNF
from pysat.solvers import Solver
from strategies import small_positions

from mscsp.errors import InconsistentError
from mscsp.position import parse_position
from mscsp.reduction.dimacs import format_dimacs


@settings(max_examples=150)
@given(small_positions(max_covered=9), st.booleans())
def test_model_count_of_the_export_equals_the_layout_count(position, use_total):
    try:
        text = format_dimacs(position, use_total=use_total)
    except InconsistentError:
        assert brute_force(position, use_total=use_total)["count"] == 0
        return
    cnf = CNF(from_string=text)
    nv = int(next(line for line in text.splitlines() if line.startswith("p cnf")).split()[2])
    with Solver(name="g4", bootstrap_with=cnf.clauses + [[v, -v] for v in range(1, nv + 1)]) as s:
        models = sum(1 for _ in s.enum_models())
    assert models == brute_force(position, use_total=use_total)["count"]


def test_header_maps_variables_to_cells():
    text = format_dimacs(parse_position("mines: 1\n.1.\n"))
    assert "c cell 1 0 0" in text and "c cell 2 2 0" in text
    assert "c p show 1 2 0" in text
    assert any(line.startswith("p cnf ") for line in text.splitlines())
