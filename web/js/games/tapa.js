/**
 * Tapa (Plakoto; docs/rules.md, R1-R12): a lone checker landed on is pinned under the
 * checker that lands, never hit; a side whose mother (its last checker on its starting point)
 * is pinned loses a double game (R9); a game may end after any checker move (R6). Its
 * positions, rule flags, facts for the one search, outcomes and encodings, and what the page
 * shows of it. A port of Python's tapa_env for this game, with its messages.
 *
 *   { own: [24 counts], opp: [24 counts], own_pinned: [points], opp_pinned: [points],
 *     own_off: n, opp_off: n }
 *
 * `own[i]` and `opp[i]` count the checkers on the mover's point i + 1 (pinned ones included);
 * the opponent starts on the mover's point 1 and travels up (its point p is our 25 - p).
 * `own_pinned` lists the points where a mover checker lies pinned, `opp_pinned` those where an
 * opponent checker does, both ascending.
 */

import { POINT_UNITS, pointUnits } from "../core/encoding.js";
import {
  CHECKERS,
  HOME,
  POINTS,
  PositionError,
  checkBorneOff,
  checkCounts,
  checkInt,
  countPips,
  countsKey,
  countsRow,
  isNumber,
  mirror,
  quoted,
  readCounts,
  showJson as show,
  total,
} from "../core/position.js";
import { checkFlags } from "../core/rules.js";
import { CONTACT_SIZE, contactInto } from "./tapa_contact.js";

const KEYS = ["own", "opp", "own_pinned", "opp_pinned", "own_off", "opp_off"];

/** The rule flags of docs/rules.md ("Where the rule texts differ"), named as in Python's
 * `tapa_env.Rules` and in the `rules` of bot files and results.json. */
export const DEFAULT_RULES = Object.freeze({
  pinned_blocks_bear_off: true,
  mother_needs_empty_start: true,
  both_mothers_draw: true,
  win_checked_each_move: true,
});

/** The rule flags `rules` (a partial object of flags; missing ones take their default), or an
 * Error naming an unknown flag or a value that is not a boolean. */
export function checkRules(rules = DEFAULT_RULES) {
  return checkFlags(
    rules,
    DEFAULT_RULES,
    `rules must be an object of rule flags such as {both_mothers_draw: false}, got ${rules}`,
  );
}

// --- positions -------------------------------------------------------------------------------

/** The starting position (R1): 15 checkers on the mover's 24, 15 on the mover's 1. */
export function initialPosition() {
  const own = new Array(POINTS).fill(0);
  const opp = new Array(POINTS).fill(0);
  own[POINTS - 1] = CHECKERS;
  opp[0] = CHECKERS;
  return { own, opp, own_pinned: [], opp_pinned: [], own_off: 0, opp_off: 0 };
}

/** Each point's pin: 1 an opponent checker pinned there, -1 a mover checker, else 0 (index
 * 0: point 1). */
function pinsOf(position) {
  const pins = new Int8Array(POINTS);
  for (const p of position.opp_pinned) pins[p - 1] = 1;
  for (const p of position.own_pinned) pins[p - 1] = -1;
  return pins;
}

