/**
 * The networks' input encodings, feature for feature those of Python's tapa_env/encoding.py
 * (docs/bot-files.md lists them), as float32 arrays. Every feature is read from the frame of
 * the position given: for an afterstate, the side that has just moved.
 *
 * `raw` (version `raw-v1`, 248 features): for each point 1-24 and each side, the checkers as
 * units `[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]` (mover first, 192); for each point
 * whether a mover checker lies pinned there, then whether an opponent checker does (48); the
 * borne-off counts over 15 (2); for each side its mother: checkers left on its starting point
 * over 15, exactly one left, that one pinned (6).
 *
 * `expert` (version `expert-v1`, 258 features): `raw`, then, each side mover first: pip
 * counts over 360; lone unpinned checkers that a movable enemy checker reaches with one die,
 * over 5; pinned enemy checkers held, over 5; points made in the side's home, over 6; the
 * mother at risk (alone, unpinned, a movable enemy checker within one die).
 */

import { CHECKERS, POINTS } from "./position.js";

const UNITS = 4;
const PINS = 2 * POINTS * UNITS;
const OFF = PINS + 2 * POINTS;
const MOTHER = OFF + 2;
const RAW_SIZE = MOTHER + 6;
const EXPERT_SIZE = RAW_SIZE + 10;
const DIE = 6;
const HOME = 6;

/** The encodings by name: `{name, version, size}`, as a bot file's metadata names them. */
export const ENCODINGS = Object.freeze({
  raw: Object.freeze({ name: "raw", version: "raw-v1", size: RAW_SIZE }),
  expert: Object.freeze({ name: "expert", version: "expert-v1", size: EXPERT_SIZE }),
});

function encodingOf(name) {
  const encoding = Object.hasOwn(ENCODINGS, name) ? ENCODINGS[name] : undefined;
  if (!encoding) {
    const known = Object.keys(ENCODINGS).join(", ");
    throw new Error(`unknown encoding ${JSON.stringify(name)}; choose one of ${known}`);
  }
  return encoding;
}

/** Write the features of `position` into `out` from index `at`. The arithmetic is done in
 * doubles and rounded to float32 once, as numpy does. */
