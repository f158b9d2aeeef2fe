// Tabla's and Gulbara's positions against Python's Position: keys, keys read back, flips,
// position rows and the checks of the interchange format (tests/scripts/export_web_game_vectors.py).

import assert from "node:assert/strict";
import test from "node:test";

import {
  PositionError,
  checkPosition,
  flipPosition,
  initialPosition,
  pipCounts,
  positionFromKey,
  positionKey,
  positionRow,
} from "../js/games.js";
import { Mismatches, readJson, readJsonl } from "./vectors.mjs";

test("the key, the key read back and the flip of every exported position are Python's", () => {
  const mismatches = new Mismatches("Tabla and Gulbara positions");
  const games = new Set();
  for (const line of readJsonl("games-turns.jsonl")) {
    games.add(line.game);
    mismatches.check(positionKey(line.position) === line.key, () => `key of ${line.key}`);
    mismatches.check(
      JSON.stringify(positionFromKey(line.key)) === JSON.stringify(line.position),
      () => `positionFromKey(${line.key})`,
    );
    const flipped = flipPosition(line.position);
    mismatches.check(positionKey(flipped) === line.flipped, () => `flip of ${line.key}`);
    mismatches.check(
      JSON.stringify(flipPosition(flipped)) === JSON.stringify(line.position),
      () => `flip twice of ${line.key}`,
    );
    mismatches.check(checkPosition(line.position) === line.position, () => `check ${line.key}`);
  }
  mismatches.assertNone();
  assert.deepEqual([...games].sort(), ["gulbara", "tabla"]);
});

test("every dict that Python's Position.from_dict refuses is refused, with its message", () => {
  const cases = readJson("games-bad-positions.json");
  assert.ok(cases.length > 100, `only ${cases.length} refused positions`);
  const mismatches = new Mismatches("refusals");
  for (const { position, error } of cases) {
    let message = null;
    try {
      checkPosition(position);
    } catch (raised) {
      if (!(raised instanceof PositionError)) throw raised;
      message = raised.message;
    }
    mismatches.check(message === error, () => `${JSON.stringify(position)}: ${message}, Python ${error}`);
  }
  mismatches.assertNone();
});

test("the examples of docs/formats.md", () => {
  const tabla = initialPosition("tabla");
  assert.equal(positionKey(tabla), "tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0");
  assert.deepEqual(flipPosition(tabla), tabla);
  assert.deepEqual(pipCounts(tabla), [167, 167]);
  const hit = positionFromKey("tabla/6:13,9:1,11:1|1:2,2:2,3:2,4:2,5:2,20:4|0,1");
  assert.equal(hit.opp_bar, 1);
  assert.equal(
    positionKey(flipPosition(hit)),
    "tabla/5:4,20:2,21:2,22:2,23:2,24:2|14:1,16:1,19:13|1,0",
  );
  const gulbara = initialPosition("gulbara");
  assert.equal(positionKey(gulbara), "gulbara/24:15|12:15|own,0,0,0,0,0");
  assert.equal(positionKey(flipPosition(gulbara)), "gulbara/24:15|12:15|opp,0,0,0,0,0");
  assert.deepEqual(pipCounts(gulbara), [360, 360]);
  const climbing = "gulbara/2:1,13:1,24:13|14:3,15:4,16:4,18:3,19:1|own,6,4,0,3,3";
  const position = positionFromKey(climbing);
  assert.deepEqual([position.climb, position.climb_dice, position.handed], [6, 4, false]);
  const row = positionRow(position);
  assert.deepEqual(Array.from(row.slice(48, 54)), [1, 6, 4, 0, 3, 3]);
  assert.equal(positionKey(position), climbing);
});

test("a malformed key of either game is refused with a PositionError naming it", () => {
  const keys = [
    "chess/24:15|12:15|own,0,0,0,0,0",
    "tabla/24:15|1:15",
    "tabla/24:15|1:15|0",
    "gulbara/24:15|12:15|both,0,0,0,0,0",
    "gulbara/24:15|12:15|own,0,0,2,0,0",
    "gulbara/24:15|12:15|own,0,0,0,0",
    "tabla/24:2,24:1|1:15|0,0",
  ];
  for (const key of keys) assert.throws(() => positionFromKey(key), PositionError, key);
  assert.throws(
    () => positionFromKey("tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|1,0"),
    /own has 16 checkers on the board and the bar, over 15/,
  );
});
