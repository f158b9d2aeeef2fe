/**
 * The rules of Tapa in JavaScript, in one import: positions, legal plays and outcomes, the
 * play notation, the networks' input encodings and turns played a checker move at a time.
 * Tapa's hooks (web/js/games/tapa.js) under the one search, turn machine and notation of
 * web/js/core/; web/js/games.js plays every game. No dependencies and no build step;
 * docs/web.md describes every name.
 *
 *   import { initialPosition, legalPlays, outcome } from "./js/tapa.js";
 */

import * as encoding from "./core/encoding.js";
import * as notation from "./core/notation.js";
import * as rules from "./core/rules.js";
import { REGISTRY } from "./games/index.js";
import { DEFAULT_RULES, ENCODINGS, checkRules } from "./games/tapa.js";

const tapa = REGISTRY.tapa;

export { CHECKERS, POINTS, PositionError } from "./core/position.js";
export { NotationError, OFF, PASS } from "./core/notation.js";
export { checkDice } from "./core/rules.js";
export { CheckerTurn } from "./core/turn.js";
export { DEFAULT_RULES, ENCODINGS, checkRules };

/** The starting position (R1): 15 checkers on the mover's 24, 15 on the mover's 1. */
export const initialPosition = () => tapa.initialPosition();
/** `position` when it is a Tapa position of the interchange format, else a `PositionError`
 * naming the first problem (the checks of Python's `Position.from_dict`). */
export const checkPosition = (position) => tapa.checkPosition(position);
/** The one-line key of docs/formats.md, `own|opp|pins`, identical to Python's `Position.key`. */
export const positionKey = (position) => tapa.positionKey(position);
/** Read a key written by `positionKey` (or Python's `Position.key`) back; checked. */
export const positionFromKey = (key) => tapa.positionFromKey(key);
/** The same position seen by the other side: its point p is our 25 - p. */
export const flipPosition = (position) => tapa.flipPosition(position);
/** Whether two positions are the same (every field equal). */
export const samePosition = (a, b) => tapa.positionKey(a) === tapa.positionKey(b);
/** The pip counts `[mover, opponent]`. */
export const pipCounts = (position) => tapa.pipCounts(position);
/** The 72-value position row of docs/formats.md as an Int8Array. */
export const positionRow = (position) => tapa.positionRow(position);

/** `null` while the game goes on, else `{winner, points}` in the position's frame (R8-R10). */
export const outcome = (position, flags = DEFAULT_RULES) => tapa.outcome(position, flags);
/** Every distinct position the mover can reach by a complete legal play of `dice` (R3-R10),
 * exactly the afterstates of Python's `tapa_env.legal_afterstates`, in the same order;
 * `[copy of position]` when the mover must pass (R12). */
export const legalPlays = (position, dice, flags = DEFAULT_RULES) =>
  rules.legalPlays(tapa, position, dice, flags);

/** Every legal play of `dice` with its text and moves, in the order of `legalPlays`. */
export const notatedPlays = (position, dice, flags = DEFAULT_RULES) =>
  notation.notatedPlays(tapa, position, dice, flags);
/** The text of the play of `dice` that turns `position` into `afterstate`. */
export const playText = (position, dice, afterstate, flags = DEFAULT_RULES) =>
  notation.playText(tapa, position, dice, afterstate, flags);
/** The afterstate of the play written `text` (Python's `parse_play`, its messages). */
export const parsePlay = (text, position, dice, flags = DEFAULT_RULES) =>
  notation.parsePlay(tapa, text, position, dice, flags);

/** The features of one position by `encoding` ("raw" or "expert"), equal to Python's. */
export const encode = (position, name) => encoding.encode(tapa, position, name);
/** The features of many positions, one row after another (an ONNX model's input). */
export const encodeMany = (positions, name, out) =>
  encoding.encodeMany(tapa, positions, name, out, () => tapa.name);
