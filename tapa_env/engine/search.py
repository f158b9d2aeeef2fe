"""Batched generation of every legal afterstate of a roll, one compiled search for every game.

The kernel takes a batch of position rows (:mod:`tapa_env.layout`, mover's frame), one roll
per row and the game's code and rule flags, and returns all distinct legal afterstates of all
of them as one flat ``int8`` array with offsets. Afterstates stay in the frame of the side
that moved (they are not flipped). The game's rules enter only through its hooks
(:mod:`tapa_env.engine.hooks`); :mod:`tapa_env.engine.dispatch` compiles the search for each
game on its own.

How a turn is searched:

* During the mover's turn only a few things change: the mover's counts and what its moves
  leave on the opponent (Tapa's pins, Tabla's hits and bar); which points are open to it does
  not. So the search state is four integers: the mover's counts, four bits a point (points
  1-12, then 13-24), the game's ``extra`` word for what its moves leave, and a bit mask of
  occupied points. The legal sources of a die are a few bit operations, and a reached
  position is identified exactly by its first three words.
* A non-double is searched in both die orders; a double as four moves of one die (fewer when
  a game's row says so), where, when the game allows it, only sequences whose sources never
  rise are followed (any legal play can be reordered that way without changing what it
  reaches or how many dice it uses).
* Where the game may end part-way through a play (Tapa, R6), it is checked after every single
  checker move. The afterstate of such a play is the position at that moment, but the play
  still counts with the dice it could have used had the game gone on, so the rest of it is
  searched for its length only. Moves that end the game are tried from every node of a
  double, whatever the order of sources, when the game says such a move can exist.
* Each reached position is kept once in an open-addressing table
  (:mod:`tapa_env.engine.table`), with the longest play that reaches it and whether a
  one-die play of the larger die reaches it. Only the positions of the longest plays
  survive; with one die playable out of a non-double, the larger die's plays when there are
  any (R6, T6, G3).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..layout import ROW_WIDTH
from . import hooks
from .bits import BAR, lowest_bit, occupied_points
from .table import clear, new_table, record, surviving_plays

MAX_DICE = 4
ANY_SOURCE = BAR
"""The highest source index, the limit of a double's first move."""
TURN_FIELDS = 6
"""Room for the columns a game's afterstates take besides the board (Gulbara's turn)."""


