"""Game results for a batch of positions, and the result of one: each game's results module
reads them (docs/rules.md R8, R9, R10; T8 for Tabla, G9 for Gulbara)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .games import game_of
from .layout import as_rows
from .position import check_rows
from .rules import DEFAULT_RULES, AnyRules, check_rules


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
    entry = game_of(check_rules(rules))
    rows = check_rows(rows, entry.name) if check else as_rows(rows)
    return entry.results.outcomes(rows, rules)
