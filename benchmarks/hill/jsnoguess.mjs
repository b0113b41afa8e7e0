// Headless driver for David Hill's JSMinesweeper no-guess generator (Node >= 18).
// Written for mscsp's noguess_bias experiment (through benchmarks/noguess.py): it loads Hill's
// unmodified browser scripts into this process, as benchmarks/hill/jsplay.mjs does, stubs the
// few GUI globals they touch, and calls his createNoGuessGame() once a board.
//
// Usage: node jsnoguess.mjs W H MINES X Y SECONDS SEED[,SEED...]
//   env JSMS_DIR = path of the JSMinesweeper checkout (required)
//   His no-guess games are always gameType "zero": the 3x3 around the first click (X,Y) is mine free.
//   Each board is made with Math.random seeded from its SEED (mulberry32), so a seed gives one board.
//   SECONDS bounds each board: past it, his own cancel flag stops the generator (a failure).
// Output: one line a board, "index ok mines cpu_ns idx idx ..." with ok 1 when his generator says it
//   won the game (0: it gave up or was cancelled), mines his final mine count, then the flat indices
//   (y * W + x) of the mines of the board it returns.

import fs from 'node:fs';
import vm from 'node:vm';

import { mulberry32, quietConsole, scripts } from './jsload.mjs';

const args = process.argv.slice(2);
if (args.length !== 7) {
    console.error('usage: node jsnoguess.mjs W H MINES X Y SECONDS SEED[,SEED...]');
    process.exit(2);
}
const [W, H, MINES, X, Y, SECONDS] = args.slice(0, 6).map(Number);
const SEEDS = args[6].split(',').map(Number);
if (![W, H, MINES, X, Y, SECONDS, ...SEEDS].every(Number.isFinite)) {
    console.error('jsnoguess.mjs: every argument must be a number');
    process.exit(2);
}

const SCRIPTS = scripts('jsnoguess.mjs');

quietConsole();
let stream = mulberry32(1);
globalThis.__random = () => stream();
globalThis.__deadline = Infinity;
globalThis.__failed = false;
// The GUI globals createNoGuessGame touches (main.js / index.html define them in the page):
// its progress text, whose "** FAILED **" is how it says it gave up, and sleep(), its yield to
// the page every hundred solver calls after the first second, where the time bound cancels it.
vm.runInThisContext(`
    var analysisMode = false;
    var analysing = false;
    var oldrng = false;
    var binomialCache;
    var board = null;
    const BOMB = 9;
    function showMessage(text) {}
    const ngModal = { style: {} };
    const ngText = {
        set innerHTML(text) { if (text === '** FAILED **') __failed = true; },
        get innerHTML() { return ''; },
    };
    async function sleep(msec) { if (Date.now() > __deadline) ngCancel = true; }
    Math.random = __random;
`, { filename: 'jsnoguess-stubs.js' });
for (const f of SCRIPTS) {
    vm.runInThisContext(fs.readFileSync(f, 'utf8'), { filename: f });
}
vm.runInThisContext('binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));');
await vm.runInThisContext('solver(null)');
const hill = vm.runInThisContext('({ createNoGuessGame, serverGames })');

const cpuNs = (u) => (u.user + u.system) * 1000;
const lines = [];
for (let i = 0; i < SEEDS.length; i++) {
    stream = mulberry32(SEEDS[i]);
    globalThis.__failed = false;
    globalThis.__deadline = Date.now() + 1000 * SECONDS;
    const c0 = process.cpuUsage();
    const game = await hill.createNoGuessGame({ id: i + 1, width: W, height: H, mines: MINES, seed: 0 }, Y * W + X);
    const took = cpuNs(process.cpuUsage(c0));
    hill.serverGames.clear();
    const mines = [];
    for (let t = 0; t < game.tiles.length; t++) {
        if (game.tiles[t].isBomb()) mines.push(t);
    }
    lines.push(`${i} ${globalThis.__failed ? 0 : 1} ${game.num_bombs} ${took} ${mines.join(' ')}`);
}
process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
