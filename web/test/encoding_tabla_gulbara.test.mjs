// Tabla's and Gulbara's encodings against Python's get_encoding(name, game), bit for bit, on
// the exported positions (afterstates of games and their flips).

import assert from "node:assert/strict";
import test from "node:test";

import {
  GAME_ENCODINGS as ENCODINGS,
  encode,
  encodeMany,
  initialPosition,
  positionFromKey,
} from "../js/games.js";
import { Mismatches, readBytes, readJson } from "./vectors.mjs";

for (const game of ["tabla", "gulbara"]) {
  for (const name of ["raw", "expert"]) {
    test(`the ${game} ${name} encoding of every exported position is Python's, bit for bit`, () => {
      const keys = readJson("games-encoded.json")[game];
      const { size } = ENCODINGS[game][name];
      const bytes = readBytes(`games-encoded-${game}-${name}.f32`);
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
    [ENCODINGS.tabla.raw, ENCODINGS.tabla.expert, ENCODINGS.gulbara.raw, ENCODINGS.gulbara.expert]
      .map(({ version, size }) => `${version} ${size}`),
    ["tabla-raw-v1 196", "tabla-expert-v1 204", "gulbara-raw-v1 205", "gulbara-expert-v1 211"],
  );
  assert.equal(encode(initialPosition("gulbara"), "expert").length, 211);
  assert.throws(() => encode(initialPosition("tabla"), "tesauro"), /unknown encoding "tesauro"/);
  assert.throws(
    () => encodeMany([initialPosition("tabla"), initialPosition("gulbara")], "raw"),
    /positions of one game: tabla, not gulbara/,
  );
});
