"""Tapa's position tensors in the TD-Gammon style, for a whole batch in one compiled call.

Every feature is read from the mover's frame (the row's side to move, or for an afterstate
the side that just moved). Two named encodings:

``raw`` (version ``raw-v1``, 248 features)
    For each point 1..24 and each side, the checkers as truncated unary units
    ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]`` (mover first, 192 units); for each
    point whether a mover checker lies pinned there and whether an opponent checker does (48);
    the borne-off counts over 15 (2); and for each side its mother: checkers left on its
    starting point, exactly one left, and that one pinned (6).
``expert`` (version ``expert-v1``, 258 features)
    ``raw`` followed by expert features, each side mover first: pip counts over 360; lone
    unpinned checkers that a movable enemy checker can reach with one die, over 5; pinned
    enemy checkers held, over 5; points made (two or more checkers) in the side's home, over
    6; and the mother at risk (alone, unpinned, with a movable enemy checker within one die).

A checkpoint records the encoding's ``version``, so a bot never meets an encoding it was not
trained on. The column layout below (:data:`PINS`, :data:`OFF`, :data:`MOTHER`) and the point
masks are what an evaluator that folds the features into tables reads.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...count_units import COUNT_UNITS, UNITS
from ...layout import CHECKERS, OPP, OWN, PIN, POINTS

__all__ = [
    "COUNT_UNITS",
    "FIRST_LAYER",
    "ENCODINGS",
    "EXPERT_FEATURES",
    "EXPERT_SIZE",
    "MOTHER",
    "OFF",
    "PINS",
    "POINT_MASKS",
    "RAW_SIZE",
    "UNITS",
    "encode",
    "expert_features",
    "features_of_masks",
    "move_own",
    "move_pin",
    "point_masks",
]

# Column layout of the raw features; an evaluator that folds them into tables reads these.
PINS = 2 * POINTS * UNITS
"""``PINS + p``: a mover checker pinned on point ``p + 1``; ``PINS + POINTS + p``: an opponent's."""
OFF = PINS + 2 * POINTS
"""``OFF``, ``OFF + 1``: each side's borne-off checkers over 15, mover first."""
MOTHER = OFF + 2
"""``MOTHER + 0..2``: the mover's start checkers over 15, exactly one left, that one pinned;
``MOTHER + 3..5``: the same for the opponent."""
RAW_SIZE = MOTHER + 6
EXPERT_FEATURES = 10
EXPERT_SIZE = RAW_SIZE + EXPERT_FEATURES
FIRST_LAYER = "pins"
"""How a TD network's evaluator folds its first layer over these encodings
(:mod:`tapa_env.games.folding`): per-point tables of checkers and pins, read through the
column layout and the point masks below."""
_DIE = 6
_HOME = 6
_ALL_POINTS = (1 << POINTS) - 1
_HOME_POINTS = (1 << _HOME) - 1
_DIE_SPAN = (1 << _DIE) - 1


@nb.njit(cache=True, nogil=True)
def _units(out, row_index, column, count):
    for unit in range(UNITS):
        out[row_index, column + unit] = COUNT_UNITS[count, unit]


@nb.njit(cache=True, nogil=True)
def _encode_raw(rows, out):
    for i in range(rows.shape[0]):
        own_on_board = 0
        opp_on_board = 0
        for p in range(POINTS):
            own = rows[i, OWN + p]
            opp = rows[i, OPP + p]
            pin = rows[i, PIN + p]
            own_on_board += own
            opp_on_board += opp
            _units(out, i, p * UNITS, own)
            _units(out, i, (POINTS + p) * UNITS, opp)
            out[i, PINS + p] = 1.0 if pin == -1 else 0.0
            out[i, PINS + POINTS + p] = 1.0 if pin == 1 else 0.0
        out[i, OFF] = (CHECKERS - own_on_board) / CHECKERS
        out[i, OFF + 1] = (CHECKERS - opp_on_board) / CHECKERS
        own_start = rows[i, OWN + POINTS - 1]
        opp_start = rows[i, OPP]
        out[i, MOTHER] = own_start / CHECKERS
        out[i, MOTHER + 1] = 1.0 if own_start == 1 else 0.0
        out[i, MOTHER + 2] = 1.0 if own_start == 1 and rows[i, PIN + POINTS - 1] == -1 else 0.0
        out[i, MOTHER + 3] = opp_start / CHECKERS
        out[i, MOTHER + 4] = 1.0 if opp_start == 1 else 0.0
        out[i, MOTHER + 5] = 1.0 if opp_start == 1 and rows[i, PIN] == 1 else 0.0


