"""Game results for a batch of positions, and the result of one (docs/rules.md R8, R9, R10;
T8 for Tabla, G9 for Gulbara)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .layout import (
    CHECKERS,
    OPP,
    OPP_BAR,
    OPP_COLUMNS,
    OWN,
    OWN_BAR,
    OWN_COLUMNS,
    PIN,
    as_rows,
)
from .position import check_rows
from .rules import DEFAULT_RULES, AnyRules, TablaRules, check_rules


class Outcome(NamedTuple):
    """The result of a finished game, in the frame of the position it was read from.

    ``winner`` is ``+1`` when the side whose frame the position is in has won, ``-1`` when
    the other side has, ``0`` for a draw; ``points`` is 0 (draw), 1 or 2 (gammon or mother;
    Tabla's and Gulbara's *mars*), or 3 (a Tabla backgammon, where that counts).
    """

    winner: int
    points: int


def outcomes(
    rows: np.ndarray, rules: AnyRules = DEFAULT_RULES, *, check: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Results of a batch, each in its row's frame (an afterstate: the side that just moved).

    Args:
        rows: ``(B, ROW_WIDTH)`` position rows.
        rules: the game's rule choices, which say the game too (:mod:`tapa_env.rules`).
        check: check that every row is a position first
            (:func:`tapa_env.position.check_rows`); ``False`` skips that, for rows the engine
            produced itself.

    Returns:
        ``(finished, value)``: ``finished`` is ``bool`` ``(B,)``; ``value`` is ``int8`` ``(B,)``,
        the points won from the row's frame: ``+1``/``+2`` (``+3``) won, ``-1``/``-2``
        (``-3``) lost, ``0`` a draw or a game that goes on.

    Raises:
        ValueError: rules that are not a ``Rules``, or (:class:`PositionError`) a row that is
            not a position, named by its index.
    """
    game = check_rules(rules).game
    rows = check_rows(rows, game) if check else as_rows(rows)
    if game != "tapa":
        return _race_outcomes(rows, rules)
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


def _race_outcomes(rows: np.ndarray, rules: AnyRules) -> tuple[np.ndarray, np.ndarray]:
    """Tabla's and Gulbara's results: the side that bore off all 15 wins 1 point, 2 when
    the loser bore off none (*mars*); in Tabla under ``backgammon_triple``, 3 when that loser
    also has a checker on the bar or in the winner's home (T8, G9)."""
    tabla = isinstance(rules, TablaRules)
    own_left = rows[:, OWN_COLUMNS].sum(axis=1, dtype=np.int64)
    opp_left = rows[:, OPP_COLUMNS].sum(axis=1, dtype=np.int64)
    if tabla:
        own_left = own_left + rows[:, OWN_BAR]
        opp_left = opp_left + rows[:, OPP_BAR]
    own_won = own_left == 0
    opp_won = opp_left == 0
    value = np.zeros(rows.shape[0], dtype=np.int8)
    value[own_won] = np.where(opp_left[own_won] == CHECKERS, 2, 1)
    value[opp_won] = np.where(own_left[opp_won] == CHECKERS, -2, -1)
    if tabla and rules.backgammon_triple:
        # The winner's home is the mover's points 1-6 when the mover won, 19-24 when not.
        opp_caught = (rows[:, OPP_BAR] > 0) | (rows[:, OPP : OPP + 6] > 0).any(axis=1)
        own_caught = (rows[:, OWN_BAR] > 0) | (rows[:, OWN + 18 : OWN + 24] > 0).any(axis=1)
        value[own_won & (opp_left == CHECKERS) & opp_caught] = 3
        value[opp_won & (own_left == CHECKERS) & own_caught] = -3
    return own_won | opp_won, value
