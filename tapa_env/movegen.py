"""Batched generation of every legal afterstate (docs/rules.md, R3-R10), compiled with numba.

The kernel takes a batch of position rows (:mod:`tapa_env.layout`, mover's frame) and one roll
per row, and returns all distinct legal afterstates of all of them as one flat ``int8`` array
with offsets. Afterstates stay in the frame of the side that moved (they are not flipped).

How a turn is searched:

* During the mover's turn only the mover's counts and the opponent checkers it pins change;
  which points are open to it (R4) does not. So the search state is four integers: the
  mover's counts, four bits a point (points 1-12, then 13-24), a bit mask of pinned opponent
  checkers, and a bit mask of occupied points. The legal sources of a die are a few bit
  operations, and a reached position is identified exactly by its three words.
* A non-double is searched in both die orders; a double as four moves of one die, where only
  sequences whose sources never rise are followed (any legal play can be reordered that way
  without changing what it reaches or how many dice it uses).
* After every single checker move the game may end (R6, R8-R10). The afterstate of such a play
  is the position at that moment, but the play still counts with the dice it could have used
  had the game gone on, so the rest of it is searched for its length only. Moves that end the
  game are tried from every node of a double, whatever the order of sources.
* Each reached position is kept once in an open-addressing table, with the longest play that
  reaches it and whether a one-die play of the larger die reaches it. Only the positions of the
  longest plays survive; with one die playable out of a non-double, the larger die's plays
  when there are any (R6).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np

from .layout import CLIMB, NEXT, OPP, OWN, PIN, POINTS, ROW_WIDTH, as_rows
from .position import PositionError, check_rows
from .rules import DEFAULT_RULES, AnyRules, rules_for

# Indices into the flags array of Rules.flags().
_PINNED_BLOCKS_BEAR_OFF = 0
_MOTHER_NEEDS_EMPTY_START = 1
_BOTH_MOTHERS_DRAW = 2
_WIN_CHECKED_EACH_MOVE = 3

_HOME = 6
_MAX_DICE = 4
_ALL_POINTS = (1 << POINTS) - 1
_HALF = 12  # points per counts word
_TABLE_BITS = 15
_ENTRY_CAPACITY = 1 << 13
_MIX = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xC2B2AE3D27D4EB4F),
    np.uint64(0x165667B19E3779F9),
)


@nb.njit(cache=True, nogil=True)
def _lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask."""
    index = 0
    while not (mask >> index) & 1:
        index += 1
    return index


@nb.njit(cache=True, nogil=True)
def _legal_sources(occupied, die, open_points, own_pinned, bear_off_blocked):
    """Bit mask of the points whose mover checker may move ``die`` pips (R3, R4, R5, R7).

    ``open_points`` has a bit for every point the mover may land on; ``own_pinned`` for every
    point where a mover checker lies pinned (it cannot move).
    """
    movable = occupied & ~own_pinned
    legal = movable & (open_points << die) & _ALL_POINTS
    if occupied >> _HOME == 0 and occupied != 0 and not bear_off_blocked:
        exact = die - 1
        if (movable >> exact) & 1:
            legal |= 1 << exact
        elif occupied >> exact == 0:
            # A die larger than every occupied point bears off from the highest one (R7).
            highest = exact - 1
            while not (occupied >> highest) & 1:
                highest -= 1
            legal |= movable & (1 << highest)
    return legal


@nb.njit(cache=True, nogil=True)
def _move(low, high, pinned, occupied, source, die, lone_opponent):
    """The search state after one checker moves ``die`` pips from ``source`` (R5)."""
    if source < _HALF:
        low -= 1 << (4 * source)
        left = (low >> (4 * source)) & 15
    else:
        high -= 1 << (4 * (source - _HALF))
        left = (high >> (4 * (source - _HALF))) & 15
    if left == 0:
        occupied &= ~(1 << source)
        pinned &= ~(1 << source)  # the last pinner left: the pinned checker is free
    target = source - die
    if target >= 0:
        if target < _HALF:
            low += 1 << (4 * target)
        else:
            high += 1 << (4 * (target - _HALF))
        occupied |= 1 << target
        pinned |= lone_opponent & (1 << target)
    return low, high, pinned, occupied


