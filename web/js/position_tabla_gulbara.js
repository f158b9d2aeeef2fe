/**
 * Positions of Tabla and Gulbara in the JSON interchange format of docs/formats.md, seen from
 * the side to move (the mover): a port of Python's tapa_env/position.py for these two games.
 *
 *   Tabla:   { game: "tabla", own: [24], opp: [24], own_bar, opp_bar, own_off, opp_off }
 *   Gulbara: { game: "gulbara", own: [24], opp: [24], own_off, opp_off,
 *              next, climb, climb_dice, handed, own_turns, opp_turns }
 *
 * `own[i]` and `opp[i]` count the checkers on the mover's point i + 1. In Tabla the opponent
 * starts on the mover's point 1 and travels up (its point p is our 25 - p), and hit checkers
 * wait on the bars. In Gulbara both sides run the same way round: the opponent's own point q is
 * our q + 12 (or q - 12), so it starts on our 12, runs 12 down to 1, then 24 down to 13, and its
 * home is our 13-18; `next` says who moves next ("own" or "opp"), `climb` the double that side
 * still has to play (0: it rolls), `climb_dice` how many of its dice are left, `handed` whether
 * those numbers were handed over (G6), `own_turns` and `opp_turns` the rolls each side has had,
 * counted up to 3 (G5). No point ever holds checkers of both sides. Functions here never change
 * the objects they are given.
 */

import { CHECKERS, POINTS, PositionError } from "./position.js";

export const TABLA = "tabla";
export const GULBARA = "gulbara";
/** The turns each side's count keeps: only the opening's first three matter (G5). */
export const COUNTED_TURNS = 3;
/** Half the board: Gulbara's opponent's point q is the mover's q + HALF (modulo 24). */
export const HALF = 12;
/** Gulbara: the turns both sides have had together, at least, once a double can climb (G5). */
export const OPENING_TURNS = 4;
/** The names of the three games, as Python's `GAMES` lists them in its messages. */
const GAME_NAMES = "tapa, tabla, gulbara";
/** Tabla's start (T1), each side in its own numbering. */
const TABLA_START = { 24: 2, 13: 5, 8: 3, 6: 5 };

/** Each game's keys, in the order Python's `Position.to_dict` writes them. */
export const GAME_KEYS = Object.freeze({
  tabla: Object.freeze(["game", "own", "opp", "own_bar", "opp_bar", "own_off", "opp_off"]),
  gulbara: Object.freeze([
    "game", "own", "opp", "own_off", "opp_off", "next", "climb", "climb_dice", "handed",
    "own_turns", "opp_turns",
  ]),
});
const TURN_FIELDS = ["next", "climb", "climb_dice", "handed", "own_turns", "opp_turns"];
const NO_BAR = "nothing is hit, so there is no bar";
const NOT_IN_GAME = {
  gulbara: {
    own_bar: `in Gulbara ${NO_BAR}`,
    opp_bar: `in Gulbara ${NO_BAR}`,
    own_pinned: "in Gulbara nothing is pinned",
    opp_pinned: "in Gulbara nothing is pinned",
  },
  tabla: {
    own_pinned: "in Tabla a lone checker is hit, not pinned",
    opp_pinned: "in Tabla a lone checker is hit, not pinned",
  },
};

/** A value as Python's `repr` writes the JSON value it was read from, so that messages are
 * Python's word for word. */
export function show(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    return quote + value.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(show).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${show(k)}: ${show(v)}`).join(", ")}}`;
  }
  return String(value);
}

function checkInt(value, what) {
  if (!Number.isInteger(value)) {
    throw new PositionError(`${what} must be an integer, got ${show(value)}`);
  }
}

const total = (counts) => counts.reduce((a, b) => a + b, 0);

/** The mover's point of Gulbara's opponent's own point `q` (1-24), and back: both are +12
 * modulo 24. */
export function gulbaraPoint(q) {
  return q <= HALF ? q + HALF : q - HALF;
}

/** The starting position of Tabla (T1) or Gulbara (G1). */
export function initialRacePosition(game) {
  const own = new Array(POINTS).fill(0);
  const opp = new Array(POINTS).fill(0);
  if (game === TABLA) {
    for (const [point, count] of Object.entries(TABLA_START)) {
      own[point - 1] = count;
      opp[POINTS - point] = count;
    }
    return { game, own, opp, own_bar: 0, opp_bar: 0, own_off: 0, opp_off: 0 };
  }
  own[POINTS - 1] = CHECKERS;
  opp[HALF - 1] = CHECKERS;
  return {
    game, own, opp, own_off: 0, opp_off: 0,
    next: "own", climb: 0, climb_dice: 0, handed: false, own_turns: 0, opp_turns: 0,
  };
}

