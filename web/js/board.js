/**
 * The board as an SVG drawing, always from the person's side: your points 1-6 (your home)
 * bottom right, 7-12 bottom left, 13-18 top left, 19-24 top right; you start on 24 and bear
 * off to the tray at the bottom right. Each game is drawn its own way:
 *
 * - Tapa: the bot starts on your 1 and bears off to the tray at the top right. There is no bar:
 *   the strip between the halves is only the board's fold. A pinned checker lies at the edge of
 *   its point, in its own colour, ringed in red with a lock, and the first checker that pins it
 *   sits half on top of it.
 * - Tabla: as Tapa, with the bar between the halves: your checkers hit wait on its upper half
 *   (they come back in on your 19-24, top right), the bot's on its lower half (they come back
 *   in on your 1-6). Your bar is a source you tap like a point (`data-point="25"`).
 * - Gulbara: both sides run the same way round, anticlockwise, shown by arrows: you from your
 *   24 to your home, the bot from your 12 (bottom left) round to its home, your 13-18 (top
 *   left), bearing off into its tray on the left. Each side's start and home are marked in
 *   its colour, and a climbing double says which double comes next.
 *
 * A stack shows at most five checkers; a taller one shows its count on the last.
 *
 * The drawing scales to its box, so its text would shrink with it on a phone: the view tells
 * CSS how many of the drawing's units a screen pixel is (`--unit` on the <svg>), and the
 * stylesheet keeps the point numbers, tray labels and counts at least about 12 pixels high.
 *
 * `BoardView.render(view)` redraws everything from a plain description (below); every point
 * carries data attributes (`data-point`, `data-you`, `data-bot`, `data-pinned`, `data-movable`,
 * `data-lit`) that say what it shows, and `pointAt(x, y)` finds the point under the pointer.
 * A lit point's landing marker (`.landing`, with its `data-point`) is drawn over everything,
 * the dice included: a full point's lies in the middle strip, and a tap on it lands there.
 */

import { DEFAULT_GAME, POINTS, gameNamed } from "./games.js";

const SVG = "http://www.w3.org/2000/svg";

// Geometry in the drawing's units.
const LABEL = 30; // point numbers above and below (room for 26 units, app.css's largest)
const FRAME = 12;
const PW = 46; // a point's width
const R = 20; // a checker's radius
const D = 42; // from one checker of a stack to the next
const OVER = 25; // from a pinned checker to the first checker on top of it
const VISIBLE = 5; // checkers drawn in a stack
const STACK = VISIBLE * D; // a stack's room, from the edge
const MID = 64; // the middle strip, where the dice lie
const HALF = 6 * PW;
const FOLD = 14; // Tapa's and Gulbara's fold between the halves
const BAR = 56; // Tabla's bar between the halves
const BAR_SHOWN = 4; // checkers drawn on each half of the bar
const TRAY = 54;
const TOP = LABEL + FRAME; // the board's inner top edge
const INNER = 2 * STACK + MID;
const BOTTOM = TOP + INNER;
const TRAY_COLUMN = TRAY + 2 * FRAME + 6; // a tray with its frame and the gap beside it
export const HEIGHT = BOTTOM + FRAME + LABEL;
const DIE = 36;
const SLAB = 12; // a borne-off checker in the tray
/** Your bar's point number, as a source of a move (web/js/games.js's BAR_POINT). */
export const BAR_POINT = POINTS + 1;
/** The keys of the two trays and the bot's bar in `BoardView.tops`. */
export const YOUR_TRAY = 0;
export const BOT_TRAY = -1;
export const BOT_BAR = -BAR_POINT;

/** Where things are for `game` (a name): the halves' left edges, the trays' and the drawing's
 * width. */
function geometry(game) {
  const spec = gameNamed(game);
  // Both sides running the same way round (Gulbara), the bot bears off on the left.
  const left = spec.sameWayRound ? TRAY_COLUMN : 0;
  const board = left + FRAME;
  const gap = spec.hasBar ? BAR : FOLD;
  const rightHalf = board + HALF + gap;
  const trayX = rightHalf + HALF + FRAME + 6;
  return {
    game,
    spec,
    woodX: left,
    leftHalf: board,
    gap,
    rightHalf,
    trayX,
    botTrayX: spec.sameWayRound ? FRAME : trayX,
    width: trayX + TRAY + FRAME,
  };
}

