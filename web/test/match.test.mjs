// The page's matches in JavaScript (web/js/match.js, web/js/ui_match.js) against Python's
// agents/match: the outcome weights and chances of the page's tables (web/models/
// match-equity.json, a table for each match with measured games) are MatchEquity's to 1e-6,
// a tabla or tavli match played game by game gives MatchState's JSON after every game, and
// what MatchState.from_dict refuses is refused.
// Vectors: `python tests/scripts/export_web_match.py --vectors DIR`, then
// `TAPA_WEB_VECTORS=DIR node --test web/test/match.test.mjs` (tests/test_web_match.py).
// Without vectors: the registry of matches (the tabla match's Tabla, Gulbara, Tapa; the tavli
// match's Portes, Plakoto, Fevga), the table file of either format version and a match without
// a table; tests/test_match.py's match JSON of a wrong type or an impossible score, case by
// case, refused in one line; and every state a match to 1 to 15 reaches, read.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { initialPosition } from "../js/games.js";
import {
  DEFAULT_MATCH,
  MATCHES,
  MATCH_NAMES,
  MATCH_ORDER,
  MAX_MATCH,
  MatchTable,
  checkMatchState,
  decidedGames,
  matchNamed,
  matchOfOrder,
  noTable,
  outcomeIndex,
} from "../js/match.js";
import { BOT, Match, YOU } from "../js/ui_match.js";
import { Mismatches, readJson } from "./vectors.mjs";

const TOLERANCE = 1e-6;
const fileData = () =>
  JSON.parse(readFileSync(new URL("../models/match-equity.json", import.meta.url), "utf8"));
const tables = MatchTable.tablesOf(fileData());
const table = tables.tabla;
/** The tabla match's table as the file's version 1 had it, alone. */
const tableData = () => ({ format: "tapa-rl/match-equity", format_version: 1, ...table.toJSON() });

test("the registry of matches: the tabla match and the tavli match, as Python's", () => {
  assert.deepEqual(MATCH_NAMES, ["tabla", "tavli"]);
  assert.equal(DEFAULT_MATCH, "tabla");
  const tabla = matchNamed("tabla");
  const tavli = matchNamed("tavli");
  assert.deepEqual([...tabla.order], ["tabla", "gulbara", "tapa"]);
  assert.deepEqual([...tabla.titles], ["Tabla", "Gulbara", "Tapa"]);
  assert.deepEqual([...MATCH_ORDER], [...tabla.order]);
  // Portes and Plakoto are Tabla and Tapa under their Greek names (agents/match/rules.py).
  assert.deepEqual([...tavli.order], ["tabla", "tapa", "fevga"]);
  assert.deepEqual([...tavli.titles], ["Portes", "Plakoto", "Fevga"]);
  for (const entry of Object.values(MATCHES)) {
    assert.equal(entry.length, 7);
    assert.deepEqual([...entry.lengths], [3, 5, 7]);
    assert.ok(Object.isFrozen(entry) && Object.isFrozen(entry.order));
    assert.equal(matchOfOrder([...entry.order]), entry);
  }
  assert.deepEqual([tabla.title, tavli.title], ["Tabla match", "Tavli match"]);
  assert.equal(tavli.titleOf("tabla"), "Portes");
  assert.equal(tavli.titleOf("tapa"), "Plakoto");
  assert.equal(tavli.titleOf("gulbara"), "Gulbara"); // not one of its games: its own name
  assert.equal(tabla.titleOf("tabla"), "Tabla");
  assert.equal(matchOfOrder(["tapa", "tabla"]), null);
  assert.throws(() => matchNamed("portes"), /match must be one of tabla, tavli, got "portes"/);
  assert.match(noTable("tavli"), /has no table for the Tavli match: .*tabla, tapa, fevga/);
});

test("a tavli match plays Portes, Plakoto, Fevga in turn, by their names", () => {
  const match = new Match(3, "tapa", "tavli");
  assert.equal(match.kind, MATCHES.tavli);
  const games = [];
  const titles = [];
  for (let number = 0; number < 4; number++) {
    games.push(match.game);
    titles.push(match.title(match.game));
    match.record({ winner: number % 2 ? BOT : YOU, points: 1, kind: "single", how: "" });
  }
  assert.deepEqual(games, ["tabla", "tapa", "fevga", "tabla"]);
  assert.deepEqual(titles, ["Portes", "Plakoto", "Fevga", "Portes"]);
  assert.deepEqual(match.toDict().order, ["tabla", "tapa", "fevga"]);
  // A single game has no match: its game's own name; a tabla match by default.
  assert.equal(new Match(0, "tabla", "tavli").kind, null);
  assert.equal(new Match(0, "tabla", "tavli").title("tabla"), "Tabla");
  assert.equal(new Match(5).kind, MATCHES.tabla);
  assert.throws(() => new Match(5, "tapa", "plakoto"), /match must be one of/);
});

