// The API of web/js/tapa.js (Tapa) and web/js/games.js (the three games) is what docs/web.md
// documents, and does what it says there.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import * as games from "../js/games.js";
import * as tapa from "../js/tapa.js";

// The rules' modules are documented up to the page's section; the page and the bot follow.
const DOC = readFileSync(new URL("../../docs/web.md", import.meta.url), "utf8").split(
  /^## The page$/m,
)[0];

/** The names docs/web.md documents: the first cell of its tables and its `###` headings. */
function documentedNames() {
  const cells = [...DOC.matchAll(/^\| ([^|]*(?:\\\|[^|]*)*) \|/gm)].map((match) => match[1]);
  const headings = [...DOC.matchAll(/^### `([^`]+)`/gm)].map((match) => `\`${match[1]}\``);
  const names = new Set();
  for (const text of [...cells, ...headings]) {
    for (const [, code] of text.matchAll(/`([^`]+)`/g)) {
      const name = code.replace(/^new /, "").match(/^[A-Za-z_]\w*/)?.[0];
      const module = code.includes("/") || code.endsWith(".js");
      if (name && !module && !code.startsWith("turn.")) names.add(name);
    }
  }
  return names;
}

test("web/js/tapa.js and web/js/games.js export exactly the names docs/web.md documents", () => {
  const documented = documentedNames();
  const exported = new Set([...Object.keys(tapa), ...Object.keys(games)]);
  const undocumented = [...exported].filter((name) => !documented.has(name));
  const missing = [...documented].filter((name) => !exported.has(name));
  assert.deepEqual(undocumented, [], "exported but not in docs/web.md");
  assert.deepEqual(missing, [], "in docs/web.md but not exported");
});

test("the examples of docs/web.md give what it says", () => {
  const start = tapa.initialPosition();
  assert.deepEqual(
    tapa.notatedPlays(start, [6, 5]).map((play) => play.text),
    ["24/18/13", "24/19 24/18"],
  );
  assert.equal(tapa.positionKey(tapa.parsePlay("24/13", start, [6, 5])), "13:1,24:14|1:15|");
  assert.throws(
    () => tapa.parsePlay("24/20", start, [6, 5]),
    {
      name: "NotationError",
      message: "'24/20': 24/20 is 4 pips, but with 6-5 a checker moves 5, 6 or 11",
    },
  );
  assert.deepEqual(tapa.pipCounts(start), [360, 360]);
  const turn = new tapa.CheckerTurn(start, [6, 5]);
  turn.play(24, 6);
  assert.equal(turn.play(18, 5), true);
  assert.equal(tapa.playText(turn.start, turn.dice, turn.position), "24/18/13");
  assert.deepEqual(tapa.checkRules({ both_mothers_draw: false }), {
    ...tapa.DEFAULT_RULES,
    both_mothers_draw: false,
  });
});

test("the order of the dice changes no afterstate, only, at most, their order", () => {
  let position = tapa.initialPosition();
  for (let turn = 0; turn < 60; turn++) {
    for (let a = 1; a <= 6; a++) {
      for (let b = a + 1; b <= 6; b++) {
        const one = tapa.legalPlays(position, [a, b]).map(tapa.positionKey).sort();
        const other = tapa.legalPlays(position, [b, a]).map(tapa.positionKey).sort();
        assert.deepEqual(one, other);
      }
    }
    const plays = tapa.legalPlays(position, [1 + (turn % 6), 1 + ((turn * 5) % 6)]);
    const chosen = plays[(turn * 7) % plays.length];
    if (tapa.outcome(chosen)) break;
    position = tapa.flipPosition(chosen);
  }
});

test("games.js plays Tapa exactly as tapa.js does, and the other games by their positions", () => {
  let position = tapa.initialPosition();
  for (let turn = 0; turn < 40; turn++) {
    const dice = [1 + (turn % 6), 1 + ((turn * 5) % 6)];
    const keys = tapa.legalPlays(position, dice).map(tapa.positionKey);
    assert.deepEqual(games.legalPlays(position, dice).map(games.positionKey), keys);
    const chosen = tapa.legalPlays(position, dice)[(turn * 7) % keys.length];
    assert.deepEqual(games.outcome(chosen), tapa.outcome(chosen));
    if (tapa.outcome(chosen)) break;
    assert.deepEqual(games.nextTurn(chosen), { position: tapa.flipPosition(chosen), passed: true });
    position = tapa.flipPosition(chosen);
  }
  for (const game of ["tabla", "gulbara"]) {
    const start = games.initialPosition(game);
    assert.equal(games.gameOf(start), game);
    assert.equal(games.checkerTurn(start, [6, 5]).done, false);
    assert.equal(games.encode(start, "raw").length, games.encodingOf("raw", game).size);
  }
  assert.throws(
    () => games.initialPosition("chess"),
    /game must be one of tapa, tabla, gulbara, fevga/,
  );
  // docs/web.md's example: Tabla's 6-5 from the start, the seven plays a player counts.
  const texts = games.notatedPlays(games.initialPosition("tabla"), [6, 5]).map((p) => p.text);
  assert.deepEqual(texts.sort(), [
    "13/7 8/3", "13/7/2", "13/8 13/7", "24/18 13/8", "24/18 8/3", "24/18/13", "8/3 8/2",
  ]);
});