/** The column centre of point p (1-24) and whether it is in the top row. */
function column(g, point) {
  if (point <= 6) return { x: g.rightHalf + (6 - point) * PW + PW / 2, top: false };
  if (point <= 12) return { x: g.leftHalf + (12 - point) * PW + PW / 2, top: false };
  if (point <= 18) return { x: g.leftHalf + (point - 13) * PW + PW / 2, top: true };
  return { x: g.rightHalf + (point - 19) * PW + PW / 2, top: true };
}

function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function text(x, y, content, attrs = {}) {
  const node = el("text", { x, y, ...attrs });
  node.textContent = content;
  return node;
}

/** A lock, the pin marker, centred on (x, y). */
function lock(x, y) {
  return el("g", { class: "lock", transform: `translate(${x} ${y}) scale(1.25)` }, [
    el("path", { d: "M -4.5 -1 V -4.5 A 4.5 4.5 0 0 1 4.5 -4.5 V -1", class: "shackle" }),
    el("rect", { x: -7, y: -1.5, width: 14, height: 10, rx: 2, class: "body" }),
  ]);
}

/** The checkers of one point, from its edge inwards: `[{side, pinned}]`, pinned one first. */
function stackOf(position, point) {
  const you = position.own[point - 1];
  const bot = position.opp[point - 1];
  if (position.own_pinned?.includes(point)) {
    return [{ side: "you", pinned: true }, ...Array(bot).fill({ side: "bot", pinned: false })];
  }
  if (position.opp_pinned?.includes(point)) {
    return [{ side: "bot", pinned: true }, ...Array(you).fill({ side: "you", pinned: false })];
  }
  const side = you ? "you" : "bot";
  return Array(you || bot).fill({ side, pinned: false });
}

/** Distances from the edge of the checkers' centres in a stack of `stack`. */
function offsets(stack) {
  const found = [];
  let at = R;
  for (let i = 0; i < stack.length; i++) {
    found.push(at);
    at += stack[i].pinned ? OVER : D;
  }
  return found;
}

/** Where the pips of a die's face lie, in a unit square. */
const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

/**
 * A drawing of the board in an <svg> element. The view given to `render`:
 *
 *   game       the name of a game of web/js/games/ (the default game, Tapa, when left out)
 *   position   the position from your side (you are "own")
 *   diceYou    your dice [{value, used}], lead die first; diceBot the bot's
 *   movable    points whose checker you can move now (a Set; 25: your bar)
 *   selected   the point whose checker you took, or null
 *   lit        where it can go (a Set of points, 0 for off)
 *   moved      points where checkers just landed (the last play, to show it), a Set;
 *              -1: the bot bore a checker off
 *   turn       "you", "bot" or null: whose dice are live
 *   climb      Gulbara: `{side, double, next, handed}` while a side plays a double that
 *              climbs (or numbers handed over): the double played, the double that follows
 *              it (0 after 6-6), whether handed over; else null
 */
export class BoardView {
  constructor(svg) {
    this.svg = svg;
    this.g = geometry(DEFAULT_GAME);
    svg.setAttribute("viewBox", `0 0 ${this.g.width} ${HEIGHT}`);
    this.tops = new Map(); // point -> {x, y} of its top checker (trays: 0 yours, -1 the bot's)
    this.ghost = null;
    const fit = () => {
      const scale = svg.getScreenCTM()?.a;
      if (scale > 0) svg.style.setProperty("--unit", String(1 / scale));
    };
    new ResizeObserver(fit).observe(svg);
  }