test("the table file: each match's table by name, a match without one played for points", () => {
  // The file as it was (version 1): the tabla match's table alone.
  const one = MatchTable.tablesOf(tableData());
  assert.deepEqual(Object.keys(one), ["tabla"]);
  assert.equal(one.tabla.chance(3, 5, 1, true), table.chance(3, 5, 1, true));
  // Version 2: a table a match; the tavli match's once Fevga's outcomes are measured.
  const tavliJson = { ...table.toJSON(), order: ["tabla", "tapa", "fevga"] };
  const two = { format: "tapa-rl/match-equity", format_version: 2, source: "" };
  const matches = { tabla: table.toJSON(), tavli: tavliJson };
  const both = MatchTable.tablesOf({ ...two, matches });
  assert.deepEqual(Object.keys(both), ["tabla", "tavli"]);
  assert.equal(both.tavli.match, MATCHES.tavli);
  const alone = MatchTable.tablesOf({ ...two, matches: { tabla: table.toJSON() } });
  assert.equal(alone.tavli, undefined);
  assert.throws(
    () => MatchTable.tablesOf({ ...two, matches: { tabla: tavliJson } }),
    /the table of tabla is for the tavli match/,
  );
  assert.throws(() => MatchTable.tablesOf({ ...two, format_version: 3 }), /format_version/);
  assert.throws(() => MatchTable.tablesOf({ ...two, matches: [] }), /has no matches/);
  assert.throws(() => MatchTable.tablesOf({ ...tableData(), format: "other" }), /format/);
});

test("the outcome weights and chances of the page's tables are Python's", () => {
  const { cases } = readJson("match-weights.json");
  const summary = readJson("match-summary.json");
  // The file has a table for each match Python has one for: none missing, none more.
  assert.deepEqual(Object.keys(tables), summary.tables, "web/models/match-equity.json is stale");
  const wrong = new Mismatches("outcome weights");
  let checked = 0;
  for (const c of cases) {
    const table = tables[c.match];
    const { away, away_opponent: opponent, game_index: index, started } = c;
    const weights = table.outcomeWeights(away, opponent, index, started);
    const chance = table.chance(away, opponent, index, started);
    const thrown = table.thrownChance(away, opponent, index);
    const found = [...weights, chance, thrown];
    const expected = [...c.weights, c.chance, c.thrown_chance];
    const worst = Math.max(...found.map((value, i) => Math.abs(value - expected[i])));
    wrong.check(worst <= TOLERANCE, () => `${JSON.stringify(c)}: ${found} (off by ${worst})`);
    checked += 1;
  }
  wrong.assertNone();
  assert.ok(checked >= 36, `only ${checked} cases`);
});

test("a match played game by game is Python's MatchState after every game", () => {
  const { matches } = readJson("match-states.json");
  const wrong = new Mismatches("match states");
  const side = [YOU, BOT];
  const names = new Set();
  for (const { match: name, length, steps } of matches) {
    names.add(name);
    const match = new Match(length, undefined, name);
    for (const step of steps) {
      match.starter = side[step.starter];
      const playing = match.toDict(step.playing.position, side[step.to_move]);
      wrong.check(
        JSON.stringify(playing) === JSON.stringify(step.playing),
        () => `playing: ${JSON.stringify(playing)} != ${JSON.stringify(step.playing)}`,
      );
      wrong.check(
        JSON.stringify(checkMatchState(step.playing)) === JSON.stringify(step.playing),
        () => `checkMatchState changes ${JSON.stringify(step.playing)}`,
      );
      const points = step.points;
      const winner = points > 0 ? YOU : points < 0 ? BOT : null;
      match.record({ winner, points: Math.abs(points), kind: "single", how: "" });
      const after = match.toDict();
      wrong.check(
        JSON.stringify(after) === JSON.stringify(step.after),
        () => `after ${points}: ${JSON.stringify(after)} != ${JSON.stringify(step.after)}`,
      );
      wrong.check(
        JSON.stringify(checkMatchState(step.after)) === JSON.stringify(step.after),
        () => `checkMatchState changes ${JSON.stringify(step.after)}`,
      );
    }
    wrong.check(match.over, () => `a match to ${length} is not over after its games`);
    assert.deepEqual(match.order, MATCHES[name].order);
  }
  wrong.assertNone();
  assert.deepEqual([...names], MATCH_NAMES);
});

test("the match JSON Python refuses is refused", () => {
  const { invalid } = readJson("match-states.json");
  assert.ok(invalid.length >= 10);
  for (const { state, error } of invalid) {
    assert.throws(() => checkMatchState(state), { name: "MatchError" }, `${error}: accepted`);
  }
});

