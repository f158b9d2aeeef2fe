"""Fevga's hooks for the compiled engine (docs/rules.md, F3-F8, F11): both sides run the same
way, one checker holds a point and nothing is hit; the first checker runs ahead alone, a side
never holds its whole starting quarter, and a trapped opponent is let out
(:mod:`tapa_env.engine.dispatch` lists the hooks).

The search state is the engine's four words: the mover's counts ``low`` and ``high``, an
``extra`` word that stays 0 and the mover's occupied points. The turn's constant masks,
written by :func:`turn_state` into ``turn``, are:

* ``turn[0]``: the points open to the mover: no opponent checker there (F4);
* ``turn[1]``: the turn's bits (``_FREED`` ... ``_IN_ORDER`` below);
* ``turn[2]``: the wall zone under ``six_prime_needs_checker_ahead`` (F7, as Gulbara's G7);
* ``turn[3]``: the opponent's points in its own numbering, for the trap (F7).

Two rules judge a play by where it ends (F11): under ``starting_quarter_at_play_end`` a play
ending on the whole starting quarter is no play (:func:`accepts`, and the search records
every shorter play too, :func:`records_prefixes`); and the trap (F7) picks, among the plays
the dice allow, those that leave the opponent free when any does (:func:`prefers`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...engine.bits import forward_sources, land, lift, lowest_bit, read_counts, write_counts
from ...engine.defaults import (
    checks_each_move,
    dice_to_play,
    ends_out_of_order,
    turn_columns,
    write_turn,
)
from ...layout import CHECKERS, OPP, OWN, POINTS
from ..same_way import WALL, in_opponent_numbering, opponent_points, wall_zone, walled

# Indices into the flags array of FevgaRules.flags().
_FIRST_CHECKER_PAST_START = 0
_STARTING_QUARTER_AT_PLAY_END = 1
_TRAP_MEANS_NO_MOVE = 2
_TRAP_FORBIDDEN = 3
_SIX_PRIME_NEEDS_CHECKER_AHEAD = 4

# The bits of turn[1].
_FREED = 1  # the first checker had gone ahead before the turn (F5)
_PAST_START = 2  # F5 asks for the mover's point 11 or lower, not 12
_QUARTER_EACH_MOVE = 4  # F6 checked after every checker move
_QUARTER_AT_END = 8  # F6 checked on the play's final position
_TRAP = 16  # F7 picks among the plays this turn
_NO_MOVE = 32  # "trapped" means no checker can move
_IN_ORDER = 64  # a double may be searched with sources that never rise

_START = 1 << (POINTS - 1)
"""The mover's starting point 24."""
_QUARTER = ((1 << WALL) - 1) << (POINTS - WALL)
"""The mover's starting quarter, points 19-24 (F6)."""
_REACHED = (1 << 12) - 1
"""Points 1-12: the opponent's starting quarter and beyond (F5)."""
_PASSED = (1 << 11) - 1
"""Points 1-11: past the opponent's starting point (F5, ``first_checker_past_start``)."""
_HOME = (1 << 6) - 1
"""Points 1-6 in a side's own numbering."""


