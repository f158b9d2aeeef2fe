/**
 * The bot: the exported networks (web/models, docs/bot-files.md) run by onnxruntime-web, and
 * the levels the page offers. Every level plays exactly as a Python player that
 * `agents.load_player` names (its `player`), which tests/test_web_bot.py checks position by
 * position:
 *
 * - 1-ply: every legal afterstate of the roll, encoded (web/js/core/encoding.js) and valued in one
 *   batch; the highest equity wins, the first in the order of `legalPlays` on a tie
 *   (agents/td/player.py).
 * - 2-ply: the `CANDIDATES` best afterstates by 1-ply, then for each that does not end the
 *   game every one of the opponent's 21 rolls and its best reply (valued by the network from
 *   the opponent's side, or exactly where the reply ends the game); a candidate is worth minus
 *   the opponent's expected best, the rolls weighted 1/36 and 2/36 (agents/td/search.py). All
 *   replies of all candidates are valued in one batch. In Gulbara the next decision may be the
 *   same side's, or have fixed dice (a climbing double, numbers handed over): it is searched
 *   as agents/bots/search.py does (`Bot.following`).
 *
 * Each game has its levels (`GAME_LEVELS`): Tapa's are `LEVELS`; Tabla's, Gulbara's and Fevga's
 * play their game's network (web/models/tabla-td.onnx, gulbara-td.onnx, fevga-td.onnx) at 1-ply
 * and 2-ply. A game whose network is not shipped (`game.bot.model` null) has one level, `random`:
 * a random legal play, drawn from the position and the roll (`randomPlay`), and no hints. A
 * position says its game, and `choose` and `rank` play the levels of that game.
 *
 * onnxruntime-web (installed by `npm ci` in web/) is imported when `loadBot` is called, so
 * importing this module costs nothing.
 */

import {
  DEFAULT_GAME,
  GAME_ENCODINGS,
  GAMES,
  REGISTRY,
  checkRules,
  encodeMany,
  gameOf,
  legalPlays,
  nextTurn,
  notatedPlays,
  outcome,
  positionKey,
} from "./games.js";
import { outcomeIndex } from "./match.js";

/** The folder of onnxruntime-web's files, relative to web/, and the build the bot imports:
 * the WebAssembly backend alone, as an ES module. */
export const ORT_FOLDER = "node_modules/onnxruntime-web/dist/";
export const ORT_MODULE = "ort.wasm.min.mjs";
/** The folder of the models, relative to web/: NAME.json describes NAME.onnx. */
export const MODELS_FOLDER = "models/";
/** How many afterstates the 2-ply search looks deeper at: agents.td.TDPlayer's default. */
export const CANDIDATES = 4;
/** The outcomes a model's output gives, in order (docs/bot-files.md, "The output"). */
export const OUTCOMES = Object.freeze(["win", "win_double", "draw", "lose", "lose_double"]);

/** The 21 distinct rolls and their probabilities, in the order of agents/td/search.py. */
const ROLLS = [];
for (let a = 1; a <= 6; a++) {
  for (let b = a; b <= 6; b++) ROLLS.push({ dice: [a, b], weight: (a === b ? 1 : 2) / 36 });
}

/**
 * The levels, weakest first. `model` is the network (web/models/MODEL.onnx), `ply` the search
 * depth (at 2-ply, `candidates` the plays searched deeper) and `player` the Python player that
 * plays the same (`agents.load_player(player)`).
 */
export const LEVELS = Object.freeze(
  [
    {
      id: "novice",
      label: "Novice",
      description:
        "a network after only 2,000 self-play games, 1-ply; wins 36% / 24% / 25% against the offensive / defensive / adaptive bots",
      model: "tapa-novice",
      ply: 1,
      player: "checkpoints/tapa-novice.pt@nobearoff",
    },
    {
      id: "1ply",
      label: "1-ply",
      description:
        "the shipped network, the best play by its equity; wins 86% / 81% / 82% against the offensive / defensive / adaptive bots",
      model: "tapa-td",
      ply: 1,
      player: "checkpoints/tapa-td.pt@nobearoff",
    },
    {
      id: "2ply",
      label: "2-ply",
      description:
        "the shipped network, looking one roll further for its best 4 plays; wins 88% / 82% / 83% against the offensive / defensive / adaptive bots",
      model: "tapa-td",
      ply: 2,
      candidates: CANDIDATES,
      player: "checkpoints/tapa-td.pt@2ply@nobearoff",
    },
  ].map((level) => Object.freeze(level)),
);

