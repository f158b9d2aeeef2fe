// Turns played one checker move at a time against Python's checker moves
// (tapa_env.checker_moves), for every game of the registry: the legal moves at every step of
// the exported turns, and every complete sequence of moves reaching exactly the afterstates of
// legalPlays.

import assert from "node:assert/strict";
import test from "node:test";

import {
  BAR_POINT,
  CheckerTurn,
  checkerTurn,
  initialPosition,
  legalPlays,
  positionFromKey,
  positionKey,
} from "../js/games.js";
import { GAMES, Mismatches, gameLines, rulesName } from "./vectors.mjs";

test("the legal moves and the position at every step of the exported turns are Python's", () => {
  const mismatches = new Mismatches("steps");
  let bar = 0;
  for (const game of GAMES) {
    for (const line of gameLines(game, "checker-moves.jsonl")) {
      const where = `${line.key} dice ${line.dice} rules ${rulesName(line.rules, game)}`;
      const turn = checkerTurn(positionFromKey(line.key), line.dice, line.rules);
      if (!line.steps.length) {
        const after = positionKey(turn.position);
        mismatches.check(
          turn.done && !turn.legalMoves().length && (line.pass ?? after) === after,
          () => `${where}: a pass is ${after}, ${turn.legalMoves().length} moves; Python ${line.pass}`,
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

/** The exported turns each game's walks start from, and how many of them. */
const WALKED = {
  tapa: [(source) => source.startsWith("golden") || source === "variant", 100],
  tabla: [(source) => source === "example" || source === "variant", 25],
  gulbara: [(source) => source === "example" || source === "variant", 25],
  // Fevga's stress boards, under each flag (F6 judged at the play's end, the trap).
  fevga: [(source) => source === "example" || source.startsWith("stress"), 80],
};

for (const game of GAMES) {
  const name = `${game}: every complete sequence of checker moves reaches exactly legalPlays' afterstates`;
  test(name, () => {
    const mismatches = new Mismatches(`${game} turns`);
    const [chosen, count] = WALKED[game];
    const lines = gameLines(game, "turns.jsonl").filter((line) => chosen(line.source));
    for (const line of lines.slice(0, count)) {
      for (const { dice } of line.rolls.filter((roll) => roll.dice[0] <= roll.dice[1])) {
        const want = legalPlays(line.position, dice, line.rules).map(positionKey).sort();
        const got = reached(line.position, dice, line.rules);
        mismatches.check(JSON.stringify(got) === JSON.stringify(want), () =>
          `${line.key} dice ${dice} rules ${rulesName(line.rules, game)}: ` +
          `${got.length} reached, ${want.length} legal`,
        );
      }
    }
    mismatches.assertNone();
  });
}

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

test("T5: a Tabla turn enters from the bar first, then moves on; undo and refusal", () => {
  const position = positionFromKey("tabla/6:4,8:4,13:6|12:3,16:3,19:3,20:3,21:3|1,0");
  const turn = checkerTurn(position, [6, 2]);
  assert.deepEqual(turn.legalMoves(), [{ from: BAR_POINT, to: 23, die: 2 }]);
  assert.throws(
    () => turn.play(13, 6),
    /13\/7 with a 6 is not a legal move now; the legal moves are bar\/23 \(2\)/,
  );
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
