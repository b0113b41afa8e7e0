"""The Starlette application behind ``mscsp serve``: pages, JSON API, error answers.

Routes
------
=======  ==========================  ==================================================
GET      ``/``                       the analysis page
GET      ``/play``                   the play page
GET      ``/static/...``             scripts and styles, shipped inside the package
GET      ``/api/limits``             board presets, rules, solvers and size limits
POST     ``/api/parse``              ``{"position": text}``: the grid rows and total, or
                                     a located error
POST     ``/api/analyse``            ``{"position": text, "solver", "use_total"}``: the
                                     ``mscsp solve --json`` record
POST     ``/api/import``             ``{"text": JSMinesweeper's text}`` or ``{"mbf":
                                     base64 of a .mbf board, "click"}`` (opened at
                                     ``click`` or in its largest opening): the position in this
                                     toolkit's text format, with ``format`` and ``note``
                                     (see :mod:`mscsp.formats.foreign`), or a located error
POST     ``/api/example``            ``{"width", "height", "mines", "seed"}``: a dealt
                                     board opened from a safe first click, as text
POST     ``/api/games``              ``{"width", "height", "mines", "rule", "no_guess",
                                     "no_guess_method", "seed"}``: a new game
GET      ``/api/games/{id}``         the game as the player sees it
POST     ``/api/games/{id}/move``    ``{"action": reveal|flag|unflag|chord, "cell":
                                     [x, y]}``
POST     ``/api/games/{id}/hint``    the analysis record of the current position, whose
                                     ``best`` is the watched player's click, named in
                                     ``best_by`` (``+endgame``, else ``least-p``) with
                                     ``best_note`` (its reason, or why it fell back),
                                     and ``candidates``: the cells it weighed, ranked,
                                     with their exact values (``candidates_rung`` says
                                     which rung weighed them)
POST     ``/api/games/{id}/solver``  ``{"policy"}``: the strongest player's next move, played;
                                     answers ``{"move", "game"}`` (the move's cells and why),
                                     or 409 when the flags contradict the numbers
POST     ``/api/games/{id}/clear``   auto-clear: opens every cell proven safe (flags
                                     aside), round after round; answers ``{"opened",
                                     "complete", "game"}``, or 409 as the solver
GET      ``/api/games/{id}/replay``  the replay of a finished game
POST     ``/api/games/load``         a saved replay: a new game in its final state
POST     ``/api/runs``               ``{"width", "height", "mines", "rule", "policy",
                                     "games", "seed"}``: a bulk run of games played by
                                     one rung of the ladder (see :mod:`mscsp.web.runs`),
                                     409 while another runs
GET      ``/api/runs/{id}``          how far it has come: games played and won, the
                                     win rate and its Wilson interval
POST     ``/api/runs/{id}/cancel``   stop it; what was played stands
=======  ==========================  ==================================================

Every error is ``{"error": message}`` with a 4xx status for the client's mistakes
(400 malformed, 404 unknown, 409 not allowed now, 413 too large, 415 not JSON, 422
no board found) and 503 when an analysis did not finish within its deadline.

One module, not several: the routes and their one-line error answers, each a thin
handler over the worker jobs (:mod:`mscsp.web.jobs`); the table of routes above is the
module's map.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import time
from pathlib import Path

import numpy as np
from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..analysis.solvers.result import SolverName
from ..board import PRESETS, Spec
from ..errors import InputError, MscspError, ParseError
from ..formats.foreign import read_jsminesweeper, read_mbf
from ..game import ActionKind, Game, Status
from ..metrics import opening_regions
from ..play.noguess import Method
from ..play.policies import Policy
from ..position import Mark, Position, format_position, parse_position
from ..rules import FirstClickRule, generate, max_mines
from ..sampling import fresh_seed
from . import jobs
from .games import GameEntry, GameStore, game_view, play_move, replay_record
from .replays import load_replay
from .runs import Run, RunStore, run_view
from .settings import Settings
from .validate import (
    RequestError,
    check_size,
    field_bool,
    field_cell,
    field_choice,
    field_int,
    field_str,
    read_json,
    read_spec,
    shown,
)
from .workers import JobFailed, JobTimeout, WorkerPool

__all__ = ["create_app", "STATIC"]

#: The pages, scripts and styles, installed with the package.
STATIC = Path(__file__).resolve().parent / "static"

_SEED_MAX = 2**53 - 1  # exact in JavaScript numbers, like fresh_seed()
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


async def _client_gone(request: Request, every: float = 0.1) -> None:
    """Return once the client of ``request`` has disconnected."""
    while not await request.is_disconnected():
        await asyncio.sleep(every)


#: The player whose move the hint suggests and "Watch the solver" plays by default.
HINT_POLICY = Policy.ENDGAME


class _ClientGone(Exception):
    """The client of a request went away (or asked again) before its answer was ready."""


def _timed(record: dict, started: float) -> Response:
    """A record as JSON, with the time taken since ``started`` as a Server-Timing header."""
    ms = (time.perf_counter() - started) * 1e3
    return JSONResponse(record, headers={"Server-Timing": f"analysis;dur={ms:.1f}"})


def _busy(exc: JobTimeout, load: str = "") -> RequestError:
    """The answer to a job whose time went to waiting for a worker: the server was busy
    (with ``load``, when it is worth naming), which says nothing about the request."""
    with_what = f" with {load}" if load else ""
    return RequestError(503, f"the server is busy{with_what}: {exc}; try again in a moment")


class _Api:
    """The handlers, sharing one server's settings, worker pool and games."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.pool = WorkerPool(settings.workers, warm=("mscsp.web.jobs",))
        # slow positions wait for their own workers, never for ordinary ones (see route)
        self.large_pool = WorkerPool(settings.large_workers, warm=("mscsp.web.jobs",))
        self.games = GameStore(settings.max_games)
        self.runs = RunStore(settings.max_runs)
        self.run_pool: WorkerPool | None = None  # started at the first bulk run
        self._run_pool_started = asyncio.Lock()

    # -- helpers -------------------------------------------------------------------
    async def body(self, request: Request) -> dict:
        data = await read_json(request, self.settings.max_body)
        if not isinstance(data, dict):
            raise RequestError(400, f"the request body must be a JSON object, not {type(data).__name__}")
        return data

    def position(self, text: str):
        """Parse and size-check a position; RequestError with line and column if bad."""
        try:
            position = parse_position(text)
        except ParseError as exc:
            raise RequestError(400, str(exc), {"line": exc.line, "column": exc.column}) from None
        except ValueError as exc:  # text the parser fails to place is still the client's, never a 500
            raise RequestError(400, f"the position cannot be read: {exc}") from None
        g = position.geometry
        check_size(g.width, g.height, self.settings)
        if position.mines is not None and position.mines > g.size:
            raise RequestError(400, f"mines: {position.mines} is more than the {g.size} cells of the board")
        return position

    def is_large(self, position: Position | str) -> bool:
        """Whether a position (or its text) has at least ``large_border`` covered cells
        next to an open cell: a bound on its border's largest linked part read off the
        grid, since this runs on the server's one thread, where building the clue
        equations would hold up every other request."""
        if isinstance(position, str):
            try:
                position = parse_position(position)
            except MscspError:
                return False  # the worker reports what is wrong with it
        g = position.geometry
        touched = np.zeros(g.area + 1, dtype=bool)  # the padding of the neighbour rows last
        touched[g.neighbour_rows(np.flatnonzero(position.revealed)).ravel()] = True
        return int(np.count_nonzero(touched[:-1] & position.covered)) >= self.settings.large_border

    def route(self, position: Position | str) -> tuple[WorkerPool, dict]:
        """Where a job on a position runs: the pool, and the options of its ``run``.

        Only running a position tells how long it takes, so every job starts among
        the ordinary workers and moves to those for slow positions once it has run
        for ``first_slice`` seconds (:meth:`WorkerPool.run`), so that a slow position
        holds an ordinary worker no longer than that. A border too large to be quick
        (:meth:`is_large`) goes there at once, sparing the ordinary workers the slice.
        """
        if self.is_large(position):
            return self.large_pool, {}
        return self.pool, {"first_slice": self.settings.first_slice, "overflow": self.large_pool}

    async def attend(self, request: Request | None, pool: WorkerPool, func, args: tuple, timeout: float,
                     **options):
        """Run a job for ``request`` (``options`` are those of :meth:`WorkerPool.run`),
        stopped as soon as its client has gone (then :class:`_ClientGone`), so its worker
        serves the next request instead of finishing unread work: a page that asks again
        has dropped the old answer."""
        job = asyncio.ensure_future(pool.run(func, args, timeout=timeout, **options))
        if request is not None:
            gone = asyncio.ensure_future(_client_gone(request))
            await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not job.done():
                job.cancel()
                with contextlib.suppress(asyncio.CancelledError, JobTimeout, JobFailed):
                    await job
                raise _ClientGone
            gone.cancel()
        return await job

    async def analysis_record(self, text: str, solver: SolverName, use_total: bool,
                              request: Request | None = None) -> dict:
        """The ``mscsp solve --json`` record of a position, from a worker."""
        s = self.settings
        return await self.analysis_job(text, jobs.analyse_text,
                                       (text, solver.value, use_total, s.sat_time_limit, s.state_limit), request)

    async def analysis_job(self, position: Position | str, func, args: tuple, request: Request | None) -> dict:
        """A job that analyses ``position`` (or its text), from a worker, its failures
        answered as an analysis's."""
        s = self.settings
        pool, options = self.route(position)
        try:
            return await self.attend(request, pool, func, args, s.analysis_timeout, **options)
        except JobTimeout as exc:
            if exc.busy:  # the position may be easy: the server was busy, and says so
                slow = pool is self.large_pool or exc.moved
                raise _busy(exc, "slow positions" if slow else "ordinary positions") from None
            raise RequestError(503, f"the analysis was stopped: {exc}; try a smaller or simpler position") from None
        except JobFailed as exc:
            status = 400 if exc.kind == "input" else 500
            raise RequestError(status, f"the analysis failed: {exc}") from None

    def entry(self, request: Request) -> GameEntry:
        return self.games.get(request.path_params["game_id"])

    # -- pages and limits ------------------------------------------------------------
    async def limits(self, request: Request) -> Response:
        s = self.settings
        return JSONResponse({
            "presets": {name: {"width": p.width, "height": p.height, "mines": p.mines} for name, p in PRESETS.items()},
            "rules": [r.value for r in FirstClickRule],
            "solvers": [v.value for v in SolverName],
            "max_side": s.max_side,
            "max_cells": s.max_cells,
            "max_body": s.max_body,
            "analysis_timeout": s.analysis_timeout,
            "analysis_budget": s.sat_time_limit,
        })

    # -- analysis ----------------------------------------------------------------------
    async def parse(self, request: Request) -> Response:
        data = await self.body(request)
        position = self.position(field_str(data, "position"))
        g = position.geometry
        return JSONResponse({"width": g.width, "height": g.height, "mines": position.mines, "rows": position.rows()})

    async def analyse_position(self, request: Request) -> Response:
        data = await self.body(request)
        text = field_str(data, "position")
        solver = field_choice(data, "solver", SolverName, SolverName.SAT)
        use_total = field_bool(data, "use_total", True)
        self.position(text)
        started = time.perf_counter()
        record = await self.analysis_record(text, solver, use_total, request)
        return _timed(record, started)

    async def import_board(self, request: Request) -> Response:
        """A board in another tool's format, as a position of this toolkit's text format."""
        data = await self.body(request)
        try:
            if "mbf" in data:
                try:
                    raw = base64.b64decode(field_str(data, "mbf"), validate=True)
                except binascii.Error:
                    raise RequestError(400, "mbf must be the board file's bytes in base64") from None
                layout = read_mbf(raw)
                check_size(layout.geometry.width, layout.geometry.height, self.settings)
                click = field_cell(data, "click", layout.geometry) if data.get("click") is not None else None
                position, note = _opened_at_a_zero(layout, click)
                kind = "mbf"
            else:
                position = read_jsminesweeper(field_str(data, "text"))
                check_size(position.geometry.width, position.geometry.height, self.settings)
                kind, note = "jsminesweeper", "read from JSMinesweeper's text"
        except ParseError as exc:
            raise RequestError(400, str(exc), {"line": exc.line, "column": exc.column}) from None
        return JSONResponse({"position": format_position(position, [note]), "format": kind, "note": note})

    async def example(self, request: Request) -> Response:
        data = await self.body(request)
        width = field_int(data, "width", 1, self.settings.max_side)
        height = field_int(data, "height", 1, self.settings.max_side)
        check_size(width, height, self.settings)
        mines = field_int(data, "mines", 0, width * height - 1)
        seed = field_int(data, "seed", 0, _SEED_MAX, default=fresh_seed())
        spec = Spec(width, height, mines)
        click = (width // 2, height // 2)
        cell = spec.geometry.index(*click)
        rule = FirstClickRule.OPENING
        if mines > max_mines(spec.geometry, rule, cell):
            rule = FirstClickRule.SAFE
        board = generate(spec, rule, click, seed)
        game = Game.from_board(board)
        game.reveal(board.click)
        text = format_position(game.position(), [f"dealt by mscsp: seed {seed}, rule {rule.value}, click [{click[0]},{click[1]}]"])
        return JSONResponse({"position": text, "seed": seed, "rule": rule.value, "click": list(click)})

    # -- games -----------------------------------------------------------------------
    async def new_game(self, request: Request) -> Response:
        data = await self.body(request)
        rule = field_choice(data, "rule", FirstClickRule, FirstClickRule.SAFE)
        spec = read_spec(data, self.settings, rule)
        no_guess = field_bool(data, "no_guess", False)
        method = field_choice(data, "no_guess_method", Method, Method.PERTURB)
        if no_guess and method is Method.UNIFORM and rule is FirstClickRule.WINXP:
            raise RequestError(400, "uniform no-guess boards need a rule whose layouts are equally likely: "
                                    "'winxp' moves a mine to a chosen cell (use uniform, safe or opening)")
        seed = field_int(data, "seed", 0, _SEED_MAX, default=fresh_seed())
        entry = self.games.add(
            lambda gid: GameEntry(gid, Game.deferred(spec, rule, seed), rule, no_guess, seed,
                                  no_guess_method=method.value)
        )
        return JSONResponse(game_view(entry), status_code=201)

    async def show_game(self, request: Request) -> Response:
        return JSONResponse(game_view(self.entry(request)))

    async def move(self, request: Request) -> Response:
        entry = self.entry(request)
        data = await self.body(request)
        kind = field_choice(data, "action", ActionKind, ActionKind.REVEAL)
        async with entry.lock:
            cell = field_cell(data, "cell", entry.game.geometry)
            await play_move(entry, kind, cell, self.make_board)
            entry.clicks += 1
            return JSONResponse(game_view(entry))

    async def make_board(self, entry: GameEntry, cell: int):
        s = self.settings
        spec = entry.spec
        click = entry.game.geometry.coords(cell)
        try:
            # like an analysis, a generation shows its cost only by running: one that
            # outruns the first slice moves to the workers for slow jobs (a seeded
            # search, so a restart there makes the same board)
            return await self.pool.run(
                jobs.no_guess_board,
                (spec.width, spec.height, spec.mines, entry.rule.value, click, entry.seed, s.generation_time_limit,
                 entry.no_guess_method),
                timeout=s.generation_timeout, first_slice=s.first_slice, overflow=self.large_pool,
            )
        except JobTimeout as exc:
            if exc.busy:
                raise _busy(exc) from None
            raise RequestError(503, f"no no-guess board was ready in time: {exc}") from None
        except JobFailed as exc:
            status = {"input": 400, "generation": 422}.get(exc.kind, 500)
            raise RequestError(status, f"no no-guess board: {exc}; try fewer mines or a plain board") from None

    async def hint(self, request: Request) -> Response:
        """The analysis of what the player sees, whose suggested click is the watched
        player's (:data:`HINT_POLICY`, so the two agree; the least mine probability when
        that player cannot decide in time), all within the analysis timeout: one job,
        whose position is read and counted once (:func:`~mscsp.web.jobs.hint_text`)."""
        entry = self.entry(request)
        entry.help("hint")  # asked for is seen: noted before the answer, which the page may drop
        position = entry.game.position()
        text = format_position(position)
        started = time.perf_counter()
        s = self.settings
        record = await self.analysis_job(position, jobs.hint_text,
                                         (text, HINT_POLICY.value, entry.rule.value, s.sat_time_limit, s.state_limit,
                                          s.analysis_timeout), request)
        return _timed(record, started)

    async def solver(self, request: Request) -> Response:
        """Play the solver's next move: it is computed in a worker from the position the
        player sees (never the layout), then applied to the game here."""
        entry = self.entry(request)
        data = await self.body(request)
        policy = field_choice(data, "policy", Policy, HINT_POLICY)
        s = self.settings
        async with entry.lock:
            if entry.game.status.over:
                raise RequestError(409, "the game is over")
            position = entry.game.position()
            text = format_position(position)
            move = await self.game_job(position, jobs.solver_move,
                                       (text, policy.value, entry.rule.value, s.sat_time_limit),
                                       s.analysis_timeout, "the solver's move", "the solver cannot move")
            g = entry.game.geometry
            entry.help("solver")
            for x, y in move["flag"]:
                if not entry.game.flagged[g.cell((x, y))]:
                    await play_move(entry, ActionKind.FLAG, g.cell((x, y)), self.make_board)
            for x, y in move["open"]:
                if entry.game.status.over:
                    break
                cell = g.cell((x, y))
                if entry.game.position().grid[cell] == Mark.COVERED:
                    await play_move(entry, ActionKind.REVEAL, cell, self.make_board)
            return JSONResponse({"move": move, "game": game_view(entry)})

    async def game_job(self, position: Position, func, args: tuple, timeout: float, what: str, cannot: str):
        """A job on the position of a game in play, its failures as answers:
        503 when it was stopped, 409 when the flags contradict the numbers (they are the
        layout's, so a flag is wrong), 500 otherwise; ``what`` names the job and
        ``cannot`` what a wrong flag prevents."""
        pool, options = self.route(position)
        try:
            return await pool.run(func, args, timeout=timeout, **options)
        except JobTimeout as exc:
            if exc.busy:
                raise _busy(exc) from None
            raise RequestError(503, f"{what} was stopped: {exc}") from None
        except JobFailed as exc:
            if exc.kind == "inconsistent":
                raise RequestError(409, f"the flags contradict the numbers, so {cannot}: {exc}; "
                                        "take the wrong flag off first") from None
            raise RequestError(500, f"{what} failed: {exc}") from None

    async def clear(self, request: Request) -> Response:
        """Auto-clear: open every cell proven safe from the numbers and the total (flags
        aside), then again with the numbers that opened, until none is left or the
        analysis time is spent. These cells are not the player's clicks.

        Answers ``{"opened": [[x, y], ...], "complete": bool, "game": view}``;
        ``complete`` is false when time ran out with cells perhaps still to prove.
        """
        entry = self.entry(request)
        s = self.settings
        async with entry.lock:
            game = entry.game
            deadline = time.perf_counter() + s.analysis_timeout
            opened: list[list[int]] = []
            complete = True
            while game.status is Status.PLAYING:
                left = deadline - time.perf_counter()
                if left <= 0:
                    complete = False
                    break
                position = game.position()
                text = format_position(position)
                try:
                    safe = await self.game_job(position, jobs.proven_safe, (text, min(s.sat_time_limit, left)), left,
                                               "auto-clear", "auto-clear cannot open cells")
                except RequestError as exc:
                    if exc.status != 503 or not opened:
                        raise
                    complete = False  # time ran out: what was opened stands
                    break
                safe = [xy for xy in safe if game.position().grid[game.geometry.cell(tuple(xy))] == Mark.COVERED]
                if not safe:
                    break
                entry.help("auto")
                for x, y in safe:
                    if game.status is Status.PLAYING:
                        await play_move(entry, ActionKind.REVEAL, game.geometry.cell((x, y)), self.make_board)
                        opened.append([x, y])
            return JSONResponse({"opened": opened, "complete": complete, "game": game_view(entry)})

    # -- bulk runs ---------------------------------------------------------------------
    async def new_run(self, request: Request) -> Response:
        data = await self.body(request)
        s = self.settings
        rule = field_choice(data, "rule", FirstClickRule, FirstClickRule.SAFE)
        spec = read_spec(data, s, rule)
        policy = field_choice(data, "policy", Policy, HINT_POLICY)
        games = field_int(data, "games", 1, s.max_run_games)
        seed = field_int(data, "seed", 0, _SEED_MAX, default=fresh_seed())
        async with self._run_pool_started:
            if self.run_pool is None:
                self.run_pool = WorkerPool(s.run_workers, warm=("mscsp.web.jobs", "mscsp.play.loop"))
                await self.run_pool.start()
        run = self.runs.add(lambda rid: Run(rid, spec, rule, policy, games, seed, s.run_game_time_limit))
        run.start(self.run_pool)
        return JSONResponse(run_view(run), status_code=201)

    async def show_run(self, request: Request) -> Response:
        return JSONResponse(run_view(self.runs.get(request.path_params["run_id"])))

    async def cancel_run(self, request: Request) -> Response:
        run = self.runs.get(request.path_params["run_id"])
        await run.cancel()
        return JSONResponse(run_view(run))

    async def save_replay(self, request: Request) -> Response:
        entry = self.entry(request)
        return JSONResponse(
            replay_record(entry),
            headers={"Content-Disposition": f'attachment; filename="mscsp-replay-{entry.seed}.json"'},
        )

    async def load(self, request: Request) -> Response:
        data = await self.body(request)
        width = field_int(data, "width", 1, self.settings.max_side)
        height = field_int(data, "height", 1, self.settings.max_side)
        check_size(width, height, self.settings)
        try:
            loaded = load_replay(data)
        except InputError as exc:
            raise RequestError(400, f"cannot load this replay: {exc}") from None
        entry = self.games.add(  # the replay's actions were its player's clicks
            lambda gid: GameEntry(gid, loaded.game, loaded.rule, loaded.no_guess, loaded.seed, loaded.guarantee,
                                  len(loaded.game.actions), loaded.helped)
        )
        return JSONResponse(game_view(entry), status_code=201)


def _opened_at_a_zero(layout, click: int | None = None) -> tuple:
    """A full layout as a player would see it after one click: at ``click`` when given
    (a 400 if it is a mine), else in the largest opening (the one that opens the most
    cells; the first in row order of those as large), at its first zero in row order;
    all covered when no cell shows 0. Returns the position and a note saying which."""
    g = layout.geometry
    game = Game(layout)
    if click is not None:
        x, y = g.coords(click)
        if layout.mines[click]:
            raise RequestError(400, f"click [{x}, {y}] is a mine of this board")
        game.reveal((x, y))
        return game.position(), f"a Minesweeper Board Format layout, opened at [{x},{y}] as asked"
    regions = opening_regions(layout)
    if not regions:
        return game.position(), "a Minesweeper Board Format layout, no cell of which shows 0: all covered"
    cells = max(regions, key=len)  # the first of the largest
    zero = next(c for c in cells if layout.numbers[c] == 0 and not layout.mines[c])
    x, y = g.coords(zero)
    game.reveal((x, y))
    return game.position(), (f"a Minesweeper Board Format layout, opened at [{x},{y}], in its largest "
                             f"opening ({len(cells)} cells)")


class _TrustedHosts:
    """ASGI middleware: Starlette's check of the Host header (a defence against DNS
    rebinding), answering a refused host in JSON like every other error of the API."""

    def __init__(self, app, allowed_hosts: list[str]):
        self.app = app

        async def passed(scope, receive, send):
            scope["mscsp.host_allowed"] = True

        self._check = TrustedHostMiddleware(passed, allowed_hosts=allowed_hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        probe = dict(scope)

        async def dropped(message):
            pass

        await self._check(probe, receive, dropped)
        if probe.get("mscsp.host_allowed"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "")
        answer = JSONResponse({"error": f"this server does not answer to the host {shown(host)}"}, status_code=400)
        await answer(scope, receive, send)


class _SecurityHeaders:
    """ASGI middleware: a strict content security policy (no outside scripts or styles) on every answer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in _HEADERS.items():
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _page(name: str):
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")

    page.__name__ = name.split(".")[0]
    return page


async def _request_error(request: Request, exc: RequestError) -> Response:
    return JSONResponse(exc.answer(), status_code=exc.status)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 404 and not request.url.path.startswith("/api/"):
        return Response("Not found\n", status_code=404, media_type="text/plain")
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def _client_gone_answer(request: Request, exc: _ClientGone) -> Response:
    return Response(status_code=499)  # nobody reads it


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500)


def create_app(settings: Settings | None = None, *, allowed_hosts: list[str] | None = None) -> Starlette:
    """The web application, with its own worker pool and games.

    Parameters
    ----------
    settings : Settings, optional
        Limits and budgets; the defaults suit a local server.
    allowed_hosts : list of str, optional
        Host names the server answers to (``Host`` header); others get status 400.
        ``mscsp serve`` on a loopback address allows only loopback names, so a web
        page elsewhere cannot reach the server by rebinding a DNS name.

    Examples
    --------
    >>> app = create_app(Settings(workers=1))
    >>> sorted(r.path for r in app.routes if r.path.startswith("/api/games"))[:2]
    ['/api/games', '/api/games/load']
    """
    api = _Api(settings or Settings())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await asyncio.gather(api.pool.start(), api.large_pool.start())
        try:
            yield
        finally:
            await api.runs.close()
            await api.pool.close()
            await api.large_pool.close()
            if api.run_pool is not None:
                await api.run_pool.close()

    routes = [
        Route("/", _page("index.html")),
        Route("/play", _page("play.html")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/limits", api.limits),
        Route("/api/parse", api.parse, methods=["POST"]),
        Route("/api/analyse", api.analyse_position, methods=["POST"]),
        Route("/api/import", api.import_board, methods=["POST"]),
        Route("/api/example", api.example, methods=["POST"]),
        Route("/api/games", api.new_game, methods=["POST"]),
        Route("/api/games/load", api.load, methods=["POST"]),
        Route("/api/games/{game_id}", api.show_game),
        Route("/api/games/{game_id}/move", api.move, methods=["POST"]),
        Route("/api/games/{game_id}/hint", api.hint, methods=["POST"]),
        Route("/api/games/{game_id}/solver", api.solver, methods=["POST"]),
        Route("/api/games/{game_id}/clear", api.clear, methods=["POST"]),
        Route("/api/games/{game_id}/replay", api.save_replay),
        Route("/api/runs", api.new_run, methods=["POST"]),
        Route("/api/runs/{run_id}", api.show_run),
        Route("/api/runs/{run_id}/cancel", api.cancel_run, methods=["POST"]),
    ]
    middleware = [Middleware(_TrustedHosts, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    middleware.append(Middleware(_SecurityHeaders))
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={RequestError: _request_error, _ClientGone: _client_gone_answer, HTTPException: _http_error,
                            Exception: _server_error},
    )

    app.state.api = api
    return app

