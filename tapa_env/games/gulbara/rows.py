"""Gulbara's rows (:mod:`tapa_env.layout`): the start (G1), the flip, the turn that passes or
not, and what makes a row a position (:mod:`tapa_env.games.race_rows`, with the turn state in
the third block) and a state a game reaches: a climb after the opening, a side's own climb
whole and its own to play, turns that alternate, no checker moved without a turn
(docs/formats.md, "Gulbara")."""

from __future__ import annotations

import numpy as np

from ...layout import (
    CHECKERS,
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    HANDED,
    NEXT,
    OPP,
    OPP_COLUMNS,
    OPP_TURNS,
    OWN,
    OWN_COLUMNS,
    OWN_TURNS,
    PIN_COLUMNS,
    POINTS,
    ROW_DTYPE,
    ROW_WIDTH,
)
from .. import race_rows

START = 11
"""The opponent starts on the mover's point 12 (column ``OPP + 11``): both sides run the same
way round, so the opponent's point ``q`` is the mover's ``q + 12`` (or ``q - 12``)."""
OPENING_TURNS = 4
"""The turns both sides have had together, at least, once a double can climb (G5)."""
_OWN_START = OWN + POINTS - 1
"""The mover's starting point 24."""
_OPP_START = OPP + START
"""The opponent's starting point, the mover's 12."""
_HELD = "one checker holds a point and nothing is hit"


def initial_rows(batch: int) -> np.ndarray:
    """G1: 15 on each side's own 24, the mover's 24 and 12; the mover moves next."""
    rows = np.zeros((batch, ROW_WIDTH), dtype=ROW_DTYPE)
    rows[:, OWN + 23] = CHECKERS
    rows[:, OPP + START] = CHECKERS
    rows[:, NEXT] = 1
    return rows


def flip(rows: np.ndarray) -> np.ndarray:
    """The rows seen by the other side: its point ``p`` is our ``p + 12`` (modulo 24); the
    turn counts swap, ``NEXT`` changes sign, and the climb (which belongs to the side moving
    next) stays."""
    flipped = np.empty_like(rows)
    flipped[:, OWN_COLUMNS] = np.roll(rows[:, OPP_COLUMNS], -12, axis=1)
    flipped[:, OPP_COLUMNS] = np.roll(rows[:, OWN_COLUMNS], -12, axis=1)
    flipped[:, PIN_COLUMNS] = rows[:, PIN_COLUMNS]
    flipped[:, NEXT] = -rows[:, NEXT]
    flipped[:, OWN_TURNS] = rows[:, OPP_TURNS]
    flipped[:, OPP_TURNS] = rows[:, OWN_TURNS]
    return flipped


def next_turn(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The side that moved goes on where its afterstate says so (``NEXT`` is ``+1``: a climb
    to play, or its own roll after numbers handed to it, G5 and G6); elsewhere the turn
    passes and the row is flipped."""
    passed = rows[:, NEXT] != 1
    following = rows.copy()
    following[passed] = flip(rows[passed])
    return following, passed


def turn_dice(rows: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """``dice`` with each row that has a climb to play given that double (G5)."""
    climb = rows[:, CLIMB].astype(np.int64)
    climbing = climb > 0
    if climbing.any():
        dice = np.array(dice, dtype=np.int64)
        dice[climbing] = climb[climbing, None]
    return dice


def first_bad_row(rows: np.ndarray) -> int:
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 rows that is not a Gulbara position
    (:func:`row_problem` says why), or -1 when every row is one."""
    return race_rows.first_bad_row(rows, race_rows.TURN_STATE)


def row_problem(row: np.ndarray) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row is not a Gulbara position, or ``None``."""
    return race_rows.row_problem(row, "gulbara", _HELD, bar=False, turn_problem=_turn_problem)


def waiting_problem(row: np.ndarray) -> str | None:
    """Why the row is not its mover's turn (its ``next`` is the other side), or ``None``."""
    if row[NEXT] != 1:
        return (
            "it is the other side's turn (next is opp): give it flipped, seen by the side to move"
        )
    return None


def dice_problem(row: np.ndarray, dice: tuple[int, int]) -> str | None:
    """Why the row cannot play ``dice``: it has a climbing double to play (G5); or ``None``."""
    climb = int(row[CLIMB])
    if climb and (int(dice[0]) != climb or int(dice[1]) != climb):
        return (
            f"the position has the climbing double {climb}-{climb} to play (G5), not the roll "
            f"{int(dice[0])}-{int(dice[1])}"
        )
    return None


def _turn_problem(row: np.ndarray) -> str | None:
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
            start = POINTS if side == "own" else START + 1
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
