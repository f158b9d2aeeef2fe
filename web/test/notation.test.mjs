// The notation of every game of the registry against Python's tapa_env.notation: the text,
// afterstate and moves of every play of the exported turns, and what parse_play makes of
// texts, errors included, word for word.

import assert from "node:assert/strict";
import test from "node:test";

import {
  NotationError,
  initialPosition,
  notatedPlays,
  parsePlay,
  playText,
  positionFromKey,
  positionKey,
} from "../js/games.js";
import { GAMES, Mismatches, gameLines, rulesName } from "./vectors.mjs";

test("the text, afterstate and moves of every play of the exported turns are Python's", () => {
  const mismatches = new Mismatches("turns' plays");
  let plays = 0;
  const marks = new Set();
  for (const game of GAMES) {
    for (const line of gameLines(game, "plays.jsonl")) {
      const position = positionFromKey(line.key);
      const found = notatedPlays(position, line.dice, line.rules).map((play) => [
        play.text,
        positionKey(play.afterstate),
        play.moves,
      ]);
      plays += found.length;
      for (const [text] of found) {
        if (text.includes("*")) marks.add(`${game} *`);
        if (text.startsWith("bar/")) marks.add(`${game} bar`);
        if (text.includes("off")) marks.add(`${game} off`);
      }
      mismatches.check(JSON.stringify(found) === JSON.stringify(line.plays), () => {
        const first = found.findIndex(
          (play, i) => JSON.stringify(play) !== JSON.stringify(line.plays[i]),
        );
        return (
          `${line.key} dice ${line.dice} rules ${rulesName(line.rules, game)}: play ${first} ` +
          `is ${JSON.stringify(found[first])}, Python ${JSON.stringify(line.plays[first])}`
        );
      });
    }
  }
  mismatches.assertNone();
  assert.ok(plays > 12000, `only ${plays} plays`);
  for (const mark of ["tapa *", "tapa off", "tabla *", "tabla bar", "tabla off"]) {
    assert.ok(marks.has(mark), `no play written with ${mark}`);
  }
});

test("parsePlay reads every exported text as Python's parse_play, errors word for word", () => {
  const mismatches = new Mismatches("texts read");
  let errors = 0;
  for (const game of GAMES) {
    for (const line of gameLines(game, "parse.jsonl")) {
      const position = positionFromKey(line.key);
      let found;
      try {
        const afterstate = parsePlay(line.text, position, line.dice, line.rules);
        found = { afterstate: positionKey(afterstate), error: null };
      } catch (error) {
        if (!(error instanceof NotationError)) throw error;
        found = { afterstate: null, error: error.message };
        errors += 1;
      }
      mismatches.check(found.afterstate === line.afterstate && found.error === line.error, () =>
        `${JSON.stringify(line.text)} in ${line.key} dice ${line.dice}: ` +
        `${JSON.stringify(found)}, ` +
        `Python ${JSON.stringify({ afterstate: line.afterstate, error: line.error })}`,
      );
    }
  }
  mismatches.assertNone();
  assert.ok(errors > 200, `only ${errors} refused texts`);
  const starred = gameLines("gulbara", "parse.jsonl").filter((line) =>
    line.error?.includes("a * marks a hit"),
  );
  assert.ok(starred.length > 0, "no Gulbara text with a * among the exported ones");
});

test("playText names one afterstate and refuses others", () => {
  const start = initialPosition();
  const [after] = notatedPlays(start, [6, 5]).map((play) => play.afterstate);
  assert.equal(playText(start, [6, 5], after), "24/18/13");
  assert.throws(() => playText(start, [6, 5], start), /is not a legal afterstate of 6-5/);
  assert.throws(() => parsePlay(42, start, [6, 5]), NotationError);
});

test("T4: a hit on the way and the same checkers by the other route are two plays", () => {
  // docs/rules.md, Tabla worked example 2.
  const position = positionFromKey("tabla/6:13,13:2|1:2,2:2,3:2,4:2,5:2,9:1,20:4|0,0");
  const texts = notatedPlays(position, [4, 2]).map((play) => play.text).sort();
  assert.deepEqual(texts, ["13/11 13/9*", "13/11/7", "13/9*/7"]);
  const hit = parsePlay("13/9*/7", position, [4, 2]);
  assert.equal(hit.opp_bar, 1);
  assert.equal(parsePlay("13/11/7", position, [4, 2]).opp_bar, 0);
  // Without a star the text names the play that hits nothing.
  assert.equal(parsePlay("13/7", position, [4, 2]).opp_bar, 0);
  assert.equal(playText(position, [4, 2], hit), "13/9*/7");
});

test("Gulbara has no bar, and a play's text names its climb's dice", () => {
  const start = initialPosition("gulbara");
  assert.throws(() => parsePlay("bar/20", start, [6, 5]), /Gulbara has no bar/);
  assert.throws(() => parsePlay("bar/20*", start, [6, 5]), /Gulbara has no bar/);
  // Nothing is hit in Gulbara, so a * is refused, wherever it stands and however spaced.
  const words = {
    "24/19*": "24/19*",
    "24/18 24/19 *": "24/19*",
    "24/19*/13": "24/19*/13",
    "24/13*": "24/13*",
  };
  for (const [text, word] of Object.entries(words)) {
    assert.throws(() => parsePlay(text, start, [6, 5]), {
      name: "NotationError",
      message:
        `'${word}': a * marks a hit, and in Gulbara nothing is hit or pinned (one checker ` +
        "holds a point and nothing is hit); write the move without it",
    });
  }
  assert.equal(positionKey(parsePlay("24/19 24/18", start, [6, 5])), positionKey(
    parsePlay("24/18 24/19", start, [6, 5]),
  ));
  const texts = notatedPlays(start, [6, 5]).map((play) => play.text);
  assert.ok(texts.includes("24/18/13") && texts.includes("24/19 24/18"), texts.join(", "));
});
