/**
 * The game in progress, kept in the browser's localStorage so that a reload (or a phone that
 * drops the tab) does not lose it. The page writes one record at the start of every turn and
 * at the end of a game of a match, and offers it back when it is opened again.
 *
 *   saveGame(record);                // false where the browser keeps nothing (private mode)
 *   const saved = loadGame(levels);  // the record, or null
 *   clearGame();                     // the game is decided: nothing to go on with
 *
 * A record (version SAVE_VERSION) is a plain object:
 *
 *   game         "tabla" or "gulbara" for a game of those; absent for Tapa (whose records are
 *                as they always were); in a match the game in play (between games, the one
 *                that has just ended)
 *   seed, dice   the dice's seed and their generator's state after the last roll (ui_dice.js)
 *   level        the bot's level id
 *   match        points to win the match (0: a single game); games: each finished game's
 *                gameResult (ui_match.js), from which the score is counted again
 *   match_games  the match played, "tavli", when it is not the tabla match (web/js/match.js's
 *                MATCHES); absent for the tabla match and a single game, so that their
 *                records are as they always were
 *   state        a match's state in the JSON of Python's MatchState (web/js/match.js; none
 *                for a single game): the score, the game and its starter, the position and
 *                whose turn it is, checked against everything else here
 *   thrown       [you, bot]: the opening throw that chose who starts the game in play, or null
 *   phase        "your-turn" or "bot-turn" (a turn begins: position is the mover's, roll its
 *                dice; in Gulbara a climb's double) or "game-over" (a game of a match has
 *                ended: position is the last one, from your side, and status says how it ended)
 *   plays        plays made in this game, news the line the next status begins with
 *   moved        the points the bot's last play landed on (-1: its tray), still marked
 *   log          the game log, [[line, side]] with side "", "you" or "bot"
 *
 * A turn is kept at its roll: moves made in it and not yet played with Done are not, so a
 * reload puts the turn back at its start, with the same dice.
 *
 * Whatever is read back is checked whole (`checkSaved`): a value that is not JSON, from
 * another version of the page, or wrong anywhere is ignored, never half used, so it cannot
 * break the page; the next record written replaces it.
 */

import {
  DEFAULT_GAME,
  GAMES,
  REGISTRY,
  checkPosition,
  gameOf,
  outcome,
  positionKey,
} from "./games.js";
import { checkDice } from "./core/rules.js";
import { DEFAULT_MATCH, MATCH_NAMES, MAX_MATCH, checkMatchState } from "./match.js";
import { MAX_SEED } from "./ui_dice.js";
import { BOT, Match, YOU } from "./ui_match.js";

export const SAVE_KEY = "tapa.game";
export const SAVE_VERSION = 1;
export const PHASES = ["your-turn", "bot-turn", "game-over"];

const SIDES = ["", YOU, BOT];

/** The browser's localStorage, or null where using it is refused (it may throw on access). */
function defaultStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Writes `record`; false when the browser keeps nothing (no storage, full, refused). */
export function saveGame(record, storage = defaultStorage()) {
  try {
    storage.setItem(SAVE_KEY, JSON.stringify({ version: SAVE_VERSION, ...record }));
    return true;
  } catch {
    return false;
  }
}

/** The saved record, checked, or null when there is none or it cannot be used. `levelIds`
 * lists the level ids a game may be saved at: an array (Tapa's), or a function of the game
 * and of whether it is a match (`levelIds(game, isMatch)`). */
export function loadGame(levelIds, storage = defaultStorage()) {
  try {
    const text = storage.getItem(SAVE_KEY);
    return text === null ? null : checkSaved(JSON.parse(text), levelIds);
  } catch {
    return null;
  }
}

/** Forgets the saved game. */
export function clearGame(storage = defaultStorage()) {
  try {
    storage.removeItem(SAVE_KEY);
  } catch {
    // nothing kept, nothing to forget
  }
}

function check(ok, what) {
  if (!ok) throw new Error(`the saved game's ${what} is wrong`);
}

const whole = (value, least, most) => Number.isInteger(value) && value >= least && value <= most;
const text = (value) => typeof value === "string";

/**
 * A copy of `value` with only the record's fields, when it is a whole record of this version
 * that a game can go on from (levels among `levelIds`, the match not decided, the position
 * one of the record's game that the rules accept and not finished on a turn); else throws an
 * Error saying what is wrong.
 */
