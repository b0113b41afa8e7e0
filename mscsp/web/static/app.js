// The analysis page: copy a position in, see the analysis after every change.
//
// The page keeps the position (size, mine total, one character per cell) and sends
// it to /api/analyse as text after every change; the answer is exactly what
// `mscsp solve --json` prints, drawn on the board by board.js and report.js. The
// board's data-analysis attribute says where that stands: pending, done or error.

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
const limits = { max_side: 100, max_cells: 10000 };

const state = {
  width: 9,
  height: 9,
  cells: [],
  tool: "1",
  version: 0,
  record: null,
};

const boardEl = $("board");
const board = new Board(boardEl, {
  activate: (x, y) => place(x, y, state.cells[y * state.width + x] === state.tool ? "." : state.tool),
  context: (x, y) => place(x, y, state.cells[y * state.width + x] === "F" ? "." : "F"),
  key: onCellKey,
});
const fit = installZoom(boardEl, boardEl.parentElement, () => board.width, () => board.height);
$("skip").addEventListener("click", (e) => {
  e.preventDefault();
  board.focusCell(...board.focused());
});
const report = {
  board,
  summary: $("summary"),
  notices: $("notices"),
  why: $("why"),
  whyEmpty: $("why-empty"),
};

// -- the position ----------------------------------------------------------------

function minesValue() {
  // digits only: Number() would take "1e1" as 10, and a number input would hide "e" as empty
  const text = $("mines").value.trim();
  if (text === "") return null;
  return /^[0-9]+$/.test(text) ? Number(text) : NaN;
}

function positionText() {
  const lines = [];
  const mines = minesValue();
  if (mines !== null) lines.push(`mines: ${mines}`);
  for (let y = 0; y < state.height; y++) {
    lines.push(state.cells.slice(y * state.width, (y + 1) * state.width).join(""));
  }
  return lines.join("\n") + "\n";
}

function resize(width, height, rows = null) {
  const resized = width !== board.width || height !== board.height;
  state.width = width;
  state.height = height;
  state.cells = rows ? rows.join("").split("") : new Array(width * height).fill(".");
  board.build(width, height);
  fit(resized);
  board.setRows(rows || Array.from({ length: height }, () => ".".repeat(width)));
  changed();
}

function place(x, y, value) {
  const i = y * state.width + x;
  if (state.cells[i] === value) return;
  state.cells[i] = value;
  board.cellAt(x, y).classList.remove("best"); // its shade goes with its value (Board.setValue)
  board.setValue(x, y, value);
  changed();
}

function onCellKey(x, y, event) {
  const k = event.key;
  if (/^[0-8]$/.test(k)) place(x, y, k);
  else if (k === "f" || k === "F") place(x, y, "F");
  else if (k === "h" || k === "H" || k === "." || k === "Delete" || k === "Backspace") place(x, y, ".");
  else if (k === "-") place(x, y, "-");
  else return false;
  return true;
}

// -- analysis after every change -------------------------------------------------

let timer = null;

function changed() {
  state.version += 1;
  boardEl.dataset.analysis = "pending";
  // what is drawn describes the position before this change until the new answer comes
  document.body.dataset.busy = "true";
  clearTimeout(timer);
  timer = setTimeout(analyse, 30);
}

async function analyse() {
  const mines = minesValue();
  if (Number.isNaN(mines)) {
    if (state.controller) state.controller.abort();
    delete document.body.dataset.busy;
    showError("The mine total must be a whole number, or empty when it is not known.");
    return;
  }
  // only the latest position's answer is wanted: the one in flight is dropped
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  const version = state.version;
  try {
    const record = await postJSON("/api/analyse", { position: positionText() }, controller.signal);
    if (version === state.version) {
      state.record = record;
      clearError();
      showReport(record, report);
      if (state.revealBest) revealBest(record, board); // after an import, not while the user edits
      state.revealBest = false;
      boardEl.dataset.analysis = "done";
      delete document.body.dataset.busy;
    }
  } catch (err) {
    if (err.aborted) return; // a newer analysis replaced this one
    if (version === state.version) {
      delete document.body.dataset.busy;
      showError(err.message, err);
    }
  } finally {
    if (state.controller === controller) state.controller = null;
  }
}

function showError(message, err) {
  state.record = null;
  showReport(null, report);
  const p = document.createElement("p");
  p.className = "notice error";
  p.setAttribute("role", "alert");
  p.textContent = message;
  report.notices.replaceChildren(p);
  report.summary.textContent = "The position cannot be analysed as it stands.";
  if (err instanceof ApiError && err.body && err.body.line) {
    // the server names the line and column of the position text; find that cell
    const header = minesValue() === null ? 0 : 1;
    const y = err.body.line - 1 - header;
    const x = err.body.column - 1;
    if (y >= 0 && y < state.height && x >= 0 && x < state.width) board.mark([[x, y]], "bad-clue", "this cell is the problem");
  }
  boardEl.dataset.analysis = "error";
}

function clearError() {
  report.notices.replaceChildren();
}

// -- size, palette and buttons -----------------------------------------------------

