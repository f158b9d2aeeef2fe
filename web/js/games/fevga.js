/**
 * Fevga (docs/rules.md, F1-F11): Gulbara's frame without the climb. Both sides run the same
 * way round, a point with any opponent checker is closed and nothing is hit (F4); the first
 * checker must reach the mover's 12 or lower before another leaves 24 (F5); the mover may never
 * hold all six points 19-24 (F6); an opponent trapped behind six points is let out (F7). A
 * port of Python's tapa_env for this game (tapa_env/games/fevga/), with its messages.
 *
 *   { game: "fevga", own: [24], opp: [24], own_off, opp_off }
 *
 * The opponent's own point q is our q + 12 (or q - 12), so it starts on our 12, runs 12 down
 * to 1, then 24 down to 13, and its home is our 13-18. A position is its board: whether the
 * first checker has gone ahead (F5) is read from it.
 *
 * Two rules judge a play by where it ends (F11), through the search's optional hooks
 * (web/js/core/search.js): under `starting_quarter_at_play_end` a play ending on the whole
 * starting quarter is no play (`recordsPrefixes`, `accepts`), and the trap (F7) keeps the
 * plays that leave the opponent free when any does (`hasPreference`, `prefers`).
 */

import { POINT_UNITS, pointUnits } from "../core/encoding.js";
import {
  CHECKERS,
  HOME,
  POINTS,
  PositionError,
  countPips,
  countsRow,
  halfTurn,
  showPython as show,
  total,
} from "../core/position.js";
import {
  checkGameRules,
  checkRacePosition,
  raceFacts,
  raceKey,
  raceOutcome,
  readRaceKey,
} from "./race.js";

/** Fevga's rule flags at the choices of docs/rules.md (Python's `tapa_env.FevgaRules`). */
export const FEVGA_RULES = Object.freeze({
  first_checker_past_start: false,
  starting_quarter_at_play_end: false,
  trap_means_no_move: false,
  trap_forbidden: false,
  six_prime_needs_checker_ahead: false,
  single_win_only: false,
});

/** Half the board: the opponent's point q is the mover's q + HALF (modulo 24). */
const HALF = POINTS / 2;
/** Points in a row that make a wall. */
const WALL = 6;
/** The mover's starting point 24 (bit p - 1: point p). */
const START = 1 << (POINTS - 1);
/** The mover's starting quarter, points 19-24 (F6). */
const QUARTER = ((1 << WALL) - 1) << (POINTS - WALL);
/** Points 1-12: the opponent's starting quarter and beyond (F5). */
const REACHED = (1 << HALF) - 1;
/** Points 1-11: past the opponent's starting point (F5, `first_checker_past_start`). */
const PASSED = (1 << (HALF - 1)) - 1;
/** Points 1-6 in a side's own numbering. */
const HOME_POINTS = (1 << HOME) - 1;
const NO_BAR = "in Fevga nothing is hit, so there is no bar";
const NO_PINS = "in Fevga nothing is pinned";
const NO_TURN = "Fevga keeps no turn state: every turn is its mover's roll";

/** The mover's point of the opponent's own point `q` (1-24), and back. */
export const fevgaPoint = halfTurn;

export function initialPosition() {
  const own = new Array(POINTS).fill(0);
  const opp = new Array(POINTS).fill(0);
  own[POINTS - 1] = CHECKERS;
  opp[HALF - 1] = CHECKERS;
  return { game: "fevga", own, opp, own_off: 0, opp_off: 0 };
}

/** The complete rule flags of Fevga from a partial object of them (or none). */
export const checkRules = (rules) => checkGameRules(game, rules);

export const checkPosition = (position) => checkRacePosition(game, position);

/** The key `fevga/own|opp|`: nothing after the last bar. */
export const positionKey = (position) => raceKey(position, []);

export function positionFromKey(text, key) {
  const { own, opp, tail } = readRaceKey("fevga", text, key, "fevga/own|opp|");
  if (tail.trim()) {
    throw new PositionError(`a fevga key ends with '|' and nothing after it, got ${show(key)}`);
  }
  return checkPosition({
    game: "fevga",
    own,
    opp,
    own_off: CHECKERS - total(own),
    opp_off: CHECKERS - total(opp),
  });
}

