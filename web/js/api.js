/**
 * `window.tapa`: the page's functions for tests and app developers (docs/web.md, "The bot and
 * window.tapa"), for the three games (a position says its game; Tapa's have none). The rules
 * are there at once; `choose` and `rank` once the bot has loaded:
 *
 *   installApi(null);             // the rules now
 *   installApi(await loadBot());  // and the bot; window fires "tapa:ready"
 */

import {
  DEFAULT_LEVEL,
  DEFAULT_LEVELS,
  DEFAULT_MATCH_LEVEL,
  GAME_LEVELS,
  LEVELS,
  MATCH_LEVELS,
} from "./bot.js";
import {
  GAMES,
  flipPosition,
  initialPosition,
  legalPlays,
  nextTurn,
  notatedPlays,
  outcome,
  positionFromKey,
  positionKey,
} from "./games.js";

/** The version of `window.tapa`; raised by a change that breaks its callers. */
export const API_VERSION = 1;

/**
 * Set `window.tapa` (or replace it) for `bot`, a `Bot` of web/js/bot.js, or `null` while it
 * loads; with a bot, fire the event `tapa:ready` on `window`. Returns the object.
 */
export function installApi(bot) {
  const notReady = async () => {
    throw new Error("the bot is still loading: wait for window.tapa.ready (event tapa:ready)");
  };
  const api = Object.freeze({
    version: API_VERSION,
    ready: bot !== null && bot !== undefined,
    levels: LEVELS,
    defaultLevel: DEFAULT_LEVEL,
    games: GAMES,
    gameLevels: GAME_LEVELS,
    defaultLevels: DEFAULT_LEVELS,
    matchLevels: MATCH_LEVELS,
    defaultMatchLevel: DEFAULT_MATCH_LEVEL,
    legalPlays,
    outcome,
    notatedPlays,
    positionKey,
    positionFromKey,
    flipPosition,
    nextTurn,
    initialPosition,
    choose: bot ? (position, dice, level) => bot.choose(position, dice, level) : notReady,
    rank: bot
      ? (position, dice, level, count) => bot.rank(position, dice, level, count)
      : notReady,
    chooseToScore: bot
      ? (position, dice, weights, level) => bot.chooseToScore(position, dice, weights, level)
      : notReady,
    rankToScore: bot
      ? (position, dice, weights, count, level) =>
          bot.rankToScore(position, dice, weights, count, level)
      : notReady,
  });
  globalThis.tapa = api;
  if (bot && typeof globalThis.dispatchEvent === "function") {
    globalThis.dispatchEvent(new Event("tapa:ready"));
  }
  return api;
}
