/**
 * A turn played one checker move at a time, as a person plays it on a board, for every game: a
 * port of Python's tapa_env/checker_moves.py.
 *
 * A checker move is legal when it begins some complete legal play of what is left of the
 * turn, so the dice rules (R6, T6) hold exactly: at the start of a turn the length of its
 * plays is the most dice any play can use, as if the game went on after every move; with one
 * die of a non-double playable, only the larger die's moves are legal when there are any;
 * later, a move is legal when the dice left can still complete a play of that length. A move
 * that ends the game (Tapa's under `win_checked_each_move`, or the last checker borne off)
 * ends the turn at once. The bar is source point 25: a checker on it enters with a die of d on
 * the mover's point 25 - d, before any other checker moves. In Gulbara the turn is one double
 * of a climb when the position has one to play, and the complete play carries the turn state
 * that follows it. Where a game judges a play by where it ends (Fevga's F6 at the play's end,
 * its trap, F7: web/js/core/search.js), the turn's length and whether only the larger die or
 * only the preferred afterstates count come from the afterstate search itself, and a move is
 * legal when the dice left can finish a play of that length that ends where the rules allow
 * (Python's `_judged_by_end`, `_finishes`). So the complete plays reached move by move are
 * exactly the afterstates of `legalPlays`.
 *
 *   const turn = new CheckerTurn(position, [6, 5]);
 *   turn.legalMoves();   // [{from: 13, to: 7, die: 6}, ...]
 *   turn.play(24, 6);    // move a checker from 24 with the 6
 *   turn.undo();         // take it back
 *   turn.done;           // true once the play is complete: turn.position is the afterstate
 */

import { Board, occupiedPoints, startCounts } from "./board.js";
import { BAR_POINT, POINTS } from "./position.js";
import { checkDice } from "./rules.js";
import { judgedByEnd, searchTurn } from "./search.js";
import { gameFor } from "../games/index.js";

/** One turn of one position and roll, played checker move by checker move. */
export class CheckerTurn {
  /**
   * @param {object} position the position before the turn, interchange format, mover's view
   *   (checked; a Gulbara position must be its mover's turn).
   * @param {number[]} dice the roll `[a, b]`; in Gulbara with a climb to play, that double.
   * @param {object} [rules] the game's rule flags (partial; missing ones take the default).
   */
  constructor(position, dice, rules) {
    const game = gameFor(position);
    game.checkPosition(position);
    this.rules = game.checkRules(rules);
    checkDice(dice);
    game.checkTurn?.(position, dice, "flip it first");
    const [first, second] = dice;
    this.game = game.name;
    this.start = structuredClone(position);
    this.dice = [first, second];
    this._game = game;
    this._facts = game.facts(position, this.rules);
    this._board = new Board(this._facts);
    const own = startCounts(position, this._facts);
    const marks = this._facts.marks;
    const larger = Math.max(first, second);
    this._judged = judgedByEnd(game, this._facts);
    this._preferredOnly = false;
    if (this._judged) {
      const found = searchTurn(game, position, this.dice, this.rules);
      this._dice =
        first === second
          ? new Array(this._facts.count).fill(first)
          : [larger, Math.min(first, second)];
      this._length = found.longest;
      this._largerOnly = found.largerOnly;
      this._preferredOnly = found.preferredOnly;
    } else if (first === second) {
      this._dice = new Array(this._facts.count).fill(first);
      this._length = this._board.longest(own, marks, this._dice, this._ordered());
      this._largerOnly = false;
    } else {
      this._dice = [larger, Math.min(first, second)];
      this._length = Math.max(
        this._board.longest(own, marks, [first, second]),
        this._board.longest(own, marks, [second, first]),
      );
      this._largerOnly = this._length === 1 && this._board.sources(own, larger).length > 0;
    }
    this._next = game.turnAfter
      ? game.turnAfter(position, this.dice, this._length, this.rules)
      : null;
    this._reset();
  }