/** The same position seen by the other side: its point p is our p + 12 (modulo 24). */
export function flipPosition(position) {
  const turned = (counts) => counts.map((_, i) => counts[(i + HALF) % POINTS]);
  return {
    game: "fevga",
    own: turned(position.opp),
    opp: turned(position.own),
    own_off: position.opp_off,
    opp_off: position.own_off,
  };
}

/** The pip counts `[mover, opponent]`, each checker's distance from bearing off in its own
 * numbering. */
export function pipCounts(position) {
  return countPips(position, fevgaPoint);
}

/** The position row: the counts, nothing in the third block. */
export function positionRow(position) {
  return countsRow(position);
}

/** The outcome (F9): a mars counts 2, or 1 under `single_win_only`. */
export function outcome(position, rules) {
  checkPosition(position);
  const flags = checkGameRules(game, rules);
  const result = raceOutcome(position);
  if (result && flags.single_win_only) return { ...result, points: 1 };
  return result;
}

/** The points (bit p - 1: point p) of 24 counts. */
function pointsOf(counts) {
  let points = 0;
  for (let p = 0; p < POINTS; p++) if (counts[p]) points |= 1 << p;
  return points;
}

/** The mover's points `points` in the opponent's numbering (bit q - 1: its point q). */
function inOpponentNumbering(points) {
  return (points >>> HALF) | ((points & ((1 << HALF) - 1)) << HALF);
}

const lowestBit = (mask) => 31 - Math.clz32(mask & -mask);

function countBits(mask) {
  let count = 0;
  for (; mask; mask &= mask - 1) count += 1;
  return count;
}

/**
 * Whether the mover's points `occupied` trap the opponent whose points (its numbering) are
 * `opponent` (F7): all on one point with the six in front held; under `noMove`
 * (`trap_means_no_move`), not all home and every point one to six ahead of each checker held.
 * Python's `opponent_trapped`.
 */
export function opponentTrapped(occupied, opponent, noMove) {
  if (opponent === 0) return false;
  const held = inOpponentNumbering(occupied);
  if (noMove) {
    if ((opponent & ~HOME_POINTS) === 0) return false; // all home: it may bear off
    let ahead = 0;
    for (let die = 1; die <= 6; die++) ahead |= opponent >>> die;
    return (ahead & ~held) === 0;
  }
  if (opponent & (opponent - 1)) return false;
  const below = lowestBit(opponent) - WALL;
  if (below < 0) return false;
  const front = ((1 << WALL) - 1) << below;
  return (held & front) === front;
}

/**
 * The facts of a turn (Python's `turn_state`): any opponent checker closes its point and
 * nothing is hit (F4); until the first checker has gone ahead no other leaves 24 (F5,
 * `barred`); no checker move may leave the whole starting quarter held unless F6 is judged at
 * the play's end (`forbids`); under `six_prime_needs_checker_ahead`, Gulbara's wall zone (F7).
 * The rest is what the trap and F6 at the play's end read.
 */
export function facts(position, rules) {
  const occupied = pointsOf(position.own);
  const reached = rules.first_checker_past_start ? PASSED : REACHED;
  const freed = total(position.own) < CHECKERS || (occupied & reached) !== 0;
  const opponent = inOpponentNumbering(pointsOf(position.opp));
  const noMove = rules.trap_means_no_move;
  let trap;
  if (rules.trap_forbidden) {
    trap = noMove ? (opponent & ~HOME_POINTS) !== 0 : (opponent & (opponent - 1)) === 0;
  } else {
    trap = opponentTrapped(occupied, opponent, noMove);
  }
  let zone = 0;
  if (rules.six_prime_needs_checker_ahead && position.opp_off === 0) {
    zone = (1 << lowestBit(opponent)) - 1; // below the opponent's foremost checker
  }
  const atEnd = rules.starting_quarter_at_play_end;
  const quiet = countBits(occupied & QUARTER) <= 1;
  return raceFacts(position, (count) => count === 0, () => false, {
    zone,
    barred: freed
      ? null
      : (points) =>
          (points & START) !== 0 && points !== START && (points & reached) === 0 ? START : 0,
    forbids: atEnd ? null : (points) => (points & QUARTER) === QUARTER,
    // A double's moves may be searched in order when no rule makes one move's legality hang
    // on another's: the first checker gone ahead, at most one quarter point held, no wall
    // rule and no play judged by its end.
    inOrder: freed && quiet && zone === 0 && !atEnd,
    quarterAtEnd: atEnd,
    trap,
    noMove,
    opponent,
  });
}

