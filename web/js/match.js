/**
 * The page's matches (R11, docs/rules.md "The match"), as Python's registry of matches
 * (tapa_env/games/matches.py) has them: the Bulgarian tabla match (Tabla, Gulbara and Tapa in
 * turn) and the Greek tavli match (Portes, Plakoto and Fevga: Tabla and Tapa under their Greek
 * names, then Fevga), each to N points; a match's state in the JSON of Python's
 * `MatchState.to_dict` (agents/match/state.py); and the match equity tables
 * (web/models/match-equity.json, written from agents/match/equity.py by
 * tests/scripts/export_web_match.py) that turn a network's five outcome chances into the chance
 * of winning the match. A match whose table is not in the file (the tavli match, until Fevga's
 * outcomes are measured) is played for points. No page here: the page's match is
 * web/js/ui_match.js.
 *
 *   matchNamed("tavli").titleOf("tapa");     // "Plakoto"
 *   const tables = await MatchTable.loadAll(new URL("../", import.meta.url));
 *   const table = tables.tabla;              // tables.tavli: undefined without Fevga's outcomes
 *   table.chance(2, 5, 1, true);             // 2 to go against 5, Gulbara next, this side starts
 *   table.outcomeWeights(2, 5, 1, false);    // the match chance after win, win double, draw,
 *                                            // lose, lose double of game 2, started by the other
 */

import { GAMES, REGISTRY, checkPosition, gameOf } from "./games.js";

/** A match of the registry from its plain description: `name` (Python's `match_games=`),
 * `title` (what the page calls it), `from` (where it is played), `games` (`[game, title]` in
 * the order played, round and round: a game of the page's registry and the name the match
 * gives it), `length` (its points by default) and `lengths` (the points the page offers). */
function defineMatch({ games, ...entry }) {
  for (const [game] of games) {
    if (!GAMES.includes(game)) throw new Error(`the match ${entry.name} plays ${game}, no game`);
  }
  const order = Object.freeze(games.map(([game]) => game));
  const titles = Object.freeze(games.map(([, title]) => title));
  return Object.freeze({
    ...entry,
    order,
    titles,
    lengths: Object.freeze([...entry.lengths]),
    /** The name this match gives `game` (Portes for Tabla in the tavli match), or the game's
     * own title for a game it does not play. */
    titleOf(game) {
      const index = order.indexOf(game);
      return index >= 0 ? titles[index] : REGISTRY[game].title;
    },
  });
}

/** The matches by name, in the order the page offers them; the first is the default. */
export const MATCHES = Object.freeze(
  Object.fromEntries(
    [
      {
        name: "tabla",
        title: "Tabla match",
        from: "Bulgaria",
        games: [
          ["tabla", "Tabla"],
          ["gulbara", "Gulbara"],
          ["tapa", "Tapa"],
        ],
        length: 7,
        lengths: [3, 5, 7],
      },
      {
        name: "tavli",
        title: "Tavli match",
        from: "Greece",
        games: [
          ["tabla", "Portes"],
          ["tapa", "Plakoto"],
          ["fevga", "Fevga"],
        ],
        length: 7,
        lengths: [3, 5, 7],
      },
    ].map((entry) => [entry.name, defineMatch(entry)]),
  ),
);
/** The names of the matches; the first, `tabla`, is played when none is named. */
export const MATCH_NAMES = Object.freeze(Object.keys(MATCHES));
export const DEFAULT_MATCH = MATCH_NAMES[0];
/** The tabla match's games in the order it plays them, round and round (M1). */
export const MATCH_ORDER = MATCHES[DEFAULT_MATCH].order;

/** The match called `name`, or an Error naming the matches. */
export function matchNamed(name) {
  if (!MATCH_NAMES.includes(name)) {
    throw new Error(`match must be one of ${MATCH_NAMES.join(", ")}, got ${JSON.stringify(name)}`);
  }
  return MATCHES[name];
}

/** The match of the registry that plays `order` (an array of game names), or null. */
export function matchOfOrder(order) {
  const text = Array.isArray(order) ? order.join(",") : null;
  return Object.values(MATCHES).find((entry) => entry.order.join(",") === text) ?? null;
}

/** Who starts after a drawn Tapa game: the page plays "throw" (both throw again, R10). */
export const DRAW_STARTERS = Object.freeze(["throw", "same", "other"]);
/** The longest match the page plays: the table's points to go (Python's `MAX_LENGTH` is
 * longer; a match JSON longer than this is refused here, its message naming the bound). */