function checkPins(position) {
  const pins = new Array(POINTS).fill(0);
  for (const [name, flag] of [["own_pinned", -1], ["opp_pinned", 1]]) {
    const points = position[name];
    if (!Array.isArray(points)) {
      throw new PositionError(`'${name}' must be a list of points, got ${show(points)}`);
    }
    for (const point of points) {
      checkInt(point, `${name} entry ${show(point)}`, show);
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
  return pins;
}

/**
 * Throw a `PositionError` naming the first way `position` is not a Tapa position of the
 * interchange format (the checks of Python's `Position.from_dict`); return it otherwise.
 */
export function checkPosition(position) {
  if (position === null || typeof position !== "object" || Array.isArray(position)) {
    throw new PositionError(
      `a position is an object with keys ${KEYS.join(", ")}, got ${show(position)}`,
    );
  }
  const missing = KEYS.filter((k) => !(k in position));
  // `game` may name Tapa, as Python's `Position.from_dict` accepts.
  const extra = Object.keys(position)
    .filter((k) => !KEYS.includes(k) && !(k === "game" && position.game === "tapa"))
    .sort();
  if (missing.length || extra.length) {
    const wrong = [["missing", missing], ["unexpected", extra]]
      .filter(([, names]) => names.length)
      .map(([what, names]) => `${what} [${names.map(quoted).join(", ")}]`);
    throw new PositionError(`tapa position keys: ${wrong.join(", ")}`);
  }
  checkCounts(position, show);
  const pins = checkPins(position);
  checkBorneOff(position, [total(position.own), total(position.opp)], "on the board", show);
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

/** The one-line key of docs/formats.md, identical to Python's `Position.key`: `own|opp|pins`,
 * e.g. `24:15|1:15|` for the start. */
export function positionKey(position) {
  const pins = [
    ...position.opp_pinned.map((p) => [p, `+${p}`]),
    ...position.own_pinned.map((p) => [p, `-${p}`]),
  ]
    .sort((a, b) => a[0] - b[0])
    .map((pin) => pin[1]);
  return `${countsKey(position)}|${pins.join(",")}`;
}

/** Read a key written by `positionKey` (or Python's `Position.key`) back; checked. */
export function positionFromKey(key) {
  const parts = typeof key === "string" ? key.trim().split("|") : [];
  if (parts.length !== 3) {
    throw new PositionError(`a position key has the form 'own|opp|pins', got ${show(key)}`);
  }
  const sides = parts.slice(0, 2).map((text) => readCounts(text, key, show));
  const ownPinned = [];
  const oppPinned = [];
  for (const pin of parts[2].split(",").filter(Boolean)) {
    if (!["+", "-"].includes(pin[0]) || !isNumber(pin.slice(1))) {
      throw new PositionError(`bad pin ${show(pin)} in key ${show(key)}: use +point or -point`);
    }
    (pin[0] === "+" ? oppPinned : ownPinned).push(+pin.slice(1));
  }
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

/** The pip counts `[mover, opponent]`: the mover's checker on point p has p pips to go, the
 * opponent's 25 - p (its own numbering). */
export const pipCounts = (position) => countPips(position, mirror);

/** The 72-value position row of docs/formats.md: own counts, opponent counts, then per point
 * +1 (opponent checker pinned), -1 (mover checker pinned) or 0. */
export function positionRow(position) {
  const row = countsRow(position);
  for (const p of position.opp_pinned) row[2 * POINTS + p - 1] = 1;
  for (const p of position.own_pinned) row[2 * POINTS + p - 1] = -1;
  return row;
}

// --- the game's end --------------------------------------------------------------------------

/**
 * `null` while the game goes on, else `{winner, points}` in the position's frame, exactly as
 * Python's `tapa_env.results`: `winner` is 1 when the side whose frame it is (for an
 * afterstate: the side that just moved) has won, -1 when the other side has, 0 for a draw
 * (R10); `points` is 1 (a single game), 2 (a gammon, R8, or a mother pinned, R9) or 0.
 */
export function outcome(position, rules) {
  checkPosition(position);
  rules = checkRules(rules);
  const own = position.own;
  const opp = position.opp;
  const ownOnBoard = CHECKERS - position.own_off;
  const oppOnBoard = CHECKERS - position.opp_off;
  // A mother is a side's lone checker on its own starting point, pinned there (R9).
  const oppMotherPinned = opp[0] === 1 && position.opp_pinned.includes(1);
  const ownMotherPinned = own[POINTS - 1] === 1 && position.own_pinned.includes(POINTS);
  const draw = oppMotherPinned && ownMotherPinned && rules.both_mothers_draw;
  const needsEmpty = rules.mother_needs_empty_start;
  const ownMotherWin = oppMotherPinned && (!needsEmpty || own[POINTS - 1] === 0) && !draw;
  const oppMotherWin =
    ownMotherPinned && (!needsEmpty || opp[0] === 0) && !draw && !ownMotherWin;
  if (ownOnBoard === 0) return { winner: 1, points: oppOnBoard === CHECKERS ? 2 : 1 };
  if (oppOnBoard === 0) return { winner: -1, points: ownOnBoard === CHECKERS ? 2 : 1 };
  if (ownMotherWin) return { winner: 1, points: 2 };
  if (oppMotherWin) return { winner: -1, points: 2 };
  if (draw) return { winner: 0, points: 0 };
  return null;
}

// --- the turn ----------------------------------------------------------------------------------

const maskOf = (points) => points.reduce((mask, point) => mask | (1 << (point - 1)), 0);

/** The facts of a turn for the one search (web/js/core/search.js): points held by two or more
 * opponent checkers, or one on a pinned one, are closed (R4); a lone opponent checker landed
 * on is pinned, and freed when its last pinner leaves (R5); a pinned checker cannot move, and
 * under `pinned_blocks_bear_off` its side cannot bear off (R7); the game may end after any
 * checker move (R6, R8-R10). */
export function facts(position, rules) {
  const pins = pinsOf(position);
  let open = 0;
  let stuck = 0;
  let lone = 0;
  for (let p = 0; p < POINTS; p++) {
    const opponent = position.opp[p];
    const pin = pins[p];
    if (pin === -1) stuck |= 1 << p;
    if (pin === 1 || (pin === 0 && opponent <= 1)) open |= 1 << p;
    if (opponent === 1 && pin !== -1) lone |= 1 << p;
  }
  const ownMotherPinned = ((stuck >>> (POINTS - 1)) & 1) === 1;
  const ended = (occupied, pinned) => {
    if (occupied === 0) return true; // the 15th checker is off
    if (pinned & 1) {
      // the opponent's mother, its lone checker on point 1, is pinned
      if (ownMotherPinned && rules.both_mothers_draw) return true;
      if (!((occupied >>> (POINTS - 1)) & 1) || !rules.mother_needs_empty_start) return true;
    }
    return false;
  };
  return {
    open,
    stuck,
    lone,
    bearOffBlocked: stuck !== 0 && rules.pinned_blocks_bear_off,
    releases: true,
    zone: 0,
    bar: 0,
    marks: maskOf(position.opp_pinned),
    count: 4,
    ended: rules.win_checked_each_move ? ended : null,
  };
}

/** The opponent checkers pinned in `position` (a mask: bit p - 1, point p). */
export const marksOf = (position) => maskOf(position.opp_pinned);

/** The position the search (or a turn) reached from `start`: the mover's counts, and the
 * opponent checkers it pins (`marks`). */
export function afterstate(start, { own, marks }) {
  const oppPinned = [];
  for (let p = 0; p < POINTS; p++) if ((marks >>> p) & 1) oppPinned.push(p + 1);
  return {
    own,
    opp: start.opp.slice(),
    own_pinned: start.own_pinned.slice(),
    opp_pinned: oppPinned,
    own_off: CHECKERS - total(own),
    opp_off: start.opp_off,
  };
}

// --- encodings -------------------------------------------------------------------------------

const PINS = POINT_UNITS;
const OFF = PINS + 2 * POINTS;
const MOTHER = OFF + 2;
const RAW_SIZE = MOTHER + 6;
const DIE = 6;
const EXPERT_FEATURES = 10;

/**
 * Write the features of `position` into `out` from index `at` (Python's tapa_env/encoding.py).
 *
 * `raw` (`raw-v1`, 248): the point units (192); for each point whether a mover checker lies
 * pinned there, then whether an opponent checker does (48); the borne-off counts over 15 (2);
 * for each side its mother: checkers left on its starting point over 15, exactly one left,
 * that one pinned (6). `expert` (`expert-v1`, 258): `raw`, then, each side mover first: pip
 * counts over 360; lone unpinned checkers that a movable enemy checker reaches with one die,
 * over 5; pinned enemy checkers held, over 5; points made in the side's home, over 6; the
 * mother at risk (alone, unpinned, a movable enemy checker within one die). `contact`
 * (`tapa-contact-v1`, 276): `expert`, then nine contact features of each side
 * (web/js/games/tapa_contact.js). `name` is the encoding's.
 */
export function encodeInto(position, name, out, at) {
  const own = position.own;
  const opp = position.opp;
  const pin = pinsOf(position);
  const [ownOnBoard, oppOnBoard] = pointUnits(position, out, at);
  for (let p = 0; p < POINTS; p++) {
    out[at + PINS + p] = pin[p] === -1 ? 1 : 0;
    out[at + PINS + POINTS + p] = pin[p] === 1 ? 1 : 0;
  }
  out[at + OFF] = (CHECKERS - ownOnBoard) / CHECKERS;
  out[at + OFF + 1] = (CHECKERS - oppOnBoard) / CHECKERS;
  const ownStart = own[POINTS - 1];
  const oppStart = opp[0];
  out[at + MOTHER] = ownStart / CHECKERS;
  out[at + MOTHER + 1] = ownStart === 1 ? 1 : 0;
  out[at + MOTHER + 2] = ownStart === 1 && pin[POINTS - 1] === -1 ? 1 : 0;
  out[at + MOTHER + 3] = oppStart / CHECKERS;
  out[at + MOTHER + 4] = oppStart === 1 ? 1 : 0;
  out[at + MOTHER + 5] = oppStart === 1 && pin[0] === 1 ? 1 : 0;
  if (name === "raw") return;

  let ownPips = 0;
  let oppPips = 0;
  let ownExposed = 0;
  let oppExposed = 0;
  let pinsHeld = 0;
  let pinsSuffered = 0;
  let ownHomePoints = 0;
  let oppHomePoints = 0;
  for (let p = 0; p < POINTS; p++) {
    ownPips += own[p] * (p + 1);
    oppPips += opp[p] * (POINTS - p);
    if (pin[p] === 1) pinsHeld += 1;
    else if (pin[p] === -1) pinsSuffered += 1;
    if (p < HOME && own[p] >= 2) ownHomePoints += 1;
    if (p >= POINTS - HOME && opp[p] >= 2) oppHomePoints += 1;
    // The opponent moves up the mover's numbering, the mover down it.
    if (own[p] === 1 && pin[p] === 0) {
      for (let q = Math.max(0, p - DIE); q < p; q++) {
        if (opp[q] > 0 && pin[q] !== 1) {
          ownExposed += 1;
          break;
        }
      }
    }
    if (opp[p] === 1 && pin[p] === 0) {
      for (let q = p + 1; q < Math.min(POINTS, p + DIE + 1); q++) {
        if (own[q] > 0 && pin[q] !== -1) {
          oppExposed += 1;
          break;
        }
      }
    }
  }
  const last = POINTS - 1;
  const ownMotherAlone = own[last] === 1 && pin[last] === 0;
  const oppMotherAlone = opp[0] === 1 && pin[0] === 0;
  let ownMotherAtRisk = false;
  let oppMotherAtRisk = false;
  for (let q = last - DIE; q < last; q++) {
    if (opp[q] > 0 && pin[q] !== 1) ownMotherAtRisk = ownMotherAlone;
  }
  for (let q = 1; q <= DIE; q++) {
    if (own[q] > 0 && pin[q] !== -1) oppMotherAtRisk = oppMotherAlone;
  }
  const e = at + RAW_SIZE;
  out[e] = ownPips / 360;
  out[e + 1] = oppPips / 360;
  out[e + 2] = ownExposed / 5;
  out[e + 3] = oppExposed / 5;
  out[e + 4] = pinsHeld / 5;
  out[e + 5] = pinsSuffered / 5;
  out[e + 6] = ownHomePoints / 6;
  out[e + 7] = oppHomePoints / 6;
  out[e + 8] = ownMotherAtRisk ? 1 : 0;
  out[e + 9] = oppMotherAtRisk ? 1 : 0;
  if (name === "contact") contactInto(position, out, e + EXPERT_FEATURES);
}

/** The encodings by name: `{name, version, size}`, as a bot file's metadata names them. */
export const ENCODINGS = Object.freeze({
  raw: Object.freeze({ name: "raw", version: "raw-v1", size: RAW_SIZE }),
  expert: Object.freeze({ name: "expert", version: "expert-v1", size: RAW_SIZE + EXPERT_FEATURES }),
  contact: Object.freeze({
    name: "contact",
    version: "tapa-contact-v1",
    size: RAW_SIZE + EXPERT_FEATURES + CONTACT_SIZE,
  }),
});

// --- the game --------------------------------------------------------------------------------

/** What the registry (web/js/games/index.js) and the page read of Tapa, besides its hooks. */
export const game = Object.freeze({
  name: "tapa",
  title: "Tapa",
  rules: DEFAULT_RULES,
  encodings: ENCODINGS,
  // What the page reads (web/js/app.js, board.js, bot.js, ui_*.js, match.js):
  alsoCalled: "(Plakoto)",
  keyed: false, // its positions and saved games carry no `game` key
  hasPins: true,
  hasBar: false,
  landing: "a checker landed on is pinned, never sent off", // what a landing does, for messages
  climbs: false, // a side never moves twice in a row
  sameWayRound: false, // the opponent runs the other way: its point p is our 25 - p
  botPoint: mirror,
  /** Whether the opponent holds `point` against the mover: two or more of its checkers, or
   * one pinning the mover's (R4). */
  holds: (position, point) =>
    !position.opp_pinned.includes(point) &&
    (position.opp[point - 1] >= 2 || position.own_pinned.includes(point)),
  holdsWhy: "",
  diceRule: " (R6)",
  resultKinds: Object.freeze(["single", "gammon", "mother", "draw"]),
  drawn: true, // both mothers pinned (R10)
  mostPoints: 2,
  bot: Object.freeze({ defaultLevel: "2ply", ownLevels: true }),
});