export function checkSaved(value, levelIds) {
  check(value !== null && typeof value === "object" && !Array.isArray(value), "record");
  check(value.version === SAVE_VERSION, "version");
  const { seed, dice, level, match, games, phase, position, roll, plays, news, moved, log } =
    value;
  const game = value.game ?? DEFAULT_GAME;
  // Only a game whose positions name it names itself in the record.
  check(GAMES.includes(game) && (value.game === undefined || REGISTRY[game].keyed), "game");
  check(whole(seed, 0, MAX_SEED), "seed");
  const words = Array.isArray(dice) && dice.length === 4;
  check(words && dice.every((word) => whole(word, 0, MAX_SEED)), "dice");
  check(whole(match, 0, MAX_MATCH), "match");
  // Only a match other than the tabla match names itself in the record.
  const named = value.match_games;
  const matchName = named ?? DEFAULT_MATCH;
  check(
    named === undefined || (match > 0 && named !== DEFAULT_MATCH && MATCH_NAMES.includes(named)),
    "match_games",
  );
  const levels = typeof levelIds === "function" ? levelIds(game, match > 0) : levelIds;
  check(Array.isArray(levels) && levels.includes(level), "level");
  check(Array.isArray(games), "games");
  const played = new Match(match, game, matchName);
  for (const result of games) {
    check(result !== null && typeof result === "object", "games");
    const { winner, points, kind, how } = result;
    // A match's games follow its order; a single game's result may name its game.
    const of = played.isMatch ? played.game : game;
    check(result.game === of || (!played.isMatch && result.game === undefined), "games");
    const kinds = REGISTRY[of].resultKinds;
    check([YOU, BOT, null].includes(winner) && kinds.includes(kind) && text(how), "games");
    // A Tabla backgammon scores 3 in a single game only: a match plays no triple (M2).
    const most = played.isMatch ? 2 : REGISTRY[of].mostPoints;
    check(whole(points, 0, most) && (winner === null) === (points === 0), "games");
    check((winner === null) === (kind === "draw"), "games"); // only Tapa is drawn (R10)
    check(!played.over, "games"); // a decided match is not saved
    played.record({ winner, points, kind, how, ...(result.game ? { game: of } : {}) });
  }
  check(!played.over, "games");
  check(PHASES.includes(phase), "phase");
  check(whole(plays, 0, 10_000), "plays");
  check(text(news), "news");
  check(Array.isArray(moved) && moved.every((point) => whole(point, -1, 24)), "moved");
  check(
    Array.isArray(log) &&
      log.every((entry) => Array.isArray(entry) && text(entry[0]) && SIDES.includes(entry[1])),
    "log",
  );
  const readable = position !== null && typeof position === "object";
  check(readable && gameOf(position) === game, "position");
  if (played.isMatch) {
    // The game in play is the match's next; between games, the one that has just ended.
    const last = played.order[(played.games.length - 1) % played.order.length];
    const shown = phase === "game-over" ? last : played.game;
    check(played.games.length > 0 || phase !== "game-over", "phase");
    check(game === shown, "game");
  }
  const record = {
    ...(REGISTRY[game].keyed ? { game } : {}),
    seed,
    dice: [...dice],
    level,
    match,
    ...(named === undefined ? {} : { match_games: named }),
    games: played.games,
    phase,
    position: checkPosition(position),
    plays,
    news,
    moved: [...moved],
    log: log.map(([line, side]) => [line, side]),
  };
  const thrown = value.thrown ?? null;
  const die = (value) => whole(value, 1, 6);
  check(
    thrown === null || (Array.isArray(thrown) && thrown.length === 2 && thrown.every(die)),
    "thrown",
  );
  record.thrown = thrown && [...thrown];
  if (played.isMatch) record.state = checkState(value.state, played, phase, record.position);
  else check(value.state === undefined, "state");
  if (phase === "game-over") {
    check(played.games.length > 0 && text(value.status), "status");
    record.status = value.status;
  } else {
    check(outcome(record.position) === null, "position"); // a finished game has no next turn
    record.roll = [...checkDice(roll)];
    if (REGISTRY[game].climbs) {
      // A turn is its mover's, and a climb (or numbers handed over) plays its own double.
      const { next, climb } = record.position;
      check(next === "own" && (!climb || roll.every((die) => die === climb)), "roll");
    }
  }
  return record;
}

/** A match's saved `state` (Python's MatchState JSON), checked, when it is the match that the
 * record's games, phase and position make: the last game's winner to start the next (after
 * the first game or a draw, the one thrown for); between games, no position; in a turn, the
 * position in the mover's frame. */
function checkState(value, played, phase, position) {
  let state;
  try {
    state = checkMatchState(value);
  } catch {
    check(false, "state");
  }
  const turn = phase !== "game-over";
  // In a game the starter is the last game's winner (R11), or was thrown for.
  if (turn && played.starter === null) played.starter = [YOU, BOT][state.starter] ?? null;
  const mover = phase === "your-turn" ? YOU : BOT;
  const expected = played.toDict(turn ? position : null, turn ? mover : null);
  const text = (state) => JSON.stringify({ ...state, position: null });
  const same = (a, b) => text(a) === text(b);
  check(same(state, expected), "state");
  check(!turn || positionKey(state.position) === positionKey(position), "state");
  return state;
}
