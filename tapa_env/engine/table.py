"""The open-addressing table that keeps each position a search reaches once.

A reached position is identified exactly by three words of the search state: the mover's
counts ``low`` and ``high`` and the game's ``extra`` word (:mod:`tapa_env.engine.search`).
Each entry keeps those words and two figures of the plays that reach it: the most dice any
of them uses, and whether a one-die play of the larger die of a non-double is among them.
"""

from __future__ import annotations

import numba as nb
import numpy as np

TABLE_BITS = 15
"""The table has ``2 ** TABLE_BITS`` slots, four for every entry it may hold."""
ENTRY_CAPACITY = 1 << 13
"""The most distinct positions one position's search may reach, shorter plays' included."""
_MIX = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xC2B2AE3D27D4EB4F),
    np.uint64(0x165667B19E3779F9),
)


@nb.njit(cache=True, nogil=True)
def new_table():
    """An empty table: ``(slots, entry_keys, entry_plays)``, int64 of shapes
    ``(2 ** TABLE_BITS,)`` (-1: free, else an entry), ``(ENTRY_CAPACITY, 3)`` and
    ``(ENTRY_CAPACITY, 2)``."""
    slots = np.full(1 << TABLE_BITS, -1, dtype=np.int64)
    entry_keys = np.empty((ENTRY_CAPACITY, 3), dtype=np.int64)
    entry_plays = np.empty((ENTRY_CAPACITY, 2), dtype=np.int64)
    return slots, entry_keys, entry_plays


@nb.njit(cache=True, nogil=True, inline="always")
def _slot(low, high, extra, mask):
    mixed = np.uint64(low) * _MIX[0] + np.uint64(high) * _MIX[1] + np.uint64(extra) * _MIX[2]
    return np.int64(mixed >> np.uint64(64 - TABLE_BITS)) & mask


@nb.njit(cache=True, nogil=True)
def record(low, high, extra, length, larger_die_play, slots, entry_keys, entry_plays, count):
    """Keep a reached position once, with the longest play reaching it and whether a one-die
    play of the larger die reaches it. Returns the new entry count, -1 when the table is full.
    """
    mask = slots.shape[0] - 1
    slot = _slot(low, high, extra, mask)
    while True:
        index = slots[slot]
        if index < 0:
            break
        if (
            entry_keys[index, 0] == low
            and entry_keys[index, 1] == high
            and entry_keys[index, 2] == extra
        ):
            entry_plays[index, 0] = max(entry_plays[index, 0], length)
            if larger_die_play:
                entry_plays[index, 1] = 1
            return count
        slot = (slot + 1) & mask
    if count >= entry_keys.shape[0]:
        return -1
    slots[slot] = count
    entry_keys[count, 0] = low
    entry_keys[count, 1] = high
    entry_keys[count, 2] = extra
    entry_plays[count, 0] = length
    entry_plays[count, 1] = 1 if larger_die_play else 0
    return count + 1


@nb.njit(cache=True, nogil=True)
def clear(slots, entry_keys, entries):
    """Empty the slots the last position used, a whole probe run at a time."""
    mask = slots.shape[0] - 1
    for e in range(entries):
        slot = _slot(entry_keys[e, 0], entry_keys[e, 1], entry_keys[e, 2], mask)
        while slots[slot] >= 0:
            slots[slot] = -1
            slot = (slot + 1) & mask


@nb.njit(cache=True, nogil=True)
def surviving_plays(entry_plays, entries, doubles):
    """Which entries are legal afterstates (R6): those of the longest plays, and with one die
    of a non-double playable, the larger die's when there are any. Returns ``(longest,
    larger_only)``; entry ``e`` survives when ``entry_plays[e, 0] == longest`` and, under
    ``larger_only``, ``entry_plays[e, 1]``."""
    longest = 0
    for e in range(entries):
        longest = max(longest, entry_plays[e, 0])
    larger_only = False
    if longest == 1 and not doubles:
        for e in range(entries):
            if entry_plays[e, 1]:
                larger_only = True
    return longest, larger_only
