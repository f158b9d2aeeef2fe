"""Point sets as bit masks and the mover's counts as two words, the search state's units.

A set of points is an integer whose bit ``p`` stands for point ``p + 1`` (the mover's
numbering); a source index 24 above every point is the bar. The mover's checker counts take
four bits a point, points 1-12 in the word ``low`` and 13-24 in ``high`` (a point holds at
most 15 checkers). All are ``int64`` inside the kernels.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..layout import OWN, POINTS

HOME = 6
"""The mover's home: points 1-6, the low six bits."""
ALL_POINTS = (1 << POINTS) - 1
BAR = POINTS
"""The source index of a checker entering from the bar, above every point."""
HALF = 12
"""Points a counts word holds."""


@nb.njit(cache=True, nogil=True, inline="always")
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask."""
    index = 0
    while not (mask >> index) & 1:
        index += 1
    return index


@nb.njit(cache=True, nogil=True, inline="always")
def lift(low, high, occupied, point):
    """The counts and occupied points after one mover checker leaves ``point`` (0-23)."""
    if point < HALF:
        low -= 1 << (4 * point)
        left = (low >> (4 * point)) & 15
    else:
        high -= 1 << (4 * (point - HALF))
        left = (high >> (4 * (point - HALF))) & 15
    if left == 0:
        occupied &= ~(1 << point)
    return low, high, occupied


@nb.njit(cache=True, nogil=True, inline="always")
def land(low, high, occupied, point):
    """The counts and occupied points after one mover checker lands on ``point`` (0-23)."""
    if point < HALF:
        low += 1 << (4 * point)
    else:
        high += 1 << (4 * (point - HALF))
    return low, high, occupied | (1 << point)


@nb.njit(cache=True, nogil=True, inline="always")
def read_counts(row):
    """The mover's counts of a position row as ``(low, high, occupied)``."""
    low = high = occupied = 0
    for p in range(POINTS):
        count = np.int64(row[OWN + p])
        if p < HALF:
            low |= count << (4 * p)
        else:
            high |= count << (4 * (p - HALF))
        if count:
            occupied |= 1 << p
    return low, high, occupied


@nb.njit(cache=True, nogil=True, inline="always")
def write_counts(out, index, low, high):
    """Write the mover's counts ``low``, ``high`` into the row ``out[index]``."""
    for p in range(POINTS):
        word = low if p < HALF else high
        out[index, OWN + p] = (word >> (4 * (p % HALF))) & 15


@nb.njit(cache=True, nogil=True, inline="always")
def occupied_points(low, high):
    """The points the counts ``low``, ``high`` hold a checker on."""
    occupied = 0
    for p in range(HALF):
        if (low >> (4 * p)) & 15:
            occupied |= 1 << p
        if (high >> (4 * p)) & 15:
            occupied |= 1 << (p + HALF)
    return occupied


@nb.njit(cache=True, nogil=True, inline="always")
def forward_sources(occupied, movable, open_points, die, may_bear_off):
    """The points of ``movable`` (a subset of the mover's ``occupied`` points) whose checker
    may move ``die`` pips toward point 1: onto a point of ``open_points``, or off the board.

    A checker bears off only when every mover checker is home (``occupied`` within points
    1-6) and ``may_bear_off``: from the point ``die`` exactly, or, with a die larger than
    every occupied point, from the highest one.
    """
    legal = movable & (open_points << die) & ALL_POINTS
    if occupied >> HOME == 0 and occupied != 0 and may_bear_off:
        exact = die - 1
        if (movable >> exact) & 1:
            legal |= 1 << exact
        elif occupied >> exact == 0:
            highest = exact - 1
            while not (occupied >> highest) & 1:
                highest -= 1
            legal |= movable & (1 << highest)
    return legal
