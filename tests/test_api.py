"""The flat public API: every name resolves, engines load lazily, cells go in as (x, y),
and the README's "API in ten lines" runs as written."""

from __future__ import annotations

import doctest
import enum
import inspect
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from oracles import brute_force
from strategies import small_positions

import mscsp
from mscsp.board import Layout, Spec

ROOT = Path(__file__).resolve().parent.parent

#: Modules that pull in a SAT solver, CP-SAT or the compiled loop: none of
#: them may load with ``import mscsp``.
HEAVY = ["pysat", "ortools", "mscsp.analysis.solvers", "mscsp.analysis.counting", "mscsp.analysis",
         "mscsp.play.noguess", "mscsp.play", "mscsp.reduction", "mscsp.play._fastplay"]


def test_every_public_name_resolves_and_is_documented():
    for name in mscsp.__all__:
        value = getattr(mscsp, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"mscsp.{name} has no docstring"
    assert set(mscsp.__all__) <= set(dir(mscsp))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        mscsp.nonsense  # noqa: B018


def test_the_engines_load_on_first_use_only():
    code = ("import sys, mscsp; heavy = %r; "
            "print(' '.join(m for m in heavy if m in sys.modules))" % HEAVY)
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""
    code = "import sys, mscsp; mscsp.analyse; print('mscsp.analysis.solvers' in sys.modules, 'mscsp.play.noguess' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]


def test_the_function_wins_over_a_submodule_of_the_same_name():
    import mscsp.play.verify  # noqa: F401  (importing the module must not shadow the function)

    assert callable(mscsp.verify) and mscsp.verify.__module__ == "mscsp.play.verify"


@pytest.mark.parametrize("bad", [40, (4,), (4, 4, 0), (4.0, 4), "4,4", (True, 4), None, (9, 0), (-1, 2)])
def test_every_public_edge_takes_x_y_and_nothing_else(bad):
    spec = Spec(9, 9, 10)
    layout = mscsp.generate(spec, "safe", (4, 4), seed=1).layout
    game = mscsp.Game(layout)
    calls = [
        lambda: mscsp.generate(spec, "safe", bad, seed=1),
        lambda: mscsp.place_mines(spec.geometry, 10, "safe", bad, 1),
        lambda: mscsp.verify(layout, bad),
        lambda: mscsp.generate_no_guess(spec, "safe", bad, seed=1),
        lambda: mscsp.generate_no_guess(spec, "safe", bad, seed=1, method="uniform"),
        lambda: mscsp.sample_no_guess(spec, "safe", bad, 8, seed=1, chains=2),
        lambda: game.reveal(bad),
        lambda: game.flag(bad),
    ]
    for call in calls:
        with pytest.raises(mscsp.InputError, match=r"must be a pair \(x, y\)|is not a cell of this 9x9 board"):
            call()


def test_x_is_the_column_and_y_the_row():
    # one mine in the top-right corner of a 3x2 board: only [2, 0] holds it
    layout = Layout.from_rows(["..*", "..."])
    board = mscsp.place_mines(layout.geometry, 1, "safe", (0, 1), 0)
    assert not board.is_mine((0, 1))
    game = mscsp.Game(layout)
    game.reveal((0, 1))  # the zero at [0, 1] opens the left four cells
    assert game.position().rows() == ["01.", "01."]


def test_the_readme_api_in_ten_lines_runs_as_written():
    failures, attempted = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted >= 8 and failures == 0


# -- results answer in (x, y), checked against brute-force enumeration ------------------

def _xy(position, cells):
    return tuple(sorted((position.geometry.coords(c) for c in cells), key=lambda xy: (xy[1], xy[0])))


@settings(max_examples=60, deadline=None)
@given(small_positions(allow_wrong=False))
def test_analysis_and_deduce_name_cells_as_x_y(position):
    truth = brute_force(position)
    a = mscsp.analyse(position)
    assert a.consistent == (truth["count"] > 0)
    if not truth["count"]:
        assert a.contradiction is not None and all(len(xy) == 2 for xy in a.contradiction.clues)
        assert a.layouts is None and a.best is None
        return
    assert a.mines == _xy(position, truth["mine"]) and a.safe == _xy(position, truth["safe"])
    assert a.layouts == truth["count"]
    p = mscsp.deduce(position)
    assert (p.safe, p.mines) == (a.safe, a.mines)
    assert p.by_index == {c: True for c in truth["mine"]} | {c: False for c in truth["safe"]}
    for x, y in position.covered_xy:
        if position.mines is not None:  # with the total every covered cell has an exact share
            c = position.geometry.index(x, y)
            assert a.probability((x, y)) == Fraction(truth["per_cell"][c], truth["count"])
    if a.best is not None:
        best = position.geometry.index(*a.best)
        assert best not in truth["mine"] and (not truth["safe"] or best in truth["safe"])
    for e in a.explanations:
        for xy in e.cells:
            assert a.why(xy) == e.text and (xy in a.mines or xy in a.safe)


def test_decide_names_the_clues_of_a_contradiction_as_x_y():
    v = mscsp.decide(mscsp.parse_position(".1.\n.3.\n"))
    assert not v.consistent and v.contradiction.clues == ((1, 0), (1, 1))


def test_a_no_guess_board_is_a_board_that_knows_its_click():
    ng = mscsp.generate_no_guess(Spec(9, 9, 10), "opening", (4, 4), seed=5)
    assert isinstance(ng, mscsp.GeneratedBoard) and ng.click == (4, 4)
    assert mscsp.verify(ng).solved  # its own click, its own guarantee
    game = mscsp.Game.from_board(ng)
    opened = game.reveal((4, 4))
    assert opened[0] == (4, 4) and all(game.position().grid[game.geometry.index(*xy)] >= 0 for xy in opened)


def test_opening_probability_takes_the_click_as_x_y():
    g = mscsp.Geometry(9, 9)
    # the closed form for "safe": C(n - 9, m) / C(n - 1, m) away from the edges
    from math import comb

    assert mscsp.opening_probability(g, 10, "safe", (4, 4)) == Fraction(comb(72, 10), comb(80, 10))
    with pytest.raises(mscsp.InputError, match="not a cell"):
        mscsp.opening_probability(g, 10, "safe", (9, 4))


@pytest.mark.parametrize("use", [
    "mscsp.opening_probability(mscsp.Geometry(9, 9), 10, 'safe', 40)",
    "pos.number(6)",
    "pos.opened(0, 1)",
    "pos.with_flags([0])",
    "mscsp.parse_layout('*.\\n').is_mine(0)",
    "mscsp.Action(mscsp.ActionKind.FLAG, 0)",
    "mscsp.Game(mscsp.parse_layout('*.\\n')).apply(('reveal', 1))",
    "mscsp.Game(mscsp.parse_layout('*.\\n')).shown(1)",
    "mscsp.Game(mscsp.parse_layout('*.\\n')).is_revealed(1)",
    "mscsp.analysis.Survey(pos).opened(0, 1)",
    "mscsp.analysis.Survey(pos).flagged([0])",
    "mscsp.play.play_game(mscsp.Game(mscsp.parse_layout('*..\\n...\\n')), 2)",
])
def test_a_flat_index_where_a_cell_is_taken_is_an_input_error(use):
    pos = mscsp.parse_position("mines: 2\n.....\n.121.\n")
    with pytest.raises(mscsp.InputError, match=r"must be a pair \(x, y\)"):
        eval(use, {"mscsp": mscsp, "pos": pos})


@pytest.mark.parametrize("name", ["solve", "consistent"])
def test_each_question_has_one_verb(name):
    with pytest.raises(AttributeError, match=f"no attribute '{name}'"):
        getattr(mscsp, name)


def test_the_survey_and_the_play_loop_take_cells_as_x_y():
    pos = mscsp.parse_position("mines: 2\n.....\n.121.\n")
    survey = mscsp.analysis.Survey(pos)
    # by hand: the 1-2-1 under five covered cells has one layout, mines at [1,0] and [3,0]
    assert [survey.opened((0, 0), 1).layouts, survey.flagged([(1, 0), (3, 0)]).layouts] == [1, 1]
    with pytest.raises(mscsp.InconsistentError):
        survey.flagged([(0, 0)]).layouts
    # the click [0,2] opens everything but the mine's corner
    played = mscsp.play.play_game(mscsp.Game(mscsp.parse_layout("..*\n...\n...\n")), (0, 2))
    assert (played.won, played.guesses, played.opened, played.guessed) == (True, 0, 8, ())


def test_the_exploded_mine_is_named_by_x_y():
    game = mscsp.Game(mscsp.parse_layout("...\n..*\n"))
    assert game.exploded is None and game.exploded_index is None
    game.reveal((2, 1))
    assert game.status is mscsp.Status.LOST
    assert (game.exploded, game.exploded_index) == ((2, 1), 5)


def _mscsp_types(annotation: str) -> set[str]:
    return {name for name in re.findall(r"\b[A-Z][A-Za-z]+\b", annotation)}


def test_every_type_in_a_public_signature_is_exported():
    exported = set(mscsp.__all__)
    missing = {}
    for name in mscsp.__all__:
        value = getattr(mscsp, name)
        if inspect.isfunction(value):
            hints = {k: str(v) for k, v in value.__annotations__.items()}
            where = value.__globals__
        elif inspect.isclass(value) and hasattr(value, "__dataclass_fields__"):
            hints = {k: str(f.type) for k, f in value.__dataclass_fields__.items() if not k.startswith("_")}
            where = vars(sys.modules[value.__module__])
        else:
            continue
        for arg, text in hints.items():
            for t in _mscsp_types(text):
                obj = where.get(t)
                if isinstance(obj, type) and obj.__module__.startswith("mscsp.") and t not in exported:
                    missing.setdefault(t, []).append(f"{name}.{arg}")
    assert not missing, f"types in public signatures that mscsp does not export: {missing}"


def test_one_keyword_chooses_each_engine():
    # the deduction rung is solver= (the CLI's --solver), the counting engine counter=
    # (the CLI's --counter), wherever a public function takes them
    for name in mscsp.__all__:
        value = getattr(mscsp, name)
        if inspect.isfunction(value):
            params = set(inspect.signature(value).parameters)
            assert not params & {"backend", "engine"}, (name, params)
    assert {"solver", "counter"} <= set(inspect.signature(mscsp.analyse).parameters)
    assert "counter" in inspect.signature(mscsp.probabilities).parameters
    for verb in (mscsp.deduce, mscsp.verify, mscsp.generate_no_guess):
        assert "solver" in inspect.signature(verb).parameters
    pos = mscsp.parse_position("mines: 2\n.....\n.121.\n")
    with pytest.raises(TypeError):
        mscsp.probabilities(pos, backend="dp")
    with pytest.raises(mscsp.InputError, match="unknown counter"):
        mscsp.count_layouts(pos, counter="sat")
    with pytest.raises(mscsp.InputError, match="unknown counter"):
        mscsp.deduce(pos, counter="count")
    # by hand: the 1-2-1 under five covered cells has one layout, mines at [1,0] and [3,0]
    expected = {(x, y): Fraction(int((x, y) in ((1, 0), (3, 0)))) for x, y in pos.covered_xy}
    for counter in ("dp", "cpsat"):
        assert mscsp.probabilities(pos, counter=counter).cells == expected
        assert mscsp.analyse(pos, counter=counter).mines == ((1, 0), (3, 0))
    for counter in ("auto", "dp", None):
        assert mscsp.deduce(pos, counter=counter).mines == ((1, 0), (3, 0))


#: Attributes and methods whose answers name cells: each must be (x, y) (or None, or
#: a collection of such, or a table keyed by them). ``mines`` is a count on a Position,
#: Game and Replay, and a mask on a Layout; a name ending in ``_index`` (or
#: ``by_index``) and a numpy mask are the engines' flat forms, named so.
CELL_NAMES = {"safe", "mines", "cells", "best", "forced", "click", "cell", "covered_xy", "clues", "exploded",
              "intervals", "actions", "deductions", "explanations", "contradiction"}
#: Tables by something else (a variable of a formula) whose values name cells
#: (``CNF.variables`` is a count).
CELL_VALUES = {"variables", "buses"}
#: Methods that take one cell, asked with a covered cell; methods that change the game
#: are asked by the test itself.
CELL_ARGUMENT = {"cell", "where"}
CHANGES = {"reveal", "flag", "unflag", "chord", "apply", "play"}


def _is_xy(value) -> bool:
    return type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)


