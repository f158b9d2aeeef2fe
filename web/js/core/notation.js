// Plays as players write them, in every game: `24/18 13/8*`, `6/off`, `13/7(2)`, `24/18/13`,
// `bar/22`, `pass`. A port of Python's tapa_env/notation.py that writes the same text for every
// play and reads texts back the same way, with the same error messages.
//
// Points are in the mover's numbering (1 to 24, the mover moving down, `off` below 1).
// - A move is `FROM/TO`; a checker that takes more than one die is written once with every
//   point it touches down on, `24/18/13`; a checker entering from the bar is written `bar/22`.
// - `*` follows a point where the move marks a lone opponent checker: pins it (Tapa, R5; an
//   intermediate point included: `13/8*/5` pins on 8 and frees the checker again by moving on)
//   or hits it (Tabla, T4). A game where nothing is hit or pinned (Gulbara) refuses a `*`.
// - The same move made by several checkers is written once with a count, `13/7(2)`.
// - Moves are listed from the highest source point down; `pass` when nothing can be played.
// - A play that ends the game part-way (R6) is written up to the move that ended it.
//
// When several move sequences reach the same afterstate, one text is chosen: the one that
// moves the fewest checkers, then with the higher points first and a checker's larger die
// first. Every afterstate of a turn has its own text (in Tabla, two plays that move the same
// checkers but hit differently, `13/9*/7` and `13/11/7`, are two afterstates).

import { Board, startCounts } from "./board.js";
import { BAR_POINT, POINTS } from "./position.js";
import { legalPlays } from "./rules.js";

/** The point a borne-off checker moves to, in a play's `moves`. */
export const OFF = 0;
/** The text of a turn without a legal play (R12). */
export const PASS = "pass";
const LISTED = 8; // an error lists the legal plays when there are at most this many
const HELP = "write moves such as 24/18 13/8, 13/8*/5, 6/off, 13/7(2), or pass";

/** A play's text that cannot be read, or that matches no legal play of the turn. */
export class NotationError extends Error {
  constructor(message) {
    super(message);
    this.name = "NotationError";
  }
}

/** The checkers' paths: a move from a point a checker reached this turn continues its path.
 * Each path is `[points, marks]`: the points it touched, first to last, and for each point
 * after the first whether landing there pinned. */
function chains(moves) {
  const paths = [];
  for (const [source, target, pins] of moves) {
    let extended = false;
    for (let i = paths.length - 1; i >= 0; i--) {
      const [points, marks] = paths[i];
      if (points[points.length - 1] === source) {
        points.push(target);
        marks.push(pins);
        extended = true;
        break;
      }
    }
    if (!extended) paths.push([[source, target], [pins]]);
  }
  return paths;
}

/** Python's ordering of tuples (of numbers, booleans and tuples): -1, 0 or 1. */
function compare(a, b) {
  if (Array.isArray(a)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a[i], b[i]);
      if (c) return c;
    }
    return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  }
  return +a < +b ? -1 : +a > +b ? 1 : 0;
}

/** The text of a play's paths: highest first, repeated paths counted, `pass` if none. */
function writePaths(paths) {
  if (!paths.length) return PASS;
  const merged = new Map();
  for (const [points, marks] of paths) {
    const name = points.join("/");
    const entry = merged.get(name) ?? { points, count: 0, marks: marks.map(() => false) };
    entry.count += 1;
    entry.marks = entry.marks.map((mark, i) => mark || marks[i]);
    merged.set(name, entry);
  }
  const entries = [...merged.values()].sort((a, b) => compare(b.points, a.points));
  return entries
    .map(({ points, count, marks }) => {
      let text = points[0] === BAR_POINT ? "bar" : String(points[0]);
      points.slice(1).forEach((point, i) => {
        text += `/${point || "off"}${marks[i] ? "*" : ""}`;
      });
      return text + (count > 1 ? `(${count})` : "");
    })
    .join(" ");
}

/** Orders the texts of one afterstate: fewest checkers moved, higher points first, a
 * checker's larger die first (lower intermediate points), and of two checkers that land on
 * the same lone opponent checker, the first written pins it. */
function preference(paths) {
  const keys = paths
    .map(([points, marks]) => [[-points[0], ...points.slice(1)], marks.map((m) => !m)])
    .sort(compare);
  return [paths.length, keys];
}

const PATH = /^([^()]+?)(?:\(([0-9]+)\))?$/;
const POINT = /^([0-9]+|off|bar)\*?$/;

/** A string as Python's `repr` writes it, for messages identical to Python's. */
function repr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === "\\" || char === quote) out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return quote + out + quote;
}

/** Lower case, no spaces around `/`, `*` and the count's brackets. */
function normalise(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/\s*\/\s*/g, "/")
    .replace(/\s*\(\s*/g, "(")
    .replace(/\s*\)/g, ")")
    .replace(/\s+\*/g, "*");
}

