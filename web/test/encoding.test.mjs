// Both encodings against Python's tapa_env.encoding, bit for bit, on the exported positions
// (afterstates of games and their flips).

import assert from "node:assert/strict";
import test from "node:test";

import { ENCODINGS, encode, encodeMany } from "../js/encoding.js";
import { initialPosition, positionFromKey } from "../js/position.js";
import { Mismatches, readBytes, readJson } from "./vectors.mjs";

for (const name of Object.keys(ENCODINGS)) {
  test(`the ${name} encoding of every exported position is Python's, bit for bit`, () => {
    const keys = readJson("encoded.json");
    const { size } = ENCODINGS[name];
    const bytes = readBytes(`encoded-${name}.f32`);
    const expected = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    assert.equal(expected.length, keys.length * size);
    assert.ok(keys.length >= 10000, `only ${keys.length} encoded positions`);
    const positions = keys.map(positionFromKey);
    const all = encodeMany(positions, name);
    const mismatches = new Mismatches(`${name} encodings`);
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

test("the encodings' sizes and refusals", () => {
  assert.equal(ENCODINGS.raw.size, 248);
  assert.equal(ENCODINGS.expert.size, 258);
  assert.equal(ENCODINGS.expert.version, "expert-v1");
  const start = encode(initialPosition(), "expert");
  assert.equal(start.length, 258);
  assert.deepEqual(Array.from(encode(initialPosition(), "raw")), Array.from(start.slice(0, 248)));
  assert.throws(
    () => encode(initialPosition(), "tesauro"),
    /unknown encoding "tesauro"; choose one of raw, expert/,
  );
  const short = new Float32Array(10);
  assert.throws(() => encodeMany([initialPosition()], "raw", short), /out holds 10 values/);
});
