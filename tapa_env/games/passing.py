"""How many of the 36 rolls carry a checker its whole roll past points held against it: the
escapes and containment of the contact encodings (Tapa's and Tabla's) count them; and the
names of those encodings' features, which are the same in both.

A checker's way ahead is a bit mask: bit ``k - 1`` set when the point ``k`` pips ahead is
held by the other side (off the board is open). A non-double passes when the point of its
whole count is open and one of its dice stops on an open point; a double when the four
points its moves stop on are open.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["CONTACT_FEATURES", "passing_rolls"]

CONTACT_FEATURES = (
    "escapes",
    "containment",
    "shots",
    "pip_loss",
    "back_anchor",
    "anchored",
    "timing",
    "mobility",
    "prime",
)
"""The ``contact`` encoding's features after ``expert``'s, each for the mover then the
opponent: the same nine in Tapa's and Tabla's."""


def _non_double_table() -> np.ndarray:
    """``[mask]``: the non-double rolls of 36 that move a checker their whole count through
    open points (the 11 points a non-double reaches)."""
    table = np.zeros(1 << 11, dtype=np.int64)
    for mask in range(1 << 11):
        for d1 in range(1, 7):
            for d2 in range(d1 + 1, 7):
                clear = [not mask >> (k - 1) & 1 for k in (d1, d2, d1 + d2)]
                table[mask] += 2 if clear[2] and (clear[0] or clear[1]) else 0
    return table


_NON_DOUBLES = _non_double_table()
_DOUBLES = np.array(
    [sum(1 << (k * die - 1) for k in range(1, 5)) for die in range(1, 7)], dtype=np.int64
)
"""``[die - 1]``: the bits of the points a double's four moves stop on, in the same masks."""


@nb.njit(cache=True, nogil=True, inline="always")
def passing_rolls(ahead):
    """Of the 36 rolls, those that move a checker the whole roll (both dice, or a double's
    four moves) through open points ahead of it (``ahead``: the module's mask)."""
    total = _NON_DOUBLES[ahead & 0x7FF]
    for d in range(6):
        if ahead & _DOUBLES[d] == 0:
            total += 1
    return total