  /** Whether a double's moves are searched with sources that never rise (a move is never
   * legal only after another, as it may be under Gulbara's wall rule or Fevga's F5 and F6). */
  _ordered() {
    return this._facts.inOrder ?? this._facts.zone === 0;
  }

  /** Whether a play may end on `own` and `marks`: the game accepts it, and prefers it when
   * only preferred afterstates count. */
  _endsWell(own, marks) {
    const game = this._game;
    const facts = this._facts;
    const occupied = occupiedPoints(own);
    if (game.recordsPrefixes?.(facts) && !game.accepts(facts, occupied, marks)) return false;
    return !this._preferredOnly || game.prefers(facts, occupied, marks);
  }

  /** Whether `moves` more checker moves of `dice` (in order), from any sources, can reach a
   * state where a play may end (`_endsWell`). */
  _finishes(own, marks, dice, moves) {
    if (moves === 0) return this._endsWell(own, marks);
    for (const source of this._board.sources(own, dice[0])) {
      const [after, afterMarks] = this._board.move(own, marks, source, dice[0]);
      if (this._finishes(after, afterMarks, dice.slice(1), moves - 1)) return true;
    }
    return false;
  }

  _reset() {
    this._own = startCounts(this.start, this._facts);
    this._marks = this._facts.marks;
    this._left = this._dice.slice();
    this._needed = this._length;
    this._ended = false;
    this._moves = [];
  }

  /** The checker moves made so far, `[{from, to, die}]` (`from` 25: the bar; `to` 0: off). */
  get moves() {
    return this._moves.map((move) => ({ ...move }));
  }

  /** The dice still to play, larger first (e.g. `[5]`, or `[3, 3, 3]` for a double). */
  get diceLeft() {
    return this._left.slice();
  }

  /** Whether the play is complete: every die it must use is used, the game ended part-way,
   * or there was nothing to play (a pass). `position` is then the afterstate. */
  get done() {
    return this._needed <= 0 || this._ended;
  }

  /** The position now, after the moves made so far (mover's view, a new object); once the
   * turn is done, with the turn state that follows it (Gulbara). */
  get position() {
    const reached = {
      own: this._own.slice(1, POINTS + 1),
      bar: this._own[BAR_POINT],
      marks: this._marks,
    };
    return this._game.afterstate(this.start, reached, this.done ? this._next : null);
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
      const ordered = rest.length > 0 && rest[0] === die && this._ordered();
      for (const source of this._board.sources(this._own, die)) {
        let legal = this._needed === 1;
        if (this._judged) {
          const [after, marks] = this._board.move(this._own, this._marks, source, die);
          legal = this._finishes(after, marks, rest, this._needed - 1);
        } else if (!legal) {
          const [after, marks] = this._board.move(this._own, this._marks, source, die);
          legal = this._board.longest(after, marks, rest, ordered) >= this._needed - 1;
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
    const bar = this._game.hasBar;
    const name = (point) => (bar && point === BAR_POINT ? "bar" : point || "off");
    const legal = this.legalMoves();
    if (!legal.some((move) => move.from === from && move.die === die)) {
      const listed = legal.map((m) => `${name(m.from)}/${name(m.to)} (${m.die})`).join(", ");
      throw new Error(
        `${name(from)}/${name(Math.max(from - die, 0))} with a ${die} is not a legal move ` +
          `now; ${listed ? `the legal moves are ${listed}` : "the turn is complete"}`,
      );
    }
    [this._own, this._marks] = this._board.move(this._own, this._marks, from, die);
    this._left.splice(this._left.lastIndexOf(die), 1);
    this._needed -= 1;
    this._moves.push({ from, to: Math.max(from - die, 0), die });
    // The game over ends the turn (the last checker off counts only the dice it used).
    this._ended =
      this._board.ended(this._own, this._marks) || this._own.every((n) => n === 0);
    return this.done;
  }

  /** Take back the last checker move (nothing happens when none was made). */
  undo() {
    const moves = this._moves.slice(0, -1);
    this._reset();
    for (const { from, die } of moves) this.play(from, die);
  }
}
