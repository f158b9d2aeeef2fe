"""Compiled helpers of the games whose sides start in diagonally opposite corners and run the
same way round (Gulbara, Fevga): the opponent's own point ``q`` is the mover's ``q + 12``
(``q - 12`` above 12), so its path, in its own numbering, is the mover's board turned by 12
points.

A set of points in the opponent's numbering is a bit mask whose bit ``q - 1`` stands for its
point ``q``.
"""

from __future__ import annotations

import numba as nb

from ..engine.bits import HALF
from ..layout import OPP, POINTS

WALL = 6
"""Points in a row that make a wall (a prime)."""


@nb.njit(cache=True, nogil=True, inline="always")
def in_opponent_numbering(points):
    """The mover's points ``points`` (bit ``p - 1`` for its point ``p``) in the opponent's
    numbering (bit ``q - 1`` for the opponent's own point ``q``)."""
    return (points >> HALF) | ((points & ((1 << HALF) - 1)) << HALF)


@nb.njit(cache=True, nogil=True, inline="always")
def opponent_points(row):
    """The opponent's occupied points of a position row, in its own numbering."""
    held = 0
    for p in range(POINTS):
        if row[OPP + p]:
            held |= 1 << p
    return in_opponent_numbering(held)


@nb.njit(cache=True, nogil=True, inline="always")
def wall_zone(row):
    """The part of the opponent's path (its numbering) where six mover points in a row would
    have every opponent checker behind them: the points below its foremost checker (its
    lowest point) when all 15 are on the board; else 0 (a checker borne off is ahead of any
    wall)."""
    on_board = 0
    for p in range(POINTS):
        on_board += row[OPP + p]
    if on_board != 15:
        return 0
    held = opponent_points(row)
    foremost = 0
    while not (held >> foremost) & 1:
        foremost += 1
    return (1 << foremost) - 1


@nb.njit(cache=True, nogil=True, inline="always")
def walled(occupied, zone):
    """Whether the mover's points ``occupied`` hold six in a row of the opponent's path
    inside ``zone`` (the opponent's numbering)."""
    path = in_opponent_numbering(occupied) & zone
    for _ in range(WALL - 1):
        path &= path >> 1  # a bit stays set where a run of one more point starts
    return path != 0
