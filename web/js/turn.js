/**
 * A turn played one checker move at a time, as a person plays it on a board: a port of
 * Python's tapa_env/checker_moves.py.
 *
 * A checker move is legal when it begins some complete legal play of what is left of the
 * turn, so the dice rules (R6) hold exactly: at the start of a turn the length of its plays is
 * the most dice any play can use, as if the game went on after every move; with one die of a
 * non-double playable, only the larger die's moves are legal when there are any; later, a move
 * is legal when the dice left can still complete a play of that length. Under the default
 * rules a move that ends the game ends the turn at once. So the complete plays reached move
 * by move are exactly the afterstates of `legalPlays`.
 *
 *   const turn = new CheckerTurn(position, [6, 5]);
 *   turn.legalMoves();   // [{from: 13, to: 7, die: 6}, ...]
 *   turn.play(24, 6);    // move a checker from 24 with the 6
 *   turn.undo();         // take it back
 *   turn.done;           // true once the play is complete: turn.position is the afterstate
 */

import { CHECKERS, POINTS, checkPosition } from "./position.js";
import { DEFAULT_RULES, checkDice, checkRules } from "./rules.js";

const HOME = 6;

/** The turn's fixed facts, and its moves. A state is the mover's counts by point (index 0
 * unused) and a bit mask of the points where it pins an opponent checker (bit p - 1: point p). */
class Board {
  constructor(position, rules) {
    const pins = new Array(POINTS + 1).fill(0);
    for (const p of position.opp_pinned) pins[p] = 1;
    for (const p of position.own_pinned) pins[p] = -1;
    this.open = [false];
    this.lone = [false];
    this.stuck = [false];
    for (let p = 1; p <= POINTS; p++) {
      const opp = position.opp[p - 1];
      // Held by the opponent: two or more of its checkers, or one on a pinned one (R4).
      this.open.push(pins[p] === 1 || (pins[p] === 0 && opp <= 1));
      this.lone.push(opp === 1 && pins[p] !== -1);
      this.stuck.push(pins[p] === -1);
    }
    this.bearOffBlocked = this.stuck.some(Boolean) && rules.pinned_blocks_bear_off;
    this.ownMotherPinned = this.stuck[POINTS];
    this.rules = rules;
  }

  /** Whether a checker on `source` may move `die` pips in `own` (R3, R4, R5, R7). */
  legal(own, source, die) {
    if (!own[source] || this.stuck[source]) return false;
    const target = source - die;
    if (target >= 1) return this.open[target];
    for (let p = HOME + 1; p <= POINTS; p++) if (own[p]) return false;
    if (this.bearOffBlocked) return false;
    if (target === 0) return true;
    for (let p = source + 1; p <= HOME; p++) if (own[p]) return false;
    return true; // a die above the highest point bears off from it
  }

  /** `[own, pinned]` after a checker moves `die` from `source` (R5). */
  move(own, pinned, source, die) {
    own = own.slice();
    own[source] -= 1;
    if (!own[source]) pinned &= ~(1 << (source - 1)); // the last pinner left: the checker is free
    const target = source - die;
    if (target >= 1) {
      own[target] += 1;
      if (this.lone[target]) pinned |= 1 << (target - 1);
    }
    return [own, pinned];
  }

  /** Whether the game is over after this checker move (R8, R9, R10). */
  ended(own, pinned) {
    if (!own.some(Boolean)) return true;
    if (pinned & 1) {
      if (this.ownMotherPinned && this.rules.both_mothers_draw) return true;
      return !own[POINTS] || !this.rules.mother_needs_empty_start;
    }
    return false;
  }

  /** Most of `dice` still playable in order, as if the game went on (R6). */
  longest(own, pinned, dice) {
    if (!dice.length) return 0;
    let best = 0;
    for (let source = 1; source <= POINTS && best < dice.length; source++) {
      if (!this.legal(own, source, dice[0])) continue;
      const [after, afterPinned] = this.move(own, pinned, source, dice[0]);
      best = Math.max(best, 1 + this.longest(after, afterPinned, dice.slice(1)));
    }
    return best;
  }
}

function pinMask(points) {
  return points.reduce((mask, point) => mask | (1 << (point - 1)), 0);
}

