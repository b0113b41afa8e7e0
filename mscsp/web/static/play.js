// The play page: a game whose mines stay on the server.
//
// The page knows only what the server's game view says (the player's position,
// counters, clock); the layout arrives when the game is over. Moves are sent one
// after another in the order they were made (board data-pending counts those not
// yet answered). The hint button shows the analysis of the current position, and
// while it is pressed the analysis follows every move: a move takes the old one down at
// once (board data-hint is "pending" until the new one is drawn).

import { ApiError, getJSON, postJSON } from "./api.js";
import { Board } from "./board.js";
import { revealBest, setBudget, showReport } from "./report.js";
import { installZoom } from "./zoom.js";

const $ = (id) => document.getElementById(id);
const PRESETS = {
  beginner: { width: 9, height: 9, mines: 10 },
  intermediate: { width: 16, height: 16, mines: 40 },
  expert: { width: 30, height: 16, mines: 99 },
};

const state = { view: null, receivedAt: 0, hint: false, pending: 0, queue: Promise.resolve(), hintVersion: 0 };

const boardEl = $("board");
const board = new Board(boardEl, {
  activate: (x, y) => primary(x, y),
  context: (x, y) => toggleFlag(x, y),
  longPress: (x, y) => toggleFlag(x, y),
  middle: (x, y) => send("chord", x, y),
  key: onCellKey,
});
const fit = installZoom(boardEl, boardEl.parentElement, () => board.width, () => board.height, () => board.cancelPress());
$("skip").addEventListener("click", (e) => {
  e.preventDefault();
  board.focusCell(...board.focused());
});
const report = { board, summary: $("summary"), notices: $("notices"), why: $("why"), whyEmpty: $("why-empty") };

// -- showing the game ------------------------------------------------------------------

const pad = (n) => (n < 0 ? "-" + String(-n).padStart(2, "0") : String(n).padStart(3, "0"));

function elapsed() {
  const v = state.view;
  if (!v) return 0;
  if (v.status !== "playing") return v.elapsed;
  return v.elapsed + (performance.now() - state.receivedAt) / 1000;
}

function statusText(v) {
  if (v.status === "won") return `You won in ${v.elapsed.toFixed(1)} s!`;
  if (v.status === "lost") return `Boom. A mine, after ${v.elapsed.toFixed(1)} s.`;
  if (v.status === "ready") return v.no_guess ? "Click any cell: the board is made for that click." : "Click any cell to start.";
  return "Playing";
}

const isOver = (v) => v.status === "won" || v.status === "lost";

function show(view) {
  const old = state.view;
  // a game is counted when this page sees it end, once: not when a finished game is loaded or reloaded
  if (old && old.id === view.id && !isOver(old) && isOver(view)) countGame(view);
  state.view = view;
  state.receivedAt = performance.now();
  if (!old || old.width !== view.width || old.height !== view.height || old.id !== view.id) {
    const resized = !old || old.width !== view.width || old.height !== view.height;
    board.build(view.width, view.height);
    fit(resized);
  }
  board.untag("mine-shown", "exploded", "wrong-flag");
  board.setRows(view.rows);
  if (view.layout) {
    for (let y = 0; y < view.height; y++) {
      for (let x = 0; x < view.width; x++) {
        const shown = view.rows[y][x];
        const mine = view.layout[y][x] === "*";
        if (mine && shown === ".") {
          // a win flags the mines still covered, as the classic game does; a loss shows them
          if (view.status === "won") board.setValue(x, y, "F");
          else board.tag(x, y, "mine-shown");
        }
        if (!mine && shown === "F") board.tag(x, y, "wrong-flag");
      }
    }
    if (view.exploded) board.tag(...view.exploded, "exploded");
  }
  boardEl.dataset.game = view.id;
  boardEl.dataset.status = view.status;
  $("status").dataset.status = view.status;
  $("status").textContent = statusText(view);
  $("mines-left").textContent = pad(view.status === "won" ? 0 : view.mines_left);
  $("timer").textContent = pad(Math.floor(elapsed()));
  $("save").disabled = !isOver(view);
  $("guarantee").hidden = !view.guarantee;
  $("guarantee").textContent = view.guarantee
    ? `No-guess board: ${view.guarantee}${view.sampling ? `; ${view.sampling}` : ""}.` : "";
  showEnd(view);
  if (state.hint && isOver(view)) toggleHint(); // nothing left to hint at
  else if (state.hint) refreshHint();
  else showReport(null, report);
}