/** The level a page plays at unless told otherwise: the strongest whose reply takes a few
 * hundredths of a second in headless Chromium (docs/web.md gives the figures). */
export const DEFAULT_LEVEL = "2ply";

/** The levels of a game with one network (`game.bot`: its model, checkpoint, how the page
 * values races, and each level's strength against the game's heuristic bots; docs/web.md,
 * "Levels", gives the points a game too): 1-ply, and 2-ply over its best `CANDIDATES` plays
 * (a climbing double or numbers handed over are the next decision of their side, searched at
 * the same depth: agents/bots/search.py). */
function networkLevels(game) {
  const { model, checkpoint, network, strength } = game.bot;
  const shipped = "the shipped network";
  const wins = (id) => `wins ${strength[id]} against the ${strength.bots} bots`;
  return [
    {
      id: "1ply",
      label: "1-ply",
      description: `${shipped}, the best play by its equity; ${wins("1ply")}`,
      model,
      ply: 1,
      player: `${checkpoint}${network}`,
    },
    {
      id: "2ply",
      label: "2-ply",
      description:
        `${shipped}, looking one roll further for its best ${CANDIDATES} plays; ${wins("2ply")}`,
      model,
      ply: 2,
      candidates: CANDIDATES,
      player: `${checkpoint}@2ply${network}`,
    },
  ].map((level) => Object.freeze({ ...level, game: game.name }));
}

const eachGame = (read) =>
  Object.freeze(Object.fromEntries(GAMES.map((name) => [name, read(REGISTRY[name])])));

/** The one level of a game with no network shipped yet: a random legal play, as Python's
 * `random` player plays (web/js/games/fevga.js's `bot` says how its network will come). */
function randomLevels(game) {
  return [
    Object.freeze({
      id: "random",
      label: "Random",
      description:
        `no ${game.title} network is shipped yet: the bot plays a random legal play, and ` +
        "gives no hints",
      model: null,
      ply: 0,
      player: "random",
      game: game.name,
    }),
  ];
}

/** Each game's levels, weakest first: Tapa's are `LEVELS`. */
export const GAME_LEVELS = eachGame((game) => {
  if (game.bot.ownLevels) return LEVELS;
  return Object.freeze(game.bot.model ? networkLevels(game) : randomLevels(game));
});
/** Each game's default level. */
export const DEFAULT_LEVELS = eachGame((game) => game.bot.defaultLevel);

/** The Python match side that plays each game's shipped network to the score, one ply
 * (`agents.match.sides.load_side`; `agents.match.player.MatchPlayer` for each game). */
export const MATCH_SIDE =
  "checkpoints/tabla-td.pt@nobearoff+checkpoints/gulbara-td.pt+checkpoints/tapa-td.pt@nobearoff";

/**
 * The levels of a match (web/js/match.js's MATCHES), each playing every game with the
 * game's level `level` of `GAME_LEVELS` (a game without it, Fevga until its network ships,
 * its default): `score` plays to the match score (`chooseToScore`:
 * each play's outcome chances times the chances of winning the match after each result, as
 * Python's `MatchPlayer`, `player` the match side), the others for points as in a single game.
 */
export const MATCH_LEVELS = Object.freeze(
  [
    {
      id: "score",
      label: "To the score",
      description:
        "each game's shipped network, 1-ply, playing for the best chance of winning the match at the score (its outcome chances times the match table), not for points",
      level: "1ply",
      toScore: true,
      player: MATCH_SIDE,
    },
    {
      id: "1ply",
      label: "1-ply, for points",
      description: "each game's shipped network, the best play by its equity in points, whatever the score",
      level: "1ply",
      toScore: false,
    },
    {
      id: "2ply",
      label: "2-ply, for points",
      description: `each game's shipped network, looking one roll further for its best ${CANDIDATES} plays, for points whatever the score`,
      level: "2ply",
      toScore: false,
    },
  ].map((level) => Object.freeze(level)),
);
/** The level of a match unless told otherwise: to the score. */
export const DEFAULT_MATCH_LEVEL = "score";

