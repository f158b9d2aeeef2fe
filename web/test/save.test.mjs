// The page's saved game (web/js/ui_save.js), the dice it resumes (web/js/ui_dice.js) and the
// hints' equity tones (web/js/ui_hints.js): the parts of the page that need no browser. The
// page itself, reloaded, is tested in Chromium (tests/test_web_page.py). A saved match keeps
// its state in the JSON of Python's MatchState (web/js/match.js), checked against the rest.

import assert from "node:assert/strict";
import test from "node:test";

import { initialPosition as gameStart } from "../js/games.js";
import { flipPosition, initialPosition } from "../js/tapa.js";
import { Dice } from "../js/ui_dice.js";
import { chanceLabel, equityLabel } from "../js/ui_hints.js";
import { BOT, Match, YOU } from "../js/ui_match.js";
import {
  SAVE_KEY,
  SAVE_VERSION,
  checkSaved,
  clearGame,
  loadGame,
  saveGame,
} from "../js/ui_save.js";

const LEVELS = ["novice", "1ply", "2ply"];
/** Each game's levels, and a match's. */
const levelsOf = (game, isMatch) =>
  isMatch ? ["score", "1ply", "2ply"] : game === "tapa" ? LEVELS : ["1ply", "2ply"];

/** A Storage of a Map, as localStorage behaves (strings in, strings out). */
function memoryStorage() {
  const map = new Map();
  return {
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
    map,
  };
}

function record(changes = {}) {
  const dice = new Dice(7);
  dice.roll();
  return {
    seed: 7,
    dice: dice.state,
    level: "2ply",
    match: 0,
    games: [],
    phase: "your-turn",
    position: initialPosition(),
    roll: [6, 5],
    plays: 0,
    news: "",
    moved: [19, -1],
    log: [["You start.", ""], ["You 6-5: 24/13", "you"]],
    thrown: null,
    ...changes,
  };
}

const TABLA_MARS = {
  winner: "bot", points: 2, kind: "mars", how: "the bot bore off all 15", game: "tabla",
};

/** A match to 3 in its second game, Gulbara, after the bot's mars in Tabla: your turn. */
function matchRecord(changes = {}) {
  const match = new Match(3);
  match.record(TABLA_MARS);
  const position = gameStart("gulbara");
  const saved = record({
    game: "gulbara",
    level: "score",
    match: 3,
    games: [TABLA_MARS],
    position,
    log: [["Game 2 of a match to 3, Gulbara: you 0, bot 2.", ""]],
  });
  return { ...saved, state: match.toDict(position, YOU), ...changes };
}

test("a saved game is read back as it was written", () => {
  const storage = memoryStorage();
  assert.equal(saveGame(record(), storage), true);
  assert.equal(JSON.parse(storage.map.get(SAVE_KEY)).version, SAVE_VERSION);
  assert.deepEqual(loadGame(LEVELS, storage), record());
  clearGame(storage);
  assert.equal(loadGame(LEVELS, storage), null);
});

test("a game between the games of a match keeps its end, not a roll", () => {
  const match = new Match(3);
  match.record(TABLA_MARS);
  const end = matchRecord({
    game: "tabla",
    position: { ...gameStart("tabla"), own_off: 15, own: Array(24).fill(0) },
    phase: "game-over",
    roll: undefined,
    status: "The bot wins.",
    state: match.toDict(),
  });
  const read = checkSaved({ version: SAVE_VERSION, ...end }, levelsOf);
  assert.equal(read.status, "The bot wins.");
  assert.equal("roll" in read, false);
  assert.equal(read.state.starter, 1); // the bot won: it starts the next game
  assert.equal(read.state.game, "gulbara");
});