/** Under `starting_quarter_at_play_end` a play is judged by its end (F6, F11): a play that
 * stops before its dice are used may be the longest legal one. */
export const recordsPrefixes = (facts) => facts.quarterAtEnd;

/** Whether a play may end on the mover's points `occupied`: not on the whole starting
 * quarter when F6 is judged at the play's end. */
export const accepts = (facts, occupied) =>
  !(facts.quarterAtEnd && (occupied & QUARTER) === QUARTER);

/** Whether the trap (F7) picks among this turn's plays. */
export const hasPreference = (facts) => facts.trap;

/** Whether an afterstate (the mover's points `occupied`) leaves the opponent free (F7). */
export const prefers = (facts, occupied) =>
  !opponentTrapped(occupied, facts.opponent, facts.noMove);

/** Nothing is marked: a landing never pins nor hits. */
export const marksOf = () => 0;

/** The position a turn reached from `start`: the mover's counts. */
export function afterstate(start, { own }) {
  return {
    game: "fevga",
    own,
    opp: start.opp.slice(),
    own_off: CHECKERS - total(own),
    opp_off: start.opp_off,
  };
}

/** The longest run of consecutive points a side holds in its own order of travel: the
 * opponent's points 1 to 24 are the mover's 13 to 24, then 1 to 12. */
function longestRun(counts, opponent) {
  let best = 0;
  let run = 0;
  for (let k = 0; k < POINTS; k++) {
    const p = opponent ? (k + HALF) % POINTS : k;
    if (counts[p]) {
      run += 1;
      best = Math.max(best, run);
    } else {
      run = 0;
    }
  }
  return best;
}

/**
 * The features (Python's tapa_env/games/fevga/encoding.py). `raw` (`fevga-raw-v1`, 196): the
 * point units (192, mover's numbering), borne-off checkers over 15 (2), whether each side's
 * first checker has gone ahead (F5) (2). `expert` (`fevga-expert-v1`, 204): `raw`, then pip
 * counts over 360, the longest run of points each side holds (in its own order of travel)
 * over 6, checkers home over 15, points each side holds of its starting quarter over 6.
 */
export function encodeInto(position, name, out, at) {
  const [ownTotal, oppTotal] = pointUnits(position, out, at);
  const { own, opp } = position;
  let base = at + POINT_UNITS;
  out[base] = (CHECKERS - ownTotal) / CHECKERS;
  out[base + 1] = (CHECKERS - oppTotal) / CHECKERS;
  let ownAhead = ownTotal < CHECKERS;
  let oppAhead = oppTotal < CHECKERS;
  for (let p = 0; p < HALF; p++) {
    ownAhead ||= own[p] > 0; // the mover's 1-12
    oppAhead ||= opp[HALF + p] > 0; // the opponent's own 1-12
  }
  out[base + 2] = ownAhead ? 1 : 0;
  out[base + 3] = oppAhead ? 1 : 0;
  if (name === "raw") return;
  let ownPips = 0;
  let oppPips = 0;
  let ownHome = 0;
  let oppHome = 0;
  let ownQuarter = 0;
  let oppQuarter = 0;
  for (let p = 0; p < POINTS; p++) {
    ownPips += own[p] * (p + 1);
    oppPips += opp[p] * fevgaPoint(p + 1); // its own point: its pips to go
    if (p < HOME) ownHome += own[p];
    if (p >= HALF && p < HALF + HOME) oppHome += opp[p];
    if (p >= POINTS - HOME && own[p]) ownQuarter += 1;
    if (p >= HALF - HOME && p < HALF && opp[p]) oppQuarter += 1;
  }
  base += 4;
  out[base] = ownPips / 360;
  out[base + 1] = oppPips / 360;
  out[base + 2] = longestRun(own, false) / 6;
  out[base + 3] = longestRun(opp, true) / 6;
  out[base + 4] = ownHome / CHECKERS;
  out[base + 5] = oppHome / CHECKERS;
  out[base + 6] = ownQuarter / 6;
  out[base + 7] = oppQuarter / 6;
}

