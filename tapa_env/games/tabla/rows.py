"""Tabla's rows (:mod:`tapa_env.layout`): the start (T1), the flip, and what makes a row a
position (:mod:`tapa_env.games.race_rows`, with the bars in the third block)."""

from __future__ import annotations

import numpy as np

from ...layout import OPP, OPP_BAR, OWN, OWN_BAR, POINTS, ROW_DTYPE, ROW_WIDTH, mirror
from .. import race_rows

START = {24: 2, 13: 5, 8: 3, 6: 5}
"""The standard backgammon start of each side, in its own numbering (T1)."""
_HELD = "a point with two or more checkers is held and a lone one is hit"


def initial_rows(batch: int) -> np.ndarray:
    """T1: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side, in its own numbering."""
    rows = np.zeros((batch, ROW_WIDTH), dtype=ROW_DTYPE)
    for point, count in START.items():
        rows[:, OWN + point - 1] = count
        rows[:, OPP + POINTS - point] = count
    return rows


def flip(rows: np.ndarray) -> np.ndarray:
    """The rows seen by the other side: its point ``p`` is our ``25 - p``; the bars swap."""
    flipped = mirror(rows)
    flipped[:, OWN_BAR] = rows[:, OPP_BAR]
    flipped[:, OPP_BAR] = rows[:, OWN_BAR]
    return flipped


def next_turn(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The turn always passes: every afterstate flipped."""
    return flip(rows), np.ones(rows.shape[0], dtype=bool)


def turn_dice(rows: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Every turn plays its roll."""
    return dice


def first_bad_row(rows: np.ndarray) -> int:
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 rows that is not a Tabla position
    (:func:`row_problem` says why), or -1 when every row is one."""
    return race_rows.first_bad_row(rows, race_rows.BARS)


def row_problem(row: np.ndarray) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row is not a Tabla position, or ``None``."""
    return race_rows.row_problem(row, "tabla", _HELD, bar=True)


def unreached_problem(row: np.ndarray) -> str | None:
    """Every Tabla row that :func:`row_problem` passes is a position: ``None``."""
    return None


def waiting_problem(row: np.ndarray) -> str | None:
    """A Tabla row is always its mover's turn: ``None``."""
    return None


def dice_problem(row: np.ndarray, dice: tuple[int, int]) -> str | None:
    """Every roll can be played in a Tabla row: ``None``."""
    return None
