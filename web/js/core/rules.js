/**
 * What every game's rules share: the roll, the rule flags, and the calls a game answers through
 * the one afterstate search (web/js/core/search.js).
 */

import { searchAfterstates } from "./search.js";

/** The roll `dice` as `[a, b]`, or an Error: a pair of integers 1-6. */
export function checkDice(dice) {
  const ok =
    Array.isArray(dice) &&
    dice.length === 2 &&
    dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  if (!ok) throw new Error(`dice must be a pair of integers 1-6, got ${JSON.stringify(dice)}`);
  return dice;
}

/**
 * The complete flags of `defaults` from `rules`, a partial object of them (missing ones take
 * their default), or an Error: `notObject` is the message for a value that is no object of
 * flags, `of` follows the unknown flags named (" for tabla").
 */
export function checkFlags(rules, defaults, notObject, of = "") {
  if (rules === defaults) return rules;
  if (rules === null || typeof rules !== "object" || Array.isArray(rules)) {
    throw new Error(notObject);
  }
  const unknown = Object.keys(rules).filter((k) => !(k in defaults)).sort();
  if (unknown.length) {
    throw new Error(
      `unknown rule flag(s) ${unknown.join(", ")}${of}; ` +
        `known flags: ${Object.keys(defaults).sort().join(", ")}`,
    );
  }
  for (const [name, value] of Object.entries(rules)) {
    if (typeof value !== "boolean") {
      throw new Error(`rule flag '${name}' must be true or false, got ${JSON.stringify(value)}`);
    }
  }
  return { ...defaults, ...rules };
}

/**
 * Every distinct position the mover of `position` (a position of `game`, checked) can reach by
 * a complete legal play of `dice`, exactly the afterstates of Python's
 * `tapa_env.legal_afterstates`, in the same order; `rules` a partial object of the game's flags.
 * When the mover must pass, the one afterstate is the position itself (in Gulbara with its
 * turn state moved on).
 */
export function legalPlays(game, position, dice, rules) {
  game.checkPosition(position);
  checkDice(dice);
  rules = game.checkRules(rules);
  game.checkTurn?.(position, dice);
  return searchAfterstates(game, position, dice, rules);
}
