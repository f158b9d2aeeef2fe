"""Position tensors for Tabla and Gulbara, a whole batch in one compiled call.

The same TD-Gammon style as Tapa's (:mod:`tapa_env.encoding`), each feature read from the
row's frame, mover first:

Tabla ``raw`` (``tabla-raw-v1``, 196 features)
    For each point and side the truncated unary units ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2]``
    (192); each side's checkers on the bar over 2, as TD-Gammon had them (2); each side's
    borne-off checkers over 15 (2).
Tabla ``expert`` (``tabla-expert-v1``, 204 features)
    ``raw`` and: pip counts over 360 (the bar counts 25); blots an enemy checker can hit with
    one die (direct shots) over 5; points made in the home over 6; and whether the sides are
    past each other (a race: no contact left).
Gulbara ``raw`` (``gulbara-raw-v1``, 205 features)
    The point units (192) in the mover's numbering (the opponent runs from the mover's 12 down
    to 1, then from 24 down to 13); borne-off checkers over 15 (2); the turn: the double
    still to play, one unit for each of 1-6 (6), its dice left over 4, whether handed, and
    each side's turns over 3 (so the opening's normal doubles are seen) (4); and whether the
    frame's side moves next (1: in an afterstate, its climb goes on).
Gulbara ``expert`` (``gulbara-expert-v1``, 211 features)
    ``raw`` and: pip counts over 360; the longest run of points each side holds, over 6;
    checkers each side has home, over 15.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .encoding import COUNT_UNITS, UNITS
from .layout import (
    CHECKERS,
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    HANDED,
    NEXT,
    OPP,
    OPP_BAR,
    OPP_TURNS,
    OWN,
    OWN_BAR,
    OWN_TURNS,
    POINTS,
)

_POINT_UNITS = 2 * POINTS * UNITS  # 192
TABLA_RAW_SIZE = _POINT_UNITS + 4
TABLA_EXPERT_SIZE = TABLA_RAW_SIZE + 8
GULBARA_RAW_SIZE = _POINT_UNITS + 2 + 6 + 4 + 1
GULBARA_EXPERT_SIZE = GULBARA_RAW_SIZE + 6
_HOME = 6
_BAR_PIPS = 25


@nb.njit(cache=True, nogil=True)
def _point_units(rows, i, out):
    """The 192 point units of ``rows[i]``; returns the checkers on the board of each side."""
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


@nb.njit(cache=True, nogil=True)
def tabla_features(rows, i, out, o, own_total, opp_total, expert):
    """Tabla's features after the point units (from column 192) of ``rows[i]`` into
    ``out[o]``, given each side's checkers on the board."""
    own_bar, opp_bar = rows[i, OWN_BAR], rows[i, OPP_BAR]
    base = _POINT_UNITS
    out[o, base] = own_bar / 2.0
    out[o, base + 1] = opp_bar / 2.0
    out[o, base + 2] = (CHECKERS - own_total - own_bar) / CHECKERS
    out[o, base + 3] = (CHECKERS - opp_total - opp_bar) / CHECKERS
    if not expert:
        return
    own_pips = own_bar * _BAR_PIPS
    opp_pips = opp_bar * _BAR_PIPS
    own_blots = opp_blots = own_made = opp_made = 0
    own_rear = -1  # the mover's rearmost checker (0-based point; 24 on the bar)
    opp_rear = POINTS  # the opponent's, in the mover's numbering (-1 on the bar)
    if own_bar:
        own_rear = POINTS
    if opp_bar:
        opp_rear = -1
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        own_pips += own * (p + 1)
        opp_pips += opp * (POINTS - p)
        if own:
            own_rear = max(own_rear, p)
        if opp:
            opp_rear = min(opp_rear, p)
        if p < _HOME and own >= 2:
            own_made += 1
        if p >= POINTS - _HOME and opp >= 2:
            opp_made += 1
    for p in range(POINTS):
        # A blot is shot at directly by an enemy checker 1 to 6 pips behind it.
        if rows[i, OWN + p] == 1:
            for pips in range(1, 7):
                q = p - pips  # the opponent moves up the mover's numbering
                if (q >= 0 and rows[i, OPP + q]) or (q == -1 and opp_bar):
                    own_blots += 1
                    break
        if rows[i, OPP + p] == 1:
            for pips in range(1, 7):
                q = p + pips
                if (q < POINTS and rows[i, OWN + q]) or (q == POINTS and own_bar):
                    opp_blots += 1
                    break
    base += 4
    out[o, base] = own_pips / 360.0
    out[o, base + 1] = opp_pips / 360.0
    out[o, base + 2] = own_blots / 5.0
    out[o, base + 3] = opp_blots / 5.0
    out[o, base + 4] = own_made / 6.0
    out[o, base + 5] = opp_made / 6.0
    out[o, base + 6] = 1.0 if own_rear < opp_rear else 0.0
    out[o, base + 7] = (own_bar + opp_bar) / 2.0


@nb.njit(cache=True, nogil=True)
def encode_tabla(rows, out, expert):
    for i in range(rows.shape[0]):
        own_total, opp_total = _point_units(rows, i, out)
        tabla_features(rows, i, out, i, own_total, opp_total, expert)


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
    base = _POINT_UNITS
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
    for i in range(rows.shape[0]):
        own_total, opp_total = _point_units(rows, i, out)
        gulbara_features(rows, i, out, i, own_total, opp_total, expert)


def encode(rows: np.ndarray, out: np.ndarray, game: str, expert: bool) -> None:
    """Encode Tabla or Gulbara ``rows`` (checked int8) into ``out`` (float32)."""
    if game == "tabla":
        encode_tabla(rows, out, expert)
    else:
        encode_gulbara(rows, out, expert)


SIZES = {
    ("tabla", "raw"): TABLA_RAW_SIZE,
    ("tabla", "expert"): TABLA_EXPERT_SIZE,
    ("gulbara", "raw"): GULBARA_RAW_SIZE,
    ("gulbara", "expert"): GULBARA_EXPERT_SIZE,
}
DESCRIPTIONS = {
    ("tabla", "raw"): "checkers, bars, borne off",
    ("tabla", "expert"): "raw plus pip counts, direct shots, home points, race, bars",
    ("gulbara", "raw"): "checkers, borne off, the climbing double, turns",
    ("gulbara", "expert"): "raw plus pip counts, longest walls, checkers home",
}
