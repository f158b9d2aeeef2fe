"""Gulbara's position tensors, a whole batch in one compiled call.

The same TD-Gammon style as Tapa's (:mod:`tapa_env.games.tapa.encoding`), each feature read
from the row's frame, mover first:

``raw`` (``gulbara-raw-v1``, 205 features)
    The point units (192, :mod:`tapa_env.count_units`) in the mover's numbering (the opponent
    runs from the mover's 12 down to 1, then from 24 down to 13); borne-off checkers over 15
    (2); the turn: the double still to play, one unit for each of 1-6 (6), its dice left over
    4, whether handed, and each side's turns over 3 (so the opening's normal doubles are seen)
    (4); and whether the frame's side moves next (1: in an afterstate, its climb goes on).
``expert`` (``gulbara-expert-v1``, 211 features)
    ``raw`` and: pip counts over 360; the longest run of points each side holds, over 6;
    checkers each side has home, over 15.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...count_units import POINT_UNITS, point_units
from ...layout import (
    CHECKERS,
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    HANDED,
    NEXT,
    OPP,
    OPP_TURNS,
    OWN,
    OWN_TURNS,
    POINTS,
)

GULBARA_RAW_SIZE = POINT_UNITS + 2 + 6 + 4 + 1
GULBARA_EXPERT_SIZE = GULBARA_RAW_SIZE + 6
_HOME = 6

ENCODINGS = {
    "raw": ("gulbara-raw-v1", GULBARA_RAW_SIZE, "checkers, borne off, the climbing double, turns"),
    "expert": (
        "gulbara-expert-v1",
        GULBARA_EXPERT_SIZE,
        "raw plus pip counts, longest walls, checkers home",
    ),
}
"""Each encoding's ``(version, size, description)``, by name."""
FIRST_LAYER = "points"
"""How a TD network's evaluator folds its first layer over these encodings
(:mod:`tapa_env.games.folding`): per-point tables of the point units, then the features
after them, which :func:`row_features` computes row by row."""


@nb.njit(cache=True, nogil=True)
def _longest_run(rows, i, side):
    """The longest run of consecutive points ``side`` (``OWN`` or ``OPP``) holds, in its own
    order of travel: the opponent's points 1 to 24 are the mover's 13 to 24, then 1 to 12."""
    best = run = 0
    for k in range(POINTS):
        p = k if side == OWN else (k + POINTS // 2) % POINTS
        if rows[i, side + p]:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


@nb.njit(cache=True, nogil=True)
def gulbara_features(rows, i, out, o, own_total, opp_total, expert):
    """Gulbara's features after the point units (from column 192) of ``rows[i]`` into
    ``out[o]``, given each side's checkers on the board."""
    base = POINT_UNITS
    out[o, base] = (CHECKERS - own_total) / CHECKERS
    out[o, base + 1] = (CHECKERS - opp_total) / CHECKERS
    climb = rows[i, CLIMB]
    for d in range(6):
        out[o, base + 2 + d] = 1.0 if climb == d + 1 else 0.0
    out[o, base + 8] = rows[i, CLIMB_DICE] / 4.0
    out[o, base + 9] = rows[i, HANDED]
    out[o, base + 10] = rows[i, OWN_TURNS] / COUNTED_TURNS
    out[o, base + 11] = rows[i, OPP_TURNS] / COUNTED_TURNS
    out[o, base + 12] = 1.0 if rows[i, NEXT] == 1 else 0.0
    if not expert:
        return
    own_pips = opp_pips = own_home = opp_home = 0
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        own_pips += own * (p + 1)
        q = p + 1 + POINTS // 2 if p < POINTS // 2 else p + 1 - POINTS // 2
        opp_pips += opp * q  # the opponent's own point number is its pips to go
        if p < _HOME:
            own_home += own
        if POINTS // 2 <= p < POINTS // 2 + _HOME:
            opp_home += opp
    base += 13
    out[o, base] = own_pips / 360.0
    out[o, base + 1] = opp_pips / 360.0
    out[o, base + 2] = _longest_run(rows, i, OWN) / 6.0
    out[o, base + 3] = _longest_run(rows, i, OPP) / 6.0
    out[o, base + 4] = own_home / CHECKERS
    out[o, base + 5] = opp_home / CHECKERS


@nb.njit(cache=True, nogil=True)
def encode_gulbara(rows, out, expert):
    """Gulbara's ``raw`` (or ``expert``) features of checked ``rows`` into ``out``."""
    for i in range(rows.shape[0]):
        own_total, opp_total = point_units(rows, i, out)
        gulbara_features(rows, i, out, i, own_total, opp_total, expert)


def encode(rows: np.ndarray, out: np.ndarray, name: str) -> None:
    """Encode checked int8 ``rows`` into ``out`` (float32) by the encoding ``name``."""
    encode_gulbara(rows, out, name == "expert")


row_features = gulbara_features
"""The hook of a first layer folded over point tables: the features after the point units of
``rows[i]`` into ``out[o]`` (``(rows, i, out, o, own_total, opp_total, expert)``)."""
