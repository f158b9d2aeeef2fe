/**
 * The rules of Tapa (docs/rules.md, R1-R12): every legal afterstate of a position and roll,
 * and the outcome of a position. A port of the Python engine (tapa_env/movegen.py and
 * tapa_env/results.py) that gives the same afterstates in the same order.
 *
 * How a turn is searched (as in tapa_env/movegen.py):
 *
 * - During the mover's turn only the mover's counts and the opponent checkers it pins change;
 *   which points are open to it (R4) does not. The search state is the mover's counts, four
 *   bits a point in three 32-bit words (points 1-8, 9-16, 17-24), a bit mask of pinned
 *   opponent checkers and a bit mask of occupied points.
 * - A non-double is searched in both die orders; a double as four moves of one die, where
 *   only sequences whose sources never rise are followed.
 * - After every checker move the game may end (R6, R8-R10); such a play's afterstate is the
 *   position at that moment, but it counts with the dice it could have used had the game gone
 *   on. Moves that end the game are tried from every node of a double, in any order.
 * - Each reached position is kept once, with the longest play that reaches it and whether a
 *   one-die play of the larger die reaches it. Only the longest plays survive; with one die
 *   of a non-double playable, the larger die's plays when there are any (R6).
 */

import { CHECKERS, POINTS, checkPosition } from "./position.js";

/** The rule flags of docs/rules.md ("Where the rule texts differ"), named as in Python's
 * `tapa_env.Rules` and in the `rules` of bot files and results.json. */
export const DEFAULT_RULES = Object.freeze({
  pinned_blocks_bear_off: true,
  mother_needs_empty_start: true,
  both_mothers_draw: true,
  win_checked_each_move: true,
});

/**
 * The rule flags `rules` (a partial object of flags; missing ones take their default), or an
 * Error naming an unknown flag or a value that is not a boolean.
 */
export function checkRules(rules = DEFAULT_RULES) {
  if (rules === DEFAULT_RULES) return rules;
  if (rules === null || typeof rules !== "object") {
    throw new Error(
      `rules must be an object of rule flags such as {both_mothers_draw: false}, got ${rules}`,
    );
  }
  const unknown = Object.keys(rules).filter((k) => !(k in DEFAULT_RULES)).sort();
  if (unknown.length) {
    throw new Error(
      `unknown rule flag(s) ${unknown.join(", ")}; ` +
        `known flags: ${Object.keys(DEFAULT_RULES).sort().join(", ")}`,
    );
  }
  for (const [name, value] of Object.entries(rules)) {
    if (typeof value !== "boolean") {
      throw new Error(`rule flag '${name}' must be true or false, got ${JSON.stringify(value)}`);
    }
  }
  return { ...DEFAULT_RULES, ...rules };
}

/** The roll `dice` as `[a, b]`, or an Error: a pair of integers 1-6. */
export function checkDice(dice) {
  const ok =
    Array.isArray(dice) &&
    dice.length === 2 &&
    dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  if (!ok) throw new Error(`dice must be a pair of integers 1-6, got ${JSON.stringify(dice)}`);
  return dice;
}

// --- the game's end --------------------------------------------------------------------------

/**
 * `null` while the game goes on, else `{winner, points}` in the position's frame, exactly as
 * Python's `tapa_env.results`: `winner` is 1 when the side whose frame it is (for an
 * afterstate: the side that just moved) has won, -1 when the other side has, 0 for a draw
 * (R10); `points` is 1 (a single game), 2 (a gammon, R8, or a mother pinned, R9) or 0.
 */
