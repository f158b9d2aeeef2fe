"""Tapa's rows (:mod:`tapa_env.layout`): the start (R1), the flip, and what makes a row a
position: counts 0 to 15, at most 15 checkers of a side, pin values -1, 0 or +1, each pin
over the checkers it needs, and no point shared by both colours without a pin."""

from __future__ import annotations

import numba as nb
import numpy as np

from ...layout import (
    CHECKERS,
    OPP,
    OPP_PINNED,
    OWN,
    OWN_PINNED,
    PIN,
    PIN_COLUMNS,
    POINTS,
    ROW_DTYPE,
    ROW_WIDTH,
    mirror,
)


def initial_rows(batch: int) -> np.ndarray:
    """R1: 15 mover checkers on its 24, 15 opponent checkers on the mover's 1."""
    rows = np.zeros((batch, ROW_WIDTH), dtype=ROW_DTYPE)
    rows[:, OWN + 23] = CHECKERS
    rows[:, OPP + 0] = CHECKERS
    return rows


def flip(rows: np.ndarray) -> np.ndarray:
    """The rows seen by the other side: its point ``p`` is our ``25 - p``; each block is
    reversed, the sides swap and so does the sign of every pin."""
    flipped = mirror(rows)
    flipped[:, PIN_COLUMNS] = -rows[:, PIN_COLUMNS][:, ::-1]
    return flipped


def next_turn(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The turn always passes: every afterstate flipped."""
    return flip(rows), np.ones(rows.shape[0], dtype=bool)


def turn_dice(rows: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Every turn plays its roll."""
    return dice


def row_problem(row: np.ndarray) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row is not a Tapa position, or ``None``.
    :func:`first_bad_row` finds such a row in a batch; this says what is wrong."""
    own = row[OWN : OWN + POINTS].astype(np.int64)
    opp = row[OPP : OPP + POINTS].astype(np.int64)
    pin = row[PIN : PIN + POINTS].astype(np.int64)
    for side, counts in (("own", own), ("opp", opp)):
        for index, count in enumerate(counts):
            if not 0 <= count <= CHECKERS:
                return (
                    f"{side}[{index}] (point {index + 1}) has {count} checkers; "
                    f"a point holds 0 to {CHECKERS}"
                )
        if counts.sum() > CHECKERS:
            return f"{side} has {counts.sum()} checkers on the board, over {CHECKERS}"
    for index in range(POINTS):
        point, mine, theirs, flag = index + 1, own[index], opp[index], pin[index]
        if flag not in (0, OPP_PINNED, OWN_PINNED):
            return f"point {point} has pin value {flag}; use -1, 0 or +1"
        if flag == OPP_PINNED and not (theirs == 1 and mine >= 1):
            return (
                f"point {point}: an opponent checker pinned there needs exactly one opponent "
                f"checker and at least one mover checker on top, found {theirs} and {mine}"
            )
        if flag == OWN_PINNED and not (mine == 1 and theirs >= 1):
            return (
                f"point {point}: a mover checker pinned there needs exactly one mover checker "
                f"and at least one opponent checker on top, found {mine} and {theirs}"
            )
        if flag == 0 and mine and theirs:
            return (
                f"point {point} has {mine} mover and {theirs} opponent checkers but no pin; "
                "both colours share a point only when a lone checker is pinned there"
            )
    return None


@nb.njit(cache=True, nogil=True)
def first_bad_row(rows):
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 ``rows`` that cannot be a position
    (:func:`row_problem` says why), or -1 when every row can.

    Each point is judged without branches, so that a batch is checked at memory speed.
    """
    for i in range(rows.shape[0]):
        bad = False
        own_total = 0
        opp_total = 0
        for p in range(POINTS):
            own = rows[i, OWN + p]
            opp = rows[i, OPP + p]
            pin = rows[i, PIN + p]
            bad |= (own < 0) | (own > CHECKERS) | (opp < 0) | (opp > CHECKERS)
            bad |= (pin < OWN_PINNED) | (pin > OPP_PINNED)
            # Both colours share a point exactly where a lone checker is pinned under the other.
            bad |= ((own > 0) & (opp > 0)) != (pin != 0)
            bad |= ((pin == OPP_PINNED) & (opp != 1)) | ((pin == OWN_PINNED) & (own != 1))
            own_total += own
            opp_total += opp
        if bad or own_total > CHECKERS or opp_total > CHECKERS:
            return i
    return -1


def unreached_problem(row: np.ndarray) -> str | None:
    """Every Tapa row that :func:`row_problem` passes is a position: ``None``."""
    return None


def waiting_problem(row: np.ndarray) -> str | None:
    """A Tapa row is always its mover's turn: ``None``."""
    return None


def dice_problem(row: np.ndarray, dice: tuple[int, int]) -> str | None:
    """Every roll can be played in a Tapa row: ``None``."""
    return None
