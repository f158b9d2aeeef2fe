// Reads the vectors that tests/scripts/export_web_vectors.py writes from the Python engine.
// The directory is named by the environment variable TAPA_WEB_VECTORS:
//
//   python tests/scripts/export_web_vectors.py /tmp/tapa-web-vectors
//   TAPA_WEB_VECTORS=/tmp/tapa-web-vectors node --test web/test/
//
// No tests here (node --test runs every module under web/test/; this one only defines
// functions).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const VARIABLE = "TAPA_WEB_VECTORS";

/** The vector directory, or an Error saying how to write one. */
export function vectorDir() {
  const dir = process.env[VARIABLE];
  const how =
    "write the vectors with `python tests/scripts/export_web_vectors.py DIR`, then run " +
    `\`${VARIABLE}=DIR node --test web/test/\``;
  if (!dir) throw new Error(`${VARIABLE} is not set: ${how}`);
  if (!existsSync(join(dir, "summary.json"))) {
    throw new Error(`${VARIABLE}=${dir} holds no summary.json of the vectors: ${how}`);
  }
  return dir;
}

/** A JSON file of the vector directory. */
export function readJson(name) {
  return JSON.parse(readFileSync(join(vectorDir(), name), "utf8"));
}

/** The lines of a JSON Lines file of the vector directory. */
export function readJsonl(name) {
  return readFileSync(join(vectorDir(), name), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** A binary file of the vector directory. */
export function readBytes(name) {
  return readFileSync(join(vectorDir(), name));
}

/** The rule flags that differ from the default, for messages ("default" when none do). */
export function rulesName(rules) {
  const changed = Object.entries(rules)
    .filter(([, value]) => value !== true)
    .map(([flag, value]) => `${flag}=${value}`);
  return changed.length ? changed.join(",") : "default";
}

/**
 * Collects the cases that go wrong, so that a test reports how many did and the first few,
 * rather than stopping at the first.
 */
export class Mismatches {
  constructor(what) {
    this.what = what;
    this.found = [];
    this.wrong = 0;
    this.checked = 0;
  }

  check(ok, describe) {
    this.checked += 1;
    if (!ok) {
      this.wrong += 1;
      if (this.found.length < 8) this.found.push(describe());
    }
  }

  assertNone() {
    if (this.wrong) {
      const shown = this.found.join("\n  ");
      const count = `${this.wrong} of ${this.checked} ${this.what}`;
      throw new Error(`${count} differ from Python's:\n  ${shown}`);
    }
    if (!this.checked) throw new Error(`no ${this.what} were checked`);
  }
}