  render(view) {
    const game = view.game ?? DEFAULT_GAME;
    if (game !== this.g.game) {
      this.g = geometry(game);
      this.svg.setAttribute("viewBox", `0 0 ${this.g.width} ${HEIGHT}`);
    }
    const { position } = view;
    const tops = new Map();
    const parts = [this._frame()];
    if (this.g.spec.sameWayRound) parts.push(this._route());
    const landings = [];
    for (let point = 1; point <= POINTS; point++) {
      parts.push(this._point(point, view, tops, landings));
    }
    if (this.g.spec.hasBar) {
      parts.push(this._bar("you", position.own_bar, view, tops));
      parts.push(this._bar("bot", position.opp_bar, view, tops));
    }
    parts.push(this._tray("bot", position.opp_off, false, view.moved.has(BOT_TRAY), tops));
    parts.push(this._tray("you", position.own_off, view.lit.has(YOUR_TRAY), false, tops));
    parts.push(this._dice(view.diceBot, "bot", view.turn === "bot"));
    parts.push(this._dice(view.diceYou, "you", view.turn === "you"));
    if (view.climb) parts.push(this._climb(view.climb));
    // Where the taken checker can land, over everything else: a full point's marker lies in
    // the middle strip, where the dice or the climb may be, and is tapped there all the same.
    parts.push(el("g", { class: "landings" }, landings));
    this.svg.replaceChildren(...parts);
    this.svg.dataset.turn = view.turn || "";
    this.svg.dataset.game = game;
    this.svg.dataset.climb = view.climb ? String(view.climb.next) : "";
    this.tops = tops;
    this.ghost = null;
  }

  _frame() {
    const g = this.g;
    const board = el("g", { class: "frame" });
    const boardWidth = g.trayX - 6 - g.woodX;
    board.append(
      el("rect", {
        x: g.woodX, y: LABEL, width: boardWidth, height: INNER + 2 * FRAME, rx: 10, class: "wood",
      }),
      el("rect", { x: g.leftHalf, y: TOP, width: HALF, height: INNER, class: "felt" }),
      el("rect", { x: g.rightHalf, y: TOP, width: HALF, height: INNER, class: "felt" }),
      el("rect", {
        x: g.trayX - FRAME, y: LABEL, width: TRAY + 2 * FRAME, height: INNER + 2 * FRAME, rx: 10,
        class: "wood",
      }),
    );
    if (g.spec.sameWayRound) {
      board.append(
        el("rect", {
          x: g.botTrayX - FRAME, y: LABEL, width: TRAY + 2 * FRAME, height: INNER + 2 * FRAME,
          rx: 10, class: "wood",
        }),
      );
    }
    if (g.spec.hasBar) {
      board.append(
        el("rect", {
          x: g.leftHalf + HALF, y: TOP, width: g.gap, height: INNER, class: "bar-bed",
        }),
      );
    }
    // Both running the same way round (Gulbara): each side's start point (your 24, the bot's
    // your 12) in a pill of its colour.
    const starts = g.spec.sameWayRound ? { [POINTS]: "you", [g.spec.botPoint(POINTS)]: "bot" } : {};
    for (let point = 1; point <= POINTS; point++) {
      const { x, top } = column(g, point);
      const y = top ? LABEL - 6 : HEIGHT - 6;
      const side = starts[point];
      if (side) {
        board.append(
          el("rect", {
            x: x - PW / 2 + 2, y: top ? 2 : BOTTOM + FRAME + 2, width: PW - 4, height: LABEL - 4,
            rx: (LABEL - 4) / 2, class: `start-pill ${side}`, "data-start": side,
          }),
        );
      }
      const classes = side ? `number start ${side}` : "number";
      board.append(text(x, y, String(point), { class: classes }));
    }
    return board;
  }

