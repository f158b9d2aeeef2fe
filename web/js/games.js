/**
 * The rules of the three games of the Bulgarian tabla match in one import: Tapa (R1-R12),
 * Tabla (T1-T10) and Gulbara (G1-G10). A position says its game (`position.game`: "tabla" or
 * "gulbara"; none for Tapa, as in Python's interchange format), and every function here plays
 * the game of the position it is given, with that game's rule flags:
 *
 *   import { initialPosition, legalPlays, nextTurn, outcome } from "./js/games.js";
 *   let position = initialPosition("tabla");
 *   const plays = legalPlays(position, [6, 5]);   // the afterstates, Python's, in its order
 *   position = nextTurn(plays[0]).position;       // the side to move next, from its view
 *
 * Tapa's modules (web/js/tapa.js) are unchanged; Tabla's and Gulbara's live beside them
 * (`*_tabla_gulbara.js`). docs/web.md describes every name.
 */

import * as tapaEncoding from "./encoding.js";
import * as tapaNotation from "./notation.js";
import * as tapaPosition from "./position.js";
import * as tapaRules from "./rules.js";
import { CheckerTurn } from "./turn.js";
import { RACE_ENCODINGS, encodeRaceInto } from "./encoding_tabla_gulbara.js";
import { BAR_POINT } from "./notation_common.js";
import { raceNotatedPlays, raceParsePlay } from "./notation_tabla_gulbara.js";
import {
  checkRacePosition,
  flipRacePosition,
  initialRacePosition,
  racePipCounts,
  racePositionFromKey,
  racePositionKey,
  racePositionRow,
  show,
} from "./position_tabla_gulbara.js";
import {
  GULBARA_RULES,
  TABLA_RULES,
  checkRaceRules,
  raceLegalPlays,
  raceOutcome,
} from "./rules_tabla_gulbara.js";
import { RaceCheckerTurn } from "./turn_tabla_gulbara.js";

export { CHECKERS, POINTS, PositionError } from "./position.js";
export { NotationError, OFF, PASS } from "./notation.js";
export { BAR_POINT, CheckerTurn, RaceCheckerTurn };

/** The games of the match, in the order a match plays them after Tapa's first (R11). */
export const GAMES = Object.freeze(["tapa", "tabla", "gulbara"]);
/** Each game's name as the page writes it. */
export const GAME_NAMES = Object.freeze({ tapa: "Tapa", tabla: "Tabla", gulbara: "Gulbara" });
/** Each game's rule flags at the choices of docs/rules.md (`tapa_env.Rules`, `TablaRules`,
 * `GulbaraRules`): `GAME_RULES.tabla`, say. */
export const GAME_RULES = Object.freeze({
  tapa: tapaRules.DEFAULT_RULES,
  tabla: TABLA_RULES,
  gulbara: GULBARA_RULES,
});
/** Each game's encodings by name: `GAME_ENCODINGS.tabla.expert` is `{name, version, size}`. */
export const GAME_ENCODINGS = Object.freeze({ tapa: tapaEncoding.ENCODINGS, ...RACE_ENCODINGS });

/** `game` when it names a game of `GAMES`; else an Error naming them. */
export function checkGame(game) {
  if (!GAMES.includes(game)) {
    throw new Error(`game must be one of ${GAMES.join(", ")}, got ${JSON.stringify(game)}`);
  }
  return game;
}

/** The game of a position: its `game`, or "tapa" when it has none. */
export function gameOf(position) {
  const game = position?.game;
  if (game === undefined || game === "tapa") return "tapa";
  if (game === "tabla" || game === "gulbara") return game;
  throw new tapaPosition.PositionError(`game must be one of ${GAMES.join(", ")}, got ${show(game)}`);
}

const isTapa = (position) => gameOf(position) === "tapa";

/** The starting position of `game` (R1, T1, G1). */
export function initialPosition(game = "tapa") {
  return checkGame(game) === "tapa" ? tapaPosition.initialPosition() : initialRacePosition(game);
}

/** `position` when it is a position of its game, else a `PositionError` naming the problem
 * (the checks of Python's `Position.from_dict`). */
export function checkPosition(position) {
  return isTapa(position)
    ? tapaPosition.checkPosition(position)
    : checkRacePosition(position);
}

/** The one-line key of docs/formats.md, identical to Python's `Position.key`. */
export function positionKey(position) {
  return isTapa(position) ? tapaPosition.positionKey(position) : racePositionKey(position);
}

/** The position of a key of any game (`tabla/...`, `gulbara/...` or Tapa's), checked. */
export function positionFromKey(key) {
  const text = typeof key === "string" ? key.trim() : "";
  const slash = text.indexOf("/");
  if (slash < 0) return tapaPosition.positionFromKey(key);
  const head = text.slice(0, slash);
  if (head !== "tabla" && head !== "gulbara") {
    throw new tapaPosition.PositionError(
      "a position key starts with tabla/ or gulbara/ (or nothing, for Tapa), " +
        `got ${show(key)}`,
    );
  }
  return racePositionFromKey(head, text.slice(slash + 1), key);
}

/** The same position seen by the other side. */
export function flipPosition(position) {
  return isTapa(position) ? tapaPosition.flipPosition(position) : flipRacePosition(position);
}

/** Whether two positions are the same. */
export function samePosition(a, b) {
  return positionKey(a) === positionKey(b);
}

