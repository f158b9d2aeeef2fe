// Plays as players write them: `24/18 13/8*`, `6/off`, `13/7(2)`, `24/18/13`, `pass`. A port
// of Python's tapa_env/notation.py that writes the same text for every play and reads texts
// back the same way, with the same error messages.
//
// Points are in the mover's numbering (1 to 24, the mover moving down, `off` below 1).
// - A move is `FROM/TO`; a checker that takes more than one die is written once with every
//   point it touches down on, `24/18/13`.
// - `*` follows a point where the move pins a lone opponent checker (R5), an intermediate
//   point included: `13/8*/5` pins on 8 and frees the checker again by moving on.
// - The same move made by several checkers is written once with a count, `13/7(2)`.
// - Moves are listed from the highest source point down; `pass` when nothing can be played.
// - A play that ends the game part-way (R6) is written up to the move that ended it.
//
// When several move sequences reach the same afterstate, one text is chosen: the one that
// moves the fewest checkers, then with the higher points first and a checker's larger die
// first. Every afterstate of a turn has its own text.

import {
  HELP,
  LISTED,
  NotationError,
  OFF,
  PASS,
  PATH,
  POINT,
  chains,
  compare,
  normalise,
  preference,
  repr,
  steps,
  writePaths,
} from "./notation_common.js";
import { POINTS, checkPosition, positionKey } from "./position.js";
import { DEFAULT_RULES, checkDice, checkRules, legalPlays } from "./rules.js";

export { NotationError, OFF, PASS };

// --- the moves of each afterstate --------------------------------------------------------------

/** What stays fixed while the mover plays (R4, R5, R7), and the search over its moves. Arrays
 * are indexed by point (index 0 unused). */
class Turn {
  constructor(position, dice, rules) {
    const pins = new Array(POINTS + 1).fill(0);
    for (const p of position.opp_pinned) pins[p] = 1;
    for (const p of position.own_pinned) pins[p] = -1;
    this.open = [false];
    this.lone = [false];
    this.stuck = [false];
    for (let p = 1; p <= POINTS; p++) {
      const opp = position.opp[p - 1];
      this.open.push(pins[p] === 1 || (pins[p] === 0 && opp <= 1));
      this.lone.push(opp === 1 && pins[p] !== -1);
      this.stuck.push(pins[p] === -1);
    }
    this.ownMotherPinned = this.stuck[POINTS];
    this.bearOffBlocked = this.stuck.some(Boolean) && rules.pinned_blocks_bear_off;
    this.rules = rules;
    const [first, second] = dice;
    this.doubles = first === second;
    this.orders = this.doubles
      ? [[first, first, first, first]]
      : [
          [first, second],
          [second, first],
        ];
    this.larger = Math.max(first, second);
    this.startOwn = [0, ...position.own];
    this.startPinned = new Set(position.opp_pinned);
  }

  /** Source points (highest first) of the checkers that may move `die` pips. */
  moves(own, die) {
    const sources = [];
    let home = true;
    for (let p = 7; p <= POINTS; p++) if (own[p]) home = false;
    let highest = 0;
    if (home) for (let p = 1; p <= 6; p++) if (own[p]) highest = p;
    for (let point = POINTS; point >= 1; point--) {
      if (!own[point] || this.stuck[point]) continue;
      const target = point - die;
      if (target >= 1) {
        if (this.open[target]) sources.push(point);
      } else if (home && !this.bearOffBlocked && (target === 0 || point === highest)) {
        sources.push(point);
      }
    }
    return sources;
  }

  /** The state after a checker moves `die` from `point`: `[own, pinned, to, pins]`. */
  step(own, pinned, point, die) {
    own = own.slice();
    own[point] -= 1;
    if (!own[point] && pinned.has(point)) {
      pinned = new Set(pinned); // the last pinner left: the checker is free (R5)
      pinned.delete(point);
    }
    const target = Math.max(point - die, OFF);
    let pins = false;
    if (target) {
      own[target] += 1;
      if (this.lone[target] && !pinned.has(target)) {
        pinned = new Set(pinned);
        pinned.add(target);
        pins = true;
      }
    }
    return [own, pinned, target, pins];
  }

  /** Whether the game is over after this checker move (R8, R9, R10). */
  ended(own, pinned) {
    if (!own.some(Boolean)) return true;
    if (pinned.has(1)) {
      if (this.ownMotherPinned && this.rules.both_mothers_draw) return true;
      return !own[POINTS] || !this.rules.mother_needs_empty_start;
    }
    return false;
  }

