// Tabla's and Gulbara's turns played one checker move at a time against Python's
// tapa_env.checker_moves: the legal moves and the position at every step, and every complete
// sequence of moves reaching exactly the afterstates of legalPlays.

import assert from "node:assert/strict";
import test from "node:test";

import {
  BAR_POINT,
  checkerTurn,
  initialPosition,
  legalPlays,
  positionFromKey,
  positionKey,
} from "../js/games.js";
import { Mismatches, gameRulesName, readJsonl } from "./vectors.mjs";

test("the legal moves and the position at every step of the exported turns are Python's", () => {
  const mismatches = new Mismatches("Tabla and Gulbara steps");
  let bar = 0;
  for (const line of readJsonl("games-checker-moves.jsonl")) {
    const where = `${line.key} dice ${line.dice} rules ${gameRulesName(line.game, line.rules)}`;
    const turn = checkerTurn(positionFromKey(line.key), line.dice, line.rules);
    if (!line.steps.length) {
      mismatches.check(
        turn.done && !turn.legalMoves().length && positionKey(turn.position) === line.pass,
        () => `${where}: a pass is ${positionKey(turn.position)}, Python ${line.pass}`,
      );
      continue;
    }
    for (const [index, step] of line.steps.entries()) {
      const legal = turn.legalMoves().map((move) => [move.from, move.die]);
      const ok = JSON.stringify(legal) === JSON.stringify(step.legal);
      mismatches.check(ok, () =>
        `${where} step ${index}: ${JSON.stringify(legal)}, Python ${JSON.stringify(step.legal)}`,
      );
      if (!ok) break;
      if (step.move[0] === BAR_POINT) bar += 1;
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
  assert.ok(bar > 0, "no checker entered from the bar");
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
  walk(checkerTurn(position, dice, rules));
  return [...found].sort();
}

test("every complete sequence of checker moves reaches exactly legalPlays' afterstates", () => {
  const mismatches = new Mismatches("turns");
  const lines = readJsonl("games-turns.jsonl").filter(
    (line) => line.source === "example" || line.source === "variant",
  );
  for (const line of lines.slice(0, 25)) {
    for (const { dice } of line.rolls.filter((roll) => roll.dice[0] <= roll.dice[1])) {
      const want = legalPlays(line.position, dice, line.rules).map(positionKey).sort();
      const got = reached(line.position, dice, line.rules);
      mismatches.check(JSON.stringify(got) === JSON.stringify(want), () =>
        `${line.key} dice ${dice} rules ${gameRulesName(line.game, line.rules)}: ` +
        `${got.length} reached, ${want.length} legal`,
      );
    }
  }
  mismatches.assertNone();
});

test("T5: a Tabla turn enters from the bar first, then moves on; undo and refusal", () => {
  const position = positionFromKey("tabla/6:4,8:4,13:6|12:3,16:3,19:3,20:3,21:3|1,0");
  const turn = checkerTurn(position, [6, 2]);
  assert.deepEqual(turn.legalMoves(), [{ from: BAR_POINT, to: 23, die: 2 }]);
  assert.throws(() => turn.play(13, 6), /13\/7 with a 6 is not a legal move now; the legal moves are bar\/23 \(2\)/);
  assert.equal(turn.play(BAR_POINT, 2), false);
  assert.equal(turn.position.own_bar, 0);
  assert.ok(turn.legalMoves().some((move) => move.from === 23 && move.to === 17));
  turn.undo();
  assert.deepEqual(turn.position, position);
});

test("G5: each double of a Gulbara climb is a turn of its own", () => {
  const start = initialPosition("gulbara");
  const climbing = { ...start, own_turns: 3, opp_turns: 3 };
  const turn = checkerTurn(climbing, [2, 2]);
  assert.deepEqual(turn.diceLeft, [2, 2, 2, 2]);
  while (!turn.done) turn.play(turn.legalMoves()[0].from, 2);
  const after = turn.position;
  assert.deepEqual([after.next, after.climb, after.climb_dice], ["own", 3, 4]);
  const next = checkerTurn(after, [3, 3]);
  assert.deepEqual(next.diceLeft, [3, 3, 3, 3]);
  assert.throws(() => checkerTurn(after, [5, 2]), /climbing double 3-3 to play \(G5\)/);
});