/** The pip counts `[mover, opponent]`. */
export function pipCounts(position) {
  return isTapa(position) ? tapaPosition.pipCounts(position) : racePipCounts(position);
}

/** The 72-value position row of docs/formats.md as an Int8Array. */
export function positionRow(position) {
  return isTapa(position) ? tapaPosition.positionRow(position) : racePositionRow(position);
}

/** The complete rule flags of `game` from a partial object of them (or none). */
export function checkRules(rules, game = "tapa") {
  if (checkGame(game) === "tapa") return tapaRules.checkRules(rules ?? tapaRules.DEFAULT_RULES);
  return checkRaceRules(rules, game);
}

/** Every legal afterstate of `dice` in `position`, exactly Python's `legal_afterstates` in its
 * order, under its game's `rules` (a partial object of flags). */
export function legalPlays(position, dice, rules) {
  if (isTapa(position)) return tapaRules.legalPlays(position, dice, checkRules(rules, "tapa"));
  return raceLegalPlays(position, dice, rules);
}

/** `null` while the game goes on, else `{winner, points}` in the position's frame. */
export function outcome(position, rules) {
  if (isTapa(position)) return tapaRules.outcome(position, checkRules(rules, "tapa"));
  return raceOutcome(position, rules);
}

/** Every legal play with its text and moves (Python's `legal_plays`). */
export function notatedPlays(position, dice, rules) {
  if (isTapa(position)) return tapaNotation.notatedPlays(position, dice, checkRules(rules));
  return raceNotatedPlays(position, dice, rules);
}

/** The text of the play that turns `position` into `afterstate`; a `NotationError` when it
 * is none of the turn's. */
export function playText(position, dice, afterstate, rules) {
  if (isTapa(position)) return tapaNotation.playText(position, dice, afterstate, checkRules(rules));
  const key = positionKey(checkPosition(afterstate));
  for (const play of raceNotatedPlays(position, dice, rules)) {
    if (positionKey(play.afterstate) === key) return play.text;
  }
  throw new tapaNotation.NotationError(
    `${key} is not a legal afterstate of ${dice[0]}-${dice[1]} in ${positionKey(position)}`,
  );
}

/** The afterstate of a typed play (Python's `parse_play`, its messages word for word). */
export function parsePlay(text, position, dice, rules) {
  if (isTapa(position)) return tapaNotation.parsePlay(text, position, dice, checkRules(rules));
  return raceParsePlay(text, position, dice, rules);
}

/** A turn of `position` played a checker move at a time: Tapa's `CheckerTurn` or a
 * `RaceCheckerTurn`, with the same members (`legalMoves`, `play`, `undo`, `done`,
 * `position`, `diceLeft`...). */
export function checkerTurn(position, dice, rules) {
  if (isTapa(position)) return new CheckerTurn(position, dice, checkRules(rules));
  return new RaceCheckerTurn(position, dice, rules);
}

/**
 * Who moves after the afterstate `afterstate` (mover's frame) and from which view:
 * `{position, passed}`. In Tapa and Tabla the turn always passes (`position` is the afterstate
 * flipped); in Gulbara the side that moved goes on where its afterstate says `next: "own"` (a
 * climb to play, or its own roll after numbers handed to it, G5 and G6).
 */
export function nextTurn(afterstate) {
  if (gameOf(afterstate) === "gulbara" && afterstate.next === "own") {
    return { position: afterstate, passed: false };
  }
  return { position: flipPosition(afterstate), passed: true };
}

/** The dice the mover of `position` plays with the roll `roll`: the roll, or in Gulbara the
 * double of the climb it has to play first (G5), which needs no roll. */
export function turnDice(position, roll) {
  if (gameOf(position) === "gulbara" && position.climb > 0) return [position.climb, position.climb];
  return roll;
}

/** The encoding `encoding` ("raw" or "expert") of `game`: `{name, version, size}`. */
export function encodingOf(encoding, game = "tapa") {
  const found = GAME_ENCODINGS[checkGame(game)];
  if (!Object.hasOwn(found, encoding)) {
    const known = Object.keys(found).join(", ");
    throw new Error(`unknown encoding ${JSON.stringify(encoding)}; choose one of ${known}`);
  }
  return found[encoding];
}

/** The features of one position of any game (an afterstate: from the side that just moved),
 * equal to Python's `get_encoding(encoding, game).encode`: a Float32Array. */
export function encode(position, encoding) {
  const game = gameOf(position);
  if (game === "tapa") return tapaEncoding.encode(position, encoding);
  const out = new Float32Array(encodingOf(encoding, game).size);
  encodeRaceInto(position, encoding, out, 0);
  return out;
}

/** The features of many positions of one game, a row-major `(n, size)` Float32Array (into
 * `out` when given): the layout of an ONNX model's input. `game` is the positions' game. */
export function encodeMany(positions, encoding, out, game = gameOf(positions[0])) {
  if (game === "tapa") return tapaEncoding.encodeMany(positions, encoding, out);
  const { size } = encodingOf(encoding, game);
  out ??= new Float32Array(positions.length * size);
  if (out.length < positions.length * size) {
    const needed = positions.length * size;
    throw new Error(`out holds ${out.length} values; ${positions.length} positions need ${needed}`);
  }
  positions.forEach((position, i) => {
    if (gameOf(position) !== game) {
      throw new Error(`encodeMany takes positions of one game: ${game}, not ${gameOf(position)}`);
    }
    encodeRaceInto(position, encoding, out, i * size);
  });
  return out;
}
