/**
 * Tabla (backgammon without the cube; docs/rules.md, T1-T10): a point is open unless the
 * opponent has two or more checkers there, and landing on a lone opponent checker hits it to
 * the bar (T4); a mover with checkers on the bar enters them first, a die of d on its point
 * 25 - d (T5). A port of Python's tapa_env for this game, with its messages.
 *
 *   { game: "tabla", own: [24], opp: [24], own_bar, opp_bar, own_off, opp_off }
 *
 * `own[i]` and `opp[i]` count the checkers on the mover's point i + 1; the opponent starts on
 * the mover's point 1 side and travels up (its point p is our 25 - p).
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
  isNumber,
  mirror,
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
import { CONTACT_SIZE, contactInto } from "./tabla_contact.js";

/** Tabla's rule flags at the choices of docs/rules.md (Python's `tapa_env.TablaRules`). */
export const TABLA_RULES = Object.freeze({
  opening_roll_played: false,
  backgammon_triple: false,
});

/** Tabla's start (T1), each side in its own numbering. */
const START = { 24: 2, 13: 5, 8: 3, 6: 5 };
const BAR_PIPS = 25;

export function initialPosition() {
  const own = new Array(POINTS).fill(0);
  const opp = new Array(POINTS).fill(0);
  for (const [point, count] of Object.entries(START)) {
    own[point - 1] = count;
    opp[POINTS - point] = count;
  }
  return { game: "tabla", own, opp, own_bar: 0, opp_bar: 0, own_off: 0, opp_off: 0 };
}

function checkFields(position) {
  for (const name of ["own_bar", "opp_bar"]) {
    checkInt(position[name], name, show);
    if (position[name] < 0 || position[name] > CHECKERS) {
      throw new PositionError(`${name} is ${position[name]}; a bar holds 0 to ${CHECKERS}`);
    }
  }
}

/** The complete rule flags of Tabla from a partial object of them (or none). */
export const checkRules = (rules) => checkGameRules(game, rules);

export const checkPosition = (position) => checkRacePosition(game, position);

/** The key `tabla/own|opp|own_bar,opp_bar`, identical to Python's `Position.key`. */
export const positionKey = (position) => raceKey(position, [position.own_bar, position.opp_bar]);

export function positionFromKey(text, key) {
  const { own, opp, tail } = readRaceKey("tabla", text, key, "tabla/own|opp|bars");
  const values = tail.split(",");
  if (values.length !== 2 || !values.every(isNumber)) {
    throw new PositionError(`a tabla key ends with the bars 'own,opp', got ${show(key)}`);
  }
  const [ownBar, oppBar] = values.map(Number);
  return checkPosition({
    game: "tabla",
    own,
    opp,
    own_bar: ownBar,
    opp_bar: oppBar,
    own_off: CHECKERS - total(own) - ownBar,
    opp_off: CHECKERS - total(opp) - oppBar,
  });
}

/** The same position seen by the other side: its point p is our 25 - p; the bars swap. */
export function flipPosition(position) {
  return {
    game: "tabla",
    own: position.opp.slice().reverse(),
    opp: position.own.slice().reverse(),
    own_bar: position.opp_bar,
    opp_bar: position.own_bar,
    own_off: position.opp_off,
    opp_off: position.own_off,
  };
}

/** The pip counts `[mover, opponent]`; a checker on the bar counts 25. */
export function pipCounts(position) {
  const [own, opp] = countPips(position, mirror);
  return [own + BAR_PIPS * position.own_bar, opp + BAR_PIPS * position.opp_bar];
}

/** The position row: counts, then the bars in columns 48 and 49. */
export function positionRow(position) {
  const row = countsRow(position);
  row[2 * POINTS] = position.own_bar;
  row[2 * POINTS + 1] = position.opp_bar;
  return row;
}

/** The outcome (T8): a mars counts 2; under `backgammon_triple`, 3 when the loser has borne
 * off none and has a checker on the bar or in the winner's home. */