  /** Gulbara's route: both sides anticlockwise (arrows along the middle strip), and each
   * side's home (a band along it) in its colour; `_frame` marks the starts. */
  _route() {
    const g = this.g;
    const group = el("g", { class: "route" });
    const high = TOP + STACK + 7; // just inside the middle strip, under the top row
    const low = BOTTOM - STACK - 7;
    const left = g.leftHalf + 10;
    const right = g.rightHalf + HALF - 10;
    // Top row right to left, down the left end, bottom row left to right, up the right end.
    const loop =
      `M ${right} ${high} H ${left + 14} Q ${left} ${high} ${left} ${high + 14} ` +
      `V ${low - 14} Q ${left} ${low} ${left + 14} ${low} H ${right - 14} ` +
      `Q ${right} ${low} ${right} ${low - 14} V ${high + 14}`;
    group.append(el("path", { d: loop, class: "route-line" }));
    const arrow = (x, y, angle) =>
      el("path", {
        d: "M -7 -6 L 5 0 L -7 6 Z",
        transform: `translate(${x} ${y}) rotate(${angle})`,
        class: "route-arrow",
      });
    for (const x of [g.rightHalf + HALF / 2, g.leftHalf + HALF / 2]) {
      group.append(arrow(x, high, 180), arrow(x, low, 0));
    }
    group.append(arrow(left, (high + low) / 2, 90), arrow(right, (high + low) / 2, -90));
    // Homes: yours your 1-6 (bottom right), the bot's your 13-18 (top left).
    const band = (x, y, side) =>
      el("rect", { x, y, width: HALF, height: 8, class: `home-band ${side}` });
    group.append(band(g.rightHalf, BOTTOM - 8, "you"), band(g.leftHalf, TOP, "bot"));
    return group;
  }

  _point(point, view, tops, landings) {
    const { x, top } = column(this.g, point);
    const { position } = view;
    const edge = top ? TOP : BOTTOM;
    const toward = top ? 1 : -1;
    const stack = stackOf(position, point);
    const lit = view.lit.has(point);
    const movable = view.movable.has(point);
    const selected = view.selected === point;
    const pinned = stack.length && stack[0].pinned ? stack[0].side : "";
    const group = el("g", {
      class: "point",
      "data-point": point,
      "data-you": position.own[point - 1],
      "data-bot": position.opp[point - 1],
      "data-pinned": pinned,
      "data-movable": movable,
      "data-lit": lit,
      "data-selected": selected,
    });
    const tip = edge + toward * (STACK - 8);
    const shade = point % 2 ? "odd" : "even";
    group.append(
      el("rect", {
        x: x - PW / 2, y: top ? TOP : TOP + STACK + MID / 2, width: PW,
        height: STACK + MID / 2, class: "hit",
      }),
      el("polygon", {
        points: `${x - PW / 2 + 1},${edge} ${x + PW / 2 - 1},${edge} ${x},${tip}`,
        class: `triangle ${shade}${lit ? " lit" : ""}`,
      }),
    );
    const shown = stack.slice(0, VISIBLE);
    const at = offsets(shown);
    shown.forEach((checker, i) => {
      const y = edge + toward * at[i];
      const last = i === shown.length - 1;
      const hidden = stack.length - shown.length;
      const count = last && hidden ? stack.filter((c) => !c.pinned).length : null;
      const classes = ["checker", checker.side];
      if (checker.pinned) classes.push("pinned");
      if (last && movable) classes.push("movable");
      if (last && selected) classes.push("selected");
      if (last && view.moved.has(point)) classes.push("moved");
      group.append(this._checker(x, y, classes, count, checker.pinned ? toward : 0));
      if (last) tops.set(point, { x, y });
    });
    if (lit) {
      const y = edge + toward * (shown.length ? at[shown.length - 1] + D : R);
      const landing = Math.min(Math.max(y, TOP + R), BOTTOM - R);
      landings.push(
        el("circle", { cx: x, cy: landing, r: R - 2, class: "landing", "data-point": point }),
      );
    }
    if (!shown.length) tops.set(point, { x, y: edge + toward * R });
    return group;
  }