/** A model or level that cannot be used; the one-line message says why. */
export class BotError extends Error {
  constructor(message) {
    super(message);
    this.name = "BotError";
  }
}

function levelOf(id, game = DEFAULT_GAME) {
  const levels = GAME_LEVELS[game];
  const level = levels.find((known) => known.id === id);
  if (!level) {
    const known = levels.map((each) => each.id).join(", ");
    const which = REGISTRY[game].keyed ? `${game} ` : "";
    throw new BotError(`unknown ${which}level ${JSON.stringify(id)}; choose one of ${known}`);
  }
  return level;
}

/** Why a level without a network cannot rank plays, in one line. */
function noNetwork(game) {
  const title = REGISTRY[game].title;
  return `no ${title} network is shipped yet: its bot plays at random and ranks no plays`;
}

/** The points of an outcome, from the side whose frame the position is in. */
function outcomePoints(result) {
  return result.winner * result.points;
}

/** The five outcome probabilities of a finished game, all on its result. */
function exactChances(result) {
  const chances = Object.fromEntries(OUTCOMES.map((name) => [name, 0]));
  if (result.winner === 0) chances.draw = 1;
  else chances[(result.winner > 0 ? "win" : "lose") + (result.points >= 2 ? "_double" : "")] = 1;
  return chances;
}

async function sha256(bytes) {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function fetchOk(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new BotError(`${url}: could not be fetched: ${error.message}`);
  }
  if (!response.ok) throw new BotError(`${url}: HTTP ${response.status} ${response.statusText}`);
  return response;
}

/**
 * One network: its ONNX session and its description (web/models/NAME.json). Runs are queued:
 * one session runs one batch at a time.
 */
class Network {
  constructor(ort, session, description) {
    this.ort = ort;
    this.session = session;
    this.description = description;
    this.metadata = description.metadata;
    this.game = this.metadata.game ?? DEFAULT_GAME;
    this.encoding = GAME_ENCODINGS[this.game][this.metadata.encoding];
    this.rules = checkRules(this.metadata.rules, this.game);
    this.points = Float64Array.from(this.metadata.network.outcome_points);
    this.queue = Promise.resolve();
  }

  /** Load web/models/NAME.onnx as NAME.json describes it, checked. */
  static async load(ort, base, name) {
    const describedAt = new URL(`${MODELS_FOLDER}${name}.json`, base);
    const description = await (await fetchOk(describedAt)).json();
    const metadata = description.metadata ?? {};
    const game = metadata.game ?? DEFAULT_GAME;
    if (!GAMES.includes(game)) {
      throw new BotError(`${describedAt}: a network of ${game}, not of ${GAMES.join(", ")}`);
    }
    const known = GAME_ENCODINGS[game];
    const encoding = Object.hasOwn(known, metadata.encoding) ? known[metadata.encoding] : null;
    if (!encoding || encoding.version !== metadata.encoding_version) {
      throw new BotError(
        `${describedAt}: encoding ${metadata.encoding} (${metadata.encoding_version}) is not ` +
          `one of ${Object.values(known).map((e) => e.version).join(", ")}`,
      );
    }
    if (metadata.network?.input_size !== encoding.size) {
      throw new BotError(
        `${describedAt}: the network takes ${metadata.network?.input_size} features, ` +
          `but ${encoding.version} has ${encoding.size}`,
      );
    }
    const outcomes = metadata.network?.outcomes ?? [];
    if (outcomes.join(",") !== OUTCOMES.join(",")) {
      throw new BotError(`${describedAt}: outcomes ${outcomes} are not ${OUTCOMES}`);
    }
    const modelAt = new URL(description.model, describedAt);
    const bytes = await (await fetchOk(modelAt)).arrayBuffer();
    if (bytes.byteLength !== description.bytes) {
      throw new BotError(`${modelAt}: ${bytes.byteLength} bytes, ${description.bytes} expected`);
    }
    // crypto.subtle exists in secure contexts only (https, localhost); elsewhere the length
    // above is the check.
    if (globalThis.crypto?.subtle && (await sha256(bytes)) !== description.sha256) {
      throw new BotError(`${modelAt}: its SHA-256 is not the one ${describedAt} gives`);
    }
    const session = await ort.InferenceSession.create(new Uint8Array(bytes), {
      executionProviders: ["wasm"],
      graphOptimizationLevel: "all",
    });
    return new Network(ort, session, description);
  }

