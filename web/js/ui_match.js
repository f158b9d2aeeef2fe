/**
 * A game or a match between the person ("you") and the bot, as Python's agents/play/terminal.py
 * plays it: who starts (R2, T2, G2), what a finished game is worth (R8, R9, R10; a Tabla or
 * Gulbara mars, T8, G9) and the match score (R11). No page here, so that the rules of a match
 * read on their own.
 *
 * R2: for the first game each side throws one die, again on a tie; the higher die starts,
 * with a fresh roll of two dice. R11: a match goes to N points, its games in turn and round
 * again (the tabla match's Tabla, Gulbara and Tapa; the tavli match's Portes, Plakoto and
 * Fevga: web/js/match.js's MATCHES); each game is worth its 1 or 2 points, the winner of a
 * game begins the next, and after a drawn Tapa game the dice decide again. There is no
 * doubling cube, so there is no Crawford rule.
 */

import { CHECKERS, DEFAULT_GAME, flipPosition, gameFor, gameNamed, gameOf } from "./games.js";
import { DEFAULT_MATCH, matchNamed } from "./match.js";

export const YOU = "you";
export const BOT = "bot";

/**
 * The opening throw (R2): `{throws: [[you, bot], ...], starter}`, every throw listed, ties
 * included. `throwOne()` draws one die.
 */
export function openingThrow(throwOne) {
  const throws = [];
  for (;;) {
    const yours = throwOne();
    const theirs = throwOne();
    throws.push([yours, theirs]);
    if (yours !== theirs) return { throws, starter: yours > theirs ? YOU : BOT };
  }
}

/**
 * What a finished game is worth, from the outcome of the afterstate that ended it.
 *
 * @param {object} after the afterstate, in the frame of the side that has just moved.
 * @param {{winner: number, points: number}} result `outcome(after)`.
 * @param {string} mover who made that play, YOU or BOT.
 * @returns {{winner: string|null, points: number, kind: string, how: string, game: string}}
 *   `winner` null for a draw; `kind` "single", "gammon", "mother" or "draw" (Tapa), "single",
 *   "mars" or "backgammon" (Tabla and Gulbara); `game` the game it was.
 */
export function gameResult(after, result, mover) {
  return { ...worth(after, result, mover), game: gameOf(after) };
}

function worth(after, result, mover) {
  if (result.winner === 0) {
    return { winner: null, points: 0, kind: "draw", how: "both mothers are pinned" };
  }
  const other = mover === YOU ? BOT : YOU;
  const winner = result.winner > 0 ? mover : other;
  const winnerView = result.winner > 0 ? after : flipPosition(after);
  const name = (side) => (side === YOU ? "you" : "the bot");
  const loser = winner === YOU ? BOT : YOU;
  if (winnerView.own_off === CHECKERS && result.points === 1) {
    return { winner, points: 1, kind: "single", how: `${name(winner)} bore off all 15 first` };
  }
  if (!gameFor(after).hasPins) {
    // Without pins a game ends only by bearing off: a mars (2 points), or in Tabla under
    // backgammon_triple a backgammon.
    const kind = result.points === 3 ? "backgammon" : "mars";
    const how = `${name(winner)} bore off all 15 before ${name(loser)} bore off any`;
    return { winner, points: result.points, kind, how };
  }
  if (winnerView.own_off === CHECKERS) {
    return {
      winner,
      points: result.points,
      kind: "gammon",
      how: `${name(winner)} bore off all 15 before ${name(loser)} bore off any`,
    };
  }
  const mother = loser === YOU ? "your mother" : "the bot's mother";
  return { winner, points: result.points, kind: "mother", how: `${mother} is pinned` };
}

/**
 * A single game, or a match of the registry (web/js/match.js's MATCHES) to `points` points
 * (R11): its games in turn (the tabla match's Tabla, Gulbara, Tapa; the tavli match's
 * Portes, Plakoto, Fevga), the winner of a game starting the next and the dice deciding after
 * a draw. Its state reads and writes the JSON of Python's `MatchState` (`toDict`): you are
 * player 0, the bot player 1.
 */
