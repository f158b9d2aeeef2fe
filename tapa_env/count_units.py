"""The truncated unary units of a point's checkers, TD-Gammon's, that every game's encoding
starts with: ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]`` for each point and side."""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import CHECKERS, OPP, OWN, POINTS

UNITS = 4
"""Truncated unary units per point and side: mover's point ``p`` (0-based) is columns
``UNITS * p ...``, the opponent's ``UNITS * (POINTS + p) ...``."""
POINT_UNITS = 2 * POINTS * UNITS
"""The units of every point of both sides: 192 features."""

COUNT_UNITS = np.array(
    [[n >= 1, n >= 2, n >= 3, (n - 3) / 2.0 if n > 3 else 0.0] for n in range(CHECKERS + 1)],
    dtype=np.float32,
)
"""``(16, UNITS)`` float32: the units of a point holding ``n`` checkers of one side."""


@nb.njit(cache=True, nogil=True)
def point_units(rows, i, out):
    """The :data:`POINT_UNITS` units of ``rows[i]`` into ``out[i, :POINT_UNITS]``, mover first;
    returns the checkers on the board of each side."""
    own_total = 0
    opp_total = 0
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        own_total += own
        opp_total += opp
        for unit in range(UNITS):
            out[i, p * UNITS + unit] = COUNT_UNITS[own, unit]
            out[i, (POINTS + p) * UNITS + unit] = COUNT_UNITS[opp, unit]
    return own_total, opp_total
