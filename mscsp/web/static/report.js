// The words around the overlay, shared by both pages: the summary line, notices
// (estimates, time limits, impossible boards) and "Why these cells are certain",
// whose items highlight their clues and cells on the board when pressed.

import { reveal } from "./zoom.js";

/** Scroll the suggested click into view (on a big board it may be far off). */
export function revealBest(record, board) {
  if (record && record.best) reveal(board.cellAt(...record.best));
}

// The seconds one analysis may take on this server (/api/limits' analysis_budget): the
// pages say it, and a notice names it when cells got no number within it.
let budget = null;

/** Set the analysis budget the pages state (seconds), and write it into `element`. */
export function setBudget(seconds, element) {
  budget = seconds;
  if (element) {
    element.textContent = `Each analysis may take up to ${seconds} s on this server: ordinary positions ` +
      "take a fraction of a second, hard ones use the time for estimates.";
  }
}

/** Covered cells of the board that the record gives no number: neither proven nor weighed. */
function unweighed(record, board) {
  const decided = new Set([...record.safe, ...record.mine].map(([x, y]) => y * board.width + x));
  let n = 0;
  for (let index = 0; index < board.values.length; index++) {
    if (board.values[index] !== "." || decided.has(index)) continue;
    const p = record.probability ? record.probability[Math.floor(index / board.width)][index % board.width] : null;
    if (p === null || p === undefined) n += 1;
  }
  return n;
}

function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A layout count (a decimal string) short enough to read. */
export function layoutsText(layouts) {
  if (layouts === null || layouts === undefined) return null;
  if (layouts.length <= 15) return BigInt(layouts).toLocaleString("en");
  return `about ${layouts[0]}.${layouts.slice(1, 4)}e${layouts.length - 1}`;
}

function notice(kind, html) {
  const p = document.createElement("p");
  p.className = `notice ${kind}`;
  p.append(...html);
  return p;
}

function strong(text) {
  const s = document.createElement("strong");
  s.textContent = text;
  return s;
}

/**
 * Show an analysis record around the board.
 * @param {object} record - the `mscsp solve --json` object, or null to clear
 * @param {object} parts - {board, summary, notices, why, whyEmpty}
 * @param {boolean} stale - with no record: the board's shades are kept, drawn as
 *   covered cells, for the next record to change (see Board.stale)
 */
