/**
 * Tapa's `contact` features (`tapa-contact-v1`, the 18 columns after `expert`'s 258): a port of
 * `contact_of_masks` of Python's tapa_env/games/tapa/encoding.py, the same bit masks, the same
 * tables, the same divisions. Nine features of each side, mover then opponent, each counted in
 * that side's own numbering (it moves from its point 24 down to its point 1, the other side up
 * its points). A side *holds* a point where it has two or more checkers or where its checker
 * pins one of the other side's (R4): the other side cannot stop there. A lone checker that is
 * not pinned holds nothing (landing on it pins it); a pinned checker cannot move (R5).
 *
 * - escapes: of the 36 rolls, those that move the side's rearmost unpinned checker the whole
 *   roll through points the other side does not hold (past point 1 is open), over 36; 1 when
 *   the side has no unpinned checker;
 * - containment: 1 minus the fewest such rolls, over 36, for a checker of the other side on
 *   any of the side's points 1 to 9, moving up through the points the side holds;
 * - shots: the rolls, over 36, with which an unpinned checker of the other side can pin a lone
 *   unpinned checker of the side (not one that pins), with one die or with dice touching down
 *   on points the side does not hold;
 * - pip loss: over the same rolls, the point of the rearmost checker the roll can pin, over
 *   36 * 24;
 * - back anchor: the side's rearmost point it holds, over 24 (0: none);
 * - anchored: 1 when the side's rearmost checker, pinned ones included, is on a point it holds;
 * - timing: the pips its unpinned checkers on its points 7 to 24 can play before they reach
 *   its home board, over 270;
 * - mobility: the points 1 to 24 an unpinned checker of the side reaches with one die that the
 *   other side does not hold, over 24;
 * - prime: the side's longest run of points it holds, at most 6, over 6.
 *
 * Point `x` of a side's numbering is bit `x - 1` of its masks. The masks stay below bit 24
 * wherever a bit is kept (a shift past bit 31 only drops bits that the masks they meet clear),
 * so JavaScript's 32-bit operators give numba's int64 answers. Every value is a count divided
 * in doubles, then rounded to float32 once as it is stored, as numpy does.
 */

import { HOME, POINTS } from "../core/position.js";
import { count, passingRolls } from "./contact_common.js";

export { CONTACT_FEATURES, CONTACT_SIZE } from "./contact_common.js";

const DIE = 6;
const ROLLS = 36;
const CONTAIN_TO = 9; // containment: a checker of the other side on the side's points 1 to 9
const TIMING_SCALE = 270; // 15 checkers on point 24, 18 pips each to the home board
/** The bits of points 1 to 24. */
const ALL_POINTS = (1 << POINTS) - 1;

/** The highest set bit of a non-zero mask (below bit 31). */
const top = (mask) => 31 - Math.clz32(mask);

/** The contact features of one side into `out[at + 2 * f]` for feature `f` of
 * `CONTACT_FEATURES` (Python's `_side_contact`), from its masks in its numbering: its points
 * with checkers, with two or more, with one, with one of its checkers pinned, and its pips to
 * its home board (pinned checkers included); and from the other side's: its points with
 * checkers, with two or more, with one of its checkers pinned (by this side), in this side's
 * numbering, and the points it holds in its own numbering. */
