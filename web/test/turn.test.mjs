// Turns played one checker move at a time against Python's tapa_env.checker_moves: the legal
// moves at every step of the exported turns, and every complete sequence of moves reaching
// exactly the afterstates of legalPlays.

import assert from "node:assert/strict";
import test from "node:test";

import { initialPosition, positionFromKey, positionKey } from "../js/position.js";
import { legalPlays } from "../js/rules.js";
import { CheckerTurn } from "../js/turn.js";
import { Mismatches, readJsonl, rulesName } from "./vectors.mjs";

test("the legal moves and the position at every step of the exported turns are Python's", () => {
  const mismatches = new Mismatches("steps");
  for (const line of readJsonl("checker-moves.jsonl")) {
    const where = `${line.key} dice ${line.dice} rules ${rulesName(line.rules)}`;
    const turn = new CheckerTurn(positionFromKey(line.key), line.dice, line.rules);
    if (!line.steps.length) {
      mismatches.check(turn.done && !turn.legalMoves().length, () => `${where}: a pass has moves`);
      continue;
    }
    for (const [index, step] of line.steps.entries()) {
      const legal = turn.legalMoves().map((move) => [move.from, move.die]);
      const ok = JSON.stringify(legal) === JSON.stringify(step.legal);
      const show = JSON.stringify;
      mismatches.check(ok, () =>
        `${where} step ${index}: ${show(legal)}, Python ${show(step.legal)}`,
      );
      if (!ok) break;
      const done = turn.play(step.move[0], step.move[1]);
      mismatches.check(
        done === step.done && positionKey(turn.position) === step.after,
        () =>
          `${where} step ${index}: ${positionKey(turn.position)} done ${done}, ` +
          `Python ${step.after} ${step.done}`,
      );
    }
  }
  mismatches.assertNone();
});

/** The afterstates that every complete sequence of legal moves reaches (keys, sorted). */
function reached(position, dice, rules) {
  const found = new Set();
  const seen = new Set();
  const walk = (turn) => {
    const state = `${positionKey(turn.position)} ${turn.diceLeft}`;
    if (seen.has(state)) return;
    seen.add(state);
    if (turn.done) {
      found.add(positionKey(turn.position));
      return;
    }
    const moves = turn.legalMoves();
    assert.ok(moves.length, `${positionKey(position)} ${dice}: an unfinished turn has no move`);
    for (const { from, die } of moves) {
      turn.play(from, die);
      walk(turn);
      turn.undo();
    }
  };
  walk(new CheckerTurn(position, dice, rules));
  return [...found].sort();
}

test("every complete sequence of checker moves reaches exactly legalPlays' afterstates", () => {
  const mismatches = new Mismatches("turns");
  const lines = readJsonl("turns.jsonl").filter(
    (line) => line.source.startsWith("golden") || line.source === "variant",
  );
  for (const line of lines.slice(0, 100)) {
    for (const { dice } of line.rolls.filter((roll) => roll.dice[0] <= roll.dice[1])) {
      const want = legalPlays(line.position, dice, line.rules).map(positionKey).sort();
      const got = reached(line.position, dice, line.rules);
      mismatches.check(JSON.stringify(got) === JSON.stringify(want), () =>
        `${line.key} dice ${dice} rules ${rulesName(line.rules)}: ` +
        `${got.length} reached, ${want.length} legal`,
      );
    }
  }
  mismatches.assertNone();
});

test("a turn from the start: moves, undo, refusal, done", () => {
  const turn = new CheckerTurn(initialPosition(), [6, 5]);
  assert.deepEqual(turn.legalMoves(), [
    { from: 24, to: 19, die: 5 },
    { from: 24, to: 18, die: 6 },
  ]);
  assert.equal(turn.play(24, 6), false);
  assert.deepEqual(turn.diceLeft, [5]);
  assert.deepEqual(turn.legalMoves(), [
    { from: 18, to: 13, die: 5 },
    { from: 24, to: 19, die: 5 },
  ]);
  assert.throws(
    () => turn.play(24, 6),
    /24\/18 with a 6 is not a legal move now; the legal moves are 18\/13 \(5\), 24\/19 \(5\)/,
  );
  assert.equal(turn.play(18, 5), true);
  assert.equal(positionKey(turn.position), "13:1,24:14|1:15|");
  assert.deepEqual(turn.moves, [
    { from: 24, to: 18, die: 6 },
    { from: 18, to: 13, die: 5 },
  ]);
  turn.undo();
  assert.equal(turn.done, false);
  assert.deepEqual(turn.diceLeft, [5]);
  turn.undo();
  turn.undo();
  assert.deepEqual(turn.position, initialPosition());
});