/** The checkers each side has on the board and (Tabla) the bar: `[own, opp]`. */
export function checkersLeft(position) {
  const bars = position.game === TABLA ? [position.own_bar, position.opp_bar] : [0, 0];
  return [total(position.own) + bars[0], total(position.opp) + bars[1]];
}

/** The first problem of Gulbara's turn state (Python's rows_tabla_gulbara), or null. */
function turnProblem(position) {
  const { climb, climb_dice: left, handed } = position;
  if (!(climb >= 0 && climb <= 6)) {
    return `climb is ${climb}; it is the double still to play, 1 to 6, or 0 for none`;
  }
  if (!(left >= 0 && left <= 4)) {
    return `climb_dice is ${left}; a double has 1 to 4 dice left (0 with no climb)`;
  }
  if ((climb === 0) !== (left === 0)) {
    return `climb ${climb} with climb_dice ${left}: both are 0, or neither is`;
  }
  if (handed && !climb) return "handed is set with no climb to play; handed numbers are a climb";
  for (const name of ["own_turns", "opp_turns"]) {
    if (!(position[name] >= 0 && position[name] <= COUNTED_TURNS)) {
      return `${name} is ${position[name]}; turns are counted 0 to ${COUNTED_TURNS}`;
    }
  }
  return null;
}

/**
 * The first way a Gulbara turn state whose fields are in range is one that no game reaches
 * (G1, G5, G6; docs/formats.md, "Gulbara"), with the message of Python's `unreached_problem`;
 * null when a game reaches it.
 */
function unreachedProblem(position) {
  const { climb, climb_dice: left, handed, next } = position;
  const turns = { own: position.own_turns, opp: position.opp_turns };
  if (climb && !handed) {
    if (next !== "own") {
      return (
        `next is opp with climb ${climb} not handed: a side plays its own climb before ` +
        "the turn passes, so a climb the other side plays was handed over (G6)"
      );
    }
    if (left !== 4) {
      return (
        `climb ${climb} with climb_dice ${left} not handed: a side's own climb plays ` +
        "whole doubles, 4 dice; fewer are left only of numbers handed over (G6)"
      );
    }
    if (climb < 2) {
      return (
        "climb 1 not handed: a side's own climb goes on from the double above the one " +
        "it rolled, 2 to 6; a 1-1 is only handed over (G6)"
      );
    }
  }
  if (climb && turns.own + turns.opp < OPENING_TURNS) {
    return (
      `climb ${climb} with own_turns ${turns.own} and opp_turns ${turns.opp}: a double ` +
      `climbs only after the opening, when both sides have had ${OPENING_TURNS} turns or ` +
      "more together (G5)"
    );
  }
  const starts = { own: [position.own, POINTS], opp: [position.opp, HALF] };
  for (const side of ["own", "opp"]) {
    const [counts, start] = starts[side];
    if (turns[side] === 0 && counts[start - 1] !== CHECKERS) {
      return (
        `${side}_turns is 0 but ${side} has moved: a side that has had no turn has all ` +
        `${CHECKERS} checkers on its starting point, the mover's ${start} (G1)`
      );
    }
  }
  if (total(position.own) && total(position.opp)) {
    const climbing = climb && !handed;
    const roller = climbing ? (next === "own" ? "opp" : "own") : next;
    const other = roller === "own" ? "opp" : "own";
    if (!(turns[other] - 1 <= turns[roller] && turns[roller] <= turns[other])) {
      return (
        `own_turns ${turns.own} and opp_turns ${turns.opp} with ${roller} to roll ` +
        "next: turns alternate, so the side to roll next has had as many turns as the " +
        "other or one fewer"
      );
    }
  }
  return null;
}

/**
 * Throw a `PositionError` naming the first way `position` is not a Tabla or Gulbara position
 * (the checks of Python's `Position.from_dict`, with its messages); return it otherwise.
 */
