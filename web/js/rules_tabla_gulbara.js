/**
 * The rules of Tabla (docs/rules.md, T1-T10) and Gulbara (G1-G10): every legal afterstate of a
 * position and roll, and the outcome of a position. A port of Python's
 * tapa_env/movegen_tabla_gulbara.py and tapa_env/results.py that gives the same afterstates in
 * the same order.
 *
 * The two games share backgammon's checker moves without pins, so one search serves both; what
 * differs lies in the turn's constant masks:
 *
 * - Tabla: a point is open unless the opponent has two or more checkers there, and landing on
 *   a lone opponent checker hits it to the bar (T4); a mover with checkers on the bar enters
 *   them first, a die of d on its point 25 - d (T5).
 * - Gulbara: a point with any opponent checker is closed and nothing is hit (G4); under
 *   `six_prime_needs_checker_ahead` a move may not leave six points in a row of the opponent's
 *   path held with every opponent checker behind them (G7).
 *
 * The search state is the mover's counts (four bits a point in three 32-bit words, points 1-8,
 * 9-16, 17-24), a word with the mover's bar (its low four bits) and the points hit this turn (a
 * bit a point above them), and the occupied points. A non-double is searched in both die
 * orders, a double as moves whose sources never rise (the bar, source 24, first), except under
 * Gulbara's wall rule, where a move may be legal only after another, so every order counts.
 * Each reached position is kept once, with the longest play that reaches it: only the longest
 * plays survive, and the larger die's when only one die of a non-double can be played (T6). A
 * play that bears off the last checker counts the dice it used and no more.
 *
 * Gulbara's climbing doubles (G5, G6) are decisions of their own: a position's `climb` says
 * which double the mover still has to play (the dice must be that double), and each afterstate
 * says who moves next and what is left (`gulbaraTurn`).
 */

import { CHECKERS, POINTS, PositionError } from "./position.js";
import {
  COUNTED_TURNS,
  GULBARA,
  HALF,
  TABLA,
  checkRacePosition,
  checkersLeft,
  gulbaraPoint,
} from "./position_tabla_gulbara.js";

/** Each game's rule flags at the choices of docs/rules.md, named as in Python's
 * `tapa_env.TablaRules` and `tapa_env.GulbaraRules` and in a bot file's `rules`. */
export const TABLA_RULES = Object.freeze({
  opening_roll_played: false,
  backgammon_triple: false,
});
export const GULBARA_RULES = Object.freeze({
  opening_turns_each_side: false,
  unplayable_to_opponent: true,
  six_prime_needs_checker_ahead: false,
});
const DEFAULTS = { tabla: TABLA_RULES, gulbara: GULBARA_RULES };

/**
 * The complete rule flags of `game` from `rules`, a partial object of its flags (missing ones
 * take their default); an Error names an unknown flag or a value that is not a boolean.
 */
export function checkRaceRules(rules, game) {
  const defaults = DEFAULTS[game];
  if (rules === undefined || rules === defaults) return defaults;
  if (rules === null || typeof rules !== "object" || Array.isArray(rules)) {
    throw new Error(
      `${game}'s rules are an object of its rule flags, such as ` +
        `{${Object.keys(defaults)[0]}: true}, got ${JSON.stringify(rules)}`,
    );
  }
  const unknown = Object.keys(rules).filter((k) => !(k in defaults)).sort();
  if (unknown.length) {
    throw new Error(
      `unknown rule flag(s) ${unknown.join(", ")} for ${game}; ` +
        `known flags: ${Object.keys(defaults).sort().join(", ")}`,
    );
  }
  for (const [name, value] of Object.entries(rules)) {
    if (typeof value !== "boolean") {
      throw new Error(`rule flag '${name}' must be true or false, got ${JSON.stringify(value)}`);
    }
  }
  return { ...defaults, ...rules };
}

function checkDice(dice) {
  const ok =
    Array.isArray(dice) &&
    dice.length === 2 &&
    dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  if (!ok) throw new Error(`dice must be a pair of integers 1-6, got ${JSON.stringify(dice)}`);
  return dice;
}

/** A Gulbara position must be its mover's turn, and a climb takes its own double (G5). */
function checkGulbaraTurn(position, dice) {
  if (position.next !== "own") {
    throw new PositionError(
      "its next is 'opp', so it is not this side's turn; flip it (the position seen by the " +
        "side moving next) first",
    );
  }
  const climb = position.climb;
  if (climb > 0 && (dice[0] !== climb || dice[1] !== climb)) {
    throw new Error(
      `the position has the climbing double ${climb}-${climb} to play (G5), ` +
        `not the roll ${dice[0]}-${dice[1]}`,
    );
  }
}

// --- the game's end --------------------------------------------------------------------------

