"""The web server's JSON API, in process (Starlette's TestClient), and ``mscsp serve``.

Oracles: the analysis endpoint must answer exactly what ``solve_record(analyse(...))``
gives for the same position (what ``mscsp solve --json`` prints); a game on the
server must move exactly as the engine does for the same seed and moves; the page
never receives the layout or the seed while a game runs.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from conftest import POSITIONS, four_lattices
from starlette.testclient import TestClient

from mscsp.analysis.full import analyse
from mscsp.board import Spec
from mscsp.game import Game
from mscsp.play.noguess import generate_no_guess
from mscsp.play.verify import verify
from mscsp.position import Position, format_position, parse_position
from mscsp.report import solve_record
from mscsp.rules import generate
from mscsp.web.app import STATIC, create_app
from mscsp.web.command import loopback_hosts, register
from mscsp.web.settings import Settings

SETTINGS = Settings(workers=1, max_games=50)
#: For answers compared with the command line's: a budget no ordinary position comes near,
#: even on a loaded machine (under the two-second default, exact counting of
#: long_frontier, 0.15 s alone, once fell back to estimates on one side of the comparison)
ROOMY = Settings(workers=1, max_games=50, sat_time_limit=30.0, analysis_timeout=60.0)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(SETTINGS)) as c:
        yield c


@pytest.fixture(scope="module")
def roomy():
    with TestClient(create_app(ROOMY)) as c:
        yield c


def expected_record(text: str, settings: Settings = SETTINGS, **kwargs) -> dict:
    """What ``mscsp solve --json`` says about a position, through JSON."""
    analysis = analyse(parse_position(text), time_limit=settings.sat_time_limit, **kwargs)
    return json.loads(json.dumps(solve_record(analysis)))


def expected_guesses(text: str, record: dict) -> dict | None:
    """The ``guesses`` field the pages add, found again by the engine (None unless the
    counts are exact with the mine total)."""
    from mscsp.analysis import Survey
    from mscsp.play.marks import guess_marks

    position = parse_position(text)
    if not record["consistent"] or record["exact"] is not True or position.mines is None:
        return None
    xy = lambda cells: [list(c) for c in cells]  # noqa: E731
    found = guess_marks(Survey(position))
    return {"dead": None if found.dead is None else xy(found.dead),
            "unavoidable": None if found.unavoidable is None else list(map(xy, found.unavoidable)),
            "pseudo": None if found.pseudo is None else xy(found.pseudo), "complete": True}


# -- analysis ---------------------------------------------------------------------------
#: Example positions that finish well within the server's budget, so that two runs agree.
ORDINARY = sorted(p for p in POSITIONS.glob("*.txt") if not p.stem.startswith("lattice"))


@pytest.mark.parametrize("path", ORDINARY, ids=lambda p: p.stem)
def test_analysis_is_the_solve_record(roomy, path):
    text = path.read_text()
    response = roomy.post("/api/analyse", json={"position": text})
    assert response.status_code == 200
    record = response.json()
    guesses = record.pop("guesses")  # the one field the pages add
    assert record == expected_record(text, ROOMY)
    expected = expected_guesses(text, record)
    if guesses is not None and not guesses["complete"]:  # out of time: the dead cells found are some of them
        assert set(map(tuple, guesses.pop("dead"))) <= set(map(tuple, expected.pop("dead")))
        guesses["complete"] = True
    assert guesses == expected
    assert response.headers["server-timing"].startswith("analysis;dur=")


def test_other_tools_boards_import_as_positions(client):
    import base64

    answer = client.post("/api/import", json={"text": "4x3x2\nH1HH\n1F1H\nHHHH\n"}).json()
    assert answer["format"] == "jsminesweeper"
    assert parse_position(answer["position"]).rows() == [".1..", "1F1.", "...."]
    assert parse_position(answer["position"]).mines == 2
    bad = client.post("/api/import", json={"text": "4x3x2\nH1HH\n1F1X\nHHHH\n"})
    assert bad.status_code == 400 and (bad.json()["line"], bad.json()["column"]) == (3, 4)
    assert "unexpected character 'X'" in bad.json()["error"]

    # a .mbf layout: what a player sees after clicking in its largest opening (here its only one)
    mbf = base64.b64encode(bytes([5, 4, 0, 2, 0, 0, 4, 3])).decode()
    answer = client.post("/api/import", json={"mbf": mbf}).json()
    assert answer["format"] == "mbf" and "opened at [2,0]" in answer["note"]
    assert parse_position(answer["position"]).rows() == [".1000", "11000", "00011", "0001."]
    # a wall of mines down column 3 of a 9x3 board: the opening at the left (9 cells,
    # first in row order) is smaller than the one at the right (15), which is opened
    # unless the caller names the click
    wall = base64.b64encode(bytes([9, 3, 0, 3, 3, 0, 3, 1, 3, 2])).decode()
    answer = client.post("/api/import", json={"mbf": wall}).json()
    assert "opened at [5,0], in its largest opening (15 cells)" in answer["note"]
    assert parse_position(answer["position"]).rows() == ["....20000", "....30000", "....20000"]
    answer = client.post("/api/import", json={"mbf": wall, "click": [0, 2]}).json()
    assert "opened at [0,2] as asked" in answer["note"]
    assert parse_position(answer["position"]).rows() == ["002......", "003......", "002......"]
    on_a_mine = client.post("/api/import", json={"mbf": wall, "click": [3, 1]})
    assert on_a_mine.status_code == 400 and "[3, 1] is a mine" in on_a_mine.json()["error"]
    off = client.post("/api/import", json={"mbf": wall, "click": [9, 0]})
    assert off.status_code == 400 and "not on this 9x3 board" in off.json()["error"]
    bad = client.post("/api/import", json={"mbf": base64.b64encode(bytes([5, 4, 0, 1, 7, 0])).decode()})
    assert bad.status_code == 400 and "off a board 5 wide" in bad.json()["error"]
    assert client.post("/api/import", json={"mbf": "not base64!"}).status_code == 400
    too_big = base64.b64encode(bytes([200, 200, 0, 0])).decode()  # 40,000 cells: past the server's limit
    assert client.post("/api/import", json={"mbf": too_big}).status_code == 413


def test_a_hard_position_gets_its_certain_cells_and_labelled_numbers(client):
    # the Expert lattice: proofs take about a second, exact counting about two; the
    # server's two-second analysis must still show what is proven, and say what is not exact
    position = parse_position((POSITIONS / "lattice_expert.txt").read_text())
    record = client.post("/api/analyse", json={"position": format_position(position)}).json()
    assert record["consistent"] and record["safe"]
    truth = analyse(position, time_limit=60)
    assert truth.complete and truth.exact
    assert set(map(tuple, record["safe"])) <= set(truth.safe)
    exact = {position.geometry.coords(c): float(p) for c, p in truth.probabilities.by_index.items()}
    if record["exact"] is False:
        assert record["estimate"]["reason"] and record["layouts"] is None
    for y, row in enumerate(record["probability"]):
        for x, p in enumerate(row):
            interval = record["interval"][y][x] if record["exact"] is False else None
            if p is not None and interval is None:  # an exact number must be the exact one
                assert p == pytest.approx(exact[(x, y)], abs=1e-12)


@pytest.mark.parametrize("name", ["lattice_expert.txt", "long_frontier.txt", "expert_stuck.txt"])
def test_the_time_limit_notice_means_some_cell_is_left_undecided(name):
    # the page says "Time limit: ... some certain cells may be unmarked" exactly when
    # the record is incomplete, so an incomplete record must leave a covered cell
    # unproven (and, when counting was exact, a forced one); checked at time limits that
    # stop the search at every stage, and against a search without a limit
    text = (POSITIONS / name).read_text()
    position = parse_position(text)
    truth = analyse(position, time_limit=120)
    assert truth.complete
    forced = set(truth.safe + truth.mines)
    for limit in (0.001, 0.05, 0.5):
        record = solve_record(analyse(position, time_limit=limit))
        proven = set(map(tuple, record["safe"] + record["mine"]))
        assert proven <= forced
        if record["complete"] is False:
            covered = set(position.covered_xy)
            assert covered - proven, (name, limit)
            assert forced - proven or record["exact"] is False, (name, limit)


def test_analysis_solver_and_total_options(client):
    text = (POSITIONS / "global_count.txt").read_text()
    plain = client.post("/api/analyse", json={"position": text, "solver": "single-point"}).json()
    assert plain["solver"] == "single-point" and plain["safe"] == []
    no_total = client.post("/api/analyse", json={"position": text, "use_total": False}).json()
    assert no_total["mines"] is None and "model" in no_total


def test_impossible_board_names_its_clues(client):
    record = client.post("/api/analyse", json={"position": "mines: 5\n3.1\n.11\n"}).json()
    assert record["consistent"] is False
    assert record["contradiction"]["clues"] == [[0, 0]]
    assert "only two covered neighbours" in record["contradiction"]["text"]
    assert record["probability"] is None and record["best"] is None


@pytest.mark.parametrize(("text", "clash", "names_total"), [
    ("mines: 5\n3.1\n.11\n", "undercovered", False),
    ("mines: 1\nFF\n22\n", "flags-over-total", True),
    ("mines: 6\n1..\n...\n", "total-over-covered", True),
    # a search: two clues and the total, each said in the sentence
    ("mines: 1\n1..1\n", "no-layout", True),
    # six clues and the total: the sentence is cut short before the total
    ("mines: 5\n1..11..11..1\n", "no-layout", False),
])
def test_a_contradiction_says_how_it_was_found_and_whether_its_words_name_the_total(client, text, clash, names_total):
    c = client.post("/api/analyse", json={"position": text}).json()["contradiction"]
    assert (c["clash"], c["names_total"]) == (clash, names_total)
    assert names_total <= c["total"]


def test_estimates_are_labelled():
    # a state limit of 0 makes every component an estimate (small, so it is quick)
    with TestClient(create_app(Settings(workers=1, state_limit=0))) as c:
        record = c.post("/api/analyse", json={"position": "mines: 2\n.2.\n...\n"}).json()
    assert record["exact"] is False and record["layouts"] is None
    assert "sampling" in record["estimate"]["method"]


def test_a_slow_analysis_is_stopped_and_the_server_recovers():
    # four lattices in a 60x32 square: exact in about twenty seconds (one alone now takes half
    # of one, too close to the limit); the analysis may take 30, the worker only half of one
    slow = four_lattices()
    with TestClient(create_app(Settings(workers=1, sat_time_limit=30.0, analysis_timeout=0.5))) as c:
        started = time.monotonic()
        response = c.post("/api/analyse", json={"position": slow})
        assert response.status_code == 503
        assert "longer than 0.5 s" in response.json()["error"]
        assert time.monotonic() - started < 3
        # the replacement worker joins once it has started; until then requests wait (or 503)
        deadline = time.monotonic() + 30
        while (quick := c.post("/api/analyse", json={"position": "mines: 1\n.1...\n"})).status_code == 503:
            assert "no worker was free" in quick.json()["error"] and time.monotonic() < deadline
        assert quick.status_code == 200 and quick.json()["safe"] == [[3, 0], [4, 0]]


def test_time_spent_waiting_for_a_worker_is_told_as_a_busy_server():
    # four lattices in a 60x32 square, with the analysis held to two seconds: about two
    # and a quarter alone, inside the three and a half allowed. A second one sent just after
    # waits about two seconds for the one worker, then cannot finish in what is left:
    # the position is not to blame, the queue is
    slow = four_lattices()
    settings = Settings(workers=1, large_workers=1, sat_time_limit=2.0, analysis_timeout=3.5)
    with TestClient(create_app(settings)) as c, ThreadPoolExecutor(2) as ex:
        first = ex.submit(c.post, "/api/analyse", json={"position": slow})
        time.sleep(0.3)
        second = ex.submit(c.post, "/api/analyse", json={"position": slow}).result()
        first.result()
    assert second.status_code == 503
    error = second.json()["error"]
    assert error.startswith("the server is busy with slow positions")
    assert "try again in a moment" in error and "smaller" not in error


def test_parse_error_names_line_and_column(client):
    response = client.post("/api/analyse", json={"position": "mines: 3\n..\n.x\n"})
    assert response.status_code == 400
    body = response.json()
    assert (body["line"], body["column"]) == (3, 2) and "line 3:2" in body["error"]
    response = client.post("/api/parse", json={"position": "4.\n..\n"})
    assert response.status_code == 400 and "out of range" in response.json()["error"]


def test_parse_gives_rows_and_total(client):
    body = client.post("/api/parse", json={"position": "# c\nmines: 3\n..1F.\n.122.\n--...\n"}).json()
    assert body == {"width": 5, "height": 3, "mines": 3, "rows": ["..1F.", ".122.", "--..."]}


@pytest.mark.parametrize(
    ("payload", "status", "words"),
    [
        (b"not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b"{}", 400, "position is missing"),
        (b'{"position": 5}', 400, "must be a string"),
        (b'{"position": ".1.", "solver": "magic"}', 400, "solver must be one of"),
        (b'{"position": ".1.", "use_total": "yes"}', 400, "true or false"),
        (b"", 400, "needs a JSON body"),
        (b"\xff\xfe", 400, "UTF-8"),
        (json.dumps({"position": "." * 101 + "\n"}).encode(), 413, "at most 100 cells wide"),
        (json.dumps({"position": "mines: 10\n...\n"}).encode(), 400, "more than the 3 cells"),
        # bodies that broke the JSON reader itself: too deep for its recursion, an integer
        # past Python's limit on digits; a mine total just as long must not break the parser
        pytest.param(b"[" * 50_000 + b"]" * 50_000, 400, "nests arrays and objects more than", id="deep"),
        pytest.param(b'{"position": ".1.", "x": ' + b"[" * 40 + b"]" * 40 + b"}", 400,
                     "nests arrays and objects more than", id="deep-field"),
        pytest.param(b'{"position": ".1.", "seed": ' + b"7" * 5_000 + b"}", 400, "integer of more than",
                     id="long-integer"),
        pytest.param(json.dumps({"position": "mines: " + "9" * 5_000 + "\n...\n"}).encode(), 400, "",
                     id="long-total"),
    ],
)
def test_malformed_analysis_requests(client, payload, status, words):
    response = client.post("/api/analyse", content=payload, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert words in response.json()["error"] and "\n" not in response.json()["error"]


@pytest.mark.parametrize("route", ["/api/games", "/api/example", "/api/games/load"])
def test_a_seed_too_long_to_read_is_refused(client, route):
    body = b'{"width": 9, "height": 9, "mines": 10, "seed": ' + b"1" * 5_000 + b"}"
    response = client.post(route, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and "integer of more than" in response.json()["error"]


def test_body_size_limit_declared_and_streamed():
    with TestClient(create_app(Settings(workers=1, max_body=100))) as c:
        big = json.dumps({"position": "." * 200})
        response = c.post("/api/analyse", content=big, headers={"content-type": "application/json"})
        assert response.status_code == 413 and "limit" in response.json()["error"]

        def chunks():  # no content-length: the limit holds as the body streams in
            for _ in range(10):
                yield b" " * 50

        response = c.post("/api/analyse", content=chunks(), headers={"content-type": "application/json"})
        assert response.status_code == 413


def test_wrong_content_type_and_unknown_routes(client):
    response = client.post("/api/analyse", content=b"position", headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 415
    assert client.get("/api/nothing").json() == {"error": "Not Found"}
    response = client.get("/api/analyse")
    assert response.status_code == 405 and "error" in response.json()


def test_example_is_dealt_from_a_safe_opening(client):
    body = client.post("/api/example", json={"width": 9, "height": 9, "mines": 10, "seed": 5}).json()
    position = parse_position(body["position"])
    board = generate(Spec(9, 9, 10), "opening", (4, 4), 5)
    game = Game.from_board(board)
    game.reveal(board.click)
    assert position == game.position() and body["click"] == [4, 4] and body["rule"] == "opening"
    crowded = client.post("/api/example", json={"width": 4, "height": 4, "mines": 12}).json()
    assert crowded["rule"] == "safe"
    assert client.post("/api/example", json={"width": 4, "height": 4, "mines": 16}).status_code == 400


def test_limits(client):
    body = client.get("/api/limits").json()
    assert body["presets"]["expert"] == {"width": 30, "height": 16, "mines": 99}
    assert body["max_side"] == SETTINGS.max_side and "opening" in body["rules"]
    # the budget the pages state is the analysis's own time limit, inside the hard stop
    assert body["analysis_budget"] == SETTINGS.sat_time_limit < body["analysis_timeout"] == SETTINGS.analysis_timeout


def test_the_default_budget_is_the_pages_and_the_hard_stop_leaves_it_room():
    # an analysis stopped at the hard stop returns nothing; one that spends its budget
    # returns its estimates: the page's budget must be most of the stop, not a fifth of it
    s = Settings()
    assert s.sat_time_limit >= 10 and s.sat_time_limit + 2 <= s.analysis_timeout <= s.sat_time_limit + 10


@pytest.mark.parametrize("path, body", [
    ("/api/games", {"rule": "x" * 100_000}),
    ("/api/games", {"width": "x" * 100_000}),
    ("/api/games", {"width": 10 ** 4000}),
    ("/api/analyse", {"position": "mines: 1\n.1\n", "solver": "x" * 100_000}),
    ("/api/runs", {"policy": "x" * 100_000}),
    ("/api/games/load", {"width": 9, "height": 9, "format": "mscsp-replay/1", "rule": "x" * 100_000}),
], ids=["rule", "width-text", "width-digits", "solver", "policy", "replay-rule"])
def test_an_error_quotes_a_huge_value_in_short(client, path, body):
    answer = client.post(path, json={"width": 9, "height": 9, "mines": 10, **body})
    assert answer.status_code == 400
    error = answer.json()["error"]
    # quoted by the server in short; quoted by the engine's own words (a replay's), cut
    assert len(error) < (2100 if path.endswith("load") else 300) and "characters" in error, error


# -- pages ------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", ["/", "/play"])
def test_pages_and_their_assets_are_served_from_the_package(client, page):
    response = client.get(page)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', response.text)
    assert len(assets) >= 3
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    # modules imported by the scripts are shipped too, and nothing comes from outside
    for script in STATIC.glob("*.js"):
        for name in re.findall(r'from "\./([^"]+)"', script.read_text()):
            assert (STATIC / name).is_file(), (script.name, name)
    for path in STATIC.iterdir():
        assert "https://" not in path.read_text() and "http://" not in path.read_text().replace(
            "http://www.w3.org/2000/svg", ""
        ), path.name


def test_host_names_are_checked_when_asked():
    with TestClient(create_app(SETTINGS, allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://evil.example") as c:
        assert c.get("/api/limits").status_code == 400
    with TestClient(create_app(SETTINGS, allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://localhost:8000") as c:
        assert c.get("/api/limits").status_code == 200


# -- games --------------------------------------------------------------------------------------
def new_game(client, **fields):
    body = {"width": 9, "height": 9, "mines": 10, "rule": "safe", **fields}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def move(client, game_id, action, x, y, status=200):
    response = client.post(f"/api/games/{game_id}/move", json={"action": action, "cell": [x, y]})
    assert response.status_code == status, response.text
    return response.json()


def test_a_game_moves_as_the_engine_and_hides_its_layout(client):
    view = new_game(client, rule="opening", seed=11)
    assert view["status"] == "ready" and view["layout"] is None and view["seed"] is None
    assert len(view["id"]) >= 20
    engine = Game.deferred(Spec(9, 9, 10), "opening", seed=11)
    moves = [("reveal", 4, 4), ("flag", 0, 0), ("unflag", 0, 0), ("flag", 8, 8)]
    for action, x, y in moves:
        view = move(client, view["id"], action, x, y)
        engine.apply((action, (x, y)))
        assert view["rows"] == engine.position().rows()
    assert view["status"] == "playing" and view["flags"] == 1 and view["mines_left"] == 9
    assert view["layout"] is None and view["seed"] is None and view["exploded"] is None
    assert "*" not in json.dumps(client.get(f"/api/games/{view['id']}").json())
    assert client.get(f"/api/games/{view['id']}/replay").status_code == 409


def test_win_a_seeded_game_then_replay_it(client):
    spec, seed = Spec(6, 5, 5), 3
    layout = generate(spec, "opening", (2, 2), seed).layout
    view = new_game(client, width=6, height=5, mines=5, rule="opening", seed=seed)
    view = move(client, view["id"], "reveal", 2, 2)
    for cell in range(30):
        x, y = cell % 6, cell // 6
        if not layout.mines[cell] and view["rows"][y][x] == ".":
            view = move(client, view["id"], "reveal", x, y)
    assert view["status"] == "won" and view["layout"] == layout.rows() and view["seed"] == seed
    move(client, view["id"], "reveal", 0, 0, status=409)  # the game is over

    replay = client.get(f"/api/games/{view['id']}/replay")
    assert replay.status_code == 200 and "attachment" in replay.headers["content-disposition"]
    record = replay.json()
    assert record["format"] == "mscsp-replay/1" and record["status"] == "won" and record["no_guess"] is False
    loaded = client.post("/api/games/load", json=record)
    assert loaded.status_code == 201
    again = loaded.json()
    assert again["id"] != view["id"]
    assert (again["rows"], again["status"], again["layout"]) == (view["rows"], "won", view["layout"])


def test_a_finished_game_gives_its_3bv_clicks_and_3bv_per_second(client):
    from mscsp.metrics import bbbv

    spec, seed = Spec(6, 5, 5), 3
    layout = generate(spec, "opening", (2, 2), seed).layout
    view = new_game(client, width=6, height=5, mines=5, rule="opening", seed=seed)
    assert view["clicks"] == 0 and view["bbbv"] is None
    view = move(client, view["id"], "reveal", 2, 2)
    mine = np.flatnonzero(layout.mines).tolist()[0]
    view = move(client, view["id"], "flag", mine % 6, mine // 6)
    clicks = 2
    assert view["clicks"] == clicks and view["bbbv"] is None and view["bbbv_per_s"] is None  # the 3BV waits for the end
    covered = next((x, y) for y, row in enumerate(view["rows"]) for x, ch in enumerate(row) if ch == ".")
    move(client, view["id"], "chord", *covered, status=409)  # refused: not a click
    for cell in range(30):
        x, y = cell % 6, cell // 6
        if not layout.mines[cell] and view["rows"][y][x] == ".":
            view = move(client, view["id"], "reveal", x, y)
            clicks += 1
    assert view["status"] == "won" and view["clicks"] == clicks
    assert view["bbbv"] == bbbv(layout) and abs(view["bbbv"] / view["bbbv_per_s"] - view["elapsed"]) < 1e-3
    # a loss has its board's 3BV, and no rate
    lost = new_game(client, width=6, height=5, mines=5, rule="opening", seed=seed)
    move(client, lost["id"], "reveal", 2, 2)
    lost = move(client, lost["id"], "reveal", mine % 6, mine // 6)
    assert (lost["status"], lost["clicks"], lost["bbbv"], lost["bbbv_per_s"]) == ("lost", 2, bbbv(layout), None)
    # a loaded replay counts its actions as clicks
    loaded = client.post("/api/games/load", json=client.get(f"/api/games/{view['id']}/replay").json()).json()
    assert loaded["clicks"] == clicks


def test_auto_clear_opens_every_cell_proven_safe_and_trusts_no_flag(client):
    from mscsp.web.jobs import proven_safe

    # [0,2] is proven safe once [4,4] is open; a flag on it must not stop the clearing
    layout = generate(Spec(9, 9, 10), "opening", (4, 4), 12345).layout
    view = new_game(client, rule="opening", seed=12345)
    none = client.post(f"/api/games/{view['id']}/clear").json()
    assert none["opened"] == [] and none["game"]["status"] == "ready"
    move(client, view["id"], "reveal", 4, 4)
    before = move(client, view["id"], "flag", 0, 2)
    answer = client.post(f"/api/games/{view['id']}/clear")
    assert answer.status_code == 200, answer.text
    cleared = answer.json()
    after = cleared["game"]
    assert cleared["opened"] and cleared["complete"] and after["clicks"] == 2
    g = layout.geometry
    assert not any(layout.mines[g.cell(tuple(c))] for c in cleared["opened"])
    opened_now = {(x, y) for y, row in enumerate(after["rows"]) for x, ch in enumerate(row)
                  if ch not in ".F" and before["rows"][y][x] == "."}
    assert {tuple(c) for c in cleared["opened"]} <= opened_now and after["status"] != "lost"
    assert after["rows"][2][0] == "F"
    if after["status"] == "playing":  # nothing proven is left covered
        text = format_position(Position.from_rows(after["rows"], mines=10))
        assert [c for c in proven_safe(text, 5.0) if c != [0, 2]] == []
    assert client.post("/api/games/nope/clear").status_code == 404


def _won_by_hand(client, gid: str, layout) -> dict:
    """Open every safe cell still covered: the game is won."""
    g = layout.geometry
    view = client.get(f"/api/games/{gid}").json()
    for cell in range(g.area):
        x, y = g.coords(cell)
        if not layout.mines[cell] and view["rows"][y][x] == ".":
            view = move(client, gid, "reveal", x, y)
    return view


def test_who_helped_is_kept_with_the_game(client):
    # the page counts a game by who helped; a reload reads the game again from the server,
    # so the server must say it: none, auto-clear, the hint or the solver, the strongest kept
    layout = generate(Spec(9, 9, 10), "opening", (4, 4), 50).layout
    own = new_game(client, rule="opening", seed=50)
    move(client, own["id"], "reveal", 4, 4)
    assert client.get(f"/api/games/{own['id']}").json()["helped"] is None
    assert _won_by_hand(client, own["id"], layout)["helped"] is None

    hinted = new_game(client, rule="opening", seed=50)
    move(client, hinted["id"], "reveal", 4, 4)
    assert client.post(f"/api/games/{hinted['id']}/hint").status_code == 200
    # the hint went off at once and the page was reloaded: the game still says it
    assert client.get(f"/api/games/{hinted['id']}").json()["helped"] == "hint"
    client.post(f"/api/games/{hinted['id']}/clear")  # a weaker help does not replace it
    won = _won_by_hand(client, hinted["id"], layout)
    assert (won["status"], won["helped"]) == ("won", "hint")
    replay = client.get(f"/api/games/{hinted['id']}/replay").json()
    assert replay["helped"] == "hint"
    assert client.post("/api/games/load", json=replay).json()["helped"] == "hint"
    assert "'helped' must be one of" in client.post("/api/games/load", json={**replay, "helped": "me"}).json()["error"]
    # a hint asked for once the game is over changes nothing
    client.post(f"/api/games/{own['id']}/hint")
    assert client.get(f"/api/games/{own['id']}").json()["helped"] is None

    cleared = new_game(client, rule="opening", seed=50)
    move(client, cleared["id"], "reveal", 4, 4)
    assert client.post(f"/api/games/{cleared['id']}/clear").json()["game"]["helped"] == "auto"

    solved = new_game(client, rule="opening", seed=50)
    move(client, solved["id"], "reveal", 4, 4)
    client.post(f"/api/games/{solved['id']}/hint")
    answer = client.post(f"/api/games/{solved['id']}/solver", json={})
    assert answer.status_code == 200, answer.text
    assert answer.json()["game"]["helped"] == "solver"
    assert client.get(f"/api/games/{solved['id']}").json()["helped"] == "solver"


def wait_for_run(client, run_id: str, seconds: float = 120.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        view = client.get(f"/api/runs/{run_id}").json()
        if view["status"] != "running" or time.monotonic() > deadline:
            return view
        time.sleep(0.05)


def test_a_bulk_run_plays_seeded_games_and_reports_its_wilson_interval(client):
    from mscsp.stats import wilson
    from mscsp.web.jobs import play_games

    body = {"width": 9, "height": 9, "mines": 10, "rule": "opening", "policy": "least-p", "games": 40, "seed": 5}
    answer = client.post("/api/runs", json=body)
    assert answer.status_code == 201, answer.text
    started = answer.json()
    assert started["status"] == "running" and started["games"] == 40 and started["seed"] == 5
    seen = [wait_for_run(client, started["id"], 0)]
    done = wait_for_run(client, started["id"])
    assert done["status"] == "done" and done["played"] == 40
    # game i is the i-th child of SeedSequence(5), whatever the batches were
    won = play_games(9, 9, 10, "opening", "least-p", 5, 0, 40, 30.0)
    assert done["won"] == sum(won) and done["rate"] == sum(won) / 40
    assert done["interval"] == list(wilson(sum(won), 40))
    assert all(v["interval"] is None or v["played"] > 0 for v in seen)


def test_a_bulk_run_is_cancelled_at_once_and_the_next_one_runs(client):
    body = {"width": 30, "height": 16, "mines": 99, "rule": "opening", "policy": "+endgame", "games": 100000,
            "seed": 1}
    run = client.post("/api/runs", json=body).json()
    again = client.post("/api/runs", json=body)
    assert again.status_code == 409 and "cancel it" in again.json()["error"]
    time.sleep(0.3)
    started = time.monotonic()
    cancelled = client.post(f"/api/runs/{run['id']}/cancel").json()
    assert time.monotonic() - started < 1.0
    assert cancelled["status"] == "cancelled" and cancelled["played"] < 100000
    assert client.get(f"/api/runs/{run['id']}").json()["status"] == "cancelled"
    small = {"width": 5, "height": 5, "mines": 3, "rule": "safe", "policy": "least-p", "games": 5, "seed": 2}
    after = client.post("/api/runs", json=small)
    assert after.status_code == 201
    assert wait_for_run(client, after.json()["id"])["status"] == "done"


@pytest.mark.parametrize(("fields", "status", "words"), [
    ({"games": 0}, 400, "games must be between 1 and"),
    ({"games": 10**6}, 400, "games must be between 1 and"),
    ({"policy": "best"}, 400, "policy must be one of"),
    ({"mines": 81}, 400, "mines fit"),
    ({"width": 101}, 400, "width must be between"),
])
def test_bad_bulk_runs_are_refused(client, fields, status, words):
    body = {"width": 9, "height": 9, "mines": 10, "rule": "safe", "policy": "least-p", "games": 5, **fields}
    answer = client.post("/api/runs", json=body)
    assert answer.status_code == status and words in answer.json()["error"], answer.text
    assert client.get("/api/runs/nope").status_code == 404
    assert client.post("/api/runs/nope/cancel").status_code == 404


def test_loss_shows_the_mines_and_the_exploded_cell(client):
    spec, seed = Spec(5, 5, 6), 8
    layout = generate(spec, "safe", (0, 0), seed).layout
    view = new_game(client, width=5, height=5, mines=6, seed=seed)
    move(client, view["id"], "reveal", 0, 0)
    mine = np.flatnonzero(layout.mines).tolist()[0]
    view = move(client, view["id"], "reveal", mine % 5, mine // 5)
    assert view["status"] == "lost" and view["exploded"] == [mine % 5, mine // 5]
    assert view["layout"] == layout.rows()


def test_chord_opens_around_a_satisfied_number(client):
    # seed 8 on 5x5/6 with a safe click at [0,0]: find a number next to exactly its mines
    spec, seed = Spec(5, 5, 6), 8
    layout = generate(spec, "safe", (0, 0), seed).layout
    view = new_game(client, width=5, height=5, mines=6, seed=seed)
    view = move(client, view["id"], "reveal", 0, 0)
    engine = Game.deferred(spec, "safe", seed)
    engine.reveal((0, 0))
    g = engine.geometry
    number = next((x, y) for y in range(5) for x in range(5) if engine.is_revealed((x, y)) and 0 < engine.shown((x, y)))
    for n in g.neighbours(g.index(*number)):
        if layout.mines[n]:
            engine.flag(g.coords(n))
            view = move(client, view["id"], "flag", *g.coords(n))
    engine.chord(number)
    view = move(client, view["id"], "chord", *number)
    assert view["rows"] == engine.position().rows()


@pytest.mark.parametrize(
    ("fields", "status", "words"),
    [
        ({"width": 0}, 400, "width must be between 1 and"),
        ({"width": 101}, 400, "width must be between 1 and 100"),
        ({"mines": -1}, 400, "mines must be between 0"),
        ({"mines": 81}, 400, "at most 80 mines fit"),
        ({"rule": "opening", "mines": 73}, 400, "at most 72 mines fit"),
        ({"rule": "lucky"}, 400, "rule must be one of"),
        ({"no_guess": 1}, 400, "true or false"),
        ({"seed": -5}, 400, "seed must be between"),
        ({"width": "9"}, 400, "width must be an integer"),
    ],
)
def test_new_game_validation(client, fields, status, words):
    body = {"width": 9, "height": 9, "mines": 10, **fields}
    response = client.post("/api/games", json=body)
    assert response.status_code == status and words in response.json()["error"]


def test_too_many_cells():
    with TestClient(create_app(Settings(workers=1, max_cells=100))) as c:
        response = c.post("/api/games", json={"width": 11, "height": 10, "mines": 5})
        assert response.status_code == 413 and "at most 100 cells" in response.json()["error"]


def test_bad_moves(client):
    view = new_game(client, seed=4)
    gid = view["id"]
    assert client.post(f"/api/games/{gid}/move", json={"action": "dig", "cell": [0, 0]}).status_code == 400
    assert client.post(f"/api/games/{gid}/move", json={"action": "reveal", "cell": [9, 0]}).status_code == 400
    assert client.post(f"/api/games/{gid}/move", json={"action": "reveal", "cell": "0,0"}).status_code == 400
    move(client, gid, "chord", 0, 0, status=409)  # nothing is open yet
    view = move(client, gid, "reveal", 4, 4)
    x, y = next((x, y) for y in range(9) for x in range(9) if view["rows"][y][x] not in ".F")
    assert "it is open" in move(client, gid, "flag", x, y, status=409)["error"]
    assert client.get("/api/games/not-a-game").status_code == 404
    assert client.post("/api/games/not-a-game/move", json={"action": "reveal", "cell": [0, 0]}).status_code == 404


def test_hint_is_the_analysis_of_the_players_position(client):
    view = new_game(client, rule="opening", seed=21)
    view = move(client, view["id"], "reveal", 4, 4)
    hint = client.post(f"/api/games/{view['id']}/hint")
    assert hint.status_code == 200
    text = format_position(parse_position("mines: 10\n" + "\n".join(view["rows"]) + "\n"))
    record = hint.json()
    # fields more: who chose the suggested click (here a proven safe cell, the same), with
    # nothing weighed for a guess, and the marks for guessing (none sought: a cell is proven)
    assert (record.pop("best_by"), record.pop("best_note")) == ("+endgame", None)
    assert (record.pop("candidates"), record.pop("candidates_rung")) == ([], None)
    assert record.pop("guesses")["unavoidable"] is None
    assert record == expected_record(text)


def test_the_analysis_marks_dead_cells_fifties_and_pseudo_fifties(client):
    def guesses(text):
        return client.post("/api/analyse", json={"position": text}).json()["guesses"]

    # the two cells under the 1s: a 50/50 nothing can tell apart, each cell able to show 1 only
    assert guesses("mines: 1\n11\n..\n") == {"dead": [[0, 1], [1, 1]], "unavoidable": [[[0, 1], [1, 1]]],
                                                "pseudo": [[0, 1], [1, 1]], "complete": True}
    # a dead square walled at its open corner: [3,0] is a pseudo-50/50
    found = guesses("mines: 3\n01..\n12..\n..2.\n")
    assert found["pseudo"] == [[3, 0]] and found["unavoidable"] == []
    # [0,0] and [2,0]: their only neighbour is the open 1, so each can show 0 only
    assert guesses("mines: 1\n.1.\n")["dead"] == [[0, 0], [2, 0]]
    # a proven safe cell may tell a set apart once opened: the marks are sought when a guess is due
    assert guesses("mines: 1\n.1..\n") == {"dead": None, "unavoidable": None, "pseudo": None, "complete": True}
    assert guesses(".1..\n") is None  # no mine total: nothing exact to weigh


def test_in_an_endgame_the_hints_candidates_carry_their_exact_win_chances():
    from mscsp.web import jobs

    move = jobs.solver_move("mines: 3\n1...\n2...\n....\n", "+endgame", "safe", 5.0, True)
    assert move["candidates_rung"] == "+endgame" and len(move["candidates"]) == 10
    first = move["candidates"][0]
    assert first["cell"] == move["open"][0] and (first["win"], first["exact"]["win"]) == (0.75, "3/4")
    assert first["exact"]["probability"] == "1/6" and first["lookahead"] is None
    _check_candidates({"best": move["open"][0], **move})


def _check_candidates(hint: dict) -> None:
    """The ranked candidates of a hint that suggests a guess: the suggested click first,
    ranks 1, 2, ..., every float the value of its exact fraction."""
    candidates = hint["candidates"]
    assert candidates and candidates[0]["cell"] == hint["best"]
    assert [c["rank"] for c in candidates] == list(range(1, len(candidates) + 1))
    for c in candidates:
        for key, exact in c["exact"].items():
            if exact is None:
                assert c[key] is None
            else:
                num, den = map(int, exact.split("/"))
                assert c[key] == num / den
    if hint["candidates_rung"] == "+endgame":  # every clickable cell, the most likely to win first
        wins = [c["win"] for c in candidates if c["win"] is not None]
        assert wins and wins[0] == max(wins)
    else:
        assert all(c["lookahead"] is not None for c in candidates)


@pytest.mark.parametrize(("rule", "first"), [("opening", [3, 3]), ("safe", [0, 0]), ("winxp", [0, 0])])
def test_the_solvers_first_click_is_its_rules(client, rule, first):
    view = new_game(client, rule=rule, seed=3)
    hint = client.post(f"/api/games/{view['id']}/hint").json()
    answer = client.post(f"/api/games/{view['id']}/solver", json={}).json()
    assert answer["move"]["kind"] == "start" and answer["move"]["open"] == [first]
    assert (hint["best"], hint["best_by"]) == (first, "+endgame") and hint["best_note"].startswith("First click")


@pytest.mark.parametrize("seed", [2, 7])
def test_the_hint_suggests_the_click_the_solver_plays(client, seed):
    # move by move, until the game ends: the hint's suggested click is the first cell the
    # watched player opens, guesses included (where the least mine chance often differs)
    view = new_game(client, width=16, height=16, mines=40, rule="opening", seed=seed)
    guesses = 0
    while view["status"] not in ("won", "lost"):
        hint = client.post(f"/api/games/{view['id']}/hint").json()
        answer = client.post(f"/api/games/{view['id']}/solver", json={}).json()
        assert hint["best_by"] == "+endgame"
        assert hint["best"] == answer["move"]["open"][0], (answer["move"], hint["best"])
        if answer["move"]["kind"] == "guess":
            guesses += 1
            assert hint["best_note"] == answer["move"]["text"]
            _check_candidates(hint)
        else:
            assert hint["candidates"] == []
        view = answer["game"]
    assert guesses


def test_a_game_whose_every_job_outruns_its_first_slice_gets_the_same_hints_and_moves(client):
    # a first slice of no time sends the hint's analysis, its suggested click and the
    # solver's moves to the workers for slow positions: they must say what they say
    # where nothing moves
    with TestClient(create_app(Settings(workers=1, max_games=50, first_slice=0.0))) as sliced:
        servers = (client, sliced)
        games = [new_game(c, width=16, height=16, mines=40, rule="opening", seed=7) for c in servers]
        guesses = 0
        while games[0]["status"] not in ("won", "lost"):
            hints = [c.post(f"/api/games/{g['id']}/hint").json() for c, g in zip(servers, games)]
            answers = [c.post(f"/api/games/{g['id']}/solver", json={}).json() for c, g in zip(servers, games)]
            marks = [hint.pop("guesses") for hint in hints]  # dead cells are sought for a time only
            assert hints[0] == hints[1] and answers[0]["move"] == answers[1]["move"]
            assert marks[0] == marks[1] or not all(m is None or m["complete"] for m in marks)
            guesses += answers[0]["move"]["kind"] == "guess"
            games = [answer["game"] for answer in answers]
        api = sliced.app.state.api
        assert guesses and api.pool.moved == api.large_pool.completed > 2 * guesses


def test_the_hint_falls_back_to_the_least_chance_when_it_is_only_estimated():
    with TestClient(create_app(Settings(workers=1, state_limit=0))) as c:  # every chance an estimate
        view = new_game(c, rule="safe", seed=0)
        assert move(c, view["id"], "reveal", 4, 4)["rows"][4] == "....1...."  # nothing proven: a guess is due
        hint = c.post(f"/api/games/{view['id']}/hint").json()
    assert hint["exact"] is False and hint["safe"] == [] and hint["best"] is not None
    assert hint["best_by"] == "least-p" and "estimates" in hint["best_note"]


def test_no_guess_game_is_made_at_the_first_click(client):
    view = new_game(client, rule="safe", no_guess=True, seed=6)
    assert view["no_guess"] is True and view["guarantee"] is None
    move(client, view["id"], "flag", 0, 0)  # flags before the board exists carry over
    view = move(client, view["id"], "reveal", 4, 4)
    assert view["status"] == "playing" and "solvable" in view["guarantee"]
    assert view["rows"][0][0] == "F"
    entry = client.app.state.api.games.get(view["id"])  # test-only look behind the curtain
    layout = entry.game.layout()
    assert verify(layout, (4, 4)).solved

    # its replay names the no-guess generator and loads back from the stored layout
    mine = next(c for c in np.flatnonzero(layout.mines).tolist() if c != 0)
    view = move(client, view["id"], "reveal", mine % 9, mine // 9)
    record = client.get(f"/api/games/{view['id']}/replay").json()
    assert record["no_guess"] is True and "noguess" in record["generator"]
    loaded = client.post("/api/games/load", json=record).json()
    assert (loaded["status"], loaded["rows"], loaded["no_guess"]) == ("lost", view["rows"], True)


def test_a_uniform_no_guess_game_says_how_it_was_drawn(client):
    view = new_game(client, width=30, height=16, mines=130, rule="opening", no_guess=True,
                    no_guess_method="uniform", seed=4)
    assert view["no_guess_method"] == "uniform" and view["sampling"] is None
    view = move(client, view["id"], "reveal", 15, 8)
    assert "solvable by complete deduction" in view["guarantee"]
    # 30x16/130 is too dense for 100 retries: the chain made it, and says so
    assert "Markov chain" in view["sampling"] and "uniform" in view["sampling"]
    layout = client.app.state.api.games.get(view["id"]).game.layout()  # test-only look behind the curtain
    assert layout.mine_count == 130 and verify(layout, (15, 8)).solved
    # the same seed and click make the same board as the library does
    made = generate_no_guess(Spec(30, 16, 130), "opening", (15, 8), 4, method="uniform", time_limit=10.0)
    assert made.layout == layout
    response = client.post("/api/games", json={"width": 9, "height": 9, "mines": 10, "rule": "winxp",
                                               "no_guess": True, "no_guess_method": "uniform"})
    assert response.status_code == 400 and "winxp" in response.json()["error"]
    response = client.post("/api/games", json={"width": 9, "height": 9, "mines": 10, "no_guess": True,
                                               "no_guess_method": "magic"})
    assert response.status_code == 400 and "no_guess_method must be one of" in response.json()["error"]


def test_an_unfinished_replay_continues(client):
    spec, seed = Spec(6, 5, 5), 3
    engine = Game.deferred(spec, "opening", seed)
    engine.reveal((2, 2))
    layout = engine.layout()
    view = client.post("/api/games/load", json=engine.replay().to_dict()).json()
    assert view["status"] == "playing" and view["layout"] is None and view["seed"] is None
    for cell in range(30):
        x, y = cell % 6, cell // 6
        if not layout.mines[cell] and view["rows"][y][x] == ".":
            view = move(client, view["id"], "reveal", x, y)
    assert view["status"] == "won" and view["elapsed"] >= 0


@pytest.mark.parametrize(
    ("replay", "words"),
    [
        ({"width": 5, "height": 5}, "format"),
        ({"format": "mscsp-replay/1", "width": 5, "height": 5, "mines": 1, "actions": [{"action": "dig"}]},
         "action 1: 'action' must be one of"),
        ({"format": "mscsp-replay/1", "width": 500, "height": 5}, "between 1 and 100"),
        ({"format": "mscsp-replay/1", "width": 2, "height": 1, "mines": 1, "layout": ["*."], "status": "won",
          "actions": [{"action": "reveal", "cell": [0, 0], "t": 0}]}, "ends lost"),
    ],
)
def test_bad_replays_are_refused(client, replay, words):
    response = client.post("/api/games/load", json=replay)
    assert response.status_code == 400 and words in response.json()["error"]


def test_old_games_are_dropped_beyond_the_limit():
    with TestClient(create_app(Settings(workers=1, max_games=2))) as c:
        ids = [c.post("/api/games", json={"width": 3, "height": 3, "mines": 1}).json()["id"] for _ in range(3)]
        assert c.get(f"/api/games/{ids[0]}").status_code == 404
        assert all(c.get(f"/api/games/{i}").status_code == 200 for i in ids[1:])


# -- the command ----------------------------------------------------------------------------------
def test_serve_is_registered_with_loopback_defaults():
    import argparse

    parser = argparse.ArgumentParser(prog="mscsp")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    assert loopback_hosts("::1") == ["127.0.0.1", "::1", "localhost"]
    assert loopback_hosts("192.168.1.5") is None


def _serve(*argv):
    code = (
        "import argparse, sys\n"
        "from mscsp.web.command import register\n"
        "p = argparse.ArgumentParser(prog='mscsp'); register(p.add_subparsers(dest='command'))\n"
        "a = p.parse_args(sys.argv[1:])\n"
        "if __name__ == '__main__': sys.exit(a.func(a))\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code, "serve", *argv], stderr=subprocess.PIPE, text=True
    )


def _http(url: str, body: dict | None = None) -> tuple[int, dict]:
    """A request with the standard library: (status, JSON body)."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def _raw(port: int, request: bytes) -> tuple[int, dict, bytes]:
    """Send bytes as they are; (status, headers in lower case, body) of the answer."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def test_serve_runs_a_real_server_and_stops_on_interrupt():
    import signal
    import urllib.error

    proc = _serve("--port", "0")
    try:
        line = proc.stderr.readline()
        base = "http://127.0.0.1:{}".format(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
        deadline = time.monotonic() + 20
        while True:
            try:
                status, limits = _http(f"{base}/api/limits")
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert status == 200 and limits["max_side"] == 100
        status, record = _http(f"{base}/api/analyse", {"position": "mines: 1\n.1...\n"})
        assert status == 200 and record["safe"] == [[3, 0], [4, 0]]
        assert _http(f"{base}/api/analyse", {"position": 3})[0] == 400
        # a request that is not HTTP, or names another host, is answered in JSON too
        port = int(base.rsplit(":", 1)[1])
        body = b'{"position": "mines: 1\\n.1\\n"}'
        for head, words in ((b"Host: 127.0.0.1\r\nContent-Length: -5", "not valid HTTP/1.1"),
                            (b"Host: 127.0.0.1\r\nContent-Length: 1e3", "not valid HTTP/1.1"),
                            (b"Host: rebound.example\r\nContent-Length: %d" % len(body), "does not answer to the host")):
            status, headers, answer = _raw(port, b"POST /api/parse HTTP/1.1\r\n" + head +
                                           b"\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n" + body)
            assert status == 400 and headers["content-type"] == "application/json", (head, headers, answer)
            assert words in json.loads(answer)["error"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def test_serve_binds_a_tcp_socket_so_answers_are_not_delayed():
    import socket

    from mscsp.web.command import _bind

    # asyncio sets TCP_NODELAY only on sockets of protocol IPPROTO_TCP; with proto 0
    # every answer waited ~40 ms for the client's delayed ACK
    with _bind("127.0.0.1", 0) as sock:
        assert sock.proto == socket.IPPROTO_TCP and sock.getsockname()[1] > 0


def test_serve_reports_a_port_in_use():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = _serve("--port", str(taken.getsockname()[1]))
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "cannot listen" in err and err.count("\n") == 1


# -- the worker pool ------------------------------------------------------------------------------
def test_worker_pool_survives_a_dying_worker_and_reports_a_broken_start():
    import asyncio
    import operator
    import os

    from mscsp.web.workers import JobFailed, WorkerPool

    async def scenario():
        pool = WorkerPool(1)
        await pool.start()
        try:
            with pytest.raises(JobFailed, match="ended unexpectedly"):
                await pool.run(os._exit, (3,), timeout=10)
            assert await pool.run(operator.mul, (6, 7), timeout=30) == 42  # a fresh worker took over
        finally:
            await pool.close()
        broken = WorkerPool(1, warm=("mscsp.no_such_module",))
        with pytest.raises(JobFailed, match="ModuleNotFoundError"):
            await broken.start()
        await broken.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("seed", [2, 7, 19])
def test_the_solver_plays_from_the_position_and_its_proofs_hold_on_the_layout(seed):
    with TestClient(create_app(Settings(workers=1))) as c:
        game = c.post("/api/games", json={"width": 16, "height": 16, "mines": 40, "seed": seed,
                                          "rule": "opening"}).json()
        moves = []
        while True:
            answer = c.post(f"/api/games/{game['id']}/solver", json={"policy": "+endgame"})
            assert answer.status_code == 200
            moves.append(answer.json()["move"])
            view = answer.json()["game"]
            if view["status"] in ("won", "lost"):
                break
        layout = view["layout"]  # shown once the game is over
        for move in moves:
            if move["kind"] == "proven":
                assert all(layout[y][x] == "." for x, y in move["open"])
            assert all(layout[y][x] == "*" for x, y in move["flag"])
        assert view["status"] == "won" or moves[-1]["kind"] == "guess"
        again = c.post(f"/api/games/{game['id']}/solver", json={})
        assert again.status_code == 409 and "over" in again.json()["error"]
        bad = c.post(f"/api/games/{game['id']}/solver", json={"policy": "best"})
        assert bad.status_code == 400


def test_the_solver_refuses_a_position_whose_flags_contradict_the_numbers(client):
    # [0,2] is proven safe once [4,4] is open: a flag there leaves no layout, which the hint
    # reports as an impossible position and the solver as the reason it cannot move
    view = new_game(client, rule="opening", seed=12345)
    move(client, view["id"], "reveal", 4, 4)
    move(client, view["id"], "flag", 0, 2)
    hint = client.post(f"/api/games/{view['id']}/hint").json()
    assert hint["consistent"] is False
    answer = client.post(f"/api/games/{view['id']}/solver", json={"policy": "+endgame"})
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert error.startswith("the flags contradict the numbers") and "\n" not in error
    assert hint["contradiction"]["text"] in error
    # with the flag taken off the solver plays on
    move(client, view["id"], "unflag", 0, 2)
    assert client.post(f"/api/games/{view['id']}/solver", json={}).status_code == 200


def expert_openings(count: int) -> list[str]:
    """Expert games just opened: positions the server analyses in milliseconds."""
    positions = []
    for seed in range(count):
        board = generate(Spec(30, 16, 99), "opening", (3, 3), seed)
        game = Game.from_board(board)
        game.reveal(board.click)
        positions.append(format_position(game.position()))
    return positions


def race(client, slow: list[str], ordinary: list[str]) -> tuple[list, list]:
    """Send the slow positions, and a moment later (so that they are in first) the
    ordinary ones, all at once. Each answer is ``(status, body, seconds taken, when it
    came back)``, the last on the clock of ``time.monotonic``."""
    client.post("/api/analyse", json={"position": ordinary[0]})  # the workers are warm

    def timed(text):
        started = time.monotonic()
        response = client.post("/api/analyse", json={"position": text})
        ended = time.monotonic()
        return response.status_code, response.json(), ended - started, ended

    with ThreadPoolExecutor(len(slow) + len(ordinary)) as ex:
        slow_answers = [ex.submit(timed, text) for text in slow]
        time.sleep(0.2)
        answers = list(ex.map(timed, ordinary))
    return [f.result() for f in slow_answers], answers


def test_slow_analyses_cannot_make_ordinary_ones_wait():
    # two positions with a huge border (seconds each), sent with twenty Expert games in
    # play, go straight to the workers for slow positions: their size gives them away
    settings = Settings(workers=2, large_workers=1, sat_time_limit=30.0, analysis_timeout=3.0)
    with TestClient(create_app(settings)) as c:
        slow_answers, answers = race(c, [four_lattices()] * 2, expert_openings(20))
        for status, body, seconds, _ in answers:
            assert status == 200 and seconds < 1.0, (status, body.get("error"), seconds)
        texts = sorted(body["error"] for _, body, _, _ in slow_answers)
        # one was stopped at its limit, the other never got a worker: each is told which
        assert texts[0].startswith("the analysis was stopped") and "smaller or simpler" in texts[0]
        assert texts[1].startswith("the server is busy with slow positions")
        assert c.app.state.api.pool.moved == 0  # no slice was spent on them


def test_slow_no_guess_boards_make_ordinary_analyses_wait_no_longer_than_a_slice():
    # a no-guess 100x100 board with 2,500 mines takes the generator seconds (an Expert
    # one milliseconds). Two of them, asked for by first clicks, with twenty Expert
    # positions sent a moment later: each generation gives up its ordinary worker after
    # the first slice, so every Expert answer comes back before either board is made
    # (kept there, the two generations held both ordinary workers)
    settings = Settings(workers=2, large_workers=1, generation_time_limit=60.0)
    with TestClient(create_app(settings)) as c:
        api = c.app.state.api
        ordinary = expert_openings(20)
        c.post("/api/analyse", json={"position": ordinary[0]})  # the workers are warm
        games = [new_game(c, width=100, height=100, mines=2500, rule="opening", no_guess=True, seed=seed)["id"]
                 for seed in (1, 2)]

        def first_click(game_id):
            move(c, game_id, "reveal", 50, 50)
            return time.monotonic()

        def analysed(text):
            response = c.post("/api/analyse", json={"position": text})
            return response.status_code, time.monotonic()

        with ThreadPoolExecutor(len(games) + len(ordinary)) as ex:
            made = [ex.submit(first_click, game_id) for game_id in games]
            time.sleep(0.2)
            answers = list(ex.map(analysed, ordinary))
        boards_ready = min(f.result() for f in made)
        assert all(status == 200 for status, _ in answers)
        assert max(ended for _, ended in answers) < boards_ready
        assert api.pool.moved == 2
        for game_id in games:
            view = c.get(f"/api/games/{game_id}").json()
            assert view["status"] in ("playing", "won") and "solvable" in view["guarantee"]


def lattice(width: int, height: int, mines: int) -> str:
    """A revealed 1 on every other cell of every other row, all else covered: every
    covered cell is on the border, in one linked part."""
    rows = ("".join("1" if x % 2 == 0 and y % 2 == 0 else "." for x in range(width)) for y in range(height))
    return f"mines: {mines}\n" + "\n".join(rows) + "\n"


def test_positions_slow_for_their_size_make_ordinary_ones_wait_no_longer_than_a_slice():
    # a 16x16 lattice has 192 covered cells, too few to count as large before it runs, but
    # no 64 mines fit it, which the analysis takes about half its time limit (here 10 s, so
    # that twenty Expert answers fit before it even on a loaded machine) to show and explain. Two of them sent with twenty Expert games in play: each gives up
    # its ordinary worker after the first slice, so every Expert answer comes back while
    # the slow ones still run (kept there, the slow ones held both ordinary workers, and no
    # Expert game was even started before one of them had finished)
    hard = lattice(16, 16, 64)
    settings = Settings(workers=2, large_workers=1, sat_time_limit=10.0, analysis_timeout=30.0)
    with TestClient(create_app(settings)) as c:
        api = c.app.state.api
        assert not api.is_large(hard)
        slow_answers, answers = race(c, [hard] * 2, expert_openings(20))
        assert all(status == 200 for status, *_ in slow_answers + answers)
        assert all(body["consistent"] is False for _, body, _, _ in slow_answers)
        first_slow = min(ended for *_, ended in slow_answers)
        assert max(ended for *_, ended in answers) < first_slow, (
            [round(seconds, 2) for _, _, seconds, _ in slow_answers], max(seconds for _, _, seconds, _ in answers))
        # both moved on: one with its worker (the slow one was idle), the other started again
        assert (api.pool.moved, api.pool.replaced, api.large_pool.completed) == (2, 1, 2)


def test_a_position_that_outruns_its_first_slice_gets_the_answer_of_an_uninterrupted_run():
    # the Expert lattice, about a second to analyse (its size shortcut turned off): the
    # answer comes from the workers for slow positions, and is the one a run in one go gives
    from mscsp.web import jobs

    text = (POSITIONS / "lattice_expert.txt").read_text()
    settings = Settings(workers=1, large_workers=1, sat_time_limit=30.0, analysis_timeout=60.0, first_slice=0.05,
                        large_border=10_000)
    expected = json.loads(json.dumps(jobs.analyse_text(text, "sat", True, settings.sat_time_limit,
                                                       settings.state_limit)))
    with TestClient(create_app(settings)) as c:
        api = c.app.state.api

        def analysed():
            response = c.post("/api/analyse", json={"position": text})
            assert response.status_code == 200, response.text
            return response.json()

        # the worker for slow positions is idle: the pools trade workers, the job runs on
        assert analysed() == expected
        assert (api.pool.moved, api.pool.replaced, api.pool.completed, api.large_pool.completed) == (1, 0, 0, 1)
        # two at once: the second, once its slice is out, finds that worker busy with the
        # first, so its own is stopped and replaced and it starts again there
        with ThreadPoolExecutor(2) as ex:
            assert list(ex.map(lambda _: analysed(), range(2))) == [expected] * 2
        assert (api.pool.moved, api.pool.replaced, api.pool.completed, api.large_pool.completed) == (3, 1, 0, 3)
        # no worker is lost: each pool has its one, and the replaced one serves
        assert c.post("/api/analyse", json={"position": "mines: 1\n.1...\n"}).status_code == 200
        assert len(api.pool._workers) == len(api.large_pool._workers) == 1


def test_a_job_moved_after_its_first_slice_is_told_apart_from_a_busy_server():
    import asyncio
    import operator

    from mscsp.web.workers import JobTimeout, WorkerPool

    async def scenario():
        quick, slow = WorkerPool(1), WorkerPool(1)
        await asyncio.gather(quick.start(), slow.start())
        try:
            # moved with its worker, it runs out of its own time: the job is too slow
            with pytest.raises(JobTimeout, match="took longer than 1 s") as stopped:
                await quick.run(time.sleep, (30,), timeout=1.0, first_slice=0.05, overflow=slow)
            assert stopped.value.moved and not stopped.value.busy
            assert (quick.moved, quick.replaced, slow.replaced) == (1, 0, 1)
            # the slow pool is busy: started again there, it waits, and the server is busy
            assert await slow.run(operator.add, (1, 1), timeout=30) == 2  # its new worker is in
            blocker = asyncio.ensure_future(slow.run(time.sleep, (3,), timeout=30))
            await asyncio.sleep(0.2)
            with pytest.raises(JobTimeout, match="no worker was free within 1.5 s") as waited:
                await quick.run(time.sleep, (0.1,), timeout=1.5, first_slice=0.05, overflow=slow)
            assert waited.value.moved and waited.value.busy
            assert (quick.moved, quick.replaced) == (2, 1)
            await blocker
            # a quick job stays where it is (once the replaced worker is in)
            assert await quick.run(operator.add, (2, 3), timeout=30, first_slice=0.5, overflow=slow) == 5
            assert (quick.completed, quick.moved, slow.completed) == (1, 2, 2)
            # a moved job whose request is cancelled stops its worker in the pool it went to
            moved = asyncio.ensure_future(quick.run(time.sleep, (30,), timeout=30, first_slice=0.05, overflow=slow))
            await asyncio.sleep(0.3)
            moved.cancel()
            with pytest.raises(asyncio.CancelledError):
                await moved
            assert (quick.moved, quick.replaced, slow.replaced) == (3, 1, 2)
            assert len(quick._workers) == len(slow._workers) == 1
        finally:
            await asyncio.gather(quick.close(), slow.close())

    asyncio.run(scenario())
