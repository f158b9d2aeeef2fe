/**
 * Gulbara (docs/rules.md, G1-G10): both sides run the same way round, a point with any
 * opponent checker is closed and nothing is hit (G4); after the opening a double climbs
 * through the doubles above it, and numbers a side cannot play may pass to the other (G5, G6);
 * under `six_prime_needs_checker_ahead` a move may not leave six points in a row of the
 * opponent's path held with every opponent checker behind them (G7). A port of Python's
 * tapa_env for this game, with its messages.
 *
 *   { game: "gulbara", own: [24], opp: [24], own_off, opp_off,
 *     next, climb, climb_dice, handed, own_turns, opp_turns }
 *
 * The opponent's own point q is our q + 12 (or q - 12), so it starts on our 12, runs 12 down
 * to 1, then 24 down to 13, and its home is our 13-18. `next` says who moves next ("own" or
 * "opp"), `climb` the double that side still has to play (0: it rolls), `climb_dice` how many
 * of its dice are left, `handed` whether those numbers were handed over (G6), `own_turns` and
 * `opp_turns` the rolls each side has had, counted up to 3 (G5).
 */

import { POINT_UNITS, pointUnits } from "../core/encoding.js";
import {
  CHECKERS,
  HOME,
  POINTS,
  PositionError,
  checkInt,
  countPips,
  countsRow,
  halfTurn,
  isNumber,
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

/** Gulbara's rule flags at the choices of docs/rules.md (Python's `tapa_env.GulbaraRules`). */
export const GULBARA_RULES = Object.freeze({
  opening_turns_each_side: false,
  unplayable_to_opponent: true,
  six_prime_needs_checker_ahead: false,
});

/** The turns each side's count keeps: only the opening's first three matter (G5). */
const COUNTED_TURNS = 3;
/** Half the board: the opponent's point q is the mover's q + HALF (modulo 24). */
const HALF = POINTS / 2;
/** The turns both sides have had together, at least, once a double can climb (G5). */
const OPENING_TURNS = 4;
const TURN_FIELDS = ["next", "climb", "climb_dice", "handed", "own_turns", "opp_turns"];
const NO_BAR = "nothing is hit, so there is no bar";

/** The mover's point of the opponent's own point `q` (1-24), and back. */
export const gulbaraPoint = halfTurn;

export function initialPosition() {
  const own = new Array(POINTS).fill(0);
  const opp = new Array(POINTS).fill(0);
  own[POINTS - 1] = CHECKERS;
  opp[HALF - 1] = CHECKERS;
  return {
    game: "gulbara", own, opp, own_off: 0, opp_off: 0,
    next: "own", climb: 0, climb_dice: 0, handed: false, own_turns: 0, opp_turns: 0,
  };
}

function checkFields(position) {
  if (position.next !== "own" && position.next !== "opp") {
    throw new PositionError(`next must be 'own' or 'opp', got ${show(position.next)}`);
  }
  if (typeof position.handed !== "boolean") {
    throw new PositionError(`handed must be true or false, got ${show(position.handed)}`);
  }
  for (const name of ["climb", "climb_dice", "own_turns", "opp_turns"]) {
    checkInt(position[name], name, show);
    if (position[name] < 0 || position[name] > 6) {
      throw new PositionError(`${name} is ${position[name]}; see docs/formats.md for its range`);
    }
  }
}

/** The first problem of the turn state's ranges (Python's tapa_env/games/gulbara/rows.py), or
 * null. */
function turnProblem(position) {
  const { climb, climb_dice: left, handed } = position;
  if (!(climb >= 0 && climb <= 6)) {
    return `climb is ${climb}; it is the double still to play, 1 to 6, or 0 for none`;
  }
  if (!(left >= 0 && left <= 4)) {
    return `climb_dice is ${left}; a double has 1 to 4 dice left (0 with no climb)`;
  }
  if ((climb === 0) !== (left === 0)) {
    return `climb ${climb} with climb_dice ${left}: both are 0, or neither is`;
  }
  if (handed && !climb) return "handed is set with no climb to play; handed numbers are a climb";
  for (const name of ["own_turns", "opp_turns"]) {
    if (!(position[name] >= 0 && position[name] <= COUNTED_TURNS)) {
      return `${name} is ${position[name]}; turns are counted 0 to ${COUNTED_TURNS}`;
    }
  }
  return null;
}

/**
 * The first way a turn state whose fields are in range is one that no game reaches (G1, G5,
 * G6; docs/formats.md, "Gulbara"), with the message of Python's `unreached_problem`; null when
 * a game reaches it.
 */
function unreachedProblem(position) {
  const { climb, climb_dice: left, handed, next } = position;
  const turns = { own: position.own_turns, opp: position.opp_turns };
  if (climb && !handed) {
    if (next !== "own") {
      return (
        `next is opp with climb ${climb} not handed: a side plays its own climb before ` +
        "the turn passes, so a climb the other side plays was handed over (G6)"
      );
    }
    if (left !== 4) {
      return (
        `climb ${climb} with climb_dice ${left} not handed: a side's own climb plays ` +
        "whole doubles, 4 dice; fewer are left only of numbers handed over (G6)"
      );
    }
    if (climb < 2) {
      return (
        "climb 1 not handed: a side's own climb goes on from the double above the one " +
        "it rolled, 2 to 6; a 1-1 is only handed over (G6)"
      );
    }
  }
  if (climb && turns.own + turns.opp < OPENING_TURNS) {
    return (
      `climb ${climb} with own_turns ${turns.own} and opp_turns ${turns.opp}: a double ` +
      `climbs only after the opening, when both sides have had ${OPENING_TURNS} turns or ` +
      "more together (G5)"
    );
  }
  const starts = { own: [position.own, POINTS], opp: [position.opp, HALF] };
  for (const side of ["own", "opp"]) {
    const [counts, start] = starts[side];
    if (turns[side] === 0 && counts[start - 1] !== CHECKERS) {
      return (
        `${side}_turns is 0 but ${side} has moved: a side that has had no turn has all ` +
        `${CHECKERS} checkers on its starting point, the mover's ${start} (G1)`
      );
    }
  }
  if (total(position.own) && total(position.opp)) {
    const climbing = climb && !handed;
    const roller = climbing ? (next === "own" ? "opp" : "own") : next;
    const other = roller === "own" ? "opp" : "own";
    if (!(turns[other] - 1 <= turns[roller] && turns[roller] <= turns[other])) {
      return (
        `own_turns ${turns.own} and opp_turns ${turns.opp} with ${roller} to roll ` +
        "next: turns alternate, so the side to roll next has had as many turns as the " +
        "other or one fewer"
      );
    }
  }
  return null;
}

/** The complete rule flags of Gulbara from a partial object of them (or none). */
export const checkRules = (rules) => checkGameRules(game, rules);

export const checkPosition = (position) => checkRacePosition(game, position);

/** The key `gulbara/own|opp|next,climb,climb_dice,handed,own_turns,opp_turns`. */
export function positionKey(position) {
  return raceKey(
    position,
    TURN_FIELDS.map((name) => {
      const value = position[name];
      return typeof value === "boolean" ? Number(value) : value;
    }),
  );
}

export function positionFromKey(text, key) {
  const { own, opp, tail } = readRaceKey("gulbara", text, key, "gulbara/own|opp|turn");
  const values = tail.split(",");
  if (values.length !== TURN_FIELDS.length || !["own", "opp"].includes(values[0])) {
    throw new PositionError(
      "a gulbara key ends with 'next,climb,climb_dice,handed,own_turns,opp_turns' " +
        `(next is own or opp), got ${show(key)}`,
    );
  }
  if (!values.slice(1).every(isNumber) || !["0", "1"].includes(values[3])) {
    throw new PositionError(`bad turn state ${show(tail)} in gulbara key ${show(key)}`);
  }
  return checkPosition({
    game: "gulbara",
    own,
    opp,
    own_off: CHECKERS - total(own),
    opp_off: CHECKERS - total(opp),
    next: values[0],
    climb: +values[1],
    climb_dice: +values[2],
    handed: values[3] === "1",
    own_turns: +values[4],
    opp_turns: +values[5],
  });
}

/** The same position seen by the other side: its point p is our p + 12 (modulo 24), `next`
 * swaps, the turn counts swap and the climb (which belongs to the side moving next) stays. */
export function flipPosition(position) {
  const turned = (counts) => counts.map((_, i) => counts[(i + HALF) % POINTS]);
  return {
    game: "gulbara",
    own: turned(position.opp),
    opp: turned(position.own),
    own_off: position.opp_off,
    opp_off: position.own_off,
    next: position.next === "own" ? "opp" : "own",
    climb: position.climb,
    climb_dice: position.climb_dice,
    handed: position.handed,
    own_turns: position.opp_turns,
    opp_turns: position.own_turns,
  };
}

/** The pip counts `[mover, opponent]`, each checker's distance from bearing off in its own
 * numbering. */
export function pipCounts(position) {
  return countPips(position, gulbaraPoint);
}

/** The position row: counts, then the turn state from column 48 (next +1 or -1, climb, climb
 * dice, handed, own turns, opponent turns). */
export function positionRow(position) {
  const row = countsRow(position);
  const third = 2 * POINTS;
  row[third] = position.next === "own" ? 1 : -1;
  row[third + 1] = position.climb;
  row[third + 2] = position.climb_dice;
  row[third + 3] = position.handed ? 1 : 0;
  row[third + 4] = position.own_turns;
  row[third + 5] = position.opp_turns;
  return row;
}

/** The outcome (G9): a mars counts 2. */
export function outcome(position, rules) {
  checkPosition(position);
  checkGameRules(game, rules);
  return raceOutcome(position);
}

/** A position must be its mover's turn, and a climb takes its own double (G5). */
export function checkTurn(
  position,
  dice,
  advice = "flip it (the position seen by the side moving next) first",
) {
  if (position.next !== "own") {
    throw new PositionError(`its next is 'opp', so it is not this side's turn; ${advice}`);
  }
  const climb = position.climb;
  if (climb > 0 && (dice[0] !== climb || dice[1] !== climb)) {
    throw new Error(
      `the position has the climbing double ${climb}-${climb} to play (G5), ` +
        `not the roll ${dice[0]}-${dice[1]}`,
    );
  }
}

/** The facts of a turn: any opponent checker closes its point and nothing is hit (G4); a
 * climb plays the dice left of its double; under `six_prime_needs_checker_ahead`, walls
 * entirely below the opponent's foremost checker (in its own numbering) have every opponent
 * checker behind them, and a checker borne off is ahead of any wall (G7). */
export function facts(position, rules) {
  let zone = 0;
  if (rules.six_prime_needs_checker_ahead && position.opp_off === 0) {
    let foremost = POINTS + 1;
    for (let p = 0; p < POINTS; p++) {
      if (position.opp[p]) foremost = Math.min(foremost, gulbaraPoint(p + 1));
    }
    zone = (1 << (foremost - 1)) - 1;
  }
  return raceFacts(position, (opponent) => opponent === 0, () => false, {
    zone,
    count: position.climb > 0 ? position.climb_dice : 4,
  });
}

/**
 * The turn state after a play of `longest` dice of `dice` from `position` (G5, G6):
 * `{next, climb, climb_dice, handed, own_turns, opp_turns}` in the mover's frame, as Python's
 * `_gulbara_turn` gives it.
 */
export function turnAfter(position, dice, longest, rules) {
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

/** Nothing is marked: a landing never pins nor hits. */
export const marksOf = () => 0;

/** The position a turn reached from `start`, with the turn state `next` that follows a
 * complete play (null while the turn goes on: the start's). */
export function afterstate(start, { own }, next) {
  const onBoard = total(own);
  const position = {
    game: "gulbara",
    own,
    opp: start.opp.slice(),
    own_off: CHECKERS - onBoard,
    opp_off: start.opp_off,
  };
  for (const name of TURN_FIELDS) position[name] = start[name];
  if (next === null) return position;
  Object.assign(position, next);
  if (onBoard === 0) {
    Object.assign(position, { next: "opp", climb: 0, climb_dice: 0, handed: false });
  }
  return position;
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
 * The features (Python's tapa_env/games/gulbara/encoding.py). `raw` (`gulbara-raw-v1`, 205):
 * the point units (192, mover's numbering), borne-off checkers over 15 (2), the double still
 * to play (one unit each for 1-6), its dice left over 4, whether handed, each side's turns
 * over 3, and whether the frame's side moves next. `expert` (`gulbara-expert-v1`, 211): `raw`,
 * then pip counts over 360, the longest run of points each side holds (in its own order of
 * travel) over 6, checkers home over 15.
 */
export function encodeInto(position, name, out, at) {
  const [ownTotal, oppTotal] = pointUnits(position, out, at);
  let base = at + POINT_UNITS;
  out[base] = (CHECKERS - ownTotal) / CHECKERS;
  out[base + 1] = (CHECKERS - oppTotal) / CHECKERS;
  for (let d = 0; d < 6; d++) out[base + 2 + d] = position.climb === d + 1 ? 1 : 0;
  out[base + 8] = position.climb_dice / 4;
  out[base + 9] = position.handed ? 1 : 0;
  out[base + 10] = position.own_turns / COUNTED_TURNS;
  out[base + 11] = position.opp_turns / COUNTED_TURNS;
  out[base + 12] = position.next === "own" ? 1 : 0;
  if (name === "raw") return;
  let ownPips = 0;
  let oppPips = 0;
  let ownHome = 0;
  let oppHome = 0;
  for (let p = 0; p < POINTS; p++) {
    ownPips += position.own[p] * (p + 1);
    oppPips += position.opp[p] * gulbaraPoint(p + 1); // its own point: its pips to go
    if (p < HOME) ownHome += position.own[p];
    if (p >= HALF && p < HALF + HOME) oppHome += position.opp[p];
  }
  base += 13;
  out[base] = ownPips / 360;
  out[base + 1] = oppPips / 360;
  out[base + 2] = longestRun(position.own, false) / 6;
  out[base + 3] = longestRun(position.opp, true) / 6;
  out[base + 4] = ownHome / CHECKERS;
  out[base + 5] = oppHome / CHECKERS;
}

/** What the registry (web/js/games/index.js) and the page read of Gulbara, besides its
 * hooks; and what its checks read (web/js/games/race.js). */
export const game = Object.freeze({
  name: "gulbara",
  title: "Gulbara",
  rules: GULBARA_RULES,
  keys: Object.freeze([
    "game", "own", "opp", "own_off", "opp_off", "next", "climb", "climb_dice", "handed",
    "own_turns", "opp_turns",
  ]),
  notInGame: Object.freeze({
    own_bar: `in Gulbara ${NO_BAR}`,
    opp_bar: `in Gulbara ${NO_BAR}`,
    own_pinned: "in Gulbara nothing is pinned",
    opp_pinned: "in Gulbara nothing is pinned",
  }),
  sharedPointRule: "one checker holds a point and nothing is hit",
  where: "on the board",
  checkFields,
  fieldProblem: turnProblem,
  unreachedProblem,
  encodings: Object.freeze({
    raw: Object.freeze({ name: "raw", version: "gulbara-raw-v1", size: POINT_UNITS + 13 }),
    expert: Object.freeze({ name: "expert", version: "gulbara-expert-v1", size: POINT_UNITS + 19 }),
  }),
  // What the page reads (web/js/app.js, board.js, bot.js, ui_*.js, match.js):
  alsoCalled: "(Gul bara)",
  keyed: true,
  hasPins: false,
  hasBar: false,
  landing: "one checker holds a point and nothing is hit",
  climbs: true, // a side may move again: its climb goes on, or it rolls after numbers handed to it
  sameWayRound: true, // both sides run the same way: the opponent's point p is our p + 12
  botPoint: gulbaraPoint,
  /** Whether the opponent holds `point`: any of its checkers (G4). */
  holds: (position, point) => position.opp[point - 1] >= 1,
  holdsWhy: " (in Gulbara one checker holds a point)",
  diceRule: "",
  resultKinds: Object.freeze(["single", "mars"]),
  drawn: false,
  mostPoints: 2,
  /** The bot's levels: its network at 1-ply and 2-ply (a climbing double or numbers handed
   * over are the next decision of their side, searched at the same depth), and the share of
   * the games each wins against the game's heuristic bots, 2,000 duplicate games a pairing
   * (`python evaluate.py game=gulbara players=[checkpoints/gulbara-td.pt,runner,blocker]`, and
   * with `@2ply`). */
  bot: Object.freeze({
    defaultLevel: "2ply",
    model: "gulbara-td",
    checkpoint: "checkpoints/gulbara-td.pt",
    network: "",
    strength: Object.freeze({ bots: "runner / blocker", "1ply": "79% / 83%", "2ply": "82% / 88%" }),
  }),
});
