"""How a game ended, by name: the kinds the arena counts, a record writes and training logs.

A finished game is a single win, a double win (a Tapa gammon, or a Tabla or Gulbara mars),
a Tapa mother win (the winner's mother checker still pinned, R9) or a draw (R10); a game
stopped before its end is unfinished. :data:`KINDS` names them in that order, and arrays of
results hold an int8 index into it.

>>> import numpy as np
>>> from tapa_env import Position
>>> KINDS[int(result_kinds(Position.initial().row[None, :], np.array([0]))[0])]
'draw'
"""

from __future__ import annotations

import numpy as np

from tapa_env.layout import OPP_COLUMNS, OWN_COLUMNS

KINDS = ("single", "gammon", "mother", "draw", "unfinished")
SINGLE, GAMMON, MOTHER, DRAW, UNFINISHED = range(len(KINDS))


def result_kinds(afterstates: np.ndarray, points: np.ndarray) -> np.ndarray:
    """How finished games ended: int8 indices into :data:`KINDS` (never ``unfinished``).

    Args:
        afterstates: ``(G, ROW_WIDTH)`` the afterstate that ended each game, in the frame of
            the side that just moved.
        points: ``(G,)`` that side's points (``+2`` .. ``-2``; ``0`` a draw, R10).
    """
    points = np.asarray(points)
    mover_bore_off = afterstates[:, OWN_COLUMNS].sum(axis=1) == 0
    opponent_bore_off = afterstates[:, OPP_COLUMNS].sum(axis=1) == 0
    winner_bore_off = np.where(points > 0, mover_bore_off, opponent_bore_off)
    kinds = np.where(winner_bore_off, np.where(np.abs(points) == 1, SINGLE, GAMMON), MOTHER)
    return np.where(points == 0, DRAW, kinds).astype(np.int8)
