/**
 * The page: a game or a match between you and the bot, played on the board with taps and
 * drags. It starts the game at once and loads the bot beside it; the bot's turns wait for it.
 *
 * URL parameters (all optional): `seed` (the dice: the same seed plays the same rolls),
 * `level` (a level id of web/js/bot.js), `match` (points to win; 0 for a single game),
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
  CheckerTurn,
  flipPosition,
  initialPosition,
  notatedPlays,
  outcome,
  pipCounts,
  playText,
  positionKey,
} from "./tapa.js";
import { BoardView } from "./board.js";
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

/** The URL's settings, each checked; a wrong one is reported and its default used. */
function readSettings(levels, defaultLevel) {
  const params = new URLSearchParams(location.search);
  const problems = [];
  const settings = { seed: null, level: defaultLevel, match: 0, first: "roll" };
  settings.delay = DEFAULT_DELAY;
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
    this.levels = botModule.LEVELS;
    const { settings, problems } = readSettings(this.levels, botModule.DEFAULT_LEVEL);
    this.settings = settings;
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
    const saved = loadGame(this.levels.map((entry) => entry.id));
    // A game with nothing played yet is not worth a question: a new one starts.
    if (saved && (saved.plays > 0 || saved.games.length > 0)) this.offerSaved(saved);
    else this.newMatch(settings.match);
    if (problems.length) this.say(`Ignored: ${problems.join("; ")}.`, true);
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
    const level = $("level");
    for (const entry of this.levels) level.append(new Option(entry.label, entry.id));
    level.value = this.level;
    level.addEventListener("change", () => {
      this.level = level.value;
      this.showLevel();
      if (PHASES.includes(this.state)) this.save();
    });
    this.showLevel();
    this.showMatchChoice(this.settings.match);
    $("new-game").addEventListener("click", () => this.askNewMatch());
    $("next-game").addEventListener("click", () => this.nextGame());
    $("undo").addEventListener("click", () => this.undo());
    $("done").addEventListener("click", () => this.done());
    $("hint").addEventListener("click", () => this.hint());
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
  async askNewMatch() {
    if (this.inProgress) {
      const { score } = this.match;
      const lost = this.match.isMatch
        ? `The match in progress (you ${score.you}, bot ${score.bot}) will be lost.`
        : "The game in progress will be lost.";
      const sure = await ask($("ask"), {
        title: "Start a new game?",
        text: lost,
        yes: "New game",
        no: "Keep playing",
        focus: "no",
      });
      if (!sure) return;
    }
    this.newMatch(Number($("match").value));
  }

  // --- the saved game (web/js/ui_save.js) --------------------------------------------------

  /** Whether starting another game would lose one: a play made, or a game of a match won. */
  get inProgress() {
    return PHASES.includes(this.state) && (this.plays > 0 || this.match.games.length > 0);
  }

  /** Keeps the game as it stands: at the roll of the turn being played, or a game's end. */
  save() {
    const record = {
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
      this.level = this.settings.level;
      $("level").value = this.level;
      this.showLevel();
      this.showMatchChoice(this.settings.match);
      this.newMatch(this.settings.match);
    }
  }

  /** The saved game in one line, for the question. */
  savedSummary(saved) {
    const { score } = this.match;
    const match = this.match.isMatch
      ? `A match to ${this.match.points}, you ${score.you}, bot ${score.bot}`
      : "A single game";
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
    this.match = new Match(saved.match);
    for (const game of saved.games) this.match.record(game);
    this.useDice(saved.seed, Dice.resume(saved.seed, saved.dice));
    this.level = saved.level;
    $("level").value = this.level;
    this.showLevel();
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
    this.position = initialPosition(); // the mover's view: the starter's
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

  nextTurn(mover) {
    const roll = this.dice.roll();
    if (mover === YOU) this.yourTurn(roll);
    else this.botTurn(roll);
    this.timeFirstRoll();
  }

  /** Notes when the first roll is on the board (`timings.firstRoll`, for bench/web_page.py). */
  timeFirstRoll() {
    if (this.timings.firstRoll === null) this.timings.firstRoll = performance.now();
  }

  /** A play has been made (`after`, the mover's view): the game ends or the other moves. */
  afterPlay(after, mover) {
    this.plays += 1;
    const result = outcome(after);
    if (result) {
      this.gameOver(after, result, mover);
      return;
    }
    this.position = flipPosition(after);
    this.nextTurn(mover === YOU ? BOT : YOU);
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
    const names = { single: "a single game", gammon: "a gammon", mother: "a mother win" };
    const who = winner === YOU ? "You win" : "The bot wins";
    const line = winner
      ? `${who}: ${names[kind]}, ${plural(points, "point")} (${how}).`
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
      this.say(`No legal play with ${rollText(roll)}: press Done to pass.`);
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
      if (point >= 1 && turn.position.own[point - 1]) {
        const pinned = turn.position.own_pinned.includes(point);
        const left = turn.diceLeft.join("-");
        this.say(
          pinned
            ? turn.whyNot(point, point - 1)
            : `The checker on ${point} has no legal move with ${left}: take one with a gold ring.`,
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
    this.log(`You ${rollText(turn.dice)}: ${text}`, "you");
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
    const plays = notatedPlays(turn.start, turn.dice);
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
    this.status(`${before}The bot rolls ${rollText(roll)}${loading}`);
    this.render();
    let bot;
    try {
      bot = await this.botReady;
    } catch {
      return; // the page already says why
    }
    if (generation !== this.generation) return;
    this.status(`${before}The bot rolls ${rollText(roll)}...`);
    const plays = notatedPlays(position, roll);
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
    const board = play.text === "pass" ? "" : ` (on your board: ${mirrored(play.text)})`;
    const said = play.text === "pass" ? "no legal play, it passes" : `${play.text}${board}`;
    this.status(`The bot rolls ${rollText(roll)}: ${said}.`);
    await this.showBotPlay(position, roll, play, generation);
    if (generation !== this.generation) return;
    this.news = `The bot rolled ${rollText(roll)}: ${said}.`;
    this.log(`Bot ${rollText(roll)}: ${play.text}${board}`, "bot");
    this.afterPlay(play.afterstate, BOT);
  }

  /** Shows the bot's play one checker move at a time. */
  async showBotPlay(position, roll, play, generation) {
    const turn = new CheckerTurn(position, roll);
    const step = this.settings.delay;
    for (const [from, to] of play.moves) {
      const move = turn.legalMoves().find((m) => m.from === from && m.to === to);
      if (!move) break;
      const before = this.board.tops;
      turn.play(move.from, move.die);
      const die = this.botDice.find((d) => d.value === move.die && !d.used);
      if (die) die.used = true;
      else this.botDice = this.botDice.map((d) => ({ ...d, used: true }));
      const mine = (point) => (point === OFF ? -1 : 25 - point);
      this.moved.add(mine(to));
      this.shownPosition = flipPosition(turn.position);
      this.render();
      if (step > 0) {
        this.board.slide(before, mine(from), mine(to), Math.min(step, 250));
        await wait(step);
        if (generation !== this.generation) return;
      }
    }
    if (roll[0] === roll[1]) this.botDice = this.botDice.map((d) => ({ ...d, used: true }));
  }

  // --- what the page shows -----------------------------------------------------------------

  /** The dice as drawn: yours in the lead order, a double as four dice. */
  yourDice() {
    const turn = this.personTurn;
    if (!turn) return [];
    const left = turn.diceLeft;
    const [a, b] = turn.dice;
    if (a === b) return [0, 1, 2, 3].map((i) => ({ value: a, used: i >= left.length }));
    const order = turn.lead === a ? [a, b] : [b, a];
    return order.map((value) => ({ value, used: !left.includes(value) }));
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
    const roll = rollText(turn.dice);
    const before = !turn.moved && this.news ? `${this.news} ` : "";
    if (turn.done && !turn.moved) return `${before}Your roll ${roll}: no legal play. Press Pass.`;
    if (turn.done) return `Your play is complete: press Done (or Undo to change it).`;
    if (this.selected !== null) {
      return `Your roll ${roll}: move the checker from ${this.selected} to a lit point.`;
    }
    const left = turn.diceLeft.join("-");
    const what = turn.moved ? `Still to play: ${left}.` : `Your roll ${roll}.`;
    return `${before}${what} Tap a checker with a gold ring, then a lit point (or drag it).`;
  }

  showScore() {
    const { score } = this.match;
    $("score").textContent = this.match.isMatch
      ? `Match to ${this.match.points}: you ${score.you}, bot ${score.bot}`
      : "A single game";
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
