// The covered cells of a board, drawn on a canvas beneath its grid of cells.
//
// A 100x100 board has up to 10,000 covered cells, and an analysis gives each a shade
// (proven safe, proven mine, or its chance of a mine, in colour and in digits). As
// elements, every new analysis restyled, laid out and painted them all; here they are
// drawn in one pass over the cells in view (about a thousand at the default size), from
// a few pre-drawn tiles, each time the board, its shades or the view change. The grid
// above stays the page's structure: its covered cells are transparent, and it draws
// numbers, flags, rings, marks and focus itself.

const GAP = "#7d8792"; // the lines between cells, as the board's border
const TILES = {
  covered: ["#dfe4ea", "#c3cad3"],
  safe: ["#e3f4e6", "#c4e3ca"],
  mine: ["#e9d9d9", "#cfb6b6"],
};
// the check mark and the star of style.css, on the same 16x16 grid
const CHECK = new Path2D("M3 8.6l3.1 3.1L13 4.7");
const STAR = new Path2D("M8 1.2l2 4.4 4.8.5-3.6 3.2 1 4.7L8 11.6 3.8 14l1-4.7-3.6-3.2L6 5.6z");
const FONT = '"DejaVu Sans Condensed", "DejaVu Sans", "Liberation Sans Narrow", Arial, sans-serif';
// Below this cell size (px) the digits would be specks: the colour alone says the chance.
export const MIN_TEXT_CELL = 16;

/** The font of a percentage in a cell of `size` px: 0.43 of it (12 px at 28 px); estimates, one sign longer, smaller and slanted. */
export function percentFont(size, estimate) {
  return estimate ? `italic bold ${(0.34 * size).toFixed(1)}px ${FONT}` : `bold ${(0.43 * size).toFixed(1)}px ${FONT}`;
}

/** Set a context to draw the percentages of `size` px cells: their font, the letters a little closer. */
export function percentStyle(ctx, size, estimate) {
  ctx.font = percentFont(size, estimate);
  ctx.letterSpacing = `${(-(estimate ? 0.05 : 0.02) * (estimate ? 0.34 : 0.43) * size).toFixed(2)}px`;
}

function gradientTile(size, [top, bottom], icon) {
  const tile = document.createElement("canvas");
  tile.width = tile.height = size;
  const ctx = tile.getContext("2d");
  const fill = ctx.createLinearGradient(0, 0, 0, size);
  fill.addColorStop(0, top);
  fill.addColorStop(1, bottom);
  ctx.fillStyle = fill;
  ctx.fillRect(0, 0, size, size);
  if (icon) {
    const scale = (0.72 * size) / 16;
    ctx.translate((size - 16 * scale) / 2, (size - 16 * scale) / 2);
    ctx.scale(scale, scale);
    icon(ctx);
  }
  return tile;
}

const ICONS = {
  safe: (ctx) => {
    ctx.strokeStyle = "#187a34";
    ctx.lineWidth = 2.4;
    ctx.lineCap = ctx.lineJoin = "round";
    ctx.stroke(CHECK);
  },
  mine: (ctx) => {
    ctx.fillStyle = "#202225";
    ctx.fill(STAR);
  },
};

export class CoverCanvas {
  /**
   * @param {HTMLCanvasElement} canvas - placed beneath the scrolling frame (style.css)
   * @param {HTMLElement} frame - the scrolling frame of the board
   * @param {HTMLElement} root - the board's grid
   * @param {function} cells - () => {width, height, values, shades, stale}: what to draw
   */
  constructor(canvas, frame, root, cells) {
    this.canvas = canvas;
    this.frame = frame;
    this.root = root;
    this.cells = cells;
    this.tiles = new Map(); // "size kind" -> a pre-drawn tile
    this.queued = false;
    this.drawn = 0; // how many cells the last pass drew (for the page's own tests)
    frame.addEventListener("scroll", () => this.request(), { passive: true });
    const resized = new ResizeObserver(() => this.request());
    resized.observe(frame);
    resized.observe(root);
  }

  /** Draw again at the next frame (many requests, one pass). */
  request() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.draw();
    });
  }

  tile(size, kind, p) {
    const name = kind === "p" ? `${size} p${Math.round(100 * p)}` : `${size} ${kind}`;
    let tile = this.tiles.get(name);
    if (!tile) {
      const hue = 120 - Math.round(100 * p) * 1.2;
      const colours = kind === "p" ? [`hsl(${hue} 62% 88%)`, `hsl(${hue} 48% 77%)`] : TILES[kind];
      tile = gradientTile(size, colours, ICONS[kind]);
      this.tiles.set(name, tile);
    }
    return tile;
  }

  /** Draw the covered cells in view, with their shades unless the analysis is stale. */
  draw() {
    const { width, height, values, shades, stale } = this.cells();
    const frame = this.frame;
    const w = frame.clientWidth;
    const h = frame.clientHeight;
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    // the canvas covers the frame's inside, which the board scrolls under
    canvas.style.left = `${frame.offsetLeft + frame.clientLeft}px`;
    canvas.style.top = `${frame.offsetTop + frame.clientTop}px`;
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    this.drawn = 0;
    const first = this.root.firstElementChild && this.root.firstElementChild.firstElementChild;
    if (!first || !width) return;
    const size = first.offsetWidth;
    const pitch = size + 1;
    const view = frame.getBoundingClientRect();
    const board = this.root.getBoundingClientRect();
    // the top left cell's corner, in the canvas' pixels
    const left = board.left + this.root.clientLeft - (view.left + frame.clientLeft);
    const top = board.top + this.root.clientTop - (view.top + frame.clientTop);
    const gx = Math.max(left, 0);
    const gy = Math.max(top, 0);
    ctx.fillStyle = GAP;
    ctx.fillRect(gx, gy, Math.min(left + width * pitch - 1, w) - gx, Math.min(top + height * pitch - 1, h) - gy);
    const x0 = Math.max(0, Math.floor(-left / pitch));
    const x1 = Math.min(width, Math.ceil((w - left) / pitch));
    const y0 = Math.max(0, Math.floor(-top / pitch));
    const y1 = Math.min(height, Math.ceil((h - top) / pitch));
    const text = size >= MIN_TEXT_CELL;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#2b3138";
    let styled = null; // whether the context is set for estimates (null: not yet set)
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const index = y * width + x;
        const value = values[index];
        if (value !== "." && value !== "F") continue; // an open cell draws itself
        const shade = value === "." && !stale ? shades.get(index) : undefined;
        const px = left + x * pitch;
        const py = top + y * pitch;
        ctx.drawImage(this.tile(size, shade ? shade.overlay : "covered", shade ? shade.p : 0), px, py);
        this.drawn += 1;
        if (shade && shade.overlay === "p" && text) {
          if (styled !== shade.estimate) percentStyle(ctx, size, (styled = shade.estimate));
          ctx.fillText(shade.text, px + size / 2, py + size / 2 + 0.5, size - 2);
        }
      }
    }
    canvas.dataset.drawn = this.drawn;
    canvas.dataset.stale = stale ? "true" : "false";
  }
}