// -- the end of a game: its seed, playing it again, statistics ---------------------------
// Statistics per board size, in this browser: the player's own games apart from those
// played with auto-clear, with a hint and those the solver played (any of its moves), so
// help never flatters the player's record. Who helped is the server's to say (the game
// view's helped: "auto", "hint", "solver" or null), so a reload does not forget it.
// Stored as {played, won, best, auto: {played, won}, hinted: {played, won}, solver:
// {played, won}}, the first three the player's own (best: the highest 3BV/s of a won game).

const STATS_KEY = "mscsp-play-statistics";
const HELP_WORDS = { auto: "with auto-clear", hinted: "with hints", solver: "played by the solver" };
const HELP_TALLY = { auto: "auto", hint: "hinted", solver: "solver" };

function readStats() {
  try {
    return JSON.parse(localStorage.getItem(STATS_KEY)) || {};
  } catch {
    return {};
  }
}

function sizeKey(v) {
  return `${v.width}x${v.height}, ${v.mines} mines`;
}

function countGame(v) {
  const all = readStats();
  const s = all[sizeKey(v)] || { played: 0, won: 0 };
  const by = HELP_TALLY[v.helped];
  const tally = by ? (s[by] = s[by] || { played: 0, won: 0 }) : s;
  tally.played += 1;
  tally.won += v.status === "won" ? 1 : 0;
  if (!by && v.bbbv_per_s !== null) s.best = Math.max(s.best || 0, v.bbbv_per_s);
  all[sizeKey(v)] = s;
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify(all));
  } catch {
    /* storage refused (private mode): the statistics are just not kept */
  }
}

function showStats(v) {
  const s = readStats()[sizeKey(v)];
  const won = (t) => `${t.won} of ${t.played} won (${Math.round((100 * t.won) / t.played)}%)`;
  const parts = [];
  if (s && s.played) parts.push(`${won(s)} on your own` + (s.best ? `, best ${s.best.toFixed(2)} 3BV/s` : ""));
  for (const [by, words] of Object.entries(HELP_WORDS)) {
    if (s && s[by] && s[by].played) parts.push(`${won(s[by])} ${words}`);
  }
  $("stats").textContent = parts.length ? `${sizeKey(v)} in this browser: ${parts.join("; ")}.` : "";
}

/**
 * The efficiency of a game: its clicks while it runs; at the end also the board's 3BV
 * (the least clicks that clear it), 3BV/s and the efficiency (3BV over clicks) of a win.
 */
function showEfficiency(v) {
  const clicks = `${v.clicks} ${v.clicks === 1 ? "click" : "clicks"}`;
  // the solver's moves are not clicks, and its speed is not the player's: a game it had
  // moves in says so instead of a 3BV/s and an efficiency
  const solver = v.helped === "solver";
  const mine = solver ? `${clicks} of yours, the rest played by the solver` : clicks;
  if (v.bbbv === null) {
    $("efficiency").textContent = v.status === "playing" ? mine : "";
    return;
  }
  const parts = [`3BV ${v.bbbv}`, mine];
  if (!solver && v.bbbv_per_s !== null) parts.push(`3BV/s ${v.bbbv_per_s.toFixed(2)}`);
  if (!solver && v.status === "won" && v.clicks) parts.push(`efficiency ${Math.round((100 * v.bbbv) / v.clicks)}%`);
  if (v.helped === "hint") parts.push("with hints");
  else if (v.helped === "auto") parts.push("with auto-clear");
  $("efficiency").textContent = parts.join(" · ");
}