  /** The outcome probabilities of `positions` (each from the side that just moved): a
   * Float32Array of `positions.length * 5`, one batch, one run of the session. */
  probabilities(positions) {
    const run = this.queue.then(async () => {
      const size = this.encoding.size;
      const features = encodeMany(positions, this.encoding.name, undefined, this.game);
      const input = new this.ort.Tensor("float32", features, [positions.length, size]);
      const { input: inputName, output: outputName } = this.description;
      const result = await this.session.run({ [inputName]: input });
      const output = result[outputName];
      const data = output.data;
      input.dispose?.();
      output.dispose?.();
      return data;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** The equity (expected points for the side that just moved) of row `i`, rounded to
   * float32 as Python's are: plays the network values at a sure result (exactly -2 or 2 in
   * float32) then tie, and the first is played, as in Python. */
  equity(probabilities, i) {
    let total = 0;
    for (let k = 0; k < OUTCOMES.length; k++) total += this.points[k] * probabilities[5 * i + k];
    return Math.fround(total);
  }
}

/**
 * A legal play drawn at random among `plays` for `position` and `dice`, the same each time
 * for the same turn (an FNV-1a hash of its key and roll): a level without a network plays
 * it, so a page opened with the same `?seed=` plays the same game.
 */
export function randomPlay(plays, position, dice) {
  let hash = 0x811c9dc5;
  for (const char of `${positionKey(position)} ${dice[0]}-${dice[1]}`) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return plays[hash % plays.length];
}

/** Indices of the `count` highest `scores`, best first; the first index on a tie. */
function ranked(scores, count) {
  const order = [...scores.keys()].filter((i) => scores[i] > -Infinity);
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, count);
}

/** The bot: `loadBot()` makes one. */
export class Bot {
  constructor(ort, networks) {
    this.ort = ort;
    this.networks = networks;
    this.levels = LEVELS;
    this.defaultLevel = DEFAULT_LEVEL;
    this.gameLevels = GAME_LEVELS;
  }

  /** The description of a model (web/models/NAME.json) by name. */
  model(name) {
    return this.networks.get(name).description;
  }

  /**
   * Every afterstate of the turn and what the level thinks of them: `scores` (what it chooses
   * by: the 1-ply equity, or at 2-ply the 2-ply equity of the candidates and -Infinity for the
   * others) and the 1-ply `probabilities`.
   */
  async evaluate(plays, level) {
    const network = this.networks.get(level.model);
    const probabilities = await network.probabilities(plays);
    const oneply = Float64Array.from(plays, (_, i) => network.equity(probabilities, i));
    if (level.ply === 1) return { scores: oneply, probabilities };
    const scores = new Float64Array(plays.length).fill(-Infinity);
    const candidates = ranked(oneply, level.candidates);
    const replies = [];
    const searches = []; // {index, rolls: [[first reply, last reply + 1] for each roll]}
    for (const index of candidates) {
      const result = outcome(plays[index], network.rules);
      if (result) {
        scores[index] = outcomePoints(result);
        continue;
      }
      if (REGISTRY[network.game].climbs) {
        scores[index] = await this.following(network, plays[index]);
        continue;
      }
      const opponent = nextTurn(plays[index]).position;
      const rolls = ROLLS.map(({ dice }) => {
        const start = replies.length;
        replies.push(...legalPlays(opponent, dice, network.rules));
        return [start, replies.length];
      });
      searches.push({ index, rolls });
    }
    if (replies.length) {
      const values = await network.probabilities(replies);
      for (const { index, rolls } of searches) {
        let expected = 0;
        rolls.forEach(([start, stop], r) => {
          let best = -Infinity;
          for (let i = start; i < stop; i++) {
            const ended = outcome(replies[i], network.rules);
            const value = ended ? outcomePoints(ended) : network.equity(values, i);
            if (value > best) best = value;
          }
          expected += best * ROLLS[r].weight;
        });
        scores[index] = -expected;
      }
    }
    return { scores, probabilities };
  }

