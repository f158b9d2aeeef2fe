"""The position row: one fixed-size integer row per position, seen from the side to move.

A batch of positions is a 2-D ``int8`` array of shape ``(B, ROW_WIDTH)``. Points are in the
**mover's** numbering (docs/rules.md): column ``OWN + i`` and ``OPP + i`` hold point ``i + 1``.

=============  ==========  ====================================================================
columns        name        meaning
=============  ==========  ====================================================================
0 .. 23        ``OWN``     the mover's checkers on points 1..24, pinned ones included
24 .. 47       ``OPP``     the opponent's checkers on points 1..24, pinned ones included
48 .. 71       ``PIN``     ``+1``: an opponent checker lies pinned under mover checkers there;
                           ``-1``: a mover checker lies pinned under opponent checkers there;
                           ``0``: no pin on that point
=============  ==========  ====================================================================

Borne-off counts are not stored: each side has 15 checkers (R1), so a side's borne-off count is
15 minus its checkers on the board (:func:`own_off`, :func:`opp_off`). Nothing else is derivable
from the counts alone: with one checker of each side on a point, only ``PIN`` says which is pinned.
"""

from __future__ import annotations

import numpy as np

POINTS = 24
CHECKERS = 15
OWN = 0
OPP = POINTS
PIN = 2 * POINTS
ROW_WIDTH = 3 * POINTS
ROW_DTYPE = np.int8

OWN_COLUMNS = slice(OWN, OWN + POINTS)
OPP_COLUMNS = slice(OPP, OPP + POINTS)
PIN_COLUMNS = slice(PIN, PIN + POINTS)

OPP_PINNED = 1
OWN_PINNED = -1


def as_rows(rows: np.ndarray) -> np.ndarray:
    """Return ``rows`` as a C-contiguous ``int8`` array of shape ``(B, ROW_WIDTH)``.

    A single row of shape ``(ROW_WIDTH,)`` becomes a batch of one. Raises ``ValueError`` on a
    wrong shape.
    """
    array = np.ascontiguousarray(rows, dtype=ROW_DTYPE)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != ROW_WIDTH:
        raise ValueError(
            f"position rows must have shape (B, {ROW_WIDTH}), got {tuple(np.shape(rows))}"
        )
    return array


def initial_rows(batch: int = 1) -> np.ndarray:
    """The starting position (R1) ``batch`` times: 15 mover checkers on 24, 15 opponent on 1."""
    rows = np.zeros((batch, ROW_WIDTH), dtype=ROW_DTYPE)
    rows[:, OWN + 23] = CHECKERS
    rows[:, OPP + 0] = CHECKERS
    return rows


def own_off(rows: np.ndarray) -> np.ndarray:
    """Checkers the mover has borne off, per row: ``int64`` array of shape ``(B,)``."""
    rows = as_rows(rows)
    return CHECKERS - rows[:, OWN_COLUMNS].sum(axis=1, dtype=np.int64)


def opp_off(rows: np.ndarray) -> np.ndarray:
    """Checkers the opponent has borne off, per row: ``int64`` array of shape ``(B,)``."""
    rows = as_rows(rows)
    return CHECKERS - rows[:, OPP_COLUMNS].sum(axis=1, dtype=np.int64)


def flip(rows: np.ndarray) -> np.ndarray:
    """The same positions seen by the other side, for a batch of shape ``(B, ROW_WIDTH)``.

    The opponent's point ``p`` is the mover's point ``25 - p``, so each block is reversed; the
    sides swap and so does the sign of every pin. Flipping twice gives the rows back.
    """
    rows = as_rows(rows)
    flipped = np.empty_like(rows)
    flipped[:, OWN_COLUMNS] = rows[:, OPP_COLUMNS][:, ::-1]
    flipped[:, OPP_COLUMNS] = rows[:, OWN_COLUMNS][:, ::-1]
    flipped[:, PIN_COLUMNS] = -rows[:, PIN_COLUMNS][:, ::-1]
    return flipped
