/**
 * The afterstate search of every game: every legal afterstate of a position and roll, in the
 * order of Python's engine (tapa_env/movegen.py, whose docstring explains the method). A game
 * gives the facts that stay fixed while the mover plays (`game.facts(position, rules)`, below)
 * and builds its afterstates from what the search reached (`game.afterstate`).
 *
 * - During the mover's turn only the mover's counts, its bar and the opponent checkers it pins
 *   or hits change; which points are open to it does not. The search state is the mover's
 *   counts, four bits a point in three 32-bit words (points 1-8, 9-16, 17-24), a word `X` with
 *   the mover's bar (its low four bits) and a bit a point above them (`marks`: the opponent
 *   checkers pinned, Tapa, or hit, Tabla), and a bit mask of occupied points.
 * - A non-double is searched in both die orders; a double as moves whose sources never rise
 *   (`ordered`), unless a move may be legal only after another (Gulbara's wall rule).
 * - Where the game may end after any checker move (Tapa, R6, R8-R10), such a play's afterstate
 *   is the position at that moment, but it counts with the dice it could have used had the
 *   game gone on; moves that end the game are tried from every node of a double, in any order.
 * - Each reached position is kept once, in one hash table, with the longest play that reaches
 *   it and whether a one-die play of the larger die reaches it. Only the longest plays survive;
 *   with one die of a non-double playable, the larger die's plays when there are any.
 * - A game may judge a play by where it ends (its optional hooks `recordsPrefixes(facts)` and
 *   `accepts(facts, occupied, marks)`, Fevga's F6 at the play's end): then every node of the
 *   search is a play of its own when the game accepts its end, the pass always is one, and the
 *   longest of them win. A game may also prefer some afterstates among the longest plays
 *   (`hasPreference(facts)` and `prefers(facts, occupied, marks)`, Fevga's trap, F7): when
 *   any longest play's afterstate is preferred, only those are legal. Python's
 *   `records_prefixes`/`accepts` and `has_preference`/`prefers` (tapa_env/engine/hooks.py).
 *
 * The facts, bit masks over points 1-24 (bit p - 1: point p):
 *   open       points the mover may land on
 *   lone       lone opponent checkers that a checker landing on is marked over (pinned or hit)
 *   stuck      the mover's own pinned checkers, which cannot move
 *   bearOffBlocked   whether the mover may not bear off at all (R7)
 *   releases   whether a mark ends when the last mover checker leaves its point (a pin does)
 *   zone       the wall zone (Gulbara's G7, Fevga's F7): the opponent's points (bit q - 1: its
 *              point q, the mover's q + 12 modulo 24) where six in a row may not be held; 0
 *              when none
 *   barred     (optional) `barred(occupied)`: the sources that may not move while the mover
 *              holds the points `occupied` (Fevga's first checker, F5); null when none are
 *   forbids    (optional) `forbids(occupied)`: whether no checker move may leave the mover
 *              holding the points `occupied` (Fevga's starting quarter, F6); null when none
 *   inOrder    (optional) whether a double may be searched with sources that never rise; by
 *              default when there is no wall zone (a move is never legal only after another)
 *   bar, marks the mover's bar and the marks at the start
 *   count      the dice of a double (4, or what is left of a climb)
 *   ended(occupied, marks)   whether the game is over, or null where it ends only with the turn
 */

import { HOME, POINTS } from "./position.js";

const MAX_DICE = 4;
const BAR = POINTS; // the source index of a checker entering from the bar
const ALL_POINTS = (1 << POINTS) - 1;
const HALF = POINTS / 2;
const WALL = 6;
const TABLE_BITS = 15;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const ENTRY_CAPACITY = 1 << 13; // more than any turn has (3,029 at most)

/** The bit of a mark over the mover's point index `p` (0-23) in the search's `X` word. */
const MARK = 4;

// The turn's facts.
let openPoints = 0;
let stuck = 0;
let lone = 0;
let bearOffBlocked = false;
let releases = false;
let zone = 0;
let barred = null;
let forbids = null;
let ended = null;

// Search stacks: level k holds words W[3k..3k+2], the bar and marks X[k], occupied O[k]. The
// main search uses levels 0-4, the continuation search (longestContinuation) levels 5-9.
const SIDE = MAX_DICE + 1;
const W = new Uint32Array(3 * 2 * SIDE);
const X = new Int32Array(2 * SIDE);
const O = new Int32Array(2 * SIDE);
const order = new Int32Array(MAX_DICE);
let count = 0; // dice in the current order
let ordered = false; // a double whose sources never rise
let largerDie = 0; // a non-double's larger die, 0 for a double
let endsOutOfOrder = false; // a double may end the game by a move out of order
let accepts = null; // (occupied, marks) => whether a play may end there, when the game judges
// a play by where it ends (every node is then recorded); else null

