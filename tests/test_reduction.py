import json
import random
from collections import Counter
from itertools import product
from math import comb
from pathlib import Path

import pytest
from oracles import enumerate_tile
from pysat.solvers import Solver

from mscsp.analysis.consistency import check_witness, decide
from mscsp.cli import main
from mscsp.errors import InconsistentError
from mscsp.position import Mark, parse_position
from mscsp.reduction.cnf import CNF, parse_dimacs
from mscsp.reduction.compile import compile_cnf, decode, read_map
from mscsp.reduction.gadgets import GADGETS, PORT, TILE


def _virtual(gadget):
    """The neighbours' port cells next to the W and N ports."""
    return {name: (x - 1, y) if name[0] == "W" else (x, y - 1)
            for name, (x, y) in gadget.ports.items() if name[0] in "WN"}


def _negated(name: str) -> bool:
    return name.endswith("_NOT")


def _true_literals(name: str, values: dict[str, int]) -> int:
    """For a clause: how many of its literals are true (the bus, negated by _NOT, and
    the literals arriving from the west or east)."""
    return (values["N"] ^ _negated(name)) + sum(v for k, v in values.items() if k[0] in "WE")


def _allows(name: str, values: dict[str, int]) -> bool:
    """The relation each gadget is meant to enforce between its ports' signals (for W
    and N ports the neighbour's port cell, for E and S the tile's own)."""
    if "N" in values and "S" in values and values["N"] != values["S"]:
        return False  # a bus passes through every tile of its column unchanged
    if name in ("SRC", "V"):
        return True
    if name in ("H", "CROSS"):
        return values["E"] == values["W"]
    if name.startswith("TAP_"):
        branch = "E" if name.startswith("TAP_E") else "W"
        return values[branch] == (values["N"] ^ _negated(name))
    if name.startswith("CLAUSE_"):
        return _true_literals(name, values) >= 1
    raise KeyError(name)


@pytest.mark.parametrize("name", sorted(GADGETS))
def test_every_gadget_alone_has_exactly_the_intended_layouts(name):
    gadget = GADGETS[name]
    virtual = _virtual(gadget)
    layouts = enumerate_tile(gadget.rows, list(virtual.values()))
    cells = {n: virtual.get(n, gadget.ports[n]) for n in gadget.ports}
    seen = Counter(tuple((n, lay[cells[n]]) for n in sorted(cells)) for lay in layouts)
    for values in product((0, 1), repeat=len(cells)):
        key = tuple(zip(sorted(cells), values))
        d = dict(key)
        if not _allows(name, d):
            assert seen[key] == 0, (name, d)
            continue
        if name.startswith("CLAUSE"):
            k, t = 1 + sum(1 for p in gadget.ports if p[0] in "WE"), _true_literals(name, d)
            expected = comb(k - 1, k - t)  # the free cells take up the slack
        else:
            expected = 1  # wires, taps and crossings are functions of their inputs
        assert seen[key] == expected, (name, d, seen[key], expected)


def test_every_tile_is_a_position_file():
    # the tiles are data in the position format, so the parser reads each one whole
    from mscsp.reduction import gadgets

    folder = Path(gadgets.__file__).parent / "tiles"
    assert sorted(p.stem for p in folder.glob("*.txt")) == sorted(GADGETS)
    for name, gadget in GADGETS.items():
        position = parse_position((folder / f"{name}.txt").read_text())
        assert position.rows() == list(gadget.rows)


def test_gadgets_fit_the_tile_grid():
    for g in GADGETS.values():
        assert g.width == TILE and g.height in (TILE, 2 * TILE)
        assert all(len(r) == g.width for r in g.rows)
        for name, (x, y) in g.ports.items():
            assert (x == PORT) if name in "NS" else (y % TILE == PORT)


def _sat(cnf: CNF):
    with Solver(name="g4", bootstrap_with=[list(c) for c in cnf.clauses]) as s:
        ok = s.solve()
        return ok


