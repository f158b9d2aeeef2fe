// legalPlays and outcome against the Python engine: every roll of thousands of positions of
// random and heuristic games, the golden positions, the rules sample, every call that
// tests/test_rules.py makes, and positions where the rule flags matter, under those flags.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import test from "node:test";

import {
  flipPosition,
  initialPosition,
  positionFromKey,
  positionKey,
  positionRow,
} from "../js/position.js";
import { DEFAULT_RULES, legalPlays, outcome } from "../js/rules.js";
import { Mismatches, readJson, readJsonl, rulesName } from "./vectors.mjs";

/** The SHA-256 of the afterstates' position rows, concatenated: the vectors' digest. */
function digest(afterstates) {
  const bytes = new Int8Array(afterstates.length * 72);
  afterstates.forEach((afterstate, i) => bytes.set(positionRow(afterstate), i * 72));
  return createHash("sha256").update(bytes).digest("hex");
}

const ROLLS = [];
for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) ROLLS.push([a, b]);

test("the afterstates of every roll of every exported position are Python's, in its order", () => {
  const lines = readJsonl("turns.jsonl");
  const mismatches = new Mismatches("turns");
  const byKey = new Mismatches("turns listed by key");
  const sources = new Set();
  for (const line of lines) {
    sources.add(line.source.split(":")[0]);
    for (const roll of line.rolls) {
      const found = legalPlays(line.position, roll.dice, line.rules);
      const where = () =>
        `${line.source} ${line.key} dice ${roll.dice} rules ${rulesName(line.rules)}: ` +
        `${found.length} afterstates, Python ${roll.count}`;
      mismatches.check(found.length === roll.count && digest(found) === roll.digest, where);
      if (roll.keys) {
        const keys = found.map(positionKey);
        byKey.check(JSON.stringify(keys) === JSON.stringify(roll.keys), () => {
          const missing = roll.keys.filter((k) => !keys.includes(k));
          const extra = keys.filter((k) => !roll.keys.includes(k));
          return `${where()}; missing ${missing.slice(0, 3)}; extra ${extra.slice(0, 3)}`;
        });
      }
    }
  }
  mismatches.assertNone();
  byKey.assertNone();
  for (const source of ["random", "heuristic", "golden", "rules-sample", "test_rules", "variant"]) {
    assert.ok(sources.has(source), `no turns from ${source}`);
  }
});

test("exported afterstates are distinct, in the mover's view, the opponent unchanged", () => {
  for (const line of readJsonl("turns.jsonl").slice(0, 300)) {
    for (const { dice } of line.rolls) {
      const found = legalPlays(line.position, dice, line.rules);
      const keys = found.map(positionKey);
      assert.equal(new Set(keys).size, keys.length, `${line.key} ${dice}: an afterstate twice`);
      for (const afterstate of found) {
        assert.deepEqual(afterstate.opp, line.position.opp);
        assert.deepEqual(afterstate.own_pinned, line.position.own_pinned);
        assert.equal(afterstate.opp_off, line.position.opp_off);
      }
    }
  }
});

test("the depth-2 counts from the start are the golden file's (perft2)", () => {
  const lines = readJson("perft2.json");
  assert.ok(lines.length >= 1);
  for (const { name, key, sums, total } of lines) {
    const position = positionFromKey(key);
    const replies = (afterstate) =>
      ROLLS.reduce((n, second) => n + legalPlays(flipPosition(afterstate), second).length, 0);
    const found = ROLLS.map((first) =>
      legalPlays(position, first).reduce((sum, afterstate) => sum + replies(afterstate), 0),
    );
    assert.deepEqual(found, sums, name);
    assert.equal(found.reduce((a, b) => a + b, 0), total, name);
  }
});

test("the outcome of every exported position is Python's under every rule set", () => {
  const ruleSets = readJson("rule-sets.json");
  assert.equal(ruleSets.length, 16);
  assert.deepEqual(ruleSets[0], { ...DEFAULT_RULES });
  const mismatches = new Mismatches("outcomes");
  const kinds = new Set();
  for (const line of readJsonl("outcomes.jsonl")) {
    const position = positionFromKey(line.key);
    ruleSets.forEach((rules, r) => {
      const [winner, points] = line.outcomes[r] ?? [];
      const expected = line.outcomes[r] && { winner, points };
      const found = outcome(position, rules);
      mismatches.check(JSON.stringify(found) === JSON.stringify(expected), () =>
        `${line.key} rules ${rulesName(rules)}: ${JSON.stringify(found)}, ` +
        `Python ${JSON.stringify(expected)}`,
      );
      if (r === 0 && found) {
        const bornOff = position.own_off === 15 || position.opp_off === 15;
        const how = found.points === 2 && bornOff ? "gammon" : "";
        kinds.add(`${found.winner},${found.points}${how}`);
      }
    });
  }
  mismatches.assertNone();
  // Every kind of result, from both sides: single, gammon, mother, draw.
  for (const kind of ["1,1", "1,2gammon", "1,2", "-1,1", "-1,2gammon", "-1,2", "0,0"]) {
    assert.ok(kinds.has(kind), `no outcome ${kind} among the vectors`);
  }
});

