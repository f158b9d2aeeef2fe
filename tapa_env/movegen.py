"""Batched generation of every legal afterstate (shared/RULES.md, R3-R10), compiled with numba.

The kernel takes a batch of position rows (:mod:`tapa_env.layout`, mover's frame) and one roll
per row, and returns all distinct legal afterstates of all of them as one flat ``int8`` array
with offsets. Afterstates stay in the frame of the side that moved (they are not flipped).

How a turn is searched:

* A non-double is searched in both die orders; a double as four moves of one die, where only
  sequences whose sources never rise are followed (any legal play can be reordered that way
  without changing what it reaches or how many dice it uses).
* After every single checker move the game may end (R6, R8-R10). The afterstate of such a play
  is the position at that moment, but the play still counts with the dice it could have used
  had the game gone on. Ending moves are therefore tried from every node, whatever the order
  of sources, and the rest of the play is searched for its length only.
* Each reached position is hashed (a random 64-bit weight per point and per checker and per
  pin) and kept once in an open-addressing table, with the longest play that reaches it and
  whether a one-die play of the larger die reaches it. Only the positions of the longest plays
  survive; with one die playable out of a non-double, the larger die's plays when there are
  any (R6).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np

from .layout import OPP, OWN, PIN, POINTS, ROW_WIDTH, as_rows
from .rules import DEFAULT_RULES, Rules

# Indices into the flags array of Rules.flags().
_PINNED_BLOCKS_BEAR_OFF = 0
_MOTHER_NEEDS_EMPTY_START = 1
_BOTH_MOTHERS_DRAW = 2
_WIN_CHECKED_EACH_MOVE = 3

_HOME = 6
_MAX_DICE = 4
_TABLE_BITS = 15
_ENTRY_CAPACITY = 1 << 13

_weights = np.random.default_rng(0x7A9A).integers(
    1, np.iinfo(np.int64).max, size=2 * POINTS, dtype=np.int64
).astype(np.uint64)
_CHECKER_WEIGHTS = _weights[:POINTS].copy()
_PIN_WEIGHTS = _weights[POINTS:].copy()


@nb.njit(cache=True, nogil=True, inline="always")
def _can_move(own, opp, pin, source, die, outside, bear_off_blocked):
    """Whether a mover checker on index ``source`` may move ``die`` pips (R3, R4, R5, R7)."""
    if own[source] == 0 or pin[source] == -1:
        return False
    target = source - die
    if target >= 0:
        return pin[target] == 1 or (pin[target] == 0 and opp[target] <= 1)
    if outside > 0 or bear_off_blocked:
        return False
    if target == -1:
        return True
    # A die larger than the point bears off only from the highest occupied point.
    for higher in range(source + 1, _HOME):
        if own[higher] > 0:
            return False
    return True


@nb.njit(cache=True, nogil=True, inline="always")
def _apply(own, opp, pin, source, die):
    """Move one checker; returns bit 1 if a pin was released, bit 2 if a checker was pinned."""
    change = 0
    own[source] -= 1
    if own[source] == 0 and pin[source] == 1:
        pin[source] = 0
        change |= 1
    target = source - die
    if target >= 0:
        own[target] += 1
        if opp[target] == 1 and pin[target] == 0:
            pin[target] = 1
            change |= 2
    return change


@nb.njit(cache=True, nogil=True, inline="always")
def _undo(own, pin, source, die, change):
    target = source - die
    if target >= 0:
        if change & 2:
            pin[target] = 0
        own[target] -= 1
    if change & 1:
        pin[source] = 1
    own[source] += 1


@nb.njit(cache=True, nogil=True, inline="always")
def _hash_delta(source, die, change, checker_weights, pin_weights):
    target = source - die
    delta = np.uint64(0) - checker_weights[source]
    if target >= 0:
        delta += checker_weights[target]
    if change & 1:
        delta -= pin_weights[source]
    if change & 2:
        delta += pin_weights[target]
    return delta


@nb.njit(cache=True, nogil=True)
def _game_ended(own, opp, pin, on_board, flags):
    """Whether the position (mover's frame) has ended the game during the mover's play."""
    if on_board == 0:
        return True
    if pin[0] == 1 and opp[0] == 1:  # the opponent's mother is pinned (R9)
        if own[POINTS - 1] == 1 and pin[POINTS - 1] == -1 and flags[_BOTH_MOTHERS_DRAW]:
            return True  # both mothers pinned (R10)
        if own[POINTS - 1] == 0 or not flags[_MOTHER_NEEDS_EMPTY_START]:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _longest_continuation(own, opp, pin, outside, bear_off_blocked, dice, start, count, ordered):
    """Most dice of ``dice[start:count]`` that can still be played, as if the game went on."""
    if start >= count:
        return 0
    best = 0
    sources = np.empty(_MAX_DICE, dtype=np.int64)
    changes = np.empty(_MAX_DICE, dtype=np.int64)
    outsides = np.empty(_MAX_DICE + 1, dtype=np.int64)
    level = start
    sources[level] = POINTS - 1
    outsides[level] = outside
    while level >= start:
        if level == count:
            best = count - start
            for done in range(count - 1, start - 1, -1):
                _undo(own, pin, sources[done], dice[done], changes[done])
            break
        die = dice[level]
        source = sources[level]
        while source >= 0 and not _can_move(
            own, opp, pin, source, die, outsides[level], bear_off_blocked
        ):
            source -= 1
        if source < 0:
            if level - start > best:
                best = level - start
            level -= 1
            if level >= start:
                _undo(own, pin, sources[level], dice[level], changes[level])
                sources[level] -= 1
            continue
        sources[level] = source
        changes[level] = _apply(own, opp, pin, source, die)
        outsides[level + 1] = outsides[level] - int(source >= _HOME) + int(source - die >= _HOME)
        level += 1
        if level < count:
            sources[level] = source if ordered else POINTS - 1
    return best


@nb.njit(cache=True, nogil=True)
def _record(
    own, pin, key, depth, larger_die_play, table, table_mask, entry_keys, entry_own,
    entry_pin, entry_depth, entry_larger, entry_count,
):
    """Keep a reached position once; returns the new number of entries (-1 when full)."""
    slot = np.int64(key >> np.uint64(64 - _TABLE_BITS)) & table_mask
    while True:
        index = table[slot]
        if index < 0:
            break
        if entry_keys[index] == key:
            same = True
            for p in range(POINTS):
                if entry_own[index, p] != own[p] or entry_pin[index, p] != pin[p]:
                    same = False
                    break
            if same:
                if depth > entry_depth[index]:
                    entry_depth[index] = depth
                if larger_die_play:
                    entry_larger[index] = True
                return entry_count
        slot = (slot + 1) & table_mask
    if entry_count >= entry_keys.shape[0]:
        return -1
    table[slot] = entry_count
    entry_keys[entry_count] = key
    for p in range(POINTS):
        entry_own[entry_count, p] = own[p]
        entry_pin[entry_count, p] = pin[p]
    entry_depth[entry_count] = depth
    entry_larger[entry_count] = larger_die_play
    return entry_count + 1


@nb.njit(cache=True, nogil=True)
def _search_order(
    own, opp, pin, dice, count, ordered, larger_die, flags, checker_weights, pin_weights,
    table, table_mask, entry_keys, entry_own, entry_pin, entry_depth, entry_larger, entry_count,
):
    """Search every play of ``dice[:count]`` in this order; returns the new entry count."""
    bear_off_blocked = False
    outside = 0
    on_board = 0
    key = np.uint64(0)
    for p in range(POINTS):
        on_board += own[p]
        if p >= _HOME:
            outside += own[p]
        if pin[p] == -1 and flags[_PINNED_BLOCKS_BEAR_OFF]:
            bear_off_blocked = True
        key += checker_weights[p] * np.uint64(own[p])
        if pin[p] == 1:
            key += pin_weights[p]
    check_each_move = flags[_WIN_CHECKED_EACH_MOVE] != 0
    # Only a mother pin (or a pinner leaving its start) can end a game before the last die.
    ending_out_of_order = check_each_move and opp[0] == 1

    sources = np.empty(_MAX_DICE + 1, dtype=np.int64)
    limits = np.empty(_MAX_DICE + 1, dtype=np.int64)
    changes = np.empty(_MAX_DICE, dtype=np.int64)
    keys = np.empty(_MAX_DICE + 1, dtype=np.uint64)
    outsides = np.empty(_MAX_DICE + 1, dtype=np.int64)
    boards = np.empty(_MAX_DICE + 1, dtype=np.int64)
    moved = np.zeros(_MAX_DICE + 1, dtype=np.bool_)

    level = 0
    sources[0] = POINTS - 1
    limits[0] = POINTS - 1
    keys[0] = key
    outsides[0] = outside
    boards[0] = on_board
    moved[0] = False
    while level >= 0:
        if level == count:
            entry_count = _record(
                own, pin, keys[level], count, False, table, table_mask, entry_keys,
                entry_own, entry_pin, entry_depth, entry_larger, entry_count,
            )
            if entry_count < 0:
                return entry_count
            level -= 1
            _undo(own, pin, sources[level], dice[level], changes[level])
            sources[level] -= 1
            continue
        die = dice[level]
        source = sources[level]
        found = -1
        while source >= 0:
            if _can_move(own, opp, pin, source, die, outsides[level], bear_off_blocked):
                if source <= limits[level]:
                    found = source
                    break
                if ending_out_of_order:
                    # Out of order: followed only if this very move ends the game.
                    change = _apply(own, opp, pin, source, die)
                    after = outsides[level] - int(source >= _HOME) + int(source - die >= _HOME)
                    if _game_ended(own, opp, pin, boards[level] - int(source - die < 0), flags):
                        length = level + 1 + _longest_continuation(
                            own, opp, pin, after, bear_off_blocked, dice, level + 1, count,
                            ordered,
                        )
                        entry_count = _record(
                            own, pin,
                            keys[level] + _hash_delta(source, die, change, checker_weights,
                                                      pin_weights),
                            length, length == 1 and die == larger_die, table, table_mask,
                            entry_keys, entry_own, entry_pin, entry_depth, entry_larger,
                            entry_count,
                        )
                        if entry_count < 0:
                            _undo(own, pin, source, die, change)
                            return entry_count
                    _undo(own, pin, source, die, change)
            source -= 1
        if found < 0:
            if not moved[level]:
                entry_count = _record(
                    own, pin, keys[level], level, level == 1 and dice[0] == larger_die, table,
                    table_mask, entry_keys, entry_own, entry_pin, entry_depth, entry_larger,
                    entry_count,
                )
                if entry_count < 0:
                    return entry_count
            level -= 1
            if level >= 0:
                _undo(own, pin, sources[level], dice[level], changes[level])
                sources[level] -= 1
            continue
        moved[level] = True
        sources[level] = found
        change = _apply(own, opp, pin, found, die)
        changes[level] = change
        keys[level + 1] = keys[level] + _hash_delta(found, die, change, checker_weights,
                                                    pin_weights)
        outsides[level + 1] = outsides[level] - int(found >= _HOME) + int(found - die >= _HOME)
        boards[level + 1] = boards[level] - int(found - die < 0)
        if check_each_move and _game_ended(own, opp, pin, boards[level + 1], flags):
            length = level + 1 + _longest_continuation(
                own, opp, pin, outsides[level + 1], bear_off_blocked, dice, level + 1, count,
                ordered,
            )
            entry_count = _record(
                own, pin, keys[level + 1], length, length == 1 and die == larger_die, table,
                table_mask, entry_keys, entry_own, entry_pin, entry_depth, entry_larger,
                entry_count,
            )
            _undo(own, pin, found, die, change)
            if entry_count < 0:
                return entry_count
            sources[level] = found - 1
            continue
        level += 1
        sources[level] = POINTS - 1
        limits[level] = found if ordered else POINTS - 1
        moved[level] = False
    return entry_count


@nb.njit(cache=True, nogil=True)
def _generate_batch(rows, dice, flags, checker_weights, pin_weights):
    """All afterstates of ``rows`` (B, ROW_WIDTH) int8 under ``dice`` (B, 2).

    Returns ``(afterstates, offsets, overflowed)``: the afterstates of row ``i`` are
    ``afterstates[offsets[i]:offsets[i + 1]]``; ``overflowed`` is the first row whose
    afterstates did not fit the table (-1 when none did not).
    """
    batch = rows.shape[0]
    offsets = np.zeros(batch + 1, dtype=np.int64)
    capacity = max(16, batch * 24)
    out = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
    table_size = 1 << _TABLE_BITS
    table_mask = table_size - 1
    table = np.full(table_size, -1, dtype=np.int64)
    entry_keys = np.empty(_ENTRY_CAPACITY, dtype=np.uint64)
    entry_own = np.empty((_ENTRY_CAPACITY, POINTS), dtype=np.int8)
    entry_pin = np.empty((_ENTRY_CAPACITY, POINTS), dtype=np.int8)
    entry_depth = np.empty(_ENTRY_CAPACITY, dtype=np.int64)
    entry_larger = np.empty(_ENTRY_CAPACITY, dtype=np.bool_)
    own = np.empty(POINTS, dtype=np.int64)
    opp = np.empty(POINTS, dtype=np.int64)
    pin = np.empty(POINTS, dtype=np.int64)
    order = np.empty(_MAX_DICE, dtype=np.int64)
    total = 0
    for b in range(batch):
        for p in range(POINTS):
            own[p] = rows[b, OWN + p]
            opp[p] = rows[b, OPP + p]
            pin[p] = rows[b, PIN + p]
        first = dice[b, 0]
        second = dice[b, 1]
        entries = 0
        if first == second:
            for k in range(_MAX_DICE):
                order[k] = first
            entries = _search_order(
                own, opp, pin, order, 4, True, 0, flags, checker_weights, pin_weights, table,
                table_mask, entry_keys, entry_own, entry_pin, entry_depth, entry_larger, entries,
            )
        else:
            larger = max(first, second)
            order[0] = first
            order[1] = second
            entries = _search_order(
                own, opp, pin, order, 2, False, larger, flags, checker_weights, pin_weights,
                table, table_mask, entry_keys, entry_own, entry_pin, entry_depth, entry_larger,
                entries,
            )
            if entries >= 0:
                order[0] = second
                order[1] = first
                entries = _search_order(
                    own, opp, pin, order, 2, False, larger, flags, checker_weights,
                    pin_weights, table, table_mask, entry_keys, entry_own, entry_pin,
                    entry_depth, entry_larger, entries,
                )
        if entries < 0:
            return out[:total], offsets, b
        longest = 0
        larger_only = False
        for e in range(entries):
            if entry_depth[e] > longest:
                longest = entry_depth[e]
        if longest == 1 and first != second:
            for e in range(entries):
                if entry_larger[e]:
                    larger_only = True
                    break
        for e in range(entries):
            key = entry_keys[e]
            slot = np.int64(key >> np.uint64(64 - _TABLE_BITS)) & table_mask
            while table[slot] >= 0:
                table[slot] = -1
                slot = (slot + 1) & table_mask
            if entry_depth[e] != longest or (larger_only and not entry_larger[e]):
                continue
            if total >= capacity:
                capacity *= 2
                grown = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
                grown[:total] = out[:total]
                out = grown
            for p in range(POINTS):
                out[total, OWN + p] = entry_own[e, p]
                out[total, OPP + p] = rows[b, OPP + p]
                out[total, PIN + p] = entry_pin[e, p]
            total += 1
        offsets[b + 1] = total
    return out[:total], offsets, -1


def generate_afterstates(
    rows: np.ndarray,
    dice: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct legal afterstate of a batch of positions, in one compiled call.

    Args:
        rows: ``(B, ROW_WIDTH)`` position rows, each in the frame of its side to move.
        dice: ``(B, 2)`` integers 1-6, the roll of each row.
        rules: the rule choices (:class:`tapa_env.rules.Rules`).
        threads: split the batch over this many threads (the kernel releases the GIL);
            ``0`` means one per core.

    Returns:
        ``(afterstates, offsets)``: ``afterstates`` is ``int8`` of shape ``(N, ROW_WIDTH)``,
        still in the mover's frame; ``offsets`` is ``int64`` of shape ``(B + 1,)`` and the
        afterstates of row ``i`` are ``afterstates[offsets[i]:offsets[i + 1]]``. A row whose
        mover must pass has one afterstate, itself. The order is deterministic.
    """
    rows = as_rows(rows)
    dice = np.ascontiguousarray(dice, dtype=np.int64).reshape(-1, 2)
    if dice.shape[0] != rows.shape[0]:
        raise ValueError(f"got {rows.shape[0]} positions but {dice.shape[0]} rolls")
    if dice.size and (dice.min() < 1 or dice.max() > 6):
        raise ValueError("every die must be an integer from 1 to 6")
    flags = rules.flags()
    threads = threads or os.cpu_count() or 1
    if threads <= 1 or rows.shape[0] < 2 * threads:
        return _checked(_generate_batch(rows, dice, flags, _CHECKER_WEIGHTS, _PIN_WEIGHTS), 0)
    bounds = np.linspace(0, rows.shape[0], threads + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(
            pool.map(
                lambda start, stop: _checked(
                    _generate_batch(
                        rows[start:stop], dice[start:stop], flags, _CHECKER_WEIGHTS, _PIN_WEIGHTS
                    ),
                    start,
                ),
                bounds[:-1],
                bounds[1:],
            )
        )
    afterstates = np.concatenate([part[0] for part in parts])
    counts = np.concatenate([np.diff(part[1]) for part in parts])
    offsets = np.zeros(rows.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return afterstates, offsets


def _checked(result, start: int) -> tuple[np.ndarray, np.ndarray]:
    afterstates, offsets, overflowed = result
    if overflowed >= 0:
        raise RuntimeError(
            f"position {start + overflowed} of the batch has more than {_ENTRY_CAPACITY} "
            "distinct afterstates, more than the engine's table holds"
        )
    return afterstates, offsets