export class Match {
  /**
   * @param {number} points points to win the match; 0 for a single game.
   * @param {string} game the game of a single game (a match starts with its first game).
   * @param {string} name the match's name in the registry: "tabla" (the default) or "tavli";
   *   a single game has none (`kind` null).
   */
  constructor(points, game = DEFAULT_GAME, name = DEFAULT_MATCH) {
    this.points = points;
    this.kind = points > 0 ? matchNamed(name) : null;
    this.order = this.kind ? this.kind.order : [game];
    this.score = { [YOU]: 0, [BOT]: 0 };
    this.games = []; // each finished game's gameResult
    this.starter = null; // who starts the game in play or the next: YOU, BOT or null (thrown)
    this.thrown = null; // the opening throw that chose the starter of the game in play
  }

  /** Whether this is a match of several games (rather than one game). */
  get isMatch() {
    return this.points > 0;
  }

  /** The game in play, or the next one. */
  get game() {
    return this.order[this.games.length % this.order.length];
  }

  /** The name the match gives `game` (Portes for Tabla in the tavli match), or the game's
   * own title in a single game. */
  title(game) {
    return this.kind ? this.kind.titleOf(game) : gameNamed(game).title;
  }

  /** The game after the one in play (or after the next one, between games). */
  get nextGame() {
    return this.order[(this.games.length + 1) % this.order.length];
  }

  /** The number of the game being played or about to be (1 for the first). */
  get gameNumber() {
    return this.over ? this.games.length : this.games.length + 1;
  }

  /** Records a finished game's result: the score (points past the match's length count for
   * nothing, M2), and its winner starts the next game (after a draw the dice decide again). */
  record(result) {
    this.games.push(result);
    if (result.winner) {
      this.score[result.winner] = Math.min(this.points, this.score[result.winner] + result.points);
    }
    this.starter = result.winner ?? null;
    this.thrown = null;
  }

  /** Whether the match (or the single game) is decided. */
  get over() {
    if (!this.isMatch) return this.games.length > 0;
    return Math.max(this.score[YOU], this.score[BOT]) >= this.points;
  }

  /** The match's winner, YOU or BOT, once it is over; null before and for a drawn game. */
  get winner() {
    if (!this.over) return null;
    if (!this.isMatch) return this.games[0].winner;
    return this.score[YOU] > this.score[BOT] ? YOU : BOT;
  }

  /** Who begins the next game without an opening throw (R11: the last game's winner), or
   * null when the dice decide (the first game, or after a draw). */
  get nextStarter() {
    const last = this.games[this.games.length - 1];
    return last ? last.winner : null;
  }

  /** The points `side` still needs. */
  away(side) {
    return Math.max(0, this.points - this.score[side]);
  }

  /** The match as Python's `MatchState.to_dict` writes it: `position` the game in play in the
   * frame of `toMove` (YOU or BOT), or null between games. */
  toDict(position = null, toMove = null) {
    const player = (side) => (side === null ? null : side === YOU ? 0 : 1);
    const capped = (points) => Math.min(points, this.points);
    return {
      length: this.points,
      order: [...this.order],
      draw_starter: "throw",
      score: [capped(this.score[YOU]), capped(this.score[BOT])],
      games_played: this.games.length,
      game: this.game,
      starter: player(this.starter),
      to_move: position === null ? null : player(toMove),
      position,
    };
  }
}

/** A play's text in the other side's numbering, as agents/play/terminal.py writes the bot's
 * plays "on your board": point p is 25 - p (Tapa, Tabla), or p + 12 modulo 24 in Gulbara,
 * where both sides run the same way. */
export function mirrored(text, game = DEFAULT_GAME) {
  const mirror = gameNamed(game).botPoint;
  return text.replace(/(?<![(\d])(\d+)(?![)\d])/g, (match) => String(mirror(Number(match))));
}