// The reached positions: an open-addressing table of entry indices, valid where its stamp is
// the current call's; each entry holds its three words and X, the longest play reaching it,
// and whether a one-die play of the larger die reaches it.
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
 * at level `level`. */
function legalSources(level, die) {
  const occupied = O[level];
  if (X[level] & 15) {
    // Checkers on the bar enter first, on the mover's point 25 - die.
    return (openPoints >>> (POINTS - die)) & 1 ? 1 << BAR : 0;
  }
  const movable = occupied & ~stuck & ~(barred ? barred(occupied) : 0);
  let legal = movable & (openPoints << die) & ALL_POINTS;
  if (occupied >>> HOME === 0 && occupied !== 0 && !bearOffBlocked) {
    const exact = die - 1;
    if ((movable >>> exact) & 1) {
      legal |= 1 << exact;
    } else if (occupied >>> exact === 0) {
      // A die larger than every occupied point bears off from the highest one.
      let highest = exact - 1;
      while (!((occupied >>> highest) & 1)) highest--;
      legal |= movable & (1 << highest);
    }
  }
  if (zone || forbids) {
    let candidates = legal;
    while (candidates) {
      const source = lowestBit(candidates);
      candidates &= candidates - 1;
      let after = occupied;
      if (countAt(level, source) === 1) after &= ~(1 << source);
      if (source - die >= 0) after |= 1 << (source - die);
      if ((zone && walled(after)) || (forbids && forbids(after))) legal &= ~(1 << source);
    }
  }
  return legal;
}

/** Write into level `to` the state of level `from` after a checker moves `die` pips from
 * `source` (24: the bar); a lone opponent checker landed on is marked, once. */
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
    if (((W[word] >>> shift) & 15) === 0) {
      occupied &= ~(1 << source);
      if (releases) extra &= ~(1 << (MARK + source)); // the last pinner left: the checker is free
    }
    target = source - die;
  }
  if (target >= 0) {
    W[t + (target >>> 3)] += 1 << ((target & 7) << 2);
    occupied |= 1 << target;
    if ((lone >>> target) & 1) extra |= 1 << (MARK + target);
  }
  X[to] = extra;
  O[to] = occupied;
}

/** Whether the mover's play has ended the game at level `level`. */
function gameEnded(level) {
  return ended(O[level], X[level] >>> MARK);
}

/** Most dice of `order[start..count)` still playable from level `from`'s state, as if the
 * game went on; a double's sources never rise and start at most at `limit`. */
function longestContinuation(from, start, limit) {
  if (start >= count) return 0;
  const here = SIDE + start;
  W[3 * here] = W[3 * from];
  W[3 * here + 1] = W[3 * from + 1];
  W[3 * here + 2] = W[3 * from + 2];
  X[here] = X[from];
  O[here] = O[from];
  return continueFrom(start, start, limit);
}