// --- the worked examples of docs/rules.md, written out ----------------------------------------

/** A position from `{point: count}` maps, as tests/boards.py builds them. */
function board(own, opp, ownPinned = [], oppPinned = []) {
  const side = (counts) => Array.from({ length: 24 }, (_, i) => counts[i + 1] ?? 0);
  const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    own: side(own),
    opp: side(opp),
    own_pinned: ownPinned,
    opp_pinned: oppPinned,
    own_off: 15 - sum(own),
    opp_off: 15 - sum(opp),
  };
}

const keysOf = (positions) => positions.map(positionKey).sort();

test("worked example 1: pinning and releasing (R3, R5)", () => {
  const opp = { 1: 14, 8: 1 };
  const found = legalPlays(board({ 24: 14, 13: 1 }, opp), [5, 3]);
  assert.deepEqual(
    keysOf(found),
    keysOf([
      board({ 24: 14, 5: 1 }, opp),
      board({ 24: 13, 21: 1, 8: 1 }, opp, [], [8]),
      board({ 24: 13, 19: 1, 10: 1 }, opp),
      board({ 24: 13, 16: 1, 13: 1 }, opp),
      board({ 24: 12, 21: 1, 19: 1, 13: 1 }, opp),
    ]),
  );
});

test("worked example 2: a pinned checker in the home passes (R7, R12)", () => {
  const position = board({ 5: 1, 2: 13 }, { 5: 1, 1: 1, 20: 13 }, [5]);
  assert.deepEqual(legalPlays(position, [6, 2]), [position]);
});

test("worked example 4: the mother pinned ends the game part-way (R6, R9)", () => {
  const opp = { 1: 1, 20: 14 };
  const found = legalPlays(board({ 13: 14, 7: 1 }, opp), [6, 1]);
  const results = Object.fromEntries(found.map((a) => [positionKey(a), outcome(a)]));
  assert.deepEqual(results, {
    [positionKey(board({ 13: 14, 1: 1 }, opp, [], [1]))]: { winner: 1, points: 2 },
    [positionKey(board({ 13: 13, 12: 1, 1: 1 }, opp, [], [1]))]: { winner: 1, points: 2 },
    [positionKey(board({ 13: 13, 7: 1, 6: 1 }, opp))]: null,
    [positionKey(board({ 13: 12, 12: 1, 7: 2 }, opp))]: null,
  });
  const variant = { win_checked_each_move: false };
  const judgedAfter = legalPlays(board({ 13: 14, 7: 1 }, opp), [6, 1], variant);
  assert.equal(judgedAfter.length, 3);
});

test("R6: both dice must be played even when one die would win", () => {
  const opp = { 1: 1, 8: 14 };
  const found = legalPlays(board({ 13: 14, 7: 1 }, opp), [6, 5]);
  assert.deepEqual(keysOf(found), [positionKey(board({ 13: 13, 7: 1, 2: 1 }, opp))]);
});

test("R10: both mothers pinned is a draw, or goes on under both_mothers_draw=false", () => {
  const position = board({ 24: 1, 13: 13, 1: 1 }, { 1: 1, 20: 13, 24: 1 }, [24], [1]);
  assert.deepEqual(outcome(position), { winner: 0, points: 0 });
  assert.deepEqual(outcome(flipPosition(position)), { winner: 0, points: 0 });
  assert.equal(outcome(position, { both_mothers_draw: false }), null);
});

test("the start, its rolls, and the refusals of bad arguments", () => {
  const start = initialPosition();
  assert.equal(outcome(start), null);
  assert.deepEqual(legalPlays(start, [6, 5]).map(positionKey), [
    "13:1,24:14|1:15|",
    "18:1,19:1,24:13|1:15|",
  ]);
  assert.throws(() => legalPlays(start, [0, 5]), /dice must be a pair of integers 1-6/);
  assert.throws(() => legalPlays(start, [6]), /dice must be a pair/);
  assert.throws(() => legalPlays(start, [6, 5], { mothers_draw: true }), /unknown rule flag/);
  assert.throws(() => legalPlays(start, [6, 5], { both_mothers_draw: "no" }), /true or false/);
  assert.throws(() => legalPlays({ ...start, own_off: 1 }, [6, 5]), { name: "PositionError" });
  assert.deepEqual(start, initialPosition(), "legalPlays changed its argument");
});