/**
 * `null` while the game goes on, else `{winner, points}` in the position's frame, exactly as
 * Python's `tapa_env.results` (T8, G9): `winner` is 1 when the side whose frame it is (for an
 * afterstate: the side that just moved) has borne off all 15, -1 when the other side has;
 * `points` is 2 (a mars) when the loser has borne off none, else 1; in Tabla under
 * `backgammon_triple`, 3 when that loser also has a checker on the bar or in the winner's home.
 */
export function raceOutcome(position, rules) {
  checkRacePosition(position);
  const tabla = position.game === TABLA;
  rules = checkRaceRules(rules, position.game);
  const [ownLeft, oppLeft] = checkersLeft(position);
  let value = 0;
  if (ownLeft === 0) value = oppLeft === CHECKERS ? 2 : 1;
  if (oppLeft === 0) value = ownLeft === CHECKERS ? -2 : -1;
  if (tabla && rules.backgammon_triple) {
    // The winner's home is the mover's points 1-6 when the mover won, 19-24 when not.
    const oppCaught = position.opp_bar > 0 || position.opp.slice(0, 6).some(Boolean);
    const ownCaught = position.own_bar > 0 || position.own.slice(18).some(Boolean);
    if (ownLeft === 0 && oppLeft === CHECKERS && oppCaught) value = 3;
    if (oppLeft === 0 && ownLeft === CHECKERS && ownCaught) value = -3;
  }
  if (ownLeft !== 0 && oppLeft !== 0) return null;
  return { winner: Math.sign(value), points: Math.abs(value) };
}

// --- the search over a turn ------------------------------------------------------------------

const HOME = 6;
const MAX_DICE = 4;
const BAR = POINTS; // the source index of a checker entering from the bar
const ALL_POINTS = (1 << POINTS) - 1;
const WALL = 6;
const TABLE_BITS = 15;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const ENTRY_CAPACITY = 1 << 13;

// The turn's constant masks (turnState): points open to the mover, lone opponent checkers it
// hits (Tabla's blots), and the wall zone (Gulbara under six_prime_needs_checker_ahead, else 0).
let openPoints = 0;
let blots = 0;
let zone = 0;

// Search stacks: level k holds words W[3k..3k+2], the bar and hits X[k], occupied O[k].
const W = new Uint32Array(3 * (MAX_DICE + 2));
const X = new Int32Array(MAX_DICE + 2);
const O = new Int32Array(MAX_DICE + 2);
const order = new Int32Array(MAX_DICE);
let count = 0; // dice in the current order
let ordered = false; // a double whose sources never rise
let largerDie = 0; // a non-double's larger die, 0 for a double

const slots = new Int32Array(1 << TABLE_BITS);
const stamps = new Int32Array(1 << TABLE_BITS);
let stamp = 0;
const entryWords = new Int32Array(ENTRY_CAPACITY * 4);
const entryLength = new Int32Array(ENTRY_CAPACITY);
const entryLarger = new Uint8Array(ENTRY_CAPACITY);
let entries = 0;

function lowestBit(mask) {
  return 31 - Math.clz32(mask & -mask);
}

function countAt(level, point) {
  return (W[3 * level + (point >>> 3)] >>> ((point & 7) << 2)) & 15;
}

/** Whether the mover's points `occupied` hold six in a row of the opponent's path inside the
 * wall zone (bits in the opponent's order: its point q is bit q - 1). */
function walled(occupied) {
  let path = ((occupied >>> HALF) | ((occupied & ((1 << HALF) - 1)) << HALF)) & zone;
  for (let i = 0; i < WALL - 1; i++) path &= path >>> 1;
  return path !== 0;
}

/** Bit mask of the sources (0-23: points 1-24; 24: the bar) whose checker may move `die` pips
 * at level `level` (T4, T5, T7; G4, G7, G8). */
function legalSources(level, die) {
  const occupied = O[level];
  if (X[level] & 15) {
    // Checkers on the bar enter first, on the mover's point 25 - die.
    return (openPoints >>> (POINTS - die)) & 1 ? 1 << BAR : 0;
  }
  let legal = occupied & (openPoints << die) & ALL_POINTS;
  if (occupied >>> HOME === 0 && occupied !== 0) {
    const exact = die - 1;
    if ((occupied >>> exact) & 1) {
      legal |= 1 << exact;
    } else if (occupied >>> exact === 0) {
      // A die larger than every occupied point bears off from the highest one.
      let highest = exact - 1;
      while (!((occupied >>> highest) & 1)) highest--;
      legal |= 1 << highest;
    }
  }
  if (zone) {
    let candidates = legal;
    while (candidates) {
      const source = lowestBit(candidates);
      candidates &= candidates - 1;
      let after = occupied;
      if (countAt(level, source) === 1) after &= ~(1 << source);
      if (source - die >= 0) after |= 1 << (source - die);
      if (walled(after)) legal &= ~(1 << source);
    }
  }
  return legal;
}