/**
 * Why the person's checker on `point` cannot move in a turn of `position` (the mover's view,
 * the turn's start) under `rules` though its dice would take it to an open point, in one line,
 * or "" when no rule of Fevga's own says so: the first checker (F5). `now` is the position
 * after the moves made so far.
 */
function blockedWhy(position, now, point, rules) {
  if (point !== POINTS) return "";
  const reached = rules.first_checker_past_start ? HALF - 1 : HALF;
  const ahead = now.own_off > 0 || now.own.slice(0, reached).some(Boolean);
  const others = now.own.slice(0, POINTS - 1).some(Boolean);
  if (ahead || !others) return "";
  return (
    `Until your first checker reaches point ${reached} or lower, no other checker may leave ` +
    "24 (F5): move that one on first."
  );
}

/** What the registry (web/js/games/index.js) and the page read of Fevga, besides its hooks;
 * and what its checks read (web/js/games/race.js). */
export const game = Object.freeze({
  name: "fevga",
  title: "Fevga",
  rules: FEVGA_RULES,
  keys: Object.freeze(["game", "own", "opp", "own_off", "opp_off"]),
  notInGame: Object.freeze({
    own_bar: NO_BAR,
    opp_bar: NO_BAR,
    own_pinned: NO_PINS,
    opp_pinned: NO_PINS,
    next: NO_TURN,
    climb: NO_TURN,
    climb_dice: NO_TURN,
    handed: NO_TURN,
    own_turns: NO_TURN,
    opp_turns: NO_TURN,
  }),
  sharedPointRule: "one checker holds a point and nothing is hit",
  where: "on the board",
  checkFields: () => {},
  encodings: Object.freeze({
    raw: Object.freeze({ name: "raw", version: "fevga-raw-v1", size: POINT_UNITS + 4 }),
    expert: Object.freeze({ name: "expert", version: "fevga-expert-v1", size: POINT_UNITS + 12 }),
  }),
  // What the page reads (web/js/app.js, board.js, bot.js, ui_*.js, match.js):
  alsoCalled: "(moultezim)",
  keyed: true,
  hasPins: false,
  hasBar: false,
  landing: "one checker holds a point and nothing is hit",
  climbs: false,
  sameWayRound: true, // both sides run the same way: the opponent's point p is our p + 12
  botPoint: fevgaPoint,
  /** Whether the opponent holds `point`: any of its checkers (F4). */
  holds: (position, point) => position.opp[point - 1] >= 1,
  holdsWhy: " (in Fevga one checker holds a point)",
  diceRule: " (F3; F6 and F7 may choose among the plays)",
  blockedWhy,
  resultKinds: Object.freeze(["single", "mars"]),
  drawn: false,
  mostPoints: 2,
  /** No Fevga network is shipped yet: `model` null gives the page one level, a random legal
   * play (web/js/bot.js), and no hints. Once `python tests/scripts/export_web_models.py
   * --only fevga-td` has written web/models/fevga-td.*, `model: "fevga-td"` with its
   * checkpoint and strength gives the 1-ply and 2-ply levels of the other games. */
  bot: Object.freeze({
    defaultLevel: "2ply",
    model: "fevga-td",
    checkpoint: "checkpoints/fevga-td.pt",
    network: "",
    strength: Object.freeze({ bots: "racer / holder", "1ply": "96% / 93%", "2ply": "97% / 93%" }),
  }),
});
