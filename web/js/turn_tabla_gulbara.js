/**
 * A turn of Tabla or Gulbara played one checker move at a time, as a person plays it on a
 * board: a port of Python's tapa_env/checker_moves_tabla_gulbara.py, with the members of Tapa's
 * `CheckerTurn` (web/js/turn.js).
 *
 * A checker move is legal when it begins some complete legal play of what is left of the turn,
 * so the dice rules (T6) hold exactly: at the start of a turn the length of its plays is the
 * most dice any play can use; with one die of a non-double playable, only the larger die's
 * moves are legal when there are any; later, a move is legal when the dice left can still
 * complete a play of that length. Tabla's bar is source point 25: a checker on it enters with
 * a die of d on the mover's point 25 - d, before any other checker moves (T5). In Gulbara the
 * turn is one double of a climb when the position has one to play (G5), and the complete play
 * carries the turn state that follows it (who moves next, what is left of the climb), as
 * `legalPlays`' afterstates do. So the complete plays reached move by move are exactly the
 * afterstates of `legalPlays`.
 */

import { BAR_POINT } from "./notation_common.js";
import { CHECKERS, POINTS, PositionError } from "./position.js";
import {
  GULBARA,
  TABLA,
  checkRacePosition,
  gulbaraPoint,
} from "./position_tabla_gulbara.js";
import { checkRaceRules, gulbaraTurn } from "./rules_tabla_gulbara.js";

const HOME = 6;
const WALL = 0b111111;

/** The turn's fixed facts and its moves. A state is the mover's counts by point (index 0
 * unused, 25 the bar) and a bit mask of the points where it has hit (bit p - 1: point p). */
class Board {
  constructor(position, rules) {
    this.tabla = position.game === TABLA;
    const limit = this.tabla ? 1 : 0;
    this.open = [false, ...position.opp.map((n) => n <= limit)];
    this.blot = [false, ...position.opp.map((n) => this.tabla && n === 1)];
    this.zone = 0;
    if (!this.tabla && rules.six_prime_needs_checker_ahead && position.opp_off === 0) {
      let foremost = POINTS + 1;
      position.opp.forEach((n, i) => {
        if (n) foremost = Math.min(foremost, gulbaraPoint(i + 1));
      });
      this.zone = (1 << (foremost - 1)) - 1;
    }
  }

  /** Whether a move leaves six points in a row of the opponent's path held with every
   * opponent checker behind them (G7). */
  walled(own) {
    let held = 0;
    for (let p = 1; p <= POINTS; p++) if (own[p]) held |= 1 << (gulbaraPoint(p) - 1);
    held &= this.zone;
    for (let q = 0; q < POINTS - 5; q++) if (((held >>> q) & WALL) === WALL) return true;
    return false;
  }

  /** The source points (ascending, the bar last) whose checker may move `die` pips. */
  sources(own, die) {
    if (own[BAR_POINT]) return this.open[BAR_POINT - die] ? [BAR_POINT] : [];
    const found = [];
    let home = true;
    let highest = 0;
    for (let p = 1; p <= POINTS; p++) {
      if (!own[p]) continue;
      if (p > HOME) home = false;
      highest = p;
    }
    for (let p = 1; p <= POINTS; p++) {
      if (!own[p]) continue;
      const target = p - die;
      let legal = target >= 1 && this.open[target];
      // A die bears off from its own point, or from the highest one when it is larger (T7).
      if (home && target === 0) legal = true;
      if (home && target < 0 && p === highest) legal = true;
      if (legal && this.zone && this.walled(this.move(own, 0, p, die)[0])) legal = false;
      if (legal) found.push(p);
    }
    return found;
  }

  /** `[own, hits]` after a checker moves `die` from `source` (25: the bar). */
  move(own, hits, source, die) {
    own = own.slice();
    own[source] -= 1;
    const target = source - die;
    if (target >= 1) {
      own[target] += 1;
      if (this.blot[target]) hits |= 1 << (target - 1);
    }
    return [own, hits];
  }

  /** Most of `dice` still playable in order; a double's sources never rise above `limit`
   * (`ordered`). With its last checker borne off a side plays no more dice. */
  longest(own, dice, ordered, limit = BAR_POINT) {
    if (!dice.length) return 0;
    let best = 0;
    for (const source of this.sources(own, dice[0])) {
      if (ordered && source > limit) continue;
      if (dice.length === 1) return 1;
      const [after] = this.move(own, 0, source, dice[0]);
      best = Math.max(best, 1 + this.longest(after, dice.slice(1), ordered, source));
      if (best === dice.length) break;
    }
    return best;
  }
}

