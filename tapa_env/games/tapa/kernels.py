"""Tapa's hooks for the compiled engine (docs/rules.md, R3-R10): its search state, its legal
checker moves and when a move ends the game (:mod:`tapa_env.engine.dispatch` lists the hooks).

The search state is the engine's four words: the mover's counts ``low`` and ``high``, the
``extra`` word, here a bit mask of the opponent checkers the mover pins, and the mover's
occupied points. During the mover's turn only its counts and its pins change; which points
are open to it (R4) does not. So the turn's constant masks, written by :func:`turn_state`
into ``turn``, are:

* ``turn[0]``: the points open to the mover (R4): no opponent checker, a lone one, or one
  pinned under the mover's;
* ``turn[1]``: the mover's own pinned checkers (they cannot move);
* ``turn[2]``: the lone opponent checkers it could pin (R5);
* ``turn[3]``: 1 when a pinned mover checker blocks its bear-off (R7).

A pin is a move's only lasting effect beyond the counts: a checker landing on a lone opponent
checker pins it, and the last pinner leaving frees it. After every single move the game may
end (R8-R10): the mover's 15th checker off, or the opponent's mother pinned.
"""

from __future__ import annotations

import numba as nb

from ...engine.bits import forward_sources, land, lift, read_counts, write_counts
from ...engine.defaults import (
    accepts,
    dice_to_play,
    has_preference,
    in_order,
    prefers,
    records_prefixes,
    turn_columns,
    write_turn,
)
from ...layout import OPP, PIN, POINTS

# Indices into the flags array of Rules.flags().
_PINNED_BLOCKS_BEAR_OFF = 0
_MOTHER_NEEDS_EMPTY_START = 1
_BOTH_MOTHERS_DRAW = 2
_WIN_CHECKED_EACH_MOVE = 3

_MOTHER = POINTS - 1  # the mover's own mother sits on its 24-point


@nb.njit(cache=True, nogil=True, inline="always")
def turn_state(row, flags, turn):
    """The search state ``(low, high, pinned, occupied)`` of a position row at the start of
    its mover's turn; writes the turn's constant masks into ``turn`` (int64 ``(4,)``)."""
    low, high, occupied = read_counts(row)
    pinned = open_points = own_pinned = lone_opponent = 0
    for p in range(POINTS):
        opponent = row[OPP + p]
        pin = row[PIN + p]
        if pin == 1:
            pinned |= 1 << p
        elif pin == -1:
            own_pinned |= 1 << p
        # Held by the opponent: two or more of its checkers, or one on a pinned one (R4).
        if pin == 1 or (pin == 0 and opponent <= 1):
            open_points |= 1 << p
        if opponent == 1 and pin != -1:
            lone_opponent |= 1 << p
    turn[0] = open_points
    turn[1] = own_pinned
    turn[2] = lone_opponent
    turn[3] = 1 if own_pinned and flags[_PINNED_BLOCKS_BEAR_OFF] else 0
    return low, high, pinned, occupied


@nb.njit(cache=True, nogil=True, inline="always")
def legal_sources(low, high, pinned, occupied, die, turn):
    """Bit mask of the points whose mover checker may move ``die`` pips (R3, R4, R5, R7): not
    a pinned one, onto an open point, or off while no pin blocks the bear-off."""
    return forward_sources(occupied, occupied & ~turn[1], turn[0], die, turn[3] == 0)


@nb.njit(cache=True, nogil=True, inline="always")
def move(low, high, pinned, occupied, source, die, turn):
    """The search state after one checker moves ``die`` pips from ``source`` (R5)."""
    low, high, occupied = lift(low, high, occupied, source)
    if not (occupied >> source) & 1:
        pinned &= ~(1 << source)  # the last pinner left: the pinned checker is free
    target = source - die
    if target >= 0:
        low, high, occupied = land(low, high, occupied, target)
        pinned |= turn[2] & (1 << target)
    return low, high, pinned, occupied


@nb.njit(cache=True, nogil=True, inline="always")
def checks_each_move(flags):
    """Whether the game may end part-way through a play (R6's ``win_checked_each_move``)."""
    return flags[_WIN_CHECKED_EACH_MOVE] != 0


@nb.njit(cache=True, nogil=True, inline="always")
def ends_out_of_order(turn, flags):
    """Whether a double's move may end the game from a node whatever the order of its
    sources: only pinning the opponent's mother (on the mover's point 1) or a pinner leaving
    its start can end a game before the last die."""
    return flags[_WIN_CHECKED_EACH_MOVE] != 0 and turn[2] & 1 != 0


@nb.njit(cache=True, nogil=True, inline="always")
def game_ended(low, high, pinned, occupied, turn, flags):
    """Whether the mover's play has ended the game (R8, R9, R10)."""
    if occupied == 0:
        return True  # the 15th checker is off
    if pinned & 1:  # the opponent's mother, its lone checker on point 1, is pinned
        if (turn[1] >> _MOTHER) & 1 and flags[_BOTH_MOTHERS_DRAW]:
            return True
        if not (occupied >> _MOTHER) & 1 or not flags[_MOTHER_NEEDS_EMPTY_START]:
            return True
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def write_afterstate(out, index, row, low, high, pinned):
    """Write into ``out[index]`` the position ``row`` with the mover's counts and pins
    replaced by the state words."""
    write_counts(out, index, low, high)
    for p in range(POINTS):
        out[index, OPP + p] = row[OPP + p]
        out[index, PIN + p] = -1 if row[PIN + p] == -1 else (pinned >> p) & 1


__all__ = [
    "accepts", "checks_each_move", "dice_to_play", "ends_out_of_order", "game_ended",
    "has_preference", "in_order", "legal_sources", "move", "prefers", "records_prefixes",
    "turn_columns", "turn_state", "write_afterstate", "write_turn",
]  # fmt: skip