export function outcome(position, rules) {
  checkPosition(position);
  rules = checkGameRules(game, rules);
  return raceOutcome(position, (value, ownLeft, oppLeft) => {
    if (!rules.backgammon_triple) return value;
    // The winner's home is the mover's points 1-6 when the mover won, 19-24 when not.
    const oppCaught = position.opp_bar > 0 || position.opp.slice(0, HOME).some(Boolean);
    const ownCaught = position.own_bar > 0 || position.own.slice(POINTS - HOME).some(Boolean);
    if (ownLeft === 0 && oppLeft === CHECKERS && oppCaught) return 3;
    if (oppLeft === 0 && ownLeft === CHECKERS && ownCaught) return -3;
    return value;
  });
}

/** The facts of a turn: a point is open unless two or more opponent checkers hold it, and a
 * lone one is hit (T4); the mover's bar enters first (T5). */
export function facts(position) {
  return raceFacts(
    position,
    (opponent) => opponent <= 1,
    (opponent) => opponent === 1,
    { bar: position.own_bar },
  );
}

/** The afterstate of a turn from `start`: the mover's counts and bar, and the checkers hit
 * (`marks`) sent to the opponent's bar. */
export function afterstate(start, { own, bar, marks }) {
  const opp = start.opp.slice();
  let hits = 0;
  for (let p = 0; p < POINTS; p++) {
    if ((marks >>> p) & 1) {
      opp[p] = 0;
      hits += 1;
    }
  }
  return {
    game: "tabla",
    own,
    opp,
    own_bar: bar,
    opp_bar: start.opp_bar + hits,
    own_off: CHECKERS - total(own) - bar,
    opp_off: start.opp_off,
  };
}

/** The checkers hit between `start` and `afterstate` (a mask: bit p - 1, point p). */
export function marksOf(afterstate, start) {
  let marks = 0;
  for (let p = 0; p < POINTS; p++) {
    if (start.opp[p] === 1 && afterstate.opp[p] === 0) marks |= 1 << p;
  }
  return marks;
}

/**
 * The features (Python's tapa_env/games/tabla/encoding.py). `raw` (`tabla-raw-v1`, 196): the
 * point units (192); each side's checkers on the bar over 2; each side's borne-off checkers
 * over 15. `expert` (`tabla-expert-v1`, 204): `raw`, then pip counts over 360 (the bar counts
 * 25), blots an enemy checker can hit with one die over 5, points made in the home over 6 (each
 * side mover first), whether the sides are past each other (a race), and both bars over 2.
 * `contact` (`tabla-contact-v1`, 222): `expert`, then nine contact features of each side
 * (web/js/games/tabla_contact.js). `name` is the encoding's.
 */
