/**
 * The page's questions: before it throws away a game in progress, and after a reload, when it
 * must not guess whether you want the saved game back. A modal <dialog> (index.html's #ask)
 * with a title, a line and two buttons; nothing else on the page takes a tap while it is open.
 *
 *   if (await ask($("ask"), { title: "Start a new game?", text, yes: "New game",
 *                             no: "Keep playing", focus: "no" })) { ... }
 *
 * Resolves to true for `yes`, false for `no` or Escape. `focus` is the button focused first
 * (Enter presses it): the one that loses nothing.
 */

export function ask(dialog, { title, text, yes, no, focus = "yes" }) {
  const part = (name) => dialog.querySelector(`[data-ask="${name}"]`);
  part("title").textContent = title;
  part("text").textContent = text;
  part("yes").textContent = yes;
  part("no").textContent = no;
  dialog.returnValue = ""; // Escape closes it without a button's value: a no
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
    part(focus).focus();
  });
}
