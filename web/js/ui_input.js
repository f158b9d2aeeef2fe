/**
 * Taps and drags on the board, with pointer events (mouse, pen and touch alike).
 *
 * A press on one of your movable checkers takes it (`onTake(point)`); moving the pointer more
 * than a few pixels then drags it, and letting go drops it on the point below
 * (`onDrop(from, point)`). A press and release without a drag is a tap (`onTap(point)`), or
 * `onDice()` on your dice. Points are 1-24, 0 for your tray, null off the points.
 */

const DRAG_START = 8; // pixels the pointer moves before a press becomes a drag

export function listen(svg, board, handlers) {
  let press = null; // {id, x, y, point, takes, dragging}

  svg.addEventListener("pointerdown", (event) => {
    if (press || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    const point = board.pointAt(event.clientX, event.clientY);
    const dice = board.onDice(event.clientX, event.clientY);
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, point, dice };
    press.takes = !dice && point !== null && handlers.canTake(point);
    if (press.takes) handlers.onTake(point);
    svg.setPointerCapture(event.pointerId);
  });

  svg.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id || !press.takes) return;
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (!press.dragging && moved < DRAG_START) return;
    press.dragging = true;
    board.drag(press.point, event.clientX, event.clientY);
  });

  const release = (event) => {
    if (!press || event.pointerId !== press.id) return;
    const done = press;
    press = null;
    if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
    if (event.type === "pointercancel") {
      handlers.onCancel();
    } else if (done.dragging) {
      handlers.onDrop(done.point, board.pointAt(event.clientX, event.clientY));
    } else if (done.dice) {
      handlers.onDice();
    } else {
      handlers.onTap(done.point, done.takes);
    }
  };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);
}
