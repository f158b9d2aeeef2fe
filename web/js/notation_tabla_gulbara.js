// Plays of Tabla and Gulbara as players write them: `24/18 13/8`, `13/7*` (a hit), `13/9*/7`,
// `bar/22` (a checker entering from the bar), `6/off`, `8/5(2)`, `pass`. A port of Python's
// tapa_env/notation.py and notation_tabla_gulbara.py for these games: the same text for every
// play, texts read back the same way, with the same error messages.
//
// The rules of writing are Tapa's (web/js/notation.js): a checker that takes several dice is
// written once with every point it touches, repeated moves are counted, moves are listed from
// the highest source down, and of several move sequences reaching one afterstate the one that
// moves the fewest checkers, higher points first and a checker's larger die first, is written.
// In Tabla `*` marks a hit, and two plays that move the same checkers but hit differently
// (`13/9*/7` and `13/11/7`) are two afterstates with their own texts. Gulbara, where nothing
// is hit, has no `*`, and a text with one is refused.

import {
  BAR_POINT,
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
import { POINTS } from "./position.js";
import { TABLA, gulbaraPoint, racePositionKey } from "./position_tabla_gulbara.js";
import { checkRaceRules, raceLegalPlays } from "./rules_tabla_gulbara.js";

/** What stays fixed while the mover of a Tabla or Gulbara position plays its roll, and a plain
 * search over its single checker moves (Python's `RaceTurn`). Arrays are indexed by point:
 * index 0 unused, 25 the bar. */
class RaceTurn {
  constructor(position, dice, rules) {
    this.tabla = position.game === TABLA;
    this.opp = position.opp;
    const limit = this.tabla ? 1 : 0; // Tabla: a lone opponent checker can be hit
    this.open = [false, ...this.opp.map((count) => count <= limit)];
    const [first, second] = dice;
    this.doubles = first === second;
    let count = 4;
    if (!this.tabla && position.climb > 0) count = position.climb_dice;
    this.orders = this.doubles ? [new Array(count).fill(first)] : [[first, second], [second, first]];
    this.larger = Math.max(first, second);
    this.start = [0, ...position.own, this.tabla ? position.own_bar : 0];
    this.zone = this.tabla ? 0 : wallZone(position, rules);
  }

  walled(own) {
    let held = 0;
    for (let point = 1; point <= POINTS; point++) {
      if (own[point]) held |= 1 << (gulbaraPoint(point) - 1);
    }
    held &= this.zone;
    for (let q = 0; q < POINTS - 5; q++) if (((held >>> q) & 0b111111) === 0b111111) return true;
    return false;
  }

  /** Source points (25: the bar; highest first) whose checker may move `die`. */
  moves(own, die) {
    if (own[BAR_POINT]) return this.open[BAR_POINT - die] ? [BAR_POINT] : [];
    const sources = [];
    let home = true;
    for (let p = 7; p < BAR_POINT; p++) if (own[p]) home = false;
    let highest = 0;
    if (home) for (let p = 1; p <= 6; p++) if (own[p]) highest = p;
    for (let point = POINTS; point >= 1; point--) {
      if (!own[point]) continue;
      const target = point - die;
      const reaches =
        (target >= 1 && this.open[target]) ||
        (target < 1 && home && (target === 0 || point === highest));
      if (reaches && (!this.zone || !this.walled(this.step(own, point, die)[0]))) {
        sources.push(point);
      }
    }
    return sources;
  }

  /** `[own, to]` after a checker moves `die` from `point` (the bar: 25). */
  step(own, point, die) {
    const after = own.slice();
    after[point] -= 1;
    const target = Math.max(point - die, OFF);
    if (target) after[target] += 1;
    return [after, target];
  }

  /** Every legal move sequence as `[key, moves]`, each move `[from, to, hits]`; `key` tells
   * the afterstate apart (`afterstateKey`). */
  sequences() {
    const found = []; // [own, hit, moves, length, one larger die]
    const search = (own, hit, dice, moves, highest) => {
      const level = moves.length;
      if (level === dice.length) {
        found.push([own, hit, moves, level, false]);
        return;
      }
      const sources = this.moves(own, dice[level]).filter((p) => p <= highest);
      for (const point of sources) {
        const [after, target] = this.step(own, point, dice[level]);
        const hits = Boolean(target) && this.tabla && this.opp[target - 1] === 1 && !hit.has(target);
        search(
          after,
          hits ? new Set([...hit, target]) : hit,
          dice,
          [...moves, [point, target, hits]],
          this.doubles && !this.zone ? point : BAR_POINT,
        );
      }
      if (!sources.length) {
        const larger = level === 1 && dice[0] === this.larger && !this.doubles;
        found.push([own, hit, moves, level, larger]);
      }
    };
    for (const dice of this.orders) search(this.start, new Set(), dice, [], BAR_POINT);
    const longest = Math.max(...found.map((entry) => entry[3]));
    const largerOnly = longest === 1 && !this.doubles && found.some((entry) => entry[4]);
    return found
      .filter(([, , , length, larger]) => length === longest && (larger || !largerOnly))
      .map(([own, hit, moves]) => [keyOf(own, [...hit].sort((a, b) => a - b)), moves]);
  }
}

/** The opponent's points (its numbering, bit q - 1) before its foremost checker, when every
 * opponent checker is on the board and the wall rule is played (G7); 0 otherwise. */
function wallZone(position, rules) {
  if (!rules.six_prime_needs_checker_ahead || position.opp_off > 0) return 0;
  let foremost = POINTS + 1;
  position.opp.forEach((n, i) => {
    if (n) foremost = Math.min(foremost, gulbaraPoint(i + 1));
  });
  return (1 << (foremost - 1)) - 1;
}

function keyOf(own, hit) {
  return `${own.join(",")}|${hit.join(",")}`;
}

/** What tells the afterstates of one turn apart: the mover's counts (with its bar) and the
 * points where it hit. */
function afterstateKey(afterstate, start) {
  const bar = afterstate.game === TABLA ? afterstate.own_bar : 0;
  const hit = [];
  for (let p = 1; p <= POINTS; p++) {
    if (start.opp[p - 1] === 1 && afterstate.opp[p - 1] === 0) hit.push(p);
  }
  return keyOf([0, ...afterstate.own, bar], hit);
}

/**
 * Every legal play of `dice` in a Tabla or Gulbara `position`, one per afterstate in the order
 * of `raceLegalPlays` (Python's `tapa_env.legal_plays`): `[{text, afterstate, moves}]`, `moves`
 * the single-die checker moves `[from, to]` in the order played (`from` 25 for the bar, `to` 0
 * for a bear-off); a turn without a legal play has the one play `pass`.
 */
export function raceNotatedPlays(position, dice, rules) {
  rules = checkRaceRules(rules, position.game);
  const afterstates = raceLegalPlays(position, dice, rules);
  const best = new Map();
  for (const [key, moves] of new RaceTurn(position, dice, rules).sequences()) {
    const paths = chains(moves);
    const rank = preference(paths);
    const known = best.get(key);
    if (known === undefined || compare(rank, known.rank) < 0) best.set(key, { rank, paths, moves });
  }
  return afterstates.map((afterstate) => {
    const found = best.get(afterstateKey(afterstate, position));
    if (found === undefined) {
      throw new Error(
        `no move sequence of ${dice[0]}-${dice[1]} reaches the afterstate ` +
          `${racePositionKey(afterstate)} of ${racePositionKey(position)}`,
      );
    }
    return {
      text: writePaths(found.paths),
      afterstate,
      moves: found.moves.map(([source, target]) => [source, target]),
    };
  });
}

// --- reading a text back ---------------------------------------------------------------------

const NO_BAR_WHY = {
  tapa: "a checker landed on is pinned, never sent off",
  gulbara: "one checker holds a point and nothing is hit",
};

/** The mover's counts after the moves written in `text` (points 1-24, and in Tabla the bar);
 * `null` for `pass`. */
function netCounts(text, position, dice) {
  const words = normalise(text).split(/[\s,]+/).filter(Boolean);
  if (!words.length) throw new NotationError(`an empty play: ${HELP}`);
  if (words.length === 1 && words[0] === PASS) return null;
  if (words.includes(PASS)) {
    throw new NotationError(`${repr(text.trim())} mixes 'pass' with moves: ${HELP}`);
  }
  const tabla = position.game === TABLA;
  const start = [0, ...position.own, tabla ? position.own_bar : 0];
  const own = start.slice();
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
    if (values.includes("bar") && !tabla) {
      const game = position.game[0].toUpperCase() + position.game.slice(1);
      throw new NotationError(`${repr(word)}: ${game} has no bar; ${NO_BAR_WHY[position.game]}`);
    }
    if (word.includes("*") && !tabla) {
      throw new NotationError(
        `${repr(word)}: a * marks a hit, and in Gulbara nothing is hit (one checker holds a ` +
          "point); write the move without it",
      );
    }
    if (values.slice(1).includes("bar")) {
      throw new NotationError(`${repr(word)} moves to the bar: only a hit checker goes there`);
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
        if (value !== "off" && value !== "bar") {
          const point = parseInt(value, 10);
          if (!(point >= 1 && point <= POINTS)) {
            throw new NotationError(
              `${repr(word)} names point ${value}: points are 1 to ${POINTS}`,
            );
          }
        }
      }
      const from = source === "bar" ? BAR_POINT : parseInt(source, 10);
      const end = target === "off" ? OFF : parseInt(target, 10);
      if (end >= from) {
        throw new NotationError(
          `${repr(word)} moves backwards: checkers move from higher points to lower ones ` +
            "(from 24 toward 1, then off)",
        );
      }
      if (end && !reach.includes(from - end)) {
        const some = reach.slice(0, -1).join(", ");
        throw new NotationError(
          `${repr(word)}: ${from}/${end} is ${from - end} pips, but with ${roll} a checker ` +
            `moves ${some} or ${reach[reach.length - 1]}`,
        );
      }
      if (!end && from > reach[reach.length - 1]) {
        throw new NotationError(
          `${repr(word)}: ${from}/off needs at least ${from} pips, more than ${roll} gives`,
        );
      }
      own[from] -= count;
      if (end) own[end] += count;
    }
  }
  for (let point = 1; point <= BAR_POINT; point++) {
    if (own[point] < 0) {
      const had = start[point];
      const moved = had - own[point];
      const holds = had ? `which holds ${had}` : "which holds none";
      const where = point === BAR_POINT ? "the bar" : `point ${point}`;
      throw new NotationError(
        `${repr(text.trim())} moves ${moved} ${moved === 1 ? "checker" : "checkers"} ` +
          `from ${where}, ${holds}`,
      );
    }
  }
  return tabla ? own.slice(1) : own.slice(1, POINTS + 1);
}

