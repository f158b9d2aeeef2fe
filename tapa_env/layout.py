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

from .games import DEFAULT_GAME
from .games import game as registered

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
BAR_POINT = POINTS + 1
"""A checker on the bar as the source point of a move: 25."""
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
"""Gulbara: the turns of each side a row counts, all the climbing rule needs (G5)."""


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


def initial_rows(batch: int = 1, game: str = DEFAULT_GAME) -> np.ndarray:
    """The starting position of ``game`` ``batch`` times: ``(batch, ROW_WIDTH)`` int8
    (Tapa's R1 by default; each game's rows module says its own)."""
    return registered(game).rows.initial_rows(batch)


def mirror(rows: np.ndarray) -> np.ndarray:
    """The ``(B, ROW_WIDTH)`` rows with each side's points reversed and the sides swapped, the
    third block copied as it is: the flip of a game whose sides run opposite ways round (the
    opponent's point ``p`` is the mover's ``25 - p``), before what its third block needs."""
    rows = as_rows(rows)
    flipped = np.empty_like(rows)
    flipped[:, OWN_COLUMNS] = rows[:, OPP_COLUMNS][:, ::-1]
    flipped[:, OPP_COLUMNS] = rows[:, OWN_COLUMNS][:, ::-1]
    flipped[:, PIN_COLUMNS] = rows[:, PIN_COLUMNS]
    return flipped


def own_off(rows: np.ndarray, game: str = DEFAULT_GAME) -> np.ndarray:
    """Checkers the mover has borne off, per row: ``int64`` array of shape ``(B,)``."""
    rows = as_rows(rows)
    bar = rows[:, OWN_BAR].astype(np.int64) if registered(game).bar else 0
    return CHECKERS - rows[:, OWN_COLUMNS].sum(axis=1, dtype=np.int64) - bar


def opp_off(rows: np.ndarray, game: str = DEFAULT_GAME) -> np.ndarray:
    """Checkers the opponent has borne off, per row: ``int64`` array of shape ``(B,)``."""
    rows = as_rows(rows)
    bar = rows[:, OPP_BAR].astype(np.int64) if registered(game).bar else 0
    return CHECKERS - rows[:, OPP_COLUMNS].sum(axis=1, dtype=np.int64) - bar


def flip(rows: np.ndarray, game: str = DEFAULT_GAME) -> np.ndarray:
    """The same positions of ``game`` seen by the other side, for a batch ``(B, ROW_WIDTH)``.

    In Tapa and Tabla the opponent's point ``p`` is the mover's point ``25 - p``; in
    Gulbara, where both sides run the same way, ``p + 12`` (modulo 24). Each game's rows
    module says what else changes sides. Flipping twice gives the rows back.
    """
    return registered(game).rows.flip(as_rows(rows))


def next_turn(rows: np.ndarray, game: str = DEFAULT_GAME) -> tuple[np.ndarray, np.ndarray]:
    """The positions that follow the afterstates ``rows``, each seen by its side to move.

    Returns ``(rows, passed)``: ``passed[i]`` is true where the turn passed to the other side
    (the row is flipped). It always does, except in a game where a side may move again
    (:attr:`tapa_env.games.Game.moves_again`: Gulbara's climbing doubles, G5 and G6).
    """
    return registered(game).rows.next_turn(as_rows(rows))


def climb_dice(rows: np.ndarray, dice: np.ndarray, game: str = DEFAULT_GAME) -> np.ndarray:
    """``dice`` with each row that must play a given roll given it (a Gulbara row with a
    climbing double to play takes that double, G5); the dice as they are otherwise."""
    return registered(game).rows.turn_dice(as_rows(rows), dice)
