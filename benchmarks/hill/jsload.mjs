// What the two JSMinesweeper drivers (jsplay.mjs, jsnoguess.mjs) share: where David Hill's
// unmodified browser scripts are in a checkout, in the order his index.html loads them (minus
// main.js, the GUI, and the old LTR helper), a small seeded PRNG to stand for Math.random, and
// a console that says nothing (his scripts log a great deal).

import path from 'node:path';

// The scripts of the checkout named by the environment variable JSMS_DIR; exits with status 2
// and a one-line message naming `driver` when it is not set.
export function scripts(driver) {
    const dir = process.env.JSMS_DIR;
    if (!dir) {
        console.error(`${driver}: set JSMS_DIR to a JSMinesweeper checkout`);
        process.exit(2);
    }
    const client = path.join(dir, 'Minesweeper', 'client');
    const util = path.join(dir, 'Minesweeper', 'Utility');
    return [
        ...['Board', 'Tile', 'solver_main', 'solver_probability_engine', 'Brute_force', 'BruteForceAnalysis',
            'MinesweeperGame', 'SolutionCounter', 'EfficiencyHelper', 'FiftyFiftyHelper', 'LongTermRiskHelper']
            .map((name) => path.join(client, name + '.js')),
        ...['PrimeSieve', 'Binomial'].map((name) => path.join(util, name + '.js')),
    ];
}

// mulberry32: a small seeded PRNG, uniform in [0, 1).
export function mulberry32(a) {
    return function () {
        a |= 0; a = (a + 0x6D2B79F5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

export function quietConsole() {
    for (const name of ['log', 'warn', 'info', 'debug']) console[name] = () => {};
}
