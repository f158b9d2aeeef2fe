/**
 * A plain search over a turn's single checker moves, from the facts a game gives
 * (`game.facts(position, rules)`, web/js/core/search.js): the turn machine (web/js/core/turn.js)
 * and the notation (web/js/core/notation.js) walk it, where the fast search only counts.
 *
 * A state is the mover's counts by point (index 0 unused, 25 the bar) and a bit mask of the
 * points where it has marked an opponent checker, pinned or hit (bit p - 1: point p).
 */

import { BAR_POINT, HOME, POINTS, halfTurn } from "./position.js";

const WALL = 0b111111;

const bit = (mask, point) => ((mask >>> (point - 1)) & 1) === 1;

export class Board {
  /** @param {object} facts a game's facts of the turn (web/js/core/search.js). */
  constructor(facts) {
    this.facts = facts;
    this.zone = facts.zone;
  }

  /** Whether a move leaves six points in a row of the opponent's path held with every
   * opponent checker behind them (G7, F7). */
  walled(own) {
    let held = 0;
    for (let p = 1; p <= POINTS; p++) if (own[p]) held |= 1 << (halfTurn(p) - 1);
    held &= this.zone;
    for (let q = 0; q < POINTS - 5; q++) if (((held >>> q) & WALL) === WALL) return true;
    return false;
  }

  /** The source points (ascending; the bar, 25, alone while it holds a checker) whose
   * checker may move `die` pips: not stuck, not barred (F5), and not onto a wall (G7, F7) or
   * points the game forbids (F6). */
  sources(own, die) {
    const { open, stuck, bearOffBlocked } = this.facts;
    if (own[BAR_POINT]) return bit(open, BAR_POINT - die) ? [BAR_POINT] : [];
    const found = [];
    let home = true;
    let highest = 0;
    for (let p = 1; p <= POINTS; p++) {
      if (!own[p]) continue;
      if (p > HOME) home = false;
      highest = p;
    }
    home &&= !bearOffBlocked;
    const { barred, forbids } = this.facts;
    const held = barred || forbids ? occupiedPoints(own) : 0;
    const kept = barred ? stuck | barred(held) : stuck;
    for (let p = 1; p <= POINTS; p++) {
      if (!own[p] || bit(kept, p)) continue;
      const target = p - die;
      let legal = target >= 1 && bit(open, target);
      // A die bears off from its own point, or from the highest one when it is larger.
      if (home && target === 0) legal = true;
      if (home && target < 0 && p === highest) legal = true;
      if (legal && (this.zone || forbids)) {
        const [after] = this.move(own, 0, p, die);
        if (this.zone && this.walled(after)) legal = false;
        if (forbids && forbids(occupiedPoints(after))) legal = false;
      }
      if (legal) found.push(p);
    }
    return found;
  }

  /** `[own, marks, marked]` after a checker moves `die` from `source` (25: the bar):
   * `marked` whether it landed on a lone opponent checker not marked before. */
  move(own, marks, source, die) {
    own = own.slice();
    own[source] -= 1;
    if (!own[source] && this.facts.releases) marks &= ~(1 << (source - 1)); // a pin ends
    const target = source - die;
    let marked = false;
    if (target >= 1) {
      own[target] += 1;
      if (bit(this.facts.lone, target) && !bit(marks, target)) {
        marks |= 1 << (target - 1);
        marked = true;
      }
    }
    return [own, marks, marked];
  }

  /** Whether the game is over after a checker move (a game whose facts say it may end so). */
  ended(own, marks) {
    const { ended } = this.facts;
    if (ended === null) return false;
    return ended(occupiedPoints(own), marks);
  }

  /** Most of `dice` still playable in order, as if the game went on; with `ordered` a
   * double's sources never rise above `limit`. */
  longest(own, marks, dice, ordered = false, limit = BAR_POINT) {
    if (!dice.length) return 0;
    let best = 0;
    for (const source of this.sources(own, dice[0])) {
      if (ordered && source > limit) continue;
      if (dice.length === 1) return 1;
      const [after, afterMarks] = this.move(own, marks, source, dice[0]);
      best = Math.max(best, 1 + this.longest(after, afterMarks, dice.slice(1), ordered, source));
      if (best === dice.length) break;
    }
    return best;
  }
}

/** The points of the counts `own` (index 1-24) that hold a checker: bit p - 1, point p. */
export function occupiedPoints(own) {
  let occupied = 0;
  for (let p = 1; p <= POINTS; p++) if (own[p]) occupied |= 1 << (p - 1);
  return occupied;
}

/** The state a turn of `position` starts from: counts by point with the bar at 25. */
export function startCounts(position, facts) {
  return [0, ...position.own, facts.bar];
}