export function encodeInto(position, name, out, at) {
  const [ownTotal, oppTotal] = pointUnits(position, out, at);
  const { own, opp, own_bar: ownBar, opp_bar: oppBar } = position;
  let base = at + POINT_UNITS;
  out[base] = ownBar / 2;
  out[base + 1] = oppBar / 2;
  out[base + 2] = (CHECKERS - ownTotal - ownBar) / CHECKERS;
  out[base + 3] = (CHECKERS - oppTotal - oppBar) / CHECKERS;
  if (name === "raw") return;
  let ownPips = ownBar * BAR_PIPS;
  let oppPips = oppBar * BAR_PIPS;
  let ownBlots = 0;
  let oppBlots = 0;
  let ownMade = 0;
  let oppMade = 0;
  let ownRear = ownBar ? POINTS : -1; // the mover's rearmost checker (0-based; 24 on the bar)
  let oppRear = oppBar ? -1 : POINTS; // the opponent's, in the mover's numbering
  for (let p = 0; p < POINTS; p++) {
    ownPips += own[p] * (p + 1);
    oppPips += opp[p] * (POINTS - p);
    if (own[p]) ownRear = Math.max(ownRear, p);
    if (opp[p]) oppRear = Math.min(oppRear, p);
    if (p < HOME && own[p] >= 2) ownMade += 1;
    if (p >= POINTS - HOME && opp[p] >= 2) oppMade += 1;
  }
  for (let p = 0; p < POINTS; p++) {
    // A blot is shot at directly by an enemy checker 1 to 6 pips behind it.
    if (own[p] === 1) {
      for (let pips = 1; pips <= 6; pips++) {
        const q = p - pips; // the opponent moves up the mover's numbering
        if ((q >= 0 && opp[q]) || (q === -1 && oppBar)) {
          ownBlots += 1;
          break;
        }
      }
    }
    if (opp[p] === 1) {
      for (let pips = 1; pips <= 6; pips++) {
        const q = p + pips;
        if ((q < POINTS && own[q]) || (q === POINTS && ownBar)) {
          oppBlots += 1;
          break;
        }
      }
    }
  }
  base += 4;
  out[base] = ownPips / 360;
  out[base + 1] = oppPips / 360;
  out[base + 2] = ownBlots / 5;
  out[base + 3] = oppBlots / 5;
  out[base + 4] = ownMade / 6;
  out[base + 5] = oppMade / 6;
  out[base + 6] = ownRear < oppRear ? 1 : 0;
  out[base + 7] = (ownBar + oppBar) / 2;
  if (name === "contact") contactInto(position, out, base + 8);
}

/** What the registry (web/js/games/index.js) and the page read of Tabla, besides its
 * hooks; and what its checks read (web/js/games/race.js). */
export const game = Object.freeze({
  name: "tabla",
  title: "Tabla",
  rules: TABLA_RULES,
  keys: Object.freeze(["game", "own", "opp", "own_bar", "opp_bar", "own_off", "opp_off"]),
  notInGame: Object.freeze({
    own_pinned: "in Tabla a lone checker is hit, not pinned",
    opp_pinned: "in Tabla a lone checker is hit, not pinned",
  }),
  sharedPointRule: "a point with two or more checkers is held and a lone one is hit",
  where: "on the board and the bar",
  checkFields,
  encodings: Object.freeze({
    raw: Object.freeze({ name: "raw", version: "tabla-raw-v1", size: POINT_UNITS + 4 }),
    expert: Object.freeze({ name: "expert", version: "tabla-expert-v1", size: POINT_UNITS + 12 }),
    contact: Object.freeze({
      name: "contact",
      version: "tabla-contact-v1",
      size: POINT_UNITS + 12 + CONTACT_SIZE,
    }),
  }),
  // What the page reads (web/js/app.js, board.js, bot.js, ui_*.js, match.js):
  alsoCalled: "(backgammon, no cube)",
  keyed: true,
  hasPins: false,
  hasBar: true,
  landing: "a lone checker landed on is hit and goes to the bar",
  climbs: false,
  sameWayRound: false,
  botPoint: mirror,
  /** Whether the opponent holds `point`: two or more of its checkers (T4). */
  holds: (position, point) => position.opp[point - 1] >= 2,
  holdsWhy: "",
  diceRule: " (T6)",
  resultKinds: Object.freeze(["single", "mars", "backgammon"]),
  drawn: false,
  mostPoints: 3, // a backgammon, under backgammon_triple, in a single game (a match plays 2)
  /** The bot's levels: its network (valued in races too, `@nobearoff`) at 1-ply and 2-ply,
   * and the share of the games each wins against the game's heuristic bots, 2,000 duplicate
   * games a pairing (`python evaluate.py game=tabla
   * players=[checkpoints/tabla-td.pt@nobearoff,pubeval,hitter,safe]`, and with `@2ply`). */
  bot: Object.freeze({
    defaultLevel: "2ply",
    model: "tabla-td",
    checkpoint: "checkpoints/tabla-td.pt",
    network: "@nobearoff",
    strength: Object.freeze({
      bots: "pubeval / hitter / safe", "1ply": "67% / 89% / 93%", "2ply": "70% / 91% / 93%",
    }),
  }),
});

