// The board grid shared by the analysis page and the play page.
//
// Every cell is a button in an ARIA grid with a stable label, "column X, row Y", in
// the toolkit's coordinates (x from 0 at the left, y from 0 at the top, as in the
// solver's explanations). One cell at a time is in the tab order (a roving tab
// stop); the arrow keys, Home and End move it. What a cell shows is its
// data-value: "." covered, "F" flag, "0"-"8" a number, "-" no cell.

const VALUE_WORDS = { ".": "hidden", "F": "flagged", "-": "not a cell" };

/** Percent text of a mine probability, as `mscsp solve` prints it. */
export function percent(p) {
  const pct = 100 * p;
  if (pct > 0 && pct < 1) return "<1%";
  if (pct > 99 && pct < 100) return ">99%";
  return `${Math.round(pct)}%`;
}

const key = (x, y) => `${x},${y}`;

/** A value's percent, with its exact fraction when that is short enough to read. */
export function exactText(p, exact) {
  return exact && exact.length <= 11 ? `${percent(p)} (${exact})` : percent(p);
}

/** The words a hovered candidate shows: its rank and the values its rung computed. */
function candidateNote(c, rung) {
  const parts = [`candidate ${c.rank} of the ${rung} player`];
  if (c.win !== null) parts.push(`wins ${exactText(c.win, c.exact.win)} clicked now (exact endgame search)`);
  if (c.lookahead !== null) {
    parts.push(`survives it and the best next click ${exactText(c.lookahead, c.exact.lookahead)}`);
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
    this.focusIndex = 0;
    this.pressTimer = null;
    this.suppressClick = false;
    root.setAttribute("role", "grid");
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("contextmenu", (e) => this.onContext(e));
    root.addEventListener("auxclick", (e) => this.onAux(e));
    root.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("focusin", (e) => this.onFocus(e));
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
        cell.setAttribute("aria-label", `column ${x}, row ${y}`);
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
    this.focusIndex = Math.min(this.focusIndex, this.cells.length - 1);
    if (this.focusIndex < 0) this.focusIndex = 0;
    if (this.cells.length) this.cells[this.focusIndex].tabIndex = 0;
  }

  cellAt(x, y) {
    return this.cells[y * this.width + x];
  }

  /** Set what a cell shows and refresh its description. */
  setValue(x, y, value) {
    const cell = this.cellAt(x, y);
    if (cell.dataset.value === value) return;
    cell.dataset.value = value;
    cell.textContent = /[0-8]/.test(value) ? value : "";
    this.describe(cell);
  }

  /** Show rows of position characters ("." "F" "0"-"8" "-"). */
  setRows(rows) {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) this.setValue(x, y, rows[y][x]);
    }
  }

  /** The cell's state in words, as its accessible description and tooltip. */
  describe(cell) {
    const v = cell.dataset.value;
    const parts = [/[0-8]/.test(v) ? `shows ${v}` : VALUE_WORDS[v]];
    if (cell.dataset.note) parts.push(cell.dataset.note);
    cell.title = parts.join("; ");
  }

  // -- the analysis overlay -----------------------------------------------------

  clearOverlay() {
    for (const cell of this.cells) {
      delete cell.dataset.overlay;
      delete cell.dataset.p;
      delete cell.dataset.estimate;
      delete cell.dataset.note;
      delete cell.dataset.mark;
      for (const badge of cell.querySelectorAll(".rank")) badge.remove();
      cell.style.removeProperty("--p");
      cell.classList.remove("best", "hl-cell", "hl-clue", "bad-clue", "fifty", "mark-dead", "mark-pseudo", "candidate");
      this.describe(cell);
    }
  }

  /**
   * Show an analysis record (the `mscsp solve --json` object): a check mark on
   * cells safe in every layout, a dark star on certain mines, the mine chance on
   * the other covered cells, a ring on the suggested click; on an impossible
   * board, the clues that cannot all hold are outlined.
   */
  showAnalysis(record) {
    this.clearOverlay();
    if (!record) return;
    if (!record.consistent) {
      if (record.contradiction) this.mark(record.contradiction.clues, "bad-clue", "a clue that cannot hold");
      return;
    }
    const safe = new Set(record.safe.map(([x, y]) => key(x, y)));
    const mine = new Set(record.mine.map(([x, y]) => key(x, y)));
    for (const cell of this.cells) {
      if (cell.dataset.value !== ".") continue;
      const x = +cell.dataset.x;
      const y = +cell.dataset.y;
      const p = record.probability ? record.probability[y][x] : null;
      const interval = record.interval ? record.interval[y][x] : null; // only estimates have one
      if (safe.has(key(x, y)) || (p === 0 && !interval)) {
        cell.dataset.overlay = "safe";
        cell.dataset.note = "safe in every layout";
      } else if (mine.has(key(x, y)) || (p === 1 && !interval)) {
        cell.dataset.overlay = "mine";
        cell.dataset.note = "a mine in every layout";
      } else if (p !== null && p !== undefined) {
        cell.dataset.overlay = "p";
        cell.dataset.p = (interval ? "≈" : "") + percent(p);
        cell.style.setProperty("--p", p);
        cell.dataset.note = interval
          ? `estimated ${percent(p)} chance of a mine (95% interval ${percent(interval[0])} to ${percent(interval[1])})`
          : `${percent(p)} chance of a mine`;
        if (interval) cell.dataset.estimate = "";
      }
      this.describe(cell);
    }
    if (record.guesses) this.showGuesses(record.guesses);
    if (record.best) {
      const [x, y] = record.best;
      const cell = this.cellAt(x, y);
      cell.classList.add("best");
      cell.dataset.note = (cell.dataset.note ? cell.dataset.note + "; " : "") + "suggested next click";
      this.describe(cell);
    }
    this.showCandidates(record.candidates || [], record.candidates_rung);
  }

  /**
   * Mark the cells a strong player treats apart when guessing (the record's
   * `guesses`): dead cells, walled-off sets one of whose cells must be guessed (a
   * 50/50 when two), and pseudo-50/50s; a set's mark wins over the others.
   */
  showGuesses(guesses) {
    const at = ([x, y]) => this.cellAt(x, y);
    for (const xy of guesses.dead || []) at(xy).dataset.mark = "dead";
    for (const xy of guesses.pseudo || []) at(xy).dataset.mark = "pseudo";
    for (const cells of guesses.unavoidable || []) {
      const what = cells.length === 2 ? "a 50/50" : `one of ${cells.length} cells`;
      for (const xy of cells) {
        at(xy).dataset.mark = "fifty";
        this.mark([xy], "fifty", `${what} walled off, which no click elsewhere can tell apart: a guess among them is due sooner or later`);
      }
    }
    for (const [x, y] of [...(guesses.dead || []), ...(guesses.pseudo || [])]) {
      const cell = this.cellAt(x, y);
      const note = MARK_NOTES[cell.dataset.mark];
      if (note && !(cell.dataset.note || "").includes(note)) this.mark([[x, y]], `mark-${cell.dataset.mark}`, note);
    }
  }

  /** Number the top three candidates of a hint and put every candidate's values in its description. */
  showCandidates(candidates, rung) {
    for (const c of candidates) {
      const cell = this.cellAt(...c.cell);
      if (c.rank <= 3) {
        const badge = document.createElement("span");
        badge.className = "rank";
        badge.setAttribute("aria-hidden", "true");
        badge.textContent = c.rank;
        cell.appendChild(badge);
      }
      this.mark([c.cell], "candidate", candidateNote(c, rung));
    }
  }

  /** Add a class (and a note) to the cells listed as [x, y]. */
  mark(cells, className, note) {
    for (const [x, y] of cells) {
      const cell = this.cellAt(x, y);
      if (!cell) continue;
      cell.classList.add(className);
      if (note) {
        cell.dataset.note = (cell.dataset.note ? cell.dataset.note + "; " : "") + note;
        this.describe(cell);
      }
    }
  }

  /** Highlight one explanation: its clues and the cells it decides. */
  highlight(explanation) {
    for (const cell of this.cells) cell.classList.remove("hl-cell", "hl-clue");
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
