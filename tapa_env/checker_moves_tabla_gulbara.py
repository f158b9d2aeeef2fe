"""Tabla's and Gulbara's turns a checker move at a time: the kernels under
:class:`tapa_env.checker_moves.CheckerMoves` for these two games.

The same scheme as Tapa's (:mod:`tapa_env.checker_moves`): at the start of a turn the length
of its plays is the most dice any play can use (:func:`longest_continuation`), and a move is
legal when the dice left after it can still complete a play of that length. Tabla adds the
bar as source 25 (actions 144-149: enter with a 1 to a 6); Gulbara writes its turn columns
(:func:`tapa_env.movegen_tabla_gulbara._gulbara_turn`) into the afterstate when the turn is
complete, or at once when the mover passes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import NEXT, POINTS
from .movegen import _lowest_bit
from .movegen_tabla_gulbara import (
    GULBARA,
    _gulbara_turn,
    finished,
    in_order,
    legal_sources,
    longest_continuation,
    move,
    turn_state,
    write_afterstate,
)

_MAX_DICE = 4
_ANY_SOURCE = POINTS  # the bar is source 24, above every point
_FIELDS = 6


@nb.njit(cache=True, nogil=True)
def _write_turn(rows, g, fields, over):
    """Gulbara: write the turn columns ``fields`` into ``rows[g]`` (a game just won: none)."""
    for f in range(_FIELDS):
        rows[g, NEXT + f] = fields[f]
    if over:
        for f in range(4):
            rows[g, NEXT + f] = 0
        rows[g, NEXT] = -1


@nb.njit(cache=True, nogil=True)
def begin(
    rows, dice, which, flags, game, start_rows, words, turns, dice_left, needed, larger_only,
    fields, out_rows,
):  # fmt: skip
    """Start the turns of the games ``which``: their state, dice, the length of their plays
    (0: the mover passes) and, in Gulbara, the turn columns their afterstates will have."""
    order = np.zeros(_MAX_DICE, dtype=np.int64)
    for k in range(which.shape[0]):
        g = which[k]
        row = rows[g]
        start_rows[g] = row
        out_rows[g] = row
        low, high, extra, occupied = turn_state(row, game, flags, turns[g])
        words[g, 0], words[g, 1], words[g, 2], words[g, 3] = low, high, extra, occupied
        first, second = dice[g, 0], dice[g, 1]
        larger_only[g] = False
        for i in range(_MAX_DICE):
            dice_left[g, i] = 0
        if first == second:
            count = 4
            if game == GULBARA and row[NEXT + 1] > 0:
                count = row[NEXT + 2]  # the dice left of a climbing double
            for i in range(count):
                dice_left[g, i] = first
                order[i] = first
            needed[g] = longest_continuation(
                low, high, extra, occupied, order, 0, count, in_order(True, turns[g]),
                _ANY_SOURCE, turns[g],
            )  # fmt: skip
        else:
            dice_left[g, 0], dice_left[g, 1] = max(first, second), min(first, second)
            longest = 0
            for direction in range(2):
                order[0] = first if direction == 0 else second
                order[1] = second if direction == 0 else first
                length = longest_continuation(
                    low, high, extra, occupied, order, 0, 2, False, _ANY_SOURCE, turns[g]
                )
                longest = max(longest, length)
            needed[g] = longest
            if longest == 1:
                larger = legal_sources(low, high, extra, occupied, max(first, second), turns[g])
                larger_only[g] = larger != 0
        if game == GULBARA:
            _gulbara_turn(row, dice[g], needed[g], flags, fields[g])
            if needed[g] == 0:
                _write_turn(out_rows, g, fields[g], False)


@nb.njit(cache=True, nogil=True)
def masks(which, words, turns, dice_left, needed, larger_only, out):
    """Write into ``out[g]`` (bool, 6 actions a source) the legal moves of each game in
    ``which``: action ``6 * source + die - 1``, source 0-23 a point, 24 the bar."""
    rest = np.zeros(_MAX_DICE, dtype=np.int64)
    for k in range(which.shape[0]):
        g = which[k]
        out[g, :] = False
        if needed[g] == 0:
            continue
        t = turns[g]
        low, high, extra, occupied = words[g, 0], words[g, 1], words[g, 2], words[g, 3]
        tried = 0
        for i in range(_MAX_DICE):
            die = dice_left[g, i]
            if die == 0 or (tried >> die) & 1:
                continue
            tried |= 1 << die
            if larger_only[g] and die != dice_left[g, 0]:
                continue
            count = 0
            skipped = False
            for j in range(_MAX_DICE):
                other = dice_left[g, j]
                if other == 0:
                    continue
                if other == die and not skipped:
                    skipped = True
                    continue
                rest[count] = other
                count += 1
            doubles = in_order(count > 0 and rest[0] == die, t)
            sources = legal_sources(low, high, extra, occupied, die, t)
            while sources:
                source = _lowest_bit(sources)
                sources &= sources - 1
                legal = needed[g] == 1
                if not legal:
                    after = move(low, high, extra, occupied, source, die, t)
                    further = longest_continuation(
                        after[0], after[1], after[2], after[3], rest, 0, count, doubles,
                        _ANY_SOURCE, t,
                    )  # fmt: skip
                    legal = further >= needed[g] - 1
                if legal:
                    out[g, 6 * source + die - 1] = True


@nb.njit(cache=True, nogil=True)
def apply(actions, which, game, start_rows, words, turns, dice_left, needed, fields, rows, done):
    """Play ``actions[k]`` (already checked legal) in game ``which[k]``: move the checker,
    use the die, write the position now into ``rows[g]``, and set ``done[k]`` when the turn
    is complete (its play is whole, or the mover has borne off its last checker)."""
    for k in range(which.shape[0]):
        g = which[k]
        source = actions[k] // 6
        die = actions[k] % 6 + 1
        after = move(words[g, 0], words[g, 1], words[g, 2], words[g, 3], source, die, turns[g])
        words[g, 0], words[g, 1], words[g, 2], words[g, 3] = after
        for i in range(_MAX_DICE - 1, -1, -1):
            if dice_left[g, i] == die:
                dice_left[g, i] = 0
                break
        needed[g] -= 1
        write_afterstate(rows, g, start_rows[g], game, after[0], after[1], after[2])
        over = finished(after[2], after[3])
        done[k] = over or needed[g] <= 0
        if done[k]:
            needed[g] = 0
            if game == GULBARA:
                _write_turn(rows, g, fields[g], over)