function showEnd(v) {
  const over = isOver(v);
  showEfficiency(v);
  showStats(v);
  // the seed rebuilds the board, so it is shown only once the game is over
  $("board-info").hidden = !(over && v.seed !== null);
  if (over && v.seed !== null) {
    $("board-seed").textContent = `Seed ${v.seed}, first click rule ${v.rule}${v.no_guess ? ", no-guess" : ""}: the same first click gives the same board.`;
  }
}

$("again").addEventListener("click", () => {
  const v = state.view;
  if (!v || v.seed === null) return;
  const preset = Object.keys(PRESETS).find(
    (k) => PRESETS[k].width === v.width && PRESETS[k].height === v.height && PRESETS[k].mines === v.mines,
  );
  $("size").value = preset || "custom";
  $("custom-size").hidden = Boolean(preset);
  $("width").value = v.width;
  $("height").value = v.height;
  $("mines").value = v.mines;
  $("rule").value = v.rule;
  $("no-guess").checked = v.no_guess;
  if (v.no_guess_method) $("no-guess-method").value = v.no_guess_method;
  // the seed goes with this one request: left in the Seed field, it would deal this
  // board again at every New game
  newGame(true, v.seed);
});

function showError(message) {
  const p = document.createElement("p");
  p.className = "notice error";
  p.setAttribute("role", "alert");
  p.textContent = message;
  $("notices").replaceChildren(p);
}

setInterval(() => {
  if (state.view && state.view.status === "playing") $("timer").textContent = pad(Math.floor(elapsed()));
}, 250);

// -- moves -----------------------------------------------------------------------------

function valueAt(x, y) {
  return state.view ? state.view.rows[y][x] : "-";
}

function over() {
  return !state.view || isOver(state.view);
}

function send(action, x, y) {
  if (over()) return;
  hintPending(); // the hint on show is for the position before this move
  state.pending += 1;
  boardEl.dataset.pending = state.pending;
  const id = state.view.id;
  state.queue = state.queue.then(async () => {
    try {
      if (state.view.id !== id || over()) return;
      if (action === "reveal" && state.view.no_guess && state.view.status === "ready") {
        $("status").textContent = "Making a no-guess board for this click…";
      }
      const view = await postJSON(`/api/games/${id}/move`, { action, cell: [x, y] });
      show(view);
      if ($("auto-clear").checked && view.status === "playing" && (action === "reveal" || action === "chord")) {
        const cleared = await postJSON(`/api/games/${id}/clear`, {});
        if (cleared.opened.length && state.view.id === id) show(cleared.game);
      }
    } catch (err) {
      if (state.hint && !over()) refreshHint(); // the move was refused: the position stands
      showError(err.message);
    } finally {
      state.pending -= 1;
      boardEl.dataset.pending = state.pending;
    }
  });
}

function primary(x, y) {
  const v = valueAt(x, y);
  if (v === ".") send("reveal", x, y);
  else if (/[1-8]/.test(v)) send("chord", x, y);
}

function toggleFlag(x, y) {
  const v = valueAt(x, y);
  if (v === ".") send("flag", x, y);
  else if (v === "F") send("unflag", x, y);
}

function onCellKey(x, y, event) {
  const k = event.key.toLowerCase();
  if (k === "f") toggleFlag(x, y);
  else if (k === "c") send("chord", x, y);
  else if (k === "h") toggleHint();
  else return false;
  return true;
}

// -- hints -------------------------------------------------------------------------------

/** Take down the hint on show (its marks, ring and words) and say that a new one is coming. */
function hintPending() {
  if (!state.hint) return;
  state.hintVersion += 1; // an answer still on its way is for an older position
  showReport(null, report, true);
  $("summary").textContent = "Updating the hint…";
  boardEl.dataset.hint = "pending";
}