function continueFrom(level, start, limit) {
  const here = SIDE + level;
  let legal = legalSources(here, order[level]);
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

/** Keep level `level`'s position once, with the longest play reaching it. Returns false when
 * the table is full. */
function record(level, length, largerDiePlay) {
  const w0 = W[3 * level];
  const w1 = W[3 * level + 1];
  const w2 = W[3 * level + 2];
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

/** Record the play whose move at `level` ended the game, leaving level `level + 1`'s state:
 * it counts with every die it could still have played had the game gone on. */
function recordEndedPlay(level, larger) {
  const length = level + 1 + longestContinuation(level + 1, level + 1, POINTS - 1);
  return record(level + 1, length, length === 1 && order[level] === larger);
}

/** Search every play of `order[level..count)` from level `level`'s state, sources ascending;
 * `previous` is the source of the move before (a double's sources never rise). */
function search(level, previous) {
  if (accepts !== null && (level === 0 || accepts(O[level], X[level] >>> MARK))) {
    // Every node is a play of its own, judged by where it ends; the pass always stands, and
    // only the longest plays will survive.
    if (!record(level, level, level === 1 && order[0] === largerDie)) return false;
  }
  if (level === count) return accepts !== null || record(level, count, false);
  const die = order[level];
  const legal = legalSources(level, die);
  let inOrder = legal;
  if (ordered && level > 0) inOrder &= (1 << (previous + 1)) - 1;
  if (endsOutOfOrder) {
    // Only a mother pin (or a pinner leaving its start) ends a game before the last die.
    let outOfOrder = legal & ~inOrder;
    while (outOfOrder) {
      const source = lowestBit(outOfOrder);
      outOfOrder &= outOfOrder - 1;
      move(level + 1, level, source, die);
      if (gameEnded(level + 1) && !recordEndedPlay(level, 0)) return false;
    }
  }
  if (inOrder === 0) {
    return accepts !== null || record(level, level, level === 1 && order[0] === largerDie);
  }
  while (inOrder) {
    const source = lowestBit(inOrder);
    inOrder &= inOrder - 1;
    move(level + 1, level, source, die);
    if (ended && gameEnded(level + 1)) {
      if (!recordEndedPlay(level, largerDie)) return false;
    } else if (!search(level + 1, source)) {
      return false;
    }
  }
  return true;
}

/** Set the turn's facts and level 0's state from `position`. */
function start(position, facts) {
  ({ open: openPoints, stuck, lone, bearOffBlocked, releases, zone, ended } = facts);
  barred = facts.barred ?? null;
  forbids = facts.forbids ?? null;
  let low = 0;
  let middle = 0;
  let high = 0;
  let occupied = 0;
  for (let p = 0; p < POINTS; p++) {
    const n = position.own[p];
    const shifted = n * 2 ** ((p & 7) << 2);
    if (p < 8) low += shifted;
    else if (p < 16) middle += shifted;
    else high += shifted;
    if (n) occupied |= 1 << p;
  }
  W[0] = low;
  W[1] = middle;
  W[2] = high;
  X[0] = facts.bar | (facts.marks << MARK);
  O[0] = occupied;
}

/** The mover's counts (24), its bar and its marks (a mask over points) of entry `e`. */
function reached(e) {
  const own = new Array(POINTS);
  for (let p = 0; p < POINTS; p++) own[p] = (entryWords[4 * e + (p >>> 3)] >>> ((p & 7) << 2)) & 15;
  const extra = entryWords[4 * e + 3];
  return { own, bar: extra & 15, marks: extra >>> MARK };
}

/** The mover's points (bit p - 1: point p) of entry `e`. */
function occupiedOf(e) {
  let occupied = 0;
  for (let p = 0; p < POINTS; p++) {
    if ((entryWords[4 * e + (p >>> 3)] >>> ((p & 7) << 2)) & 15) occupied |= 1 << p;
  }
  return occupied;
}

/** Whether a game judges the plays of a turn (its `facts`) by where they end: it records
 * every prefix of a play (`recordsPrefixes`) or prefers some afterstates (`hasPreference`).
 * The turn machine (web/js/core/turn.js) then takes the plays' figures from the search
 * (`searchTurn`). */
export function judgedByEnd(game, facts) {
  return Boolean(game.recordsPrefixes?.(facts) || game.hasPreference?.(facts));
}

/**
 * Search every play of `dice` in `position` of `game` under `rules` (checked) into the table:
 * Python's `search_row`. Returns the turn's `facts`, `longest` (the most dice a legal play
 * uses), `largerOnly` (only the larger die's one-die plays are legal), `preferredOnly` (only
 * the afterstates the game prefers are) and `doubles`. The entries stay until the next search.
 */
export function searchTurn(game, position, dice, rules) {
  const [first, second] = dice;
  const facts = game.facts(position, rules);
  start(position, facts);
  const doubles = first === second;
  stamp = stamp === 0x7fffffff ? 1 : stamp + 1;
  if (stamp === 1) stamps.fill(0);
  entries = 0;
  count = doubles ? facts.count : 2;
  ordered = doubles && (facts.inOrder ?? zone === 0);
  largerDie = doubles ? 0 : Math.max(first, second);
  endsOutOfOrder = ordered && ended !== null && (lone & 1) === 1;
  accepts = game.recordsPrefixes?.(facts)
    ? (occupied, marks) => game.accepts(facts, occupied, marks)
    : null;
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
  let preferredOnly = false;
  if (game.hasPreference?.(facts)) {
    for (let e = 0; e < entries && !preferredOnly; e++) {
      preferredOnly = longestPlay(e, longest, largerOnly) && preferred(game, facts, e);
    }
  }
  return { facts, longest, largerOnly, preferredOnly, doubles };
}

function longestPlay(e, longest, largerOnly) {
  return entryLength[e] === longest && (entryLarger[e] === 1 || !largerOnly);
}

function preferred(game, facts, e) {
  return game.prefers(facts, occupiedOf(e), entryWords[4 * e + 3] >>> MARK);
}

/**
 * Every legal afterstate of `dice` (checked, a pair of integers 1-6) in `position` of `game`
 * under `rules` (complete, checked by the caller), in Python's order: what the game's
 * `afterstate(position, reached, next)` builds of each reached state, `next` what
 * `game.turnAfter` says follows a play of the longest length (or null).
 */
export function searchAfterstates(game, position, dice, rules) {
  const { facts, longest, largerOnly, preferredOnly } = searchTurn(game, position, dice, rules);
  const next = game.turnAfter ? game.turnAfter(position, dice, longest, rules) : null;
  const result = [];
  for (let e = 0; e < entries; e++) {
    if (!longestPlay(e, longest, largerOnly)) continue;
    if (preferredOnly && !preferred(game, facts, e)) continue;
    result.push(game.afterstate(position, reached(e), next));
  }
  return result;
}
