/**
 * What the networks' input encodings of every game share (Python's tapa_env/encoding.py):
 * each checker count as units, and many positions encoded into one float32 matrix. Each game
 * (web/js/games/) writes the rest of its features (`game.encodeInto(position, name, out, at)`,
 * `name` one of its `encodings`: "raw", "expert", and Tapa's and Tabla's "contact"); every
 * value is computed in doubles and rounded to float32 once, as numpy does, and read from the
 * frame of the position given: for an afterstate, the side that has just moved.
 */

import { POINTS } from "./position.js";

export const UNITS = 4;
/** The columns of both sides' point units: 24 points, mover first, 4 units each. */
export const POINT_UNITS = 2 * POINTS * UNITS;

/** Write the units `[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]` of each point, mover
 * first, into `out` from `at`; returns the checkers on the board of each side. */
export function pointUnits(position, out, at) {
  const units = (column, n) => {
    out[at + column] = n >= 1 ? 1 : 0;
    out[at + column + 1] = n >= 2 ? 1 : 0;
    out[at + column + 2] = n >= 3 ? 1 : 0;
    out[at + column + 3] = n > 3 ? (n - 3) / 2 : 0;
  };
  let own = 0;
  let opp = 0;
  for (let p = 0; p < POINTS; p++) {
    own += position.own[p];
    opp += position.opp[p];
    units(p * UNITS, position.own[p]);
    units((POINTS + p) * UNITS, position.opp[p]);
  }
  return [own, opp];
}

/** The encoding `name` of `game`: `{name, version, size}`, or an Error naming the known ones. */
export function encodingOf(game, name) {
  const found = Object.hasOwn(game.encodings, name) ? game.encodings[name] : undefined;
  if (!found) {
    const known = Object.keys(game.encodings).join(", ");
    throw new Error(`unknown encoding ${JSON.stringify(name)}; choose one of ${known}`);
  }
  return found;
}

/** The features of one position of `game` by `encoding` (a name of `game.encodings`: "raw",
 * "expert", Tapa's and Tabla's "contact"): a Float32Array equal to Python's
 * `get_encoding(encoding, game).encode`. */
export function encode(game, position, encoding) {
  const { name, size } = encodingOf(game, encoding);
  const out = new Float32Array(size);
  game.encodeInto(position, name, out, 0);
  return out;
}

/**
 * The features of many positions of `game`, one row after another: a `(n, size)` float32
 * matrix, row-major, as an ONNX model's input `features` takes it (into `out` when given, at
 * least `n * size` long). `gameOf` names each position's game, which must be `game`'s.
 */
export function encodeMany(game, positions, encoding, out, gameOf) {
  const { name, size } = encodingOf(game, encoding);
  out ??= new Float32Array(positions.length * size);
  if (out.length < positions.length * size) {
    const needed = positions.length * size;
    throw new Error(`out holds ${out.length} values; ${positions.length} positions need ${needed}`);
  }
  positions.forEach((position, i) => {
    const its = gameOf(position);
    if (its !== game.name) {
      throw new Error(`encodeMany takes positions of one game: ${game.name}, not ${its}`);
    }
    game.encodeInto(position, name, out, i * size);
  });
  return out;
}