def _names_cells_as_xy(value) -> bool:
    """Whether ``value`` names its cells as (x, y): a pair, None, a record that names a
    cell (a Deduction, an Action), a collection of those, or a table keyed by pairs."""
    if value is None or _is_xy(value):
        return True
    if isinstance(value, dict):
        return all(_is_xy(k) for k in value)
    if isinstance(value, (tuple, list)):
        return all(_names_cells_as_xy(v) for v in value)
    if type(value).__module__.startswith("mscsp."):
        return True  # a record: walked on its own
    return False


def _walk(obj, where: str, seen: set, covered: tuple[int, int], bad: list) -> None:
    if id(obj) in seen or not type(obj).__module__.startswith("mscsp.") or isinstance(obj, (enum.Enum, type)):
        return
    if isinstance(obj, mscsp.Geometry):  # the translator: index(x, y) and coords(index)
        return
    seen.add(id(obj))
    for name in dir(obj):
        if name.startswith("_") or name.endswith("_index") or name in CHANGES:
            continue
        try:
            value = getattr(obj, name)
        except mscsp.MscspError:  # e.g. the layout of a game not started
            continue
        if callable(value) and not isinstance(value, type):
            try:
                params = [p for p in inspect.signature(value).parameters.values()
                          if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            except (TypeError, ValueError):
                continue
            if not params:
                value = value()
            elif len(params) == 1 and params[0].name in CELL_ARGUMENT:
                try:
                    value = value(covered)  # it takes (x, y): its answer is a number or a word
                except mscsp.InputError as err:
                    if "must be a pair" in str(err):
                        bad.append(f"{where}.{name} refuses (x, y)")
                    continue
                if isinstance(value, int) and not isinstance(value, bool) and name in CELL_NAMES:
                    bad.append(f"{where}.{name}({covered}) answers a flat index")
            else:
                continue
        if isinstance(value, np.ndarray):
            continue
        if name in CELL_NAMES and not (name == "mines" and type(value) is int):
            if not _names_cells_as_xy(value):
                bad.append(f"{where}.{name} = {value!r:.80}")
        if name in CELL_VALUES and isinstance(value, dict) and not all(_is_xy(v) or (isinstance(v, tuple) and all(map(_is_xy, v)))
                                           for v in value.values()):
            bad.append(f"{where}.{name} = {value!r:.80}")
        for item in (value if isinstance(value, (tuple, list)) else [value]):
            _walk(item, f"{where}.{name}", seen, covered, bad)


def test_every_answer_of_the_public_api_names_cells_as_x_y():
    pos = mscsp.parse_position("mines: 2\n.....\n.121.\n")
    clash = mscsp.parse_position(".1.\n.3.\n")
    spec = mscsp.Spec.preset("beginner")
    board = mscsp.generate(spec, "opening", (4, 4), seed=42)
    game = mscsp.Game.from_board(board)
    opened = game.reveal((4, 4))
    lost = mscsp.Game(mscsp.parse_layout("*..\n...\n"))
    lost.reveal((0, 0))
    cnf = mscsp.parse_dimacs("p cnf 2 2\n1 2 0\n-1 0\n")
    answers = {
        "parse_position": pos,
        "parse_layout": mscsp.parse_layout("*..\n..*\n"),
        "format_position": mscsp.format_position(pos),
        "format_layout": mscsp.format_layout(board.layout),
        "generate": board,
        "place_mines": mscsp.place_mines(spec.geometry, 10, "safe", (0, 0), 7),
        "analyse": [mscsp.analyse(pos), mscsp.analyse(clash), mscsp.analyse(pos, state_limit=0)],
        "deduce": mscsp.deduce(pos),
        "probabilities": [mscsp.probabilities(pos), mscsp.probabilities(pos, state_limit=0)],
        "count_layouts": mscsp.count_layouts(pos),
        "decide": [mscsp.decide(pos), mscsp.decide(clash)],
        "opening_probability": mscsp.opening_probability(spec.geometry, 10, "safe", (4, 4)),
        "wilson": mscsp.wilson(5, 10),
        "verify": mscsp.verify(board),
        "generate_no_guess": [mscsp.generate_no_guess(mscsp.Spec(9, 9, 10), "opening", (4, 4), seed=5),
                              mscsp.generate_no_guess(mscsp.Spec(9, 9, 10), "opening", (4, 4), seed=5,
                                                      method="uniform", retry_first=0)],
        "sample_no_guess": mscsp.sample_no_guess(mscsp.Spec(9, 9, 10), "opening", (4, 4), 8, seed=5, chains=2),
        "compile_cnf": mscsp.compile_cnf(cnf),
        "parse_dimacs": cnf,
        "position_to_cnf": mscsp.position_to_cnf(pos),
    }
    functions = {name for name in mscsp.__all__ if inspect.isfunction(getattr(mscsp, name))}
    assert functions == set(answers), "a public function to add to this walk"
    # the game's own verbs, and what it hands out
    assert all(map(_is_xy, opened)) and opened[0] == (4, 4)
    assert game.apply(("flag", (0, 0))) == () and game.actions[-1].cell == (0, 0)
    assert lost.exploded == (0, 0)
    answers["Game"] = [game, lost, game.position(), game.replay()]
    bad: list[str] = []
    seen: set = set()
    for name, answer in answers.items():
        for value in (answer if isinstance(answer, list) else [answer]):
            if isinstance(value, tuple) and name == "position_to_cnf":
                assert all(map(_is_xy, value[1]))  # the variable of each cell, by (x, y)
                value = value[0]
            _walk(value, name, seen, (0, 0), bad)
    assert not bad, bad
    # the walk reached the answers that name cells
    a = answers["analyse"][0]
    assert a.mines == ((1, 0), (3, 0)) and a.best == (0, 0)
    assert answers["probabilities"][0].forced() == {xy: xy in a.mines for xy in pos.covered_xy}


# -- the play wing and the survey answer in (x, y) too ---------------------------------

#: Names that hold cells in the play wing's answers, beside :data:`CELL_NAMES`:
#: ``chosen`` one cell, the others collections of cells (``dead`` is a flag on a
#: Candidate and a list of cells on GuessMarks; ``unavoidable`` a list of sets).
PLAY_CELL_NAMES = {"walled", "pseudo", "unavoidable", "chosen", "guessed", "dead"}


def _walk_play(obj, where: str, seen: set, covered: tuple[int, int], bad: list) -> None:
    """:func:`_walk` with the play wing's cell names too."""
    if id(obj) in seen or not type(obj).__module__.startswith("mscsp.") or isinstance(obj, (enum.Enum, type)):
        return
    for name in PLAY_CELL_NAMES:
        value = getattr(obj, name, None)
        if isinstance(value, bool) or value is None:
            continue
        if name == "chosen":
            ok = _is_xy(value)
        elif name == "unavoidable":  # sets of cells
            ok = all(isinstance(s, tuple) and all(map(_is_xy, s)) for s in value)
        else:  # a collection of cells (so that a flat pair of cells is not read as one cell)
            ok = isinstance(value, (tuple, list)) and all(map(_is_xy, value))
        if not ok:
            bad.append(f"{where}.{name} = {value!r:.80}")
    _walk(obj, where, seen, covered, bad)  # and the records it holds (candidates, an endgame)


def test_the_play_wing_names_cells_as_x_y():
    from mscsp.analysis import Survey
    from mscsp.play import dead, endgame, marks, optimum, policies, pseudo

    assert not hasattr(policies, "decide"), "one word per idea: mscsp.decide is consistency"
    lookahead = mscsp.parse_position("mines: 3\n.....\n.....\n..1..\n")
    fifty = mscsp.parse_position("mines: 1\n.1.\n")
    twin = mscsp.parse_position("mines: 5\n23...\n.....\n.....\n.1...\n")
    bad: list[str] = []
    for pos in (lookahead, fifty, twin):
        for policy in policies.Policy:
            chosen = policies.choose(pos, policy)
            assert _is_xy(chosen) and chosen in pos.covered_xy, (policy, chosen)
            move = policies.move(pos, policy)
            assert move.cell == chosen
            _walk_play(move, f"move({policy.value})", set(), chosen, bad)
            ranked = policies.rank(pos, policy)
            assert ranked[0].cell == chosen and all(_is_xy(c.cell) for c in ranked)
            for c in ranked:
                _walk_play(c, f"rank({policy.value})", set(), chosen, bad)
    # by hand: the two cells beside the lone 1 are the walled-off pair, a coin toss
    due = policies.move(fifty, "+fifty")
    assert due.walled == ((0, 0), (2, 0)) and due.cell in due.walled
    end = endgame.solve_endgame(fifty)
    assert end.cell in ((0, 0), (2, 0)) and end.cell_index == fifty.geometry.index(*end.cell)
    _walk_play(end, "solve_endgame", set(), end.cell, bad)
    assert endgame.solve_walled(fifty, [(0, 0), (2, 0)]).cell in ((0, 0), (2, 0))
    assert endgame.click_wins(fifty) == {(0, 0): Fraction(1, 2), (2, 0): Fraction(1, 2)}
    survey = Survey(fifty)
    assert policies.unavoidable(survey) == [((0, 0), (2, 0))]
    # safe, [0,0] has the open 1 for its only neighbour: it shows 0, in the one layout with it safe
    assert [(o.number, o.layouts) for o in policies.outcomes(survey, (0, 0))] == [(0, 1)]
    found = marks.guess_marks(survey)
    _walk_play(found, "guess_marks", set(), (0, 0), bad)
    assert found.unavoidable == [((0, 0), (2, 0))] and found.dead == [(0, 0), (2, 0)]
    # the pair at [0,2] of the twin position, a pseudo-50/50 (see test_policies)
    assert set(pseudo.pseudo_fifties(Survey(twin))) <= {(0, 2), (0, 3)} and pseudo.pseudo_fifties(Survey(twin))
    assert isinstance(pseudo.fifty_influence(Survey(lookahead), (0, 0)), int)
    # the dead structures: a corner mine and the safe cell beside it, a 2x2 block
    corner = mscsp.parse_layout("*.*\n***\n...\n")
    assert dead.dead_pair(corner, (2, 2)) == ((2, 0), (1, 0))
    assert dead.walled_off_safe(corner, (2, 2)) == (1, 0)
    box = mscsp.parse_layout("*..\n.*.\n..*\n")
    assert dead.dead_square(box, (0, 2)) == ((0, 0), (1, 0), (0, 1), (1, 1))
    assert dead.find_structure(box, (0, 2)) == (dead.Structure.SQUARE, ((0, 0), (1, 0), (0, 1), (1, 1)))
    assert "[0, 0]" in dead.dead_structure(box, (0, 2))
    # the exact optimum's policy answers (x, y), and so do its regrets
    spec = Spec(4, 4, 4)
    lost = optimum.regrets(spec, "opening", (0, 0), lambda p: policies.choose(p, "least-p"))
    assert lost and all(_is_xy(r.chosen) and _is_xy(r.best) for r in lost)
    for r in lost[:3]:
        _walk_play(r, "regrets", set(), r.chosen, bad)
    assert not bad, bad
    # and the walk tells a flat cell when it meets one
    caught: list[str] = []
    _walk_play(policies.Move(3, policies.Policy.LEAST_P, walled=(3, 4), candidates=(policies.Candidate(4, Fraction(0)),)),
               "flat", set(), (0, 0), caught)
    assert sorted(caught) == ["flat.candidates.cell = 4", "flat.cell = 3", "flat.walled = (3, 4)"]


def test_a_play_game_callback_is_handed_the_position_and_answers_x_y():
    board = mscsp.generate(mscsp.Spec.preset("beginner"), "safe", (0, 0), seed=2)
    asked = []

    def guess(position, k):
        # what the player sees, and an (x, y) cell of it back
        assert isinstance(position, mscsp.Position) and k == len(asked)
        asked.append(position.covered_xy[-1])
        return position.covered_xy[-1]

    record = mscsp.play.play_game(mscsp.Game.from_board(board, record=False), board.click, guess=guess)
    assert asked and record.guessed == tuple(asked)  # the cells clicked are the ones answered
    with pytest.raises(mscsp.InputError, match=r"must be a pair \(x, y\)"):
        mscsp.play.play_game(mscsp.Game.from_board(board, record=False), board.click,
                             guess=lambda position, k: position.geometry.index(*position.covered_xy[-1]))


@pytest.mark.parametrize("use", [
    "survey.opened(0, 1)",
    "survey.least_after(0, 1)",
    "survey.least_two_after(0, 1)",
    "survey.mine_count_fixed([0])",
    "survey.layouts_with([0], [])",
    "policies.outcomes(survey, 0)",
    "pseudo.fifty_influence(survey, 0)",
    "endgame.solve_walled(pos, [0, 1])",
    "endgame.click_wins(pos, [0])",
    "dead.dead_pair(mscsp.parse_layout('*.*\\n***\\n...\\n'), 8)",
    "dead.find_structure(mscsp.parse_layout('*.*\\n***\\n...\\n'), 8)",
    "optimum.policy_play(mscsp.Spec(3, 3, 2), 'safe', (0, 0), lambda p: 0)",
    "fastplay.play(mscsp.parse_layout('*.*\\n***\\n...\\n'), 8)",
    "loop.Deducer(mscsp.Game(mscsp.parse_layout('*.*\\n***\\n...\\n'))).opened((8,))",
])
def test_a_flat_index_to_the_play_wing_is_an_input_error(use):
    from mscsp.analysis import Survey
    from mscsp.play import dead, endgame, fastplay, loop, optimum, policies, pseudo

    pos = mscsp.parse_position("mines: 1\n.1.\n")
    names = {"mscsp": mscsp, "pos": pos, "survey": Survey(pos), "dead": dead, "endgame": endgame,
             "fastplay": fastplay, "loop": loop, "optimum": optimum, "policies": policies, "pseudo": pseudo}
    with pytest.raises(mscsp.InputError, match=r"must be a pair \(x, y\)"):
        eval(use, names)


@pytest.mark.parametrize("module", ["mscsp.play.policies", "mscsp.play.endgame", "mscsp.play.dead",
                                    "mscsp.play.loop", "mscsp.play.marks", "mscsp.play.pseudo",
                                    "mscsp.play.optimum", "mscsp.play.fastplay", "mscsp.analysis.survey"])
def test_no_public_name_of_the_play_wing_speaks_flat_indices(module):
    import importlib

    mod = importlib.import_module(module)
    flat = []
    for name in getattr(mod, "__all__", []):
        value = getattr(mod, name)
        members = [name] + ([f"{name}.{m}" for m in vars(value) if not m.startswith("_")] if inspect.isclass(value) else [])
        flat += [m for m in members if m.endswith("_index") and m != "Endgame.cell_index"]
    assert not flat, flat
