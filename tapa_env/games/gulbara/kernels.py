"""Gulbara's hooks for the compiled engine (docs/rules.md, G3-G7): both sides run the same
way, one checker holds a point and nothing is hit; after the opening a double climbs
(:mod:`tapa_env.engine.dispatch` lists the hooks).

The search state is the engine's four words: the mover's counts ``low`` and ``high``, an
``extra`` word that stays 0 (nothing is hit, nothing pinned) and the mover's occupied points.
The turn's constant masks, written by :func:`turn_state` into ``turn``, are:

* ``turn[0]``: the points open to the mover: no opponent checker there (G4);
* ``turn[1]``: 0;
* ``turn[2]``: the wall zone: under ``six_prime_needs_checker_ahead``, the part of the
  opponent's path (bits in its own order) where six mover points in a row would have every
  opponent checker behind them (G7); else 0;
* ``turn[3]``: 0.

The climbing doubles (G5, G6) are a sequence of decisions: a row's ``CLIMB`` says which
double the mover still has to play and ``CLIMB_DICE`` how many of its dice, and each
afterstate says who moves next and what is left (:func:`turn_columns`,
:mod:`tapa_env.layout`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...engine import defaults
from ...engine.bits import (
    forward_sources,
    land,
    lift,
    lowest_bit,
    read_counts,
    write_counts,
)
from ...engine.defaults import (
    accepts,
    checks_each_move,
    ends_out_of_order,
    has_preference,
    prefers,
    records_prefixes,
)
from ...layout import (
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    HANDED,
    NEXT,
    OPP,
    OPP_TURNS,
    OWN_TURNS,
    POINTS,
)
from ..same_way import wall_zone, walled

# Indices into the flags array of GulbaraRules.flags().
_OPENING_TURNS_EACH_SIDE = 0
_UNPLAYABLE_TO_OPPONENT = 1
_SIX_PRIME_NEEDS_CHECKER_AHEAD = 2

_TURN_COLUMNS = 6  # NEXT, CLIMB, CLIMB_DICE, HANDED, OWN_TURNS, OPP_TURNS


@nb.njit(cache=True, nogil=True, inline="always")
def turn_state(row, flags, turn):
    """The search state ``(low, high, 0, occupied)`` of a position row at the start of its
    mover's turn; writes the turn's constant masks into ``turn`` (int64 ``(4,)``)."""
    low, high, occupied = read_counts(row)
    open_points = 0
    for p in range(POINTS):
        if row[OPP + p] == 0:
            open_points |= 1 << p
    zone = wall_zone(row) if flags[_SIX_PRIME_NEEDS_CHECKER_AHEAD] else 0
    turn[0] = open_points
    turn[1] = 0
    turn[2] = zone
    turn[3] = 0
    return low, high, np.int64(0), occupied


@nb.njit(cache=True, nogil=True, inline="always")
def dice_to_play(row, doubles):
    """A climbing double has the dice its row says left (G5); a rolled double four, a
    non-double two."""
    if row[CLIMB] > 0:
        return row[CLIMB_DICE]
    return defaults.dice_to_play(row, doubles)


@nb.njit(cache=True, nogil=True, inline="always")
def legal_sources(low, high, extra, occupied, die, turn):
    """Bit mask of the points whose mover checker may move ``die`` pips now (G4, G7, G8)."""
    legal = forward_sources(occupied, occupied, turn[0], die, True)
    zone = turn[2]
    if zone:
        candidates = legal
        while candidates:
            source = lowest_bit(candidates)
            candidates &= candidates - 1
            after = move(low, high, extra, occupied, source, die, turn)
            if walled(after[3], zone):
                legal &= ~(1 << source)
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
    """Whether a double's moves may be searched with sources that never rise. Any legal play
    can be reordered so, reaching the same position, except under the wall rule (G7): there
    a move may be legal only after another has opened the wall, so every order counts."""
    return doubles and turn[2] == 0


@nb.njit(cache=True, nogil=True, inline="always")
def game_ended(low, high, extra, occupied, turn, flags):
    """Whether the mover has borne off its last checker, the only way a game ends (G9)."""
    return occupied == 0


@nb.njit(cache=True, nogil=True, inline="always")
def write_afterstate(out, index, row, low, high, extra):
    """Write into ``out[index]`` the position ``row`` with the mover's counts replaced by the
    state words; the turn columns stay ``row``'s until :func:`write_turn`."""
    out[index, :] = row
    write_counts(out, index, low, high)


@nb.njit(cache=True, nogil=True, inline="always")
def turn_columns(row, dice, longest, flags, fields):
    """The turn columns of the afterstates of ``row`` whose plays use ``longest`` dice
    (G5, G6): ``fields`` (int64 ``(6,)``) gets NEXT, CLIMB, CLIMB_DICE, HANDED, OWN_TURNS,
    OPP_TURNS."""
    climb = row[CLIMB]
    rolled = climb == 0
    own_turns, opp_turns = row[OWN_TURNS], row[OPP_TURNS]
    if flags[_OPENING_TURNS_EACH_SIDE]:
        opening = own_turns < COUNTED_TURNS
    else:
        opening = own_turns + opp_turns < COUNTED_TURNS
    fields[4] = min(COUNTED_TURNS, own_turns + 1) if rolled else own_turns
    fields[5] = opp_turns
    fields[0], fields[1], fields[2], fields[3] = -1, 0, 0, 0
    if rolled and (dice[0] != dice[1] or opening):
        return
    double = dice[0] if rolled else climb
    left = 4 if rolled else row[CLIMB_DICE]
    handed = 0 if rolled else row[HANDED]
    if handed or longest == left:
        # A stage played in full climbs on; so does a handed one, whatever it could not play.
        if double < 6:
            fields[0], fields[1], fields[2], fields[3] = 1, double + 1, 4, handed
        elif handed:
            fields[0] = 1  # the handed numbers are played: the side now rolls its own turn
    elif flags[_UNPLAYABLE_TO_OPPONENT] and not (rolled and longest == 0):
        # The rest of a started climb passes to the opponent; an unstarted one is lost.
        fields[0], fields[1], fields[2], fields[3] = -1, double, left - longest, 1


@nb.njit(cache=True, nogil=True, inline="always")
def write_turn(out, index, fields, low, high, extra):
    """Write the turn columns ``fields`` into ``out[index]``, a finished afterstate; after the
    mover's last checker is off, no climb goes on: the other side is next, with nothing left."""
    for f in range(_TURN_COLUMNS):
        out[index, NEXT + f] = fields[f]
    if low == 0 and high == 0:
        out[index, NEXT], out[index, CLIMB] = -1, 0
        out[index, CLIMB_DICE], out[index, HANDED] = 0, 0


__all__ = [
    "accepts", "checks_each_move", "dice_to_play", "ends_out_of_order", "game_ended",
    "has_preference", "in_order", "legal_sources", "move", "prefers", "records_prefixes",
    "turn_columns", "turn_state", "write_afterstate", "write_turn",
]  # fmt: skip
