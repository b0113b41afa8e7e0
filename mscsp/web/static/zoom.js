// Zoom for the board: buttons, Ctrl+wheel, a pinch and fit-to-width, each keeping the
// part of the board in view where it is. The cell size is one CSS
// variable (--cell) on the board; every size and font of a cell is drawn from it, so a
// 100x100 board can be seen whole and an Expert one read up close.
//
// A new board is sized to the window, as JSMinesweeper sizes its own: on a laptop the
// whole board fits under the controls (Expert at 1280x800 needs cells of 27 px), on a
// phone it fills the width; never below FIT_MIN px, where a finger or a mouse still
// hits a cell. A board that cannot fit so keeps DEFAULT px cells and pans in its frame.

const MIN = 8;
const MAX = 56;
const STEP = 1.25;
const DEFAULT = 28;
const FIT_MIN = 20;
/** The largest fitted cell: the default on a wide screen, more on a phone whose width a small board fills. */
const FIT_MAX = DEFAULT;
const FIT_MAX_NARROW = 44;
/** Below this window width the page is laid out for a phone: one column, the board filling its width. */
export const NARROW = 700;
/** The frame's padding (4 px a side) and the board's border (3 px a side). */
const CHROME = 8 + 6;
/** Room kept under a fitted board, so that its bottom edge is not the window's. */
const BELOW = 8;

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
 * The cell size that fits a `columns` x `rows` board to the window (see the top of
 * this file): within the frame's width, and on a wide screen also between the frame's
 * top and the window's bottom; DEFAULT when no size from FIT_MIN up fits.
 */
export function fitSize(frame, columns, rows) {
  const n = Math.max(1, columns);
  const m = Math.max(1, rows);
  const narrow = window.innerWidth < NARROW;
  const wide = (frame.clientWidth - CHROME - (n - 1)) / n; // a 1 px gap between cells
  const top = frame.getBoundingClientRect().top + window.scrollY;
  const tall = (window.innerHeight - top - BELOW - CHROME - (m - 1)) / m;
  const most = narrow ? FIT_MAX_NARROW : FIT_MAX;
  // a phone scrolls the page to a board's lower rows; a laptop should not need to
  const fit = narrow ? wide : Math.min(wide, tall);
  if (fit >= FIT_MIN) return Math.min(most, Math.floor(fit));
  // taller than the window even at FIT_MIN: as wide as the frame, its rows scrolled in it
  if (!narrow && wide >= FIT_MIN) return Math.min(most, Math.floor(wide));
  return DEFAULT;
}

/**
 * Wire the zoom buttons (ids zoom-out, zoom-in, zoom-fit), Ctrl+wheel and a two-finger
 * pinch over `frame`. `columns()` and `rows()` give the board's size in cells. Buttons
 * keep the frame's centre where it is, the wheel and the pinch the point under them.
 * `onPinch` is called when a pinch starts (a long press under way is then cancelled).
 *
 * Returns `fit(newBoard)`: sizes the board to the window (fitSize) unless the player
 * zoomed it; `newBoard` forgets that zoom (a board of another size). The window's
 * resizing fits again.
 */
export function installZoom(board, frame, columns, rows = () => 1, onPinch = null) {
  let zoomed = false; // the player chose a size: the window's changes keep it
  const by = (factor, at = null) => {
    zoomed = true;
    return zoomTo(board, frame, current(board) * factor, at);
  };
  document.getElementById("zoom-out").addEventListener("click", () => by(1 / STEP));
  document.getElementById("zoom-in").addEventListener("click", () => by(STEP));
  document.getElementById("zoom-fit").addEventListener("click", () => {
    const n = Math.max(1, columns());
    zoomed = true;
    zoomTo(board, frame, Math.floor((frame.clientWidth - CHROME - (n - 1)) / n));
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

  // a pinch: the frame lets the browser pan (touch-action in style.css) but not zoom
  // the page, so two fingers resize the cells, keeping the point between them in place
  const touches = new Map();
  let pinch = null;
  const pair = () => {
    const [a, b] = [...touches.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, at: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  };
  frame.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (touches.size === 2) {
      pinch = { d: pair().d, size: current(board) };
      if (onPinch) onPinch();
    }
  });
  frame.addEventListener("pointermove", (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (!pinch || touches.size !== 2) return;
    const now = pair();
    zoomed = true;
    zoomTo(board, frame, (pinch.size * now.d) / pinch.d, now.at);
  });
  for (const type of ["pointerup", "pointercancel"]) {
    frame.addEventListener(type, (e) => {
      touches.delete(e.pointerId);
      if (touches.size < 2) pinch = null;
    });
  }

  const fit = (newBoard = false) => {
    if (newBoard) zoomed = false;
    if (!zoomed) setCellSize(board, fitSize(frame, columns(), rows()));
  };
  let pending = false;
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fit();
    });
  });
  return fit;
}

/**
 * Bring `cell` into view: scrolled to the middle of the board's frame when it is not
 * in the frame's view already, so that what lies around it (the opened area of an
 * imported board) shows too, then the page scrolled as little as brings it on screen.
 */
export function reveal(cell) {
  if (!cell) return;
  const frame = cell.closest(".board-wrap");
  if (frame) {
    const f = frame.getBoundingClientRect();
    const c = cell.getBoundingClientRect();
    const left = f.left + frame.clientLeft, top = f.top + frame.clientTop;
    const inside = c.left >= left && c.right <= left + frame.clientWidth &&
      c.top >= top && c.bottom <= top + frame.clientHeight;
    if (!inside) {
      frame.scrollLeft += c.left + c.width / 2 - (left + frame.clientWidth / 2);
      frame.scrollTop += c.top + c.height / 2 - (top + frame.clientHeight / 2);
    }
  }
  cell.scrollIntoView({ block: "nearest", inline: "nearest" });
}
