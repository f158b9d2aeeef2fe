/**
 * What Tabla, Gulbara and Fevga, the games without pins, share: a position without pins
 * whose key and checks follow one pattern (Python's tapa_env/position.py for these games, its
 * messages word for word), and the search's facts where a lone opponent checker is hit or
 * nothing is (web/js/games/tabla.js, gulbara.js, fevga.js).
 */

import {
  CHECKERS,
  POINTS,
  PositionError,
  checkBorneOff,
  checkCounts,
  countsKey,
  readCounts,
  showPython as show,
  total,
} from "../core/position.js";
import { checkFlags } from "../core/rules.js";

/** The names of the games, as Python's `GAMES` lists them in its messages. */
export const GAME_NAMES = "tapa, tabla, gulbara, fevga";

/** The complete rule flags of `game` (`name`, `rules` its defaults) from `rules`, a partial
 * object of its flags. */
export function checkGameRules(game, rules) {
  const defaults = game.rules;
  if (rules === undefined) return defaults;
  return checkFlags(
    rules,
    defaults,
    `${game.name}'s rules are an object of its rule flags, such as ` +
      `{${Object.keys(defaults)[0]}: true}, got ${JSON.stringify(rules)}`,
    ` for ${game.name}`,
  );
}

/** Check the keys of a position of `game` (`keys` in Python's order; `notInGame` says why a
 * key of another game is not one of this game). */
function checkKeys(position, name, keys, notInGame) {
  const missing = keys.filter((k) => k !== "game" && !(k in position));
  const extra = Object.keys(position).filter((k) => !keys.includes(k)).sort();
  for (const key of extra) {
    const why = notInGame[key];
    if (why) throw new PositionError(`${name} position: '${key}': ${why}`);
  }
  if (missing.length || extra.length) {
    const wrong = [["missing", missing], ["unexpected", extra]]
      .filter(([, names]) => names.length)
      .map(([what, names]) => `${what} ${show(names)}`);
    throw new PositionError(`${name} position keys: ${wrong.join(", ")}`);
  }
}

/**
 * Throw a `PositionError` naming the first way `position` is not one of `game`'s (the checks
 * of Python's `Position.from_dict`, with its messages); return it otherwise. The game gives
 * `keys`, `notInGame`, `sharedPointRule` (why both colours never share a point), `where` (where
 * its checkers left are) and `checkFields` / `fieldProblem` / `unreachedProblem` for its own
 * keys.
 */
export function checkRacePosition(game, position) {
  checkKeys(position, game.name, game.keys, game.notInGame);
  checkCounts(position, show);
  game.checkFields(position);
  for (let i = 0; i < POINTS; i++) {
    const [mine, theirs] = [position.own[i], position.opp[i]];
    if (mine && theirs) {
      throw new PositionError(
        `point ${i + 1} has ${mine} mover and ${theirs} opponent checkers; ` +
          `both colours never share a point in ${game.name} (${game.sharedPointRule})`,
      );
    }
  }
  const problem = game.fieldProblem?.(position);
  if (problem) throw new PositionError(problem);
  const left = checkersLeft(position);
  ["own", "opp"].forEach((side, index) => {
    if (left[index] > CHECKERS) {
      throw new PositionError(
        `${side} has ${left[index]} checkers ${game.where}, over ${CHECKERS}`,
      );
    }
  });
  checkBorneOff(position, left, game.where, show);
  const unreached = game.unreachedProblem?.(position);
  if (unreached) throw new PositionError(unreached);
  if (left[0] === 0 && left[1] === 0) {
    throw new PositionError("both sides have borne off all their checkers; no game ends so");
  }
  return position;
}

/** The checkers each side has on the board and the bar: `[own, opp]`. */
export function checkersLeft(position) {
  return [
    total(position.own) + (position.own_bar ?? 0),
    total(position.opp) + (position.opp_bar ?? 0),
  ];
}

/** The key of docs/formats.md: `game/own|opp|` and the game's `tail` of values. */
export function raceKey(position, tail) {
  return `${position.game}/${countsKey(position)}|${tail.join(",")}`;
}

/** The counts and tail values of a key's text after `game/`, checked for its three parts;
 * `form` names them in the message. */
export function readRaceKey(name, text, key, form) {
  const parts = text.split("|");
  if (parts.length !== 3) {
    throw new PositionError(`a ${name} position key has the form '${form}', got ${show(key)}`);
  }
  const [own, opp] = parts.slice(0, 2).map((side) => readCounts(side, key, show));
  return { own, opp, tail: parts[2] };
}

/** `null` while the game goes on, else `{winner, points}` in the position's frame (T8, G9):
 * `winner` is 1 when the frame's side has borne off all 15, -1 when the other side has;
 * `points` is 2 (a mars) when the loser has borne off none, else 1; `triple(points)` may make
 * it 3 (Tabla's backgammon). */
export function raceOutcome(position, triple = (value) => value) {
  const [ownLeft, oppLeft] = checkersLeft(position);
  let value = 0;
  if (ownLeft === 0) value = oppLeft === CHECKERS ? 2 : 1;
  if (oppLeft === 0) value = ownLeft === CHECKERS ? -2 : -1;
  value = triple(value, ownLeft, oppLeft);
  if (ownLeft !== 0 && oppLeft !== 0) return null;
  return { winner: Math.sign(value), points: Math.abs(value) };
}

/** The search's facts of a game without pins: `open` and `lone` (the checkers hit) from each
 * point's opponent count. */
export function raceFacts(position, open, lone, more) {
  let openPoints = 0;
  let blots = 0;
  for (let p = 0; p < POINTS; p++) {
    const opponent = position.opp[p];
    if (open(opponent)) openPoints |= 1 << p;
    if (lone(opponent)) blots |= 1 << p;
  }
  return {
    open: openPoints,
    stuck: 0,
    lone: blots,
    bearOffBlocked: false,
    releases: false,
    zone: 0,
    bar: 0,
    marks: 0,
    count: 4,
    ended: null,
    ...more,
  };
}
