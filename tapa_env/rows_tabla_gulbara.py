"""What makes a Tabla or a Gulbara row a position (docs/formats.md), checked for a batch.

Tapa's checks live in :mod:`tapa_env.position`; these are the other two games'. Both games:
counts 0 to 15, no point shared by the two colours, at most 15 checkers of a side. Tabla: the
bars hold 0 to 15 and count with the side's checkers; the rest of the third block is zero.
Gulbara: the turn columns hold what :mod:`tapa_env.layout` says and the rest is zero; and, for a
``Position`` (:func:`unreached_problem`), in a state a game reaches: a climb after the opening,
a side's own climb whole and its own to play, turns that alternate, no checker moved without a
turn (docs/formats.md, "Gulbara").
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import (
    CHECKERS,
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    GULBARA_START,
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

OPENING_TURNS = 4
"""Gulbara: the turns both sides have had together, at least, once a double can climb (G5)."""
_OWN_START = OWN + POINTS - 1
"""Gulbara: the mover's starting point 24."""
_OPP_START = OPP + GULBARA_START
"""Gulbara: the opponent's starting point, the mover's 12."""

_TABLA_USED = (OWN_BAR, OPP_BAR)
_GULBARA_USED = (NEXT, CLIMB, CLIMB_DICE, HANDED, OWN_TURNS, OPP_TURNS)


@nb.njit(cache=True, nogil=True)
def first_bad_row(rows, tabla):
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 rows of Tabla (``tabla``) or Gulbara
    that is not a position (:func:`row_problem` says why), or -1 when every row is one."""
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
        if tabla:
            own_bar, opp_bar = row[OWN_BAR], row[OPP_BAR]
            bad |= (own_bar < 0) | (own_bar > CHECKERS) | (opp_bar < 0) | (opp_bar > CHECKERS)
            own_total += own_bar
            opp_total += opp_bar
            first_unused = OPP_BAR + 1
        else:
            climb, left, handed, next_ = row[CLIMB], row[CLIMB_DICE], row[HANDED], row[NEXT]
            bad |= (next_ != 1) & (next_ != -1)
            bad |= (climb < 0) | (climb > 6) | (left < 0) | (left > 4)
            bad |= (climb == 0) != (left == 0)
            bad |= (handed < 0) | (handed > 1) | ((handed == 1) & (climb == 0))
            for column in (OWN_TURNS, OPP_TURNS):
                bad |= (row[column] < 0) | (row[column] > COUNTED_TURNS)
            first_unused = OPP_TURNS + 1
        for column in range(first_unused, ROW_WIDTH):
            bad |= row[column] != 0
        if bad or own_total > CHECKERS or opp_total > CHECKERS:
            return i
    return -1


def row_problem(row: np.ndarray, game: str) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row of ``game`` is not a position, or ``None``."""
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
            rule = (
                "a point with two or more checkers is held and a lone one is hit"
                if game == "tabla"
                else "one checker holds a point and nothing is hit"
            )
            return (
                f"point {index + 1} has {own[index]} mover and {opp[index]} opponent checkers; "
                f"both colours never share a point in {game} ({rule})"
            )
    used = _TABLA_USED if game == "tabla" else _GULBARA_USED
    for column in range(PIN, ROW_WIDTH):
        if column not in used and row[column] != 0:
            return f"column {column} is {row[column]}; {game} rows keep it 0"
    own_total, opp_total = own.sum(), opp.sum()
    if game == "tabla":
        for name, column in (("own_bar", OWN_BAR), ("opp_bar", OPP_BAR)):
            if not 0 <= row[column] <= CHECKERS:
                return f"{name} is {row[column]}; a bar holds 0 to {CHECKERS} checkers"
        own_total += row[OWN_BAR]
        opp_total += row[OPP_BAR]
        where = "on the board and the bar"
    else:
        problem = _gulbara_turn_problem(row)
        if problem:
            return problem
        where = "on the board"
    for side, total in (("own", own_total), ("opp", opp_total)):
        if total > CHECKERS:
            return f"{side} has {total} checkers {where}, over {CHECKERS}"
    return None


