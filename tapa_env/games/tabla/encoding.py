"""Tabla's position tensors, a whole batch in one compiled call.

The same TD-Gammon style as Tapa's (:mod:`tapa_env.games.tapa.encoding`), each feature read
from the row's frame, mover first:

``raw`` (``tabla-raw-v1``, 196 features)
    For each point and side the truncated unary units ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2]``
    (192, :mod:`tapa_env.count_units`); each side's checkers on the bar over 2, as TD-Gammon
    had them (2); each side's borne-off checkers over 15 (2).
``expert`` (``tabla-expert-v1``, 204 features)
    ``raw`` and: pip counts over 360 (the bar counts 25); blots an enemy checker can hit with
    one die (direct shots) over 5; points made in the home over 6; and whether the sides are
    past each other (a race: no contact left).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...count_units import POINT_UNITS, point_units
from ...layout import CHECKERS, OPP, OPP_BAR, OWN, OWN_BAR, POINTS

TABLA_RAW_SIZE = POINT_UNITS + 4
TABLA_EXPERT_SIZE = TABLA_RAW_SIZE + 8
_HOME = 6
_BAR_PIPS = 25

ENCODINGS = {
    "raw": ("tabla-raw-v1", TABLA_RAW_SIZE, "checkers, bars, borne off"),
    "expert": (
        "tabla-expert-v1",
        TABLA_EXPERT_SIZE,
        "raw plus pip counts, direct shots, home points, race, bars",
    ),
}
"""Each encoding's ``(version, size, description)``, by name."""
FIRST_LAYER = "points"
"""How a TD network's evaluator folds its first layer over these encodings
(:mod:`tapa_env.games.folding`): per-point tables of the point units, then the features
after them, which :func:`row_features` computes row by row."""


@nb.njit(cache=True, nogil=True)
def tabla_features(rows, i, out, o, own_total, opp_total, expert):
    """Tabla's features after the point units (from column 192) of ``rows[i]`` into
    ``out[o]``, given each side's checkers on the board."""
    own_bar, opp_bar = rows[i, OWN_BAR], rows[i, OPP_BAR]
    base = POINT_UNITS
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
    """Tabla's ``raw`` (or ``expert``) features of checked ``rows`` into ``out``."""
    for i in range(rows.shape[0]):
        own_total, opp_total = point_units(rows, i, out)
        tabla_features(rows, i, out, i, own_total, opp_total, expert)


def encode(rows: np.ndarray, out: np.ndarray, name: str) -> None:
    """Encode checked int8 ``rows`` into ``out`` (float32) by the encoding ``name``."""
    encode_tabla(rows, out, name == "expert")


row_features = tabla_features
"""The hook of a first layer folded over point tables: the features after the point units of
``rows[i]`` into ``out[o]`` (``(rows, i, out, o, own_total, opp_total, expert)``)."""
