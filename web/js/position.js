/**
 * Positions in the JSON interchange format of docs/formats.md, always seen from the side to
 * move (the mover): its checkers travel from point 24 down to 1 and are borne off below 1; the
 * opponent's start on the mover's point 1 and travel up.
 *
 *   { own: [24 counts], opp: [24 counts], own_pinned: [points], opp_pinned: [points],
 *     own_off: n, opp_off: n }
 *
 * `own[i]` and `opp[i]` count the checkers on point i + 1 (mover's numbering, pinned ones
 * included); `own_pinned` lists the points where a mover checker lies pinned, `opp_pinned`
 * those where an opponent checker does, both ascending. Functions here never change the
 * objects they are given and always return new ones.
 */

export const POINTS = 24;
export const CHECKERS = 15;

const KEYS = ["own", "opp", "own_pinned", "opp_pinned", "own_off", "opp_off"];

/** A position that breaks the interchange format or cannot arise in a game. */
export class PositionError extends Error {
  constructor(message) {
    super(message);
    this.name = "PositionError";
  }
}

/** The starting position (R1): 15 checkers on the mover's 24, 15 on the mover's 1. */
export function initialPosition() {
  const own = new Array(POINTS).fill(0);
  const opp = new Array(POINTS).fill(0);
  own[POINTS - 1] = CHECKERS;
  opp[0] = CHECKERS;
  return { own, opp, own_pinned: [], opp_pinned: [], own_off: 0, opp_off: 0 };
}