function sizeFromControls() {
  const preset = PRESETS[$("size").value];
  $("custom-size").hidden = Boolean(preset);
  if (preset) return [preset.width, preset.height];
  const w = Number($("width").value);
  const h = Number($("height").value);
  const ok = (n) => Number.isInteger(n) && n >= 1 && n <= limits.max_side;
  if (!ok(w) || !ok(h) || w * h > limits.max_cells) {
    showError(`Width and height must be whole numbers from 1 to ${limits.max_side}, at most ${limits.max_cells} cells in all.`);
    return null;
  }
  return [w, h];
}

$("size").addEventListener("change", () => {
  const preset = PRESETS[$("size").value];
  if (preset) $("mines").value = preset.mines;
  else {
    $("width").value = state.width;
    $("height").value = state.height;
  }
  const size = sizeFromControls();
  if (size) resize(...size);
});
for (const id of ["width", "height"]) {
  $(id).addEventListener("change", () => {
    const size = sizeFromControls();
    if (size) resize(...size);
  });
}
$("mines").addEventListener("input", changed);

const paletteButtons = [...document.querySelectorAll("#palette button")];
function selectTool(value, focus = false) {
  state.tool = value;
  for (const b of paletteButtons) {
    const on = b.dataset.value === value;
    b.setAttribute("aria-checked", on ? "true" : "false");
    b.tabIndex = on ? 0 : -1;
    if (on && focus) b.focus();
  }
}
$("palette").addEventListener("click", (e) => {
  const b = e.target.closest("button");
  if (b) selectTool(b.dataset.value);
});
$("palette").addEventListener("keydown", (e) => {
  const i = paletteButtons.findIndex((b) => b.dataset.value === state.tool);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (step === undefined) return;
  e.preventDefault();
  selectTool(paletteButtons[(i + step + paletteButtons.length) % paletteButtons.length].dataset.value, true);
});

$("flag-mines").addEventListener("click", () => {
  for (const cell of board.cells) {
    if (cell.dataset.overlay === "mine") place(+cell.dataset.x, +cell.dataset.y, "F");
  }
});

$("clear").addEventListener("click", () => resize(state.width, state.height));

$("example").addEventListener("click", async () => {
  let mines = minesValue();
  if (mines === null || Number.isNaN(mines) || mines >= state.width * state.height) {
    mines = Math.round(0.15 * state.width * state.height);
  }
  const before = boardEl.dataset.analysis;
  boardEl.dataset.analysis = "pending";
  try {
    const dealt = await postJSON("/api/example", { width: state.width, height: state.height, mines });
    await importText(dealt.position, before);
  } catch (err) {
    showError(`No example: ${err.message}`);
  }
});

// -- text import and export --------------------------------------------------------

async function importText(text, before = boardEl.dataset.analysis) {
  const error = $("text-error");
  boardEl.dataset.analysis = "pending"; // the board changes when the server has read the text
  try {
    const parsed = await postJSON("/api/parse", { position: text });
    error.hidden = true;
    // a preset's name says its mines too: a 30x16 board of 168 mines is a custom one
    const name = Object.keys(PRESETS).find(
      (k) => PRESETS[k].width === parsed.width && PRESETS[k].height === parsed.height && PRESETS[k].mines === parsed.mines,
    );
    $("size").value = name || "custom";
    $("custom-size").hidden = Boolean(name);
    $("width").value = parsed.width;
    $("height").value = parsed.height;
    $("mines").value = parsed.mines === null ? "" : parsed.mines;
    $("text").value = text;
    state.revealBest = true;
    resize(parsed.width, parsed.height, parsed.rows);
  } catch (err) {
    boardEl.dataset.analysis = before;
    error.textContent = `Cannot import: ${err.message}`;
    error.hidden = false;
  }
}

// Other tools' boards: JSMinesweeper's text (a first line like 30x16x99) and Minesweeper
// Arbiter's .mbf files are turned into this toolkit's text by the server, then imported.
const JSMINESWEEPER_HEADER = /^\uFEFF?\s*\d+\s*x\s*\d+\s*x\s*\d+\s*$/i;

async function importForeign(body, what) {
  const error = $("text-error");
  try {
    const answer = await postJSON("/api/import", body);
    await importText(answer.position);
  } catch (err) {
    error.textContent = `Cannot import ${what}: ${err.message}`;
    error.hidden = false;
  }
}

function importAny(text) {
  if (JSMINESWEEPER_HEADER.test(text.split("\n", 1)[0])) return importForeign({ text }, "this JSMinesweeper board");
  return importText(text);
}

/** The bytes of a file as base64, for JSON. */
async function base64Of(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

$("import").addEventListener("click", () => importAny($("text").value));
$("export").addEventListener("click", () => {
  $("text").value = positionText();
  $("text-error").hidden = true;
});
$("download").addEventListener("click", () => {
  const blob = new Blob([positionText()], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "position.txt";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
$("file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  if (/\.mbf$/i.test(file.name)) {
    await importForeign({ mbf: await base64Of(file) }, `${file.name} (Minesweeper Board Format)`);
  } else {
    const text = await file.text();
    $("text").value = text;
    await importAny(text);
  }
  e.target.value = "";
});

// -- start ---------------------------------------------------------------------------

selectTool("1");
resize(9, 9);
getJSON("/api/limits")
  .then((l) => {
    limits.max_side = l.max_side;
    limits.max_cells = l.max_cells;
    setBudget(l.analysis_budget, $("budget"));
    for (const id of ["width", "height"]) $(id).max = l.max_side;
  })
  .catch(() => {});