test("a finished game's result is its network outcome", () => {
  assert.equal(outcomeIndex({ winner: 1, points: 1 }), 0);
  assert.equal(outcomeIndex({ winner: 1, points: 2 }), 1);
  assert.equal(outcomeIndex({ winner: 0, points: 0 }), 2);
  assert.equal(outcomeIndex({ winner: -1, points: 1 }), 3);
  assert.equal(outcomeIndex({ winner: -1, points: 2 }), 4);
});

test("a table that is not a match's is refused, and a score past it", () => {
  const data = table.toJSON();
  assert.throws(() => new MatchTable({ ...data, order: ["tapa"] }), /order/);
  assert.throws(() => new MatchTable({ ...data, table: data.table.slice(1) }), /3 x 2/);
  assert.throws(() => table.chance(16, 3, 0, true), /covers 15/);
  assert.equal(table.chance(0, 3, 0, true), 1);
  assert.equal(table.chance(-1, 3, 1, false), 1);
  assert.equal(table.chance(3, 0, 2, true), 0);
});

/** A match's JSON as Python's `MatchState().to_dict()` writes it: to 7, Tabla first, 0-0. */
const START = Object.freeze(new Match(7).toDict());
const TABLA = initialPosition("tabla");

test("a match JSON of a wrong type or an impossible score is refused in one line", () => {
  // tests/test_match.py's cases in its order, with more of their kinds, each value as JSON
  // writes it; Python's words, with JSON's `true`, `false` and `["tabla"]` for Python's
  // `True`, `False` and `['tabla']`.
  // Python's `1.0`, `0.0`, `2.0` and `7.0` are JSON's `1.0`..., which JavaScript reads as
  // the whole numbers 1, 0, 2 and 7: see the next test. A score's case names the game that
  // comes after its games_played, so that nothing but the score is wrong.
  const cases = [
    [{ starter: true }, "starter must be 0, 1 or null, got true"],
    [{ starter: false }, "starter must be 0, 1 or null, got false"],
    [
      { to_move: true, starter: 0, position: TABLA },
      "to_move must be 0, 1 or null, got true",
    ],
    [{ starter: 2 }, "starter must be 0, 1 or null, got 2"],
    [{ to_move: "0", starter: 0, position: TABLA }, 'to_move must be 0, 1 or null, got "0"'],
    [{ score: [6, 0], games_played: 2 }, "6-0 after 2 games: a game scores at most 2"],
    [{ score: [3, 0], games_played: 1 }, "3-0 after 1 game: a game scores at most 2"],
    [{ score: [0, 5], games_played: 2 }, "0-5 after 2 games: a game scores at most 2"],
    [{ score: [100, 0], games_played: 60 }, "100-0 in a match to 7: points past the"],
    [{ score: [8, 3], games_played: 6 }, "8-3 in a match to 7"],
    [{ score: [0, 0], games_played: 2 }, "0-0 after 2 games: 2 of them were tabla and"],
    [{ score: [1, 0], games_played: 3 }, "1-0 after 3 games: 2 of them"],
    [{ score: [2, 0], games_played: 4 }, "2-0 after 4 games: 3 of them"],
    [{ score: [0, 0], games_played: 1 }, "0-0 after 1 game: 1 of them were tabla and gulbara"],
    [{ game: ["tabla"] }, 'game must be the name of a game (a string), got ["tabla"]'],
    [{ game: { name: "tabla" } }, "game must be the name of a game (a string)"],
    [{ game: 0 }, "game must be the name of a game (a string), got 0"],
    [{ game: null }, "game must be the name of a game (a string), got null"],
    [{ game: "gulbara" }, 'match JSON: game "gulbara", but game 1 of the order'],
    [{ draw_starter: ["throw"] }, "draw_starter must be one of"],
    [{ draw_starter: { rule: "throw" } }, "draw_starter must be one of"],
    [{ order: [["tabla"], "gulbara"] }, "match order"],
    [{ order: [{ game: "tabla" }] }, "match order"],
    [
      { starter: 0, to_move: 0, position: { ...TABLA, game: ["tabla"] } },
      'position: game must be the name of a game (a string), got ["tabla"]',
    ],
    // The page's own bound: its match equity table covers 15 points (Python's goes to 25).
    [{ length: 16 }, `match length must be a whole number from 1 to ${MAX_MATCH}`],
    [{ length: 25 }, "from 1 to 15 (the page's match equity table covers 15 points), got 25"],
    [{ length: true }, "match length must be a whole number from 1 to 15"],
    [{ length: 0 }, "match length must be a whole number from 1 to 15"],
    [{ score: [true, 0], games_played: 1 }, "match score must be two whole numbers"],
    [{ games_played: false }, "games_played must be a whole number"],
  ];
  for (const [change, words] of cases) {
    // The game the order names after games_played, so that only the score is wrong.
    const played = change.games_played;
    const next = Number.isInteger(played) ? { game: MATCH_ORDER[played % 3] } : {};
    const data = { ...START, ...next, ...change };
    let message = null;
    try {
      checkMatchState(data);
    } catch (error) {
      assert.equal(error.name, "MatchError", error.stack);
      message = error.message;
    }
    const shown = JSON.stringify(change).slice(0, 100);
    assert.notEqual(message, null, `${shown}: accepted`);
    assert.ok(message.includes(words), `${shown}: ${message}`);
    assert.ok(!message.includes("\n"), `${shown}: ${message}`);
  }
  const keys = { ...START, cube: 1 };
  delete keys.score;
  assert.throws(() => checkMatchState(keys), /^MatchError: match JSON: missing score; unknown cube/);
  assert.throws(() => checkMatchState("a match"), /a match is a JSON object, got string/);
});