function show(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A key as Python's `repr` writes a string, so that the message of a wrong key is Python's. */
function quoted(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  return quote + text.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`) + quote;
}

function checkInt(value, what) {
  if (!Number.isInteger(value)) {
    throw new PositionError(`${what} must be an integer, got ${show(value)}`);
  }
}

/**
 * Throw a `PositionError` naming the first way `position` is not a position of the
 * interchange format (the checks of Python's `Position.from_dict`); return it otherwise.
 */
export function checkPosition(position) {
  if (position === null || typeof position !== "object" || Array.isArray(position)) {
    throw new PositionError(
      `a position is an object with keys ${KEYS.join(", ")}, got ${show(position)}`,
    );
  }
  const missing = KEYS.filter((k) => !(k in position));
  // `game` may name Tapa, as Python's `Position.from_dict` accepts (games.js reads it).
  const extra = Object.keys(position)
    .filter((k) => !KEYS.includes(k) && !(k === "game" && position.game === "tapa"))
    .sort();
  if (missing.length || extra.length) {
    const wrong = [["missing", missing], ["unexpected", extra]]
      .filter(([, names]) => names.length)
      .map(([what, names]) => `${what} [${names.map(quoted).join(", ")}]`);
    throw new PositionError(`tapa position keys: ${wrong.join(", ")}`);
  }
  for (const side of ["own", "opp"]) {
    const counts = position[side];
    if (!Array.isArray(counts) || counts.length !== POINTS) {
      throw new PositionError(`'${side}' must be a list of ${POINTS} counts, got ${show(counts)}`);
    }
    counts.forEach((count, index) => {
      checkInt(count, `${side}[${index}] (point ${index + 1})`);
      if (count < 0 || count > CHECKERS) {
        throw new PositionError(
          `${side}[${index}] (point ${index + 1}) has ${count} checkers; ` +
            `a point holds 0 to ${CHECKERS}`,
        );
      }
    });
  }
  const pins = new Array(POINTS).fill(0);
  for (const [name, flag] of [["own_pinned", -1], ["opp_pinned", 1]]) {
    const points = position[name];
    if (!Array.isArray(points)) {
      throw new PositionError(`'${name}' must be a list of points, got ${show(points)}`);
    }
    for (const point of points) {
      checkInt(point, `${name} entry ${show(point)}`);
      if (point < 1 || point > POINTS) {
        throw new PositionError(`${name} names point ${point}; points are 1 to ${POINTS}`);
      }
      if (pins[point - 1] !== 0) {
        throw new PositionError(`point ${point} is listed as pinned twice`);
      }
      pins[point - 1] = flag;
    }
    for (let i = 1; i < points.length; i++) {
      if (points[i - 1] > points[i]) {
        throw new PositionError(`${name} must be sorted ascending, got ${show(points)}`);
      }
    }
  }
  for (const side of ["own", "opp"]) {
    const off = position[`${side}_off`];
    checkInt(off, `${side}_off`);
    const onBoard = position[side].reduce((a, b) => a + b, 0);
    if (off + onBoard !== CHECKERS) {
      throw new PositionError(
        `${side}: ${onBoard} checkers on the board and ${off} borne off make ` +
          `${onBoard + off}, not ${CHECKERS}`,
      );
    }
  }
  for (let i = 0; i < POINTS; i++) {
    const point = i + 1;
    const mine = position.own[i];
    const theirs = position.opp[i];
    if (pins[i] === 1 && !(theirs === 1 && mine >= 1)) {
      throw new PositionError(
        `point ${point}: an opponent checker pinned there needs exactly one opponent checker ` +
          `and at least one mover checker on top, found ${theirs} and ${mine}`,
      );
    }
    if (pins[i] === -1 && !(mine === 1 && theirs >= 1)) {
      throw new PositionError(
        `point ${point}: a mover checker pinned there needs exactly one mover checker ` +
          `and at least one opponent checker on top, found ${mine} and ${theirs}`,
      );
    }
    if (pins[i] === 0 && mine && theirs) {
      throw new PositionError(
        `point ${point} has ${mine} mover and ${theirs} opponent checkers but no pin; ` +
          "both colours share a point only when a lone checker is pinned there",
      );
    }
  }
  if (position.own_off === CHECKERS && position.opp_off === CHECKERS) {
    throw new PositionError("both sides have borne off all their checkers; no game ends so");
  }
  return position;
}

/**
 * The one-line text form of docs/formats.md ("Position.key"), identical to Python's
 * `Position.key`: `own|opp|pins`, e.g. `24:15|1:15|` for the start.
 */
export function positionKey(position) {
  const own = [];
  const opp = [];
  for (let i = 0; i < POINTS; i++) {
    if (position.own[i]) own.push(`${i + 1}:${position.own[i]}`);
    if (position.opp[i]) opp.push(`${i + 1}:${position.opp[i]}`);
  }
  const pins = [
    ...position.opp_pinned.map((p) => [p, `+${p}`]),
    ...position.own_pinned.map((p) => [p, `-${p}`]),
  ]
    .sort((a, b) => a[0] - b[0])
    .map((pin) => pin[1]);
  return `${own.join(",")}|${opp.join(",")}|${pins.join(",")}`;
}

const NUMBER = /^[0-9]+$/;

/** Read a key written by `positionKey` (or Python's `Position.key`) back; checked. */
export function positionFromKey(key) {
  const parts = typeof key === "string" ? key.trim().split("|") : [];
  if (parts.length !== 3) {
    throw new PositionError(`a position key has the form 'own|opp|pins', got ${show(key)}`);
  }
  const sides = parts.slice(0, 2).map((text) => {
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
  });
  const ownPinned = [];
  const oppPinned = [];
  for (const pin of parts[2].split(",").filter(Boolean)) {
    if (!["+", "-"].includes(pin[0]) || !NUMBER.test(pin.slice(1))) {
      throw new PositionError(`bad pin ${show(pin)} in key ${show(key)}: use +point or -point`);
    }
    (pin[0] === "+" ? oppPinned : ownPinned).push(+pin.slice(1));
  }
  const total = (counts) => counts.reduce((a, b) => a + b, 0);
  return checkPosition({
    own: sides[0],
    opp: sides[1],
    own_pinned: ownPinned.sort((a, b) => a - b),
    opp_pinned: oppPinned.sort((a, b) => a - b),
    own_off: CHECKERS - total(sides[0]),
    opp_off: CHECKERS - total(sides[1]),
  });
}

/** The same position seen by the other side: its point p is our 25 - p (Python's `flip`). */
export function flipPosition(position) {
  const mirror = (points) => points.map((p) => POINTS + 1 - p).sort((a, b) => a - b);
  return {
    own: position.opp.slice().reverse(),
    opp: position.own.slice().reverse(),
    own_pinned: mirror(position.opp_pinned),
    opp_pinned: mirror(position.own_pinned),
    own_off: position.opp_off,
    opp_off: position.own_off,
  };
}

/** Whether two positions are the same (every field equal). */
export function samePosition(a, b) {
  return positionKey(a) === positionKey(b);
}

/** The pip counts `[mover, opponent]`: the mover's checker on point p has p pips to go, the
 * opponent's 25 - p (its own numbering). */
export function pipCounts(position) {
  let own = 0;
  let opp = 0;
  for (let i = 0; i < POINTS; i++) {
    own += position.own[i] * (i + 1);
    opp += position.opp[i] * (POINTS - i);
  }
  return [own, opp];
}

/**
 * The 72-value position row of docs/formats.md ("The position row") as an Int8Array:
 * own counts, opponent counts, then per point +1 (opponent checker pinned), -1 (mover
 * checker pinned) or 0.
 */
export function positionRow(position) {
  const row = new Int8Array(3 * POINTS);
  for (let i = 0; i < POINTS; i++) {
    row[i] = position.own[i];
    row[POINTS + i] = position.opp[i];
  }
  for (const p of position.opp_pinned) row[2 * POINTS + p - 1] = 1;
  for (const p of position.own_pinned) row[2 * POINTS + p - 1] = -1;
  return row;
}
