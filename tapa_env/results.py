"""Game results for a batch of positions, and the result of one (docs/rules.md R8, R9, R10)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .layout import CHECKERS, OPP, OPP_COLUMNS, OWN, OWN_COLUMNS, PIN, as_rows
from .position import check_rows
from .rules import DEFAULT_RULES, Rules, check_rules


class Outcome(NamedTuple):
    """The result of a finished game, in the frame of the position it was read from.

    ``winner`` is ``+1`` when the side whose frame the position is in has won, ``-1`` when
    the other side has, ``0`` for a draw; ``points`` is 0 (draw), 1 or 2 (gammon or mother).
    """

    winner: int
    points: int


def outcomes(
    rows: np.ndarray, rules: Rules = DEFAULT_RULES, *, check: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Results of a batch, each in its row's frame (an afterstate: the side that just moved).

    Args:
        rows: ``(B, ROW_WIDTH)`` position rows.
        rules: the rule choices (:class:`tapa_env.rules.Rules`).
        check: check that every row is a position first
            (:func:`tapa_env.position.check_rows`); ``False`` skips that, for rows the engine
            produced itself.

    Returns:
        ``(finished, value)``: ``finished`` is ``bool`` ``(B,)``; ``value`` is ``int8`` ``(B,)``,
        the points won from the row's frame: ``+1``/``+2`` won, ``-1``/``-2`` lost, ``0`` a
        draw or a game that goes on.

    Raises:
        ValueError: rules that are not a ``Rules``, or (:class:`PositionError`) a row that is
            not a position, named by its index.
    """
    check_rules(rules)
    rows = check_rows(rows) if check else as_rows(rows)
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
