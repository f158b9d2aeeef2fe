// The encodings of every game of the registry against Python's get_encoding(name, game), bit
// for bit, on the exported positions (afterstates of games and their flips; for the contact
// encodings also random boards rich in contact: Tabla's bars, blots and primes, Tapa's pins,
// primes, back checkers and pinned mothers).

import assert from "node:assert/strict";
import test from "node:test";

import {
  GAME_ENCODINGS,
  encode,
  encodeMany,
  initialPosition,
  positionFromKey,
} from "../js/games.js";
import { GAMES, Mismatches, encodedFile, gameJson, readBytes, readJson } from "./vectors.mjs";

/** The exported keys and the file of `game`'s features by the encoding `name`: each game's
 * own; Tapa's `contact` is exported with the other games' (tests/scripts/
 * export_web_game_vectors.py, `games-encoded.json` under `tapa`), its `raw` and `expert` by
 * Tapa's script (tests/scripts/export_web_vectors.py). */
function encodedVectors(game, name) {
  if (game === "tapa" && name === "contact") {
    return { keys: readJson("games-encoded.json").tapa, file: "games-encoded-tapa-contact.f32" };
  }
  return { keys: gameJson(game, "encoded.json"), file: encodedFile(game, name) };
}

for (const game of GAMES) {
  for (const name of Object.keys(GAME_ENCODINGS[game])) {
    test(`the ${game} ${name} encoding of every exported position is Python's, bit for bit`, () => {
      const { keys, file } = encodedVectors(game, name);
      const { size } = GAME_ENCODINGS[game][name];
      const bytes = readBytes(file);
      const expected = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
      assert.equal(expected.length, keys.length * size);
      assert.ok(keys.length >= 1000, `only ${keys.length} encoded positions`);
      const positions = keys.map(positionFromKey);
      const all = encodeMany(positions, name);
      const mismatches = new Mismatches(`${game} ${name} encodings`);
      positions.forEach((position, i) => {
        const one = encode(position, name);
        for (let f = 0; f < size; f++) {
          const want = expected[i * size + f];
          const ok = Object.is(one[f], want) && Object.is(all[i * size + f], want);
          mismatches.check(ok, () => `${keys[i]} feature ${f}: ${one[f]}, Python ${want}`);
          if (!ok) break;
        }
      });
      mismatches.assertNone();
    });
  }
}

test("the encodings' sizes, versions and refusals", () => {
  assert.deepEqual(
    GAMES.flatMap((game) =>
      Object.values(GAME_ENCODINGS[game]).map(({ version, size }) => `${version} ${size}`),
    ),
    [
      "raw-v1 248",
      "expert-v1 258",
      "tapa-contact-v1 276",
      "tabla-raw-v1 196",
      "tabla-expert-v1 204",
      "tabla-contact-v1 222",
      "gulbara-raw-v1 205",
      "gulbara-expert-v1 211",
      "fevga-raw-v1 196",
      "fevga-expert-v1 204",
    ],
  );
  for (const game of GAMES) {
    // Each encoding is the one before it (raw, expert, contact) with features added.
    const names = Object.keys(GAME_ENCODINGS[game]);
    const encoded = names.map((name) => encode(initialPosition(game), name));
    names.forEach((name, k) => {
      assert.equal(encoded[k].length, GAME_ENCODINGS[game][name].size);
      if (k) {
        const before = Array.from(encoded[k - 1]);
        assert.deepEqual(before, Array.from(encoded[k].slice(0, before.length)));
      }
    });
    assert.throws(
      () => encode(initialPosition(game), "tesauro"),
      /unknown encoding "tesauro"; choose one of raw, expert/,
    );
  }
  const short = new Float32Array(10);
  assert.throws(() => encodeMany([initialPosition()], "raw", short), /out holds 10 values/);
  assert.throws(
    () => encodeMany([initialPosition("tabla"), initialPosition("gulbara")], "raw"),
    /positions of one game: tabla, not gulbara/,
  );
});