async function refreshHint() {
  hintPending();
  const version = state.hintVersion;
  const id = state.view.id;
  $("why-panel").hidden = false;
  try {
    const record = await postJSON(`/api/games/${id}/hint`, {});
    if (version !== state.hintVersion || !state.hint) return;
    showReport(record, report);
    revealBest(record, board);
    boardEl.dataset.hint = "done";
  } catch (err) {
    if (version === state.hintVersion) {
      board.clearOverlay();
      showError(`No hint: ${err.message}`);
    }
    boardEl.dataset.hint = "error";
  }
}

function toggleHint() {
  state.hint = !state.hint;
  $("hint").setAttribute("aria-pressed", state.hint ? "true" : "false");
  if (state.hint && state.view) refreshHint();
  else {
    state.hintVersion += 1;
    $("why-panel").hidden = true;
    delete boardEl.dataset.hint;
    showReport(null, report);
  }
}
$("hint").addEventListener("click", toggleHint);

// -- watching the solver play --------------------------------------------------------
// The server computes each move from the position alone (the layout stays with the
// game) with the strongest rung of the win-rate ladder, plays it, and says why.

const SPEEDS = { slow: 1200, normal: 500, fast: 100 };

function logMove(move) {
  const li = document.createElement("li");
  li.className = `move ${move.kind}`;
  li.textContent = move.text;
  const log = $("solver-log");
  log.prepend(li);
  while (log.children.length > 500) log.lastChild.remove();
  board.untag("solver-guess");
  if (move.kind === "guess") board.tag(...move.open[0], "solver-guess");
}

function setWatching(on) {
  state.watching = on;
  $("watch").setAttribute("aria-pressed", on ? "true" : "false");
  $("watch").textContent = on ? "Stop the solver" : "Watch the solver";
  boardEl.dataset.watching = on ? "true" : "false";
}

