"""Fevga's position tensors, a whole batch in one compiled call.

The same TD-Gammon style as Gulbara's (:mod:`tapa_env.games.gulbara.encoding`), each feature
read from the row's frame, mover first:

``raw`` (``fevga-raw-v1``, 196 features)
    The point units (192, :mod:`tapa_env.count_units`) in the mover's numbering (the opponent
    runs from the mover's 12 down to 1, then from 24 down to 13); borne-off checkers over 15
    (2); whether each side's first checker has gone ahead (F5) (2).
``expert`` (``fevga-expert-v1``, 204 features)
    ``raw`` and: pip counts over 360; the longest run of points each side holds, over 6;
    checkers each side has home, over 15; points each side holds of its starting quarter,
    over 6 (F6).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...count_units import POINT_UNITS, point_units
from ...layout import CHECKERS, OPP, OWN, POINTS

FEVGA_RAW_SIZE = POINT_UNITS + 2 + 2
FEVGA_EXPERT_SIZE = FEVGA_RAW_SIZE + 8
_HOME = 6
_HALF = POINTS // 2

ENCODINGS = {
    "raw": ("fevga-raw-v1", FEVGA_RAW_SIZE, "checkers, borne off, each first checker ahead"),
    "expert": (
        "fevga-expert-v1",
        FEVGA_EXPERT_SIZE,
        "raw plus pip counts, longest walls, checkers home, starting quarters held",
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
        p = k if side == OWN else (k + _HALF) % POINTS
        if rows[i, side + p]:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


@nb.njit(cache=True, nogil=True)
def fevga_features(rows, i, out, o, own_total, opp_total, expert):
    """Fevga's features after the point units (from column 192) of ``rows[i]`` into
    ``out[o]``, given each side's checkers on the board."""
    base = POINT_UNITS
    out[o, base] = (CHECKERS - own_total) / CHECKERS
    out[o, base + 1] = (CHECKERS - opp_total) / CHECKERS
    own_ahead = own_total < CHECKERS
    opp_ahead = opp_total < CHECKERS
    for p in range(_HALF):
        own_ahead |= rows[i, OWN + p] > 0  # the mover's 1-12
        opp_ahead |= rows[i, OPP + _HALF + p] > 0  # the opponent's own 1-12
    out[o, base + 2] = 1.0 if own_ahead else 0.0
    out[o, base + 3] = 1.0 if opp_ahead else 0.0
    if not expert:
        return
    own_pips = opp_pips = own_home = opp_home = own_quarter = opp_quarter = 0
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        own_pips += own * (p + 1)
        q = p + 1 + _HALF if p < _HALF else p + 1 - _HALF
        opp_pips += opp * q  # the opponent's own point number is its pips to go
        if p < _HOME:
            own_home += own
        if _HALF <= p < _HALF + _HOME:
            opp_home += opp
        if p >= POINTS - _HOME and own:
            own_quarter += 1
        if _HALF - _HOME <= p < _HALF and opp:
            opp_quarter += 1
    base += 4
    out[o, base] = own_pips / 360.0
    out[o, base + 1] = opp_pips / 360.0
    out[o, base + 2] = _longest_run(rows, i, OWN) / 6.0
    out[o, base + 3] = _longest_run(rows, i, OPP) / 6.0
    out[o, base + 4] = own_home / CHECKERS
    out[o, base + 5] = opp_home / CHECKERS
    out[o, base + 6] = own_quarter / 6.0
    out[o, base + 7] = opp_quarter / 6.0


@nb.njit(cache=True, nogil=True)
def encode_fevga(rows, out, expert):
    """Fevga's ``raw`` (or ``expert``) features of checked ``rows`` into ``out``."""
    for i in range(rows.shape[0]):
        own_total, opp_total = point_units(rows, i, out)
        fevga_features(rows, i, out, i, own_total, opp_total, expert)


def encode(rows: np.ndarray, out: np.ndarray, name: str) -> None:
    """Encode checked int8 ``rows`` into ``out`` (float32) by the encoding ``name``."""
    encode_fevga(rows, out, name == "expert")


row_features = fevga_features
"""The hook of a first layer folded over point tables: the features after the point units of
``rows[i]`` into ``out[o]`` (``(rows, i, out, o, own_total, opp_total, expert)``)."""