@nb.njit(cache=True, nogil=True)
def _game_ended(pinned, occupied, own_mother_pinned, flags):
    """Whether the mover's play has ended the game (R8, R9, R10)."""
    if occupied == 0:
        return True  # the 15th checker is off
    if pinned & 1:  # the opponent's mother, its lone checker on point 1, is pinned
        if own_mother_pinned and flags[_BOTH_MOTHERS_DRAW]:
            return True
        if not (occupied >> (POINTS - 1)) & 1 or not flags[_MOTHER_NEEDS_EMPTY_START]:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _longest_continuation(
    low, high, pinned, occupied, dice, start, count, ordered, limit, turn, stack
):
    """Most dice of ``dice[start:count]`` still playable from a state, as if the game went on.

    ``turn`` holds the turn's constant masks (open points, own pinned, lone opponent checkers,
    bear-off blocked); ``stack`` is scratch of shape ``(6, _MAX_DICE + 1)``.
    """
    if start >= count:
        return 0
    best = 0
    level = start
    stack[0, level], stack[1, level], stack[2, level], stack[3, level] = (
        low,
        high,
        pinned,
        occupied,
    )
    stack[5, level] = limit
    stack[4, level] = -1
    while level >= start:
        if stack[4, level] < 0:
            legal = _legal_sources(stack[3, level], dice[level], turn[0], turn[1], turn[3])
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
        state = _move(
            stack[0, level],
            stack[1, level],
            stack[2, level],
            stack[3, level],
            source,
            dice[level],
            turn[2],
        )
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = state
        stack[5, level] = source
        stack[4, level] = -1
    return best


@nb.njit(cache=True, nogil=True)
def _record(low, high, pinned, length, larger_die_play, table, entry_keys, entry_plays, count):
    """Keep a reached position once, with the longest play reaching it and whether a one-die
    play of the larger die reaches it. Returns the new entry count, -1 when the table is full.
    """
    mask = table.shape[0] - 1
    mixed = np.uint64(low) * _MIX[0] + np.uint64(high) * _MIX[1] + np.uint64(pinned) * _MIX[2]
    slot = np.int64(mixed >> np.uint64(64 - _TABLE_BITS)) & mask
    while True:
        index = table[slot]
        if index < 0:
            break
        if (
            entry_keys[index, 0] == low
            and entry_keys[index, 1] == high
            and entry_keys[index, 2] == pinned
        ):
            entry_plays[index, 0] = max(entry_plays[index, 0], length)
            if larger_die_play:
                entry_plays[index, 1] = 1
            return count
        slot = (slot + 1) & mask
    if count >= entry_keys.shape[0]:
        return -1
    table[slot] = count
    entry_keys[count, 0] = low
    entry_keys[count, 1] = high
    entry_keys[count, 2] = pinned
    entry_plays[count, 0] = length
    entry_plays[count, 1] = 1 if larger_die_play else 0
    return count + 1