/** One turn of a Tabla or Gulbara position and roll, played checker move by checker move. */
export class RaceCheckerTurn {
  /**
   * @param {object} position the position before the turn, interchange format, mover's view
   *   (checked; a Gulbara position must be its mover's turn).
   * @param {number[]} dice the roll `[a, b]`; in Gulbara with a climb to play, that double.
   * @param {object} [rules] the game's rule flags.
   */
  constructor(position, dice, rules) {
    checkRacePosition(position);
    this.game = position.game;
    this.rules = checkRaceRules(rules, this.game);
    const ok =
      Array.isArray(dice) &&
      dice.length === 2 &&
      dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
    if (!ok) throw new Error(`dice must be a pair of integers 1-6, got ${JSON.stringify(dice)}`);
    const [first, second] = dice;
    if (this.game === GULBARA) {
      if (position.next !== "own") {
        throw new PositionError("its next is 'opp', so it is not this side's turn; flip it first");
      }
      if (position.climb && (first !== position.climb || second !== position.climb)) {
        throw new Error(
          `the position has the climbing double ${position.climb}-${position.climb} to play ` +
            `(G5), not the roll ${first}-${second}`,
        );
      }
    }
    this.start = structuredClone(position);
    this.dice = [first, second];
    this._board = new Board(position, this.rules);
    const own = this._startOwn();
    const larger = Math.max(first, second);
    if (first === second) {
      const count = this.game === GULBARA && position.climb ? position.climb_dice : 4;
      this._dice = new Array(count).fill(first);
      this._length = this._board.longest(own, this._dice, this._board.zone === 0);
      this._largerOnly = false;
    } else {
      this._dice = [larger, Math.min(first, second)];
      this._length = Math.max(
        this._board.longest(own, [first, second], false),
        this._board.longest(own, [second, first], false),
      );
      this._largerOnly = this._length === 1 && this._board.sources(own, larger).length > 0;
    }
    this._turnState =
      this.game === GULBARA ? gulbaraTurn(position, this.dice, this._length, this.rules) : null;
    this._reset();
  }

  _startOwn() {
    return [0, ...this.start.own, this.game === TABLA ? this.start.own_bar : 0];
  }

  _reset() {
    this._own = this._startOwn();
    this._hits = 0;
    this._left = this._dice.slice();
    this._needed = this._length;
    this._moves = [];
  }

  /** The checker moves made so far, `[{from, to, die}]` (`from` 25: the bar; `to` 0: off). */
  get moves() {
    return this._moves.map((move) => ({ ...move }));
  }

  /** The dice still to play, larger first. */
  get diceLeft() {
    return this._left.slice();
  }

  /** Whether the play is complete: every die it must use is used, or nothing could be
   * played (a pass). `position` is then the afterstate. */
  get done() {
    return this._needed <= 0;
  }

  /** The position now, after the moves made so far (mover's view, a new object); once the
   * turn is done, with the turn state that follows it (Gulbara). */
  get position() {
    const own = this._own.slice(1, POINTS + 1);
    const onBoard = own.reduce((a, b) => a + b, 0);
    const start = this.start;
    if (this.game === TABLA) {
      const opp = start.opp.slice();
      let hits = 0;
      for (let p = 1; p <= POINTS; p++) {
        if ((this._hits >>> (p - 1)) & 1) {
          opp[p - 1] = 0;
          hits += 1;
        }
      }
      const bar = this._own[BAR_POINT];
      return {
        game: TABLA, own, opp, own_bar: bar, opp_bar: start.opp_bar + hits,
        own_off: CHECKERS - onBoard - bar, opp_off: start.opp_off,
      };
    }
    const position = { ...structuredClone(start), own, own_off: CHECKERS - onBoard };
    if (!this.done) return position;
    Object.assign(position, this._turnState);
    if (onBoard === 0) Object.assign(position, { next: "opp", climb: 0, climb_dice: 0, handed: false });
    return position;
  }

  /** The checker moves legal now, `[{from, to, die}]` by source point (the bar, 25, last)
   * then die, ascending; none once the turn is done. */
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
      const ordered = rest.length > 0 && rest[0] === die && this._board.zone === 0;
      for (const source of this._board.sources(this._own, die)) {
        let legal = this._needed === 1;
        if (!legal) {
          const [after] = this._board.move(this._own, 0, source, die);
          legal = this._board.longest(after, rest, ordered) >= this._needed - 1;
        }
        if (legal) found.push({ from: source, to: Math.max(source - die, 0), die });
      }
    }
    return found.sort((a, b) => a.from - b.from || a.die - b.die);
  }

  /**
   * Move a checker from point `from` (25: the bar) with the die `die`; throws an Error
   * naming the move and the legal ones when it is not legal now.
   * @returns {boolean} whether the play is now complete (`done`).
   */
  play(from, die) {
    const name = (point) => (point === BAR_POINT ? "bar" : point || "off");
    const legal = this.legalMoves();
    if (!legal.some((move) => move.from === from && move.die === die)) {
      const listed = legal.map((m) => `${name(m.from)}/${name(m.to)} (${m.die})`).join(", ");
      throw new Error(
        `${name(from)}/${name(Math.max(from - die, 0))} with a ${die} is not a legal move ` +
          `now; ${listed ? `the legal moves are ${listed}` : "the turn is complete"}`,
      );
    }
    [this._own, this._hits] = this._board.move(this._own, this._hits, from, die);
    this._left.splice(this._left.lastIndexOf(die), 1);
    this._needed -= 1;
    this._moves.push({ from, to: Math.max(from - die, 0), die });
    // The last checker borne off ends the turn (it counts only the dice it used, T6).
    if (this._own.every((n) => n === 0)) this._needed = 0;
    return this.done;
  }

  /** Take back the last checker move (nothing happens when none was made). */
  undo() {
    const moves = this._moves.slice(0, -1);
    this._reset();
    for (const { from, die } of moves) this.play(from, die);
  }
}