@nb.njit(cache=True, nogil=True, inline="always")
def _count_bits(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@nb.njit(cache=True, nogil=True, inline="always")
def opponent_trapped(occupied, opponent, no_move):
    """Whether the mover's points ``occupied`` trap the opponent whose points (its numbering)
    are ``opponent`` (F7): all on one point with the six in front held, or, under
    ``no_move``, not all home and every point one to six ahead of each checker held."""
    if opponent == 0:
        return False
    held = in_opponent_numbering(occupied)
    if no_move:
        if opponent & ~_HOME == 0:
            return False  # all home: it may bear off
        ahead = 0
        for die in range(1, 7):
            ahead |= opponent >> die
        return ahead & ~held == 0
    if opponent & (opponent - 1):
        return False
    below = lowest_bit(opponent) - WALL
    if below < 0:
        return False
    front = ((1 << WALL) - 1) << below
    return held & front == front


@nb.njit(cache=True, nogil=True, inline="always")
def turn_state(row, flags, turn):
    """The search state ``(low, high, 0, occupied)`` of a position row at the start of its
    mover's turn; writes the turn's constant masks into ``turn`` (int64 ``(4,)``)."""
    low, high, occupied = read_counts(row)
    open_points = 0
    on_board = 0
    for p in range(POINTS):
        if row[OPP + p] == 0:
            open_points |= 1 << p
        on_board += row[OWN + p]
    bits = 0
    reached = _PASSED if flags[_FIRST_CHECKER_PAST_START] else _REACHED
    if flags[_FIRST_CHECKER_PAST_START]:
        bits |= _PAST_START
    freed = on_board < CHECKERS or occupied & reached != 0
    if freed:
        bits |= _FREED
    if flags[_STARTING_QUARTER_AT_PLAY_END]:
        bits |= _QUARTER_AT_END
    else:
        bits |= _QUARTER_EACH_MOVE
    opponent = opponent_points(row)
    no_move = flags[_TRAP_MEANS_NO_MOVE] != 0
    if no_move:
        bits |= _NO_MOVE
    if flags[_TRAP_FORBIDDEN]:
        could_be_trapped = opponent & ~_HOME != 0 if no_move else opponent & (opponent - 1) == 0
        if could_be_trapped:
            bits |= _TRAP
    elif opponent_trapped(occupied, opponent, no_move):
        bits |= _TRAP
    zone = wall_zone(row) if flags[_SIX_PRIME_NEEDS_CHECKER_AHEAD] else 0
    # A double's moves may be searched in order when no rule makes one move's legality hang
    # on another's: the first checker gone ahead, at most one quarter point held (four moves
    # cannot fill the other five), no wall rule and no play judged by its end.
    quiet_quarter = _count_bits(occupied & _QUARTER) <= 1
    if freed and quiet_quarter and zone == 0 and not flags[_STARTING_QUARTER_AT_PLAY_END]:
        bits |= _IN_ORDER
    turn[0] = open_points
    turn[1] = bits
    turn[2] = zone
    turn[3] = opponent
    return low, high, np.int64(0), occupied


@nb.njit(cache=True, nogil=True, inline="always")
def legal_sources(low, high, extra, occupied, die, turn):
    """Bit mask of the points whose mover checker may move ``die`` pips now (F4-F8)."""
    legal = forward_sources(occupied, occupied, turn[0], die, True)
    bits = turn[1]
    if not bits & _FREED and occupied & _START and occupied != _START:
        reached = _PASSED if bits & _PAST_START else _REACHED
        if occupied & reached == 0:
            legal &= ~_START  # F5: the first checker has not gone ahead yet
    if bits & _QUARTER_EACH_MOVE:
        open_in_quarter = _QUARTER & ~occupied
        if open_in_quarter & (open_in_quarter - 1) == 0:
            candidates = legal
            while candidates:
                source = lowest_bit(candidates)
                candidates &= candidates - 1
                after = move(low, high, extra, occupied, source, die, turn)
                if after[3] & _QUARTER == _QUARTER:
                    legal &= ~(1 << source)  # F6
    zone = turn[2]
    if zone:
        candidates = legal
        while candidates:
            source = lowest_bit(candidates)
            candidates &= candidates - 1
            after = move(low, high, extra, occupied, source, die, turn)
            if walled(after[3], zone):
                legal &= ~(1 << source)  # F7, six_prime_needs_checker_ahead
    return legal


@nb.njit(cache=True, nogil=True, inline="always")
def move(low, high, extra, occupied, source, die, turn):
    """The search state after one checker moves ``die`` pips from ``source``."""
    low, high, occupied = lift(low, high, occupied, source)
    target = source - die
    if target >= 0:
        low, high, occupied = land(low, high, occupied, target)
    return low, high, extra, occupied


@nb.njit(cache=True, nogil=True, inline="always")
def in_order(doubles, turn):
    """Whether a double's moves may be searched with sources that never rise (see
    :func:`turn_state`)."""
    return doubles and turn[1] & _IN_ORDER != 0


@nb.njit(cache=True, nogil=True, inline="always")
def game_ended(low, high, extra, occupied, turn, flags):
    """Whether the mover has borne off its last checker, the only way a game ends (F9)."""
    return occupied == 0


@nb.njit(cache=True, nogil=True, inline="always")
def records_prefixes(turn):
    """Under ``starting_quarter_at_play_end`` a play is judged by its end (F6, F11), so a
    play that stops before its dice are used may be the longest legal one."""
    return turn[1] & _QUARTER_AT_END != 0


@nb.njit(cache=True, nogil=True, inline="always")
def accepts(low, high, extra, occupied, turn):
    """Whether a play may end here: not on the whole starting quarter when F6 is checked at
    the play's end."""
    return not (turn[1] & _QUARTER_AT_END and occupied & _QUARTER == _QUARTER)


@nb.njit(cache=True, nogil=True, inline="always")
def has_preference(turn):
    """Whether the trap (F7) picks among this turn's plays."""
    return turn[1] & _TRAP != 0


@nb.njit(cache=True, nogil=True, inline="always")
def prefers(low, high, extra, occupied, turn):
    """Whether an afterstate leaves the opponent free (F7)."""
    return not opponent_trapped(occupied, turn[3], turn[1] & _NO_MOVE != 0)


@nb.njit(cache=True, nogil=True, inline="always")
def write_afterstate(out, index, row, low, high, extra):
    """Write into ``out[index]`` the position ``row`` with the mover's counts replaced by the
    state words."""
    out[index, :] = row
    write_counts(out, index, low, high)


__all__ = [
    "accepts", "checks_each_move", "dice_to_play", "ends_out_of_order", "game_ended",
    "has_preference", "in_order", "legal_sources", "move", "prefers", "records_prefixes",
    "turn_columns", "turn_state", "write_afterstate", "write_turn",
]  # fmt: skip
