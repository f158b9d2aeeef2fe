"""Batched afterstate generation for Tabla and Gulbara (docs/rules.md, T3-T10 and G3-G10).

The two games share backgammon's checker moves without pins, so one compiled search serves
both; what differs lies in the turn's constant masks:

* Tabla: a point is open unless the opponent has two or more checkers there, and landing on
  a lone opponent checker hits it to the bar (T4); a mover with checkers on the bar enters
  them first (T5).
* Gulbara: a point with any opponent checker is closed and nothing is hit (G4); under
  ``six_prime_needs_checker_ahead`` a move may not leave a wall of six in the opponent's path
  with every opponent checker behind it (G7).

The search state is four integers, as in Tapa's engine (:mod:`tapa_env.movegen`): the mover's
counts (four bits a point, points 1-12 then 13-24), a word with the mover's bar (its low four
bits) and the points hit this turn (a bit a point above them), and the occupied points. A
non-double is searched in both die orders, a double as moves whose sources never rise (the
bar, index 24, comes first), and each reached position is kept once with the longest play
that reaches it (R6's rule on the dice: as many dice as possible, the larger die when only one
die of a non-double can be played).

Gulbara's climbing doubles (G5, G6) are a sequence of decisions: a row's ``CLIMB`` says which
double the mover still has to play, and each afterstate says who moves next and what is left
(:mod:`tapa_env.layout`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import (
    CLIMB,
    CLIMB_DICE,
    COUNTED_TURNS,
    HANDED,
    NEXT,
    OPP,
    OPP_BAR,
    OPP_TURNS,
    OWN,
    OWN_BAR,
    OWN_TURNS,
    POINTS,
    ROW_WIDTH,
)
from .movegen import _ENTRY_CAPACITY, _TABLE_BITS, _clear_table, _lowest_bit, _record

TABLA = 1
GULBARA = 2

# Indices into the flags arrays of TablaRules.flags() and GulbaraRules.flags().
_OPENING_TURNS_EACH_SIDE = 0
_UNPLAYABLE_TO_OPPONENT = 1
_SIX_PRIME_NEEDS_CHECKER_AHEAD = 2

_HOME = 6
_MAX_DICE = 4
_BAR = POINTS  # the source index of a checker entering from the bar
_ALL_POINTS = (1 << POINTS) - 1
_HALF = 12
_WALL = 6


@nb.njit(cache=True, nogil=True)
def _walled(occupied, zone):
    """Whether the mover's points ``occupied`` hold six in a row of the opponent's path
    inside ``zone`` (bits in the opponent's order: its point ``q`` is bit ``q - 1``)."""
    path = ((occupied >> _HALF) | ((occupied & ((1 << _HALF) - 1)) << _HALF)) & zone
    for _ in range(_WALL - 1):
        path &= path >> 1  # a bit stays set where a run of one more point starts
    return path != 0


@nb.njit(cache=True, nogil=True)
def legal_sources(low, high, extra, occupied, die, turn):
    """Bit mask of the sources (0-23: points 1-24; 24: the bar) whose checker may move ``die``
    pips now (T4, T5, T7; G4, G7, G8).

    ``turn`` holds the turn's constant masks: open points, lone opponent checkers (Tabla's
    blots), and the wall zone (Gulbara under ``six_prime_needs_checker_ahead``, else 0).
    """
    open_points, zone = turn[0], turn[2]
    if extra & 15:  # checkers on the bar enter first, on the mover's point 25 - die
        return (1 << _BAR) if (open_points >> (POINTS - die)) & 1 else 0
    legal = occupied & (open_points << die) & _ALL_POINTS
    if occupied >> _HOME == 0 and occupied != 0:
        exact = die - 1
        if (occupied >> exact) & 1:
            legal |= 1 << exact
        elif occupied >> exact == 0:
            # A die larger than every occupied point bears off from the highest one.
            highest = exact - 1
            while not (occupied >> highest) & 1:
                highest -= 1
            legal |= 1 << highest
    if zone:
        candidates = legal
        while candidates:
            source = _lowest_bit(candidates)
            candidates &= candidates - 1
            after = move(low, high, extra, occupied, source, die, turn)
            if _walled(after[3], zone):
                legal &= ~(1 << source)
    return legal


@nb.njit(cache=True, nogil=True)
def move(low, high, extra, occupied, source, die, turn):
    """The search state after one checker moves ``die`` pips from ``source`` (24: the bar)."""
    if source == _BAR:
        extra -= 1
        target = POINTS - die
    else:
        if source < _HALF:
            low -= 1 << (4 * source)
            left = (low >> (4 * source)) & 15
        else:
            high -= 1 << (4 * (source - _HALF))
            left = (high >> (4 * (source - _HALF))) & 15
        if left == 0:
            occupied &= ~(1 << source)
        target = source - die
    if target >= 0:
        if target < _HALF:
            low += 1 << (4 * target)
        else:
            high += 1 << (4 * (target - _HALF))
        occupied |= 1 << target
        if (turn[1] >> target) & 1:  # a blot there is hit, once
            extra |= 1 << (4 + target)
    return low, high, extra, occupied


@nb.njit(cache=True, nogil=True)
def in_order(doubles, turn):
    """Whether a double's moves may be searched with sources that never rise. Any legal play
    can be reordered so, reaching the same position, except under Gulbara's wall rule (G7):
    there a move may be legal only after another has opened the wall, so every order counts."""
    return doubles and turn[2] == 0


@nb.njit(cache=True, nogil=True)
def finished(extra, occupied):
    """Whether the mover has borne off its last checker."""
    return occupied == 0 and extra & 15 == 0


@nb.njit(cache=True, nogil=True)
def longest_continuation(low, high, extra, occupied, dice, start, count, ordered, limit, turn):
    """Most dice of ``dice[start:count]`` still playable from a state. ``ordered``: a double,
    whose sources never rise above ``limit``. With its last checker borne off a side plays no
    more dice: a play that wins with fewer dice than another play could use is not legal (T6)."""
    if start >= count:
        return 0
    stack = np.zeros((6, _MAX_DICE + 1), dtype=np.int64)
    best = 0
    level = start
    stack[0, level], stack[1, level], stack[2, level], stack[3, level] = (
        low,
        high,
        extra,
        occupied,
    )
    stack[5, level] = limit
    stack[4, level] = -1
    while level >= start:
        if stack[4, level] < 0:
            legal = legal_sources(
                stack[0, level], stack[1, level], stack[2, level], stack[3, level], dice[level],
                turn,
            )  # fmt: skip
            if ordered:
                legal &= (1 << (stack[5, level] + 1)) - 1
            stack[4, level] = legal
            if legal == 0:
                best = max(best, level - start)
                level -= 1
                continue
        candidates = stack[4, level]
        if candidates == 0:
            level -= 1
            continue
        source = _lowest_bit(candidates)
        stack[4, level] = candidates & (candidates - 1)
        if level + 1 == count:
            return count - start
        state = move(
            stack[0, level], stack[1, level], stack[2, level], stack[3, level], source,
            dice[level], turn,
        )  # fmt: skip
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = state
        stack[5, level] = source
        stack[4, level] = -1
    return best


@nb.njit(cache=True, nogil=True)
def _search_order(
    dice, count, ordered, larger_die, turn, table, entry_keys, entry_plays, entries, stack
):
    """Search every play of ``dice[:count]`` in this order from the state ``stack[0:4, 0]``;
    returns the new entry count (-1: the table is full)."""
    level = 0
    entering = True
    while True:
        if entering:
            entering = False
            low, high, extra, occupied = (
                stack[0, level],
                stack[1, level],
                stack[2, level],
                stack[3, level],
            )
            if level == count:
                entries = _record(
                    low, high, extra, count, False, table, entry_keys, entry_plays, entries
                )
                level -= 1
            else:
                legal = legal_sources(low, high, extra, occupied, dice[level], turn)
                if ordered and level > 0:
                    legal &= (1 << (stack[5, level - 1] + 1)) - 1
                stack[4, level] = legal
                if legal == 0:
                    entries = _record(
                        low, high, extra, level, level == 1 and dice[0] == larger_die, table,
                        entry_keys, entry_plays, entries,
                    )  # fmt: skip
                    level -= 1
        if level < 0 or entries < 0:
            return entries
        candidates = stack[4, level]
        if candidates == 0:
            level -= 1
            continue
        source = _lowest_bit(candidates)
        stack[4, level] = candidates & (candidates - 1)
        stack[5, level] = source
        after = move(
            stack[0, level], stack[1, level], stack[2, level], stack[3, level], source,
            dice[level], turn,
        )  # fmt: skip
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = after
        entering = True


@nb.njit(cache=True, nogil=True)
def turn_state(row, game, flags, turn):
    """The search state of a row at the start of its mover's turn, ``(low, high, extra,
    occupied)``; writes the turn's constant masks into ``turn`` (int64 ``(4,)``): open points,
    blots, the wall zone (:func:`legal_sources`)."""
    low = high = occupied = 0
    open_points = blots = 0
    for p in range(POINTS):
        count = np.int64(row[OWN + p])
        if p < _HALF:
            low |= count << (4 * p)
        else:
            high |= count << (4 * (p - _HALF))
        if count:
            occupied |= 1 << p
        opponent = row[OPP + p]
        if opponent == 0 or (game == TABLA and opponent == 1):
            open_points |= 1 << p
        if game == TABLA and opponent == 1:
            blots |= 1 << p
    extra = np.int64(row[OWN_BAR]) if game == TABLA else 0
    zone = 0
    if game == GULBARA and flags[_SIX_PRIME_NEEDS_CHECKER_AHEAD]:
        # Walls entirely below the opponent's rearmost checker (in its own numbering) have
        # every opponent checker behind them; a checker borne off is ahead of any wall.
        rearmost = POINTS + 1
        on_board = 0
        for p in range(POINTS):
            if row[OPP + p]:
                on_board += row[OPP + p]
                q = p + 1 + _HALF if p < _HALF else p + 1 - _HALF  # its own point number
                rearmost = min(rearmost, q)
        if on_board == 15:
            zone = (1 << (rearmost - 1)) - 1
    turn[0] = open_points
    turn[1] = blots
    turn[2] = zone
    turn[3] = 0
    return low, high, extra, occupied


@nb.njit(cache=True, nogil=True)
def write_afterstate(out, index, row, game, low, high, extra):
    """Write the afterstate of ``row`` whose mover counts, bar and hits are the state words;
    Gulbara's turn columns are copied from ``row`` (see :func:`_gulbara_turn`)."""
    out[index, :] = row
    hits = 0
    for p in range(POINTS):
        word = low if p < _HALF else high
        out[index, OWN + p] = (word >> (4 * (p % _HALF))) & 15
        if (extra >> (4 + p)) & 1:
            out[index, OPP + p] = 0
            hits += 1
    if game == TABLA:
        out[index, OWN_BAR] = extra & 15
        out[index, OPP_BAR] = row[OPP_BAR] + hits


@nb.njit(cache=True, nogil=True)
def _gulbara_turn(row, dice, longest, flags, fields):
    """Gulbara's turn columns of the afterstates of ``row`` whose plays use ``longest`` dice
    (G5, G6): ``fields`` gets NEXT, CLIMB, CLIMB_DICE, HANDED, OWN_TURNS, OPP_TURNS."""
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


@nb.njit(cache=True, nogil=True)
def generate_batch(rows, dice, flags, game):
    """All afterstates of ``rows`` (B, ROW_WIDTH) int8 of ``game`` under ``dice`` (B, 2).

    Returns ``(afterstates, offsets, overflowed)`` as :func:`tapa_env.movegen._generate_batch`.
    """
    batch = rows.shape[0]
    offsets = np.zeros(batch + 1, dtype=np.int64)
    capacity = max(64, batch * 32)
    out = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
    table = np.full(1 << _TABLE_BITS, -1, dtype=np.int64)
    entry_keys = np.empty((_ENTRY_CAPACITY, 3), dtype=np.int64)
    entry_plays = np.empty((_ENTRY_CAPACITY, 2), dtype=np.int64)
    order = np.empty(_MAX_DICE, dtype=np.int64)
    turn = np.empty(4, dtype=np.int64)
    stack = np.zeros((6, _MAX_DICE + 1), dtype=np.int64)
    fields = np.zeros(6, dtype=np.int64)
    total = 0
    for b in range(batch):
        row = rows[b]
        low, high, extra, occupied = turn_state(row, game, flags, turn)
        first = dice[b, 0]
        second = dice[b, 1]
        doubles = first == second
        count = 4 if doubles else 2
        if game == GULBARA and row[CLIMB] > 0:
            count = row[CLIMB_DICE]
        entries = 0
        for direction in range(1 if doubles else 2):
            for k in range(_MAX_DICE):
                order[k] = first
            if direction == 1:
                order[0] = second
            elif not doubles:
                order[1] = second
            stack[0, 0], stack[1, 0], stack[2, 0], stack[3, 0] = low, high, extra, occupied
            if entries >= 0:
                entries = _search_order(
                    order, count, in_order(doubles, turn), 0 if doubles else max(first, second),
                    turn, table, entry_keys, entry_plays, entries, stack,
                )  # fmt: skip
        if entries < 0:
            return out[:total], offsets, b
        _clear_table(table, entry_keys, entries)
        longest = 0
        for e in range(entries):
            longest = max(longest, entry_plays[e, 0])
        larger_only = False
        if longest == 1 and not doubles:
            for e in range(entries):
                if entry_plays[e, 1]:
                    larger_only = True
        if game == GULBARA:
            _gulbara_turn(row, dice[b], longest, flags, fields)
        for e in range(entries):
            if entry_plays[e, 0] != longest or (larger_only and not entry_plays[e, 1]):
                continue
            if total >= capacity:
                capacity *= 2
                grown = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
                grown[:total] = out[:total]
                out = grown
            write_afterstate(out, total, row, game, entry_keys[e, 0], entry_keys[e, 1],
                             entry_keys[e, 2])  # fmt: skip
            if game == GULBARA:
                over = entry_keys[e, 0] == 0 and entry_keys[e, 1] == 0
                for f in range(6):
                    out[total, NEXT + f] = fields[f]
                if over:
                    out[total, NEXT], out[total, CLIMB] = -1, 0
                    out[total, CLIMB_DICE], out[total, HANDED] = 0, 0
            total += 1
        offsets[b + 1] = total
    return out[:total], offsets, -1
