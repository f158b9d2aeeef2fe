/**
 * The rules of Tapa in JavaScript, in one import: positions, legal plays and outcomes, the
 * play notation, the networks' input encodings and turns played a checker move at a time.
 * No dependencies and no build step; docs/web.md describes every name.
 *
 *   import { initialPosition, legalPlays, outcome } from "./js/tapa.js";
 */

export * from "./position.js";
export * from "./rules.js";
export * from "./notation.js";
export * from "./encoding.js";
export * from "./turn.js";