async function watch() {
  if (state.watching) return setWatching(false);
  if (over()) return;
  setWatching(true);
  while (state.watching && !over()) {
    try {
      const id = state.view.id;
      const answer = await postJSON(`/api/games/${id}/solver`, { policy: "+endgame" });
      if (!state.watching || answer.game.id !== state.view.id) break; // stopped, or a new game
      show(answer.game);
      logMove(answer.move);
    } catch (err) {
      showError(`The solver stopped: ${err.message}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, SPEEDS[$("speed").value] ?? 500));
  }
  setWatching(false);
}
$("watch").addEventListener("click", watch);

// -- bulk runs ---------------------------------------------------------------------------
// The server plays the games (workers of their own) and the page asks how far it has come
// a few times a second. The run's id is kept in this browser, so a reload finds it again.

const RUN_KEY = "mscsp-bulk-run";
const runEl = $("run");

const pct = (p) => `${(100 * p).toFixed(1)}%`;

function runText(r) {
  const board = `${r.width}x${r.height}, ${r.mines} mines, ${r.rule} rule`;
  const head = `${r.played} of ${r.games} games played by ${r.policy} (${board}, seed ${r.seed})`;
  const rate = r.played
    ? `: ${r.won} won, ${pct(r.rate)} (95% Wilson interval ${pct(r.interval[0])} to ${pct(r.interval[1])})`
    : "";
  const end = { done: ` Done in ${r.elapsed.toFixed(1)} s.`, cancelled: " Cancelled.", failed: ` Stopped: ${r.error}.` };
  return head + rate + "." + (end[r.status] || "");
}

function showRun(r) {
  runEl.dataset.run = r.id;
  runEl.dataset.status = r.status;
  runEl.dataset.played = r.played;
  $("run-progress").hidden = false;
  $("run-progress").max = r.games;
  $("run-progress").value = r.played;
  $("run-result").textContent = runText(r);
  const running = r.status === "running";
  $("run-start").disabled = running;
  $("run-cancel").disabled = !running;
}

async function followRun(id) {
  state.run = id;
  try {
    for (;;) {
      const r = await getJSON(`/api/runs/${id}`);
      if (state.run !== id) return;
      showRun(r);
      if (r.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (err) {
    $("run-result").textContent = `The bulk run cannot be followed: ${err.message}`;
    runEl.dataset.status = "error";
    $("run-start").disabled = false;
    $("run-cancel").disabled = true;
  }
  localStorage.removeItem(RUN_KEY);
}

$("run-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const body = { ...boardRequest(), policy: $("run-policy").value, games: Number($("run-games").value) };
    const typed = $("run-seed").value.trim();
    if (typed !== "") {
      if (!/^\d+$/.test(typed)) throw new ApiError("the seed must be a whole number, or empty for random boards", 400);
      body.seed = Number(typed);
    }
    const r = await postJSON("/api/runs", body);
    try {
      localStorage.setItem(RUN_KEY, r.id);
    } catch {
      /* storage refused: a reload just loses sight of the run */
    }
    showRun(r);
    followRun(r.id);
  } catch (err) {
    runEl.dataset.status = "error";
    $("run-result").textContent = `No bulk run: ${err.message}`;
  }
});

$("run-cancel").addEventListener("click", async () => {
  if (!state.run) return;
  try {
    showRun(await postJSON(`/api/runs/${state.run}/cancel`, {}));
  } catch (err) {
    $("run-result").textContent = `Cannot cancel: ${err.message}`;
  }
});

// -- new games, replays ----------------------------------------------------------------

/** The board and first click rule the form asks for. */
function boardRequest() {
  const preset = PRESETS[$("size").value];
  const spec = preset || {
    width: Number($("width").value),
    height: Number($("height").value),
    mines: Number($("mines").value),
  };
  return { ...spec, rule: $("rule").value };
}

/** The new game the form asks for; `seed`, when given, instead of the Seed field's. */
function setupRequest(seed) {
  const body = { ...boardRequest(), no_guess: $("no-guess").checked, no_guess_method: $("no-guess-method").value };
  if (seed !== undefined && seed !== null) {
    body.seed = seed;
    return body;
  }
  const typed = $("seed").value.trim();
  if (typed !== "") {
    if (!/^\d+$/.test(typed)) throw new ApiError("the seed must be a whole number, or empty for a random board", 400);
    body.seed = Number(typed);
  }
  return body;
}

async function newGame(focus = false, seed = undefined) {
  setWatching(false);
  $("solver-log").replaceChildren();
  try {
    $("notices").replaceChildren();
    const view = await postJSON("/api/games", setupRequest(seed));
    state.queue = Promise.resolve();
    show(view);
    history.replaceState(null, "", `#${view.id}`);
    if (focus) board.focusCell(Math.floor(view.width / 2), Math.floor(view.height / 2));
  } catch (err) {
    showError(`No new game: ${err.message}`);
  }
}

$("size").addEventListener("change", () => {
  $("custom-size").hidden = $("size").value !== "custom";
});
$("setup").addEventListener("submit", (e) => {
  e.preventDefault();
  newGame(true);
});

$("save").addEventListener("click", async () => {
  try {
    const replay = await getJSON(`/api/games/${state.view.id}/replay`);
    const blob = new Blob([JSON.stringify(replay, null, 1)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `mscsp-replay-${replay.seed ?? "game"}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (err) {
    showError(`Cannot save: ${err.message}`);
  }
});

$("load-button").addEventListener("click", () => $("load").click());
$("load").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (err) {
    showError(`Cannot load ${file.name}: it is not JSON.`);
    return;
  }
  try {
    $("notices").replaceChildren();
    const view = await postJSON("/api/games/load", data);
    state.queue = Promise.resolve();
    show(view);
    history.replaceState(null, "", `#${view.id}`);
  } catch (err) {
    showError(`Cannot load ${file.name}: ${err.message}`);
  }
});

// -- start: the game in the address (after a reload), else a new beginner game ----------

async function start() {
  getJSON("/api/limits")
    .then((l) => setBudget(l.analysis_budget, $("budget")))
    .catch(() => {});
  const run = localStorage.getItem(RUN_KEY);
  if (run) followRun(run);
  const id = location.hash.slice(1);
  if (id) {
    try {
      show(await getJSON(`/api/games/${id}`));
      return;
    } catch (err) {
      history.replaceState(null, "", location.pathname);
    }
  }
  await newGame();
}
start();
