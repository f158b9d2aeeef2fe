"""What makes a row of a game without pins a position (docs/formats.md), checked for a batch:
Tabla's, Gulbara's and Fevga's rows, whose third block holds the bars, the turn state or
nothing.

Every such game: counts 0 to 15, no point shared by the two colours, at most 15 checkers of a
side. With a bar (Tabla): the bars hold 0 to 15 and count with the side's checkers; the rest
of the third block is zero. With a turn state (Gulbara): the turn columns hold what
:mod:`tapa_env.layout` says and the rest is zero; the game's rows module checks the turn state
further. With neither (Fevga) the third block is zero.
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

from ..layout import (
    CHECKERS,
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    HANDED,
    NEXT,
    OPP,
    OPP_BAR,
    OPP_COLUMNS,
    OPP_TURNS,
    OWN,
    OWN_BAR,
    OWN_COLUMNS,
    OWN_TURNS,
    PIN,
    POINTS,
    ROW_WIDTH,
)

NOTHING, BARS, TURN_STATE = 0, 1, 2
"""What a row's third block holds, for :func:`first_bad_row`."""
BAR_COLUMNS = (OWN_BAR, OPP_BAR)
"""The third block's columns a row with a bar uses."""
TURN_COLUMNS = (NEXT, CLIMB, CLIMB_DICE, HANDED, OWN_TURNS, OPP_TURNS)
"""The third block's columns a row with a turn state uses."""


@nb.njit(cache=True, nogil=True)
def first_bad_row(rows, third):
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 rows whose third block holds
    ``third`` (:data:`NOTHING`, :data:`BARS` or :data:`TURN_STATE`) that is not a position
    (:func:`row_problem` says why), or -1 when every row is one."""
    for i in range(rows.shape[0]):
        row = rows[i]
        own_total = 0
        opp_total = 0
        bad = False
        for p in range(POINTS):
            own = row[OWN + p]
            opp = row[OPP + p]
            bad |= (own < 0) | (own > CHECKERS) | (opp < 0) | (opp > CHECKERS)
            bad |= (own > 0) & (opp > 0)
            own_total += own
            opp_total += opp
        if third == BARS:
            own_bar, opp_bar = row[OWN_BAR], row[OPP_BAR]
            bad |= (own_bar < 0) | (own_bar > CHECKERS) | (opp_bar < 0) | (opp_bar > CHECKERS)
            own_total += own_bar
            opp_total += opp_bar
            first_unused = OPP_BAR + 1
        elif third == TURN_STATE:
            climb, left, handed, next_ = row[CLIMB], row[CLIMB_DICE], row[HANDED], row[NEXT]
            bad |= (next_ != 1) & (next_ != -1)
            bad |= (climb < 0) | (climb > 6) | (left < 0) | (left > 4)
            bad |= (climb == 0) != (left == 0)
            bad |= (handed < 0) | (handed > 1) | ((handed == 1) & (climb == 0))
            for column in (OWN_TURNS, OPP_TURNS):
                bad |= (row[column] < 0) | (row[column] > COUNTED_TURNS)
            first_unused = OPP_TURNS + 1
        else:
            first_unused = PIN
        for column in range(first_unused, ROW_WIDTH):
            bad |= row[column] != 0
        if bad or own_total > CHECKERS or opp_total > CHECKERS:
            return i
    return -1


def row_problem(
    row: np.ndarray,
    name: str,
    landing: str,
    bar: bool,
    turn_problem: Callable[[np.ndarray], str | None] | None = None,
) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row of the game ``name`` is not a position, or
    ``None``; ``landing`` says why the colours never share a point, ``bar`` whether the row has
    bars, ``turn_problem`` checks its turn state (a row with neither keeps its third block
    zero)."""
    row = row.astype(np.int64)
    own, opp = row[OWN_COLUMNS], row[OPP_COLUMNS]
    for side, counts in (("own", own), ("opp", opp)):
        for index, count in enumerate(counts):
            if not 0 <= count <= CHECKERS:
                return (
                    f"{side}[{index}] (point {index + 1}) has {count} checkers; "
                    f"a point holds 0 to {CHECKERS}"
                )
    for index in range(POINTS):
        if own[index] and opp[index]:
            return (
                f"point {index + 1} has {own[index]} mover and {opp[index]} opponent checkers; "
                f"both colours never share a point in {name} ({landing})"
            )
    used = BAR_COLUMNS if bar else TURN_COLUMNS if turn_problem is not None else ()
    for column in range(PIN, ROW_WIDTH):
        if column not in used and row[column] != 0:
            return f"column {column} is {row[column]}; {name} rows keep it 0"
    own_total, opp_total = own.sum(), opp.sum()
    where = "on the board"
    if bar:
        for side, column in (("own_bar", OWN_BAR), ("opp_bar", OPP_BAR)):
            if not 0 <= row[column] <= CHECKERS:
                return f"{side} is {row[column]}; a bar holds 0 to {CHECKERS} checkers"
        own_total += row[OWN_BAR]
        opp_total += row[OPP_BAR]
        where = "on the board and the bar"
    problem = turn_problem(row) if turn_problem is not None else None
    if problem:
        return problem
    for side, total in (("own", own_total), ("opp", opp_total)):
        if total > CHECKERS:
            return f"{side} has {total} checkers {where}, over {CHECKERS}"
    return None