/** Write into level `to` the state of level `from` after a checker moves `die` pips from
 * `source` (24: the bar); a lone opponent checker landed on is hit, once (T4). */
function move(to, from, source, die) {
  const t = 3 * to;
  const f = 3 * from;
  W[t] = W[f];
  W[t + 1] = W[f + 1];
  W[t + 2] = W[f + 2];
  let extra = X[from];
  let occupied = O[from];
  let target;
  if (source === BAR) {
    extra -= 1;
    target = POINTS - die;
  } else {
    const word = t + (source >>> 3);
    const shift = (source & 7) << 2;
    W[word] -= 1 << shift;
    if (((W[word] >>> shift) & 15) === 0) occupied &= ~(1 << source);
    target = source - die;
  }
  if (target >= 0) {
    W[t + (target >>> 3)] += 1 << ((target & 7) << 2);
    occupied |= 1 << target;
    if ((blots >>> target) & 1) extra |= 1 << (4 + target);
  }
  X[to] = extra;
  O[to] = occupied;
}

/** Keep level `level`'s position once, with the longest play reaching it (T6). Returns false
 * when the table is full. */
function record(level, length, largerDiePlay) {
  const w0 = W[3 * level] | 0;
  const w1 = W[3 * level + 1] | 0;
  const w2 = W[3 * level + 2] | 0;
  const extra = X[level];
  let hash =
    (Math.imul(w0, 0x9e3779b1) +
      Math.imul(w1 ^ 0x7f4a7c15, 0x85ebca77) +
      Math.imul(w2, 0xc2b2ae3d)) ^
    Math.imul(extra, 0x27d4eb2f);
  hash ^= hash >>> 15;
  let slot = hash & TABLE_MASK;
  while (stamps[slot] === stamp) {
    const e = slots[slot];
    const k = 4 * e;
    if (
      entryWords[k] === w0 &&
      entryWords[k + 1] === w1 &&
      entryWords[k + 2] === w2 &&
      entryWords[k + 3] === extra
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
  entryWords[k + 3] = extra;
  entryLength[entries] = length;
  entryLarger[entries] = largerDiePlay ? 1 : 0;
  entries += 1;
  return true;
}

/** Search every play of `order[level..count)` from level `level`'s state, sources ascending;
 * `previous` is the source of the move before (a double's sources never rise). */
function search(level, previous) {
  if (level === count) return record(level, count, false);
  let legal = legalSources(level, order[level]);
  if (ordered && level > 0) legal &= (1 << (previous + 1)) - 1;
  if (legal === 0) return record(level, level, level === 1 && order[0] === largerDie);
  while (legal) {
    const source = lowestBit(legal);
    legal &= legal - 1;
    move(level + 1, level, source, order[level]);
    if (!search(level + 1, source)) return false;
  }
  return true;
}

/** Set the turn's constant masks and level 0's state from `position`, under `rules`. */
function turnState(position, rules) {
  const tabla = position.game === TABLA;
  let low = 0;
  let middle = 0;
  let high = 0;
  let occupied = 0;
  openPoints = 0;
  blots = 0;
  for (let p = 0; p < POINTS; p++) {
    const n = position.own[p];
    const shifted = n * 2 ** ((p & 7) << 2);
    if (p < 8) low += shifted;
    else if (p < 16) middle += shifted;
    else high += shifted;
    if (n) occupied |= 1 << p;
    const opponent = position.opp[p];
    if (opponent === 0 || (tabla && opponent === 1)) openPoints |= 1 << p;
    if (tabla && opponent === 1) blots |= 1 << p;
  }
  zone = 0;
  if (!tabla && rules.six_prime_needs_checker_ahead && position.opp_off === 0) {
    // Walls entirely below the opponent's foremost checker (in its own numbering) have every
    // opponent checker behind them; a checker borne off is ahead of any wall.
    let foremost = POINTS + 1;
    for (let p = 0; p < POINTS; p++) {
      if (position.opp[p]) foremost = Math.min(foremost, gulbaraPoint(p + 1));
    }
    zone = (1 << (foremost - 1)) - 1;
  }
  W[0] = low;
  W[1] = middle;
  W[2] = high;
  X[0] = tabla ? position.own_bar : 0;
  O[0] = occupied;
}

/**
 * Gulbara's turn state after a play of `longest` dice of `dice` from `position` (G5, G6):
 * `{next, climb, climb_dice, handed, own_turns, opp_turns}` in the mover's frame, as Python's
 * `_gulbara_turn` gives it.
 */
export function gulbaraTurn(position, dice, longest, rules) {
  const { climb } = position;
  const rolled = climb === 0;
  const ownTurns = position.own_turns;
  const oppTurns = position.opp_turns;
  const opening = rules.opening_turns_each_side
    ? ownTurns < COUNTED_TURNS
    : ownTurns + oppTurns < COUNTED_TURNS;
  const fields = {
    next: "opp",
    climb: 0,
    climb_dice: 0,
    handed: false,
    own_turns: rolled ? Math.min(COUNTED_TURNS, ownTurns + 1) : ownTurns,
    opp_turns: oppTurns,
  };
  if (rolled && (dice[0] !== dice[1] || opening)) return fields;
  const double = rolled ? dice[0] : climb;
  const left = rolled ? 4 : position.climb_dice;
  const handed = rolled ? false : position.handed;
  if (handed || longest === left) {
    // A stage played in full climbs on; so does a handed one, whatever it could not play.
    if (double < 6) {
      Object.assign(fields, { next: "own", climb: double + 1, climb_dice: 4, handed });
    } else if (handed) {
      fields.next = "own"; // the handed numbers are played: the side now rolls its own turn
    }
  } else if (rules.unplayable_to_opponent && !(rolled && longest === 0)) {
    // The rest of a started climb passes to the opponent; an unstarted one is lost.
    Object.assign(fields, { climb: double, climb_dice: left - longest, handed: true });
  }
  return fields;
}

/** The afterstate of `position` whose mover counts, bar and hits are entry `e`'s. */
function afterstate(position, e, turn) {
  const own = new Array(POINTS);
  let onBoard = 0;
  for (let p = 0; p < POINTS; p++) {
    const n = (entryWords[4 * e + (p >>> 3)] >>> ((p & 7) << 2)) & 15;
    own[p] = n;
    onBoard += n;
  }
  const extra = entryWords[4 * e + 3];
  if (position.game === TABLA) {
    const opp = position.opp.slice();
    let hits = 0;
    for (let p = 0; p < POINTS; p++) {
      if ((extra >>> (4 + p)) & 1) {
        opp[p] = 0;
        hits += 1;
      }
    }
    const ownBar = extra & 15;
    return {
      game: TABLA,
      own,
      opp,
      own_bar: ownBar,
      opp_bar: position.opp_bar + hits,
      own_off: CHECKERS - onBoard - ownBar,
      opp_off: position.opp_off,
    };
  }
  const state = { ...turn };
  if (onBoard === 0) Object.assign(state, { next: "opp", climb: 0, climb_dice: 0, handed: false });
  return {
    game: GULBARA,
    own,
    opp: position.opp.slice(),
    own_off: CHECKERS - onBoard,
    opp_off: position.opp_off,
    ...state,
  };
}

/**
 * Every distinct position the mover can reach by a complete legal play of `dice` (T3-T10,
 * G3-G10), exactly the afterstates of Python's `tapa_env.legal_afterstates`, in the same
 * order. A Gulbara position must have `next` "own", and with a climb to play `dice` is that
 * double. When the mover must pass, the one afterstate is the position itself (in Gulbara with
 * its turn state moved on).
 */
export function raceLegalPlays(position, dice, rules) {
  checkRacePosition(position);
  const [first, second] = checkDice(dice);
  rules = checkRaceRules(rules, position.game);
  const gulbara = position.game === GULBARA;
  if (gulbara) checkGulbaraTurn(position, dice);
  turnState(position, rules);
  const doubles = first === second;
  stamp = stamp === 0x7fffffff ? 1 : stamp + 1;
  if (stamp === 1) stamps.fill(0);
  entries = 0;
  count = doubles ? 4 : 2;
  if (gulbara && position.climb > 0) count = position.climb_dice;
  ordered = doubles && zone === 0;
  largerDie = doubles ? 0 : Math.max(first, second);
  for (let direction = 0; direction < (doubles ? 1 : 2); direction++) {
    order.fill(first);
    if (direction === 1) order[0] = second;
    else if (!doubles) order[1] = second;
    if (!search(0, BAR)) {
      throw new Error(`a turn with more than ${ENTRY_CAPACITY} afterstates; the table is full`);
    }
  }
  let longest = 0;
  for (let e = 0; e < entries; e++) if (entryLength[e] > longest) longest = entryLength[e];
  let largerOnly = false;
  if (longest === 1 && !doubles) {
    for (let e = 0; e < entries; e++) if (entryLarger[e]) largerOnly = true;
  }
  const turn = gulbara ? gulbaraTurn(position, dice, longest, rules) : null;
  const result = [];
  for (let e = 0; e < entries; e++) {
    if (entryLength[e] !== longest || (largerOnly && !entryLarger[e])) continue;
    result.push(afterstate(position, e, turn));
  }
  return result;
}