  /** Tabla's bar: your hit checkers on its upper half (your bar is point 25, a source you
   * take checkers from), the bot's on its lower half, each stack from the middle outwards. */
  _bar(side, count, view, tops) {
    const x = this.g.leftHalf + HALF + this.g.gap / 2;
    const yours = side === "you";
    const middle = TOP + INNER / 2;
    const toward = yours ? -1 : 1;
    const movable = yours && view.movable.has(BAR_POINT);
    const selected = yours && view.selected === BAR_POINT;
    const group = el("g", {
      class: `bar ${side}`,
      "data-point": yours ? BAR_POINT : null,
      "data-bar": side,
      [`data-${side}`]: count,
      "data-movable": yours ? movable : null,
      "data-selected": yours ? selected : null,
    });
    group.append(
      el("rect", {
        x: x - this.g.gap / 2, y: yours ? TOP : middle, width: this.g.gap, height: INNER / 2,
        class: "hit",
      }),
    );
    const shown = Math.min(count, BAR_SHOWN);
    for (let i = 0; i < shown; i++) {
      const y = middle + toward * (R + 6 + i * D);
      const last = i === shown - 1;
      const classes = ["checker", side];
      if (last && movable) classes.push("movable");
      if (last && selected) classes.push("selected");
      if (last && !yours && view.moved.has(BOT_BAR)) classes.push("moved");
      const label = last && count > shown ? count : null;
      group.append(this._checker(x, y, classes, label, 0));
      if (last) tops.set(yours ? BAR_POINT : BOT_BAR, { x, y });
    }
    if (!shown) tops.set(yours ? BAR_POINT : BOT_BAR, { x, y: middle + toward * (R + 6) });
    return group;
  }

  _checker(x, y, classes, count, pinnedToward) {
    const parts = [el("circle", { cx: x, cy: y, r: R - 1 })];
    if (pinnedToward) {
      parts.push(el("circle", { cx: x, cy: y, r: R + 2, class: "pin-ring" }));
      parts.push(lock(x, y - pinnedToward * 8));
    } else {
      parts.push(el("circle", { cx: x, cy: y, r: R - 7, class: "rim" }));
    }
    if (count) parts.push(text(x, y + 6, String(count), { class: "count" }));
    return el("g", { class: classes.join(" ") }, parts);
  }

  _tray(side, off, lit, moved, tops) {
    const top = side === "bot";
    const x0 = top ? this.g.botTrayX : this.g.trayX;
    const y0 = top ? TOP : TOP + STACK + MID;
    const group = el("g", {
      class: `tray ${side}`,
      "data-point": side === "you" ? YOUR_TRAY : BOT_TRAY,
      "data-off": off,
      "data-lit": lit,
    });
    // A bear-off of the bot's last play marks its tray as a landing marks a point (blue).
    const bed = `tray-bed${lit ? " lit" : ""}${moved ? " moved" : ""}`;
    group.append(el("rect", { x: x0, y: y0, width: TRAY, height: STACK, rx: 6, class: bed }));
    for (let i = 0; i < off; i++) {
      const y = top ? y0 + 4 + i * (SLAB + 1) : y0 + STACK - 4 - SLAB - i * (SLAB + 1);
      group.append(
        el("rect", {
          x: x0 + 6, y, width: TRAY - 12, height: SLAB, rx: 3, class: `slab ${side}`,
        }),
      );
    }
    const labelY = top ? y0 + STACK - 10 : y0 + 24;
    group.append(text(x0 + TRAY / 2, labelY, `${off}`, { class: "tray-count" }));
    const nameY = top ? y0 + STACK + 25 : y0 - 10;
    group.append(text(x0 + TRAY / 2, nameY, top ? "bot" : "you", { class: "tray-name" }));
    const last = Math.max(off - 1, 0) * (SLAB + 1);
    const y = top ? y0 + 4 + SLAB / 2 + last : y0 + STACK - 4 - SLAB / 2 - last;
    tops.set(top ? BOT_TRAY : YOUR_TRAY, { x: x0 + TRAY / 2, y });
    return group;
  }

  _dice(dice, side, live) {
    const g = this.g;
    const centre = side === "you" ? g.rightHalf + HALF / 2 : g.leftHalf + HALF / 2;
    const size = dice.length > 2 ? DIE * 0.8 : DIE;
    const gap = 10;
    const width = dice.length * size + (dice.length - 1) * gap;
    const group = el("g", { class: `dice ${side}${live ? " live" : ""}`, "data-dice": side });
    dice.forEach(({ value, used }, i) => {
      const x = centre - width / 2 + i * (size + gap);
      const y = TOP + STACK + MID / 2 - size / 2;
      const die = el("g", { class: `die${used ? " used" : ""}`, "data-value": value });
      die.append(el("rect", { x, y, width: size, height: size, rx: 6 }));
      for (const [u, v] of PIPS[value]) {
        die.append(el("circle", { cx: x + u * size, cy: y + v * size, r: size / 11 }));
      }
      group.append(die);
    });
    return group;
  }

