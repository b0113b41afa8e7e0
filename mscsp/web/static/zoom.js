// Zoom for the board: buttons, Ctrl+wheel and fit-to-width. The cell size is one CSS
// variable (--cell) on the board; every size and font of a cell is drawn from it, so a
// 100x100 board can be seen whole and an Expert one read up close.

const MIN = 8;
const MAX = 56;
const STEP = 1.25;

function current(board) {
  return parseFloat(getComputedStyle(board).getPropertyValue("--cell")) || 28;
}

export function setCellSize(board, px) {
  const size = Math.max(MIN, Math.min(MAX, Math.round(px)));
  board.style.setProperty("--cell", `${size}px`);
  board.dataset.cell = size;
  board.classList.toggle("small-cells", size < 16); // percentages become unreadable specks: colour only
  return size;
}

/** The largest cell size (within limits) at which the board fits its scrolling frame. */
export function fitWidth(board, frame, columns) {
  const n = Math.max(1, columns);
  // the frame's padding (4 px a side), the board's border (3 px a side), a 1 px gap between cells
  const room = frame.clientWidth - 8 - 6 - (n - 1);
  return setCellSize(board, Math.floor(room / n));
}

/**
 * Wire the zoom buttons (ids zoom-out, zoom-in, zoom-fit) and Ctrl+wheel over `frame`.
 * `columns()` gives the board's width in cells.
 */
export function installZoom(board, frame, columns) {
  const by = (factor) => setCellSize(board, current(board) * factor);
  document.getElementById("zoom-out").addEventListener("click", () => by(1 / STEP));
  document.getElementById("zoom-in").addEventListener("click", () => by(STEP));
  document.getElementById("zoom-fit").addEventListener("click", () => fitWidth(board, frame, columns()));
  frame.addEventListener(
    "wheel",
    (e) => {
      if (!e.ctrlKey) return; // a plain wheel scrolls the frame
      e.preventDefault(); // and Ctrl+wheel zooms the board, not the page
      by(e.deltaY < 0 ? STEP : 1 / STEP);
    },
    { passive: false },
  );
}

/** Scroll the frame so that `cell` is in view (nothing moves when it already is). */
export function reveal(cell) {
  if (cell) cell.scrollIntoView({ block: "nearest", inline: "nearest" });
}