function sideFeatures(side, other, out, at) {
  const { occupied: mine, made, lone, pinned, timing } = side;
  const { occupied: theirs, made: theirMade, pinned: theirPinned } = other;
  const holds = made | theirPinned; // the other side cannot stop on these
  const theirHolds = theirMade | pinned;
  const movable = mine & ~pinned;
  const theirMovable = theirs & ~theirPinned;
  const targets = lone & ~(pinned | theirPinned); // lone, neither pinned nor pinning
  // The point k pips in front of the rear checker (bit `rear`) is the other side's point
  // 24 - rear + k: bit k - 1 of its holds, in its numbering, shifted.
  const escapes = movable ? passingRolls(other.holdsOwn >> (POINTS - top(movable))) : ROLLS;
  let least = ROLLS;
  for (let y = 1; y <= CONTAIN_TO; y++) {
    // a checker on point y moving up: y + k is bit k - 1
    least = Math.min(least, passingRolls(holds >> y));
  }
  let shots = 0;
  let loss = 0;
  if (targets && theirMovable) {
    const clear = ~holds;
    for (let d1 = 1; d1 <= DIE; d1++) {
      for (let d2 = d1; d2 <= DIE; d2++) {
        let pinnedNow = 0;
        let weight = 1;
        if (d1 !== d2) {
          const through = theirMovable & ((clear >> d1) | (clear >> d2));
          const landing = (theirMovable << d1) | (theirMovable << d2);
          pinnedNow = targets & (landing | (through << (d1 + d2)));
          weight = 2;
        } else {
          let movers = theirMovable;
          for (let s = 0; s < 4; s++) {
            movers = (movers << d1) & clear & ALL_POINTS;
            pinnedNow |= movers & targets;
          }
        }
        if (pinnedNow) {
          shots += weight;
          loss += weight * (top(pinnedNow) + 1);
        }
      }
    }
  }
  let stuck = 0; // the pips to the home board of the side's pinned checkers, which cannot move
  for (let outside = pinned >> HOME; outside; outside &= outside - 1) {
    stuck += top(outside & -outside) + 1;
  }
  let reached = 0;
  for (let die = 1; die <= DIE; die++) reached |= movable >> die;
  let longest = 0;
  for (let run = holds; run; run &= run >> 1) longest += 1;
  const anchored = mine ? (holds >> top(mine)) & 1 : 0;
  out[at] = escapes / ROLLS;
  out[at + 2] = 1 - least / ROLLS;
  out[at + 4] = shots / ROLLS;
  out[at + 6] = loss / (ROLLS * POINTS);
  out[at + 8] = holds ? (top(holds) + 1) / POINTS : 0;
  out[at + 10] = anchored ? 1 : 0;
  out[at + 12] = (timing - stuck) / TIMING_SCALE;
  out[at + 14] = count(reached & ~theirHolds & ALL_POINTS) / POINTS;
  out[at + 16] = Math.min(longest, HOME) / HOME;
}

/** A side's masks: `occupied`, `made` (two or more), `lone` (one, pinned or not), `pinned` (one
 * of its checkers pinned) in its own numbering, the same in the other side's
 * (`occupiedOther`, ...), and its pips to its home board, `timing`, pinned checkers included. */
function emptySide() {
  return {
    occupied: 0,
    made: 0,
    lone: 0,
    pinned: 0,
    occupiedOther: 0,
    madeOther: 0,
    pinnedOther: 0,
    timing: 0,
  };
}

/** `contact`'s 18 features of a Tapa position into `out` from `at` (Python's
 * `contact_of_masks`): each of `CONTACT_FEATURES`, the mover's then the opponent's. The
 * opponent's point `x` is the mover's `25 - x`. */
export function contactInto(position, out, at) {
  const { own, opp } = position;
  const mover = emptySide();
  const opponent = emptySide();
  for (let p = 0; p < POINTS; p++) {
    const x = 1 << p; // the mover's point p + 1
    const r = 1 << (POINTS - 1 - p); // the same point in the opponent's numbering
    if (own[p]) {
      mover.occupied |= x;
      mover.occupiedOther |= r;
      if (own[p] >= 2) {
        mover.made |= x;
        mover.madeOther |= r;
      } else {
        mover.lone |= x;
      }
      if (p >= HOME) mover.timing += own[p] * (p + 1 - HOME);
    }
    if (opp[p]) {
      opponent.occupied |= r;
      opponent.occupiedOther |= x;
      if (opp[p] >= 2) {
        opponent.made |= r;
        opponent.madeOther |= x;
      } else {
        opponent.lone |= r;
      }
      if (POINTS - p > HOME) opponent.timing += opp[p] * (POINTS - p - HOME);
    }
  }
  for (const point of position.own_pinned) {
    mover.pinned |= 1 << (point - 1);
    mover.pinnedOther |= 1 << (POINTS - point);
  }
  for (const point of position.opp_pinned) {
    opponent.pinned |= 1 << (POINTS - point);
    opponent.pinnedOther |= 1 << (point - 1);
  }
  // Each side against the other: the other's checkers, made points and pinned checkers in the
  // side's numbering, and the points it holds (its made points, the side's checkers it pins)
  // in its own.
  const against = (them, side) => ({
    occupied: them.occupiedOther,
    made: them.madeOther,
    pinned: them.pinnedOther,
    holdsOwn: them.made | side.pinnedOther,
  });
  sideFeatures(mover, against(opponent, mover), out, at);
  sideFeatures(opponent, against(mover, opponent), out, at + 1);
}
