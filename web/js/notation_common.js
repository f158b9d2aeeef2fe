// What the notation of the three games shares (web/js/notation.js for Tapa,
// web/js/notation_tabla_gulbara.js for Tabla and Gulbara): writing a play's checker paths and
// reading a text's words, as Python's tapa_env/notation.py does, with its messages.

import { POINTS } from "./position.js";

/** The point a borne-off checker moves to, in a play's `moves`. */
export const OFF = 0;
/** The text of a turn without a legal play (R12). */
export const PASS = "pass";
export const LISTED = 8; // an error lists the legal plays when there are at most this many
export const HELP = "write moves such as 24/18 13/8, 13/8*/5, 6/off, 13/7(2), or pass";

/** A play's text that cannot be read, or that matches no legal play of the turn. */
export class NotationError extends Error {
  constructor(message) {
    super(message);
    this.name = "NotationError";
  }
}

/** Tabla's bar as a move's source point: a checker entering from it is written `bar/22`. */
export const BAR_POINT = POINTS + 1;

/** The checkers' paths: a move from a point a checker reached this turn continues its path.
 * Each path is `[points, marks]`: the points it touched, first to last, and for each point
 * after the first whether landing there pinned. */
export function chains(moves) {
  const paths = [];
  for (const [source, target, pins] of moves) {
    let extended = false;
    for (let i = paths.length - 1; i >= 0; i--) {
      const [points, marks] = paths[i];
      if (points[points.length - 1] === source) {
        points.push(target);
        marks.push(pins);
        extended = true;
        break;
      }
    }
    if (!extended) paths.push([[source, target], [pins]]);
  }
  return paths;
}

/** Python's ordering of tuples (of numbers, booleans and tuples): -1, 0 or 1. */
export function compare(a, b) {
  if (Array.isArray(a)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a[i], b[i]);
      if (c) return c;
    }
    return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  }
  return +a < +b ? -1 : +a > +b ? 1 : 0;
}

/** The text of a play's paths: highest first, repeated paths counted, `pass` if none. */
export function writePaths(paths) {
  if (!paths.length) return PASS;
  const merged = new Map();
  for (const [points, marks] of paths) {
    const name = points.join("/");
    const entry = merged.get(name) ?? { points, count: 0, marks: marks.map(() => false) };
    entry.count += 1;
    entry.marks = entry.marks.map((mark, i) => mark || marks[i]);
    merged.set(name, entry);
  }
  const entries = [...merged.values()].sort((a, b) => compare(b.points, a.points));
  return entries
    .map(({ points, count, marks }) => {
      let text = points[0] === BAR_POINT ? "bar" : String(points[0]);
      points.slice(1).forEach((point, i) => {
        text += `/${point || "off"}${marks[i] ? "*" : ""}`;
      });
      return text + (count > 1 ? `(${count})` : "");
    })
    .join(" ");
}

/** Orders the texts of one afterstate: fewest checkers moved, higher points first, a
 * checker's larger die first (lower intermediate points), and of two checkers that land on
 * the same lone opponent checker, the first written pins it. */
export function preference(paths) {
  const keys = paths
    .map(([points, marks]) => [[-points[0], ...points.slice(1)], marks.map((m) => !m)])
    .sort(compare);
  return [paths.length, keys];
}

export const PATH = /^([^()]+?)(?:\(([0-9]+)\))?$/;
export const POINT = /^([0-9]+|off|bar)\*?$/;

/** A string as Python's `repr` writes it, for messages identical to Python's. */
export function repr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === "\\" || char === quote) out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return quote + out + quote;
}

/** Lower case, no spaces around `/`, `*` and the count's brackets. */
export function normalise(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/\s*\/\s*/g, "/")
    .replace(/\s*\(\s*/g, "(")
    .replace(/\s*\)/g, ")")
    .replace(/\s+\*/g, "*");
}

/** The pips one checker can move in a turn of `dice`: one die, or several in a row. */
export function steps([first, second]) {
  if (first === second) return [1, 2, 3, 4].map((n) => first * n);
  return [first, second, first + second].sort((a, b) => a - b);
}
