// The notation against Python's tapa_env.notation: the text, afterstate and moves of every
// play of the exported turns, and what parse_play makes of texts, errors included.

import assert from "node:assert/strict";
import test from "node:test";

import { NotationError, notatedPlays, parsePlay, playText } from "../js/notation.js";
import { initialPosition, positionFromKey, positionKey } from "../js/position.js";
import { Mismatches, readJsonl, rulesName } from "./vectors.mjs";

test("the text, afterstate and moves of every play of the exported turns are Python's", () => {
  const mismatches = new Mismatches("turns' plays");
  let plays = 0;
  for (const line of readJsonl("plays.jsonl")) {
    const position = positionFromKey(line.key);
    const found = notatedPlays(position, line.dice, line.rules).map((play) => [
      play.text,
      positionKey(play.afterstate),
      play.moves,
    ]);
    plays += found.length;
    mismatches.check(JSON.stringify(found) === JSON.stringify(line.plays), () => {
      const first = found.findIndex(
        (play, i) => JSON.stringify(play) !== JSON.stringify(line.plays[i]),
      );
      return (
        `${line.key} dice ${line.dice} rules ${rulesName(line.rules)}: play ${first} is ` +
        `${JSON.stringify(found[first])}, Python ${JSON.stringify(line.plays[first])}`
      );
    });
  }
  mismatches.assertNone();
  assert.ok(plays > 10000, `only ${plays} plays`);
});

test("parsePlay reads every exported text as Python's parse_play, errors word for word", () => {
  const mismatches = new Mismatches("texts read");
  let errors = 0;
  for (const line of readJsonl("parse.jsonl")) {
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
      `${JSON.stringify(line.text)} in ${line.key} dice ${line.dice}: ${JSON.stringify(found)}, ` +
      `Python ${JSON.stringify({ afterstate: line.afterstate, error: line.error })}`,
    );
  }
  mismatches.assertNone();
  assert.ok(errors > 100, `only ${errors} refused texts`);
});

test("playText names one afterstate and refuses others", () => {
  const start = initialPosition();
  const [after] = notatedPlays(start, [6, 5]).map((play) => play.afterstate);
  assert.equal(playText(start, [6, 5], after), "24/18/13");
  assert.throws(() => playText(start, [6, 5], start), /is not a legal afterstate of 6-5/);
  assert.throws(() => parsePlay(42, start, [6, 5]), NotationError);
});