  /** Gulbara's climb, in the half opposite the side's dice: the double that comes next
   * (`next`), or what follows the last: the side's roll (numbers handed over) or the turn
   * passing. */
  _climb({ side, next, handed }) {
    const g = this.g;
    const centre = side === "you" ? g.leftHalf + HALF / 2 : g.rightHalf + HALF / 2;
    const y = TOP + STACK + MID / 2;
    const label = next ? "next" : handed ? "then a roll" : "last double";
    const size = DIE * 0.7;
    const dice = next ? [next, next] : [];
    // Room for the label at app.css's largest size (26 units, about 16 a letter, bold).
    const room = 16 * label.length;
    const width = next ? room + 8 + dice.length * (size + 6) : room;
    const left = centre - width / 2;
    const group = el("g", { class: "climb", "data-side": side, "data-next": next || 0 }, [
      el("rect", { x: left - 8, y: y - size / 2 - 5, width: width + 16, height: size + 10, rx: 8 }),
      text(left + room / 2, y + 8, label, { class: "climb-text" }),
    ]);
    dice.forEach((value, i) => {
      const x = left + room + 8 + i * (size + 6);
      const die = el("g", { class: `die ${side}` });
      die.append(el("rect", { x, y: y - size / 2, width: size, height: size, rx: 5 }));
      for (const [u, v] of PIPS[value]) {
        die.append(el("circle", { cx: x + u * size, cy: y - size / 2 + v * size, r: size / 11 }));
      }
      group.append(die);
    });
    return group;
  }

  /** The point (1-24, 25 your bar, 0 your tray) under the client coordinates, or null. */
  pointAt(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY);
    const point = hit && hit.closest("[data-point]");
    if (!point || !this.svg.contains(point)) return null;
    const number = Number(point.dataset.point);
    return number >= 0 ? number : null;
  }

  /** Whether the client coordinates are on your dice. */
  onDice(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY);
    return Boolean(hit && hit.closest('[data-dice="you"]'));
  }

  /** Client coordinates in the drawing's units. */
  toBoard(clientX, clientY) {
    const matrix = this.svg.getScreenCTM().inverse();
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix);
    return { x: point.x, y: point.y };
  }

  /** Shows a checker following the pointer (a drag), hiding the one taken from `point`. */
  drag(point, clientX, clientY) {
    const { x, y } = this.toBoard(clientX, clientY);
    if (!this.ghost) {
      const top = this.svg.querySelector(`[data-point="${point}"] .checker.selected`);
      if (top) top.classList.add("lifted");
      this.ghost = this._checker(x, y, ["checker", "you", "ghost"], null, 0);
      this.svg.append(this.ghost);
    }
    this.ghost.setAttribute("transform", `translate(${x} ${y})`);
    for (const circle of this.ghost.querySelectorAll("circle")) {
      circle.setAttribute("cx", 0);
      circle.setAttribute("cy", 0);
    }
  }

  /** Slides the checker now on top of `to` (a point; 0: your tray, -1: the bot's; 25 your
   * bar, -25 the bot's) from where the top of `from` was before the last render (`before`,
   * the old `tops`), for `ms` milliseconds. */
  slide(before, from, to, ms) {
    const start = before.get(from);
    const end = this.tops.get(to);
    if (!start || !end || ms <= 0) return;
    const selectors = {
      [YOUR_TRAY]: ".tray.you .slab",
      [BOT_TRAY]: ".tray.bot .slab",
      [BAR_POINT]: ".bar.you .checker",
      [BOT_BAR]: ".bar.bot .checker",
    };
    const selector = selectors[to] ?? `[data-point="${to}"] .checker`;
    const nodes = this.svg.querySelectorAll(selector);
    const node = nodes[nodes.length - 1];
    if (!node || !node.animate) return;
    const dx = start.x - end.x;
    const dy = start.y - end.y;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: ms,
      easing: "ease-out",
    });
  }
}
