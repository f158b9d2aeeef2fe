// Tabla's and Gulbara's legalPlays and outcome against the Python engine: every roll of the
// exported positions (random and heuristic games, the worked examples of docs/rules.md, and
// positions where a rule flag changes the plays, under that flag), in the engine's order.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import test from "node:test";

import {
  GAME_RULES,
  flipPosition,
  initialPosition,
  legalPlays,
  nextTurn,
  outcome,
  positionFromKey,
  positionKey,
  positionRow,
  turnDice,
} from "../js/games.js";
import { Mismatches, gameRulesName, readJson, readJsonl } from "./vectors.mjs";

/** The SHA-256 of the afterstates' position rows, concatenated: the vectors' digest. */
function digest(afterstates) {
  const bytes = new Int8Array(afterstates.length * 72);
  afterstates.forEach((afterstate, i) => bytes.set(positionRow(afterstate), i * 72));
  return createHash("sha256").update(bytes).digest("hex");
}

test("the afterstates of every roll of every exported position are Python's, in its order", () => {
  const mismatches = new Mismatches("Tabla and Gulbara turns");
  const byKey = new Mismatches("turns listed by key");
  const seen = new Set();
  for (const line of readJsonl("games-turns.jsonl")) {
    seen.add(`${line.game} ${line.source} ${gameRulesName(line.game, line.rules)}`);
    for (const roll of line.rolls) {
      const found = legalPlays(line.position, roll.dice, line.rules);
      const where = () =>
        `${line.source} ${line.key} dice ${roll.dice} rules ` +
        `${gameRulesName(line.game, line.rules)}: ${found.length} afterstates, Python ${roll.count}`;
      mismatches.check(found.length === roll.count && digest(found) === roll.digest, where);
      if (roll.keys) {
        const keys = found.map(positionKey);
        byKey.check(JSON.stringify(keys) === JSON.stringify(roll.keys), where);
      }
    }
  }
  mismatches.assertNone();
  byKey.assertNone();
  for (const game of ["tabla", "gulbara"]) {
    for (const source of ["random", "heuristic", "example"]) {
      assert.ok(seen.has(`${game} ${source} default`), `no ${source} ${game} turns`);
    }
  }
  for (const flag of Object.keys(GAME_RULES.gulbara)) {
    const variant = [...seen].some((name) => name.startsWith("gulbara variant") && name.includes(flag));
    assert.ok(variant, `no Gulbara turns under ${flag}`);
  }
});

test("the outcome of every exported position is Python's under every rule set", () => {
  const ruleSets = readJson("games-rule-sets.json");
  const mismatches = new Mismatches("outcomes");
  const kinds = new Set();
  for (const line of readJsonl("games-outcomes.jsonl")) {
    const position = positionFromKey(line.key);
    ruleSets[line.game].forEach((rules, r) => {
      const found = outcome(position, rules);
      const got = found ? [found.winner, found.points] : null;
      kinds.add(JSON.stringify(got));
      mismatches.check(JSON.stringify(got) === JSON.stringify(line.outcomes[r]), () =>
        `${line.key} rules ${gameRulesName(line.game, rules)}: ${JSON.stringify(got)}, ` +
        `Python ${JSON.stringify(line.outcomes[r])}`,
      );
    });
  }
  mismatches.assertNone();
  for (const kind of ["null", "[1,1]", "[1,2]", "[-1,1]", "[-1,2]", "[1,3]"]) {
    assert.ok(kinds.has(kind), `no outcome ${kind} among the exported positions`);
  }
});

test("T5: a checker on the bar enters first, on the opponent's home board", () => {
  // docs/rules.md, Tabla worked example 1: the 6 is blocked, the 2 enters and the 6 follows.
  const position = positionFromKey("tabla/6:4,8:4,13:6|12:3,16:3,19:3,20:3,21:3|1,0");
  const keys = legalPlays(position, [6, 2]).map(positionKey).sort();
  assert.deepEqual(keys, [
    "tabla/6:4,8:4,13:6,17:1|12:3,16:3,19:3,20:3,21:3|0,0",
    "tabla/2:1,6:4,8:3,13:6,23:1|12:3,16:3,19:3,20:3,21:3|0,0",
    "tabla/6:4,7:1,8:4,13:5,23:1|12:3,16:3,19:3,20:3,21:3|0,0",
  ].sort());
});

test("T8: a mars is 2 points, a backgammon 3 only under backgammon_triple", () => {
  const won = positionFromKey("tabla/|1:1,20:14|0,0");
  assert.deepEqual(outcome(won), { winner: 1, points: 2 });
  assert.deepEqual(outcome(won, { backgammon_triple: true }), { winner: 1, points: 3 });
  assert.deepEqual(outcome(flipPosition(won)), { winner: -1, points: 2 });
  assert.equal(outcome(initialPosition("tabla")), null);
  assert.throws(() => outcome(won, { backgammon: true }), /unknown rule flag\(s\) backgammon/);
});

test("G5: a double after the opening climbs; the side moves again with the next double", () => {
  const position = positionFromKey(
    "gulbara/13:1,22:1,24:13|14:3,15:4,16:4,18:3,19:1|own,0,0,0,3,3",
  );
  const plays = legalPlays(position, [5, 5]);
  assert.equal(plays.length, 3);
  for (const play of plays) {
    assert.deepEqual([play.next, play.climb, play.climb_dice, play.handed], ["own", 6, 4, false]);
    const { position: next, passed } = nextTurn(play);
    assert.equal(passed, false);
    assert.deepEqual(turnDice(next, [2, 1]), [6, 6]);
  }
  assert.throws(() => legalPlays(plays[0], [2, 1]), /climbing double 6-6 to play \(G5\)/);
  // In the opening (here its third turn) the same roll passes the turn.
  const opening = { ...position, own_turns: 1, opp_turns: 1 };
  for (const play of legalPlays(opening, [5, 5])) assert.equal(nextTurn(play).passed, true);
});

test("G6: what a climb cannot play is handed over, or lost under the other reading", () => {
  const position = positionFromKey(
    "gulbara/2:1,13:1,24:13|14:3,15:4,16:4,18:3,19:1|own,6,4,0,3,3",
  );
  const [handed] = legalPlays(position, [6, 6]);
  assert.equal(positionKey(handed), "gulbara/1:1,2:1,24:13|14:3,15:4,16:4,18:3,19:1|opp,6,2,1,3,3");
  const [lost] = legalPlays(position, [6, 6], { unplayable_to_opponent: false });
  assert.equal(positionKey(lost), "gulbara/1:1,2:1,24:13|14:3,15:4,16:4,18:3,19:1|opp,0,0,0,3,3");
  const { position: opponent } = nextTurn(handed);
  assert.deepEqual(turnDice(opponent, [4, 1]), [6, 6]);
  assert.throws(() => legalPlays(handed, [6, 6]), /not this side's turn/);
});
