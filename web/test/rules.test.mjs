// legalPlays and outcome against the Python engine, for every game of the registry: every
// roll of thousands of positions of random and heuristic games, the golden positions, the
// rules sample, every call that tests/test_rules.py makes, the worked examples of
// docs/rules.md, and positions where the rule flags matter, under those flags.

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
import { REGISTRY, defineGame } from "../js/games/index.js";
import { GAMES, Mismatches, gameJson, gameLines, readJson, rulesName } from "./vectors.mjs";

/** The SHA-256 of the afterstates' position rows, concatenated: the vectors' digest. */
function digest(afterstates) {
  const bytes = new Int8Array(afterstates.length * 72);
  afterstates.forEach((afterstate, i) => bytes.set(positionRow(afterstate), i * 72));
  return createHash("sha256").update(bytes).digest("hex");
}

const ROLLS = [];
for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) ROLLS.push([a, b]);

/** Where each game's exported turns come from, every one of which must be there. */
const SOURCES = {
  tapa: ["random", "heuristic", "golden", "rules-sample", "test_rules", "variant"],
  tabla: ["random", "heuristic", "example"],
  gulbara: ["random", "heuristic", "example", "variant"],
  fevga: ["random", "example", "variant", "stress:runner", "stress:quarter", "stress:trap",
    "stress:wall", "stress:bearoff"],
};

test("the afterstates of every roll of every exported position are Python's, in its order", () => {
  const mismatches = new Mismatches("turns");
  const byKey = new Mismatches("turns listed by key");
  const seen = new Set();
  for (const game of GAMES) {
    for (const line of gameLines(game, "turns.jsonl")) {
      const rulesText = rulesName(line.rules, game);
      seen.add(`${game} ${line.source.split(":")[0]}`);
      seen.add(`${game} ${line.source}`);
      seen.add(`${game} ${line.source} ${rulesText}`);
      for (const roll of line.rolls) {
        const found = legalPlays(line.position, roll.dice, line.rules);
        const where = () =>
          `${line.source} ${line.key} dice ${roll.dice} rules ${rulesText}: ` +
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
  }
  mismatches.assertNone();
  byKey.assertNone();
  for (const game of GAMES) {
    for (const source of SOURCES[game]) {
      assert.ok(seen.has(`${game} ${source}`), `no ${game} turns from ${source}`);
    }
  }
  for (const game of ["gulbara", "fevga"]) {
    for (const flag of Object.keys(GAME_RULES[game])) {
      const variant = [...seen].some(
        (name) => name.startsWith(`${game} variant`) && name.includes(flag),
      );
      assert.ok(variant, `no ${game} turns under ${flag}`);
    }
  }
  // Fevga's stress boards under each flag alone (F5, F6, F7's trap and wall).
  for (const flag of Object.keys(GAME_RULES.fevga)) {
    const stressed = [...seen].some(
      (name) => name.startsWith("fevga stress:") && name.endsWith(` ${flag}=true`),
    );
    assert.ok(stressed, `no Fevga stress turns under ${flag} alone`);
  }
});

for (const game of GAMES) {
  const name = `${game}: exported afterstates are distinct, in the mover's view, the opponent unchanged`;
  test(name, () => {
    for (const line of gameLines(game, "turns.jsonl").slice(0, 300)) {
      for (const { dice } of line.rolls) {
        const found = legalPlays(line.position, dice, line.rules);
        const keys = found.map(positionKey);
        assert.equal(new Set(keys).size, keys.length, `${line.key} ${dice}: an afterstate twice`);
        for (const afterstate of found) {
          assert.equal(afterstate.opp_off, line.position.opp_off);
          if (line.position.own_pinned) {
            assert.deepEqual(afterstate.opp, line.position.opp);
            assert.deepEqual(afterstate.own_pinned, line.position.own_pinned);
          }
        }
      }
    }
  });
}

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

/** Every kind of result the exported positions must show, from both sides, as
 * `winner,points` (with `gammon` where a side has borne off all 15): Tapa's single, gammon,
 * mother and draw; among Tabla's and Gulbara's together, single and mars, and Tabla's
 * backgammon. */
const KINDS = [
  [["tapa"], ["1,1", "1,2gammon", "1,2", "-1,1", "-1,2gammon", "-1,2", "0,0"]],
  [["tabla", "gulbara"], ["null", "1,1", "1,2gammon", "-1,1", "-1,2gammon", "1,3gammon"]],
  [["fevga"], ["null", "1,1", "1,2gammon", "-1,1", "-1,2gammon"]],
];

test("the outcome of every exported position is Python's under every rule set", () => {
  const mismatches = new Mismatches("outcomes");
  const kinds = new Set();
  for (const game of GAMES) {
    const ruleSets = gameJson(game, "rule-sets.json");
    assert.equal(ruleSets.length, 2 ** Object.keys(GAME_RULES[game]).length);
    assert.deepEqual(ruleSets[0], { ...GAME_RULES[game] });
    for (const line of gameLines(game, "outcomes.jsonl")) {
      const position = positionFromKey(line.key);
      ruleSets.forEach((rules, r) => {
        const found = outcome(position, rules);
        const got = found ? [found.winner, found.points] : null;
        mismatches.check(JSON.stringify(got) === JSON.stringify(line.outcomes[r] ?? null), () =>
          `${line.key} rules ${rulesName(rules, game)}: ${JSON.stringify(got)}, ` +
          `Python ${JSON.stringify(line.outcomes[r])}`,
        );
        const bornOff = position.own_off === 15 || position.opp_off === 15;
        const how = found && found.points >= 2 && bornOff ? "gammon" : "";
        kinds.add(`${game} ${found ? `${found.winner},${found.points}${how}` : "null"}`);
      });
    }
  }
  mismatches.assertNone();
  for (const [games, wanted] of KINDS) {
    for (const kind of wanted) {
      const seen = games.some((game) => kinds.has(`${game} ${kind}`));
      assert.ok(seen, `no outcome ${kind} of ${games.join(" or ")} among the vectors`);
    }
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

test("Fevga's worked examples: the first checker (F5) and the trap (F7)", () => {
  const start = initialPosition("fevga");
  const keys = (dice, rules) => legalPlays(start, dice, rules).map(positionKey).sort();
  // docs/rules.md, Fevga worked examples 1 and 2.
  const fives = ["fevga/4:1,24:14|12:15|", "fevga/9:1,19:1,24:13|12:15|"];
  assert.deepEqual(keys([5, 5]), fives);
  assert.deepEqual(keys([5, 5], { first_checker_past_start: true }), keys([5, 5]));
  assert.deepEqual(keys([6, 6]), ["fevga/18:1,24:14|12:15|"]);
  // The bot on its start (your 12) behind your 6-11: every play opens one of them.
  const trapped = positionFromKey("fevga/6:2,7:2,8:2,9:2,10:2,11:2,24:3|12:15|");
  for (const play of legalPlays(trapped, [3, 1])) {
    assert.ok(play.own.slice(5, 11).some((count) => count === 0), positionKey(play));
  }
  assert.equal(legalPlays(trapped, [3, 1]).length, 6);
});

test("the registry refuses a game lacking a hook, or one of a pair without the other", () => {
  const fevga = REGISTRY.fevga;
  const module = { ...fevga, game: { name: "fevga" } };
  assert.doesNotThrow(() => defineGame(module));
  const { prefers: _, ...halfPair } = module;
  assert.throws(() => defineGame(halfPair), /the game fevga lacks the hooks prefers/);
  const { facts: __, accepts: ___, ...two } = module;
  assert.throws(() => defineGame(two), /the game fevga lacks the hooks facts, accepts/);
});