test("a saved match keeps its state as Python's MatchState JSON, checked against the rest", () => {
  const storage = memoryStorage();
  saveGame(matchRecord(), storage);
  assert.deepEqual(loadGame(levelsOf, storage), matchRecord());
  const match = new Match(3);
  match.record(TABLA_MARS);
  const state = matchRecord().state;
  assert.deepEqual(state, {
    length: 3,
    order: ["tabla", "gulbara", "tapa"],
    draw_starter: "throw",
    score: [0, 2],
    games_played: 1,
    game: "gulbara",
    starter: 1,
    to_move: 0,
    position: gameStart("gulbara"),
  });
  match.starter = YOU;
  const wrong = [
    { state: undefined }, // a match keeps its state
    { state: { ...state, score: [1, 2] } }, // not the games' score
    { state: { ...state, starter: null } }, // a game in play has its starter
    { state: match.toDict(gameStart("gulbara"), YOU) }, // the winner starts
    { state: { ...state, to_move: 1 } }, // your turn
    { state: { ...state, position: { ...state.position, own_turns: 1 } } },
    { state: { ...state, games_played: 2, game: "tapa" } },
    { game: undefined, position: initialPosition(), state: { ...state, position: initialPosition() } },
    { games: [{ ...TABLA_MARS, game: "tapa" }] }, // Tabla is the first game
    { games: [{ ...TABLA_MARS, game: undefined }] },
    { level: "novice" }, // a single game's level of Tapa
    { thrown: [7, 1] },
    { match: 16 },
  ];
  for (const changes of wrong) {
    storage.setItem(SAVE_KEY, JSON.stringify({ version: SAVE_VERSION, ...matchRecord(changes) }));
    assert.equal(loadGame(levelsOf, storage), null, JSON.stringify(changes).slice(0, 120));
  }
  // A single game has no match state.
  const single = { version: SAVE_VERSION, ...record({ state }) };
  assert.throws(() => checkSaved(single, LEVELS), /state/);
  assert.equal(BOT, "bot");
});

const PORTES_WIN = { winner: "you", points: 1, kind: "single", how: "you bore off", game: "tabla" };

/** A tavli match to 3 in its second game, Plakoto (Tapa), after your Portes (Tabla) win. */
function tavliRecord(changes = {}) {
  const match = new Match(3, undefined, "tavli");
  match.record(PORTES_WIN);
  const position = initialPosition();
  const saved = record({
    level: "1ply",
    match: 3,
    match_games: "tavli",
    games: [PORTES_WIN],
    position,
    log: [["Game 2 of a match to 3, Plakoto: you 1, bot 0.", ""]],
  });
  return { ...saved, state: match.toDict(position, YOU), ...changes };
}

test("a saved tavli match names its match and is checked as one", () => {
  const storage = memoryStorage();
  saveGame(tavliRecord(), storage);
  const read = loadGame(levelsOf, storage);
  assert.deepEqual(read, tavliRecord());
  assert.equal(read.match_games, "tavli");
  assert.deepEqual(read.state.order, ["tabla", "tapa", "fevga"]);
  // The tabla match's record is as it always was: no match_games.
  assert.equal("match_games" in loadGame(levelsOf, memoryStorageWith(matchRecord())), false);
  const wrong = [
    { match_games: undefined }, // then a tabla match, whose second game is Gulbara
    { match_games: "tabla" }, // the tabla match is the record without the name
    { match_games: "portes" },
    { match_games: "tavli", match: 0, state: undefined }, // a single game has no match
    { state: new Match(3).toDict(initialPosition(), YOU) }, // the tabla match's order
  ];
  for (const changes of wrong) {
    storage.setItem(SAVE_KEY, JSON.stringify({ version: SAVE_VERSION, ...tavliRecord(changes) }));
    assert.equal(loadGame(levelsOf, storage), null, JSON.stringify(changes).slice(0, 120));
  }
});

function memoryStorageWith(saved) {
  const storage = memoryStorage();
  saveGame(saved, storage);
  return storage;
}

