// Throughput of the JavaScript rules (web/js) in Node, on one thread.
//
// A pool of positions from seeded random self-play (played with legalPlays itself) is timed
// with all 21 rolls each; the best of several passes is kept. Prints one line per measure:
// legalPlays (position-rolls and afterstates a second), the notation of every play, the
// expert encoding of afterstates, and the work of a 2-ply look at one turn (every reply roll
// of every afterstate).
//
//   node bench/web_rules.mjs [--pool 2000] [--repeats 5]

import {
  encodeMany,
  flipPosition,
  initialPosition,
  legalPlays,
  notatedPlays,
  outcome,
} from "../web/js/tapa.js";

const ROLLS = [];
for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) ROLLS.push([a, b]);

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) {
    const given = process.argv[index + 1];
    console.error(`web_rules.mjs: --${name} takes a positive integer, got ${given}`);
    process.exit(2);
  }
  return value;
}

/** A seeded generator of numbers in [0, 1) (mulberry32). */
function generator(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `size` positions met in random games, each from its side to move. */
function pool(size, random) {
  const positions = [];
  while (positions.length < size) {
    let position = initialPosition();
    for (let turn = 0; turn < 2000 && positions.length < size; turn++) {
      positions.push(position);
      const dice = [1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)];
      const afterstates = legalPlays(position, dice);
      const chosen = afterstates[Math.floor(random() * afterstates.length)];
      if (outcome(chosen)) break;
      position = flipPosition(chosen);
    }
  }
  return positions;
}

/** The best time in seconds of `repeats` runs of `work`, and what the last run returned. */
function best(repeats, work) {
  let seconds = Infinity;
  let result;
  for (let r = 0; r < repeats; r++) {
    const start = process.hrtime.bigint();
    result = work();
    seconds = Math.min(seconds, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return [seconds, result];
}

const format = (n) => Math.round(n).toLocaleString("en-US");
const size = option("pool", 2000);
const repeats = option("repeats", 5);
const positions = pool(size, generator(1));

const [playSeconds, afterstates] = best(repeats, () => {
  let count = 0;
  for (const position of positions) {
    for (const dice of ROLLS) count += legalPlays(position, dice).length;
  }
  return count;
});
const turns = positions.length * ROLLS.length;
console.log(
  `legalPlays: ${format(turns)} position-rolls (${format(afterstates)} afterstates) in ` +
    `${playSeconds.toFixed(2)} s: ${format(turns / playSeconds)} position-rolls/s, ` +
    `${format(afterstates / playSeconds)} afterstates/s`,
);

const some = positions.slice(0, Math.max(1, Math.floor(size / 10)));
const [textSeconds, texts] = best(repeats, () => {
  let count = 0;
  for (const position of some) {
    for (const dice of ROLLS) count += notatedPlays(position, dice).length;
  }
  return count;
});
console.log(`notatedPlays: ${format(texts / textSeconds)} plays/s with their text`);

const sample = [];
for (const position of some) for (const dice of ROLLS) sample.push(...legalPlays(position, dice));
const [encodeSeconds] = best(repeats, () => encodeMany(sample, "expert"));
console.log(`encodeMany (expert): ${format(sample.length / encodeSeconds)} positions/s`);

// A 2-ply look: every reply roll of every afterstate of one turn of a middle-game position.
const middle = positions[Math.floor(positions.length / 2)];
const [lookSeconds, replies] = best(repeats, () => {
  let count = 0;
  for (const afterstate of legalPlays(middle, [3, 1])) {
    const reply = flipPosition(afterstate);
    for (const dice of ROLLS) count += legalPlays(reply, dice).length;
  }
  return count;
});
console.log(
  `2-ply look at one turn (3-1): ${format(replies)} reply afterstates in ` +
    `${(lookSeconds * 1000).toFixed(1)} ms`,
);
console.log(`position_rolls_per_second ${Math.round(turns / playSeconds)}`);
console.log(`afterstates_per_second ${Math.round(afterstates / playSeconds)}`);
