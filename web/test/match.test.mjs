// The tabla match in JavaScript (web/js/match.js, web/js/ui_match.js) against Python's
// agents/match: the outcome weights and chances of the page's table (web/models/
// match-equity.json) are MatchEquity's to 1e-6, a match played game by game gives
// MatchState's JSON after every game, and what MatchState.from_dict refuses is refused.
// Vectors: `python tests/scripts/export_web_match.py --vectors DIR`, then
// `TAPA_WEB_VECTORS=DIR node --test web/test/match.test.mjs` (tests/test_web_match.py).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { MATCH_ORDER, MatchTable, checkMatchState, outcomeIndex } from "../js/match.js";
import { BOT, Match, YOU } from "../js/ui_match.js";
import { Mismatches, readJson } from "./vectors.mjs";

const TOLERANCE = 1e-6;
const tableData = () =>
  JSON.parse(readFileSync(new URL("../models/match-equity.json", import.meta.url), "utf8"));
const table = new MatchTable(tableData());

test("the outcome weights and chances of the page's table are Python's", () => {
  const { cases } = readJson("match-weights.json");
  const wrong = new Mismatches("outcome weights");
  let checked = 0;
  for (const c of cases) {
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
  for (const { length, steps } of matches) {
    const match = new Match(length);
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
    assert.deepEqual(match.order, MATCH_ORDER);
  }
  wrong.assertNone();
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

test("a table that is not the match's is refused, and a score past it", () => {
  const data = tableData();
  assert.throws(() => new MatchTable({ ...data, format: "other" }), /format/);
  assert.throws(() => new MatchTable({ ...data, order: ["tapa"] }), /order/);
  assert.throws(() => new MatchTable({ ...data, table: data.table.slice(1) }), /3 x 2/);
  assert.throws(() => table.chance(16, 3, 0, true), /covers 15/);
  assert.equal(table.chance(0, 3, 0, true), 1);
  assert.equal(table.chance(-1, 3, 1, false), 1);
  assert.equal(table.chance(3, 0, 2, true), 0);
});
