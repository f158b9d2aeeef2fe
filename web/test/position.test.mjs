// Positions: the key, its reading back, the flip and the checks of the interchange format,
// against Python's Position.

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
} from "../js/position.js";
import { Mismatches, readJson, readJsonl } from "./vectors.mjs";

test("the key, the key read back and the flip of every exported position are Python's", () => {
  const mismatches = new Mismatches("positions");
  for (const line of readJsonl("turns.jsonl")) {
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
});

test("every dict that Python's Position.from_dict refuses is refused", () => {
  const cases = readJson("bad-positions.json");
  assert.ok(cases.length > 100);
  for (const { position, error } of cases) {
    assert.throws(
      () => checkPosition(position),
      PositionError,
      `accepted ${JSON.stringify(position)}, which Python refuses: ${error}`,
    );
  }
});

test("a missing or unknown key is refused in Python's words, naming only what is wrong", () => {
  const cases = readJson("bad-positions.json").filter(({ error }) =>
    error.startsWith("tapa position keys: "),
  );
  assert.ok(cases.length >= 20, `only ${cases.length} refused keys`);
  const mismatches = new Mismatches("messages of wrong keys");
  for (const { position, error } of cases) {
    let message = null;
    try {
      checkPosition(position);
    } catch (raised) {
      if (!(raised instanceof PositionError)) throw raised;
      message = raised.message;
    }
    mismatches.check(
      message === error,
      () => `${JSON.stringify(position)}: ${message}, Python ${error}`,
    );
  }
  mismatches.assertNone();
  const errors = new Set(cases.map(({ error }) => error));
  for (const error of [
    "tapa position keys: missing ['opp_off']",
    "tapa position keys: unexpected ['extra']",
    "tapa position keys: missing ['own_pinned'], unexpected ['extra', 'zeta']",
  ]) {
    assert.ok(errors.has(error), error);
  }
  const { own_off: _, ...start } = initialPosition();
  assert.throws(() => checkPosition({ ...start, "it's": 1 }), {
    name: "PositionError",
    message: `tapa position keys: missing ['own_off'], unexpected ["it's"]`,
  });
});

test("a Tapa position may name its game, as Python's Position.from_dict reads it", () => {
  const start = initialPosition();
  assert.deepEqual(checkPosition({ ...start, game: "tapa" }), { ...start, game: "tapa" });
  assert.throws(() => checkPosition({ ...start, game: "tapa", extra: 1 }), {
    message: "tapa position keys: unexpected ['extra']",
  });
});

test("the examples of docs/formats.md", () => {
  const start = initialPosition();
  assert.equal(positionKey(start), "24:15|1:15|");
  assert.deepEqual(flipPosition(start), start);
  const own = Array(24).fill(0);
  own[7] = 1;
  own[20] = 1;
  own[23] = 13;
  const opp = Array(24).fill(0);
  opp[0] = 14;
  opp[7] = 1;
  const position = { own, opp, own_pinned: [], opp_pinned: [8], own_off: 0, opp_off: 0 };
  assert.equal(positionKey(position), "8:1,21:1,24:13|1:14,8:1|+8");
  assert.equal(positionKey(flipPosition(position)), "17:1,24:14|1:13,4:1,17:1|-17");
  assert.deepEqual(positionFromKey("8:1,21:1,24:13|1:14,8:1|+8"), position);
  assert.deepEqual(pipCounts(start), [360, 360]);
  const row = positionRow(position);
  assert.equal(row.length, 72);
  assert.deepEqual([row[7], row[24], row[24 + 7], row[48 + 7]], [1, 14, 1, 1]);
});

test("a malformed key is refused with a PositionError naming it", () => {
  const keys = ["", "24:15|1:15", "24:15|1:15|x", "24:15|1:15|+", "25:15|1:15|"];
  for (const key of [...keys, "24:15,24:1|1:15|", "24|1:15|"]) {
    assert.throws(() => positionFromKey(key), PositionError, key);
  }
  assert.throws(() => positionFromKey("24:16|1:15|"), /a point holds 0 to 15/);
  assert.equal(positionFromKey("24:14|1:15|").own_off, 1);
});
