// Headless single-threaded benchmark driver for David Hill's JSMinesweeper solver (Node >= 18).
// Written for benchmarks/players.py: it loads Hill's unmodified browser scripts into this process,
// stubs the few GUI globals they touch, and calls his ServerGame / Board / solver().
//
// Usage: node jsplay.mjs W H MINES opening|safe X Y GAMES SEED WARMUP
//   env JSMS_DIR = path of the JSMinesweeper checkout (required)
//   MODE opening -> Hill gameType "zero" (3x3 around the first click is mine free)
//   MODE safe    -> Hill gameType "safe" (only the first click is mine free)
// Output: "index won cpu_ns" per reported game (process.cpuUsage user+system around the game),
//         then "TOTAL games wins process_cpu_ns" (process cpu after the warm-up games).

import fs from 'node:fs';
import vm from 'node:vm';

import { mulberry32, quietConsole, scripts } from './jsload.mjs';

const args = process.argv.slice(2);
if (args.length !== 9) {
    console.error('usage: node jsplay.mjs W H MINES opening|safe X Y GAMES SEED WARMUP');
    process.exit(2);
}
const [W, H, MINES] = args.slice(0, 3).map(Number);
const mode = args[3];
const [SX, SY, GAMES] = args.slice(4, 7).map(Number);
const SEED = Number(args[7]);
const WARMUP = Number(args[8]);
let gameType;
if (mode === 'opening') gameType = 'zero';
else if (mode === 'safe') gameType = 'safe';
else throw new Error('mode must be opening or safe: ' + mode);

const SCRIPTS = scripts('jsplay.mjs');

// His scripts run in this process's own global scope, as a page's scripts share the
// window: a vm context with a sandbox object as its global makes every global lookup
// of theirs go through an interceptor, several times slower.
quietConsole();
globalThis.__seededRandom = mulberry32(SEED ^ 0x2545F491);
// GUI globals referenced by the solver/game scripts (normally defined in main.js / index.html).
vm.runInThisContext(`
    var analysisMode = false;      // solver_probability_engine.js
    var analysing = false;
    var oldrng = false;            // MinesweeperGame.js JSF()
    var binomialCache;             // set below once Binomial.js is loaded
    var board = null;              // main.js GUI global; LongTermRiskHelper.getBoxInfluence reads
                                   // board.width/height from it, so we point it at the current game
    const BOMB = 9;                // main.js constant used by Brute_force / BruteForceAnalysis
    function showMessage(text) {}
    async function sleep(msec) {}  // GUI yield; made a no-op so no wall-clock waits
    Math.random = __seededRandom;  // BruteForceAnalysis SolutionTable hashes use Math.random
`, { filename: 'jsplay-stubs.js' });
for (const f of SCRIPTS) {
    vm.runInThisContext(fs.readFileSync(f, 'utf8'), { filename: f });
}
// Same binomial set-up as main.js startup() (MAX_BINOMIAL_N = 65000, cache 5000 / 500).
vm.runInThisContext('binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));');

await vm.runInThisContext('solver(null)');   // Hill's init call: registers solver.countSolutions

const hill = vm.runInThisContext(
    '({ ServerGame, Board, solver, applyResults, JSF, IN_PLAY, WON, ACTION_CLEAR, PLAY_STYLE_NOFLAGS })');

// Same solver options as Hill's bulkRun() in main.js.
function solverOptions() {
    return {
        playStyle: hill.PLAY_STYLE_NOFLAGS,
        verbose: false,
        advancedGuessing: true,
        fullProbability: true,
        hardcore: false,
    };
}

async function playGame(gameSeed) {
    const startIndex = SY * W + SX;
    const game = new hill.ServerGame(0, W, H, MINES, startIndex, gameSeed, gameType);
    const board = new hill.Board(0, W, H, MINES, gameSeed, gameType);
    globalThis.board = board;

    let reveal = game.clickTile(game.getTile(startIndex));   // our first click at (SX,SY)
    if (reveal.header.status !== hill.IN_PLAY) return reveal.header.status === hill.WON;
    hill.applyResults(board, reveal);

    for (let calls = 0; calls < 10000; calls++) {
        const reply = await hill.solver(board, solverOptions());
        const actions = reply.actions;
        if (actions.length === 0) {
            console.error(`seed ${gameSeed}: solver returned no actions`);
            return false;
        }
        for (let i = 0; i < actions.length; i++) {
            const a = actions[i];
            if (a.action !== hill.ACTION_CLEAR) continue;   // no-flag style: ignore flags/chords
            if (i === 0 || a.prob === 1) {
                reveal = game.clickTile(game.getTile(board.xy_to_index(a.x, a.y)));
                if (reveal.header.status !== hill.IN_PLAY) return reveal.header.status === hill.WON;
                hill.applyResults(board, reveal);
            }
            if (a.prob !== 1) break;   // after a guess, re-run the solver
        }
    }
    console.error(`seed ${gameSeed}: looping, counted as loss`);
    return false;
}

const cpuNs = (u) => (u.user + u.system) * 1000;

// Game seeds from Hill's own seeded JSF generator, as in bulkRun(); warm-up uses a separate stream.
const warmRng = hill.JSF(SEED + 7919);
for (let i = 0; i < WARMUP; i++) {
    await playGame(Math.round(warmRng() * Number.MAX_SAFE_INTEGER));
}

const rng = hill.JSF(SEED);
const lines = [];
let wins = 0;
const proc0 = process.cpuUsage();
for (let i = 0; i < GAMES; i++) {
    const gameSeed = Math.round(rng() * Number.MAX_SAFE_INTEGER);
    const c0 = process.cpuUsage();
    const won = await playGame(gameSeed);
    const c1 = process.cpuUsage(c0);
    if (won) wins++;
    lines.push(`${i} ${won ? 1 : 0} ${cpuNs(c1)}`);
}
const proc = process.cpuUsage(proc0);
process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
process.stdout.write(`TOTAL ${GAMES} ${wins} ${cpuNs(proc)}\n`);
