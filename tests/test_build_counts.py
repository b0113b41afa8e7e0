"""One analysis per question: a guess, and a web hint, build their position's equations once.

The constraint layer keeps a private tally of the systems it makes
(``constraints._BUILDS``: "build" for :func:`~mscsp.analysis.build_constraints`,
"quick" for the compiled quick path, which reads the equations off the grid too, and
"opened", "flagged", "conditioned" for systems derived from another one), and, while
a test sets ``constraints._COUNTED`` to a Counter, every component counted, by the
mines left, its cells and its equations. Oracles: the position's components as an independent
:func:`~mscsp.analysis.build_constraints` finds them (each must be counted exactly
once), and the rule that no component, of the position or of one a click away, is
counted twice. Positions one click away are derived from the position's system
(``opened``, ``flagged``, ``conditioned``), never built from the grid.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mscsp.analysis import build_constraints
from mscsp.analysis import constraints as C
from mscsp.board import PRESETS
from mscsp.game import Game
from mscsp.play import loop, policies
from mscsp.play.loop import play_game
from mscsp.rules import generate


@pytest.fixture
def counted(monkeypatch):
    """The tallies of builds and of components counted, from zero."""
    monkeypatch.setattr(C, "_BUILDS", Counter())
    monkeypatch.setattr(C, "_COUNTED", Counter())

    def reset():
        C._BUILDS.clear()
        C._COUNTED.clear()
    return reset


def expert_board(seed: int, i: int):
    ss = np.random.SeedSequence(seed, spawn_key=(i,))
    return generate(PRESETS["expert"], "safe", (0, 0), np.random.Generator(np.random.PCG64(ss)))


def own_components(position) -> list[tuple]:
    """The keys of the position's components, from an equation build of their own."""
    system = build_constraints(position)
    return [(system.remaining, system.component_cells(comp), tuple(system.equation(e) for e in comp))
            for comp in system.components]


@pytest.fixture(scope="module")
def stalls() -> list:
    """Expert positions where the top rung must guess, reached by seeded play (games 3
    and 5 of seed 5 reach the exact endgame, the second also a walled-off set)."""
    found = []
    for i in (3, 5):
        board = expert_board(5, i)

        def guess(position, k):
            found.append(position)
            return policies.move(position, "+endgame").cell
        play_game(Game.from_board(board, record=False), board.click, policy="+endgame", guess=guess)
    return found


def test_a_guess_builds_its_equations_once_and_counts_each_component_once(stalls, counted):
    rungs = set()
    for position in stalls:
        mine = own_components(position)
        counted()
        move = policies.move(position, "+endgame", rank=True)
        rungs.add((move.rung.value, move.endgame is not None, move.walled is not None))
        assert C._BUILDS["build"] == 1, (dict(C._BUILDS), move)
        assert C._BUILDS["quick"] == 0
        assert all(C._COUNTED[key] == 1 for key in mine)
        assert not C._COUNTED or max(C._COUNTED.values()) == 1
    # the sample holds every stage: the look-ahead, the endgame, a walled-off set
    assert {("+lookahead", False, False), ("+endgame", True, False), ("+endgame", True, True)} <= rungs


def test_at_the_python_loops_stall_the_guess_reads_the_stalls_analysis(monkeypatch, counted):
    # every stall goes to the Python loop, whose rung (counting) decides it first
    monkeypatch.setattr(loop.fastplay, "resume", lambda *args, **kwargs: None)
    survey_class = loop.Survey
    seen = []

    def surveyed(position):  # a stall: its analysis starts here
        counted()
        return survey_class(position)

    def chosen(position, policy, **options):
        cell = policies._choose_index(position, policy, **options)
        seen.append((dict(C._BUILDS), Counter(C._COUNTED), own_components(position)))
        return cell
    monkeypatch.setattr(loop, "Survey", surveyed)
    monkeypatch.setattr(loop, "_choose_index", chosen)
    for i in (3, 4):
        board = expert_board(5, i)
        play_game(Game.from_board(board, record=False), board.click, policy="+endgame")
    assert len(seen) >= 5
    for builds, components, mine in seen:
        assert builds["build"] == 1, builds
        assert all(components[key] == 1 for key in mine)
        assert not components or max(components.values()) == 1


def test_a_hint_is_one_job_on_one_analysis_and_builds_nothing_on_the_event_loop(monkeypatch, counted):
    from starlette.testclient import TestClient

    from mscsp.position import parse_position
    from mscsp.web.app import create_app
    from mscsp.web.settings import Settings
    from mscsp.web.workers import WorkerPool

    ran = []  # each job: its function, and the builds and counts it made

    async def in_process(self, func, args, *, timeout, first_slice=None, overflow=None):
        before = Counter(C._BUILDS)
        answer = func(*args)
        ran.append((func.__name__, Counter(C._BUILDS) - before))
        return answer
    monkeypatch.setattr(WorkerPool, "run", in_process)
    hints = []
    settings = Settings(workers=1, large_workers=1, max_games=5, sat_time_limit=30.0, analysis_timeout=60.0)
    with TestClient(create_app(settings)) as client:
        view = client.post("/api/games", json={"width": 30, "height": 16, "mines": 99, "rule": "safe",
                                               "seed": 2}).json()
        while view["status"] not in ("won", "lost") and len(hints) < 40:
            counted()
            ran.clear()
            hint = client.post(f"/api/games/{view['id']}/hint").json()
            builds, components, jobs = Counter(C._BUILDS), Counter(C._COUNTED), list(ran)
            text = "mines: 99\n" + "\n".join(view["rows"]) + "\n"
            hints.append((hint, builds, components, jobs, own_components(parse_position(text))))
            view = client.post(f"/api/games/{view['id']}/solver", json={}).json()["game"]
    assert any(hint["candidates"] for hint, *_ in hints) and any(hint["safe"] for hint, *_ in hints)
    for hint, builds, components, jobs, mine in hints:
        assert [name for name, _ in jobs] == ["hint_text"]
        assert builds == jobs[0][1]  # nothing was built outside the job, on the event loop
        assert (builds["build"], builds["quick"]) == (1, 0), builds
        assert all(components[key] == 1 for key in mine)
        assert not components or max(components.values()) == 1