export function outcome(position, rules = DEFAULT_RULES) {
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

// --- the search over a turn ------------------------------------------------------------------

const HOME = 6;
const MAX_DICE = 4;
const ALL_POINTS = (1 << POINTS) - 1;
const TABLE_BITS = 15;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const ENTRY_CAPACITY = 1 << 13; // more than any turn has (3,029 at most, tapa_env/games.py)

// The turn's constant masks (turnState): points open to the mover (R4), its own pinned
// checkers, lone opponent checkers it could pin, whether a pin blocks its bear-off (R7).
let openPoints = 0;
let ownPinned = 0;
let loneOpponent = 0;
let bearOffBlocked = false;
let ownMotherPinned = false;
let bothMothersDraw = true;
let motherNeedsEmptyStart = true;
let checkEachMove = true;

// Search stacks: level k holds words W[3k..3k+2], pinned P[k], occupied O[k]. The main search
// uses levels 0-4, the continuation search (longestContinuation) levels 5-9 (+5).
const SIDE = MAX_DICE + 1;
const W = new Uint32Array(3 * 2 * SIDE);
const P = new Int32Array(2 * SIDE);
const O = new Int32Array(2 * SIDE);
const order = new Int32Array(MAX_DICE);
let count = 0; // dice in the current order: 2, or 4 for a double
let ordered = false; // a double: sources never rise
let largerDie = 0; // a non-double's larger die, 0 for a double

// The reached positions: an open-addressing table of entry indices, valid where its stamp is
// the current call's; each entry holds its three words and pinned mask, the longest play
// reaching it, and whether a one-die play of the larger die reaches it.
const slots = new Int32Array(1 << TABLE_BITS);
const stamps = new Int32Array(1 << TABLE_BITS);
let stamp = 0;
const entryWords = new Uint32Array(ENTRY_CAPACITY * 4);
const entryLength = new Int32Array(ENTRY_CAPACITY);
const entryLarger = new Uint8Array(ENTRY_CAPACITY);
let entries = 0;

function lowestBit(mask) {
  return 31 - Math.clz32(mask & -mask);
}

/** Bit mask of the points whose mover checker may move `die` pips (R3, R4, R5, R7). */
function legalSources(occupied, die) {
  const movable = occupied & ~ownPinned;
  let legal = movable & (openPoints << die) & ALL_POINTS;
  if (occupied >>> HOME === 0 && occupied !== 0 && !bearOffBlocked) {
    const exact = die - 1;
    if ((movable >>> exact) & 1) {
      legal |= 1 << exact;
    } else if (occupied >>> exact === 0) {
      // A die larger than every occupied point bears off from the highest one (R7).
      let highest = exact - 1;
      while (!((occupied >>> highest) & 1)) highest--;
      legal |= movable & (1 << highest);
    }
  }
  return legal;
}

/** Write into level `to` the state of level `from` after a checker moves `die` from
 * `source` (R5: landing on a lone opponent checker pins it; the last pinner leaving frees it). */
function move(to, from, source, die) {
  const t = 3 * to;
  const f = 3 * from;
  W[t] = W[f];
  W[t + 1] = W[f + 1];
  W[t + 2] = W[f + 2];
  let pinned = P[from];
  let occupied = O[from];
  const word = t + (source >>> 3);
  const shift = (source & 7) << 2;
  W[word] -= 1 << shift;
  if (((W[word] >>> shift) & 15) === 0) {
    occupied &= ~(1 << source);
    pinned &= ~(1 << source); // the last pinner left: the pinned checker is free
  }
  const target = source - die;
  if (target >= 0) {
    W[t + (target >>> 3)] += 1 << ((target & 7) << 2);
    occupied |= 1 << target;
    pinned |= loneOpponent & (1 << target);
  }
  P[to] = pinned;
  O[to] = occupied;
}

/** Whether the mover's play has ended the game at level `level` (R8, R9, R10). */
function gameEnded(level) {
  const occupied = O[level];
  if (occupied === 0) return true; // the 15th checker is off
  if (P[level] & 1) {
    // the opponent's mother, its lone checker on point 1, is pinned
    if (ownMotherPinned && bothMothersDraw) return true;
    if (!((occupied >>> (POINTS - 1)) & 1) || !motherNeedsEmptyStart) return true;
  }
  return false;
}

/** Most dice of `order[start..count)` still playable from level `from`'s state, as if the
 * game went on; a double's sources never rise and start at most at `limit`. */
function longestContinuation(from, start, limit) {
  if (start >= count) return 0;
  const here = SIDE + start;
  W[3 * here] = W[3 * from];
  W[3 * here + 1] = W[3 * from + 1];
  W[3 * here + 2] = W[3 * from + 2];
  P[here] = P[from];
  O[here] = O[from];
  return continueFrom(start, start, limit);
}

function continueFrom(level, start, limit) {
  const here = SIDE + level;
  let legal = legalSources(O[here], order[level]);
  if (ordered) legal &= (1 << (limit + 1)) - 1;
  if (legal === 0) return level - start;
  if (level + 1 === count) return count - start;
  let best = 0;
  while (legal) {
    const source = lowestBit(legal);
    legal &= legal - 1;
    move(here + 1, here, source, order[level]);
    const reached = continueFrom(level + 1, start, source);
    if (reached > best) {
      best = reached;
      if (best === count - start) break;
    }
  }
  return best;
}

/** Keep level `level`'s position once, with the longest play reaching it (R6). Returns false
 * when the table is full. */
function record(level, length, largerDiePlay) {
  const w0 = W[3 * level];
  const w1 = W[3 * level + 1];
  const w2 = W[3 * level + 2];
  const pinned = P[level];
  let hash =
    (Math.imul(w0, 0x9e3779b1) +
      Math.imul(w1 ^ 0x7f4a7c15, 0x85ebca77) +
      Math.imul(w2, 0xc2b2ae3d)) ^
    Math.imul(pinned, 0x27d4eb2f);
  hash ^= hash >>> 15;
  let slot = hash & TABLE_MASK;
  while (stamps[slot] === stamp) {
    const e = slots[slot];
    const k = 4 * e;
    if (
      entryWords[k] === w0 &&
      entryWords[k + 1] === w1 &&
      entryWords[k + 2] === w2 &&
      entryWords[k + 3] === pinned
    ) {
      if (length > entryLength[e]) entryLength[e] = length;
      if (largerDiePlay) entryLarger[e] = 1;
      return true;
    }
    slot = (slot + 1) & TABLE_MASK;
  }
  if (entries >= ENTRY_CAPACITY) return false;
  stamps[slot] = stamp;
  slots[slot] = entries;
  const k = 4 * entries;
  entryWords[k] = w0;
  entryWords[k + 1] = w1;
  entryWords[k + 2] = w2;
  entryWords[k + 3] = pinned;
  entryLength[entries] = length;
  entryLarger[entries] = largerDiePlay ? 1 : 0;
  entries += 1;
  return true;
}

/** Record the play whose move at `level` ended the game, leaving level `level + 1`'s state:
 * it counts with every die it could still have played had the game gone on (R6). */
function recordEndedPlay(level, larger) {
  const length = level + 1 + longestContinuation(level + 1, level + 1, POINTS - 1);
  return record(level + 1, length, length === 1 && order[level] === larger);
}

/** Search every play of `order[level..count)` from level `level`'s state; `previous` is the
 * source of the move before (a double's sources never rise). */
function search(level, previous) {
  if (level === count) return record(level, count, false);
  const die = order[level];
  const legal = legalSources(O[level], die);
  let inOrder = legal;
  if (ordered && level > 0) inOrder &= (1 << (previous + 1)) - 1;
  if (ordered && checkEachMove && loneOpponent & 1) {
    // Only a mother pin (or a pinner leaving its start) ends a game before the last die.
    let outOfOrder = legal & ~inOrder;
    while (outOfOrder) {
      const source = lowestBit(outOfOrder);
      outOfOrder &= outOfOrder - 1;
      move(level + 1, level, source, die);
      if (gameEnded(level + 1) && !recordEndedPlay(level, 0)) return false;
    }
  }
  if (inOrder === 0) return record(level, level, level === 1 && order[0] === largerDie);
  while (inOrder) {
    const source = lowestBit(inOrder);
    inOrder &= inOrder - 1;
    move(level + 1, level, source, die);
    if (checkEachMove && gameEnded(level + 1)) {
      if (!recordEndedPlay(level, largerDie)) return false;
    } else if (!search(level + 1, source)) {
      return false;
    }
  }
  return true;
}

/** Set the turn's constant masks and level 0's state from `position`. */
function turnState(position, rules) {
  let low = 0;
  let middle = 0;
  let high = 0;
  let pinned = 0;
  let occupied = 0;
  const pins = new Int8Array(POINTS);
  for (const p of position.opp_pinned) pins[p - 1] = 1;
  for (const p of position.own_pinned) pins[p - 1] = -1;
  openPoints = 0;
  ownPinned = 0;
  loneOpponent = 0;
  for (let p = 0; p < POINTS; p++) {
    const n = position.own[p];
    const shifted = n * 2 ** ((p & 7) << 2);
    if (p < 8) low += shifted;
    else if (p < 16) middle += shifted;
    else high += shifted;
    if (n) occupied |= 1 << p;
    const opponent = position.opp[p];
    const pin = pins[p];
    if (pin === 1) pinned |= 1 << p;
    else if (pin === -1) ownPinned |= 1 << p;
    // Held by the opponent: two or more of its checkers, or one on a pinned one (R4).
    if (pin === 1 || (pin === 0 && opponent <= 1)) openPoints |= 1 << p;
    if (opponent === 1 && pin !== -1) loneOpponent |= 1 << p;
  }
  bearOffBlocked = ownPinned !== 0 && rules.pinned_blocks_bear_off;
  ownMotherPinned = ((ownPinned >>> (POINTS - 1)) & 1) === 1;
  bothMothersDraw = rules.both_mothers_draw;
  motherNeedsEmptyStart = rules.mother_needs_empty_start;
  checkEachMove = rules.win_checked_each_move;
  W[0] = low;
  W[1] = middle;
  W[2] = high;
  P[0] = pinned;
  O[0] = occupied;
}

/** The afterstate of `position` whose mover counts and pins are entry `e`'s. */
function afterstate(position, e) {
  const own = new Array(POINTS);
  let onBoard = 0;
  for (let p = 0; p < POINTS; p++) {
    const n = (entryWords[4 * e + (p >>> 3)] >>> ((p & 7) << 2)) & 15;
    own[p] = n;
    onBoard += n;
  }
  const pinned = entryWords[4 * e + 3];
  const oppPinned = [];
  for (let p = 0; p < POINTS; p++) if ((pinned >>> p) & 1) oppPinned.push(p + 1);
  return {
    own,
    opp: position.opp.slice(),
    own_pinned: position.own_pinned.slice(),
    opp_pinned: oppPinned,
    own_off: CHECKERS - onBoard,
    opp_off: position.opp_off,
  };
}

/**
 * Every distinct position the mover can reach by a complete legal play of `dice` (R3-R10),
 * exactly the afterstates of Python's `tapa_env.legal_afterstates`, in the same order.
 *
 * @param {object} position the position before the turn, in the interchange format, from the
 *   side to move (checked: a `PositionError` names what is wrong).
 * @param {number[]} dice the roll `[a, b]`, integers 1-6, in either order.
 * @param {object} [rules] rule flags (see `DEFAULT_RULES`); missing flags take the default.
 * @returns {object[]} new position objects, still from the mover's view (not flipped);
 *   `[copy of position]` when the mover must pass (R12).
 */
export function legalPlays(position, dice, rules = DEFAULT_RULES) {
  checkPosition(position);
  const [first, second] = checkDice(dice);
  turnState(position, checkRules(rules));
  const doubles = first === second;
  stamp = stamp === 0x7fffffff ? 1 : stamp + 1;
  if (stamp === 1) stamps.fill(0);
  entries = 0;
  count = doubles ? 4 : 2;
  ordered = doubles;
  largerDie = doubles ? 0 : Math.max(first, second);
  for (let direction = 0; direction < (doubles ? 1 : 2); direction++) {
    order.fill(first);
    if (direction === 1) order[0] = second;
    else if (!doubles) order[1] = second;
    if (!search(0, POINTS - 1)) {
      throw new Error(`a turn with more than ${ENTRY_CAPACITY} afterstates; the table is full`);
    }
  }
  let longest = 0;
  for (let e = 0; e < entries; e++) if (entryLength[e] > longest) longest = entryLength[e];
  let largerOnly = false;
  if (longest === 1 && !doubles) {
    for (let e = 0; e < entries; e++) if (entryLarger[e]) largerOnly = true;
  }
  const result = [];
  for (let e = 0; e < entries; e++) {
    if (entryLength[e] !== longest || (largerOnly && !entryLarger[e])) continue;
    result.push(afterstate(position, e));
  }
  return result;
}