export function checkRacePosition(position) {
  const game = position.game;
  if (typeof game !== "string" || !Object.hasOwn(GAME_KEYS, game)) {
    throw new PositionError(`game must be one of ${GAME_NAMES}, got ${show(game)}`);
  }
  const keys = GAME_KEYS[game];
  const missing = keys.filter((k) => k !== "game" && !(k in position));
  const extra = Object.keys(position).filter((k) => !keys.includes(k)).sort();
  for (const key of extra) {
    const why = NOT_IN_GAME[game][key];
    if (why) throw new PositionError(`${game} position: '${key}': ${why}`);
  }
  if (missing.length || extra.length) {
    const wrong = [["missing", missing], ["unexpected", extra]]
      .filter(([, names]) => names.length)
      .map(([what, names]) => `${what} ${show(names)}`);
    throw new PositionError(`${game} position keys: ${wrong.join(", ")}`);
  }
  for (const side of ["own", "opp"]) {
    const counts = position[side];
    if (!Array.isArray(counts) || counts.length !== POINTS) {
      throw new PositionError(`'${side}' must be a list of ${POINTS} counts, got ${show(counts)}`);
    }
    counts.forEach((count, index) => {
      checkInt(count, `${side}[${index}] (point ${index + 1})`);
      if (count < 0 || count > CHECKERS) {
        throw new PositionError(
          `${side}[${index}] (point ${index + 1}) has ${count} checkers; ` +
            `a point holds 0 to ${CHECKERS}`,
        );
      }
    });
  }
  if (game === TABLA) {
    for (const name of ["own_bar", "opp_bar"]) {
      checkInt(position[name], name);
      if (position[name] < 0 || position[name] > CHECKERS) {
        throw new PositionError(`${name} is ${position[name]}; a bar holds 0 to ${CHECKERS}`);
      }
    }
  } else {
    if (position.next !== "own" && position.next !== "opp") {
      throw new PositionError(`next must be 'own' or 'opp', got ${show(position.next)}`);
    }
    if (typeof position.handed !== "boolean") {
      throw new PositionError(`handed must be true or false, got ${show(position.handed)}`);
    }
    for (const name of ["climb", "climb_dice", "own_turns", "opp_turns"]) {
      checkInt(position[name], name);
      if (position[name] < 0 || position[name] > 6) {
        throw new PositionError(`${name} is ${position[name]}; see docs/formats.md for its range`);
      }
    }
  }
  for (let i = 0; i < POINTS; i++) {
    const [mine, theirs] = [position.own[i], position.opp[i]];
    if (mine && theirs) {
      const rule =
        game === TABLA
          ? "a point with two or more checkers is held and a lone one is hit"
          : "one checker holds a point and nothing is hit";
      throw new PositionError(
        `point ${i + 1} has ${mine} mover and ${theirs} opponent checkers; ` +
          `both colours never share a point in ${game} (${rule})`,
      );
    }
  }
  if (game === GULBARA) {
    const problem = turnProblem(position);
    if (problem) throw new PositionError(problem);
  }
  const where = game === TABLA ? "on the board and the bar" : "on the board";
  const left = checkersLeft(position);
  ["own", "opp"].forEach((side, index) => {
    if (left[index] > CHECKERS) {
      throw new PositionError(`${side} has ${left[index]} checkers ${where}, over ${CHECKERS}`);
    }
  });
  ["own", "opp"].forEach((side, index) => {
    const off = position[`${side}_off`];
    checkInt(off, `${side}_off`);
    if (off + left[index] !== CHECKERS) {
      throw new PositionError(
        `${side}: ${left[index]} checkers ${where} and ${off} borne off make ` +
          `${off + left[index]}, not ${CHECKERS}`,
      );
    }
  });
  if (game === GULBARA) {
    const problem = unreachedProblem(position);
    if (problem) throw new PositionError(problem);
  }
  if (left[0] === 0 && left[1] === 0) {
    throw new PositionError("both sides have borne off all their checkers; no game ends so");
  }
  return position;
}

/** The key of docs/formats.md, identical to Python's `Position.key`:
 * `tabla/own|opp|own_bar,opp_bar` or `gulbara/own|opp|next,climb,climb_dice,handed,own_turns,
 * opp_turns`. */
export function racePositionKey(position) {
  const own = [];
  const opp = [];
  for (let i = 0; i < POINTS; i++) {
    if (position.own[i]) own.push(`${i + 1}:${position.own[i]}`);
    if (position.opp[i]) opp.push(`${i + 1}:${position.opp[i]}`);
  }
  const head = `${position.game}/${own.join(",")}|${opp.join(",")}|`;
  if (position.game === TABLA) return `${head}${position.own_bar},${position.opp_bar}`;
  const state = TURN_FIELDS.map((name) => {
    const value = position[name];
    return typeof value === "boolean" ? Number(value) : value;
  });
  return head + state.join(",");
}

const NUMBER = /^[0-9]+$/;

/** Read the key of a Tabla or Gulbara position (`game` its prefix, `text` what follows the
 * slash); checked, with Python's messages. */