test("anything else saved is ignored, never half used", () => {
  const storage = memoryStorage();
  const wrong = [
    "{not json",
    "null",
    "7",
    "[]",
    JSON.stringify({ ...record(), version: SAVE_VERSION + 1 }),
    JSON.stringify(record()), // no version at all
  ];
  const fields = {
    seed: -1,
    dice: [1, 2, 3],
    level: "grandmaster",
    match: 100,
    games: [{ winner: "you", points: 1, kind: "single", how: "" }], // a decided single game
    phase: "playing",
    position: { ...initialPosition(), own_off: 1 },
    roll: [0, 7],
    plays: 1.5,
    news: null,
    moved: [25],
    log: [["a line", "someone"]],
  };
  for (const [field, value] of Object.entries(fields)) {
    wrong.push(JSON.stringify({ version: SAVE_VERSION, ...record({ [field]: value }) }));
  }
  // A decided match, and a finished game waiting for a roll, have nothing to go on with.
  const won = { ...TABLA_MARS, winner: "you" };
  const decided = matchRecord({ games: [won, { ...won, game: "gulbara" }], game: "tapa" });
  wrong.push(JSON.stringify({ version: SAVE_VERSION, ...decided }));
  const nine = matchRecord({ games: [{ ...TABLA_MARS, points: 9 }] });
  wrong.push(JSON.stringify({ version: SAVE_VERSION, ...nine }));
  const finished = { ...initialPosition(), own: Array(24).fill(0), own_off: 15 };
  wrong.push(JSON.stringify({ version: SAVE_VERSION, ...record({ position: finished }) }));
  for (const value of wrong) {
    storage.setItem(SAVE_KEY, value);
    assert.equal(loadGame(LEVELS, storage), null, value);
  }
});

test("a browser that keeps nothing breaks nothing", () => {
  const refusing = {
    getItem() {
      throw new Error("SecurityError");
    },
    setItem() {
      throw new Error("QuotaExceededError");
    },
    removeItem() {
      throw new Error("SecurityError");
    },
  };
  assert.equal(saveGame(record(), refusing), false);
  assert.equal(loadGame(LEVELS, refusing), null);
  clearGame(refusing);
  assert.equal(saveGame(record(), null), false);
  assert.equal(loadGame(LEVELS, null), null);
});

test("resumed dice throw what the dice would have thrown", () => {
  const dice = new Dice(123);
  for (let i = 0; i < 5; i++) dice.roll();
  const resumed = Dice.resume(123, JSON.parse(JSON.stringify(dice.state)));
  for (let i = 0; i < 50; i++) assert.deepEqual(resumed.roll(), dice.roll());
  assert.throws(() => Dice.resume(123, [1, 2, 3]), /four whole numbers/);
  assert.throws(() => Dice.resume(123, [1, 2, 3, 2 ** 32]), /four whole numbers/);
});

test("an equity reads with its sign and its tone: a loss red, a gain green", () => {
  assert.deepEqual(equityLabel(0.1404), { text: "+0.140", tone: "good" });
  assert.deepEqual(equityLabel(-1.0876), { text: "-1.088", tone: "bad" });
  assert.deepEqual(equityLabel(-0.0004), { text: "+0.000", tone: "even" });
  assert.deepEqual(equityLabel(0), { text: "+0.000", tone: "even" });
  assert.deepEqual(equityLabel(2), { text: "+2.000", tone: "good" });
  assert.deepEqual(chanceLabel(0.4996), { text: "50.0%", tone: "good" });
  assert.deepEqual(chanceLabel(0.31234), { text: "31.2%", tone: "bad" });
});

test("the bot's turn is saved from its side", () => {
  const position = flipPosition(initialPosition());
  const saved = { version: SAVE_VERSION, ...record({ phase: "bot-turn", position }) };
  const read = checkSaved(saved, LEVELS);
  assert.deepEqual(read.position, position);
});