@nb.njit(cache=True, nogil=True, inline="always")
def _move_from(game, stack, level, source, die, turn):
    """The state after one checker moves ``die`` pips from ``source`` in the state of
    ``stack[0:4, level]``."""
    return hooks.move(
        game, stack[0, level], stack[1, level], stack[2, level], stack[3, level], source, die,
        turn,
    )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def longest_continuation(
    game, low, high, extra, occupied, dice, start, count, ordered, limit, turn, stack
):
    """Most dice of ``dice[start:count]`` still playable from a state, as if the game went on.

    ``ordered``: a double whose sources never rise above ``limit``. ``turn`` holds the turn's
    constant masks (a tuple of four ints); ``stack`` is scratch of shape ``(6, MAX_DICE + 1)``.
    """
    if start >= count:
        return 0
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
            legal = hooks.legal_sources(
                game, stack[0, level], stack[1, level], stack[2, level], stack[3, level],
                dice[level], turn,
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
        source = lowest_bit(candidates)
        stack[4, level] = candidates & (candidates - 1)
        if level + 1 == count:
            return count - start
        state = _move_from(game, stack, level, source, dice[level], turn)
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = state
        stack[5, level] = source
        stack[4, level] = -1
    return best


@nb.njit(cache=True, nogil=True)
def _record_ended_play(
    game, after, level, larger_die, dice, count, ordered, turn, side_stack, slots,
    entry_keys, entry_plays, entries,
):  # fmt: skip
    """Record a play whose move at ``level`` ended the game, leaving the state ``after``.

    The afterstate is the position at that moment; the play counts with every die it could
    still have played had the game gone on (R6).
    """
    length = level + 1 + longest_continuation(
        game, after[0], after[1], after[2], after[3], dice, level + 1, count, ordered,
        ANY_SOURCE, turn, side_stack,
    )  # fmt: skip
    one_larger_die = length == 1 and dice[level] == larger_die
    return record(
        after[0], after[1], after[2], length, one_larger_die, slots, entry_keys, entry_plays,
        entries,
    )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def _search_order(
    game, dice, count, ordered, larger_die, turn, flags, slots, entry_keys, entry_plays,
    entries, stack, side_stack,
):  # fmt: skip
    """Search every play of ``dice[:count]`` in this order; returns the new entry count (-1:
    the table is full).

    The start state is ``stack[0:4, 0]``. ``ordered`` (doubles) follows only sequences whose
    sources never rise; a move out of that order is still tried when it ends the game at once.
    """
    check_each_move = hooks.checks_each_move(game, flags)
    ending_out_of_order = ordered and hooks.ends_out_of_order(game, turn, flags)
    prefixes = hooks.records_prefixes(game, turn)
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
            if prefixes:
                # Every node is a play of its own, judged by where it ends; the pass always
                # stands, and only the longest plays will survive.
                if level == 0 or hooks.accepts(game, low, high, extra, occupied, turn):
                    entries = record(
                        low, high, extra, level, level == 1 and dice[0] == larger_die, slots,
                        entry_keys, entry_plays, entries,
                    )  # fmt: skip
                    if entries < 0:
                        return entries
            if level == count:
                if not prefixes:
                    entries = record(
                        low, high, extra, count, False, slots, entry_keys, entry_plays, entries
                    )
                level -= 1
            else:
                die = dice[level]
                legal = hooks.legal_sources(game, low, high, extra, occupied, die, turn)
                in_order = legal
                if ordered and level > 0:
                    in_order &= (1 << (stack[5, level - 1] + 1)) - 1
                if ending_out_of_order:
                    out_of_order = legal & ~in_order
                    while out_of_order and entries >= 0:
                        source = lowest_bit(out_of_order)
                        out_of_order &= out_of_order - 1
                        after = hooks.move(game, low, high, extra, occupied, source, die, turn)
                        if hooks.game_ended(
                            game, after[0], after[1], after[2], after[3], turn, flags
                        ):
                            entries = _record_ended_play(
                                game, after, level, 0, dice, count, ordered, turn,
                                side_stack, slots, entry_keys, entry_plays, entries,
                            )  # fmt: skip
                stack[4, level] = in_order
                if in_order == 0:
                    if not prefixes:
                        entries = record(
                            low, high, extra, level, level == 1 and dice[0] == larger_die,
                            slots, entry_keys, entry_plays, entries,
                        )  # fmt: skip
                    level -= 1
        if level < 0 or entries < 0:
            return entries
        candidates = stack[4, level]
        if candidates == 0:
            level -= 1
            continue
        source = lowest_bit(candidates)
        stack[4, level] = candidates & (candidates - 1)
        stack[5, level] = source
        die = dice[level]
        after = _move_from(game, stack, level, source, die, turn)
        if check_each_move and hooks.game_ended(
            game, after[0], after[1], after[2], after[3], turn, flags
        ):
            entries = _record_ended_play(
                game, after, level, larger_die, dice, count, ordered, turn, side_stack,
                slots, entry_keys, entry_plays, entries,
            )  # fmt: skip
            if entries < 0:
                return entries
            continue
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = after
        entering = True


@nb.njit(cache=True, nogil=True)
def search_row(
    game, row, first, second, flags, slots, entry_keys, entry_plays, order, turn, stack,
    side_stack,
):  # fmt: skip
    """Search every play of the roll ``first``-``second`` from the position ``row`` into the
    (empty) table; ``turn`` (int64 ``(4,)``) gets the turn's masks.

    Returns ``(entries, longest, larger_only, preferred_only)``: the table's entry count (-1:
    it is full), the most dice a legal play uses, whether only the larger die's one-die plays
    are legal, and whether only the afterstates the game prefers are (:func:`survives`).
    """
    low, high, extra, occupied = hooks.turn_state(game, row, flags, turn)
    masks = (turn[0], turn[1], turn[2], turn[3])  # values: no reloads in the search
    doubles = first == second
    count = hooks.dice_to_play(game, row, doubles)
    ordered = hooks.in_order(game, doubles, masks)
    entries = 0
    for direction in range(1 if doubles else 2):
        for k in range(MAX_DICE):
            order[k] = first
        if direction == 1:
            order[0] = second
        elif not doubles:
            order[1] = second
        stack[0, 0], stack[1, 0], stack[2, 0], stack[3, 0] = low, high, extra, occupied
        if entries >= 0:
            entries = _search_order(
                game, order, count, ordered, 0 if doubles else max(first, second), masks,
                flags, slots, entry_keys, entry_plays, entries, stack, side_stack,
            )  # fmt: skip
    if entries < 0:
        return entries, 0, False, False
    longest, larger_only = surviving_plays(entry_plays, entries, doubles)
    preferred_only = False
    if hooks.has_preference(game, masks):
        for e in range(entries):
            if _longest_play(entry_plays, e, longest, larger_only) and _preferred(
                game, entry_keys, e, masks
            ):
                preferred_only = True
                break
    return entries, longest, larger_only, preferred_only


@nb.njit(cache=True, nogil=True, inline="always")
def _longest_play(entry_plays, e, longest, larger_only):
    return entry_plays[e, 0] == longest and (entry_plays[e, 1] != 0 or not larger_only)


@nb.njit(cache=True, nogil=True, inline="always")
def _preferred(game, entry_keys, e, turn):
    low, high, extra = entry_keys[e, 0], entry_keys[e, 1], entry_keys[e, 2]
    return hooks.prefers(game, low, high, extra, occupied_points(low, high), turn)


@nb.njit(cache=True, nogil=True, inline="always")
def survives(game, entry_keys, entry_plays, e, longest, larger_only, preferred_only, turn):
    """Whether entry ``e`` is a legal afterstate: one of the longest plays (the larger die's,
    under ``larger_only``), and one the game prefers under ``preferred_only``."""
    if not _longest_play(entry_plays, e, longest, larger_only):
        return False
    return not preferred_only or _preferred(game, entry_keys, e, turn)


@nb.njit(cache=True, nogil=True)
def generate_batch(rows, dice, flags, game):
    """All afterstates of ``rows`` (B, ROW_WIDTH) int8 under ``dice`` (B, 2) int64, in the
    game of code ``game`` with its rule ``flags`` (int64).

    Returns ``(afterstates, offsets, overflowed)``: the afterstates of row ``i`` are
    ``afterstates[offsets[i]:offsets[i + 1]]``; ``overflowed`` is the first row whose
    afterstates did not fit the table (-1 when all fit).
    """
    batch = rows.shape[0]
    offsets = np.zeros(batch + 1, dtype=np.int64)
    capacity = max(64, batch * 32)
    out = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
    slots, entry_keys, entry_plays = new_table()
    order = np.empty(MAX_DICE, dtype=np.int64)
    turn = np.empty(4, dtype=np.int64)
    stack = np.zeros((6, MAX_DICE + 1), dtype=np.int64)
    side_stack = np.zeros((6, MAX_DICE + 1), dtype=np.int64)
    fields = np.zeros(TURN_FIELDS, dtype=np.int64)
    total = 0
    for b in range(batch):
        row = rows[b]
        entries, longest, larger_only, preferred_only = search_row(
            game, row, dice[b, 0], dice[b, 1], flags, slots, entry_keys, entry_plays, order,
            turn, stack, side_stack,
        )  # fmt: skip
        if entries < 0:
            return out[:total], offsets, b
        masks = (turn[0], turn[1], turn[2], turn[3])
        clear(slots, entry_keys, entries)
        hooks.turn_columns(game, row, dice[b], longest, flags, fields)
        for e in range(entries):
            if not survives(
                game, entry_keys, entry_plays, e, longest, larger_only, preferred_only, masks
            ):
                continue
            if total >= capacity:
                capacity *= 2
                grown = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
                grown[:total] = out[:total]
                out = grown
            low, high, extra = entry_keys[e, 0], entry_keys[e, 1], entry_keys[e, 2]
            hooks.write_afterstate(game, out, total, row, low, high, extra)
            hooks.write_turn(game, out, total, fields, low, high, extra)
            total += 1
        offsets[b + 1] = total
    return out[:total], offsets, -1
