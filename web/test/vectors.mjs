// Reads the vectors that tests/scripts/export_web_vectors.py (Tapa),
// tests/scripts/export_web_game_vectors.py (Tabla and Gulbara) and
// tests/scripts/export_web_match.py (the match) write from the Python engine.
// The directory is named by the environment variable TAPA_WEB_VECTORS:
//
//   python tests/scripts/export_web_vectors.py /tmp/tapa-web-vectors
//   python tests/scripts/export_web_game_vectors.py /tmp/tapa-web-vectors
//   TAPA_WEB_VECTORS=/tmp/tapa-web-vectors node --test web/test/
//
// No tests here (node --test runs every module under web/test/; this one only defines
// functions).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { DEFAULT_GAME, GAMES, GAME_RULES, REGISTRY } from "../js/games.js";

export { GAMES };

export const VARIABLE = "TAPA_WEB_VECTORS";

/** The vector directory, or an Error saying how to write one. The match's vectors
 * (`match-*`) may be alone in it, with their own summary. */
export function vectorDir(summary = "summary.json") {
  const dir = process.env[VARIABLE];
  const script =
    summary === "summary.json" ? "export_web_vectors.py DIR" : "export_web_match.py --vectors DIR";
  const how =
    `write the vectors with \`python tests/scripts/${script}\`, then run ` +
    `\`${VARIABLE}=DIR node --test web/test/\``;
  if (!dir) throw new Error(`${VARIABLE} is not set: ${how}`);
  if (!existsSync(join(dir, summary))) {
    throw new Error(`${VARIABLE}=${dir} holds no ${summary} of the vectors: ${how}`);
  }
  return dir;
}

/** The path of a vector file; Tabla's, Gulbara's and Tapa's contact ones (`games-*`) are
 * written by their own script, which an Error names when they are missing, and so are the
 * match's (`match-*`). */
function vectorFile(name) {
  if (name.startsWith("match-")) return join(vectorDir("match-summary.json"), name);
  const path = join(vectorDir(), name);
  if (name.startsWith("games-") && !existsSync(path)) {
    throw new Error(
      `${VARIABLE} holds no ${name}: write the vectors of Tabla, Gulbara and Tapa's ` +
        "contact encoding with " +
        "`python tests/scripts/export_web_game_vectors.py DIR` into the same directory",
    );
  }
  return path;
}

/** A JSON file of the vector directory. */
export function readJson(name) {
  return JSON.parse(readFileSync(vectorFile(name), "utf8"));
}

/** The lines of a JSON Lines file of the vector directory. */
export function readJsonl(name) {
  return readFileSync(vectorFile(name), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** A binary file of the vector directory. */
export function readBytes(name) {
  return readFileSync(vectorFile(name));
}

/** The rule flags of a line of `game` that differ from the game's default, for messages
 * ("default" when none do). */
export function rulesName(rules, game = DEFAULT_GAME) {
  const defaults = GAME_RULES[game];
  const changed = Object.entries(rules)
    .filter(([flag, value]) => defaults[flag] !== value)
    .map(([flag, value]) => `${flag}=${value}`);
  return changed.length ? changed.join(",") : "default";
}

// Each game's vectors: the default game's (Tapa's) as tests/scripts/export_web_vectors.py
// writes them, the others' (`games-*`, each line naming its game) as
// tests/scripts/export_web_game_vectors.py writes them.

/** The name of `game`'s vector file `name` (`turns.jsonl`, `plays.jsonl`, ...). */
export function gameFile(game, name) {
  return REGISTRY[game].keyed ? `games-${name}` : name;
}

/** The lines of `game` in its JSON Lines file `name`. */
export function gameLines(game, name) {
  return readJsonl(gameFile(game, name)).filter((line) => (line.game ?? DEFAULT_GAME) === game);
}

/** A JSON file of `game` that holds a value a game (or, Tapa's, its own value alone). */
export function gameJson(game, name) {
  const value = readJson(gameFile(game, name));
  return REGISTRY[game].keyed && !Array.isArray(value) ? value[game] : value;
}

/** The vector files named `name` of all games, each once (`bad-positions.json`: Tapa's, and
 * the others' together). */
export function gameFiles(name) {
  return [...new Set(GAMES.map((game) => gameFile(game, name)))];
}

/** The name of the file of `game`'s features by the encoding `name`. */
export function encodedFile(game, name) {
  return REGISTRY[game].keyed ? `games-encoded-${game}-${name}.f32` : `encoded-${name}.f32`;
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