@nb.njit(cache=True, nogil=True, inline="always")
def _bits_set(mask):
    """The number of set bits of a mask of the 24 points."""
    mask = mask - ((mask >> 1) & 0x555555)
    mask = (mask & 0x333333) + ((mask >> 2) & 0x333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F
    return (mask + (mask >> 8) + (mask >> 16)) & 0xFF


POINT_MASKS = 10
"""The length of a row's point masks (:func:`point_masks`)."""


@nb.njit(cache=True, nogil=True)
def point_masks(rows, i, masks):
    """Fill ``masks`` (int64, :data:`POINT_MASKS`) with the pip counts and point masks of
    ``rows[i]``, what :func:`features_of_masks` reads. One pass over the points sums the
    pips and sets a bit per point: occupied, one checker, two or more (each side), each pin."""
    for k in range(POINT_MASKS):
        masks[k] = 0
    for p in range(POINTS):
        own = np.int64(rows[i, OWN + p])
        opp = np.int64(rows[i, OPP + p])
        pin = rows[i, PIN + p]
        masks[0] += own * (p + 1)
        masks[1] += opp * (POINTS - p)
        masks[2] |= np.int64(own > 0) << p
        masks[3] |= np.int64(opp > 0) << p
        masks[4] |= np.int64(own == 1) << p
        masks[5] |= np.int64(opp == 1) << p
        masks[6] |= np.int64(own >= 2) << p
        masks[7] |= np.int64(opp >= 2) << p
        masks[8] |= np.int64(pin == 1) << p
        masks[9] |= np.int64(pin == -1) << p


@nb.njit(cache=True, nogil=True, inline="always")
def move_own(masks, p, old, new):
    """Change the mover's checkers on point ``p`` (0-based) of ``masks`` from ``old`` to
    ``new``: what a play does to the point masks of its position."""
    bit = np.int64(1) << p
    masks[0] += (new - old) * (p + 1)
    masks[2] = (masks[2] & ~bit) | (np.int64(new > 0) << p)
    masks[4] = (masks[4] & ~bit) | (np.int64(new == 1) << p)
    masks[6] = (masks[6] & ~bit) | (np.int64(new >= 2) << p)


@nb.njit(cache=True, nogil=True, inline="always")
def move_pin(masks, p, pin):
    """Set the pin mark of point ``p`` (0-based) of ``masks`` to ``pin`` (-1, 0 or +1)."""
    bit = np.int64(1) << p
    masks[8] = (masks[8] & ~bit) | (np.int64(pin == 1) << p)
    masks[9] = (masks[9] & ~bit) | (np.int64(pin == -1) << p)


@nb.njit(cache=True, nogil=True, inline="always")
def features_of_masks(masks, features):
    """Write the ``EXPERT_FEATURES`` expert features of a row with point masks ``masks``
    (:func:`point_masks`) into ``features``. The counts are bit operations on the masks: a
    lone unpinned checker is exposed when a movable enemy checker lies 1 to 6 points behind
    it, which is the mask of movable enemy checkers shifted by 1 to 6."""
    own_occupied, opp_occupied = masks[2], masks[3]
    own_lone, opp_lone = masks[4], masks[5]
    own_made, opp_made = masks[6], masks[7]
    held, suffered = masks[8], masks[9]  # opponent checkers pinned by the mover; the reverse
    unpinned = ~(held | suffered)
    # The opponent moves up the mover's numbering, the mover down it.
    opp_movable = opp_occupied & ~held
    own_movable = own_occupied & ~suffered
    opp_reach = 0
    own_reach = 0
    for pips in range(1, _DIE + 1):
        opp_reach |= opp_movable << pips
        own_reach |= own_movable >> pips
    features[0] = masks[0] / 360.0
    features[1] = masks[1] / 360.0
    features[2] = _bits_set(own_lone & unpinned & opp_reach & _ALL_POINTS) / 5.0
    features[3] = _bits_set(opp_lone & unpinned & own_reach) / 5.0
    features[4] = _bits_set(held) / 5.0
    features[5] = _bits_set(suffered) / 5.0
    features[6] = _bits_set(own_made & _HOME_POINTS) / 6.0
    features[7] = _bits_set(opp_made & (_HOME_POINTS << (POINTS - _HOME))) / 6.0
    # A mother at risk: alone and unpinned on its start, a movable enemy checker within a die.
    own_mother_alone = (own_lone & unpinned) >> (POINTS - 1) & 1
    opp_mother_alone = opp_lone & unpinned & 1
    behind_own_start = (opp_movable >> (POINTS - 1 - _DIE)) & _DIE_SPAN
    behind_opp_start = (own_movable >> 1) & _DIE_SPAN
    features[8] = 1.0 if own_mother_alone and behind_own_start else 0.0
    features[9] = 1.0 if opp_mother_alone and behind_opp_start else 0.0


@nb.njit(cache=True, nogil=True)
def expert_features(rows, i, features):
    """Write the ``EXPERT_FEATURES`` expert features of ``rows[i]`` into ``features``
    (:func:`point_masks`, then :func:`features_of_masks`)."""
    masks = np.zeros(POINT_MASKS, dtype=np.int64)
    point_masks(rows, i, masks)
    features_of_masks(masks, features)


@nb.njit(cache=True, nogil=True)
def _encode_expert(rows, out):
    _encode_raw(rows, out)
    for i in range(rows.shape[0]):
        expert_features(rows, i, out[i, RAW_SIZE:])


ENCODINGS = {
    "raw": ("raw-v1", RAW_SIZE, "checkers, pins, borne off, mothers"),
    "expert": (
        "expert-v1",
        EXPERT_SIZE,
        "raw plus pip counts, exposed checkers, pins, home points, mother at risk",
    ),
}
"""Each encoding's ``(version, size, description)``, by name."""


def encode(rows: np.ndarray, out: np.ndarray, name: str) -> None:
    """Encode checked int8 ``rows`` into ``out`` (float32) by the encoding ``name``."""
    (_encode_expert if name == "expert" else _encode_raw)(rows, out)