def _gulbara_turn_problem(row: np.ndarray) -> str | None:
    next_, climb, left, handed = row[NEXT], row[CLIMB], row[CLIMB_DICE], row[HANDED]
    if next_ not in (1, -1):
        return f"next is {next_}; it says who moves next: +1 own, -1 opp"
    if not 0 <= climb <= 6:
        return f"climb is {climb}; it is the double still to play, 1 to 6, or 0 for none"
    if not 0 <= left <= 4:
        return f"climb_dice is {left}; a double has 1 to 4 dice left (0 with no climb)"
    if (climb == 0) != (left == 0):
        return f"climb {climb} with climb_dice {left}: both are 0, or neither is"
    if handed not in (0, 1):
        return f"handed is {handed}; it is 0 or 1"
    if handed and not climb:
        return "handed is set with no climb to play; handed numbers are a climb"
    for name, column in (("own_turns", OWN_TURNS), ("opp_turns", OPP_TURNS)):
        if not 0 <= row[column] <= COUNTED_TURNS:
            return f"{name} is {row[column]}; turns are counted 0 to {COUNTED_TURNS}"
    return None


def unreached_problem(row: np.ndarray) -> str | None:
    """The first way the turn state of a Gulbara row that :func:`row_problem` passes is one
    that no game reaches (G1, G5, G6; docs/formats.md, "Gulbara"), or ``None``.

    :class:`tapa_env.Position` checks it, where positions come in; the batched engine does
    not, and plays any turn state whose fields are in range.
    """
    row = row.astype(np.int64)
    own_total, opp_total = row[OWN_COLUMNS].sum(), row[OPP_COLUMNS].sum()
    climb, left, handed = row[CLIMB], row[CLIMB_DICE], row[HANDED]
    turns = {"own": row[OWN_TURNS], "opp": row[OPP_TURNS]}
    next_ = "own" if row[NEXT] == 1 else "opp"
    if climb and not handed:
        if next_ != "own":
            return (
                f"next is opp with climb {climb} not handed: a side plays its own climb before "
                "the turn passes, so a climb the other side plays was handed over (G6)"
            )
        if left != 4:
            return (
                f"climb {climb} with climb_dice {left} not handed: a side's own climb plays "
                "whole doubles, 4 dice; fewer are left only of numbers handed over (G6)"
            )
        if climb < 2:
            return (
                "climb 1 not handed: a side's own climb goes on from the double above the one "
                "it rolled, 2 to 6; a 1-1 is only handed over (G6)"
            )
    if climb and turns["own"] + turns["opp"] < OPENING_TURNS:
        return (
            f"climb {climb} with own_turns {turns['own']} and opp_turns {turns['opp']}: a double "
            f"climbs only after the opening, when both sides have had {OPENING_TURNS} turns or "
            "more together (G5)"
        )
    for side, column in (("own", _OWN_START), ("opp", _OPP_START)):
        if turns[side] == 0 and row[column] != CHECKERS:
            start = POINTS if side == "own" else GULBARA_START + 1
            return (
                f"{side}_turns is 0 but {side} has moved: a side that has had no turn has all "
                f"{CHECKERS} checkers on its starting point, the mover's {start} (G1)"
            )
    if own_total and opp_total:
        roller = next_ if not climb or handed else ("opp" if next_ == "own" else "own")
        other = "opp" if roller == "own" else "own"
        if not turns[other] - 1 <= turns[roller] <= turns[other]:
            return (
                f"own_turns {turns['own']} and opp_turns {turns['opp']} with {roller} to roll "
                f"next: turns alternate, so the side to roll next has had as many turns as the "
                "other or one fewer"
            )
    return None