@nb.njit(cache=True, nogil=True)
def _record_ended_play(
    after, level, larger_die, dice, count, ordered, turn, side_stack, table, entry_keys,
    entry_plays, entries,
):  # fmt: skip
    """Record a play whose move at ``level`` ended the game, leaving the state ``after``.

    The afterstate is the position at that moment; the play counts with every die it could
    still have played had the game gone on (R6).
    """
    length = level + 1 + _longest_continuation(
        after[0], after[1], after[2], after[3], dice, level + 1, count, ordered, POINTS - 1,
        turn, side_stack,
    )  # fmt: skip
    one_larger_die = length == 1 and dice[level] == larger_die
    return _record(
        after[0], after[1], after[2], length, one_larger_die, table, entry_keys, entry_plays,
        entries,
    )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def _search_order(
    dice,
    count,
    ordered,
    larger_die,
    turn,
    flags,
    table,
    entry_keys,
    entry_plays,
    entries,
    stack,
    side_stack,
):
    """Search every play of ``dice[:count]`` in this order; returns the new entry count.

    The start state is ``stack[0:4, 0]``. ``ordered`` (doubles) follows only sequences whose
    sources never rise; a move out of that order is still tried when it ends the game at once.
    """
    open_points, own_pinned, lone_opponent, bear_off_blocked = turn[0], turn[1], turn[2], turn[3]
    own_mother_pinned = (own_pinned >> (POINTS - 1)) & 1
    check_each_move = flags[_WIN_CHECKED_EACH_MOVE] != 0
    # Only a mother pin (or a pinner leaving its start) can end a game before its last die.
    ending_out_of_order = ordered and check_each_move and lone_opponent & 1
    level = 0
    entering = True
    while True:
        if entering:
            entering = False
            low, high, pinned, occupied = (
                stack[0, level],
                stack[1, level],
                stack[2, level],
                stack[3, level],
            )
            if level == count:
                entries = _record(
                    low, high, pinned, count, False, table, entry_keys, entry_plays, entries
                )
                level -= 1
            else:
                die = dice[level]
                legal = _legal_sources(occupied, die, open_points, own_pinned, bear_off_blocked)
                in_order = legal
                if ordered and level > 0:
                    in_order &= (1 << (stack[5, level - 1] + 1)) - 1
                if ending_out_of_order:
                    out_of_order = legal & ~in_order
                    while out_of_order and entries >= 0:
                        source = _lowest_bit(out_of_order)
                        out_of_order &= out_of_order - 1
                        after = _move(low, high, pinned, occupied, source, die, lone_opponent)
                        if _game_ended(after[2], after[3], own_mother_pinned, flags):
                            entries = _record_ended_play(
                                after, level, 0, dice, count, ordered, turn, side_stack,
                                table, entry_keys, entry_plays, entries,
                            )  # fmt: skip
                stack[4, level] = in_order
                if in_order == 0:
                    entries = _record(
                        low,
                        high,
                        pinned,
                        level,
                        level == 1 and dice[0] == larger_die,
                        table,
                        entry_keys,
                        entry_plays,
                        entries,
                    )
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
        die = dice[level]
        after = _move(
            stack[0, level],
            stack[1, level],
            stack[2, level],
            stack[3, level],
            source,
            die,
            lone_opponent,
        )
        if check_each_move and _game_ended(after[2], after[3], own_mother_pinned, flags):
            entries = _record_ended_play(
                after, level, larger_die, dice, count, ordered, turn, side_stack, table,
                entry_keys, entry_plays, entries,
            )  # fmt: skip
            if entries < 0:
                return entries
            continue
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = after
        entering = True


@nb.njit(cache=True, nogil=True)
def _clear_table(table, entry_keys, entries):
    """Empty the slots the last position used, a whole probe run at a time."""
    mask = table.shape[0] - 1
    for e in range(entries):
        mixed = (
            np.uint64(entry_keys[e, 0]) * _MIX[0]
            + np.uint64(entry_keys[e, 1]) * _MIX[1]
            + np.uint64(entry_keys[e, 2]) * _MIX[2]
        )
        slot = np.int64(mixed >> np.uint64(64 - _TABLE_BITS)) & mask
        while table[slot] >= 0:
            table[slot] = -1
            slot = (slot + 1) & mask


@nb.njit(cache=True, nogil=True)
def _write_afterstate(out, index, row, low, high, pinned):
    """Write the afterstate of ``row`` whose mover counts and pins are the state words."""
    for p in range(POINTS):
        word = low if p < _HALF else high
        out[index, OWN + p] = (word >> (4 * (p % _HALF))) & 15
        out[index, OPP + p] = row[OPP + p]
        out[index, PIN + p] = -1 if row[PIN + p] == -1 else (pinned >> p) & 1


@nb.njit(cache=True, nogil=True)
def turn_state(row, flags, turn):
    """The search state of a position row at the start of its mover's turn.

    Returns the state words ``(low, high, pinned, occupied)``: the mover's counts, four bits a
    point (points 1-12, then 13-24), the pinned opponent checkers and the occupied points, as
    bit masks. Writes into ``turn`` (int64 ``(4,)``) the masks that stay constant for the
    whole turn: points open to the mover (R4), its own pinned checkers, lone opponent
    checkers it could pin, and whether a pin blocks its bear-off (R7).
    """
    low = high = pinned = occupied = 0
    open_points = own_pinned = lone_opponent = 0
    for p in range(POINTS):
        count = np.int64(row[OWN + p])
        if p < _HALF:
            low |= count << (4 * p)
        else:
            high |= count << (4 * (p - _HALF))
        if count:
            occupied |= 1 << p
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