  /** Values `plays` (afterstates of one side) at one ply, a play that ends the game at its
   * points: a Float64Array, and the index of the best (the first on a tie). */
  async oneply(network, plays) {
    const probabilities = await network.probabilities(plays);
    const values = Float64Array.from(plays, (play, i) => {
      const ended = outcome(play, network.rules);
      return ended ? outcomePoints(ended) : network.equity(probabilities, i);
    });
    let best = 0;
    for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
    return { values, best };
  }

  /**
   * Gulbara's 2-ply value of the unfinished afterstate `afterstate`, from the side that played
   * it (agents/bots/search.py): the next decision, whoever's it is. Its dice fixed (a climb to
   * play, or numbers handed over), its side plays its best play by one ply and that play is
   * valued at 2 plies again; thrown, the 21 rolls' best replies by one ply, weighted by their
   * chances. Negative where the next decision is the other side's.
   */
  async following(network, afterstate) {
    const { position, passed } = nextTurn(afterstate);
    const sign = passed ? -1 : 1;
    if (position.climb > 0) {
      const plays = legalPlays(position, [position.climb, position.climb], network.rules);
      const { best } = await this.oneply(network, plays);
      const ended = outcome(plays[best], network.rules);
      const value = ended ? outcomePoints(ended) : await this.following(network, plays[best]);
      return sign * value;
    }
    const replies = [];
    const rolls = ROLLS.map(({ dice }) => {
      const start = replies.length;
      replies.push(...legalPlays(position, dice, network.rules));
      return [start, replies.length];
    });
    const { values } = await this.oneply(network, replies);
    let expected = 0;
    rolls.forEach(([start, stop], r) => {
      let best = -Infinity;
      for (let i = start; i < stop; i++) if (values[i] > best) best = values[i];
      expected += best * ROLLS[r].weight;
    });
    return sign * expected;
  }

  /** The levels of `game` (Tapa's by default). */
  levelsOf(game = DEFAULT_GAME) {
    return GAME_LEVELS[game];
  }

  /** The afterstate the level plays: one of `legalPlays(position, dice)`. `level` is an id of
   * the position's game's levels (`GAME_LEVELS`); left out, the game's default. */
  async choose(position, dice, level) {
    const game = gameOf(position);
    const chosen = levelOf(level ?? DEFAULT_LEVELS[game], game);
    if (!chosen.model) return randomPlay(legalPlays(position, dice), position, dice);
    const plays = legalPlays(position, dice, this.networks.get(chosen.model).rules);
    if (plays.length === 1) return plays[0];
    const { scores } = await this.evaluate(plays, chosen);
    return plays[ranked(scores, 1)[0]];
  }

  /**
   * Each of `plays`' chance of winning the match for the side that plays it, by `network` at
   * one ply: its five outcome chances times `weights` (the chance of winning the match after
   * each result, `MatchTable.outcomeWeights`), or for a play that ends the game the weight of
   * its result (Python's `MatchPlayer.match_chances`). A Float64Array and the outcome chances.
   */
  async matchValues(network, plays, weights) {
    const count = OUTCOMES.length;
    if (!Array.isArray(weights) || weights.length !== count || !weights.every(Number.isFinite)) {
      throw new BotError(`match weights must be ${count} numbers (${OUTCOMES}), got ${weights}`);
    }
    const probabilities = await network.probabilities(plays);
    const values = Float64Array.from(plays, (play, i) => {
      const ended = outcome(play, network.rules);
      if (ended) return weights[outcomeIndex(ended)];
      let total = 0;
      for (let k = 0; k < OUTCOMES.length; k++) total += probabilities[5 * i + k] * weights[k];
      return total;
    });
    return { values, probabilities };
  }

