"""A turn played one checker move at a time, for many games at once: the compiled kernels
under :class:`tapa_env.checker_moves.CheckerMoves`, one for every game.

A move is legal when it begins some complete legal play of what is left of the turn. That is
how the rules on the dice (R6, T6, G3) hold exactly:

* At the start of a turn the length of its plays is the most dice any play can use, as if
  the game went on after every move (:func:`tapa_env.engine.search.longest_continuation`,
  the search's own measure). With one die of a non-double playable, the larger die's moves
  are the only legal ones when there are any.
* Later, a move is legal when, after it, the dice left can still complete a play of that
  length (again as if the game went on).
* Where the game may end part-way through a play (Tapa, R6), a move that ends it ends the
  turn at once; the position at that moment is the play's afterstate.
* Where a rule judges a play by where it ends (Fevga's F6 and F7), the turn's plays are those
  of the afterstate search itself (:func:`tapa_env.engine.search.search_row`): its length, and
  whether only the larger die or only the preferred afterstates count; a move is legal when
  the dice left can finish a play of that length that ends where the rules allow.

A move is action ``6 * source + die - 1``: ``source`` 0-23 a point (the mover's point
``source + 1``), 24 the bar. Each game's state is the search's four words (``words``), the
turn's constant masks (``turns``), the dice left (``dice_left``, 0 for a die used or absent;
a non-double's larger die first) and the moves still needed (``needed``); ``fields`` holds the
columns its afterstate takes besides the board, written when the turn is complete.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from . import hooks
from .bits import lowest_bit
from .search import ANY_SOURCE, MAX_DICE, longest_continuation, search_row
from .table import clear, new_table

DICE_FACES = 6


@nb.njit(cache=True, nogil=True)
def begin(
    rows, dice, which, flags, game, start_rows, words, turns, dice_left, needed, larger_only,
    preferred_only, fields, out_rows,
):  # fmt: skip
    """Start the turns of the games ``which``: their state, dice, the length of their plays
    (0: the mover passes) and the columns their afterstates will take; a game whose mover
    passes gets its afterstate in ``out_rows`` at once."""
    stack = np.zeros((6, MAX_DICE + 1), dtype=np.int64)
    side_stack = np.zeros((6, MAX_DICE + 1), dtype=np.int64)
    order = np.zeros(MAX_DICE, dtype=np.int64)
    table = new_table()
    for k in range(which.shape[0]):
        g = which[k]
        row = rows[g]
        start_rows[g] = row
        out_rows[g] = row
        low, high, extra, occupied = hooks.turn_state(game, row, flags, turns[g])
        turn = (turns[g, 0], turns[g, 1], turns[g, 2], turns[g, 3])
        words[g, 0], words[g, 1], words[g, 2], words[g, 3] = low, high, extra, occupied
        first, second = dice[g, 0], dice[g, 1]
        larger_only[g] = False
        preferred_only[g] = False
        for i in range(MAX_DICE):
            dice_left[g, i] = 0
        if _judged_by_end(game, turn):
            count = hooks.dice_to_play(game, row, first == second)
            if first == second:
                for i in range(count):
                    dice_left[g, i] = first
            else:
                dice_left[g, 0], dice_left[g, 1] = max(first, second), min(first, second)
            entries, longest, larger, preferred = search_row(
                game, row, first, second, flags, table[0], table[1], table[2], order,
                turns[g], stack, side_stack,
            )  # fmt: skip
            clear(table[0], table[1], entries)
            needed[g], larger_only[g], preferred_only[g] = longest, larger, preferred
        elif first == second:
            count = hooks.dice_to_play(game, row, True)
            for i in range(count):
                dice_left[g, i] = first
                order[i] = first
            needed[g] = longest_continuation(
                game, low, high, extra, occupied, order, 0, count,
                hooks.in_order(game, True, turn), ANY_SOURCE, turn, stack,
            )  # fmt: skip
        else:
            dice_left[g, 0], dice_left[g, 1] = max(first, second), min(first, second)
            longest = 0
            for direction in range(2):
                order[0] = first if direction == 0 else second
                order[1] = second if direction == 0 else first
                length = longest_continuation(
                    game, low, high, extra, occupied, order, 0, 2, False, ANY_SOURCE, turn,
                    stack,
                )  # fmt: skip
                longest = max(longest, length)
            needed[g] = longest
            if longest == 1:
                larger = hooks.legal_sources(
                    game, low, high, extra, occupied, max(first, second), turn
                )
                larger_only[g] = larger != 0
        hooks.turn_columns(game, row, dice[g], needed[g], flags, fields[g])
        if needed[g] == 0:
            hooks.write_turn(game, out_rows, g, fields[g], low, high, extra)


@nb.njit(cache=True, nogil=True)
def masks(which, game, words, turns, dice_left, needed, larger_only, preferred_only, out):
    """Write into ``out[g]`` (bool, six actions a source) the legal moves of each game ``g``
    in ``which``."""
    stack = np.zeros((6, MAX_DICE + 1), dtype=np.int64)
    rest = np.zeros(MAX_DICE, dtype=np.int64)
    for k in range(which.shape[0]):
        g = which[k]
        out[g, :] = False
        if needed[g] == 0:
            continue
        turn = (turns[g, 0], turns[g, 1], turns[g, 2], turns[g, 3])
        low, high, extra, occupied = words[g, 0], words[g, 1], words[g, 2], words[g, 3]
        tried = 0
        for i in range(MAX_DICE):
            die = dice_left[g, i]
            if die == 0 or (tried >> die) & 1:
                continue
            tried |= 1 << die
            if larger_only[g] and die != dice_left[g, 0]:
                continue
            # The dice left after this one, for the rest of the play.
            count = 0
            skipped = False
            for j in range(MAX_DICE):
                other = dice_left[g, j]
                if other == 0:
                    continue
                if other == die and not skipped:
                    skipped = True
                    continue
                rest[count] = other
                count += 1
            ordered = hooks.in_order(game, count > 0 and rest[0] == die, turn)
            sources = hooks.legal_sources(game, low, high, extra, occupied, die, turn)
            judged = _judged_by_end(game, turn)
            while sources:
                source = lowest_bit(sources)
                sources &= sources - 1
                legal = needed[g] == 1
                if judged:
                    after = hooks.move(game, low, high, extra, occupied, source, die, turn)
                    legal = _finishes(
                        game, after[0], after[1], after[2], after[3], rest, needed[g] - 1,
                        preferred_only[g], turn, stack,
                    )  # fmt: skip
                elif not legal:
                    after = hooks.move(game, low, high, extra, occupied, source, die, turn)
                    further = longest_continuation(
                        game, after[0], after[1], after[2], after[3], rest, 0, count,
                        ordered, ANY_SOURCE, turn, stack,
                    )  # fmt: skip
                    legal = further >= needed[g] - 1
                if legal:
                    out[g, DICE_FACES * source + die - 1] = True


@nb.njit(cache=True, nogil=True, inline="always")
def _judged_by_end(game, turn):
    """Whether a rule judges this turn's plays by where they end (:mod:`.hooks`)."""
    return hooks.records_prefixes(game, turn) or hooks.has_preference(game, turn)