@nb.njit(cache=True, nogil=True)
def _generate_batch(rows, dice, flags):
    """All afterstates of ``rows`` (B, ROW_WIDTH) int8 under ``dice`` (B, 2) int64.

    Returns ``(afterstates, offsets, overflowed)``: the afterstates of row ``i`` are
    ``afterstates[offsets[i]:offsets[i + 1]]``; ``overflowed`` is the first row whose
    afterstates did not fit the table (-1 when all fit).
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
    side_stack = np.zeros((6, _MAX_DICE + 1), dtype=np.int64)
    total = 0
    for b in range(batch):
        low, high, pinned, occupied = turn_state(rows[b], flags, turn)
        first = dice[b, 0]
        second = dice[b, 1]
        doubles = first == second
        entries = 0
        for direction in range(1 if doubles else 2):
            for k in range(_MAX_DICE):
                order[k] = first
            if direction == 1:
                order[0] = second
            elif not doubles:
                order[1] = second
            stack[0, 0], stack[1, 0], stack[2, 0], stack[3, 0] = low, high, pinned, occupied
            if entries >= 0:
                entries = _search_order(
                    order,
                    4 if doubles else 2,
                    doubles,
                    0 if doubles else max(first, second),
                    turn,
                    flags,
                    table,
                    entry_keys,
                    entry_plays,
                    entries,
                    stack,
                    side_stack,
                )
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
        for e in range(entries):
            if entry_plays[e, 0] != longest or (larger_only and not entry_plays[e, 1]):
                continue
            if total >= capacity:
                capacity *= 2
                grown = np.empty((capacity, ROW_WIDTH), dtype=np.int8)
                grown[:total] = out[:total]
                out = grown
            _write_afterstate(
                out, total, rows[b], entry_keys[e, 0], entry_keys[e, 1], entry_keys[e, 2]
            )
            total += 1
        offsets[b + 1] = total
    return out[:total], offsets, -1


def generate_afterstates(
    rows: np.ndarray,
    dice: np.ndarray,
    rules: AnyRules | None = DEFAULT_RULES,
    threads: int = 1,
    *,
    check: bool = True,
    game: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct legal afterstate of a batch of positions, in one compiled call.

    Args:
        rows: ``(B, ROW_WIDTH)`` position rows, each in the frame of its side to move; a
            single row ``(ROW_WIDTH,)`` is a batch of one.
        dice: ``(B, 2)`` integers 1-6, the roll of each row (one row: ``(2,)`` too). A
            Gulbara row with a climb to play takes that double.
        rules: the game's rule choices, which also say the game (:class:`tapa_env.Rules`
            for Tapa, :class:`tapa_env.TablaRules`, :class:`tapa_env.GulbaraRules`); ``None``
            with ``game``: that game's defaults.
        game: ``"tapa"``, ``"tabla"`` or ``"gulbara"``, when ``rules`` is ``None`` (or to
            check that ``rules`` are that game's).
        threads: split the batch over this many threads (the kernel releases the GIL);
            ``0`` means one per core.
        check: check that every row is a position first
            (:func:`tapa_env.position.check_rows`: integer values that fit, counts, pins).
            ``False`` skips that, for rows the engine produced itself; the engine's output
            on rows that are not positions is then undefined.

    Returns:
        ``(afterstates, offsets)``: ``afterstates`` is ``int8`` of shape ``(N, ROW_WIDTH)``,
        still in the mover's frame; ``offsets`` is ``int64`` of shape ``(B + 1,)`` and the
        afterstates of row ``i`` are ``afterstates[offsets[i]:offsets[i + 1]]``. A row whose
        mover must pass has one afterstate, itself. The order is deterministic.

    Raises:
        ValueError: dice of another shape or outside 1-6, rules that are not a ``Rules``,
            threads that is not a non-negative integer, or (:class:`PositionError`) a row that
            is not a position, named by its index.
    """
    if game is not None and rules is DEFAULT_RULES:
        rules = None  # the default argument stands for the game's own defaults
    rules = rules_for(game, rules)
    if not _compile_noticed:
        _notice_first_compile()
    single = np.ndim(rows) == 1
    rows = check_rows(rows, rules.game) if check else as_rows(rows)
    dice = _check_dice(dice, rows.shape[0], single)
    if check and rules.game == "gulbara":
        _check_gulbara_turns(rows, dice)
    flags = rules.flags()
    kernel = _KERNELS[rules.game]
    threads = check_threads(threads) or os.cpu_count() or 1
    if threads <= 1 or rows.shape[0] < 2 * threads:
        return _checked(kernel(rows, dice, flags), 0)
    bounds = np.linspace(0, rows.shape[0], threads + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(
            pool.map(
                lambda start, stop: _checked(
                    kernel(rows[start:stop], dice[start:stop], flags),
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


def _tabla_batch(rows, dice, flags):
    from . import movegen_tabla_gulbara as kernels  # it builds on this module's table

    return kernels.generate_batch(rows, dice, flags, kernels.TABLA)


def _gulbara_batch(rows, dice, flags):
    from . import movegen_tabla_gulbara as kernels

    return kernels.generate_batch(rows, dice, flags, kernels.GULBARA)


_KERNELS = {"tapa": _generate_batch, "tabla": _tabla_batch, "gulbara": _gulbara_batch}


def _check_gulbara_turns(rows: np.ndarray, dice: np.ndarray) -> None:
    """Gulbara rows must be their mover's turn, and a climb takes its own double (G5)."""
    waiting = np.flatnonzero(rows[:, NEXT] != 1)
    if waiting.size:
        raise PositionError(
            f"row {int(waiting[0])}: its next is 'opp', so it is not this side's turn; "
            "flip it (the position seen by the side moving next) first"
        )
    climb = rows[:, CLIMB].astype(np.int64)
    wrong = np.flatnonzero((climb > 0) & ((dice[:, 0] != climb) | (dice[:, 1] != climb)))
    if wrong.size:
        i = int(wrong[0])
        raise ValueError(
            f"row {i} has the climbing double {climb[i]}-{climb[i]} to play (G5), "
            f"not the roll {int(dice[i, 0])}-{int(dice[i, 1])}"
        )


def _check_dice(dice: np.ndarray, batch: int, single: bool) -> np.ndarray:
    """``dice`` as a C-contiguous ``int64`` array ``(batch, 2)``, or a ``ValueError``.

    Only ``(batch, 2)`` is read as one roll per row (and ``(2,)`` for a ``single`` row): a
    transposed ``(2, batch)`` or a flat array would pair rows with the wrong rolls.
    """
    dice = np.asarray(dice)
    if single and dice.shape == (2,):
        dice = dice[None, :]
    if dice.shape != (batch, 2):
        hint = "; they look transposed: pass dice.T" if dice.shape == (2, batch) else ""
        raise ValueError(
            f"dice must have shape (B, 2), one roll per position row: ({batch}, 2) for "
            f"{batch} rows, got {dice.shape}{hint}"
        )
    if dice.size and not np.issubdtype(dice.dtype, np.integer):
        raise ValueError(f"dice must be integers 1-6, got an array of {dice.dtype}")
    dice = np.ascontiguousarray(dice, dtype=np.int64)
    if dice.size and (dice.min() < 1 or dice.max() > 6):
        raise ValueError("every die must be an integer from 1 to 6")
    return dice


def check_threads(threads: object) -> int:
    """``threads`` as an int if it is a non-negative integer, else a ``ValueError``."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 0:
        raise ValueError(
            f"threads must be a non-negative integer (0: one thread per core), got {threads!r}"
        )
    return int(threads)


_COMPILE_NOTICE = (
    "tapa_env: compiling the rules engine once (up to about 20 s); "
    "later runs load it from numba's cache"
)
_compile_noticed = False


def _notice_first_compile() -> None:
    """On the first call, say on stderr that the engine compiles when numba's cache lacks it."""
    global _compile_noticed
    _compile_noticed = True
    if not _in_numba_cache(_generate_batch):
        print(_COMPILE_NOTICE, file=sys.stderr, flush=True)


def _in_numba_cache(kernel) -> bool:
    """Whether numba's on-disk cache holds ``kernel`` compiled from its current source.

    Reads the cache index where numba itself looks (it is empty when missing, stale or
    written by another numba version). Where numba's caching internals differ, answers
    ``True``: better to stay quiet than to announce a compile that does not happen.
    """
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # numba internals, not a public API: any failure means "cannot tell"
        return True


def _checked(result, start: int) -> tuple[np.ndarray, np.ndarray]:
    afterstates, offsets, overflowed = result
    if overflowed >= 0:
        raise RuntimeError(
            f"position {start + overflowed} of the batch has more than {_ENTRY_CAPACITY} "
            "distinct afterstates, more than the engine's table holds"
        )
    return afterstates, offsets
