// Positions of every game of the registry against Python's Position: the key, its reading
// back, the flip, and the checks of the interchange format with their messages.

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
import { showPython as show } from "../js/core/position.js";
import { GAMES, Mismatches, gameFiles, gameLines, readJson } from "./vectors.mjs";

/** The message of the `PositionError` that `checkPosition(position)` throws, or null. */
function refusal(position) {
  try {
    checkPosition(position);
  } catch (raised) {
    if (!(raised instanceof PositionError)) throw raised;
    return raised.message;
  }
  return null;
}

test("the key, the key read back and the flip of every exported position are Python's", () => {
  const mismatches = new Mismatches("positions");
  for (const game of GAMES) {
    const lines = gameLines(game, "turns.jsonl");
    assert.ok(lines.length > 0, `no ${game} positions`);
    for (const line of lines) {
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
  }
  mismatches.assertNone();
});

/** Which refusals are in Python's words: Tabla's and Gulbara's all, Tapa's those of wrong
 * keys (its other messages are its own). */
const WORD_FOR_WORD = {
  "bad-positions.json": (error) => error.startsWith("tapa position keys: "),
  "games-bad-positions.json": () => true,
};

test("every dict that Python's Position.from_dict refuses is refused, with its message", () => {
  const mismatches = new Mismatches("refusals");
  const cases = [];
  for (const file of gameFiles("bad-positions.json")) {
    const refused = readJson(file);
    assert.ok(refused.length > 100, `only ${refused.length} refused positions in ${file}`);
    for (const { position, error } of refused) {
      const message = refusal(position);
      const worded = WORD_FOR_WORD[file](error);
      mismatches.check(
        message !== null && (!worded || message === error),
        () => `${JSON.stringify(position)}: ${message}, Python ${error}`,
      );
      cases.push(error);
    }
  }
  mismatches.assertNone();
  // Among them: keys only missing, only unexpected and both, a game that is no name, and each
  // kind of Gulbara turn state that no game reaches.
  const errors = cases;
  const kinds = [
    /^tapa position keys: missing \['opp_off'\]$/,
    /^tapa position keys: unexpected \['extra'\]$/,
    /^tapa position keys: missing \['own_pinned'\], unexpected \['extra', 'zeta'\]$/,
    /^gulbara position keys: missing \['opp_off'\]$/,
    /^tabla position keys: unexpected \['extra'\]$/,
    /^gulbara position keys: missing \['own_off', 'opp_off'\], unexpected \['extra', 'zeta'\]$/,
    /^game must be one of tapa, tabla, gulbara, fevga, got \['gulbara'\]$/,
    /^game must be one of tapa, tabla, gulbara, fevga, got None$/,
    /^fevga position: 'next': Fevga keeps no turn state: every turn is its mover's roll$/,
    /^fevga position: 'own_bar': in Fevga nothing is hit, so there is no bar$/,
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

test("a missing or unknown key is refused in Python's words, naming only what is wrong", () => {
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
    const message = `game must be one of tapa, tabla, gulbara, fevga, got ${show(game)}`;
    assert.throws(() => checkPosition(position), { name: "PositionError", message });
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