function encodeInto(position, expert, out, at) {
  const own = position.own;
  const opp = position.opp;
  const pin = new Int8Array(POINTS);
  for (const p of position.opp_pinned) pin[p - 1] = 1;
  for (const p of position.own_pinned) pin[p - 1] = -1;
  const units = (column, n) => {
    out[at + column] = n >= 1 ? 1 : 0;
    out[at + column + 1] = n >= 2 ? 1 : 0;
    out[at + column + 2] = n >= 3 ? 1 : 0;
    out[at + column + 3] = n > 3 ? (n - 3) / 2 : 0;
  };
  let ownOnBoard = 0;
  let oppOnBoard = 0;
  for (let p = 0; p < POINTS; p++) {
    ownOnBoard += own[p];
    oppOnBoard += opp[p];
    units(p * UNITS, own[p]);
    units((POINTS + p) * UNITS, opp[p]);
    out[at + PINS + p] = pin[p] === -1 ? 1 : 0;
    out[at + PINS + POINTS + p] = pin[p] === 1 ? 1 : 0;
  }
  out[at + OFF] = (CHECKERS - ownOnBoard) / CHECKERS;
  out[at + OFF + 1] = (CHECKERS - oppOnBoard) / CHECKERS;
  const ownStart = own[POINTS - 1];
  const oppStart = opp[0];
  out[at + MOTHER] = ownStart / CHECKERS;
  out[at + MOTHER + 1] = ownStart === 1 ? 1 : 0;
  out[at + MOTHER + 2] = ownStart === 1 && pin[POINTS - 1] === -1 ? 1 : 0;
  out[at + MOTHER + 3] = oppStart / CHECKERS;
  out[at + MOTHER + 4] = oppStart === 1 ? 1 : 0;
  out[at + MOTHER + 5] = oppStart === 1 && pin[0] === 1 ? 1 : 0;
  if (!expert) return;

  let ownPips = 0;
  let oppPips = 0;
  let ownExposed = 0;
  let oppExposed = 0;
  let pinsHeld = 0;
  let pinsSuffered = 0;
  let ownHomePoints = 0;
  let oppHomePoints = 0;
  for (let p = 0; p < POINTS; p++) {
    ownPips += own[p] * (p + 1);
    oppPips += opp[p] * (POINTS - p);
    if (pin[p] === 1) pinsHeld += 1;
    else if (pin[p] === -1) pinsSuffered += 1;
    if (p < HOME && own[p] >= 2) ownHomePoints += 1;
    if (p >= POINTS - HOME && opp[p] >= 2) oppHomePoints += 1;
    // The opponent moves up the mover's numbering, the mover down it.
    if (own[p] === 1 && pin[p] === 0) {
      for (let q = Math.max(0, p - DIE); q < p; q++) {
        if (opp[q] > 0 && pin[q] !== 1) {
          ownExposed += 1;
          break;
        }
      }
    }
    if (opp[p] === 1 && pin[p] === 0) {
      for (let q = p + 1; q < Math.min(POINTS, p + DIE + 1); q++) {
        if (own[q] > 0 && pin[q] !== -1) {
          oppExposed += 1;
          break;
        }
      }
    }
  }
  const last = POINTS - 1;
  const ownMotherAlone = own[last] === 1 && pin[last] === 0;
  const oppMotherAlone = opp[0] === 1 && pin[0] === 0;
  let ownMotherAtRisk = false;
  let oppMotherAtRisk = false;
  for (let q = last - DIE; q < last; q++) {
    if (opp[q] > 0 && pin[q] !== 1) ownMotherAtRisk = ownMotherAlone;
  }
  for (let q = 1; q <= DIE; q++) {
    if (own[q] > 0 && pin[q] !== -1) oppMotherAtRisk = oppMotherAlone;
  }
  const e = at + RAW_SIZE;
  out[e] = ownPips / 360;
  out[e + 1] = oppPips / 360;
  out[e + 2] = ownExposed / 5;
  out[e + 3] = oppExposed / 5;
  out[e + 4] = pinsHeld / 5;
  out[e + 5] = pinsSuffered / 5;
  out[e + 6] = ownHomePoints / 6;
  out[e + 7] = oppHomePoints / 6;
  out[e + 8] = ownMotherAtRisk ? 1 : 0;
  out[e + 9] = oppMotherAtRisk ? 1 : 0;
}

/**
 * The features of one position (an afterstate: from the side that has just moved).
 *
 * @param {object} position a position in the interchange format (not checked here; pass
 *   positions from `legalPlays` or checked ones).
 * @param {string} encoding `"raw"` or `"expert"`.
 * @returns {Float32Array} `ENCODINGS[encoding].size` features, equal to Python's.
 */
export function encode(position, encoding) {
  const { name, size } = encodingOf(encoding);
  const out = new Float32Array(size);
  encodeInto(position, name === "expert", out, 0);
  return out;
}

/**
 * The features of many positions, one row after another: a `(positions.length, size)`
 * float32 matrix, row-major, as an ONNX model's input `features` takes it.
 *
 * @param {object[]} positions positions in the interchange format.
 * @param {string} encoding `"raw"` or `"expert"`.
 * @param {Float32Array} [out] where to write (at least `positions.length * size` long).
 * @returns {Float32Array} `out`, or a new array.
 */
export function encodeMany(positions, encoding, out) {
  const { name, size } = encodingOf(encoding);
  out ??= new Float32Array(positions.length * size);
  if (out.length < positions.length * size) {
    const needed = positions.length * size;
    throw new Error(`out holds ${out.length} values; ${positions.length} positions need ${needed}`);
  }
  positions.forEach((position, i) => encodeInto(position, name === "expert", out, i * size));
  return out;
}
