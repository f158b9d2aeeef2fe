"""The board as an RGB image (``render_mode="rgb_array"``), drawn with NumPy alone.

Seen from the side to move, as the text board is: its checkers are light, the opponent's
dark; its points 13-24 along the top from left to right, 12-1 along the bottom, its home
(1-6) at the bottom right. A pinned checker is drawn at the base of its point, ringed in
red, under the checkers that pin it. Checkers borne off are counted as small squares at the
right edge; Tabla's checkers on the bar stand in the middle strip, the mover's in the lower
half.
"""

from __future__ import annotations

import numpy as np

from .games import DEFAULT_GAME
from .games import game as registered
from .layout import OPP, OPP_BAR, OWN, OWN_BAR, PIN, POINTS, as_rows

WIDTH, HEIGHT = 400, 300
_POINT_WIDTH, _CHECKER, _BAR, _EDGE = 28, 24, 16, 16
_SHOWN = 5  # checkers drawn on a point; a taller stack is drawn this high
_FELT = (34, 102, 60)
_TRIANGLES = ((196, 164, 112), (120, 72, 40))
_OWN, _OPP, _PIN_RING = (240, 236, 224), (40, 40, 48), (220, 40, 40)


def board_image(row: np.ndarray, game: str = DEFAULT_GAME) -> np.ndarray:
    """``(HEIGHT, WIDTH, 3)`` uint8: the position ``row`` of ``game`` (mover's frame) as a
    picture."""
    entry = registered(game)
    row = as_rows(row)[0].astype(np.int64)
    bars = (row[OWN_BAR], row[OPP_BAR]) if entry.bar else (0, 0)
    if not entry.pins:
        row = row.copy()
        row[PIN:] = 0  # no pins: that block holds the bars or the turn
    image = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    image[:] = _FELT
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    for point in range(1, POINTS + 1):
        left, top = _point_place(point)
        tip = HEIGHT // 2 - 12 if top else HEIGHT // 2 + 12
        base = _EDGE if top else HEIGHT - _EDGE
        depth = (ys - base) / (tip - base)
        half = _POINT_WIDTH / 2 * (1 - depth)
        centre = left + _POINT_WIDTH / 2
        inside = (depth >= 0) & (depth <= 1) & (np.abs(xs + 0.5 - centre) <= half)
        image[inside] = _TRIANGLES[point % 2]
        own, opp, pin = row[OWN + point - 1], row[OPP + point - 1], row[PIN + point - 1]
        stack = []  # bottom (the base of the point) first
        if pin == 1:
            stack = [(_OPP, True)] + [(_OWN, False)] * int(own)
        elif pin == -1:
            stack = [(_OWN, True)] + [(_OPP, False)] * int(opp)
        else:
            stack = [(_OWN, False)] * int(own) + [(_OPP, False)] * int(opp)
        step = _CHECKER if len(stack) <= _SHOWN else _CHECKER * (_SHOWN - 1) / (len(stack) - 1)
        for level, (colour, pinned) in enumerate(stack):
            offset = _CHECKER / 2 + level * step
            y = base + offset if top else base - offset
            _disc(image, ys, xs, centre, y, colour, pinned)
    centre = _EDGE + 6 * _POINT_WIDTH + _BAR / 2
    for count, colour, lower in ((bars[0], _OWN, True), (bars[1], _OPP, False)):
        for k in range(min(int(count), _SHOWN)):
            offset = _CHECKER / 2 + 4 + k * _CHECKER * 0.6
            y = HEIGHT / 2 + offset if lower else HEIGHT / 2 - offset
            _disc(image, ys, xs, centre, y, colour, False)
    for (side, colour), bar in zip(((OWN, _OWN), (OPP, _OPP)), bars, strict=True):
        off = 15 - int(row[side : side + POINTS].sum()) - int(bar)
        bottom = side == OWN
        for k in range(off):
            y = HEIGHT - _EDGE - 6 * (k + 1) if bottom else _EDGE + 6 * k
            image[y : y + 5, WIDTH - 12 : WIDTH - 4] = colour
    return image


def _point_place(point: int) -> tuple[int, bool]:
    """The left edge of a point's column and whether it lies along the top."""
    top = point > 12
    column = point - 13 if top else 12 - point  # 0..11 from the left
    left = _EDGE + column * _POINT_WIDTH + (_BAR if column >= 6 else 0)
    return left, top


def _disc(image, ys, xs, x, y, colour, pinned) -> None:
    radius = _CHECKER / 2 - 1
    top, left = max(int(y - radius - 1), 0), max(int(x - radius - 1), 0)
    window = (slice(top, int(y + radius + 2)), slice(left, int(x + radius + 2)))
    distance = np.hypot(xs[window] + 0.5 - x, ys[window] + 0.5 - y)
    patch = image[window]
    patch[distance <= radius] = _PIN_RING if pinned else (90, 90, 90)
    patch[distance <= radius - (3 if pinned else 1)] = colour
