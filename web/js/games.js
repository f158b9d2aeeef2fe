/**
 * The rules of every game of the page in one import: Tapa (R1-R12), Tabla (T1-T10) and
 * Gulbara (G1-G10), and any game the registry (web/js/games/index.js) adds. A position says its
 * game (`position.game`; none for Tapa, as in Python's interchange format), and every function
 * here plays the game of the position it is given, with that game's rule flags:
 *
 *   import { initialPosition, legalPlays, nextTurn, outcome } from "./js/games.js";
 *   let position = initialPosition("tabla");
 *   const plays = legalPlays(position, [6, 5]);   // the afterstates, Python's, in its order
 *   position = nextTurn(plays[0]).position;       // the side to move next, from its view
 *
 * The functions are the games' hooks (web/js/games/) under one search, one turn machine and one
 * notation (web/js/core/). docs/web.md describes every name.
 */

import * as encoding from "./core/encoding.js";
import * as notation from "./core/notation.js";
import { BAR_POINT, PositionError, showPython } from "./core/position.js";
import * as rules from "./core/rules.js";
import { CheckerTurn } from "./core/turn.js";
import { DEFAULT_GAME, GAMES, REGISTRY, gameFor, gameNamed } from "./games/index.js";

export { CHECKERS, POINTS, PositionError } from "./core/position.js";
export { NotationError, OFF, PASS } from "./core/notation.js";
export { BAR_POINT, CheckerTurn, DEFAULT_GAME, GAMES, REGISTRY, gameFor, gameNamed };
/** Tabla's and Gulbara's turns a checker move at a time: `CheckerTurn`, which plays every
 * game. */
export const RaceCheckerTurn = CheckerTurn;

const eachGame = (read) =>
  Object.freeze(Object.fromEntries(GAMES.map((name) => [name, read(REGISTRY[name])])));

/** Each game's name as the page writes it. */
export const GAME_NAMES = eachGame((game) => game.title);
/** Each game's rule flags at the choices of docs/rules.md (`tapa_env.Rules`, `TablaRules`,
 * `GulbaraRules`): `GAME_RULES.tabla`, say. */
export const GAME_RULES = eachGame((game) => game.rules);
/** Each game's encodings by name: `GAME_ENCODINGS.tabla.expert` is `{name, version, size}`. */
export const GAME_ENCODINGS = eachGame((game) => game.encodings);

/** `game` when it names a game of `GAMES`; else an Error naming them. */
export function checkGame(game) {
  return gameNamed(game).name;
}

/** The game of a position: its `game`, or "tapa" when it has none. */
export function gameOf(position) {
  return gameFor(position).name;
}

/** The starting position of `game` (R1, T1, G1). */
export function initialPosition(game = DEFAULT_GAME) {
  return gameNamed(game).initialPosition();
}

/** `position` when it is a position of its game, else a `PositionError` naming the problem
 * (the checks of Python's `Position.from_dict`). */
export function checkPosition(position) {
  return gameFor(position).checkPosition(position);
}

/** The one-line key of docs/formats.md, identical to Python's `Position.key`. */
export function positionKey(position) {
  return gameFor(position).positionKey(position);
}

/** The position of a key of any game (`tabla/...`, `gulbara/...` or Tapa's), checked. */
export function positionFromKey(key) {
  const text = typeof key === "string" ? key.trim() : "";
  const slash = text.indexOf("/");
  if (slash < 0) return REGISTRY[DEFAULT_GAME].positionFromKey(key);
  const head = text.slice(0, slash);
  const prefixed = GAMES.filter((name) => name !== DEFAULT_GAME);
  if (!prefixed.includes(head)) {
    throw new PositionError(
      `a position key starts with ${prefixed.map((name) => `${name}/`).join(" or ")} ` +
        `(or nothing, for ${REGISTRY[DEFAULT_GAME].title}), got ${showPython(key)}`,
    );
  }
  return REGISTRY[head].positionFromKey(text.slice(slash + 1), key);
}

/** The same position seen by the other side. */
export function flipPosition(position) {
  return gameFor(position).flipPosition(position);
}

/** Whether two positions are the same. */
export function samePosition(a, b) {
  return positionKey(a) === positionKey(b);
}

/** The pip counts `[mover, opponent]`. */
export function pipCounts(position) {
  return gameFor(position).pipCounts(position);
}

/** The 72-value position row of docs/formats.md as an Int8Array. */
export function positionRow(position) {
  return gameFor(position).positionRow(position);
}

/** The complete rule flags of `game` from a partial object of them (or none). */
export function checkRules(rules, game = DEFAULT_GAME) {
  return gameNamed(game).checkRules(rules);
}

/** Every legal afterstate of `dice` in `position`, exactly Python's `legal_afterstates` in its
 * order, under its game's `rules` (a partial object of flags). */
export function legalPlays(position, dice, rules_) {
  return rules.legalPlays(gameFor(position), position, dice, rules_);
}

/** `null` while the game goes on, else `{winner, points}` in the position's frame. */
export function outcome(position, rules_) {
  return gameFor(position).outcome(position, rules_);
}

/** Every legal play with its text and moves (Python's `legal_plays`). */
export function notatedPlays(position, dice, rules_) {
  return notation.notatedPlays(gameFor(position), position, dice, rules_);
}

/** The text of the play that turns `position` into `afterstate`; a `NotationError` when it
 * is none of the turn's. */
export function playText(position, dice, afterstate, rules_) {
  return notation.playText(gameFor(position), position, dice, afterstate, rules_);
}

/** The afterstate of a typed play (Python's `parse_play`, its messages word for word). */
export function parsePlay(text, position, dice, rules_) {
  return notation.parsePlay(gameFor(position), text, position, dice, rules_);
}

/** A turn of `position` played a checker move at a time: a `CheckerTurn` (`legalMoves`,
 * `play`, `undo`, `done`, `position`, `diceLeft`...). */
export function checkerTurn(position, dice, rules_) {
  return new CheckerTurn(position, dice, rules_);
}

/**
 * Who moves after the afterstate `afterstate` (mover's frame) and from which view:
 * `{position, passed}`. The turn passes (`position` is the afterstate flipped) unless the
 * afterstate says the side that moved goes on (`next: "own"`: in Gulbara a climb to play, or
 * its own roll after numbers handed to it, G5 and G6).
 */
export function nextTurn(afterstate) {
  gameFor(afterstate);
  if (afterstate.next === "own") return { position: afterstate, passed: false };
  return { position: flipPosition(afterstate), passed: true };
}

/** The dice the mover of `position` plays with the roll `roll`: the roll, or the double of a
 * climb it has to play first (Gulbara, G5), which needs no roll. */
export function turnDice(position, roll) {
  if (position.climb > 0) return [position.climb, position.climb];
  return roll;
}

/** The encoding `encoding` ("raw", "expert", Tapa's and Tabla's "contact") of `game`:
 * `{name, version, size}`. */
export function encodingOf(encoding_, game = DEFAULT_GAME) {
  return encoding.encodingOf(gameNamed(game), encoding_);
}

/** The features of one position of any game (an afterstate: from the side that just moved),
 * equal to Python's `get_encoding(encoding, game).encode`: a Float32Array. */
export function encode(position, encoding_) {
  return encoding.encode(gameFor(position), position, encoding_);
}

/** The features of many positions of one game, a row-major `(n, size)` Float32Array (into
 * `out` when given): the layout of an ONNX model's input. `game` is the positions' game. */
export function encodeMany(positions, encoding_, out, game = gameOf(positions[0])) {
  return encoding.encodeMany(gameNamed(game), positions, encoding_, out, gameOf);
}