/** The pips one checker can move in a turn of `dice`: one die, or several in a row. */
function steps([first, second]) {
  if (first === second) return [1, 2, 3, 4].map((n) => first * n);
  return [first, second, first + second].sort((a, b) => a - b);
}

// --- the moves of each afterstate --------------------------------------------------------------

/** Every legal move sequence of the turn as `[key, moves]`, each move `[from, to, marks]`
 * (`marks`: whether it pinned or hit); `key` tells the afterstates apart (`reachedKey`). A
 * double is searched with sources that never rise, plus the out-of-order moves that end the
 * game. */
function sequences(game, position, dice, rules) {
  if (game.recordsPrefixes) return judgedSequences(game, position, dice, rules);
  const facts = game.facts(position, rules);
  const board = new Board(facts);
  const [first, second] = dice;
  const doubles = first === second;
  const ordered = doubles && (facts.inOrder ?? facts.zone === 0);
  const larger = Math.max(first, second);
  const orders = doubles
    ? [new Array(facts.count).fill(first)]
    : [
        [first, second],
        [second, first],
      ];
  const found = []; // [own, marks, moves, length, one larger die]
  const search = (own, marks, dice, moves, highest) => {
    const level = moves.length;
    if (level === dice.length) {
      found.push([own, marks, moves, level, false]);
      return;
    }
    const die = dice[level];
    const sources = board.sources(own, die).reverse(); // highest first
    const inOrder = sources.filter((p) => p <= highest);
    for (const point of sources) {
      const [after, afterMarks, marked] = board.move(own, marks, point, die);
      const move = [point, Math.max(point - die, OFF), marked];
      if (board.ended(after, afterMarks)) {
        const length = level + 1 + board.longest(after, afterMarks, dice.slice(level + 1));
        found.push([after, afterMarks, [...moves, move], length, length === 1 && die === larger]);
      } else if (point <= highest) {
        search(after, afterMarks, dice, [...moves, move], ordered ? point : BAR_POINT);
      }
    }
    if (!inOrder.length) {
      found.push([own, marks, moves, level, level === 1 && dice[0] === larger && !doubles]);
    }
  };
  for (const dice of orders) search(startCounts(position, facts), facts.marks, dice, [], BAR_POINT);
  const longest = Math.max(...found.map((entry) => entry[3]));
  const largerOnly = longest === 1 && !doubles && found.some((entry) => entry[4]);
  return found
    .filter(([, , , length, isLarger]) => length === longest && (isLarger || !largerOnly))
    .map(([own, marks, moves]) => [reachedKey(own.slice(1), marks), moves]);
}

/**
 * The move sequences of a game that may judge a play by where it ends (one with the hooks
 * `recordsPrefixes` and `accepts`: Fevga), as Python's `FevgaTurn.sequences`: every sequence
 * of single checker moves the rules allow, in every order and of every length, that ends on a
 * legal afterstate (`legalPlays` decides which), the longest of them.
 */
function judgedSequences(game, position, dice, rules) {
  const facts = game.facts(position, rules);
  const board = new Board(facts);
  const [first, second] = dice;
  const orders =
    first === second
      ? [new Array(facts.count).fill(first)]
      : [
          [first, second],
          [second, first],
        ];
  const legal = new Set(
    legalPlays(game, position, dice, rules).map((after) => afterstateKey(game, after, position)),
  );
  const found = new Map(); // length -> [[key, moves]]
  const search = (own, marks, dice, moves) => {
    const key = reachedKey(own.slice(1), marks);
    if (legal.has(key)) {
      if (!found.has(moves.length)) found.set(moves.length, []);
      found.get(moves.length).push([key, moves]);
    }
    if (moves.length === dice.length) return;
    const die = dice[moves.length];
    for (const point of board.sources(own, die).reverse()) {
      const [after, afterMarks, marked] = board.move(own, marks, point, die);
      search(after, afterMarks, dice, [...moves, [point, Math.max(point - die, OFF), marked]]);
    }
  };
  for (const order of orders) search(startCounts(position, facts), facts.marks, order, []);
  return found.size ? found.get(Math.max(...found.keys())) : [];
}

function reachedKey(counts, marks) {
  return `${counts.join(",")}|${marks}`;
}

/** The mover's counts of `position`, its bar last (0 in a game without one). */
function moved(position) {
  return [...position.own, position.own_bar ?? 0];
}

/** What tells the afterstates of one turn apart: the mover's counts and bar, and the points
 * where it has marked (pinned or hit) an opponent checker. */
function afterstateKey(game, afterstate, start) {
  return reachedKey(moved(afterstate), game.marksOf(afterstate, start));
}

/**
 * Every legal play of `dice` in `position` of `game`, with its text and moves, one per
 * afterstate in the order of `legalPlays` (Python's `tapa_env.legal_plays`).
 *
 * @returns {{text: string, afterstate: object, moves: number[][]}[]} `moves` are the
 *   single-die checker moves `[from, to]` in the order played (`from` 25 for the bar, `to` 0
 *   for a bear-off); a turn without a legal play has the one play `pass`, its afterstate the
 *   position (in Gulbara with its turn state moved on).
 */
