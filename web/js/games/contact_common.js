/**
 * What the `contact` features of Tabla (web/js/games/tabla_contact.js) and Tapa
 * (web/js/games/tapa_contact.js) share: how many of the 36 rolls carry a checker its whole roll
 * past points held against it (a port of Python's tapa_env/games/passing.py, the same tables),
 * which their escapes and containment count, and the bits set in a mask.
 *
 * A checker's way ahead is a bit mask: bit `k - 1` set when the point `k` pips ahead is held by
 * the other side (off the board is open). A non-double passes when the point of its whole count
 * is open and one of its dice stops on an open point; a double when the four points its moves
 * stop on are open. Both games' contact features are the same nine, named here.
 */

/** The features of each side, in their order; the mover's of feature `f` is column
 * `2 * f` after `expert`'s, the opponent's the next. */
export const CONTACT_FEATURES = Object.freeze([
  "escapes",
  "containment",
  "shots",
  "pip_loss",
  "back_anchor",
  "anchored",
  "timing",
  "mobility",
  "prime",
]);
/** The columns `contact` adds after `expert`'s. */
export const CONTACT_SIZE = 2 * CONTACT_FEATURES.length;

/** `[mask]`: the non-double rolls of 36 that move a checker their whole count through open
 * points, where bit `k - 1` of `mask` says the point `k` pips ahead is blocked (the 11 points a
 * non-double reaches). */
const NON_DOUBLES = (() => {
  const table = new Int32Array(1 << 11);
  for (let mask = 0; mask < 1 << 11; mask++) {
    for (let d1 = 1; d1 <= 6; d1++) {
      for (let d2 = d1 + 1; d2 <= 6; d2++) {
        const clear = [d1, d2, d1 + d2].map((k) => !((mask >> (k - 1)) & 1));
        if (clear[2] && (clear[0] || clear[1])) table[mask] += 2;
      }
    }
  }
  return table;
})();
/** `[die - 1]`: the bits of the points a double's four moves stop on, in the same masks. */
const DOUBLES = Array.from({ length: 6 }, (_, d) => {
  let bits = 0;
  for (let k = 1; k <= 4; k++) bits |= 1 << (k * (d + 1) - 1);
  return bits;
});

/** Of the 36 rolls, those that move a checker the whole roll (both dice, or a double's four
 * moves) through open points, where bit `k - 1` of `ahead` says the point `k` pips ahead is
 * blocked (off the board is open). */
export function passingRolls(ahead) {
  let total = NON_DOUBLES[ahead & 0x7ff];
  for (let d = 0; d < 6; d++) {
    if ((ahead & DOUBLES[d]) === 0) total += 1;
  }
  return total;
}

/** The bits set in `mask` (below bit 31). */
export function count(mask) {
  let n = 0;
  for (; mask; mask &= mask - 1) n += 1;
  return n;
}