test("a saved game of Tabla or Gulbara names its game and is checked as one", () => {
  const levels = (game) => (game === "tapa" ? LEVELS : ["1ply", "2ply"]);
  const tabla = record({
    game: "tabla",
    match: 0,
    games: [],
    level: "1ply",
    position: gameStart("tabla"),
  });
  const storage = memoryStorage();
  saveGame(tabla, storage);
  assert.deepEqual(loadGame(levels, storage), tabla);
  const climbing = { ...gameStart("gulbara"), own_turns: 3, opp_turns: 3 };
  const gulbara = record({ game: "gulbara", match: 0, games: [], level: "2ply" });
  const climb = { ...gulbara, position: { ...climbing, climb: 4, climb_dice: 4 }, roll: [4, 4] };
  saveGame(climb, storage);
  assert.deepEqual(loadGame(levels, storage), climb);
  const wrong = [
    { ...tabla, game: "chess" },
    { ...tabla, game: "tapa" }, // Tapa's records have no game
    { ...tabla, position: initialPosition() }, // a Tapa position in a Tabla game
    { ...tabla, level: "novice" }, // Tapa's level
    { ...tabla, match: 3 }, // a match keeps its state
    { ...climb, roll: [6, 5] }, // a climb plays its own double
    { ...climb, position: { ...climb.position, next: "opp" } }, // not its mover's turn
  ];
  for (const value of wrong) {
    storage.setItem(SAVE_KEY, JSON.stringify({ version: SAVE_VERSION, ...value }));
    assert.equal(loadGame(levels, storage), null, JSON.stringify(value).slice(0, 120));
  }
});

/** A saved match to `length` after `games`, your turn in the game that comes next. */
function matchAfter(length, games) {
  const match = new Match(length);
  for (const result of games) match.record(result);
  match.starter ??= YOU; // after a draw, thrown for
  const position = gameStart(match.game);
  const saved = record({
    ...(match.game === "tapa" ? {} : { game: match.game }),
    level: "score",
    match: length,
    games,
    position,
  });
  return { ...saved, state: match.toDict(position, YOU) };
}

test("a saved match whose score no match can give is dropped, whole", () => {
  const win = (game, winner, points, kind = points === 1 ? "single" : "mars") => ({
    winner, points, kind, how: "", game,
  });
  const drawn = { winner: null, points: 0, kind: "draw", how: "", game: "tapa" };
  const won = [win("tabla", "you", 1), win("gulbara", "you", 1), drawn];
  const possible = [
    matchAfter(5, [win("tabla", "bot", 2)]),
    matchAfter(7, [...won, win("tabla", "bot", 2)]),
    matchAfter(3, won),
  ];
  const storage = memoryStorage();
  for (const saved of possible) {
    saveGame(saved, storage);
    assert.deepEqual(loadGame(levelsOf, storage), saved);
  }
  const impossible = [
    // A Tabla game is never drawn (R10): 0-0 after one game.
    matchAfter(5, [{ winner: null, points: 0, kind: "single", how: "", game: "tabla" }]),
    matchAfter(5, [{ ...drawn, game: "tabla" }]),
    // A match plays no triple (M2): 0-3 after one game, and a 3 among possible sums.
    matchAfter(5, [win("tabla", "bot", 3, "backgammon")]),
    matchAfter(7, [...won, win("tabla", "bot", 3, "backgammon")]),
  ];
  for (const saved of impossible) {
    const shown = JSON.stringify(saved.games);
    storage.setItem(SAVE_KEY, JSON.stringify({ version: SAVE_VERSION, ...saved }));
    assert.equal(loadGame(levelsOf, storage), null, shown);
    assert.throws(() => checkSaved({ version: SAVE_VERSION, ...saved }, levelsOf), {
      message: /^the saved game's (games|state) is wrong$/,
    });
  }
  // A state the match's checks refuse is dropped the same way, never half read.
  const state = matchRecord().state;
  const refused = [
    { ...state, starter: true },
    { ...state, game: ["gulbara"] },
    { ...state, score: [0, 2.5] },
    { ...state, length: 16 },
    "a match",
  ];
  for (const value of refused) {
    const saved = { version: SAVE_VERSION, ...matchRecord({ state: value }) };
    storage.setItem(SAVE_KEY, JSON.stringify(saved));
    assert.equal(loadGame(levelsOf, storage), null, JSON.stringify(value).slice(0, 80));
    assert.throws(() => checkSaved(saved, levelsOf), /the saved game's state is wrong/);
  }
});
