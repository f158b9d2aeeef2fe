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

Tabla and Gulbara rows have the same width and the same first two blocks (in Gulbara the
opponent's point ``q`` is the mover's ``q + 12``, modulo 24: both sides run the same way). No
checker is pinned in them, so the third block holds what they need instead, the rest zero:

=============  ===============  ================================================================
column         name             meaning
=============  ===============  ================================================================
48, 49         ``OWN_BAR``,     Tabla: the mover's and the opponent's checkers on the bar
               ``OPP_BAR``
48             ``NEXT``         Gulbara: ``+1`` the row's side moves next, ``-1`` the other
49, 50         ``CLIMB``,       Gulbara: the double the side moving next must play before it
               ``CLIMB_DICE``   may roll (0: none) and how many of its dice are left
51             ``HANDED``       Gulbara: 1 when those numbers were handed over by the other side
52, 53         ``OWN_TURNS``,   Gulbara: the turns each side has rolled, counted up to 3
               ``OPP_TURNS``
=============  ===============  ================================================================
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

# Tabla and Gulbara have no pins: their rows use the third block for what they need instead.
OWN_BAR = PIN
"""Tabla: the mover's checkers on the bar."""
OPP_BAR = PIN + 1
"""Tabla: the opponent's checkers on the bar."""
NEXT = PIN
"""Gulbara: ``+1`` when the side whose frame the row is in moves next, ``-1`` when the other."""
CLIMB = PIN + 1
"""Gulbara: the double the side moving next must play before it may roll; 0: it rolls."""
CLIMB_DICE = PIN + 2
"""Gulbara: how many dice of that double are left (1-4; 0 with no climb)."""
HANDED = PIN + 3
"""Gulbara: 1 when the side moving next was handed those numbers by the other side."""
OWN_TURNS = PIN + 4
"""Gulbara: the turns (rolls) the frame's side has had, counted up to 3."""
OPP_TURNS = PIN + 5
"""Gulbara: the same for the other side."""
COUNTED_TURNS = 3
GULBARA_START = 11
"""Gulbara: the opponent starts on the mover's point 12 (column ``OPP + 11``): both sides
run the same way round, so the opponent's point ``q`` is the mover's ``q + 12`` (or
``q - 12``)."""
TABLA_START = {24: 2, 13: 5, 8: 3, 6: 5}
"""Tabla: the standard backgammon start of each side, in its own numbering."""


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


def initial_rows(batch: int = 1, game: str = "tapa") -> np.ndarray:
    """The starting position of ``game`` ``batch`` times. Tapa (R1): 15 mover checkers on
    24, 15 opponent on 1. Tabla (T1): 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side.
    Gulbara (G1): 15 on each side's own 24, the mover's 24 and 12."""
    rows = np.zeros((batch, ROW_WIDTH), dtype=ROW_DTYPE)
    if game == "tabla":
        for point, count in TABLA_START.items():
            rows[:, OWN + point - 1] = count
            rows[:, OPP + POINTS - point] = count
    elif game == "gulbara":
        rows[:, OWN + 23] = CHECKERS
        rows[:, OPP + GULBARA_START] = CHECKERS
        rows[:, NEXT] = 1
    else:
        rows[:, OWN + 23] = CHECKERS
        rows[:, OPP + 0] = CHECKERS
    return rows


def own_off(rows: np.ndarray, game: str = "tapa") -> np.ndarray:
    """Checkers the mover has borne off, per row: ``int64`` array of shape ``(B,)``."""
    rows = as_rows(rows)
    bar = rows[:, OWN_BAR].astype(np.int64) if game == "tabla" else 0
    return CHECKERS - rows[:, OWN_COLUMNS].sum(axis=1, dtype=np.int64) - bar


def opp_off(rows: np.ndarray, game: str = "tapa") -> np.ndarray:
    """Checkers the opponent has borne off, per row: ``int64`` array of shape ``(B,)``."""
    rows = as_rows(rows)
    bar = rows[:, OPP_BAR].astype(np.int64) if game == "tabla" else 0
    return CHECKERS - rows[:, OPP_COLUMNS].sum(axis=1, dtype=np.int64) - bar


def flip(rows: np.ndarray, game: str = "tapa") -> np.ndarray:
    """The same positions of ``game`` seen by the other side, for a batch ``(B, ROW_WIDTH)``.

    Tapa and Tabla: the opponent's point ``p`` is the mover's point ``25 - p``, so each block
    is reversed and the sides swap; so do the sign of every pin (Tapa) and the two bars
    (Tabla). Gulbara: both sides run the same way, so the opponent's point ``p`` is the
    mover's ``p + 12`` (modulo 24); the turn counts swap, ``NEXT`` changes sign, and the climb
    (which belongs to the side moving next) stays. Flipping twice gives the rows back.
    """
    rows = as_rows(rows)
    flipped = np.empty_like(rows)
    if game == "gulbara":
        flipped[:, OWN_COLUMNS] = np.roll(rows[:, OPP_COLUMNS], -12, axis=1)
        flipped[:, OPP_COLUMNS] = np.roll(rows[:, OWN_COLUMNS], -12, axis=1)
        flipped[:, PIN_COLUMNS] = rows[:, PIN_COLUMNS]
        flipped[:, NEXT] = -rows[:, NEXT]
        flipped[:, OWN_TURNS] = rows[:, OPP_TURNS]
        flipped[:, OPP_TURNS] = rows[:, OWN_TURNS]
        return flipped
    flipped[:, OWN_COLUMNS] = rows[:, OPP_COLUMNS][:, ::-1]
    flipped[:, OPP_COLUMNS] = rows[:, OWN_COLUMNS][:, ::-1]
    if game == "tabla":
        flipped[:, PIN_COLUMNS] = rows[:, PIN_COLUMNS]
        flipped[:, OWN_BAR] = rows[:, OPP_BAR]
        flipped[:, OPP_BAR] = rows[:, OWN_BAR]
        return flipped
    flipped[:, PIN_COLUMNS] = -rows[:, PIN_COLUMNS][:, ::-1]
    return flipped


def next_turn(rows: np.ndarray, game: str = "tapa") -> tuple[np.ndarray, np.ndarray]:
    """The positions that follow the afterstates ``rows``, each seen by its side to move.

    Returns ``(rows, passed)``: ``passed[i]`` is true where the turn passed to the other side
    (the row is flipped). In Tapa and Tabla it always does; in Gulbara the side that moved
    goes on where its afterstate says so (``NEXT`` is ``+1``: a climb to play, or its own
    roll after numbers handed to it, G5 and G6).
    """
    rows = as_rows(rows)
    if game != "gulbara":
        return flip(rows, game), np.ones(rows.shape[0], dtype=bool)
    passed = rows[:, NEXT] != 1
    following = rows.copy()
    following[passed] = flip(rows[passed], game)
    return following, passed


def climb_dice(rows: np.ndarray, dice: np.ndarray, game: str = "tapa") -> np.ndarray:
    """``dice`` with each Gulbara row that has a climb to play given that double (G5)."""
    if game != "gulbara":
        return dice
    climb = as_rows(rows)[:, CLIMB].astype(np.int64)
    climbing = climb > 0
    if climbing.any():
        dice = np.array(dice, dtype=np.int64)
        dice[climbing] = climb[climbing, None]
    return dice
