// The board grid shared by the analysis page and the play page.
//
// Every cell is a button in an ARIA grid named "column X, row Y, " and what it shows
// ("hidden", "flagged", "shows 3", "not a cell"), in the toolkit's coordinates (x from 0 at the left, y from 0 at the top, as in the
// solver's explanations). One cell at a time is in the tab order (a roving tab
// stop); the arrow keys, Home and End move it. What a cell shows is its
// data-value: "." covered, "F" flag, "0"-"8" a number, "-" no cell.
//
// A 100x100 board has 10,000 cells, so nothing here walks them all after a move: the
// board keeps what each cell shows (values) and which cells carry an overlay or a class
// (shades, marked, tagged), and a change touches those cells alone; a cell's words are
// written into its title when it is pointed at or focused. Covered cells are transparent:
// they, their shades and their percentages are drawn on a canvas beneath the grid, for
// the part in view only (cover.js).

import { CoverCanvas } from "./cover.js";

const VALUE_WORDS = { ".": "hidden", "F": "flagged", "-": "not a cell" };

/** Percent text of a mine probability, as `mscsp solve` prints it. */
export function percent(p) {
  const pct = 100 * p;
  if (pct > 0 && pct < 1) return "<1%";
  if (pct > 99 && pct < 100) return ">99%";
  return `${Math.round(pct)}%`;
}

/** The percent a covered cell shows: without its sign (the legend and the cell's words
 * say it is a percentage), so that the digits can be large enough to read. */
export function cellPercent(p) {
  return percent(p).slice(0, -1);
}

const key = (x, y) => `${x},${y}`;

/** A value's percent, with its exact fraction when that is short enough to read. */
export function exactText(p, exact) {
  return exact && exact.length <= 11 ? `${percent(p)} (${exact})` : percent(p);
}

/**
 * The words a hovered candidate shows: its rank and the values its rung computed. The
 * suggested click names the player (`by`, such as +endgame), which weighs its guesses
 * with one of its rungs (`rung`, such as +lookahead, when the endgame is too large to
 * search): both are named, so that the two words do not seem to disagree.
 */
function candidateNote(c, rung, by) {
  const player = by && by !== rung ? `the ${by} player, weighed by its ${rung} rung` : `the ${rung} player`;
  const parts = [`candidate ${c.rank} of ${player}`];
  if (c.win !== null) parts.push(`wins ${exactText(c.win, c.exact.win)} clicked now (exact endgame search)`);
  if (c.lookahead !== null && c.credit !== null) {
    // the weighed value is the two-click survival times the cell's long-term 50/50 credit
    parts.push(`survives it and the next click ${percent(c.lookahead / c.credit)}, weighed ` +
      `${percent(c.lookahead)} with a credit of ${c.credit.toFixed(3)} for the 50/50s a click there settles`);
  } else if (c.lookahead !== null) {
    parts.push(`survives it and the next click ${exactText(c.lookahead, c.exact.lookahead)}`);
  }
  if (c.progress !== null) parts.push(`safe with progress ${exactText(c.progress, c.exact.progress)}`);
  if (c.dead) parts.push("can show one number only");
  return parts.join(", ");
}

/** What each guessing mark means, for the cell's description. */
const MARK_NOTES = {
  dead: "dead: it can show one number only, so opening it tells nothing new",
  pseudo: "a pseudo-50/50: wherever it is a mine, a twin layout shows the same numbers, so its risk is one the board already holds",
};