export function showReport(record, parts, stale = false) {
  const { board, summary, notices, why, whyEmpty } = parts;
  if (record || !stale) board.showAnalysis(record);
  else board.stale();
  notices.replaceChildren();
  why.replaceChildren();
  if (!record) {
    summary.textContent = "";
    if (whyEmpty) whyEmpty.hidden = true;
    return;
  }
  if (!record.consistent) {
    const c = record.contradiction || { text: "no mine layout fits these numbers", total: false, clues: [] };
    summary.textContent = "This position is impossible: no mine layout fits it.";
    // the server says whether its sentence names the total (a long set is cut short before it)
    const extra = c.total && !c.names_total ? " (together with the mine total)" : "";
    const where = c.clues.length ? ` The ${c.clues.length === 1 ? "clue involved is" : "clues involved are"} outlined in red.` : "";
    notices.append(notice("impossible", [strong("Impossible: "), `${c.text}${extra}.${where}`]));
    if (whyEmpty) whyEmpty.hidden = true;
    return;
  }
  const safe = record.safe.length;
  const mines = record.mine.length;
  const bits = [`${count(safe, "cell", "cells")} certainly safe, ${count(mines, "certain mine", "certain mines")}`];
  const layouts = layoutsText(record.layouts);
  if (layouts) bits.push(String(record.layouts) === "1" ? "1 layout fits the position" : `${layouts} layouts fit the position`);
  if (record.best) {
    // a game's hint names the player whose click it suggests (+endgame, or least-p when it fell back)
    const by = record.best_by ? ` (${record.best_by})` : "";
    bits.push(`suggested click [${record.best[0]},${record.best[1]}]${by}`);
  }
  const g = record.guesses;
  if (g) {
    // the marks for guessing, counted; each cell's own words say what it is
    const marks = [];
    const fifties = (g.unavoidable || []).filter((cells) => cells.length === 2).length;
    const walled = (g.unavoidable || []).length - fifties;
    if (fifties) marks.push(count(fifties, "50/50", "50/50s"));
    if (walled) marks.push(count(walled, "larger walled-off set", "larger walled-off sets"));
    if (g.pseudo && g.pseudo.length) marks.push(count(g.pseudo.length, "pseudo-50/50", "pseudo-50/50s"));
    if (g.dead && g.dead.length) marks.push(count(g.dead.length, "dead cell", "dead cells") + (g.complete ? "" : " (not every cell checked in time)"));
    if (marks.length) bits.push(marks.join(", "));
  }
  if (record.candidates && record.candidates.length) {
    bits.push(`${count(record.candidates.length, "candidate", "candidates")} weighed by ${record.candidates_rung} (point at one for its chances)`);
  }
  summary.textContent = bits.join("; ") + ".";
  if (record.best && record.best_note) {
    const note = record.best_note.charAt(0).toUpperCase() + record.best_note.slice(1).replace(/\.?$/, ".");
    notices.append(notice("incomplete", [strong("Suggested click: "), note]));
  }
  if (record.exact === false) {
    const estimate = record.estimate || {};
    const blank = unweighed(record, board);
    const widths = (record.interval || []).flat().filter((iv) => iv).map(([lo, hi]) => hi - lo);
    const widest = widths.length ? Math.max(...widths) : null;
    const within = budget === null ? "the time" : `this server's ${budget} s budget`;
    const words = [`${estimate.reason || "an undecided area is too large to count every layout"}.`];
    if (widest !== null && estimate.bounds === "proven") {
      words.push("Percentages marked ≈ come from the count in floating point with every rounding bounded: " +
        `each is proven to lie within ${(widest / 2).toExponential(0)} of the exact value.`);
    } else if (widest !== null) {
      words.push(`Percentages marked ≈ are estimates (${estimate.method || "sampling"}), each with a 95% interval ` +
        `shown when you point at the cell; the widest spans ${Math.round(100 * widest)} points.`);
    }
    if (blank) words.push(`${count(blank, "covered cell", "covered cells")} got no number within ${within}.`);
    // a position every cell of which is proven (the checker lattice) lacks nothing
    words.push(widest === null && !blank ? "Every covered cell is proven safe or a mine all the same."
      : "Cells marked safe or mine are still proven.");
    notices.append(notice("estimate", [strong("Not counted exactly: "), words.join(" ")]));
  }
  if (record.complete === false) {
    notices.append(notice("incomplete", [
      strong("Time limit: "),
      "the solver stopped searching before it had checked every cell, so some certain cells may be " +
        "unmarked and some explanations missing.",
    ]));
  }
  if (record.model) {
    // the model's own text starts with the same words as the notice's label
    notices.append(notice("incomplete", [strong("No mine total: "), record.model.replace(/^no mine total:\s*/i, "") + "."]));
  }
  record.explanations.forEach((e, i) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("aria-pressed", "false");
    button.dataset.index = i;
    button.textContent = e.text.charAt(0).toUpperCase() + e.text.slice(1) + ".";
    button.addEventListener("click", () => {
      const on = button.getAttribute("aria-pressed") !== "true";
      for (const other of why.querySelectorAll("button")) other.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      board.highlight(on ? e : null);
      if (on) reveal(board.root.querySelector(".hl-cell") || board.root.querySelector(".hl-clue"));
    });
    li.appendChild(button);
    why.appendChild(li);
  });
  if (whyEmpty) whyEmpty.hidden = record.explanations.length > 0;
}
