/**
 * Tabla's `contact` features (`tabla-contact-v1`, the 18 columns after `expert`'s 204): a port
 * of `contact_features` of Python's tapa_env/games/tabla/encoding.py, the same bit masks, the
 * same tables, the same divisions. Nine features of each side, mover then opponent, each
 * counted in that side's own numbering (it moves from its bar, point 25, down to its point 1;
 * the other side's points block it where they hold two or more checkers):
 *
 * - escapes: of the 36 rolls, those that move the side's rearmost checker (the bar first) the
 *   whole roll through points the other side has not made (past its point 1 is open), over 36;
 * - containment: 1 minus the fewest such rolls, over 36, for a checker of the other side on
 *   any of its bar and the side's points 1 to 9, moving up through the side's made points;
 * - shots: the rolls, over 36, with which the other side can hit a blot of the side, directly
 *   or by combining dice through open points, after entering what it has on the bar;
 * - pip loss: over the same rolls, the most pips a hit costs (25 minus the blot's point), over
 *   36 * 24;
 * - back anchor: the side's rearmost point with two or more of its checkers, over 24 (0: none);
 * - anchored: 1 when the side has none on the bar and its rearmost checker is on such a point;
 * - timing: the pips the side can play before moving a checker in its home board, over 285;
 * - mobility: the points 1 to 24 a checker of the side reaches with one die (only entering
 *   while it has one on the bar) that the other side has not made, over 24;
 * - prime: the side's longest run of made points, at most 6, over 6.
 *
 * Point `x` of a side's numbering is bit `x` of its masks (bit 25: its bar). The masks stay
 * below bit 31 wherever a bit is kept (a shift past bit 31 only drops bits that the masks they
 * meet clear), so JavaScript's 32-bit operators give numba's int64 answers. Every value is a
 * count divided in doubles, then rounded to float32 once as it is stored, as numpy does.
 */

import { HOME, POINTS } from "../core/position.js";
import { count, passingRolls } from "./contact_common.js";

export { CONTACT_FEATURES, CONTACT_SIZE } from "./contact_common.js";

const BAR_PIPS = 25;
const ROLLS = 36;
const CONTAIN_FROM = 9; // containment: an enemy checker on its bar or the side's points 1-9
const TIMING_SCALE = 285; // 15 checkers on the bar, 19 pips each to the home board
/** The bits of points 1 to 24. */
const BOARD = ((1 << (POINTS + 1)) - 1) & ~1;

/** The bits of the blots a side rolling `d1`-`d2` can hit in some order of its moves, in the
 * numbering of the side hit (the hitting side moves up it and enters on the point of the die):
 * `hitters` its checkers on the board, `waiting` on its bar, which must all enter first;
 * `blocks` the points it cannot stop on. */
function hits(blots, hitters, blocks, waiting, d1, d2) {
  if (d1 !== d2) {
    if (waiting >= 2) return blots & ((1 << d1) | (1 << d2)); // both dice enter
    if (waiting === 1) {
      // one die enters (and may hit or go on), the other moves any checker
      let hit = 0;
      if (!((blocks >> d1) & 1)) hit |= (1 << d1) | (1 << (d1 + d2)) | (hitters << d2);
      if (!((blocks >> d2) & 1)) hit |= (1 << d2) | (1 << (d1 + d2)) | (hitters << d1);
      return blots & hit;
    }
    const clear = ~blocks;
    const through = hitters & ((clear >> d1) | (clear >> d2));
    return blots & ((hitters << d1) | (hitters << d2) | (through << (d1 + d2)));
  }
  let steps = 4;
  let movers = hitters;
  let hit = 0;
  if (waiting) {
    if ((blocks >> d1) & 1) return 0; // nothing enters, nothing moves
    hit = blots & (1 << d1);
    movers |= 1 << d1;
    steps = 4 - Math.min(waiting, 4);
  }
  for (let s = 0; s < steps; s++) {
    movers = (movers << d1) & ~blocks & BOARD;
    hit |= movers & blots;
  }
  return hit;
}

/** The contact features of one side into `out[at + 2 * f]` for feature `f` of
 * `CONTACT_FEATURES` (Python's `_side_features`): from the masks of its points with checkers,
 * with two or more, with one; its checkers on the bar, its rearmost point with checkers and
 * with two or more (0: none), its timing pips; the other side's points with checkers and with
 * two or more in the side's numbering, its points with two or more in its own numbering; and
 * its checkers on the bar. */