  /** The afterstate that plays to the score (Python's `MatchPlayer.choose_to_score`): the
   * legal play with the highest chance of winning the match given the turn's outcome
   * `weights`, valued by the network of the game's level `level` (1-ply by default) at one
   * ply; the first in the order of `legalPlays` on a tie. */
  async chooseToScore(position, dice, weights, level = "1ply") {
    const game = gameOf(position);
    const model = levelOf(level, game).model;
    if (!model) throw new BotError(noNetwork(game));
    const network = this.networks.get(model);
    const plays = legalPlays(position, dice, network.rules);
    if (plays.length === 1) return plays[0];
    const { values } = await this.matchValues(network, plays, weights);
    return plays[ranked(values, 1)[0]];
  }

  /** The best `count` plays to the score, best first (the first is `chooseToScore`'s):
   * `[{afterstate, text, chance, chances}]`, `chance` the chance of winning the match and
   * `chances` the five outcome chances (a finished game's all on its result). */
  async rankToScore(position, dice, weights, count = 5, level = "1ply") {
    const game = gameOf(position);
    const model = levelOf(level, game).model;
    if (!model) throw new BotError(noNetwork(game));
    const network = this.networks.get(model);
    const plays = notatedPlays(position, dice, network.rules);
    const afterstates = plays.map((play) => play.afterstate);
    const { values, probabilities } = await this.matchValues(network, afterstates, weights);
    return ranked(values, count).map((i) => {
      const ended = outcome(afterstates[i], network.rules);
      const chances = ended
        ? exactChances(ended)
        : Object.fromEntries(OUTCOMES.map((name, k) => [name, probabilities[5 * i + k]]));
      return { afterstate: afterstates[i], text: plays[i].text, chance: values[i], chances };
    });
  }

  /**
   * The level's best `count` plays, best first (the first is the one `choose` plays):
   * `[{afterstate, text, equity, chances}]`. `equity` is the expected points for the mover
   * (exact for a play that ends the game); `chances` the five outcome probabilities at
   * 1-ply, `null` at 2-ply. At 2-ply only the level's `candidates` searched plays are ranked.
   */
  async rank(position, dice, level, count = 5) {
    const game = gameOf(position);
    const chosen = levelOf(level ?? DEFAULT_LEVELS[game], game);
    if (!chosen.model) throw new BotError(noNetwork(game));
    const network = this.networks.get(chosen.model);
    const plays = notatedPlays(position, dice, network.rules);
    const afterstates = plays.map((play) => play.afterstate);
    const { scores, probabilities } = await this.evaluate(afterstates, chosen);
    return ranked(scores, count).map((i) => {
      const ended = outcome(afterstates[i], network.rules);
      let chances = null;
      if (chosen.ply === 1) {
        chances = ended
          ? exactChances(ended)
          : Object.fromEntries(OUTCOMES.map((name, k) => [name, probabilities[5 * i + k]]));
      }
      return {
        afterstate: afterstates[i],
        text: plays[i].text,
        equity: ended ? outcomePoints(ended) : scores[i],
        chances,
      };
    });
  }
}

/**
 * Load onnxruntime-web and every model the levels use; resolves to a `Bot` ready to play.
 *
 * @param {URL|string} [baseUrl] the URL of the web/ folder (where js/, models/ and
 *   node_modules/ are); by default the folder above this module.
 */
export async function loadBot(baseUrl = new URL("../", import.meta.url)) {
  const base = new URL(baseUrl, globalThis.location?.href);
  const ortFolder = new URL(ORT_FOLDER, base);
  let ort;
  try {
    ort = await import(new URL(ORT_MODULE, ortFolder).href);
  } catch (error) {
    throw new BotError(
      `onnxruntime-web could not be loaded from ${ortFolder} (run \`npm ci\` in web/): ` +
        error.message,
    );
  }
  ort.env.wasm.wasmPaths = ortFolder.href;
  ort.env.wasm.numThreads = 1; // a plain static server gives no cross-origin isolation
  ort.env.logLevel = "error";
  const models = Object.values(GAME_LEVELS).flatMap((ls) => ls.map((l) => l.model));
  const names = [...new Set(models.filter(Boolean))];
  const loaded = await Promise.all(names.map((name) => Network.load(ort, base, name)));
  return new Bot(ort, new Map(names.map((name, i) => [name, loaded[i]])));
}
