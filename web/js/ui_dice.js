/**
 * The page's dice: a small seeded generator, so that `?seed=N` plays the same dice again.
 *
 *   const dice = new Dice(123);
 *   dice.roll();      // [a, b], each 1 to 6
 *   dice.throwOne();  // one die, for the opening throw (R2)
 *
 * The generator is sfc32 (the "small fast counter" of PractRand), seeded from a 32-bit
 * whole number; the dice depend only on the seed and on how many have been thrown, never on
 * the plays, so a seed gives the same rolls whatever the bot plays. A saved game keeps the
 * generator's `state` and goes on from it (`Dice.resume`), so a reload rolls what the game
 * would have rolled without it.
 */

/** The largest seed: seeds are whole numbers from 0 to 2**32 - 1. */
export const MAX_SEED = 2 ** 32 - 1;

/** A seed drawn from the browser's random source. */
export function randomSeed() {
  const word = new Uint32Array(1);
  crypto.getRandomValues(word);
  return word[0];
}

/**
 * The seed a text gives, or throws an Error naming the setting when it is not a whole number
 * from 0 to MAX_SEED.
 */
export function parseSeed(text, setting = "seed") {
  if (!/^\d+$/.test(text.trim()) || Number(text) > MAX_SEED) {
    throw new Error(`${setting} must be a whole number from 0 to ${MAX_SEED}, got '${text}'`);
  }
  return Number(text);
}

export class Dice {
  /** @param {number} seed a whole number from 0 to MAX_SEED. */
  constructor(seed) {
    this.seed = seed;
    this._state = [0x9e3779b9, 0x243f6a88, seed >>> 0, 1];
    for (let i = 0; i < 12; i++) this._next(); // mix the seed in
  }

  /**
   * The dice of `seed` from a `state` an earlier `Dice` had (its next throws are that one's);
   * throws an Error when `state` is not four 32-bit whole numbers.
   */
  static resume(seed, state) {
    const word = (value) => Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
    if (!Array.isArray(state) || state.length !== 4 || !state.every(word)) {
      throw new Error("the dice's state must be four whole numbers from 0 to 2**32 - 1");
    }
    const dice = new Dice(seed);
    dice._state = [...state];
    return dice;
  }

  /** The generator's state now: four 32-bit whole numbers, for `Dice.resume`. */
  get state() {
    return [...this._state];
  }

  _next() {
    let [a, b, c, d] = this._state;
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    this._state = [a >>> 0, b, c, d];
    return t;
  }

  /** One die, 1 to 6 (without bias: draws above the largest multiple of 6 are redrawn). */
  throwOne() {
    const limit = Math.floor(2 ** 32 / 6) * 6;
    for (;;) {
      const word = this._next();
      if (word < limit) return 1 + (word % 6);
    }
  }

  /** A roll of two dice, `[a, b]` in the order thrown. */
  roll() {
    return [this.throwOne(), this.throwOne()];
  }
}