test("what JavaScript cannot tell from a whole number is read as one", () => {
  // Python refuses `1.0` where a whole number is meant; JSON.parse gives 1, the same number
  // as `1`, so the page reads these as Python reads `1`, `0`, `2` and `7`.
  const texts = [
    '{"starter": 1.0}',
    '{"to_move": 0.0, "starter": 0}',
    '{"games_played": 2.0, "score": [1, 1], "game": "tapa"}',
    '{"score": [1.0, 1], "games_played": 2, "game": "tapa"}',
    '{"length": 7.0}',
  ];
  for (const text of texts) {
    const change = JSON.parse(text);
    const data = { ...START, ...change, ...("to_move" in change ? { position: TABLA } : {}) };
    assert.deepEqual(checkMatchState(data), data, text);
  }
});

/** Every match `name` the page can play to `length`: each state after every game (Tabla,
 * Gulbara and Fevga won by 1 or 2, Tapa besides drawn, up to `draws` draws), as a `Match`
 * played to it. */
function everyMatch(length, draws, name = DEFAULT_MATCH) {
  const results = [YOU, BOT].flatMap((winner) =>
    [1, 2].map((points) => ({ winner, points, kind: points === 1 ? "single" : "gammon", how: "" })),
  );
  const draw = { winner: null, points: 0, kind: "draw", how: "" };
  const replay = (games) => {
    const match = new Match(length, undefined, name);
    for (const result of games) match.record(result);
    return match;
  };
  const seen = new Map();
  const key = (match) => JSON.stringify([match.toDict(), match.games.length]);
  let frontier = [new Match(length, undefined, name)];
  seen.set(key(frontier[0]), frontier[0]);
  while (frontier.length) {
    const next = [];
    for (const match of frontier) {
      if (match.over) continue;
      const drawn = match.games.filter((result) => result.winner === null).length;
      const choices = match.game === "tapa" && drawn < draws ? [...results, draw] : results;
      for (const result of choices) {
        const played = replay([...match.games, result]);
        if (seen.has(key(played))) continue;
        seen.set(key(played), played);
        next.push(played);
      }
    }
    frontier = next;
  }
  return [...seen.values()];
}

test("every state of a match the page plays is read", () => {
  let states = 0;
  const lengths = Array.from({ length: MAX_MATCH }, (_, i) => i + 1);
  const plays = [
    ...lengths.map((length) => [DEFAULT_MATCH, length]),
    ...[1, 3, 5, 7].map((length) => ["tavli", length]),
  ];
  for (const [name, length] of plays) {
    const { order } = MATCHES[name];
    const matches = everyMatch(length, length <= 7 ? 3 : 1, name);
    for (const match of matches) {
      const between = match.toDict();
      assert.deepEqual(checkMatchState(between), between);
      // Python's bounds hold (tests/test_web_match.py reads these with MatchState): at most 2
      // a game, at least 1 for each Tabla and Gulbara game, no side past the length.
      const [mine, theirs] = between.score;
      const played = between.games_played;
      assert.ok(mine + theirs <= 2 * played && Math.max(mine, theirs) <= length);
      assert.ok(mine + theirs >= decidedGames(order, played), JSON.stringify(between));
      states += 1;
      if (match.over) continue;
      const position = initialPosition(match.game);
      for (const starter of match.starter === null ? [YOU, BOT] : [match.starter]) {
        match.starter = starter;
        for (const side of [YOU, BOT]) {
          const playing = match.toDict(position, side);
          assert.deepEqual(checkMatchState(playing), playing);
          states += 1;
        }
      }
    }
    if (length === 7 && name === DEFAULT_MATCH) {
      // 6-0 after three doubles, then a double past the length: 7-0 after 4 games.
      const shown = matches.map((match) => `${match.toDict().score}/${match.games.length}`);
      assert.ok(shown.includes("7,0/4") && shown.includes("0,7/10") && !shown.includes("0,7/11"));
    }
  }
  assert.ok(states > 50_000, `${states} states`);
});
