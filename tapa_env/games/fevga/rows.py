"""Fevga's rows (:mod:`tapa_env.layout`): the start (F1), the flip (both sides run the same
way round, as in Gulbara) and what makes a row a position (:mod:`tapa_env.games.race_rows`,
with nothing in the third block)."""

from __future__ import annotations

import numpy as np

from ...layout import CHECKERS, OPP, OPP_COLUMNS, OWN, OWN_COLUMNS, POINTS, ROW_DTYPE, ROW_WIDTH
from .. import race_rows

START = 11
"""The opponent starts on the mover's point 12 (column ``OPP + 11``)."""
_HELD = "one checker holds a point and nothing is hit"


def initial_rows(batch: int) -> np.ndarray:
    """F1: 15 on each side's own 24, the mover's 24 and 12."""
    rows = np.zeros((batch, ROW_WIDTH), dtype=ROW_DTYPE)
    rows[:, OWN + POINTS - 1] = CHECKERS
    rows[:, OPP + START] = CHECKERS
    return rows


def flip(rows: np.ndarray) -> np.ndarray:
    """The rows seen by the other side: its point ``p`` is our ``p + 12`` (modulo 24)."""
    flipped = np.zeros_like(rows)
    flipped[:, OWN_COLUMNS] = np.roll(rows[:, OPP_COLUMNS], -12, axis=1)
    flipped[:, OPP_COLUMNS] = np.roll(rows[:, OWN_COLUMNS], -12, axis=1)
    return flipped


def next_turn(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The turn always passes: every afterstate flipped."""
    return flip(rows), np.ones(rows.shape[0], dtype=bool)


def turn_dice(rows: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Every turn plays its roll."""
    return dice


def first_bad_row(rows: np.ndarray) -> int:
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 rows that is not a Fevga position
    (:func:`row_problem` says why), or -1 when every row is one."""
    return race_rows.first_bad_row(rows, race_rows.NOTHING)


def row_problem(row: np.ndarray) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row is not a Fevga position, or ``None``."""
    return race_rows.row_problem(row, "fevga", _HELD, bar=False)


def unreached_problem(row: np.ndarray) -> str | None:
    """Every Fevga row that :func:`row_problem` passes is played as a position: ``None``."""
    return None


def waiting_problem(row: np.ndarray) -> str | None:
    """A Fevga row is always its mover's turn: ``None``."""
    return None


def dice_problem(row: np.ndarray, dice: tuple[int, int]) -> str | None:
    """Every roll can be played in a Fevga row: ``None``."""
    return None