/** One turn of one position and roll, played checker move by checker move. */
export class CheckerTurn {
  /**
   * @param {object} position the position before the turn, interchange format, mover's view
   *   (checked).
   * @param {number[]} dice the roll `[a, b]`.
   * @param {object} [rules] rule flags (`DEFAULT_RULES`).
   */
  constructor(position, dice, rules = DEFAULT_RULES) {
    this.rules = checkRules(rules);
    checkPosition(position);
    const [first, second] = checkDice(dice);
    this.start = {
      ...position,
      own: position.own.slice(),
      opp: position.opp.slice(),
      own_pinned: position.own_pinned.slice(),
      opp_pinned: position.opp_pinned.slice(),
    };
    this.dice = [first, second];
    this._board = new Board(position, this.rules);
    const own = [0, ...position.own];
    const pinned = pinMask(position.opp_pinned);
    if (first === second) {
      this._length = this._board.longest(own, pinned, [first, first, first, first]);
      this._largerOnly = false;
    } else {
      this._length = Math.max(
        this._board.longest(own, pinned, [first, second]),
        this._board.longest(own, pinned, [second, first]),
      );
      const larger = Math.max(first, second);
      let playable = false;
      for (let source = 1; source <= POINTS; source++) {
        if (this._board.legal(own, source, larger)) playable = true;
      }
      this._largerOnly = this._length === 1 && playable;
    }
    this._reset();
  }

  _reset() {
    const [first, second] = this.dice;
    this._own = [0, ...this.start.own];
    this._pinned = pinMask(this.start.opp_pinned);
    const larger = Math.max(first, second);
    const smaller = Math.min(first, second);
    this._left = first === second ? [first, first, first, first] : [larger, smaller];
    this._needed = this._length;
    this._ended = false;
    this._moves = [];
  }

  /** The checker moves made so far, `[{from, to, die}]` (`to` 0 for a bear-off). */
  get moves() {
    return this._moves.map((move) => ({ ...move }));
  }

  /** The dice still to play, larger first (e.g. `[5]`, or `[3, 3, 3]` for a double). */
  get diceLeft() {
    return this._left.slice();
  }

  /** Whether the play is complete: every die it must use is used, the game ended part-way
   * (R6), or there was nothing to play (a pass). `position` is then the afterstate. */
  get done() {
    return this._needed <= 0 || this._ended;
  }

  /** The position now, after the moves made so far (mover's view, a new object). */
  get position() {
    const own = this._own.slice(1);
    const onBoard = own.reduce((a, b) => a + b, 0);
    return {
      own,
      opp: this.start.opp.slice(),
      own_pinned: this.start.own_pinned.slice(),
      opp_pinned: this.start.opp.flatMap((_, i) => ((this._pinned >>> i) & 1 ? [i + 1] : [])),
      own_off: CHECKERS - onBoard,
      opp_off: this.start.opp_off,
    };
  }

  /** The checker moves legal now, `[{from, to, die}]` by source point then die, ascending;
   * none once the turn is done. */
  legalMoves() {
    const found = [];
    if (this.done) return found;
    const tried = new Set();
    for (const die of this._left) {
      if (tried.has(die)) continue;
      tried.add(die);
      if (this._largerOnly && die !== this._left[0]) continue;
      const rest = this._left.slice();
      rest.splice(rest.indexOf(die), 1);
      for (let source = 1; source <= POINTS; source++) {
        if (!this._board.legal(this._own, source, die)) continue;
        let legal = this._needed === 1;
        if (!legal) {
          const [after, pinned] = this._board.move(this._own, this._pinned, source, die);
          legal = this._board.longest(after, pinned, rest) >= this._needed - 1;
        }
        if (legal) found.push({ from: source, to: Math.max(source - die, 0), die });
      }
    }
    return found.sort((a, b) => a.from - b.from || a.die - b.die);
  }

  /**
   * Move a checker from point `from` with the die `die`; throws an Error naming the move
   * and the legal ones when it is not legal now.
   * @returns {boolean} whether the play is now complete (`done`).
   */
  play(from, die) {
    const legal = this.legalMoves();
    if (!legal.some((move) => move.from === from && move.die === die)) {
      const listed = legal.map((m) => `${m.from}/${m.to || "off"} (${m.die})`).join(", ");
      throw new Error(
        `${from}/${Math.max(from - die, 0) || "off"} with a ${die} is not a legal move now; ` +
          (listed ? `the legal moves are ${listed}` : "the turn is complete"),
      );
    }
    [this._own, this._pinned] = this._board.move(this._own, this._pinned, from, die);
    this._left.splice(this._left.lastIndexOf(die), 1);
    this._needed -= 1;
    this._moves.push({ from, to: Math.max(from - die, 0), die });
    this._ended = this.rules.win_checked_each_move && this._board.ended(this._own, this._pinned);
    return this.done;
  }

  /** Take back the last checker move (nothing happens when none was made). */
  undo() {
    const moves = this._moves.slice(0, -1);
    this._reset();
    for (const { from, die } of moves) this.play(from, die);
  }
}
