/**
 * The bot's hints as the page lists them: each play in notation with its equity (the points
 * you expect from it), coloured by what it means for you, green for a gain and red for a
 * loss, whatever its rank; the outcome chances, where the level has them, in its tooltip. In
 * a match played to the score, each play's chance of winning the match instead, green from
 * 50% up and red below.
 */

/** An equity as shown, three decimals with its sign, and its tone: "good", "bad" or "even"
 * (the tone follows the figure shown, so -0.0004 reads "+0.000", even). */
export function equityLabel(equity) {
  const shown = Number(equity.toFixed(3));
  const tone = shown > 0 ? "good" : shown < 0 ? "bad" : "even";
  return { text: `${shown >= 0 ? "+" : ""}${shown.toFixed(3)}`, tone };
}

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/** A chance of winning the match as shown, one decimal of a percent, and its tone: "good"
 * from 50% up (as shown), else "bad". */
export function chanceLabel(chance) {
  const shown = (100 * chance).toFixed(1);
  return { text: `${shown}%`, tone: Number(shown) >= 50 ? "good" : "bad" };
}

/** The win, lose and draw chances of a 1-ply play, in one line. */
function chancesText(c) {
  const pct = (x) => `${Math.round(100 * x)}%`;
  const win = `win ${pct(c.win + c.win_double)} (double ${pct(c.win_double)})`;
  const lose = `lose ${pct(c.lose + c.lose_double)} (double ${pct(c.lose_double)})`;
  return `${win}, ${lose}, draw ${pct(c.draw)}`;
}

/** A list item for one of `rank`'s entries: a button that calls `onPick` when tapped. */
export function hintItem(entry, onPick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "hint-play";
  const toScore = entry.chance !== undefined;
  const { text, tone } = toScore ? chanceLabel(entry.chance) : equityLabel(entry.equity);
  button.append(span("play", entry.text), span(`equity ${tone}`, text));
  if (entry.chances) button.title = chancesText(entry.chances);
  button.addEventListener("click", onPick);
  const item = document.createElement("li");
  item.append(button);
  return item;
}