/** The mover's counts (Tabla: and its bar), as `netCounts` gives them, of a position. */
function moved(position) {
  return position.game === TABLA ? [...position.own, position.own_bar] : position.own.slice();
}

/** The points a text marks with `*`: where it says a checker was hit (Tabla). */
function stars(text) {
  return [...normalise(text).matchAll(/([0-9]+)\*/g)].map((match) => parseInt(match[1], 10));
}

/**
 * The afterstate of the play written `text` (mover's numbering) in a Tabla or Gulbara
 * position, read loosely as Python's `parse_play` reads it: any order and spacing, chains or
 * separate moves, `off` in any case, `bar/20` to enter; in Tabla a star after a point is
 * optional, and tells apart two plays that move the same checkers but hit differently; in
 * Gulbara, where nothing is hit, a star is refused.
 *
 * @throws {NotationError} with Python's one-line message.
 */
export function raceParsePlay(text, position, dice, rules) {
  if (typeof text !== "string") {
    throw new NotationError(`a play is a text such as '24/18 13/8', got ${JSON.stringify(text)}`);
  }
  rules = checkRaceRules(rules, position.game);
  const afterstates = raceLegalPlays(position, dice, rules);
  const counts = netCounts(text, position, dice);
  const before = moved(position).join(",");
  const passes = afterstates.length === 1 && moved(afterstates[0]).join(",") === before;
  if (counts === null) {
    if (passes) return afterstates[0];
  } else {
    const wanted = counts.join(",");
    let found = afterstates.filter((afterstate) => moved(afterstate).join(",") === wanted);
    if (found.length > 1) {
      const marked = [...new Set(stars(text))].sort((a, b) => a - b).join(",");
      found = found.filter((afterstate) => {
        const hit = afterstateKey(afterstate, position).split("|")[1];
        return hit === marked;
      });
      if (found.length !== 1) {
        throw new NotationError(
          `${repr(text.trim())} is more than one play of ${dice[0]}-${dice[1]} here; mark ` +
            "each hit with * (such as 24/18*/13) to say which",
        );
      }
    }
    if (found.length) return found[0];
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
      : "the legal plays are " +
        raceNotatedPlays(position, dice, rules)
          .map((play) => play.text)
          .join(", ");
  if (counts === null) {
    throw new NotationError(`'pass' is not allowed with ${roll} here: ${listing}`);
  }
  throw new NotationError(`${repr(text.trim())} is not a legal play of ${roll} here: ${listing}`);
}