@nb.njit(cache=True, nogil=True, inline="always")
def _ends_well(game, low, high, extra, occupied, preferred_only, turn):
    """Whether a play may end on this state: the game accepts it, and prefers it when only
    preferred afterstates count."""
    if hooks.records_prefixes(game, turn) and not hooks.accepts(
        game, low, high, extra, occupied, turn
    ):
        return False
    return not preferred_only or hooks.prefers(game, low, high, extra, occupied, turn)


@nb.njit(cache=True, nogil=True)
def _finishes(game, low, high, extra, occupied, dice, moves, preferred_only, turn, stack):
    """Whether ``moves`` more checker moves of ``dice[:moves]``, in every order of sources,
    can reach a state where a play may end (:func:`_ends_well`)."""
    if moves == 0:
        return _ends_well(game, low, high, extra, occupied, preferred_only, turn)
    stack[0, 0], stack[1, 0], stack[2, 0], stack[3, 0] = low, high, extra, occupied
    stack[4, 0] = -1
    level = 0
    while level >= 0:
        if stack[4, level] < 0:
            stack[4, level] = hooks.legal_sources(
                game, stack[0, level], stack[1, level], stack[2, level], stack[3, level],
                dice[level], turn,
            )  # fmt: skip
        candidates = stack[4, level]
        if candidates == 0:
            level -= 1
            continue
        source = lowest_bit(candidates)
        stack[4, level] = candidates & (candidates - 1)
        after = hooks.move(
            game, stack[0, level], stack[1, level], stack[2, level], stack[3, level], source,
            dice[level], turn,
        )  # fmt: skip
        if level + 1 == moves:
            if _ends_well(game, after[0], after[1], after[2], after[3], preferred_only, turn):
                return True
            continue
        level += 1
        stack[0, level], stack[1, level], stack[2, level], stack[3, level] = after
        stack[4, level] = -1
    return False


@nb.njit(cache=True, nogil=True)
def apply(
    actions, which, flags, game, start_rows, words, turns, dice_left, needed, fields, rows, done
):
    """Play ``actions[k]`` (already checked legal) in game ``which[k]``: move the checker,
    use the die, write the position now into ``rows[g]``, and set ``done[k]`` when the turn
    is complete (its play is whole, or the move ended the game)."""
    check_each_move = hooks.checks_each_move(game, flags)
    for k in range(which.shape[0]):
        g = which[k]
        source = actions[k] // DICE_FACES
        die = actions[k] % DICE_FACES + 1
        turn = (turns[g, 0], turns[g, 1], turns[g, 2], turns[g, 3])
        after = hooks.move(
            game, words[g, 0], words[g, 1], words[g, 2], words[g, 3], source, die, turn
        )
        words[g, 0], words[g, 1], words[g, 2], words[g, 3] = after
        for i in range(MAX_DICE - 1, -1, -1):
            if dice_left[g, i] == die:
                dice_left[g, i] = 0
                break
        needed[g] -= 1
        hooks.write_afterstate(game, rows, g, start_rows[g], after[0], after[1], after[2])
        ended = check_each_move and hooks.game_ended(
            game, after[0], after[1], after[2], after[3], turn, flags
        )
        done[k] = ended or needed[g] <= 0
        if done[k]:
            needed[g] = 0
            hooks.write_turn(game, rows, g, fields[g], after[0], after[1], after[2])