  /** Most of `dice` still playable in order, as if the game went on (R6). */
  longest(own, pinned, dice) {
    if (!dice.length) return 0;
    let best = 0;
    for (const point of this.moves(own, dice[0])) {
      const [after, afterPinned] = this.step(own, pinned, point, dice[0]);
      best = Math.max(best, 1 + this.longest(after, afterPinned, dice.slice(1)));
      if (best === dice.length) break;
    }
    return best;
  }

  /** Every legal move sequence (R6) as `[own counts, moves]`, each move `[from, to, pins]`.
   * A double is searched with sources that never rise, plus the out-of-order moves that end
   * the game. */
  sequences() {
    const found = []; // [own, moves, length, one larger die]
    const eachMove = this.rules.win_checked_each_move;
    const search = (own, pinned, dice, moves, highest) => {
      const level = moves.length;
      if (level === dice.length) {
        found.push([own, moves, level, false]);
        return;
      }
      const die = dice[level];
      const sources = this.moves(own, die);
      const inOrder = sources.filter((p) => p <= highest);
      for (const point of sources) {
        const [after, afterPinned, target, pins] = this.step(own, pinned, point, die);
        const move = [point, target, pins];
        if (eachMove && this.ended(after, afterPinned)) {
          const length = level + 1 + this.longest(after, afterPinned, dice.slice(level + 1));
          found.push([after, [...moves, move], length, length === 1 && die === this.larger]);
        } else if (point <= highest) {
          search(after, afterPinned, dice, [...moves, move], this.doubles ? point : POINTS);
        }
      }
      if (!inOrder.length) {
        found.push([own, moves, level, level === 1 && dice[0] === this.larger && !this.doubles]);
      }
    };
    for (const dice of this.orders) search(this.startOwn, this.startPinned, dice, [], POINTS);
    const longest = Math.max(...found.map((entry) => entry[2]));
    const largerOnly = longest === 1 && !this.doubles && found.some((entry) => entry[3]);
    return found
      .filter(([, , length, larger]) => length === longest && (larger || !largerOnly))
      .map(([own, moves]) => [own.slice(1), moves]);
  }
}

/**
 * Every legal play of `dice` in `position`, with its text and moves, one per afterstate in
 * the order of `legalPlays` (Python's `tapa_env.legal_plays`).
 *
 * @returns {{text: string, afterstate: object, moves: number[][]}[]} `moves` are the
 *   single-die checker moves `[from, to]` in the order played (`to` 0 for a bear-off);
 *   a turn without a legal play has the one play `pass`, its afterstate the position.
 */
export function notatedPlays(position, dice, rules = DEFAULT_RULES) {
  rules = checkRules(rules);
  const afterstates = legalPlays(position, dice, rules);
  const turn = new Turn(position, checkDice(dice), rules);
  const best = new Map();
  for (const [own, moves] of turn.sequences()) {
    const name = own.join(",");
    const paths = chains(moves);
    const rank = preference(paths);
    const known = best.get(name);
    if (known === undefined || compare(rank, known.rank) < 0) {
      best.set(name, { rank, paths, moves });
    }
  }
  return afterstates.map((afterstate) => {
    const found = best.get(afterstate.own.join(","));
    if (found === undefined) {
      throw new Error(
        `no move sequence of ${dice[0]}-${dice[1]} reaches the afterstate ` +
          `${positionKey(afterstate)} of ${positionKey(position)}`,
      );
    }
    return {
      text: writePaths(found.paths),
      afterstate,
      moves: found.moves.map(([source, target]) => [source, target]),
    };
  });
}

/** The text of the play of `dice` that turns `position` into `afterstate`; a
 * `NotationError` when it is not a legal afterstate of the turn. */
export function playText(position, dice, afterstate, rules = DEFAULT_RULES) {
  const key = positionKey(checkPosition(afterstate));
  for (const play of notatedPlays(position, dice, rules)) {
    if (positionKey(play.afterstate) === key) return play.text;
  }
  throw new NotationError(
    `${key} is not a legal afterstate of ${dice[0]}-${dice[1]} in ${positionKey(position)}`,
  );
}

// --- reading a text back ---------------------------------------------------------------------