export function racePositionFromKey(game, text, key) {
  const parts = text.split("|");
  if (parts.length !== 3) {
    const form = game === TABLA ? "tabla/own|opp|bars" : "gulbara/own|opp|turn";
    throw new PositionError(`a ${game} position key has the form '${form}', got ${show(key)}`);
  }
  const sides = parts.slice(0, 2).map((side) => {
    const counts = new Array(POINTS).fill(0);
    const seen = new Set();
    for (const pair of side.split(",").filter(Boolean)) {
      const colon = pair.indexOf(":");
      const point = colon < 0 ? pair : pair.slice(0, colon);
      const count = colon < 0 ? "" : pair.slice(colon + 1);
      if (!NUMBER.test(point) || !NUMBER.test(count) || +point < 1 || +point > POINTS) {
        throw new PositionError(`bad 'point:count' pair ${show(pair)} in key ${show(key)}`);
      }
      if (seen.has(point)) throw new PositionError(`point ${point} appears twice in key ${show(key)}`);
      seen.add(point);
      counts[+point - 1] = +count;
    }
    return counts;
  });
  const values = parts[2].split(",");
  const position = { game, own: sides[0], opp: sides[1] };
  if (game === TABLA) {
    if (values.length !== 2 || !values.every((v) => NUMBER.test(v))) {
      throw new PositionError(`a tabla key ends with the bars 'own,opp', got ${show(key)}`);
    }
    position.own_bar = +values[0];
    position.opp_bar = +values[1];
    position.own_off = CHECKERS - total(sides[0]) - position.own_bar;
    position.opp_off = CHECKERS - total(sides[1]) - position.opp_bar;
  } else {
    if (values.length !== TURN_FIELDS.length || !["own", "opp"].includes(values[0])) {
      throw new PositionError(
        "a gulbara key ends with 'next,climb,climb_dice,handed,own_turns,opp_turns' " +
          `(next is own or opp), got ${show(key)}`,
      );
    }
    if (!values.slice(1).every((v) => NUMBER.test(v)) || !["0", "1"].includes(values[3])) {
      throw new PositionError(`bad turn state ${show(parts[2])} in gulbara key ${show(key)}`);
    }
    position.own_off = CHECKERS - total(sides[0]);
    position.opp_off = CHECKERS - total(sides[1]);
    position.next = values[0];
    position.climb = +values[1];
    position.climb_dice = +values[2];
    position.handed = values[3] === "1";
    position.own_turns = +values[4];
    position.opp_turns = +values[5];
  }
  return checkRacePosition(position);
}

/**
 * The same position seen by the other side (Python's `flip`). Tabla: its point p is our
 * 25 - p and the bars swap. Gulbara: its point p is our p + 12 (modulo 24), `next` swaps, the
 * turn counts swap and the climb (which belongs to the side moving next) stays.
 */
export function flipRacePosition(position) {
  if (position.game === TABLA) {
    return {
      game: TABLA,
      own: position.opp.slice().reverse(),
      opp: position.own.slice().reverse(),
      own_bar: position.opp_bar,
      opp_bar: position.own_bar,
      own_off: position.opp_off,
      opp_off: position.own_off,
    };
  }
  const turned = (counts) => counts.map((_, i) => counts[(i + HALF) % POINTS]);
  return {
    game: GULBARA,
    own: turned(position.opp),
    opp: turned(position.own),
    own_off: position.opp_off,
    opp_off: position.own_off,
    next: position.next === "own" ? "opp" : "own",
    climb: position.climb,
    climb_dice: position.climb_dice,
    handed: position.handed,
    own_turns: position.opp_turns,
    opp_turns: position.own_turns,
  };
}

/** The pip counts `[mover, opponent]`: each checker's distance from bearing off in its own
 * numbering (Tabla's bar counts 25). */
export function racePipCounts(position) {
  let own = 0;
  let opp = 0;
  for (let i = 0; i < POINTS; i++) {
    own += position.own[i] * (i + 1);
    opp += position.opp[i] * (position.game === TABLA ? POINTS - i : gulbaraPoint(i + 1));
  }
  if (position.game === TABLA) {
    own += 25 * position.own_bar;
    opp += 25 * position.opp_bar;
  }
  return [own, opp];
}

/**
 * The 72-value position row of docs/formats.md (tapa_env/layout.py) as an Int8Array: own
 * counts, opponent counts, then Tabla's bars (columns 48, 49) or Gulbara's turn state (48:
 * next +1 or -1, climb, climb dice, handed, own turns, opponent turns), the rest 0.
 */
export function racePositionRow(position) {
  const row = new Int8Array(3 * POINTS);
  for (let i = 0; i < POINTS; i++) {
    row[i] = position.own[i];
    row[POINTS + i] = position.opp[i];
  }
  const third = 2 * POINTS;
  if (position.game === TABLA) {
    row[third] = position.own_bar;
    row[third + 1] = position.opp_bar;
  } else {
    row[third] = position.next === "own" ? 1 : -1;
    row[third + 1] = position.climb;
    row[third + 2] = position.climb_dice;
    row[third + 3] = position.handed ? 1 : 0;
    row[third + 4] = position.own_turns;
    row[third + 5] = position.opp_turns;
  }
  return row;
}