export const MAX_MATCH = 15;
/** The most a game scores in a match: a double win; a match plays no triple (M2). */
export const MAX_POINTS = 2;
/** The games that can end drawn (R10); Tabla and Gulbara always give a winner a point. */
export const DRAWN_GAMES = Object.freeze(GAMES.filter((game) => REGISTRY[game].drawn));
/** Why the match `name` has no table, in one line. */
export function noTable(name) {
  const { title, order } = matchNamed(name);
  return (
    `${TABLE_FILE} has no table for the ${title}: it comes once the outcomes of ` +
    `${order.join(", ")} are all measured (agents/match/outcomes.json)`
  );
}

/** The tables' file, relative to web/, and its format. */
export const TABLE_FILE = "models/match-equity.json";
export const TABLE_FORMAT = "tapa-rl/match-equity";
/** The keys of a match's JSON, in Python's order. */
export const MATCH_KEYS = Object.freeze([
  "length", "order", "draw_starter", "score", "games_played", "game", "starter", "to_move",
  "position",
]);

const whole = (value, least = 0) => Number.isInteger(value) && value >= least;
const show = (value) => JSON.stringify(value);
/** What a JSON value is, for a message: `null`, `array`, `string`, `number`... */
const kindOf = (value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** A match's JSON that cannot be read; the message says why. */
export class MatchError extends Error {
  constructor(message) {
    super(message);
    this.name = "MatchError";
  }
}

function check(ok, message) {
  if (!ok) throw new MatchError(message);
}

/** How many of a match's first `played` games, in `order`, cannot have ended drawn (those not
 * in `DRAWN_GAMES`): each gave its winner at least a point. Python's `MatchRules.decided`. */
export function decidedGames(order, played) {
  const decisive = order.map((game) => !DRAWN_GAMES.includes(game));
  const count = (games) => games.filter(Boolean).length;
  const rounds = Math.floor(played / order.length);
  return rounds * count(decisive) + count(decisive.slice(0, played % order.length));
}

/** The score is one the games played can give (M2, Python's `MatchState._check_score`): a
 * side stops at the length, at most `MAX_POINTS` a game, and at least a point for each game
 * that cannot be drawn. */
function checkScore([mine, theirs], length, order, played) {
  const score = `match score ${mine}-${theirs}`;
  check(
    Math.max(mine, theirs) <= length,
    `${score} in a match to ${length}: points past the length count for nothing, so a side ` +
      `has at most ${length}`,
  );
  check(Math.min(mine, theirs) < length, `${score}: only one side can reach ${length}`);
  const games = `${played} game${played === 1 ? "" : "s"}`;
  check(
    mine + theirs <= MAX_POINTS * played,
    `${score} after ${games}: a game scores at most ${MAX_POINTS} points (a match plays no ` +
      "triple)",
  );
  const decided = decidedGames(order, played);
  const decisive = [...new Set(order.filter((game) => !DRAWN_GAMES.includes(game)))];
  check(
    mine + theirs >= decided,
    `${score} after ${games}: ${decided} of them were ${decisive.join(" and ")}, which cannot ` +
      `be drawn (only ${DRAWN_GAMES.join(" and ")} can), and each gave its winner at least a ` +
      "point",
  );
}

/**
 * `data` checked as a match's JSON (the checks of Python's `MatchState.from_dict`, in its
 * order): every key and no other, each of its type (a whole number is a JSON number without
 * a fraction, never `true` or `false`; `game` a string), a length from 1 to `MAX_MATCH` (the
 * page's table), a score the games played can give (only one side at the length, none past
 * it, at most `MAX_POINTS` a game, at least a point for each Tabla or Gulbara game), a
 * starter and `to_move` of 0 or 1, a position (with its `to_move`) only in a game in play, of
 * the game the order says. Returns a copy; throws a `MatchError` naming the problem in one
 * line. (JSON's `1.0` reads as `1` in JavaScript, so the page takes what Python refuses as a
 * float for the whole number it is.)
 */
export function checkMatchState(data) {
  const object = data !== null && typeof data === "object" && !Array.isArray(data);
  check(object, `a match is a JSON object, got ${kindOf(data)}`);
  const missing = MATCH_KEYS.filter((key) => !Object.hasOwn(data, key));
  const extra = Object.keys(data)
    .filter((key) => !MATCH_KEYS.includes(key))
    .sort();
  const what = [
    missing.length ? `missing ${missing.join(", ")}` : "",
    extra.length ? `unknown ${extra.join(", ")}` : "",
  ].filter(Boolean);
  check(!what.length, `match JSON: ${what.join("; ")} (keys: ${MATCH_KEYS.join(", ")})`);
  check(
    typeof data.game === "string",
    `match JSON: game must be the name of a game (a string), got ${show(data.game)}`,
  );
  const { length, order, draw_starter: drawStarter, score, games_played: played } = data;
  check(
    whole(length, 1) && length <= MAX_MATCH,
    `match length must be a whole number from 1 to ${MAX_MATCH} (the page's match equity ` +
      `table covers ${MAX_MATCH} points), got ${show(length)}`,
  );
  check(
    Array.isArray(order) && order.length > 0 && order.every((game) => GAMES.includes(game)),
    `match order must be a non-empty list of the games ${GAMES.join(", ")}, got ${show(order)}`,
  );
  check(
    DRAW_STARTERS.includes(drawStarter),
    `draw_starter must be one of ${DRAW_STARTERS.join(", ")}, got ${show(drawStarter)}`,
  );
  const position = data.position;
  if (position !== null) {
    const named = position?.game;
    check(
      named === undefined || typeof named === "string",
      `match JSON: position: game must be the name of a game (a string), got ${show(named)}`,
    );
    try {
      checkPosition(position);
    } catch (error) {
      throw new MatchError(`match JSON: position: ${error.message}`);
    }
  }
  check(
    Array.isArray(score) && score.length === 2 && score.every((points) => whole(points)),
    `match score must be two whole numbers from 0 up, got ${show(score)}`,
  );
  check(whole(played), `games_played must be a whole number from 0 up, got ${show(played)}`);
  checkScore(score, length, order, played);
  for (const name of ["starter", "to_move"]) {
    const value = data[name];
    check([null, 0, 1].includes(value), `${name} must be 0, 1 or null, got ${show(value)}`);
  }
  check(
    (position === null) === (data.to_move === null),
    "a match's position and to_move come together: both or neither",
  );
  const game = order[played % order.length];
  const shown = score.join("-");
  if (position !== null) {
    check(Math.max(...score) < length, `the match is over at ${shown}: no game in play`);
    check(data.starter !== null, "a game in play has a starter: starter must be 0 or 1");
    const other = gameOf(position);
    check(
      other === game,
      `game ${played + 1} of this match is ${game}, but the position is of ${other}`,
    );
  }
  check(
    data.game === game,
    `match JSON: game ${show(data.game)}, but game ${played + 1} of the order ` +
      `${show(order)} is ${show(game)}`,
  );
  return {
    length,
    order: [...order],
    draw_starter: drawStarter,
    score: [...score],
    games_played: played,
    game,
    starter: data.starter,
    to_move: data.to_move,
    position,
  };
}

/** A network outcome's index (win, win double, draw, lose, lose double) for a finished game's
 * `outcome` (`{winner, points}` from the side that has just moved): Python's
 * `agents.bots.equity.outcome_index`. */
export function outcomeIndex(result) {
  if (result.winner === 0) return 2;
  const double = result.points >= 2;
  if (result.winner > 0) return double ? 1 : 0;
  return double ? 4 : 3;
}

/**
 * The match equity table of one match: `table[k][s][a][b]`, the chance that a side with `a`
 * points to go wins the match against `b` to go when game `k` of the match's order comes next,
 * started by this side (`s` 0) or the other (`s` 1); Python's `MatchEquity.to_json`
 * (`{order, draw_starter, max_away, table}`), rounded to six decimals. `match` is the
 * registry's match whose order it is.
 */
export class MatchTable {
  constructor(data) {
    const match = matchOfOrder(data?.order);
    const orders = Object.values(MATCHES).map((entry) => `[${entry.order}] (${entry.name})`);
    check(
      match !== null,
      `the match table is for the order ${show(data?.order)}, no match's: ${orders.join(", ")}`,
    );
    check(DRAW_STARTERS.includes(data.draw_starter), "the match table has no draw_starter");
    const size = data.max_away + 1;
    const covers = `the match table covers ${data.max_away} points, not ${MAX_MATCH}`;
    check(whole(data.max_away, MAX_MATCH), covers);
    const rows = (value, count) => Array.isArray(value) && value.length === count;
    const table = data.table;
    const games = match.order.length;
    check(
      rows(table, games) &&
        table.every(
          (game) =>
            rows(game, 2) &&
            game.every((side) => rows(side, size) && side.every((row) => rows(row, size))),
        ),
      `the match table is not ${games} x 2 x ${size} x ${size}`,
    );
    this.match = match;
    this.order = match.order;
    this.drawStarter = data.draw_starter;
    this.maxAway = data.max_away;
    this.table = table;
  }

  /** The table as Python's `MatchEquity.to_json` writes it, the entry of a match in the
   * file. */
  toJSON() {
    const { order, drawStarter, maxAway, table } = this;
    return { order: [...order], draw_starter: drawStarter, max_away: maxAway, table };
  }

  /**
   * The tables of a table file's JSON (`TABLE_FILE`), by match name: `{tabla: MatchTable}`,
   * and `tavli` too once the file has its table. Format version 2 holds one table a match
   * (`{format, format_version: 2, source, matches: {name: {order, ...}}}`); version 1, the
   * file as it was, the tabla match's alone (`{format, format_version: 1, source, order,
   * ...}`).
   */
  static tablesOf(data) {
    check(data?.format === TABLE_FORMAT, `the match table's format is not ${TABLE_FORMAT}`);
    const version = data.format_version;
    check([1, 2].includes(version), `the match table's format_version is not 1 or 2: ${version}`);
    if (version === 1) {
      const table = new MatchTable(data);
      return { [table.match.name]: table };
    }
    const object = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
    check(object(data.matches), "the match table file has no matches");
    const tables = {};
    for (const [name, entry] of Object.entries(data.matches)) {
      const table = new MatchTable(entry);
      check(table.match.name === name, `the table of ${name} is for the ${table.match.name} match`);
      tables[name] = table;
    }
    return tables;
  }

  /** Every table of web/models/match-equity.json under `base` (the URL of web/), by match
   * name (`tablesOf`): a match without one is not there. */
  static async loadAll(base) {
    const url = new URL(TABLE_FILE, base);
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw new MatchError(`${url}: could not be fetched: ${error.message}`);
    }
    if (!response.ok) throw new MatchError(`${url}: HTTP ${response.status}`);
    return MatchTable.tablesOf(await response.json());
  }

  /** The table of the match `name` (the tabla match's by default) under `base`; a
   * `MatchError` when the file has none for it. */
  static async load(base, name = DEFAULT_MATCH) {
    const table = (await MatchTable.loadAll(base))[name];
    check(table !== undefined, noTable(name));
    return table;
  }

  /** The chance of winning the match with `away` points to go against `awayOpponent`, game
   * `gameIndex` of the match (0 the first) to come, started by this side (`starts`) or the
   * other: 1 at `away` 0 or below, 0 at `awayOpponent` 0 or below. */
  chance(away, awayOpponent, gameIndex, starts) {
    const clip = (points) => {
      const past = `${points} points to go: the table covers ${this.maxAway}`;
      check(points < this.table[0][0].length, past);
      return Math.max(points, 0);
    };
    const k = gameIndex % this.order.length;
    return this.table[k][starts ? 0 : 1][clip(away)][clip(awayOpponent)];
  }

  /** The chance before game `gameIndex`, its starter not yet thrown for: the mean of both. */
  thrownChance(away, awayOpponent, gameIndex) {
    const first = this.chance(away, awayOpponent, gameIndex, true);
    return 0.5 * (first + this.chance(away, awayOpponent, gameIndex, false));
  }

  /**
   * For the side to move with `away` points to go against `awayOpponent` in game
   * `gameIndex`, which it `started` or not: its chance of winning the match after each result
   * of the game, in the order of a network's outcomes (win, win double, draw, lose, lose
   * double). Python's `MatchEquity.outcome_weights`: a win of n leaves `away - n` and the
   * winner starts the next game; a draw leaves the score, the next game's starter as
   * `draw_starter` says.
   */
  outcomeWeights(away, awayOpponent, gameIndex, started) {
    const next = gameIndex + 1;
    const win = (n) => this.chance(away - n, awayOpponent, next, true);
    const lose = (n) => this.chance(away, awayOpponent - n, next, false);
    const draw = {
      throw: () => this.thrownChance(away, awayOpponent, next),
      same: () => this.chance(away, awayOpponent, next, started),
      other: () => this.chance(away, awayOpponent, next, !started),
    }[this.drawStarter]();
    return [win(1), win(2), draw, lose(1), lose(2)];
  }
}