/** The mover's counts after the moves written in `text`; `null` for `pass`. */
function netCounts(text, position, dice) {
  const words = normalise(text).split(/[\s,]+/).filter(Boolean);
  if (!words.length) throw new NotationError(`an empty play: ${HELP}`);
  if (words.length === 1 && words[0] === PASS) return null;
  if (words.includes(PASS)) {
    throw new NotationError(`${repr(text.trim())} mixes 'pass' with moves: ${HELP}`);
  }
  const own = [0, ...position.own];
  const reach = steps(dice);
  const roll = `${dice[0]}-${dice[1]}`;
  for (const word of words) {
    const path = PATH.exec(word);
    const names = path ? path[1].split("/") : [];
    const points = names.map((name) => POINT.exec(name));
    if (names.length < 2 || !points.every(Boolean)) {
      throw new NotationError(`cannot read ${repr(word)} as a move: ${HELP}`);
    }
    const values = points.map((match) => match[1]);
    if (values.includes("bar")) {
      throw new NotationError(
        `${repr(word)}: Tapa has no bar; a checker landed on is pinned, never sent off`,
      );
    }
    const count = path[2] === undefined ? 1 : parseInt(path[2], 10);
    if (!(count >= 1 && count <= 4)) {
      throw new NotationError(`${repr(word)}: a move is made 1 to 4 times, not ${count}`);
    }
    for (let i = 0; i + 1 < values.length; i++) {
      const [source, target] = [values[i], values[i + 1]];
      if (source === "off") {
        throw new NotationError(`${repr(word)} moves from off: a borne-off checker stays off`);
      }
      for (const value of [source, target]) {
        if (value !== "off" && !(parseInt(value, 10) >= 1 && parseInt(value, 10) <= POINTS)) {
          throw new NotationError(`${repr(word)} names point ${value}: points are 1 to ${POINTS}`);
        }
      }
      const start = parseInt(source, 10);
      const end = target === "off" ? OFF : parseInt(target, 10);
      if (end >= start) {
        throw new NotationError(
          `${repr(word)} moves backwards: checkers move from higher points to lower ones ` +
            "(from 24 toward 1, then off)",
        );
      }
      if (end && !reach.includes(start - end)) {
        const some = reach.slice(0, -1).join(", ");
        throw new NotationError(
          `${repr(word)}: ${start}/${end} is ${start - end} pips, but with ${roll} a checker ` +
            `moves ${some} or ${reach[reach.length - 1]}`,
        );
      }
      if (!end && start > reach[reach.length - 1]) {
        throw new NotationError(
          `${repr(word)}: ${start}/off needs at least ${start} pips, more than ${roll} gives`,
        );
      }
      own[start] -= count;
      if (end) own[end] += count;
    }
  }
  for (let point = 1; point <= POINTS; point++) {
    if (own[point] < 0) {
      const had = position.own[point - 1];
      const moved = had - own[point];
      const holds = had ? `which holds ${had}` : "which holds none";
      throw new NotationError(
        `${repr(text.trim())} moves ${moved} ${moved === 1 ? "checker" : "checkers"} ` +
          `from point ${point}, ${holds}`,
      );
    }
  }
  return own.slice(1);
}

/**
 * The afterstate of the play written `text` (mover's numbering), read loosely as Python's
 * `parse_play` reads it: moves in any order and spacing, chained (`24/18/13`), separate
 * (`24/18 18/13`) or by their two ends (`24/13`); `off` in any case; a `*` is optional
 * and ignored (the board decides what is pinned); `13/7(2)` moves two checkers.
 *
 * @returns {object} one of `legalPlays(position, dice, rules)`.
 * @throws {NotationError} for a text that cannot be read or matches no legal play; the
 *   one-line message (identical to Python's) names the text and lists the legal plays (their
 *   number, when there are many).
 */
export function parsePlay(text, position, dice, rules = DEFAULT_RULES) {
  if (typeof text !== "string") {
    throw new NotationError(`a play is a text such as '24/18 13/8', got ${JSON.stringify(text)}`);
  }
  rules = checkRules(rules);
  const afterstates = legalPlays(position, dice, rules);
  const counts = netCounts(text, position, dice);
  const passes = afterstates.length === 1 && positionKey(afterstates[0]) === positionKey(position);
  if (counts === null) {
    if (passes) return afterstates[0];
  } else {
    const wanted = counts.join(",");
    const found = afterstates.find((afterstate) => afterstate.own.join(",") === wanted);
    if (found) return found;
  }
  const roll = `${dice[0]}-${dice[1]}`;
  if (passes) {
    throw new NotationError(
      `${repr(text.trim())} is not a legal play of ${roll} here: nothing can be played, ` +
        "the only play is pass",
    );
  }
  const listing =
    afterstates.length > LISTED
      ? `there are ${afterstates.length} legal plays`
      : "the legal plays are " + notatedPlays(position, dice, rules).map((p) => p.text).join(", ");
  if (counts === null) {
    throw new NotationError(`'pass' is not allowed with ${roll} here: ${listing}`);
  }
  throw new NotationError(`${repr(text.trim())} is not a legal play of ${roll} here: ${listing}`);
}

