/**
 * The registry of the page's games: one module a game (web/js/games/*.js). A module exports
 * its hooks, the functions named in `HOOKS` (what web/js/core/ searches, plays and writes
 * over), and `game`, its properties (its name, flags and encodings, and what the page draws
 * and says). Every other module asks the registry, never a game's name. The matches that play
 * them in turn are web/js/match.js's `MATCHES`.
 */

import { PositionError, showPython } from "../core/position.js";
import * as fevga from "./fevga.js";
import * as gulbara from "./gulbara.js";
import * as tabla from "./tabla.js";
import * as tapa from "./tapa.js";

/** The hooks every game exports, by name: its flags and positions (`checkRules`,
 * `initialPosition`, `checkPosition`, `positionKey`, `positionFromKey`, `flipPosition`,
 * `pipCounts`, `positionRow`), `outcome`, what the one search needs (`facts`, `afterstate`,
 * `marksOf`) and its features (`encodeInto`). */
export const HOOKS = Object.freeze([
  "checkRules",
  "initialPosition",
  "checkPosition",
  "positionKey",
  "positionFromKey",
  "flipPosition",
  "pipCounts",
  "positionRow",
  "outcome",
  "facts",
  "afterstate",
  "marksOf",
  "encodeInto",
]);
/** The hooks of a game where a side may move again: `checkTurn` (whether a position is its
 * mover's turn with these dice) and `turnAfter` (the turn state a play leaves). */
export const MORE_HOOKS = Object.freeze(["checkTurn", "turnAfter"]);
/** The optional hooks that come in pairs (web/js/core/search.js), each the first asking
 * whether the turn (its facts) uses the second: a game that judges a play by where it ends
 * (`recordsPrefixes`, `accepts`) and one that prefers some afterstates among the longest
 * plays (`hasPreference`, `prefers`): Fevga's F6 and F7. */
export const PAIRED_HOOKS = Object.freeze([
  Object.freeze(["recordsPrefixes", "accepts"]),
  Object.freeze(["hasPreference", "prefers"]),
]);

/** A game's object from its module: its properties and its hooks; an Error names a hook that
 * is missing, or one of a pair without the other. */
export function defineGame(module) {
  const missing = HOOKS.filter((hook) => typeof module[hook] !== "function");
  for (const pair of PAIRED_HOOKS) {
    const given = pair.filter((hook) => typeof module[hook] === "function");
    if (given.length === 1) missing.push(...pair.filter((hook) => !given.includes(hook)));
  }
  if (missing.length) {
    throw new Error(`the game ${module.game?.name} lacks the hooks ${missing.join(", ")}`);
  }
  const hooks = [...HOOKS, ...MORE_HOOKS, ...PAIRED_HOOKS.flat()].filter(
    (hook) => typeof module[hook] === "function",
  );
  return Object.freeze({ ...module.game, ...Object.fromEntries(hooks.map((h) => [h, module[h]])) });
}

/** The games by name, in the order the page lists them; the first is the default. */
export const REGISTRY = Object.freeze(
  Object.fromEntries(
    [tapa, tabla, gulbara, fevga].map((module) => [module.game.name, defineGame(module)]),
  ),
);
/** The names of the games, Tapa (the default, a position without `game`) first. */
export const GAMES = Object.freeze(Object.keys(REGISTRY));
/** The game whose positions carry no `game` key. */
export const DEFAULT_GAME = GAMES[0];

/** The game named `name`, or an Error naming the games. */
export function gameNamed(name) {
  if (!GAMES.includes(name)) {
    throw new Error(`game must be one of ${GAMES.join(", ")}, got ${JSON.stringify(name)}`);
  }
  return REGISTRY[name];
}

/** The game of a position: its `game`, or the default game when it has none; a
 * `PositionError` for a name that is no game's. */
export function gameFor(position) {
  const name = position?.game === undefined ? DEFAULT_GAME : position.game;
  if (typeof name !== "string" || !Object.hasOwn(REGISTRY, name)) {
    throw new PositionError(`game must be one of ${GAMES.join(", ")}, got ${showPython(name)}`);
  }
  return REGISTRY[name];
}
