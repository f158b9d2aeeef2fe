"""The results of a race to bear off, the games without pins (Tabla's T8, Gulbara's G9): the
side that bore off all 15 wins 1 point, 2 when the loser bore off none (*mars*)."""

from __future__ import annotations

import numpy as np

from ..layout import CHECKERS, OPP, OPP_BAR, OPP_COLUMNS, OWN, OWN_BAR, OWN_COLUMNS


def race_outcomes(
    rows: np.ndarray, bar: bool, backgammon_triple: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``(finished, value)`` of the ``(B, ROW_WIDTH)`` rows, each in its row's frame
    (:func:`tapa_env.results.outcomes`). ``bar``: checkers on the bar count as not borne off;
    ``backgammon_triple``: a loser who bore off none and still has a checker on the bar or in
    the winner's home loses 3 (Tabla's T8)."""
    own_left = rows[:, OWN_COLUMNS].sum(axis=1, dtype=np.int64)
    opp_left = rows[:, OPP_COLUMNS].sum(axis=1, dtype=np.int64)
    if bar:
        own_left = own_left + rows[:, OWN_BAR]
        opp_left = opp_left + rows[:, OPP_BAR]
    own_won = own_left == 0
    opp_won = opp_left == 0
    value = np.zeros(rows.shape[0], dtype=np.int8)
    value[own_won] = np.where(opp_left[own_won] == CHECKERS, 2, 1)
    value[opp_won] = np.where(own_left[opp_won] == CHECKERS, -2, -1)
    if backgammon_triple:
        # The winner's home is the mover's points 1-6 when the mover won, 19-24 when not.
        opp_caught = (rows[:, OPP_BAR] > 0) | (rows[:, OPP : OPP + 6] > 0).any(axis=1)
        own_caught = (rows[:, OWN_BAR] > 0) | (rows[:, OWN + 18 : OWN + 24] > 0).any(axis=1)
        value[own_won & (opp_left == CHECKERS) & opp_caught] = 3
        value[opp_won & (own_left == CHECKERS) & own_caught] = -3
    return own_won | opp_won, value