def _random_cnf(rng, n, m, k=3):
    clauses = []
    for _ in range(m):
        width = rng.choice([1, 2, 3, 3, 3]) if k == 3 else k
        vs = rng.sample(range(1, n + 1), min(width, n))
        clauses.append(tuple(v if rng.random() < 0.5 else -v for v in vs))
    return CNF(n, tuple(clauses))


@pytest.mark.parametrize("seed", range(40))
def test_compiled_board_is_consistent_exactly_when_satisfiable(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    cnf = _random_cnf(rng, n, rng.randint(1, 9))
    compiled = compile_cnf(cnf)
    verdict = decide(compiled.position)
    assert verdict.consistent == _sat(cnf)
    if verdict.consistent:
        check_witness(compiled.position, verdict.witness)
        assignment = decode(verdict.witness, read_map(compiled.map_json(), compiled.position.geometry))
        assert cnf.satisfied_by(assignment)
    else:
        assert verdict.contradiction.clues
    # the verdict alone, without a small reason: the same answer, naming the whole
    # part the explained clash was shrunk from (so it cannot hold either)
    quick = decide(compiled.position, explain=False)
    assert quick.consistent == verdict.consistent
    if not quick.consistent:
        assert not quick.contradiction.minimal
        assert set(verdict.contradiction.clues) <= set(quick.contradiction.clues)


def test_every_decoded_assignment_is_a_model():
    # force each satisfying assignment in turn by unit clauses: all decode correctly
    base = [(1, 2, 3), (-1, -2), (-2, -3), (2, 3)]
    for bits in product((1, -1), repeat=3):
        cnf = CNF(3, tuple(base) + tuple((b * v,) for v, b in zip((1, 2, 3), bits)))
        compiled = compile_cnf(cnf)
        verdict = decide(compiled.position)
        assert verdict.consistent == _sat(cnf)
        if verdict.consistent:
            assignment = decode(verdict.witness, read_map(compiled.map_json(), compiled.position.geometry))
            assert [assignment[v] for v in (1, 2, 3)] == [b > 0 for b in bits]


def test_tautologies_repeats_and_empty_clauses():
    assert decide(compile_cnf(CNF(2, ((1, -1), (2, 2)))).position).consistent
    assert not decide(compile_cnf(CNF(2, ((1, 2), ()))).position).consistent
    assert decide(compile_cnf(CNF(0, ())).position).consistent


def test_dimacs_parsing_errors_are_located():
    with pytest.raises(ValueError) as err:
        parse_dimacs("p cnf 2 1\n1 x 0\n", source="f.cnf")
    assert str(err.value).startswith("f.cnf:2:3:")
    with pytest.raises(ValueError, match="above 2"):
        parse_dimacs("p cnf 2 1\n1 3 0\n")
    with pytest.raises(ValueError, match="before the 'p cnf'"):
        parse_dimacs("1 2 0\n")
    cnf = parse_dimacs("c hi\np cnf 3 2\n1 -2\n 3 0\n-1 0\n")
    assert cnf.clauses == ((1, -2, 3), (-1,)) and cnf.comments == ("hi",)
    assert parse_dimacs(cnf.to_dimacs()) == cnf
    # PySAT reads our DIMACS and our reader reads PySAT's, clause for clause
    from pysat.formula import CNF as PysatCNF

    theirs = PysatCNF(from_string=cnf.to_dimacs())
    assert (theirs.nv, theirs.clauses) == (3, [[1, -2, 3], [-1]])
    assert parse_dimacs(theirs.to_dimacs()).clauses == cnf.clauses


def test_cli_round_trip(tmp_path, capsys):
    f = tmp_path / "f.cnf"
    f.write_text("p cnf 3 3\n1 2 0\n-1 3 0\n-3 -2 0\n")
    board, mapping = tmp_path / "f.txt", tmp_path / "f.map"
    assert main(["from-cnf", str(f), "--map", str(mapping)]) == 0
    board.write_text(capsys.readouterr().out)
    assert main(["consistent", str(board), "--json", "--decode", str(mapping)]) == 0
    record = json.loads(capsys.readouterr().out)
    assignment = {int(k): v for k, v in record["assignment"].items()}
    assert record["consistent"] and parse_dimacs(f.read_text()).satisfied_by(assignment)
    assert main(["consistent", str(board)]) == 0
    witness = capsys.readouterr().out
    from mscsp.board import parse_layout
    check_witness(parse_position(board.read_text()), parse_layout(witness))
    g = tmp_path / "g.cnf"
    g.write_text("p cnf 1 2\n1 0\n-1 0\n")
    assert main(["from-cnf", str(g)]) == 0
    board.write_text(capsys.readouterr().out)
    assert main(["consistent", str(board)]) == 1
    assert "inconsistent" in capsys.readouterr().out
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 1 1\n2 0\n")
    assert main(["from-cnf", str(bad)]) == 2


def test_a_million_cell_board_with_ten_openings_is_solved_quickly():
    import time

    import numpy as np

    from mscsp.analysis.full import analyse
    from mscsp.board import Geometry
    from mscsp.game import Game
    from mscsp.report import solve_record
    from mscsp.rules import place_mines

    g = Geometry(1000, 1000)
    layout = place_mines(g, 150_000, "uniform", (0, 0), 2026)
    game = Game(layout, record=False)
    zeros = np.flatnonzero((layout.numbers == 0) & ~layout.mines)
    for c in np.random.default_rng(5).choice(zeros, size=10, replace=False).tolist():
        game.reveal(game.geometry.coords(c))
    position = game.position()
    started = time.perf_counter()
    analysis = analyse(position)
    record = solve_record(analysis)
    assert time.perf_counter() - started < 30
    assert analysis.complete and analysis.exact
    # every proven cell matches the hidden layout
    for xy in analysis.safe:
        assert not layout.is_mine(xy)
    for xy in analysis.mines:
        assert layout.is_mine(xy)
    assert len(record["layouts"]) > 100_000
    # cells away from the openings: the total spread over them, exactly
    far = analysis.probabilities.by_index[g.index(999, 999)] if position.grid[999_999] == -1 else None
    if far is not None:
        assert 0 < far < 1


def _board_layouts(cnf: CNF) -> int:
    """Layouts of the compiled board, counted from the formula alone: every gadget but
    the clauses is a function of its inputs, and a clause of k literals with t true has
    C(k - 1, k - t) fillings of its free cells (both checked tile by tile above)."""
    clauses = [sorted(set(c)) for c in cnf.clauses if not any(-lit in c for lit in c)]
    used = sorted({abs(lit) for c in clauses for lit in c})
    total = 0
    for values in product((False, True), repeat=len(used)):
        value = dict(zip(used, values))
        ways = 1
        for c in clauses:
            t = sum(value[abs(lit)] == (lit > 0) for lit in c)
            ways *= comb(len(c) - 1, len(c) - t) if t else 0
        total += ways
    return total


@pytest.mark.parametrize("seed", range(10))
def test_counting_a_compiled_board_is_exact(seed):
    from mscsp.analysis.counting import count_layouts

    rng = random.Random(seed)
    n = rng.randint(4, 8)
    cnf = _random_cnf(rng, n, rng.randint(n, 3 * n))
    expected = _board_layouts(cnf)
    if expected == 0:  # an unsatisfiable formula: a board no layout fits
        with pytest.raises(InconsistentError):
            count_layouts(compile_cnf(cnf).position)
    else:
        assert count_layouts(compile_cnf(cnf).position) == expected


def test_counting_a_twelve_variable_board_is_exact_and_quick():
    # 12 variables, 40 clauses: 22,287 covered cells in one component (the board that
    # once ran out of memory), counted exactly along its chains of links
    import time

    from mscsp.analysis.counting import probabilities
    from mscsp.budget import Budget

    rng = random.Random(12)
    while True:
        cnf = _random_cnf(rng, 12, 40)
        if _sat(cnf):
            break
    started = time.perf_counter()
    result = probabilities(compile_cnf(cnf).position, budget=Budget.of(30))
    assert result.exact and result.layouts == _board_layouts(cnf)
    assert time.perf_counter() - started < 30


def _clues_clash(position, clues) -> bool:
    """Whether no layout satisfies ``clues`` ((x, y) open numbers) on their own, by an
    encoding written here (PySAT's cardinality constraints), not the engine's."""
    from pysat.card import CardEnc, EncType

    g = position.geometry
    grid = position.grid
    var: dict[int, int] = {}
    clauses, aux = [], 10**7  # auxiliary variables far above the cells'
    for x, y in clues:
        around = [(y + dy) * g.width + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                  if (dx or dy) and 0 <= x + dx < g.width and 0 <= y + dy < g.height]
        cells = [c for c in around if grid[c] == Mark.COVERED]  # compiled boards have no flags
        lits = [var.setdefault(c, len(var) + 1) for c in cells]
        number = int(grid[y * g.width + x])
        enc = CardEnc.equals(lits=lits, bound=number, top_id=aux, encoding=EncType.seqcounter) if lits else None
        if enc is None:
            if number:
                return True
            continue
        clauses.extend(enc.clauses)
        aux = max(aux, enc.nv)
    with Solver(name="g4", bootstrap_with=clauses) as s:
        return not s.solve()


def _normalised(cnf: CNF):
    from mscsp.reduction.compile import _normalise

    clauses, empty = _normalise(cnf)
    used = sorted({abs(l) for c in clauses for l in c})
    col = {v: i + 1 for i, v in enumerate(used)}
    return [tuple(sorted(((col[abs(l)] if l > 0 else -col[abs(l)]) for l in c), key=lambda l: (abs(l), l)))
            for c in clauses], empty


@pytest.mark.parametrize("seed", range(30))
def test_a_compiled_board_reads_back_into_its_formula(seed):
    from mscsp.reduction.lift import read_tiles

    rng = random.Random(1000 + seed)
    cnf = _random_cnf(rng, rng.randint(1, 6), rng.randint(1, 9))
    clauses, empty = _normalised(cnf)
    tiles = read_tiles(compile_cnf(cnf).position)
    if empty or not clauses:
        assert tiles is None
        return
    assert [c.literals for c in tiles.clauses] == clauses


def test_boards_that_were_not_compiled_are_not_read_as_tiles():
    from mscsp.reduction.lift import lifted_core, read_tiles

    assert read_tiles(parse_position("mines: 1\n.1.\n")) is None
    board = compile_cnf(parse_dimacs("p cnf 2 2\n1 2 0\n-1 0\n")).position
    assert read_tiles(board) is not None
    grid = board.grid.copy()
    first = int(next(i for i, v in enumerate(grid) if v == 1))
    grid[first] = 2  # one number changed: no tile drawing matches any more
    from mscsp.position import Position

    assert read_tiles(Position(board.geometry, grid, None)) is None
    assert lifted_core(board) is None  # satisfiable: no core to lift


@pytest.mark.parametrize("seed", range(5))
def test_a_lifted_core_clashes_on_its_own_and_bounds_the_reason(seed):
    from mscsp.reduction.lift import lifted_core

    rng = random.Random(2000 + seed)
    while True:
        cnf = _random_cnf(rng, rng.randint(2, 5), rng.randint(6, 14))
        clauses, empty = _normalised(cnf)
        if clauses and not empty and not _sat(cnf):
            break
    position = compile_cnf(cnf).position
    lifted = lifted_core(position)
    assert lifted and _clues_clash(position, lifted)
    assert len(lifted) <= int((position.grid >= 0).sum())
    verdict = decide(position, hint=lifted, time_limit=5.0)
    assert not verdict.consistent
    assert set(verdict.contradiction.clues) <= set(lifted)
    assert _clues_clash(position, verdict.contradiction.clues)
