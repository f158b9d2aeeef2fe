"""Tabla's hooks for the compiled engine (docs/rules.md, T3-T7): backgammon's checker moves,
with hits and the bar (:mod:`tapa_env.engine.dispatch` lists the hooks).

The search state is the engine's four words: the mover's counts ``low`` and ``high``, the
``extra`` word, here the mover's checkers on the bar (its low four bits) and the points where
it hit a blot this turn (a bit a point above them), and the mover's occupied points. The
turn's constant masks, written by :func:`turn_state` into ``turn``, are:

* ``turn[0]``: the points open to the mover: fewer than two opponent checkers (T4);
* ``turn[1]``: the opponent's blots, hit by a checker landing there (T4);
* ``turn[2]``, ``turn[3]``: 0.

A mover with checkers on the bar enters them first, on its point ``25 - die`` (T5); the bar
is source 24, above every point. The game ends only when the mover bears off its last
checker, and no move can follow that one, so no move is checked for a win: a play that wins
with fewer dice than another play could use is not a longest play, hence not legal (T6).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...engine.bits import BAR, forward_sources, land, lift, read_counts, write_counts
from ...engine.defaults import (
    accepts,
    checks_each_move,
    dice_to_play,
    ends_out_of_order,
    has_preference,
    in_order,
    prefers,
    records_prefixes,
    turn_columns,
    write_turn,
)
from ...layout import OPP, OPP_BAR, OWN_BAR, POINTS

_BAR_COUNT = 15  # the bar's count: the low four bits of the extra word
_HITS = 4  # the hit points' bits start above it


@nb.njit(cache=True, nogil=True, inline="always")
def turn_state(row, flags, turn):
    """The search state ``(low, high, bar, occupied)`` of a position row at the start of its
    mover's turn; writes the turn's constant masks into ``turn`` (int64 ``(4,)``)."""
    low, high, occupied = read_counts(row)
    open_points = blots = 0
    for p in range(POINTS):
        opponent = row[OPP + p]
        if opponent <= 1:
            open_points |= 1 << p
        if opponent == 1:
            blots |= 1 << p
    turn[0] = open_points
    turn[1] = blots
    turn[2] = 0
    turn[3] = 0
    return low, high, np.int64(row[OWN_BAR]), occupied


@nb.njit(cache=True, nogil=True, inline="always")
def legal_sources(low, high, bar, occupied, die, turn):
    """Bit mask of the sources (0-23: points 1-24; 24: the bar) whose checker may move ``die``
    pips now (T4, T5, T7)."""
    if bar & _BAR_COUNT:  # checkers on the bar enter first, on the mover's point 25 - die
        return (1 << BAR) if (turn[0] >> (POINTS - die)) & 1 else 0
    return forward_sources(occupied, occupied, turn[0], die, True)


@nb.njit(cache=True, nogil=True, inline="always")
def move(low, high, bar, occupied, source, die, turn):
    """The search state after one checker moves ``die`` pips from ``source`` (24: the bar);
    a blot it lands on is hit, once."""
    if source == BAR:
        bar -= 1
        target = POINTS - die
    else:
        low, high, occupied = lift(low, high, occupied, source)
        target = source - die
    if target >= 0:
        low, high, occupied = land(low, high, occupied, target)
        if (turn[1] >> target) & 1:
            bar |= 1 << (_HITS + target)
    return low, high, bar, occupied


@nb.njit(cache=True, nogil=True, inline="always")
def game_ended(low, high, bar, occupied, turn, flags):
    """Whether the mover has borne off its last checker, the only way a game ends (T8)."""
    return occupied == 0 and bar & _BAR_COUNT == 0


@nb.njit(cache=True, nogil=True, inline="always")
def write_afterstate(out, index, row, low, high, bar):
    """Write into ``out[index]`` the position ``row`` with the mover's counts and bar
    replaced by the state words, and the blots hit this turn moved to the opponent's bar."""
    out[index, :] = row
    write_counts(out, index, low, high)
    hits = 0
    for p in range(POINTS):
        if (bar >> (_HITS + p)) & 1:
            out[index, OPP + p] = 0
            hits += 1
    out[index, OWN_BAR] = bar & _BAR_COUNT
    out[index, OPP_BAR] = row[OPP_BAR] + hits


__all__ = [
    "accepts", "checks_each_move", "dice_to_play", "ends_out_of_order", "game_ended",
    "has_preference", "in_order", "legal_sources", "move", "prefers", "records_prefixes",
    "turn_columns", "turn_state", "write_afterstate", "write_turn",
]  # fmt: skip
