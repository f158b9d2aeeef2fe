/**
 * The page: a single game of Tapa, Tabla, Gulbara or Fevga between you and the bot, or a match
 * of the registry (web/js/match.js's MATCHES) to 3, 5 or 7 points: the tabla match (Tabla,
 * Gulbara, Tapa in turn) or the tavli match (Portes, Plakoto, Fevga), played on the board with
 * taps and drags. It starts the game at once and loads the bot beside it; the bot's turns wait
 * for it. In a match the page shows the score, the game in play and the next (by the names the
 * match gives them), who starts and why, and your chance of winning the match (the match's
 * table in web/models/match-equity.json), and the bot plays to the score; a match whose table
 * is not in the file (the tavli match, until Fevga's outcomes are measured) is played for
 * points, and the page says so.
 *
 * URL parameters (all optional): `game` (`tapa`, `tabla`, `gulbara` or `fevga`: the game of a
 * single game), `seed` (the dice: the same seed plays the same rolls), `level` (a level id of the
 * game's levels in web/js/bot.js, or in a match of its MATCH_LEVELS), `match` (points to win
 * a match, up to 15; 0 for a single game), `match_games` (`tabla` or `tavli`: the match played,
 * as play.py's `match_games=`; alone, to the match's own length, 7),
 * `first` (`roll`, `you` or `bot`: who starts the first game), `delay` (milliseconds the
 * bot's checker moves are shown one by one; 0 shows its play at once).
 *
 * The game in progress is kept in localStorage at every turn (web/js/ui_save.js); opened
 * again, the page offers to go on with it, and New game asks before it discards one.
 *
 * For tests and measurements the page exposes what it shows: `document.body.dataset.state`
 * ("loading", "saved": a saved game offered, "your-turn", "bot-turn", "game-over",
 * "match-over", "error"), data attributes on the board (web/js/board.js), and
 * `window.tapaPage.timings`: milliseconds from navigation to the first roll on the board
 * (`firstRoll`) and to the bot being ready (`botReady`).
 */

import {
  BAR_POINT as BAR,
  DEFAULT_GAME,
  GAMES,
  GAME_RULES,
  GAME_NAMES,
  checkerTurn,
  nextTurn as following,
  flipPosition,
  initialPosition,
  notatedPlays,
  outcome,
  pipCounts,
  playText,
  gameNamed,
  positionKey,
} from "./games.js";
import { BOT_BAR, BOT_TRAY, BoardView } from "./board.js";
import { ask } from "./ui_ask.js";
import { Dice, parseSeed, randomSeed } from "./ui_dice.js";
import { hintItem } from "./ui_hints.js";
import { listen } from "./ui_input.js";
import {
  DEFAULT_MATCH,
  MATCHES,
  MATCH_NAMES,
  MAX_MATCH,
  MatchTable,
  matchNamed,
} from "./match.js";
import { BOT, Match, YOU, gameResult, mirrored, openingThrow } from "./ui_match.js";
import { PHASES, clearGame, loadGame, saveGame } from "./ui_save.js";
import { OFF, PersonTurn } from "./ui_turn.js";

/** The Play selector's value for a single game; a match's is its name. */
const SINGLE = "single";
const DEFAULT_DELAY = 350;
const HINTS = 5;
/** What a finished game was, by its kind (web/js/ui_match.js's gameResult). */
const KIND_NAMES = {
  single: "a single game",
  gammon: "a gammon",
  mother: "a mother win",
  mars: "a mars",
  backgammon: "a backgammon",
};
/** A list in words: `Tabla, Gulbara and Tapa`. */
const inWords = (items) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
const SINGLE_NOTE =
  "A single game of the game chosen at the top, or a match: " +
  inWords(
    Object.values(MATCHES).map((entry) => `the ${entry.title} plays ${inWords(entry.titles)}`),
  ) +
  ", in turn. Choosing here starts a new game or match.";
const percent = (chance) => `${Math.round(100 * chance)}%`;

const $ = (id) => document.getElementById(id);
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A roll as game records and the terminal write it: the higher die first (`6-5`, `2-1`). */
const rollText = (dice) => `${Math.max(...dice)}-${Math.min(...dice)}`;
const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