export function notatedPlays(game, position, dice, rules) {
  rules = game.checkRules(rules);
  const afterstates = legalPlays(game, position, dice, rules);
  const best = new Map();
  for (const [key, moves] of sequences(game, position, dice, rules)) {
    const paths = chains(moves);
    const rank = preference(paths);
    const known = best.get(key);
    if (known === undefined || compare(rank, known.rank) < 0) best.set(key, { rank, paths, moves });
  }
  return afterstates.map((afterstate) => {
    const found = best.get(afterstateKey(game, afterstate, position));
    if (found === undefined) {
      throw new Error(
        `no move sequence of ${dice[0]}-${dice[1]} reaches the afterstate ` +
          `${game.positionKey(afterstate)} of ${game.positionKey(position)}`,
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
export function playText(game, position, dice, afterstate, rules) {
  const key = game.positionKey(game.checkPosition(afterstate));
  for (const play of notatedPlays(game, position, dice, rules)) {
    if (game.positionKey(play.afterstate) === key) return play.text;
  }
  throw new NotationError(
    `${key} is not a legal afterstate of ${dice[0]}-${dice[1]} in ${game.positionKey(position)}`,
  );
}

// --- reading a text back ---------------------------------------------------------------------

/** The mover's counts (points 1-24, then the bar) after the moves written in `text`; `null`
 * for `pass`. */
function netCounts(game, text, position, dice) {
  const words = normalise(text).split(/[\s,]+/).filter(Boolean);
  if (!words.length) throw new NotationError(`an empty play: ${HELP}`);
  if (words.length === 1 && words[0] === PASS) return null;
  if (words.includes(PASS)) {
    throw new NotationError(`${repr(text.trim())} mixes 'pass' with moves: ${HELP}`);
  }
  const start = [0, ...moved(position)];
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
    if (values.includes("bar") && !game.hasBar) {
      throw new NotationError(`${repr(word)}: ${game.title} has no bar; ${game.landing}`);
    }
    if (word.includes("*") && !(game.hasBar || game.hasPins)) {
      throw new NotationError(
        `${repr(word)}: a * marks a hit, and in ${game.title} nothing is hit or pinned ` +
          `(${game.landing}); write the move without it`,
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
  return own.slice(1);
}

/** The points a text marks with `*`. */
function stars(text) {
  return [...normalise(text).matchAll(/([0-9]+)\*/g)].map((match) => parseInt(match[1], 10));
}

/** The points of a mask of marks (bit p - 1: point p), ascending. */
function markedPoints(marks) {
  const points = [];
  for (let p = 1; p <= POINTS; p++) if ((marks >>> (p - 1)) & 1) points.push(p);
  return points;
}

/**
 * The afterstate of the play written `text` (mover's numbering), read loosely as Python's
 * `parse_play` reads it: moves in any order and spacing, chained (`24/18/13`), separate
 * (`24/18 18/13`) or by their two ends (`24/13`); `off` in any case; `bar/20` to enter where
 * the game has a bar; a `*` is optional, and tells apart two plays that move the same checkers
 * but hit differently (Tabla); where nothing is marked (Gulbara) a `*` is refused; `13/7(2)`
 * moves two checkers.
 *
 * @returns {object} one of `legalPlays(position, dice, rules)`.
 * @throws {NotationError} for a text that cannot be read or matches no legal play; the
 *   one-line message (identical to Python's) names the text and lists the legal plays (their
 *   number, when there are many).
 */
export function parsePlay(game, text, position, dice, rules) {
  if (typeof text !== "string") {
    throw new NotationError(`a play is a text such as '24/18 13/8', got ${JSON.stringify(text)}`);
  }
  rules = game.checkRules(rules);
  const afterstates = legalPlays(game, position, dice, rules);
  const counts = netCounts(game, text, position, dice);
  const before = moved(position).join(",");
  const passes = afterstates.length === 1 && moved(afterstates[0]).join(",") === before;
  if (counts === null) {
    if (passes) return afterstates[0];
  } else {
    const wanted = counts.join(",");
    let found = afterstates.filter((afterstate) => moved(afterstate).join(",") === wanted);
    if (found.length > 1) {
      const marked = [...new Set(stars(text))].sort((a, b) => a - b).join(",");
      found = found.filter(
        (afterstate) => markedPoints(game.marksOf(afterstate, position)).join(",") === marked,
      );
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
        notatedPlays(game, position, dice, rules)
          .map((play) => play.text)
          .join(", ");
  if (counts === null) {
    throw new NotationError(`'pass' is not allowed with ${roll} here: ${listing}`);
  }
  throw new NotationError(`${repr(text.trim())} is not a legal play of ${roll} here: ${listing}`);
}
