/**
 * The networks' input encodings of Tabla and Gulbara, feature for feature those of Python's
 * tapa_env/encoding_tabla_gulbara.py, as float32 arrays (each value computed in doubles and
 * rounded to float32 once, as numpy does). Every feature is read from the frame of the position
 * given: for an afterstate, the side that has just moved.
 *
 * Tabla `raw` (`tabla-raw-v1`, 196 features): for each point 1-24 and each side the units
 * `[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]` (mover first, 192); each side's checkers on
 * the bar over 2; each side's borne-off checkers over 15.
 * Tabla `expert` (`tabla-expert-v1`, 204): `raw`, then pip counts over 360 (the bar counts
 * 25), blots an enemy checker can hit with one die over 5, points made in the home over 6 (each
 * side mover first), whether the sides are past each other (a race), and both bars over 2.
 * Gulbara `raw` (`gulbara-raw-v1`, 205): the point units (192, mover's numbering), borne-off
 * checkers over 15 (2), the double still to play (one unit each for 1-6), its dice left over 4,
 * whether handed, each side's turns over 3, and whether the frame's side moves next.
 * Gulbara `expert` (`gulbara-expert-v1`, 211): `raw`, then pip counts over 360, the longest run
 * of points each side holds (in its own order of travel) over 6, checkers home over 15.
 */

import { CHECKERS, POINTS } from "./position.js";
import { COUNTED_TURNS, HALF, TABLA, gulbaraPoint } from "./position_tabla_gulbara.js";

const UNITS = 4;
const POINT_UNITS = 2 * POINTS * UNITS; // 192
const HOME = 6;
const BAR_PIPS = 25;

/** Each game's encodings by name: `{name, version, size}`, as a bot file's metadata names
 * them (`encoding` and `encoding_version`). */
export const RACE_ENCODINGS = Object.freeze({
  tabla: Object.freeze({
    raw: Object.freeze({ name: "raw", version: "tabla-raw-v1", size: POINT_UNITS + 4 }),
    expert: Object.freeze({ name: "expert", version: "tabla-expert-v1", size: POINT_UNITS + 12 }),
  }),
  gulbara: Object.freeze({
    raw: Object.freeze({ name: "raw", version: "gulbara-raw-v1", size: POINT_UNITS + 13 }),
    expert: Object.freeze({
      name: "expert", version: "gulbara-expert-v1", size: POINT_UNITS + 19,
    }),
  }),
});

/** The point units of `position` into `out` from `at`; returns the checkers on the board of
 * each side. */
function pointUnits(position, out, at) {
  const units = (column, n) => {
    out[at + column] = n >= 1 ? 1 : 0;
    out[at + column + 1] = n >= 2 ? 1 : 0;
    out[at + column + 2] = n >= 3 ? 1 : 0;
    out[at + column + 3] = n > 3 ? (n - 3) / 2 : 0;
  };
  let own = 0;
  let opp = 0;
  for (let p = 0; p < POINTS; p++) {
    own += position.own[p];
    opp += position.opp[p];
    units(p * UNITS, position.own[p]);
    units((POINTS + p) * UNITS, position.opp[p]);
  }
  return [own, opp];
}

function encodeTabla(position, expert, out, at) {
  const [ownTotal, oppTotal] = pointUnits(position, out, at);
  const { own, opp, own_bar: ownBar, opp_bar: oppBar } = position;
  let base = at + POINT_UNITS;
  out[base] = ownBar / 2;
  out[base + 1] = oppBar / 2;
  out[base + 2] = (CHECKERS - ownTotal - ownBar) / CHECKERS;
  out[base + 3] = (CHECKERS - oppTotal - oppBar) / CHECKERS;
  if (!expert) return;
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

function encodeGulbara(position, expert, out, at) {
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
  if (!expert) return;
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

/** Write the features of the Tabla or Gulbara `position` by `encoding` ("raw" or "expert")
 * into `out` from index `at`. */
export function encodeRaceInto(position, encoding, out, at) {
  const expert = encoding === "expert";
  if (position.game === TABLA) encodeTabla(position, expert, out, at);
  else encodeGulbara(position, expert, out, at);
}
