// Zoom for the board: buttons, Ctrl+wheel and fit-to-width, each keeping the part of
// the board in view where it is. The cell size is one CSS
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
  return size;
}

/**
 * Change the cell size keeping one point of the board where it is in the frame: the
 * point under `at` (client coordinates, such as the pointer's), else the frame's centre,
 * so that zooming stays on the part of the board in view (the opened area of a game).
 */
export function zoomTo(board, frame, px, at = null) {
  const view = frame.getBoundingClientRect();
  const x = at ? at.x : view.left + frame.clientLeft + frame.clientWidth / 2;
  const y = at ? at.y : view.top + frame.clientTop + frame.clientHeight / 2;
  const before = board.getBoundingClientRect();
  const pitch = current(board) + 1; // a cell and the 1 px gap after it
  // the board point under (x, y), in cells from the board's top left corner (inside its border)
  const col = (x - before.left - board.clientLeft) / pitch;
  const row = (y - before.top - board.clientTop) / pitch;
  const { scrollLeft, scrollTop } = frame; // read first: a smaller board clamps them
  const size = setCellSize(board, px);
  const grow = size + 1 - pitch;
  frame.scrollLeft = scrollLeft + col * grow;
  frame.scrollTop = scrollTop + row * grow;
  return size;
}

/**
 * Wire the zoom buttons (ids zoom-out, zoom-in, zoom-fit) and Ctrl+wheel over `frame`.
 * `columns()` gives the board's width in cells. Buttons keep the frame's centre where
 * it is, the wheel the point under the pointer.
 */
export function installZoom(board, frame, columns) {
  const by = (factor, at = null) => zoomTo(board, frame, current(board) * factor, at);
  document.getElementById("zoom-out").addEventListener("click", () => by(1 / STEP));
  document.getElementById("zoom-in").addEventListener("click", () => by(STEP));
  document.getElementById("zoom-fit").addEventListener("click", () => {
    const n = Math.max(1, columns());
    // the frame's padding (4 px a side), the board's border (3 px a side), a 1 px gap between cells
    zoomTo(board, frame, Math.floor((frame.clientWidth - 8 - 6 - (n - 1)) / n));
  });
  frame.addEventListener(
    "wheel",
    (e) => {
      if (!e.ctrlKey) return; // a plain wheel scrolls the frame
      e.preventDefault(); // and Ctrl+wheel zooms the board, not the page
      by(e.deltaY < 0 ? STEP : 1 / STEP, { x: e.clientX, y: e.clientY });
    },
    { passive: false },
  );
}

/** Scroll the frame so that `cell` is in view (nothing moves when it already is). */
export function reveal(cell) {
  if (cell) cell.scrollIntoView({ block: "nearest", inline: "nearest" });
}
