/**
 * What the positions of every game share (docs/formats.md): 24 points, 15 checkers a side, seen
 * from the side to move, `own[i]` and `opp[i]` the checkers on the mover's point i + 1. Each
 * game (web/js/games/) checks the rest of its keys with these, in Python's words.
 */

export const POINTS = 24;
export const CHECKERS = 15;
/** The points of a side's home, its points 1-6 (R7, T7, G8). */
export const HOME = 6;
/** The bar as a move's source point: a checker entering from it is written `bar/22`. */
export const BAR_POINT = POINTS + 1;

/** The point half the board round, `q` + 12 modulo 24 (1-24): where an opponent that runs the
 * same way round (Gulbara's) has its point `q` in the mover's numbering, and back. */
export function halfTurn(q) {
  return q <= POINTS / 2 ? q + POINTS / 2 : q - POINTS / 2;
}

/** The point `p` seen from the other side of a board both sides run round in opposite
 * directions: 25 - p. */
export function mirror(p) {
  return POINTS + 1 - p;
}

/** The pip counts `[mover, opponent]` of the checkers on the points: the mover's checker on
 * point p has p pips to go, the opponent's as many as its own number of the point,
 * `theirs(p)` (`mirror`, or `halfTurn` where both run the same way round). */
export function countPips(position, theirs) {
  let own = 0;
  let opp = 0;
  for (let i = 0; i < POINTS; i++) {
    own += position.own[i] * (i + 1);
    opp += position.opp[i] * theirs(i + 1);
  }
  return [own, opp];
}

/** A position that breaks the interchange format or cannot arise in a game. */
export class PositionError extends Error {
  constructor(message) {
    super(message);
    this.name = "PositionError";
  }
}

/** A value as JSON writes it (Tapa's messages). */
export function showJson(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A string as Python's `repr` writes it, quotes and backslashes escaped. */
export function quoted(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  return quote + text.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`) + quote;
}

/** A value as Python's `repr` writes the JSON value it was read from, so that messages are
 * Python's word for word. */
export function showPython(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return quoted(value);
  if (Array.isArray(value)) return `[${value.map(showPython).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${showPython(k)}: ${showPython(v)}`);
    return `{${entries.join(", ")}}`;
  }
  return String(value);
}

export const total = (counts) => counts.reduce((a, b) => a + b, 0);

/** `value` when it is an integer, else a `PositionError` naming `what` (written by `show`). */
export function checkInt(value, what, show) {
  if (!Number.isInteger(value)) {
    throw new PositionError(`${what} must be an integer, got ${show(value)}`);
  }
}

/** Check that `own` and `opp` are lists of 24 counts of 0 to 15. */
export function checkCounts(position, show) {
  for (const side of ["own", "opp"]) {
    const counts = position[side];
    if (!Array.isArray(counts) || counts.length !== POINTS) {
      throw new PositionError(`'${side}' must be a list of ${POINTS} counts, got ${show(counts)}`);
    }
    counts.forEach((count, index) => {
      checkInt(count, `${side}[${index}] (point ${index + 1})`, show);
      if (count < 0 || count > CHECKERS) {
        throw new PositionError(
          `${side}[${index}] (point ${index + 1}) has ${count} checkers; ` +
            `a point holds 0 to ${CHECKERS}`,
        );
      }
    });
  }
}

/** Check that each side's borne-off checkers and `left` (on the board, and a bar) make 15;
 * `where` says where `left` is. */
export function checkBorneOff(position, left, where, show) {
  ["own", "opp"].forEach((side, index) => {
    const off = position[`${side}_off`];
    checkInt(off, `${side}_off`, show);
    if (off + left[index] !== CHECKERS) {
      throw new PositionError(
        `${side}: ${left[index]} checkers ${where} and ${off} borne off make ` +
          `${off + left[index]}, not ${CHECKERS}`,
      );
    }
  });
}

/** The key's text of both sides' counts, `own|opp`: `point:count` pairs, points ascending. */
export function countsKey(position) {
  const own = [];
  const opp = [];
  for (let i = 0; i < POINTS; i++) {
    if (position.own[i]) own.push(`${i + 1}:${position.own[i]}`);
    if (position.opp[i]) opp.push(`${i + 1}:${position.opp[i]}`);
  }
  return `${own.join(",")}|${opp.join(",")}`;
}

const NUMBER = /^[0-9]+$/;

/** Whether `text` is a whole number written with digits only. */
export const isNumber = (text) => NUMBER.test(text);

/** The 24 counts of one side of a key (`point:count` pairs), checked; `key` the whole key. */
export function readCounts(text, key, show) {
  const counts = new Array(POINTS).fill(0);
  const seen = new Set();
  for (const pair of text.split(",").filter(Boolean)) {
    const colon = pair.indexOf(":");
    const point = colon < 0 ? pair : pair.slice(0, colon);
    const count = colon < 0 ? "" : pair.slice(colon + 1);
    if (!NUMBER.test(point) || !NUMBER.test(count) || +point < 1 || +point > POINTS) {
      throw new PositionError(`bad 'point:count' pair ${show(pair)} in key ${show(key)}`);
    }
    if (seen.has(point)) {
      throw new PositionError(`point ${point} appears twice in key ${show(key)}`);
    }
    seen.add(point);
    counts[+point - 1] = +count;
  }
  return counts;
}

/** The first 48 values of a position row: own counts, then opponent counts. */
export function countsRow(position) {
  const row = new Int8Array(3 * POINTS);
  for (let i = 0; i < POINTS; i++) {
    row[i] = position.own[i];
    row[POINTS + i] = position.opp[i];
  }
  return row;
}
