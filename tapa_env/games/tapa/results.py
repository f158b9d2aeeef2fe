"""Tapa's results (R8, R9, R10): bearing off all 15 wins, a double game when the loser bore
off none; pinning the opponent's mother wins a double game; both mothers pinned draws."""

from __future__ import annotations

import numpy as np

from ...layout import CHECKERS, OPP, OPP_COLUMNS, OWN, OWN_COLUMNS, PIN
from .rules import Rules


def outcomes(rows: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``(finished, value)`` of checked ``(B, ROW_WIDTH)`` rows, each in its row's frame
    (:func:`tapa_env.results.outcomes`)."""
    own_on_board = rows[:, OWN_COLUMNS].sum(axis=1, dtype=np.int64)
    opp_on_board = rows[:, OPP_COLUMNS].sum(axis=1, dtype=np.int64)
    # A mother is a side's lone checker on its own starting point, pinned there (R9).
    opp_mother_pinned = (rows[:, OPP] == 1) & (rows[:, PIN] == 1)
    own_mother_pinned = (rows[:, OWN + 23] == 1) & (rows[:, PIN + 23] == -1)
    both_pinned = opp_mother_pinned & own_mother_pinned
    draw = both_pinned if rules.both_mothers_draw else np.zeros_like(both_pinned)
    own_start_empty = rows[:, OWN + 23] == 0
    opp_start_empty = rows[:, OPP] == 0
    if not rules.mother_needs_empty_start:
        own_start_empty = opp_start_empty = np.ones_like(both_pinned)
    own_mother_win = opp_mother_pinned & own_start_empty & ~draw
    opp_mother_win = own_mother_pinned & opp_start_empty & ~draw & ~own_mother_win
    own_bore_off = own_on_board == 0
    opp_bore_off = opp_on_board == 0

    value = np.zeros(rows.shape[0], dtype=np.int8)
    value[opp_mother_win] = -2
    value[own_mother_win] = 2
    value[opp_bore_off] = np.where(own_on_board[opp_bore_off] == CHECKERS, -2, -1)
    value[own_bore_off] = np.where(opp_on_board[own_bore_off] == CHECKERS, 2, 1)
    finished = draw | own_mother_win | opp_mother_win | own_bore_off | opp_bore_off
    return finished, value
