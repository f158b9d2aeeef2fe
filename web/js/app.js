/**
 * The page: a game or a match between you and the bot, played on the board with taps and
 * drags, in any of the three games of the tabla match (Tapa, Tabla, Gulbara; matches are
 * Tapa's only, for now). It starts the game at once and loads the bot beside it; the bot's
 * turns wait for it.
 *
 * URL parameters (all optional): `game` (`tapa`, `tabla` or `gulbara`), `seed` (the dice: the
 * same seed plays the same rolls), `level` (a level id of the game's levels in
 * web/js/bot.js), `match` (points to win; 0 for a single game),
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
  positionKey,
} from "./games.js";
import { BOT_BAR, BOT_TRAY, BoardView } from "./board.js";
import { gulbaraPoint } from "./position_tabla_gulbara.js";
import { ask } from "./ui_ask.js";
import { Dice, parseSeed, randomSeed } from "./ui_dice.js";
import { hintItem } from "./ui_hints.js";
import { listen } from "./ui_input.js";
import { BOT, Match, YOU, gameResult, mirrored, openingThrow } from "./ui_match.js";
import { PHASES, clearGame, loadGame, saveGame } from "./ui_save.js";
import { OFF, PersonTurn } from "./ui_turn.js";

const MATCHES = [0, 3, 5, 7];
const DEFAULT_DELAY = 350;
const HINTS = 5;
/** Each game's name as the heading gives it, with what else it is called. */
const HEADINGS = {
  tapa: ["Tapa", "(Plakoto)"],
  tabla: ["Tabla", "(backgammon, no cube)"],
  gulbara: ["Gulbara", "(Gul bara)"],
};
/** What a finished game was, by its kind (web/js/ui_match.js's gameResult). */
const KIND_NAMES = {
  single: "a single game",
  gammon: "a gammon",
  mother: "a mother win",
  mars: "a mars",
  backgammon: "a backgammon",
};
const MATCHES_NOTE = "Matches are played in Tapa only, for now: a game of Tabla or Gulbara is a single game.";

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

/** The URL's settings, each checked; a wrong one is reported and its default used. `levels`
 * and `defaultLevels` are each game's levels and default level. */
