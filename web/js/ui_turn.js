/**
 * The person's turn as it is played on the page: a checker is taken from one point to
 * another in one gesture (a tap then a tap, or a drag), which may use one die or several in a
 * row, and Undo takes back the last gesture. Built on the game's checker turn
 * (web/js/core/turn.js), which keeps the dice rules (R6, T6) exact, so the plays
 * completed here are exactly legalPlays'. In Tabla the bar is a source like a point (25).
 *
 * When two dice can take a checker to the same place, the exact die is used for a bear-off,
 * then the "lead" die first: the larger die unless the person swapped the dice.
 * Refused moves come with a one-line reason (`whyNot`).
 */

import { BAR_POINT, checkerTurn, gameFor } from "./games.js";

const HOME = 6;
export const OFF = 0;

/** A point's name in messages: its number, "bar" or "off". */
export function pointName(point) {
  if (point === BAR_POINT) return "bar";
  return point === OFF ? "off" : String(point);
}

export class PersonTurn {
  /**
   * @param {object} position the position, the person to move (mover's view), of any game.
   * @param {number[]} dice the roll (in Gulbara with a climb to play, that double).
   * @param {object} [rules] the game's rule flags.
   */
  constructor(position, dice, rules) {
    this.spec = gameFor(position); // its properties: what holds a point, its dice rule
    this.turn = checkerTurn(position, dice, rules);
    this.gestures = []; // how many checker moves each gesture made, for Undo
    this.lead = Math.max(dice[0], dice[1]);
  }

  /** How many dice the turn has: 2, 4 for a double, fewer for numbers handed over (G6). */
  get diceCount() {
    return this.turn.diceLeft.length + this.turn.moves.length;
  }

  /** Whether the person has a checker on `point` (25: the bar). */
  has(point) {
    const position = this.turn.position;
    if (point === BAR_POINT) return (position.own_bar ?? 0) > 0;
    return point >= 1 && point <= 24 && position.own[point - 1] > 0;
  }

  get done() {
    return this.turn.done;
  }

  get position() {
    return this.turn.position;
  }

  get start() {
    return this.turn.start;
  }

  get dice() {
    return this.turn.dice;
  }

  get diceLeft() {
    return this.turn.diceLeft;
  }

  /** Whether any checker move was made this turn. */
  get moved() {
    return this.gestures.length > 0;
  }

  /** Use the other die first where two could take a checker to the same place. */
  swapLead() {
    const [a, b] = this.turn.dice;
    this.lead = this.lead === a ? b : a;
  }

  /** The points whose checker can move now (ascending). */
  sources() {
    return [...new Set(this.turn.legalMoves().map((move) => move.from))];
  }

  /**
   * Where the checker on `source` can go now: a Map from each target point (OFF for a
   * bear-off) to the single-die moves `[{from, die}]` that take it there, the chosen way.
   */
  targets(source) {
    const found = new Map();
    const search = (from, path) => {
      for (const move of this.turn.legalMoves()) {
        if (move.from !== from) continue;
        const steps = [...path, { from: move.from, die: move.die }];
        const known = found.get(move.to);
        if (!known || this._better(steps, known, source, move.to)) found.set(move.to, steps);
        const done = this.turn.play(move.from, move.die);
        if (move.to !== OFF && !done) search(move.to, steps);
        this.turn.undo();
      }
    };
    search(source, []);
    return found;
  }

  /** Whether `steps` is a better way than `known` to take a checker from source to target. */
  _better(steps, known, source, target) {
    if (steps.length !== known.length) return steps.length < known.length;
    if (target === OFF && steps.length === 1) {
      const exact = (way) => way[0].die === source;
      if (exact(steps) !== exact(known)) return exact(steps);
    }
    return steps[0].die === this.lead && known[0].die !== this.lead;
  }

  /** Moves the checker on `source` to `target` (one gesture); throws an Error with the
   * reason when that is not legal now. Returns the single-die moves made. */
  move(source, target) {
    const steps = this.targets(source).get(target);
    if (!steps) throw new Error(this.whyNot(source, target));
    for (const { from, die } of steps) this.turn.play(from, die);
    this.gestures.push(steps.length);
    return steps;
  }

  /** Takes back the last gesture (every die it used); nothing when none was made. */
  undo() {
    const count = this.gestures.pop() || 0;
    for (let i = 0; i < count; i++) this.turn.undo();
  }

  /** Plays a whole play given as single-die moves (a hint's), after taking back this turn's
   * moves; throws when the moves are not a legal play. */
  playMoves(moves) {
    while (this.gestures.length) this.undo();
    for (const [from, to] of moves) {
      const move = this.turn.legalMoves().find((m) => m.from === from && m.to === to);
      if (!move) throw new Error(`${from}/${pointName(to)} is not a legal move now`);
      this.turn.play(move.from, move.die);
      this.gestures.push(1);
    }
  }

  /** Why the checker on `source` cannot move to `target` now, in one line. */
  whyNot(source, target) {
    const position = this.turn.position;
    const dice = this.turn.diceLeft;
    const bar = position.own_bar ?? 0;
    if (this.done && !this.moved) return "You have no legal play: press Pass.";
    if (this.done) return "Your play is complete: press Done, or Undo to change it.";
    if (!this.has(source)) {
      return source === BAR_POINT
        ? "You have no checker on the bar."
        : `You have no checker on point ${source}.`;
    }
    if (bar && source !== BAR_POINT) {
      return "A checker of yours is on the bar: bring it back in first, on your 19-24 (T5).";
    }
    if (position.own_pinned?.includes(source)) {
      return `Your checker on ${source} is pinned: it cannot move while the bot's checkers stay.`;
    }
    const to = `${pointName(source)}/${pointName(target)}`;
    if (target !== OFF && target >= source) {
      return `${to} goes backwards: your checkers move down toward point 1, then off.`;
    }
    if (target === OFF) {
      const outside = position.own.slice(HOME).some(Boolean) || bar > 0;
      if (outside) return "You bear off only once all your checkers are home (points 1-6).";
      if (position.own_pinned?.length && this.turn.rules.pinned_blocks_bear_off) {
        const point = position.own_pinned[0];
        return `Your pinned checker on ${point} stops every bear-off until it is freed.`;
      }
    } else {
      const distance = source - target;
      const reach = reachable(dice);
      if (!reach.includes(distance)) {
        const roll = dice.join("-");
        return `${to} is ${distance} pips, but with ${roll} left a checker moves ${listed(reach)}.`;
      }
      if (this.spec.holds(position, target)) {
        return `${to}: point ${target} is held by the bot${this.spec.holdsWhy}.`;
      }
    }
    if (!this.sources().includes(source)) {
      const why = this.spec.blockedWhy?.(this.start, position, source, this.turn.rules);
      if (why) return why;
      const where = source === BAR_POINT ? "on the bar" : `on ${source}`;
      return `The checker ${where} has no legal move now (${this.diceLeft.join("-")} to play).`;
    }
    const rule = this.spec.diceRule;
    return `${to} is not allowed: the dice must be used as fully as the position allows${rule}.`;
  }
}

/** The distances a checker can go with the dice left (one checker taking them in a row). */
function reachable(dice) {
  if (!dice.length) return [];
  if (dice.every((die) => die === dice[0])) return dice.map((die, i) => die * (i + 1));
  const sorted = [...dice].sort((a, b) => a - b);
  return sorted.length === 2 ? [...sorted, sorted[0] + sorted[1]] : sorted;
}

function listed(values) {
  if (values.length === 1) return String(values[0]);
  return `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
}