function element(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

/** The URL's settings, each checked; a wrong one is reported and its default used.
 * `botModule` gives each game's levels and default level, and a match's. */
function readSettings(botModule) {
  const params = new URLSearchParams(location.search);
  const problems = [];
  const settings = { seed: null, game: DEFAULT_GAME, match: 0, first: "roll" };
  settings.matchGames = DEFAULT_MATCH;
  settings.delay = DEFAULT_DELAY;
  if (params.has("game")) {
    const game = params.get("game");
    if (GAMES.includes(game)) settings.game = game;
    else problems.push(`game must be one of ${GAMES.join(", ")}, got '${game}'`);
  }
  const whole = (name, least, most) => {
    if (!params.has(name)) return null;
    const text = params.get(name);
    if (/^\d+$/.test(text) && Number(text) >= least && Number(text) <= most) return Number(text);
    problems.push(`${name} must be a whole number from ${least} to ${most}, got '${text}'`);
    return null;
  };
  settings.match = whole("match", 0, MAX_MATCH) ?? settings.match;
  if (params.has("match_games")) {
    const name = params.get("match_games");
    if (MATCH_NAMES.includes(name)) {
      settings.matchGames = name;
      // Named alone, the match is played to its own length (play.py's match_games=tavli).
      if (!params.has("match")) settings.match = MATCHES[name].length;
    } else {
      problems.push(`match_games must be one of ${MATCH_NAMES.join(", ")}, got '${name}'`);
    }
  }
  const levels = settings.match
    ? botModule.MATCH_LEVELS
    : botModule.GAME_LEVELS[settings.game];
  settings.level = settings.match
    ? botModule.DEFAULT_MATCH_LEVEL
    : botModule.DEFAULT_LEVELS[settings.game];
  if (params.has("seed")) {
    try {
      settings.seed = parseSeed(params.get("seed"));
    } catch (error) {
      problems.push(error.message);
    }
  }
  if (params.has("level")) {
    const level = params.get("level");
    if (levels.some((entry) => entry.id === level)) {
      settings.level = level;
    } else {
      const ids = levels.map((entry) => entry.id).join(", ");
      problems.push(`level must be one of ${ids}, got '${level}'`);
    }
  }
  settings.delay = whole("delay", 0, 5000) ?? settings.delay;
  if (params.has("first")) {
    const first = params.get("first");
    if (["roll", YOU, BOT].includes(first)) settings.first = first;
    else problems.push(`first must be roll, you or bot, got '${first}'`);
  }
  return { settings, problems };
}

class Page {
  constructor(botModule) {
    this.gameLevels = botModule.GAME_LEVELS;
    this.defaultLevels = botModule.DEFAULT_LEVELS;
    this.matchLevels = botModule.MATCH_LEVELS;
    this.defaultMatchLevel = botModule.DEFAULT_MATCH_LEVEL;
    const { settings, problems } = readSettings(botModule);
    this.settings = settings;
    this.game = settings.game;
    this.level = settings.level;
    this.match = null;
    this.bot = null;
    this.botFailed = null;
    // The match equity tables, by match name: your chance of winning a match, and the bot's
    // play to the score. A match without one (the tavli match, until Fevga's outcomes are
    // measured) is played for points.
    this.tables = null;
    this.tablesReady = MatchTable.loadAll(new URL("../", import.meta.url)).then((tables) => {
      this.tables = tables;
      this.tablesLoaded();
      return tables;
    });
    this.tablesReady.catch(() => {}); // a match to the score says why when it needs its table
    this.generation = 0; // a new game stops the last one's pending steps
    this.plays = 0; // plays made in this game: a game with none is not worth a question
    this.logLines = []; // the game log's lines, [line, side], for the saved game
    this.moved = new Set();
    // The URL's settings that were ignored, in one line: shown with every message until you
    // act (a tap on the board, Undo, Hint, Done), so a bot that moves first cannot wipe it away.
    this.notice = problems.length ? `Ignored: ${problems.join("; ")}.` : "";
    this.timings = { firstRoll: null, botReady: null };
    this.board = new BoardView($("board"));
    this.setUpControls();
    listen($("board"), this.board, {
      canTake: (point) => this.canTake(point),
      onTake: (point) => this.take(point),
      onTap: (point, took) => this.tap(point, took),
      onDrop: (from, to) => this.drop(from, to),
      onDice: () => this.swapDice(),
      onCancel: () => this.render(),
    });
    this.botReady = botModule.loadBot().then(
      (bot) => {
        this.bot = bot;
        this.timings.botReady = performance.now();
        $("hint").disabled = this.state !== "your-turn" || !this.canHint;
        $("bot-status").textContent = "";
        return bot;
      },
      (error) => {
        this.botFailed = `The bot could not be loaded (${error.message}); in web/, run npm ci.`;
        this.fail(this.botFailed);
        throw error;
      },
    );
    this.botReady.catch(() => {}); // reported on the page; the bot's turn checks it again
    const saved = loadGame((game, isMatch) =>
      (isMatch ? this.matchLevels : this.gameLevels[game]).map((entry) => entry.id),
    );
    // A game with nothing played yet is not worth a question: a new one starts.
    if (saved && (saved.plays > 0 || saved.games.length > 0)) this.offerSaved(saved);
    else this.newMatch(settings.match, settings.matchGames);
    if (this.notice) this.say("");
  }

  /** Whether a match is played (before the first starts, whether the URL asks for one). */
  get isMatch() {
    return this.match ? this.match.isMatch : this.settings.match > 0;
  }

  /** The match played (its entry of web/js/match.js's MATCHES), or the URL's before one
   * starts; null for a single game. */
  get matchKind() {
    if (this.match) return this.match.kind;
    return this.settings.match > 0 ? matchNamed(this.settings.matchGames) : null;
  }

  /** The match's equity table, or null: a single game, the tables not loaded yet, or none
   * for this match. */
  get table() {
    return (this.matchKind && this.tables?.[this.matchKind.name]) ?? null;
  }

  /** Whether the match is known to have no table: its bot plays for points. */
  get noTable() {
    return Boolean(this.matchKind && this.tables && !this.tables[this.matchKind.name]);
  }

  /** The levels of the game played, or of a match (without those to the score where the
   * match has no table). */
  get levels() {
    if (!this.isMatch) return this.gameLevels[this.game];
    return this.matchLevels.filter((entry) => !(entry.toScore && this.noTable));
  }

  /** The level played: its entry of `levels`. */
  get levelEntry() {
    return this.levels.find((entry) => entry.id === this.level);
  }

  /** The level of the game's own levels (`GAME_LEVELS`) the bot plays the game in play at:
   * in a match the match level's, where the game has it, else the game's default (Fevga's
   * `random` while no Fevga network is shipped). */
  get gameLevel() {
    if (!this.isMatch) return this.level;
    const wanted = this.levelEntry.level;
    const own = this.gameLevels[this.game];
    return own.some((entry) => entry.id === wanted) ? wanted : this.defaultLevels[this.game];
  }

  /** Whether the bot can rank plays for Hint: a level with a network (a game whose network is
   * not shipped yet, Fevga's, plays at random and gives no hints). */
  get canHint() {
    const level = this.gameLevels[this.game].find((entry) => entry.id === this.gameLevel);
    return Boolean(level?.model);
  }

  /** Whether the bot plays to the match score (and Hint ranks plays by it): a level to the
   * score, a game with a network, and a match with a table (or its tables still loading). */
  get toScore() {
    return this.isMatch && Boolean(this.levelEntry?.toScore) && !this.noTable && this.canHint;
  }

  /** The match's table when the bot plays to the score, once the tables are loaded (a
   * rejection when they could not be); null when it plays for points. */
  async scoreTable() {
    if (!this.toScore) return null;
    await this.tablesReady;
    return this.toScore ? this.table : null;
  }

  /** The tables are loaded: a match without one drops the level to the score (and says
   * why), and the panel shows your chance. */
  tablesLoaded() {
    if (!this.match?.isMatch) return;
    const level = this.level;
    this.setGame(this.game, level);
    if (this.level !== level && PHASES.includes(this.state)) this.save();
    this.showMatch();
  }

  /** The game's rule flags: its defaults, those of its bot. */
  /** The game played: its properties (web/js/games/). */
  get spec() {
    return gameNamed(this.game);
  }

  /** What a single game of the game played is called in the score and the saved game's
   * summary: the default game's "A single game", another's "A game of Tabla". */
  get singleName() {
    return this.spec.keyed ? `A game of ${this.spec.title}` : "A single game";
  }

  get rules() {
    return GAME_RULES[this.game];
  }

  // --- settings and controls ---------------------------------------------------------------

  setUpControls() {
    // The bot's hints and the game log go beside the board on a wide screen; on a phone both
    // go right under the controls, so the log is read without scrolling past the settings.
    // A match's panel heads the side column on a wide screen, and the board's on a phone.
    const wide = matchMedia("(min-width: 900px)");
    const place = () => {
      if (wide.matches) {
        $("side-hints").append($("hints"));
        $("settings").after($("game-log"));
        $("side-hints").before($("match-panel"));
      } else {
        $("controls").after($("hints"));
        $("hints").after($("game-log"));
        $("players").before($("match-panel"));
      }
    };
    wide.addEventListener("change", place);
    place();
    const chooser = $("game");
    for (const game of GAMES) chooser.append(new Option(GAME_NAMES[game], game));
    chooser.addEventListener("change", () => this.chooseGame(chooser.value));
    $("match").addEventListener("change", () => this.chooseMatch($("match").value));
    $("length").addEventListener("change", () => this.chooseLength(Number($("length").value)));
    const level = $("level");
    level.addEventListener("change", () => {
      this.level = level.value;
      this.showLevel();
      if (PHASES.includes(this.state)) this.save();
    });
    this.setGame(this.game, this.level);
    this.showMatchChoice(this.settings.match, this.settings.matchGames);
    $("new-game").addEventListener("click", () => this.askNewMatch());
    $("next-game").addEventListener("click", () => this.nextGame());
    $("again").addEventListener("click", () => this.newMatch(...this.kindPlayed));
    $("undo").addEventListener("click", () => this.undo());
    $("done").addEventListener("click", () => this.done());
    $("hint").addEventListener("click", () => this.hint());
  }

  /**
   * Plays `game` from now on: its heading, its levels (`level`, or the one played when the
   * game has it, or the game's default; in a match the match's levels), the Game selector
   * (the match's game in a match) and what the legend and the help show. Starts nothing.
   */
  setGame(game, level = this.level) {
    this.game = game;
    $("game").value = game;
    document.body.dataset.game = game;
    const { title, alsoCalled } = gameNamed(game);
    // A match may call the game otherwise (Portes, Plakoto): the game's own name follows.
    const name = this.matchKind ? this.matchKind.titleOf(game) : title;
    const also = name === title ? alsoCalled : `(${title})`;
    $("title").replaceChildren(`${name} `, element("small", "", also));
    document.title = `${name}: play the bot`;
    const ids = this.levels.map((entry) => entry.id);
    const fallback = this.isMatch
      ? ids.includes(this.defaultMatchLevel) ? this.defaultMatchLevel : ids[0]
      : this.defaultLevels[game];
    this.level = ids.includes(level) ? level : fallback;
    $("level").replaceChildren(...this.levels.map((entry) => new Option(entry.label, entry.id)));
    $("level").value = this.level;
    this.showLevel();
    $("game").disabled = this.isMatch;
    $("game").closest("label").hidden = this.isMatch;
    $("match-note").textContent = this.isMatch ? this.matchNote() : SINGLE_NOTE;
    $("board").setAttribute("aria-label", `The ${name} board, from your side`);
  }

  /** The game chooser: another game starts a new game of it, once you agree to lose the one
   * on; kept, the chooser shows the game played again. */
  async chooseGame(game) {
    if (game === this.game) return;
    if (this.inProgress) {
      const sure = await ask($("ask"), {
        title: `Start a game of ${GAME_NAMES[game]}?`,
        text: this.lossText(),
        yes: "New game",
        no: "Keep playing",
        focus: "no",
      });
      if (!sure) {
        $("game").value = this.game;
        return;
      }
    }
    this.setGame(game);
    this.newMatch(0);
  }

  /** What the match played is and how its bot plays, under the Play selector: its games in
   * turn, and where it has no table or a game no network, what the bot does instead. */
  matchNote() {
    const kind = this.matchKind;
    const lines = [
      `The ${kind.title} (${kind.from}) plays ${inWords(kind.titles)} in turn, round again, ` +
        "until a side has the points; the winner of a game starts the next.",
    ];
    // A game with no network shipped yet plays at random, and its outcomes are not measured.
    const random = kind.order.filter((game) => !this.gameLevels[game].some((l) => l.model));
    const unshipped = inWords(random.map((game) => kind.titleOf(game)));
    if (this.noTable) {
      const why = random.length
        ? ` (it is measured with each game's shipped bot, and ${unshipped} has none yet)`
        : "";
      lines.push(
        `No match equity table for the ${kind.title} yet${why}: the bot plays every game for ` +
          "points.",
      );
    }
    for (const game of random) {
      const name = kind.titleOf(game);
      lines.push(
        `No ${name} network is shipped yet: in ${name} the bot plays at random and gives no hints.`,
      );
    }
    lines.push("Choosing here starts a new game or match.");
    return lines.join(" ");
  }

  /** The match played as `newMatch`'s arguments: its points and its name. */
  get kindPlayed() {
    return [this.match.points, this.match.kind?.name ?? DEFAULT_MATCH];
  }

  /** The Play selector: a single game, or the tabla or the tavli match (to the points of the
   * match played, or its own length), starts at once once you agree to lose the game or match
   * on; kept, the selectors show what is played again. */
  async chooseMatch(choice) {
    const name = choice === SINGLE ? null : choice;
    const points = name ? this.match.points || MATCHES[name].length : 0;
    this.askToStart(points, name ?? DEFAULT_MATCH);
  }

  /** The points selector: a match of the kind played to `points`, as `chooseMatch`. */
  chooseLength(points) {
    this.askToStart(points, this.match.kind?.name ?? DEFAULT_MATCH);
  }

  async askToStart(points, name) {
    if (this.inProgress) {
      const what = points
        ? `a ${MATCHES[name].title} to ${points}`
        : `a single game of ${GAME_NAMES[this.game]}`;
      const sure = await ask($("ask"), {
        title: `Start ${what}?`,
        text: this.lossText(),
        yes: points ? "New match" : "New game",
        no: "Keep playing",
        focus: "no",
      });
      if (!sure) {
        this.showMatchChoice(...this.kindPlayed);
        return;
      }
    }
    this.newMatch(points, name);
  }

  /** Every level with its strength (its description), the one played marked. */
  showLevel() {
    $("level-note").replaceChildren(
      ...this.levels.map((entry) => {
        const item = element("li", entry.id === this.level ? "chosen" : "", "");
        item.dataset.level = entry.id;
        item.append(element("b", "", entry.label), `: ${entry.description}`);
        return item;
      }),
    );
    const entry = this.levels.find((l) => l.id === this.level);
    // In a match a game without the match level's own level (Fevga's random) names its own.
    const own = this.gameLevels[this.game].find((l) => l.id === this.gameLevel);
    const shown = this.isMatch && own && own.id !== entry?.level ? own : entry;
    $("bot-level").textContent = shown ? shown.label : "";
  }

  /** The Play selector (a single game, or a match of MATCHES: the match `name` when
   * `points` is not 0) and the points selector (the match's lengths, with `points` among them
   * and chosen; hidden for a single game). */
  showMatchChoice(points, name = DEFAULT_MATCH) {
    const match = $("match");
    match.replaceChildren(
      new Option("a single game", SINGLE),
      ...Object.values(MATCHES).map((entry) => new Option(entry.title, entry.name)),
    );
    match.value = points ? name : SINGLE;
    const { lengths } = MATCHES[name];
    const choices = !points || lengths.includes(points) ? lengths : [...lengths, points];
    $("length").replaceChildren(
      ...[...choices]
        .sort((a, b) => a - b)
        .map((value) => new Option(`${value} point${value === 1 ? "" : "s"}`, String(value))),
    );
    $("length").value = String(points || MATCHES[name].length);
    $("length").closest("label").hidden = !points;
  }

  /** New game: a new game or match of the kind chosen, once you agree to lose the one on. */
  /** What starting another game loses, in one line. */
  lossText() {
    const { score } = this.match;
    return this.match.isMatch
      ? `The match in progress (you ${score.you}, bot ${score.bot}) will be lost.`
      : "The game in progress will be lost.";
  }

  async askNewMatch() {
    if (this.inProgress) {
      const sure = await ask($("ask"), {
        title: "Start a new game?",
        text: this.lossText(),
        yes: "New game",
        no: "Keep playing",
        focus: "no",
      });
      if (!sure) return;
    }
    this.newMatch(...this.kindPlayed);
  }

  // --- the saved game (web/js/ui_save.js) --------------------------------------------------

  /** Whether starting another game would lose one: a play made, or a game of a match won. */
  get inProgress() {
    return PHASES.includes(this.state) && (this.plays > 0 || this.match.games.length > 0);
  }

  /** Keeps the game as it stands: at the roll of the turn being played, or a game's end. */
  save() {
    const record = {
      ...(this.spec.keyed ? { game: this.game } : {}),
      seed: this.seed,
      dice: this.dice.state,
      level: this.level,
      match: this.match.points,
      ...(this.match.kind && this.match.kind.name !== DEFAULT_MATCH
        ? { match_games: this.match.kind.name }
        : {}),
      games: this.match.games,
      plays: this.plays,
      news: this.news,
      moved: [...this.moved],
      log: this.logLines,
      thrown: this.match.thrown,
    };
    if (this.match.isMatch) record.state = this.matchState();
    if (this.state === "game-over") {
      saveGame({ ...record, phase: this.state, position: this.shownPosition, status: this.ending });
    } else {
      saveGame({ ...record, phase: this.state, position: this.position, roll: this.roll });
    }
  }

  /** The match as Python's `MatchState.to_dict` writes it (web/js/match.js): you are player
   * 0; the position of the game in play in the frame of the side to move, none between
   * games. */
  matchState() {
    const turn = this.state === "your-turn" || this.state === "bot-turn";
    const mover = this.state === "your-turn" ? YOU : BOT;
    return this.match.toDict(turn ? this.position : null, turn ? mover : null);
  }

  /** Shows a saved game (ui_save.js's record) and asks whether to go on with it. */
  async offerSaved(saved) {
    this.restore(saved);
    this.state = "saved";
    this.status("Your last game was kept: go on with it, or start a new one.");
    this.render();
    const goOn = await ask($("ask"), {
      title: "Continue your game?",
      text: this.savedSummary(saved),
      yes: "Continue",
      no: "New game",
    });
    if (goOn) {
      this.goOn(saved);
    } else {
      this.match = null; // the URL's kind of game, with its level
      this.setGame(this.settings.game, this.settings.level);
      this.newMatch(this.settings.match, this.settings.matchGames);
    }
  }

  /** The saved game in one line, for the question. */
  savedSummary(saved) {
    const { score } = this.match;
    const single = this.singleName;
    const match = this.match.isMatch
      ? `A match to ${this.match.points}, you ${score.you}, bot ${score.bot}`
      : single;
    if (saved.phase === "game-over") {
      const next = this.match.title(this.match.game);
      const number = this.match.games.length;
      return `${match}: game ${number} is over, the next one (${next}) is to play.`;
    }
    const number = `, game ${this.match.gameNumber} (${this.match.title(this.game)})`;
    const game = this.match.isMatch ? number : "";
    const whose = saved.phase === "your-turn" ? "your turn" : "the bot's turn";
    return `${match}${game}: ${plural(saved.plays, "play")} made, ${whose}.`;
  }

  /** Puts a saved game's match, dice, level, log and position back, its turn not begun. */
  restore(saved) {
    this.generation += 1;
    this.match = new Match(saved.match, saved.game ?? DEFAULT_GAME, saved.match_games);
    for (const game of saved.games) this.match.record(game);
    if (saved.state && saved.phase !== "game-over") {
      this.match.starter = [YOU, BOT][saved.state.starter];
    }
    this.match.thrown = saved.thrown;
    this.setGame(saved.game ?? DEFAULT_GAME, saved.level);
    this.useDice(saved.seed, Dice.resume(saved.seed, saved.dice));
    this.showMatchChoice(...this.kindPlayed);
    this.result = saved.phase === "game-over" ? this.match.games.at(-1) : null;
    this.logLines = [];
    $("log").replaceChildren();
    for (const [line, side] of saved.log) this.log(line, side);
    this.plays = saved.plays;
    this.news = saved.news;
    this.moved = new Set(saved.moved);
    this.personTurn = null;
    this.selected = null;
    this.botDice = [];
    this.position = saved.position;
    this.roll = saved.roll;
    this.ending = saved.status;
    // Until the turn begins the board shows the bot's turn from your side, as it always does.
    if (saved.phase === "bot-turn") this.shownPosition = flipPosition(saved.position);
    else this.shownPosition = saved.phase === "game-over" ? saved.position : null;
    $("hints").hidden = true;
  }

  /** Goes on with a restored game: its turn with its roll, or its end shown again. */
  goOn(saved) {
    if (saved.phase === "your-turn") {
      this.yourTurn(saved.roll);
    } else if (saved.phase === "bot-turn") {
      this.botTurn(saved.roll);
    } else {
      this.state = "game-over";
      this.status(this.ending);
      this.render();
    }
    this.timeFirstRoll();
  }

  // --- the match ---------------------------------------------------------------------------

  /** A new single game of the game chosen (`points` 0), or the match `name` (the tabla match
   * by default) to `points`: its first game first. The level is kept where the new kind of
   * game has it. */
  newMatch(points, name = DEFAULT_MATCH) {
    const kept = this.match === null || this.match.isMatch === points > 0;
    this.match = new Match(points, this.game, name);
    this.setGame(this.match.game, kept ? this.level : null);
    this.showMatchChoice(...this.kindPlayed);
    const seed = this.settings.seed ?? randomSeed();
    this.useDice(seed, new Dice(seed));
    this.logLines = [];
    $("log").replaceChildren();
    this.startGame(this.settings.first);
  }

  useDice(seed, dice) {
    this.seed = seed;
    this.dice = dice;
    $("seed").textContent =
      `Dice seed ${seed}: open the page with ?seed=${seed} to roll the same dice.`;
  }

  nextGame() {
    if (this.state !== "game-over") return;
    this.startGame(null);
  }

  /** Starts a game; `first` is who starts it ("roll" or null: the rules decide, R2/R11). */
  startGame(first) {
    this.generation += 1;
    if (this.match.isMatch) this.setGame(this.match.game);
    let starter = first === YOU || first === BOT ? first : this.match.nextStarter;
    let thrown = null;
    this.news = "";
    this.plays = 0;
    const number = this.match.gameNumber;
    if (this.match.isMatch) {
      const { score } = this.match;
      const to = this.match.points;
      const game = this.match.title(this.game);
      this.log(`Game ${number} of a match to ${to}, ${game}: you ${score.you}, bot ${score.bot}.`);
    }
    if (number > 1 && starter) {
      const who =
        starter === YOU
          ? "You won the last game and start"
          : "The bot won the last game and starts";
      this.log(`${who} with a new roll.`);
    } else if (starter) {
      this.log(`${starter === YOU ? "You start" : "The bot starts"}.`);
    } else {
      if (number > 1) this.log("The last game was a draw: the dice decide who starts.");
      const { throws, starter: winner } = openingThrow(() => this.dice.throwOne());
      for (const [yours, theirs] of throws) {
        const starts = winner === YOU ? "you start" : "the bot starts";
        const then = yours === theirs ? "a tie, again" : `${starts} with a new roll`;
        this.log(`Opening throw: you ${yours}, bot ${theirs}: ${then}.`);
      }
      starter = winner;
      thrown = throws[throws.length - 1];
      this.news = `Opening throw: you ${thrown[0]}, bot ${thrown[1]}.`;
    }
    this.match.starter = starter;
    this.match.thrown = thrown;
    this.position = initialPosition(this.game); // the mover's view: the starter's
    this.personTurn = null;
    this.selected = null;
    this.moved = new Set();
    this.botDice = [];
    this.shownPosition = null;
    this.result = null;
    $("hints").hidden = true;
    this.say("");
    this.nextTurn(starter);
  }

  /** The turn of `mover` on `this.position` (its view): a roll of the dice, or in Gulbara the
   * double of a climb (or of numbers handed over), which needs none (G5, G6). */
  nextTurn(mover) {
    const climb = this.spec.climbs ? this.position.climb : 0;
    const roll = climb ? [climb, climb] : this.dice.roll();
    if (mover === YOU) this.yourTurn(roll);
    else this.botTurn(roll);
    this.timeFirstRoll();
  }

  /** Notes when the first roll is on the board (`timings.firstRoll`, for bench/web_page.py). */
  timeFirstRoll() {
    if (this.timings.firstRoll === null) this.timings.firstRoll = performance.now();
  }

  /** A play has been made (`after`, the mover's view): the game ends, or the other side
   * moves (in Gulbara the same side may move again: its climb goes on, or it rolls after
   * numbers handed to it). */
  afterPlay(after, mover) {
    this.plays += 1;
    const result = outcome(after);
    if (result) {
      this.gameOver(after, result, mover);
      return;
    }
    const { position, passed } = following(after);
    if (this.spec.climbs) {
      const note = this.climbNote(position, passed, mover);
      this.news = mover === YOU ? note : [this.news, note].filter(Boolean).join(" ");
    }
    this.position = position;
    this.nextTurn(passed ? (mover === YOU ? BOT : YOU) : mover);
  }

  /** What a Gulbara play left for the next decision, in one line (or none): the climb goes
   * on (G5), numbers handed over (G6), or a roll after them. `position` is the next mover's
   * view; `passed` whether that is the other side. */
  climbNote(position, passed, mover) {
    const who = mover === YOU ? "You" : "The bot";
    const other = mover === YOU ? "the bot" : "you";
    const { climb, handed } = position;
    if (!passed && climb && !handed) {
      return `${who} played all four ${climb - 1}s: the climb goes on, ${climb}-${climb} next (G5).`;
    }
    if (!passed && climb) return `Next of the numbers handed over: ${climb}-${climb} (G6).`;
    if (!passed) {
      const rolls = mover === YOU ? "now you roll" : "now the bot rolls";
      return `The numbers handed over are played: ${rolls}.`;
    }
    if (climb && handed) {
      return (
        `${who} could not play all of ${climb}-${climb}: ` +
        `${position.climb_dice} ${position.climb_dice === 1 ? "die" : "dice"} handed over to ` +
        `${other} (G6).`
      );
    }
    return "";
  }

  gameOver(after, result, mover) {
    this.say("");
    this.result = gameResult(after, result, mover);
    this.match.record(this.result);
    this.personTurn = null;
    this.selected = null;
    // The bot's last play stays marked when it ended the game; yours took its marks away.
    if (mover === YOU) this.moved = new Set();
    const shown = mover === YOU ? after : flipPosition(after);
    const { winner, points, kind, how } = this.result;
    const who = winner === YOU ? "You win" : "The bot wins";
    const line = winner
      ? `${who}: ${KIND_NAMES[kind]}, ${plural(points, "point")} (${how}).`
      : "Both mothers are pinned: the game is a draw, no points.";
    this.log(line);
    let next;
    if (this.match.over && this.match.isMatch) {
      const { score } = this.match;
      const who = this.match.winner === YOU ? "You win" : "The bot wins";
      const high = Math.max(score.you, score.bot);
      const low = Math.min(score.you, score.bot);
      this.log(`${who} the match ${high}-${low}.`);
      next = `${who} the match ${high}-${low}. New match starts another.`;
      this.state = "match-over";
    } else if (this.match.over) {
      next = "New game starts another.";
      this.state = "match-over";
    } else {
      const starts = {
        [YOU]: "you start it, as the winner of this one",
        [BOT]: "the bot starts it, as the winner of this one",
      }[this.match.starter] ?? "the dice decide who starts it";
      next = `Next game: ${this.match.title(this.match.game)}; ${starts}.`;
      this.state = "game-over";
    }
    this.shownPosition = shown;
    this.ending = `${line} ${next}`;
    this.status(this.ending);
    this.render();
    // A decided game or match leaves nothing to go on with; a match between games does.
    if (this.state === "match-over") clearGame();
    else this.save();
  }

  // --- your turn ---------------------------------------------------------------------------

  yourTurn(roll) {
    this.personTurn = new PersonTurn(this.position, roll);
    this.selected = null;
    this.state = "your-turn";
    this.roll = roll;
    this.save();
    if (this.personTurn.done) {
      this.say(`No legal play with ${this.rollName(this.position, roll)}: press Pass.`);
    } else {
      this.say("");
    }
    this.render();
  }

  canTake(point) {
    if (this.state !== "your-turn" || this.personTurn.done) return false;
    if (this.selected !== null && this.selected !== point && this.lit().has(point)) return false;
    return this.personTurn.sources().includes(point);
  }

  /** A press on a movable checker takes it (a second press on it, released, lets it go). */
  take(point) {
    this.acted();
    this.wasSelected = this.selected === point;
    this.selected = point;
    this.say("");
    this.render();
  }

  tap(point, took) {
    this.acted();
    if (this.state !== "your-turn") {
      if (this.state === "bot-turn") this.say("Wait: it is the bot's turn.", true);
      return;
    }
    const turn = this.personTurn;
    if (took) {
      if (this.wasSelected) this.selected = null;
      this.render();
      return;
    }
    if (turn.done) {
      this.say(turn.whyNot(point ?? 1, OFF), true);
      return;
    }
    if (this.selected === null) {
      if (point === null) return;
      if (turn.has(point)) {
        const pinned = turn.position.own_pinned?.includes(point);
        const barred = (turn.position.own_bar ?? 0) > 0 && point !== BAR;
        const left = turn.diceLeft.join("-");
        const where = point === BAR ? "on the bar" : `on ${point}`;
        // A rule of the game's own may say why (Fevga's first checker, F5).
        const blocked = this.spec.blockedWhy?.(turn.start, turn.position, point, this.rules);
        this.say(
          pinned || barred
            ? turn.whyNot(point, point - 1)
            : blocked ||
                `The checker ${where} has no legal move with ${left}: take one with a gold ring.`,
          true,
        );
      } else {
        this.say("Tap one of your checkers with a gold ring first, then a lit point.", true);
      }
      return;
    }
    if (point === null) {
      this.selected = null;
      this.render();
    } else if (this.lit().has(point)) {
      this.move(this.selected, point, true);
    } else {
      this.refuse(this.selected, point);
    }
  }

  drop(from, to) {
    this.acted();
    if (this.state !== "your-turn") return;
    if (to === null || to === from) {
      this.render();
      return;
    }
    if (this.lit().has(to)) this.move(from, to, false);
    else {
      this.refuse(from, to);
      this.render();
    }
  }

  refuse(from, to) {
    this.say(this.personTurn.whyNot(from, to), true);
  }

  move(from, to, slide) {
    const before = this.board.tops;
    const steps = this.personTurn.move(from, to);
    this.selected = null;
    this.say("");
    this.render();
    if (slide) this.board.slide(before, from, to, Math.min(this.settings.delay, 250));
    return steps;
  }

  swapDice() {
    this.acted();
    if (this.state !== "your-turn") return;
    const [a, b] = this.personTurn.dice;
    if (a === b) return;
    this.personTurn.swapLead();
    this.say(`Where either die could take a checker, the ${this.personTurn.lead} goes first.`);
    this.render();
  }

  undo() {
    this.acted();
    if (this.state !== "your-turn" || !this.personTurn.moved) return;
    this.personTurn.undo();
    this.selected = null;
    this.say("");
    this.render();
  }

  done() {
    this.acted();
    if (this.state !== "your-turn" || !this.personTurn.done) return;
    const turn = this.personTurn;
    const after = turn.position;
    const text = playText(turn.start, turn.dice, after);
    this.log(`You ${this.rollName(turn.start, turn.dice)}: ${text}`, "you");
    this.personTurn = null;
    this.selected = null;
    $("hints").hidden = true;
    this.afterPlay(after, YOU);
  }

  lit() {
    if (this.selected === null || !this.personTurn) return new Set();
    return new Set(this.personTurn.targets(this.selected).keys());
  }

  async hint() {
    this.acted();
    if (this.state !== "your-turn") return;
    if (!this.canHint) {
      const name = this.match.title(this.game);
      this.say(`No ${name} network is shipped yet: the bot gives no hints.`);
      return;
    }
    if (!this.bot) {
      this.say("The bot is still loading; Hint works once it is ready.");
      return;
    }
    const generation = this.generation;
    const turn = this.personTurn;
    const list = $("hint-list");
    $("hints").hidden = false;
    list.replaceChildren(element("li", "", "Thinking..."));
    let ranked;
    try {
      const table = await this.scoreTable();
      $("hints-what").textContent = table
        ? "(your chance of winning the match after each; tap one to set it up)"
        : "(equity: points you expect; tap one to set it up)";
      if (table) {
        const weights = this.weights(YOU, table);
        const level = this.gameLevel;
        ranked = await this.bot.rankToScore(turn.start, turn.dice, weights, HINTS, level);
      } else {
        ranked = await this.bot.rank(turn.start, turn.dice, this.gameLevel, HINTS);
      }
    } catch (error) {
      list.replaceChildren();
      this.say(`The bot could not give a hint: ${error.message}`, true);
      return;
    }
    if (generation !== this.generation || turn !== this.personTurn) return;
    const plays = notatedPlays(turn.start, turn.dice, this.rules);
    list.replaceChildren(
      ...ranked.map((entry) => {
        const key = positionKey(entry.afterstate);
        const play = plays.find((p) => positionKey(p.afterstate) === key);
        return hintItem(entry, () => {
          if (turn !== this.personTurn || !play) return;
          turn.playMoves(play.moves);
          this.selected = null;
          this.say(`${play.text} is on the board: Done plays it, Undo takes moves back.`);
          this.render();
        });
      }),
    );
  }

  /** For `side` in the game in play: its chance of winning the match after each of the
   * game's results (win, win double, draw, lose, lose double), from `table`. */
  weights(side, table) {
    const other = side === YOU ? BOT : YOU;
    const { match } = this;
    const started = match.starter === side;
    return table.outcomeWeights(match.away(side), match.away(other), match.games.length, started);
  }

  // --- the bot's turn ----------------------------------------------------------------------

  async botTurn(roll) {
    const generation = this.generation;
    const position = this.position;
    this.state = "bot-turn";
    this.botDice = roll.map((value) => ({ value, used: false }));
    this.moved = new Set();
    this.roll = roll;
    this.save();
    this.shownPosition = flipPosition(position);
    const loading = this.bot ? "..." : " (waiting for the bot to load)";
    const before = this.news ? `${this.news} ` : "";
    const rolls = `The bot ${this.rollVerb(position)} ${this.rollName(position, roll)}`;
    this.status(`${before}${rolls}${loading}`);
    this.render();
    let bot;
    try {
      bot = await this.botReady;
    } catch {
      return; // the page already says why
    }
    if (generation !== this.generation) return;
    this.status(`${before}${rolls}...`);
    const plays = notatedPlays(position, roll, this.rules);
    let play = plays[0];
    if (play.text !== "pass") {
      const started = performance.now();
      let chosen;
      try {
        const table = await this.scoreTable();
        if (table) {
          const weights = this.weights(BOT, table);
          chosen = await bot.chooseToScore(position, roll, weights, this.gameLevel);
        } else {
          chosen = await bot.choose(position, roll, this.gameLevel);
        }
      } catch (error) {
        if (generation === this.generation) this.fail(`The bot failed to play: ${error.message}`);
        return;
      }
      if (generation !== this.generation) return;
      const key = positionKey(chosen);
      play = plays.find((p) => positionKey(p.afterstate) === key);
      if (!play) {
        this.fail(`The bot chose a position that is not a legal play of ${rollText(roll)}.`);
        return;
      }
      const pause = this.settings.delay - (performance.now() - started);
      if (pause > 0) await wait(pause);
    } else {
      await wait(this.settings.delay);
    }
    if (generation !== this.generation) return;
    const shown = mirrored(play.text, this.game);
    const board = play.text === "pass" ? "" : ` (on your board: ${shown})`;
    const said = play.text === "pass" ? "no legal play, it passes" : `${play.text}${board}`;
    const name = this.rollName(position, roll);
    this.status(`${rolls}: ${said}.`);
    await this.showBotPlay(position, roll, play, generation);
    if (generation !== this.generation) return;
    const rolled = this.rollVerb(position) === "rolls" ? "rolled" : "played";
    this.news = `The bot ${rolled} ${name}: ${said}.`;
    this.log(`Bot ${name}: ${play.text}${board}`, "bot");
    this.afterPlay(play.afterstate, BOT);
  }

  /** Shows the bot's play one checker move at a time. */
  async showBotPlay(position, roll, play, generation) {
    const turn = checkerTurn(position, roll, this.rules);
    const step = this.settings.delay;
    for (const [from, to] of play.moves) {
      const move = turn.legalMoves().find((m) => m.from === from && m.to === to);
      if (!move) break;
      const before = this.board.tops;
      turn.play(move.from, move.die);
      const die = this.botDice.find((d) => d.value === move.die && !d.used);
      if (die) die.used = true;
      else this.botDice = this.botDice.map((d) => ({ ...d, used: true }));
      this.moved.add(this.yours(to));
      this.shownPosition = flipPosition(turn.position);
      this.render();
      if (step > 0) {
        this.board.slide(before, this.yours(from), this.yours(to), Math.min(step, 250));
        await wait(step);
        if (generation !== this.generation) return;
      }
    }
    if (roll[0] === roll[1]) this.botDice = this.botDice.map((d) => ({ ...d, used: true }));
  }

  /** A point of the bot's numbering as the board knows it from your side (the game's
   * `botPoint`: Tapa's and Tabla's p is your 25 - p, Gulbara's your p + 12 modulo 24); its
   * tray and its bar. */
  yours(point) {
    if (point === OFF) return BOT_TRAY;
    if (point === BAR) return BOT_BAR;
    return this.spec.botPoint(point);
  }

  /** How the log and the status name the dice of a turn of `position` (the mover's view):
   * the roll, or in Gulbara the climb's double (`4-4, climbing`) or the numbers handed over
   * (`2 x 6, handed over`). */
  rollName(position, dice) {
    const climb = this.spec.climbs ? position.climb : 0;
    if (!climb) return rollText(dice);
    if (position.handed) return `${position.climb_dice} x ${climb}, handed over`;
    return `${climb}-${climb}, climbing`;
  }

  /** "rolls" for a roll of the dice; "plays" for a climb's double or numbers handed over. */
  rollVerb(position) {
    return this.spec.climbs && position.climb ? "plays" : "rolls";
  }

  /** Gulbara's climb as the board shows it, for `side` moving on `position` (its view) with
   * `dice`: the double played, the next one (0 after 6-6), whether handed; null when the
   * dice do not climb (a non-double, the opening, another game). */
  climb(side, position, dice) {
    if (!this.spec.climbs || !position) return null;
    let double = position.climb;
    const handed = Boolean(position.climb && position.handed);
    if (!double) {
      const rules = this.rules;
      const turns = rules.opening_turns_each_side
        ? position.own_turns
        : position.own_turns + position.opp_turns;
      if (dice.length !== 2 || dice[0] !== dice[1] || turns < 3) return null;
      double = dice[0];
    }
    return { side, double, next: double < 6 ? double + 1 : 0, handed };
  }

  // --- what the page shows -----------------------------------------------------------------

  /** The dice as drawn: yours in the lead order, a double as four dice (fewer when handed
   * over). */
  yourDice() {
    const turn = this.personTurn;
    if (!turn) return [];
    const left = turn.diceLeft;
    const [a, b] = turn.dice;
    if (a === b) {
      return Array.from({ length: turn.diceCount }, (_, i) => ({ value: a, used: i >= left.length }));
    }
    const order = turn.lead === a ? [a, b] : [b, a];
    return order.map((value) => ({ value, used: !left.includes(value) }));
  }

  /** The climb the board shows now: yours on your turn, the bot's on its. */
  shownClimb() {
    if (this.state === "your-turn") return this.climb("you", this.personTurn.start, this.personTurn.dice);
    if (this.state === "bot-turn") return this.climb("bot", this.position, this.roll);
    return null;
  }

  render() {
    const yours = this.state === "your-turn";
    const turn = this.personTurn;
    const position = yours ? turn.position : this.shownPosition ?? this.position;
    const movable = yours && !turn.done ? new Set(turn.sources()) : new Set();
    const bots = this.state === "bot-turn";
    const over = this.state === "game-over" || this.state === "match-over";
    // The bot's last play stays marked until you move a checker, and after the game's end.
    const marked = bots || over || this.state === "saved" || (yours && !turn.moved);
    const moved = marked ? this.moved : new Set();
    this.board.render({
      game: this.game,
      climb: this.shownClimb(),
      position,
      diceYou: yours ? this.yourDice() : [],
      diceBot: bots ? this.botDice : [],
      movable,
      selected: this.selected,
      lit: this.lit(),
      moved,
      turn: yours ? "you" : bots ? "bot" : null,
    });
    $("board").dataset.key = positionKey(position);
    document.body.dataset.state = this.state;
    const [yourPips, botPips] = pipCounts(position);
    $("you-pips").textContent = yourPips;
    $("bot-pips").textContent = botPips;
    $("you-off").textContent = position.own_off;
    $("bot-off").textContent = position.opp_off;
    $("you-card").classList.toggle("active", yours);
    $("bot-card").classList.toggle("active", this.state === "bot-turn");
    $("undo").disabled = !yours || !turn.moved;
    $("done").disabled = !yours || !turn.done;
    $("done").textContent = yours && turn.done && !turn.moved ? "Pass" : "Done";
    $("hint").disabled = !yours || !this.bot || !this.canHint;
    $("next-game").hidden = this.state !== "game-over";
    $("again").hidden = this.state !== "match-over";
    $("again").textContent = this.match.isMatch ? "New match" : "New game";
    $("controls").classList.toggle("over", over);
    this.showScore();
    if (yours) this.status(this.guide());
  }

  /** What to do next, in one line, for your turn. */
  guide() {
    const turn = this.personTurn;
    const roll = this.rollName(turn.start, turn.dice);
    const before = !turn.moved && this.news ? `${this.news} ` : "";
    if (turn.done && !turn.moved) return `${before}Your roll ${roll}: no legal play. Press Pass.`;
    if (turn.done) return `Your play is complete: press Done (or Undo to change it).`;
    if (this.selected !== null) {
      const from = this.selected === BAR ? "the bar" : this.selected;
      return `Your roll ${roll}: move the checker from ${from} to a lit point.`;
    }
    const left = turn.diceLeft.join("-");
    const what = turn.moved ? `Still to play: ${left}.` : `Your roll ${roll}.`;
    return `${before}${what} Tap a checker with a gold ring, then a lit point (or drag it).`;
  }

  /** The score line: a match's name, points, score and the game on the board (by the name
   * the match gives it, with its number), or what a single game is. */
  showScore() {
    const { score, kind } = this.match;
    if (kind) {
      // Between games the board shows the game that has just ended.
      const number = this.match.games.length + (this.result ? 0 : 1);
      const game = ` · game ${number}, ${this.match.title(this.game)}`;
      $("score").replaceChildren(
        `${kind.title} to ${this.match.points}: you ${score.you}, bot ${score.bot}`,
        element("span", "score-game", game),
      );
    } else {
      $("score").textContent = this.singleName;
    }
    $("score").dataset.you = score.you;
    $("score").dataset.bot = score.bot;
    this.showMatch();
  }

  /**
   * The match panel: the games so far with their results, the game in play (or the next,
   * between games), who starts it and why, and your chance of winning the match from the
   * table at its start (the two starters' mean while the dice are still to decide).
   */
  showMatch() {
    const panel = $("match-panel");
    const { match } = this;
    panel.hidden = !match?.isMatch;
    if (panel.hidden) return;
    const between = this.state === "game-over" || this.state === "match-over";
    const chips = match.games.map((result, index) => {
      const { winner, points } = result;
      const what = winner ? `${winner === YOU ? "you" : "bot"} +${points}` : "draw";
      const chip = this.matchChip(index + 1, result.game, what, `done ${winner ?? "draw"}`);
      chip.title = winner ? `${KIND_NAMES[result.kind]}: ${result.how}` : "a draw";
      return chip;
    });
    const shown = chips.slice(-4);
    if (chips.length > shown.length) {
      shown.unshift(element("li", "more", `${chips.length - shown.length} earlier`));
    }
    if (!match.over) {
      const number = match.games.length + 1;
      const now = between ? "next" : "now";
      shown.push(this.matchChip(number, match.game, now, now));
      if (!between) shown.push(this.matchChip(number + 1, match.nextGame, "then", "then"));
    }
    const { title, titles } = match.kind;
    $("match-title").textContent = `A ${title} to ${match.points}: ${titles.join(", ")} in turn`;
    $("match-games").replaceChildren(...shown);
    $("match-starter").textContent = this.starterLine(between);
    panel.dataset.winner = match.over ? match.winner : "";
    const chance = this.matchChance();
    $("match-chance").hidden = chance === null;
    // A match without a table is played for points: the panel says so instead.
    $("match-points").hidden = !this.noTable || match.over;
    $("match-points").textContent =
      `No match equity table for the ${title} yet: the bot plays for points.`;
    if (chance !== null) {
      const when = between ? "before the next game" : "at this game's start";
      $("match-chance-value").textContent = percent(chance);
      $("match-chance-when").textContent = `match table, ${when}`;
      $("match-chance-bar").style.width = `${(100 * chance).toFixed(1)}%`;
      $("match-chance").dataset.chance = chance.toFixed(6);
    }
  }

  /** A game of the match in the panel: its number, its game and `what` (its result, `now`,
   * `then` or `next`), with the class `kind`. */
  matchChip(number, game, what, kind) {
    const chip = element("li", kind, "");
    chip.dataset.matchGame = game;
    const name = ` ${this.match.title(game)} `;
    chip.append(element("b", "", String(number)), name, element("span", "", what));
    return chip;
  }

  /** Who starts the game in play (or the next) and why, in one line. */
  starterLine(between) {
    const { match } = this;
    if (match.over) {
      const { score } = match;
      const high = Math.max(score.you, score.bot);
      const low = Math.min(score.you, score.bot);
      const who = match.winner === YOU ? "You win" : "The bot wins";
      return `${who} the match ${high}-${low} after ${plural(match.games.length, "game")}.`;
    }
    const starter = match.starter;
    const last = match.games[match.games.length - 1];
    const game = match.title(match.game);
    if (between && !starter) {
      return `${game} next: the dice decide who starts (the last game was a draw).`;
    }
    const who = starter === YOU ? "You start" : "The bot starts";
    if (between) return `${game} next: ${who.toLowerCase()}, as the winner of the last game.`;
    if (match.thrown) {
      const [yours, theirs] = match.thrown;
      return `${who}: the opening throw, you ${yours}, bot ${theirs}.`;
    }
    if (last?.winner) {
      return `${who}: ${starter === YOU ? "you" : "the bot"} won the last game.`;
    }
    return `${who}.`;
  }

  /** Your chance of winning the match at the start of the game in play (or the next), from
   * the table; null before the table has loaded, or once the match is decided. */
  matchChance() {
    const { match, table } = this;
    if (!table || match.over) return null;
    const you = match.away(YOU);
    const bot = match.away(BOT);
    const index = match.games.length;
    if (match.starter === null) return table.thrownChance(you, bot, index);
    return table.chance(you, bot, index, match.starter === YOU);
  }

  status(line) {
    $("status").textContent = line;
  }

  /** A short message under the board, the ignored settings first until you act (`notice`);
   * `refused` marks a refused move. */
  say(line, refused = false) {
    const message = $("message");
    const text = [this.notice, line].filter(Boolean).join(" ");
    if (message.textContent !== text) message.textContent = text; // said once, not again
    message.classList.toggle("refused", Boolean((refused && line) || this.notice));
  }

  /** You have acted on the page: the ignored settings have been seen. */
  acted() {
    this.notice = "";
  }

  log(line, side = "") {
    this.logLines.push([line, side]);
    const item = document.createElement("li");
    item.textContent = line;
    if (side) item.className = side;
    const log = $("log");
    log.append(item);
    log.scrollTop = log.scrollHeight;
  }

  fail(line) {
    this.generation += 1;
    this.state = "error";
    document.body.dataset.state = "error";
    this.status(line);
    this.say(line, true);
    $("bot-status").textContent = "";
  }
}

/** Starts the page: the rules' API at once, the bot's when it is loaded. */
async function start() {
  let api = null;
  let botModule;
  try {
    api = await import("./api.js");
    api.installApi(null);
  } catch {
    // installApi wants the bot: it is installed below, once the bot is loaded
  }
  try {
    botModule = await import("./bot.js");
  } catch (error) {
    const line =
      `The bot could not be loaded (web/js/bot.js: ${error.message}); in web/, run npm ci.`;
    document.body.dataset.state = "error";
    $("status").textContent = line;
    return;
  }
  const page = new Page(botModule);
  window.tapaPage = page;
  page.botReady.then((bot) => api && api.installApi(bot)).catch(() => {});
}

start();