export class Board {
  /**
   * @param {HTMLElement} root - the element that becomes the grid
   * @param {object} handlers - activate(x, y, event), key(x, y, event) -> bool,
   *   context(x, y, event) and longPress(x, y, event), each optional
   */
  constructor(root, handlers = {}) {
    this.root = root;
    this.handlers = handlers;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.values = []; // what each cell shows, by flat index
    this.shades = new Map(); // cell index -> its shade (see shade), for cells that have one
    this.staleShades = false; // the shades are an old analysis', drawn as plain covered cells
    this.notes = new Map(); // cell index -> what the analysis says of it, in words
    this.marked = new Set(); // cells with a guessing mark
    this.badges = []; // the candidates' rank badges
    this.tagged = new Map(); // class name -> the cells that have it
    this.focusIndex = 0;
    this.pressTimer = null;
    this.suppressClick = false;
    root.setAttribute("role", "grid");
    const canvas = root.closest(".board-frame").querySelector("canvas.board-canvas");
    this.cover = new CoverCanvas(canvas, root.parentElement, root, () => ({
      width: this.width, height: this.height, values: this.values, shades: this.shades, stale: this.staleShades,
    }));
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("contextmenu", (e) => this.onContext(e));
    root.addEventListener("auxclick", (e) => this.onAux(e));
    root.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("focusin", (e) => this.onFocus(e));
    root.addEventListener("pointerover", (e) => {
      const at = this.target(e);
      if (at) this.describe(this.cellAt(...at));
    });
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      root.addEventListener(type, () => this.cancelPress());
    }
  }

  /** Rebuild the grid as `width` x `height` covered cells. */
  build(width, height) {
    this.width = width;
    this.height = height;
    this.cells = [];
    this.values = new Array(width * height).fill(".");
    this.shades.clear();
    this.staleShades = false;
    this.notes.clear();
    this.marked.clear();
    this.badges = [];
    this.tagged.clear();
    const rows = [];
    for (let y = 0; y < height; y++) {
      const row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      for (let x = 0; x < width; x++) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.setAttribute("role", "gridcell");
        cell.setAttribute("aria-label", `column ${x}, row ${y}, hidden`);
        cell.dataset.x = x;
        cell.dataset.y = y;
        cell.dataset.value = ".";
        cell.tabIndex = -1;
        row.appendChild(cell);
        this.cells.push(cell);
      }
      rows.push(row);
    }
    this.root.replaceChildren(...rows);
    this.root.setAttribute("aria-rowcount", height);
    this.root.setAttribute("aria-colcount", width);
    this.cover.request();
    this.focusIndex = Math.min(this.focusIndex, this.cells.length - 1);
    if (this.focusIndex < 0) this.focusIndex = 0;
    if (this.cells.length) this.cells[this.focusIndex].tabIndex = 0;
  }

  cellAt(x, y) {
    return this.cells[y * this.width + x];
  }

  /** What the cell at (x, y) shows. */
  valueAt(x, y) {
    return this.values[y * this.width + x];
  }

  /** Set what a cell shows and refresh its description. */
  setValue(x, y, value) {
    const index = y * this.width + x;
    if (this.values[index] === value) return;
    this.values[index] = value;
    if (this.shades.has(index)) this.shade(index, null); // it said what the cell was
    this.cover.request();
    const cell = this.cells[index];
    cell.dataset.value = value;
    cell.textContent = /[0-8]/.test(value) ? value : "";
    // the name a screen reader says first: where the cell is, then what it shows
    cell.setAttribute("aria-label", `column ${x}, row ${y}, ${/[0-8]/.test(value) ? `shows ${value}` : VALUE_WORDS[value]}`);
    if (index === this.focusIndex) this.describe(cell);
  }

  /** Show rows of position characters ("." "F" "0"-"8" "-"); only the cells that changed are touched. */
  setRows(rows) {
    for (let y = 0; y < this.height; y++) {
      const row = rows[y];
      for (let x = 0; x < this.width; x++) {
        if (this.values[y * this.width + x] !== row[x]) this.setValue(x, y, row[x]);
      }
    }
  }

  /** Give a cell a class, remembered so that untag() finds it without looking at every cell. */
  tag(x, y, className) {
    if (!(x >= 0 && x < this.width && y >= 0 && y < this.height)) return null;
    const index = y * this.width + x;
    const cell = this.cells[index];
    cell.classList.add(className);
    if (!this.tagged.has(className)) this.tagged.set(className, new Set());
    this.tagged.get(className).add(index);
    return cell;
  }

  /** Take classes off every cell that has them. */
  untag(...classNames) {
    for (const className of classNames) {
      for (const index of this.tagged.get(className) || []) this.cells[index].classList.remove(className);
      this.tagged.delete(className);
    }
  }

  /** The cells that have a class, as [x, y]. */
  taggedWith(className) {
    return [...(this.tagged.get(className) || [])].map((i) => [i % this.width, Math.floor(i / this.width)]);
  }

  /** The cell's state in words, as its accessible description and tooltip; written when
   * the cell is pointed at or focused, so that an overlay of 10,000 cells writes no text. */
  describe(cell) {
    const index = +cell.dataset.y * this.width + +cell.dataset.x;
    const v = this.values[index];
    const parts = [/[0-8]/.test(v) ? `shows ${v}` : VALUE_WORDS[v]];
    parts.push(...(this.notes.get(index) || []));
    const title = parts.join("; ");
    if (cell.title !== title) cell.title = title;
  }

  /** The words for a cell, as `describe` will put them (for the page's own tests and screen readers). */
  note(x, y) {
    return (this.notes.get(y * this.width + x) || []).join("; ");
  }

  addNote(index, note) {
    if (!this.notes.has(index)) this.notes.set(index, []);
    const notes = this.notes.get(index);
    if (!notes.includes(note)) notes.push(note);
  }

  // -- the analysis overlay -----------------------------------------------------

  /**
   * Set the shade of a cell: its overlay ("safe", "mine", "p" or none), the percent
   * text and the probability that colours it, drawn by the canvas beneath the grid
   * (cover.js); the cell says them in data-overlay, data-p and data-estimate, which
   * no style reads, so that writing them costs no restyling.
   */
  shade(index, overlay, text = null, p = null, estimate = false) {
    const want = overlay ? `${overlay}|${text}|${p}|${estimate}` : "";
    const had = this.shades.get(index);
    if ((had ? had.key : "") === want) return;
    const cell = this.cells[index];
    if (overlay) cell.dataset.overlay = overlay;
    else delete cell.dataset.overlay;
    if (text) cell.dataset.p = text;
    else delete cell.dataset.p;
    if (estimate) cell.dataset.estimate = "";
    else delete cell.dataset.estimate;
    if (want) this.shades.set(index, { key: want, overlay, text, p, estimate });
    else this.shades.delete(index);
    this.cover.request();
  }

  /** Take the marks, badges, classes and notes of an analysis off (the shades stay). */
  clearMarks() {
    for (const index of this.marked) delete this.cells[index].dataset.mark;
    this.marked.clear();
    for (const badge of this.badges) badge.remove();
    this.badges = [];
    this.notes.clear();
    this.untag("best", "hl-cell", "hl-clue", "bad-clue", "bad-flag", "fifty", "mark-dead", "mark-pseudo", "candidate");
  }

  clearOverlay() {
    this.clearMarks();
    for (const index of [...this.shades.keys()]) this.shade(index, null);
    this.staleShades = false;
    this.refreshFocused();
  }

  /**
   * Take an analysis down until the next one comes: its marks, ring, badges and words
   * go, and its shades are drawn as plain covered cells but kept, so that the next
   * analysis rewrites only the cells whose shade changed.
   */
  stale() {
    this.clearMarks();
    this.staleShades = true;
    this.cover.request();
    this.refreshFocused();
  }

  /** Rewrite the description of the focused cell (the one a screen reader is on). */
  refreshFocused() {
    const cell = this.cells[this.focusIndex];
    if (cell) this.describe(cell);
  }

  /**
   * Show an analysis record (the `mscsp solve --json` object): a check mark on
   * cells safe in every layout, a dark star on certain mines, the mine chance on
   * the other covered cells, a ring on the suggested click; on an impossible
   * board, the clues that cannot all hold are outlined.
   */
  showAnalysis(record) {
    if (!record || !record.consistent) {
      this.clearOverlay();
      if (record && record.contradiction) {
        const clues = record.contradiction.clues;
        this.mark(clues, "bad-clue", "a clue that cannot hold");
        // the flags those clues count: where the numbers are the game's own, one of them is wrong
        this.mark(this.flagsAround(clues), "bad-flag", "a flag the outlined clues count: it may be the wrong one");
      }
      return;
    }
    this.clearMarks();
    const safe = new Set(record.safe.map(([x, y]) => key(x, y)));
    const mine = new Set(record.mine.map(([x, y]) => key(x, y)));
    for (let index = 0; index < this.cells.length; index++) {
      if (this.values[index] !== ".") {
        if (this.shades.has(index)) this.shade(index, null);
        continue;
      }
      const x = index % this.width;
      const y = Math.floor(index / this.width);
      const p = record.probability ? record.probability[y][x] : null;
      const interval = record.interval ? record.interval[y][x] : null; // only estimates have one
      if (safe.has(key(x, y)) || (p === 0 && !interval)) {
        this.shade(index, "safe");
        this.addNote(index, "safe in every layout");
      } else if (mine.has(key(x, y)) || (p === 1 && !interval)) {
        this.shade(index, "mine");
        this.addNote(index, "a mine in every layout");
      } else if (p !== null && p !== undefined) {
        // coloured by the percent shown, so that a cell whose percent stays keeps its shade
        this.shade(index, "p", (interval ? "≈" : "") + cellPercent(p), Math.round(100 * p) / 100, Boolean(interval));
        const proven = Boolean(record.estimate && record.estimate.bounds === "proven");
        this.addNote(index, !interval
          ? `${percent(p)} chance of a mine`
          : proven
            ? `${percent(p)} chance of a mine (counted in floating point: proven within ` +
              `${((interval[1] - interval[0]) / 2).toExponential(0)} of the exact value)`
            : `estimated ${percent(p)} chance of a mine (95% interval ${percent(interval[0])} to ${percent(interval[1])})`);
      } else if (this.shades.has(index)) {
        this.shade(index, null);
      }
    }
    if (record.guesses) this.showGuesses(record.guesses);
    if (record.best) {
      this.mark([record.best], "best", "suggested next click");
    }
    this.showCandidates(record.candidates || [], record.candidates_rung, record.best_by);
    this.staleShades = false;
    this.cover.request();
    this.refreshFocused();
  }

  /**
   * Mark the cells a strong player treats apart when guessing (the record's
   * `guesses`): dead cells, walled-off sets one of whose cells must be guessed (a
   * 50/50 when two), and pseudo-50/50s; a set's mark wins over the others.
   */
  showGuesses(guesses) {
    const kind = new Map(); // cell index -> its mark
    const at = ([x, y]) => y * this.width + x;
    for (const xy of guesses.dead || []) kind.set(at(xy), "dead");
    for (const xy of guesses.pseudo || []) kind.set(at(xy), "pseudo");
    for (const cells of guesses.unavoidable || []) {
      const what = cells.length === 2 ? "a 50/50" : `one of ${cells.length} cells`;
      for (const xy of cells) {
        kind.set(at(xy), "fifty");
        this.mark([xy], "fifty", `${what} walled off, which no click elsewhere can tell apart: a guess among them is due sooner or later`);
      }
    }
    for (const [index, mark] of kind) {
      this.cells[index].dataset.mark = mark;
      this.marked.add(index);
      const x = index % this.width;
      const y = Math.floor(index / this.width);
      if (MARK_NOTES[mark]) this.mark([[x, y]], `mark-${mark}`, MARK_NOTES[mark]);
    }
  }

  /** Number the top three candidates of a hint and put every candidate's values in its description. */
  showCandidates(candidates, rung, by = null) {
    for (const c of candidates) {
      if (c.rank <= 3) {
        const badge = document.createElement("span");
        badge.className = "rank";
        badge.setAttribute("aria-hidden", "true");
        badge.textContent = c.rank;
        this.cellAt(...c.cell).appendChild(badge);
        this.badges.push(badge);
      }
      this.mark([c.cell], "candidate", candidateNote(c, rung, by));
    }
  }

  /** The flagged neighbours of the cells listed as [x, y], each once. */
  flagsAround(cells) {
    const found = new Map();
    for (const [x, y] of cells) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx, ny = y + dy;
          if ((dx || dy) && nx >= 0 && nx < this.width && ny >= 0 && ny < this.height && this.valueAt(nx, ny) === "F") {
            found.set(ny * this.width + nx, [nx, ny]);
          }
        }
      }
    }
    return [...found.values()];
  }

  /** Add a class (and a note) to the cells listed as [x, y]. */
  mark(cells, className, note) {
    for (const [x, y] of cells) {
      const cell = this.tag(x, y, className);
      if (!cell) continue;
      if (note) {
        this.addNote(y * this.width + x, note);
        this.describe(cell);
      }
    }
  }

  /** Highlight one explanation: its clues and the cells it decides. */
  highlight(explanation) {
    this.untag("hl-cell", "hl-clue");
    if (!explanation) return;
    this.mark(explanation.cells, "hl-cell");
    this.mark(explanation.clues, "hl-clue");
  }

  // -- focus and input -----------------------------------------------------------

  focusCell(x, y) {
    x = Math.max(0, Math.min(this.width - 1, x));
    y = Math.max(0, Math.min(this.height - 1, y));
    const index = y * this.width + x;
    if (this.cells[this.focusIndex]) this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = index;
    const cell = this.cells[index];
    cell.tabIndex = 0;
    cell.focus();
  }

  focused() {
    const cell = this.cells[this.focusIndex];
    return cell ? [+cell.dataset.x, +cell.dataset.y] : [0, 0];
  }

  target(event) {
    const cell = event.target.closest ? event.target.closest(".cell") : null;
    return cell && this.root.contains(cell) ? [+cell.dataset.x, +cell.dataset.y] : null;
  }

  onFocus(event) {
    const at = this.target(event);
    if (!at) return;
    const index = at[1] * this.width + at[0];
    if (index !== this.focusIndex) {
      if (this.cells[this.focusIndex]) this.cells[this.focusIndex].tabIndex = -1;
      this.focusIndex = index;
      this.cells[index].tabIndex = 0;
    }
    this.describe(this.cells[index]);
  }

  onClick(event) {
    const at = this.target(event);
    if (!at) return;
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    this.focusCell(...at);
    if (this.handlers.activate) this.handlers.activate(at[0], at[1], event);
  }

  onContext(event) {
    const at = this.target(event);
    if (!at || !this.handlers.context) return;
    event.preventDefault();
    this.focusCell(...at);
    this.handlers.context(at[0], at[1], event);
  }

  onAux(event) {
    const at = this.target(event);
    if (!at || event.button !== 1 || !this.handlers.middle) return;
    event.preventDefault();
    this.handlers.middle(at[0], at[1], event);
  }

  onPointerDown(event) {
    this.cancelPress();
    const at = this.target(event);
    if (!at || !this.handlers.longPress || event.pointerType === "mouse") return;
    this.pressTimer = setTimeout(() => {
      this.pressTimer = null;
      this.suppressClick = true;
      this.handlers.longPress(at[0], at[1], event);
    }, 450);
  }

  cancelPress() {
    if (this.pressTimer) clearTimeout(this.pressTimer);
    this.pressTimer = null;
  }

  onKey(event) {
    const at = this.target(event);
    if (!at || event.altKey || event.ctrlKey || event.metaKey) return;
    const [x, y] = at;
    const moves = {
      ArrowLeft: [x - 1, y], ArrowRight: [x + 1, y], ArrowUp: [x, y - 1], ArrowDown: [x, y + 1],
      Home: [0, y], End: [this.width - 1, y],
    };
    if (event.key in moves) {
      event.preventDefault();
      this.focusCell(...moves[event.key]);
      return;
    }
    if (this.handlers.key && this.handlers.key(x, y, event)) event.preventDefault();
  }
}