function sideFeatures(side, other, out, at) {
  const { occupied, made, blots, bar, anchor, timing } = side;
  const rear = bar ? POINTS + 1 : side.rear;
  // The point k pips in front of the rear checker is the other side's point 25 - rear + k.
  const escapes = rear === 0 ? ROLLS : passingRolls(other.madeOwn >> (POINTS + 2 - rear));
  let least = ROLLS;
  for (let y = 0; y <= CONTAIN_FROM; y++) {
    // an enemy checker on y moving up: y + k is bit k - 1
    least = Math.min(least, passingRolls(made >> (y + 1)));
  }
  let shots = 0;
  let loss = 0;
  if (blots && (other.occupied || other.bar)) {
    for (let d1 = 1; d1 <= 6; d1++) {
      for (let d2 = d1; d2 <= 6; d2++) {
        const hit = hits(blots, other.occupied, made, other.bar, d1, d2);
        if (hit) {
          const weight = d1 === d2 ? 1 : 2;
          shots += weight;
          loss += weight * (BAR_PIPS - (31 - Math.clz32(hit & -hit))); // the lowest blot hit
        }
      }
    }
  }
  let longest = 0;
  for (let run = made; run; run &= run >> 1) longest += 1;
  const sources = bar ? 1 << (POINTS + 1) : occupied;
  let reached = 0;
  for (let die = 1; die <= 6; die++) reached |= sources >> die;
  const mobility = count(reached & ~other.made & BOARD);
  out[at] = escapes / ROLLS;
  out[at + 2] = 1 - least / ROLLS;
  out[at + 4] = shots / ROLLS;
  out[at + 6] = loss / (ROLLS * POINTS);
  out[at + 8] = anchor / POINTS;
  out[at + 10] = rear && rear <= POINTS && (made >> rear) & 1 ? 1 : 0;
  out[at + 12] = timing / TIMING_SCALE;
  out[at + 14] = mobility / POINTS;
  out[at + 16] = Math.min(longest, HOME) / HOME;
}

/** A side's masks and counts: `occupied`, `made`, `blots` in its own numbering, `occupiedOther`
 * and `madeOther` in the other side's; `rear`, `anchor` and `timing` in its own. */
function emptySide(bar) {
  return {
    bar,
    occupied: 0,
    made: 0,
    blots: 0,
    occupiedOther: 0,
    madeOther: 0,
    rear: 0,
    anchor: 0,
    timing: bar * (BAR_PIPS - HOME),
  };
}

/** `contact`'s 18 features of a Tabla position into `out` from `at` (Python's
 * `contact_features`): each of `CONTACT_FEATURES`, the mover's then the opponent's. The
 * opponent's point `x` is the mover's `25 - x`. */
export function contactInto(position, out, at) {
  const { own, opp } = position;
  const mover = emptySide(position.own_bar);
  const opponent = emptySide(position.opp_bar);
  for (let p = 0; p < POINTS; p++) {
    const x = 1 << (p + 1); // the mover's point p + 1
    const r = 1 << (POINTS - p); // the same point in the opponent's numbering
    if (own[p]) {
      mover.occupied |= x;
      mover.occupiedOther |= r;
      mover.rear = p + 1;
      if (own[p] >= 2) {
        mover.made |= x;
        mover.madeOther |= r;
        mover.anchor = p + 1;
      } else {
        mover.blots |= x;
      }
      if (p >= HOME) mover.timing += own[p] * (p + 1 - HOME);
    }
    if (opp[p]) {
      opponent.occupied |= r;
      opponent.occupiedOther |= x;
      opponent.rear = Math.max(opponent.rear, POINTS - p);
      if (opp[p] >= 2) {
        opponent.made |= r;
        opponent.madeOther |= x;
        opponent.anchor = Math.max(opponent.anchor, POINTS - p);
      } else {
        opponent.blots |= r;
      }
      if (POINTS - p > HOME) opponent.timing += opp[p] * (POINTS - p - HOME);
    }
  }
  // Each side against the other: the other's checkers and made points in the side's
  // numbering, its made points in its own, its checkers on the bar.
  const against = (side) => ({
    occupied: side.occupiedOther,
    made: side.madeOther,
    madeOwn: side.made,
    bar: side.bar,
  });
  sideFeatures(mover, against(opponent), out, at);
  sideFeatures(opponent, against(mover), out, at + 1);
}
