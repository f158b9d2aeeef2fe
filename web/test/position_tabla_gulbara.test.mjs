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
import { checkRacePosition, show } from "../js/position_tabla_gulbara.js";
import { Mismatches, readJson, readJsonl } from "./vectors.mjs";

/** The message of the `PositionError` that `check(position)` throws, or null. */
function refusal(check, position) {
  try {
    check(position);
  } catch (raised) {
    if (!(raised instanceof PositionError)) throw raised;
    return raised.message;
  }
  return null;
}

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
    // games.js's check, and the check of the two games' own module, which its rules call.
    for (const check of [checkPosition, checkRacePosition]) {
      const message = refusal(check, position);
      mismatches.check(
        message === error,
        () => `${check.name} ${JSON.stringify(position)}: ${message}, Python ${error}`,
      );
    }
  }
  mismatches.assertNone();
  // Among them: keys only missing, only unexpected and both, a game that is no name, and each
  // kind of Gulbara turn state that no game reaches.
  const errors = cases.map((line) => line.error);
  const kinds = [
    /^gulbara position keys: missing \['opp_off'\]$/,
    /^tabla position keys: unexpected \['extra'\]$/,
    /^gulbara position keys: missing \['own_off', 'opp_off'\], unexpected \['extra', 'zeta'\]$/,
    /^game must be one of tapa, tabla, gulbara, got \['gulbara'\]$/,
    /^game must be one of tapa, tabla, gulbara, got None$/,
    /^next is opp with climb 6 not handed: /,
    /^climb 5 with climb_dice 2 not handed: /,
    /^climb 1 not handed: /,
    /: a double climbs only after the opening, /,
    /^own_turns is 0 but own has moved: /,
    /^opp_turns is 0 but opp has moved: /,
    /: turns alternate, /,
  ];
  for (const kind of kinds) assert.ok(errors.some((error) => kind.test(error)), String(kind));
  const keys = errors.filter((error) => error.includes(" position keys: "));
  assert.ok(!keys.some((error) => error.includes("[]")), "an empty list of keys");
});

test("a Gulbara turn state that no game reaches is refused, in Python's words", () => {
  // docs/formats.md: a climb that the other side plays next was handed over.
  assert.throws(
    () => positionFromKey("gulbara/24:15|12:15|opp,6,4,0,3,3"),
    {
      name: "PositionError",
      message:
        "next is opp with climb 6 not handed: a side plays its own climb before the turn " +
        "passes, so a climb the other side plays was handed over (G6)",
    },
  );
  const board = "2:1,13:1,24:13|14:3,15:4,16:4,18:3,19:1";
  const refused = {
    [`${board}|own,6,3,0,3,3`]:
      "climb 6 with climb_dice 3 not handed: a side's own climb plays whole doubles, 4 dice; " +
      "fewer are left only of numbers handed over (G6)",
    [`${board}|own,1,4,0,3,3`]:
      "climb 1 not handed: a side's own climb goes on from the double above the one it " +
      "rolled, 2 to 6; a 1-1 is only handed over (G6)",
    [`${board}|own,4,2,1,2,1`]:
      "climb 4 with own_turns 2 and opp_turns 1: a double climbs only after the opening, " +
      "when both sides have had 4 turns or more together (G5)",
    [`${board}|own,0,0,0,0,1`]:
      "own_turns is 0 but own has moved: a side that has had no turn has all 15 checkers on " +
      "its starting point, the mover's 24 (G1)",
    [`${board}|own,0,0,0,1,0`]:
      "opp_turns is 0 but opp has moved: a side that has had no turn has all 15 checkers on " +
      "its starting point, the mover's 12 (G1)",
    [`${board}|own,0,0,0,3,1`]:
      "own_turns 3 and opp_turns 1 with own to roll next: turns alternate, so the side to " +
      "roll next has had as many turns as the other or one fewer",
    [`${board}|own,5,4,0,2,3`]:
      "own_turns 2 and opp_turns 3 with opp to roll next: turns alternate, so the side to " +
      "roll next has had as many turns as the other or one fewer",
  };
  for (const [key, message] of Object.entries(refused)) {
    assert.throws(() => positionFromKey(`gulbara/${key}`), { name: "PositionError", message });
  }
  // What a game reaches: the start seen by either side, the first turn played and seen by
  // either side, a climb after the opening, numbers handed over, a finished game's turns.
  for (const key of [
    "24:15|12:15|own,0,0,0,0,0",
    "24:15|12:15|opp,0,0,0,0,0",
    "13:1,24:14|12:15|opp,0,0,0,1,0",
    "24:15|1:1,12:14|own,0,0,0,0,1",
    `${board}|own,6,4,0,3,3`,
    `${board}|own,6,2,1,3,3`,
    `${board}|opp,1,1,1,3,2`,
    `${board}|own,0,0,0,2,3`,
    "|1:4|opp,0,0,0,3,1",
  ]) {
    assert.equal(positionKey(positionFromKey(`gulbara/${key}`)), `gulbara/${key}`);
  }
  // A climbing afterstate seen by the other side is for drawing only: its key is not read.
  const climbing = positionFromKey(`gulbara/${board}|own,6,4,0,3,3`);
  assert.throws(() => positionFromKey(positionKey(flipPosition(climbing))), /not handed/);
});

test("a game that is no name is refused, and the message of wrong keys names only them", () => {
  const gulbara = initialPosition("gulbara");
  for (const game of [["gulbara"], { name: "tabla" }, null, 7, true, "toString"]) {
    const position = { ...gulbara, game };
    const message = `game must be one of tapa, tabla, gulbara, got ${show(game)}`;
    assert.throws(() => checkPosition(position), { name: "PositionError", message });
    assert.throws(() => checkRacePosition(position), { name: "PositionError", message });
  }
  const { opp_off: _, ...missing } = gulbara;
  assert.throws(() => checkPosition(missing), {
    message: "gulbara position keys: missing ['opp_off']",
  });
  assert.throws(() => checkPosition({ ...initialPosition("tabla"), spare: 0, extra: 1 }), {
    message: "tabla position keys: unexpected ['extra', 'spare']",
  });
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