function readSettings(gameLevels, defaultLevels) {
  const params = new URLSearchParams(location.search);
  const problems = [];
  const settings = { seed: null, game: "tapa", match: 0, first: "roll" };
  settings.delay = DEFAULT_DELAY;
  if (params.has("game")) {
    const game = params.get("game");
    if (GAMES.includes(game)) settings.game = game;
    else problems.push(`game must be one of ${GAMES.join(", ")}, got '${game}'`);
  }
  const levels = gameLevels[settings.game];
  settings.level = defaultLevels[settings.game];
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
  const whole = (name, least, most) => {
    if (!params.has(name)) return null;
    const text = params.get(name);
    if (/^\d+$/.test(text) && Number(text) >= least && Number(text) <= most) return Number(text);
    problems.push(`${name} must be a whole number from ${least} to ${most}, got '${text}'`);
    return null;
  };
  settings.match = whole("match", 0, 99) ?? settings.match;
  if (settings.match && settings.game !== "tapa") {
    problems.push(`match: matches are Tapa's only for now, ${GAME_NAMES[settings.game]} is a single game`);
    settings.match = 0;
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
    const { settings, problems } = readSettings(this.gameLevels, this.defaultLevels);
    this.settings = settings;
    this.game = settings.game;
    this.level = settings.level;
    this.bot = null;
    this.botFailed = null;
    this.generation = 0; // a new game stops the last one's pending steps
    this.plays = 0; // plays made in this game: a game with none is not worth a question
    this.logLines = []; // the game log's lines, [line, side], for the saved game
    this.moved = new Set();
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
        $("hint").disabled = this.state !== "your-turn";
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
    const saved = loadGame((game) => this.gameLevels[game].map((entry) => entry.id));
    // A game with nothing played yet is not worth a question: a new one starts.
    if (saved && (saved.plays > 0 || saved.games.length > 0)) this.offerSaved(saved);
    else this.newMatch(settings.match);
    if (problems.length) this.say(`Ignored: ${problems.join("; ")}.`, true);
  }

  /** The levels of the game played. */
  get levels() {
    return this.gameLevels[this.game];
  }

  /** The game's rule flags: its defaults, those of its bot. */
  get rules() {
    return GAME_RULES[this.game];
  }

  // --- settings and controls ---------------------------------------------------------------

  setUpControls() {
    // The bot's hints and the game log go beside the board on a wide screen; on a phone both
    // go right under the controls, so the log is read without scrolling past the settings.
    const wide = matchMedia("(min-width: 900px)");
    const place = () => {
      if (wide.matches) {
        $("side-hints").append($("hints"));
        $("settings").after($("game-log"));
      } else {
        $("controls").after($("hints"));
        $("hints").after($("game-log"));
      }
    };
    wide.addEventListener("change", place);
    place();
    const chooser = $("game");
    for (const game of GAMES) chooser.append(new Option(GAME_NAMES[game], game));
    chooser.addEventListener("change", () => this.chooseGame(chooser.value));
    const level = $("level");
    level.addEventListener("change", () => {
      this.level = level.value;
      this.showLevel();
      if (PHASES.includes(this.state)) this.save();
    });
    this.setGame(this.game, this.level);
    this.showMatchChoice(this.settings.match);
    $("new-game").addEventListener("click", () => this.askNewMatch());
    $("next-game").addEventListener("click", () => this.nextGame());
    $("undo").addEventListener("click", () => this.undo());
    $("done").addEventListener("click", () => this.done());
    $("hint").addEventListener("click", () => this.hint());
  }

  /**
   * Plays `game` from now on: its heading, its levels (`level`, or the one played when the
   * game has it, or the game's default), the Play selector (matches are Tapa's only) and what
   * the legend and the help show. Starts nothing.
   */
  setGame(game, level = this.level) {
    this.game = game;
    $("game").value = game;
    document.body.dataset.game = game;
    const [name, also] = HEADINGS[game];
    $("title").replaceChildren(`${name} `, element("small", "", also));
    document.title = `${name}: play the bot`;
    const ids = this.levels.map((entry) => entry.id);
    this.level = ids.includes(level) ? level : this.defaultLevels[game];
    $("level").replaceChildren(...this.levels.map((entry) => new Option(entry.label, entry.id)));
    $("level").value = this.level;
    this.showLevel();
    const tapa = game === "tapa";
    $("match").disabled = !tapa;
    $("match-note").textContent = tapa ? "New game starts a game or match of the kind chosen here." : MATCHES_NOTE;
    if (!tapa) this.showMatchChoice(0);
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
    this.newMatch(game === "tapa" ? Number($("match").value) : 0);
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
    $("bot-level").textContent = entry ? entry.label : "";
  }

  /** The Play selector's choices, with `points` among them and chosen. */
  showMatchChoice(points) {
    const match = $("match");
    const choices = MATCHES.includes(points) ? MATCHES : [...MATCHES, points].sort((a, b) => a - b);
    match.replaceChildren(
      ...choices.map((value) => {
        const label = value ? `a match to ${value}` : "a single game";
        return new Option(label, String(value));
      }),
    );
    match.value = String(points);
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
    this.newMatch(this.game === "tapa" ? Number($("match").value) : 0);
  }

  // --- the saved game (web/js/ui_save.js) --------------------------------------------------

  /** Whether starting another game would lose one: a play made, or a game of a match won. */
  get inProgress() {
    return PHASES.includes(this.state) && (this.plays > 0 || this.match.games.length > 0);
  }

  /** Keeps the game as it stands: at the roll of the turn being played, or a game's end. */
  save() {
    const record = {
      ...(this.game === "tapa" ? {} : { game: this.game }),
      seed: this.seed,
      dice: this.dice.state,
      level: this.level,
      match: this.match.points,
      games: this.match.games,
      plays: this.plays,
      news: this.news,
      moved: [...this.moved],
      log: this.logLines,
    };
    if (this.state === "game-over") {
      saveGame({ ...record, phase: this.state, position: this.shownPosition, status: this.ending });
    } else {
      saveGame({ ...record, phase: this.state, position: this.position, roll: this.roll });
    }
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
      this.setGame(this.settings.game, this.settings.level);
      this.showMatchChoice(this.settings.match);
      this.newMatch(this.settings.match);
    }
  }

  /** The saved game in one line, for the question. */
  savedSummary(saved) {
    const { score } = this.match;
    const single = this.game === "tapa" ? "A single game" : `A game of ${GAME_NAMES[this.game]}`;
    const match = this.match.isMatch
      ? `A match to ${this.match.points}, you ${score.you}, bot ${score.bot}`
      : single;
    if (saved.phase === "game-over") {
      return `${match}: game ${this.match.games.length} is over, the next one is to play.`;
    }
    const game = this.match.isMatch ? `, game ${this.match.gameNumber}` : "";
    const whose = saved.phase === "your-turn" ? "your turn" : "the bot's turn";
    return `${match}${game}: ${plural(saved.plays, "play")} made, ${whose}.`;
  }

  /** Puts a saved game's match, dice, level, log and position back, its turn not begun. */
  restore(saved) {
    this.generation += 1;
    this.setGame(saved.game ?? "tapa", saved.level);
    this.match = new Match(saved.match);
    for (const game of saved.games) this.match.record(game);
    this.useDice(saved.seed, Dice.resume(saved.seed, saved.dice));
    this.showMatchChoice(saved.match);
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

  newMatch(points) {
    this.match = new Match(points);
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
    let starter = first === YOU || first === BOT ? first : this.match.nextStarter;
    this.news = "";
    this.plays = 0;
    const number = this.match.gameNumber;
    if (this.match.isMatch) {
      const { score } = this.match;
      const to = this.match.points;
      this.log(`Game ${number} of a match to ${to}: you ${score.you}, bot ${score.bot}.`);
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
      const { throws, starter: winner } = openingThrow(() => this.dice.throwOne());
      for (const [yours, theirs] of throws) {
        const starts = winner === YOU ? "you start" : "the bot starts";
        const then = yours === theirs ? "a tie, again" : `${starts} with a new roll`;
        this.log(`Opening throw: you ${yours}, bot ${theirs}: ${then}.`);
      }
      starter = winner;
      const [yours, theirs] = throws[throws.length - 1];
      this.news = `Opening throw: you ${yours}, bot ${theirs}.`;
    }
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
    const climb = this.game === "gulbara" ? this.position.climb : 0;
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
    if (this.game === "gulbara") {
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
      next = `${who} the match ${high}-${low}. New game starts another.`;
      this.state = "match-over";
    } else if (this.match.over) {
      next = "New game starts another.";
      this.state = "match-over";
    } else {
      next = "Next game continues the match.";
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
      this.say(`No legal play with ${this.rollName(this.position, roll)}: press Done to pass.`);
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
    this.wasSelected = this.selected === point;
    this.selected = point;
    this.say("");
    this.render();
  }

  tap(point, took) {
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
        this.say(
          pinned || barred
            ? turn.whyNot(point, point - 1)
            : `The checker ${where} has no legal move with ${left}: take one with a gold ring.`,
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
    if (this.state !== "your-turn") return;
    const [a, b] = this.personTurn.dice;
    if (a === b) return;
    this.personTurn.swapLead();
    this.say(`Where either die could take a checker, the ${this.personTurn.lead} goes first.`);
    this.render();
  }

  undo() {
    if (this.state !== "your-turn" || !this.personTurn.moved) return;
    this.personTurn.undo();
    this.selected = null;
    this.say("");
    this.render();
  }

  done() {
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
    if (this.state !== "your-turn") return;
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
      ranked = await this.bot.rank(turn.start, turn.dice, this.level, HINTS);
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
        chosen = await bot.choose(position, roll, this.level);
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

  /** A point of the bot's numbering as the board knows it from your side: Tapa's and Tabla's
   * p is your 25 - p, Gulbara's your p + 12 (modulo 24); its tray and its bar. */
  yours(point) {
    if (point === OFF) return BOT_TRAY;
    if (point === BAR) return BOT_BAR;
    return this.game === "gulbara" ? gulbaraPoint(point) : 25 - point;
  }

  /** How the log and the status name the dice of a turn of `position` (the mover's view):
   * the roll, or in Gulbara the climb's double (`4-4, climbing`) or the numbers handed over
   * (`2 x 6, handed over`). */
  rollName(position, dice) {
    const climb = this.game === "gulbara" ? position.climb : 0;
    if (!climb) return rollText(dice);
    if (position.handed) return `${position.climb_dice} x ${climb}, handed over`;
    return `${climb}-${climb}, climbing`;
  }

  /** "rolls" for a roll of the dice; "plays" for a climb's double or numbers handed over. */
  rollVerb(position) {
    return this.game === "gulbara" && position.climb ? "plays" : "rolls";
  }

  /** Gulbara's climb as the board shows it, for `side` moving on `position` (its view) with
   * `dice`: the double played, the next one (0 after 6-6), whether handed; null when the
   * dice do not climb (a non-double, the opening, another game). */
  climb(side, position, dice) {
    if (this.game !== "gulbara" || !position) return null;
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
    $("hint").disabled = !yours || !this.bot;
    $("next-game").hidden = this.state !== "game-over";
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

  showScore() {
    const { score } = this.match;
    const single = this.game === "tapa" ? "A single game" : `A game of ${GAME_NAMES[this.game]}`;
    $("score").textContent = this.match.isMatch
      ? `Match to ${this.match.points}: you ${score.you}, bot ${score.bot}`
      : single;
    $("score").dataset.you = score.you;
    $("score").dataset.bot = score.bot;
  }

  status(line) {
    $("status").textContent = line;
  }

  /** A short message under the board; `refused` marks a refused move or a wrong setting. */
  say(line, refused = false) {
    const message = $("message");
    message.textContent = line;
    message.classList.toggle("refused", refused && Boolean(line));
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
