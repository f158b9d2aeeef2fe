"""The engine's compiled entry points, one specialization a game, chosen by its integer code.

Each entry takes the game's code (0 Tapa, 1 Tabla, 2 Gulbara, 3 Fevga: the registry's,
:mod:`tapa_env.games`) as an ordinary argument and calls the generic kernel
(:mod:`tapa_env.engine.search`, :mod:`tapa_env.engine.turns`) with that code as a constant.
Numba types a constant as a literal and compiles the kernel, with the hook switches inlined in
it (:mod:`tapa_env.engine.hooks`), once for each game; so one search serves every game, and
each game's runs about as fast as a search written for it alone.

The calls are static, so numba's on-disk cache (``cache=True``) holds all of it: a fresh
process loads the engine compiled. A hook passed in as an argument, or a kernel built in a
closure over one, would make numba compile the engine anew in every process. Numba's cache
knows only the file of the function it holds: after changing a game's hooks, delete the
engine's cached ``tapa_env/engine/__pycache__/*.nbi`` and ``*.nbc`` files, or the old hooks
stay compiled in.

A new game adds its code to :mod:`tapa_env.engine.hooks` and one branch to each entry here.
"""

from __future__ import annotations

import numba as nb

from . import search, turns
from .hooks import FEVGA, GULBARA, TABLA, TAPA


@nb.njit(cache=True, nogil=True)
def generate_batch(rows, dice, flags, game):
    """:func:`tapa_env.engine.search.generate_batch` compiled for the game of code ``game``."""
    if game == TAPA:
        return search.generate_batch(rows, dice, flags, TAPA)
    if game == TABLA:
        return search.generate_batch(rows, dice, flags, TABLA)
    if game == GULBARA:
        return search.generate_batch(rows, dice, flags, GULBARA)
    return search.generate_batch(rows, dice, flags, FEVGA)


@nb.njit(cache=True, nogil=True)
def begin(
    rows, dice, which, flags, game, start_rows, words, turn_masks, dice_left, needed,
    larger_only, preferred_only, fields, out_rows,
):  # fmt: skip
    """:func:`tapa_env.engine.turns.begin` compiled for the game of code ``game``."""
    if game == TAPA:
        turns.begin(
            rows, dice, which, flags, TAPA, start_rows, words, turn_masks, dice_left, needed,
            larger_only, preferred_only, fields, out_rows,
        )  # fmt: skip
    elif game == TABLA:
        turns.begin(
            rows, dice, which, flags, TABLA, start_rows, words, turn_masks, dice_left, needed,
            larger_only, preferred_only, fields, out_rows,
        )  # fmt: skip
    elif game == GULBARA:
        turns.begin(
            rows, dice, which, flags, GULBARA, start_rows, words, turn_masks, dice_left,
            needed, larger_only, preferred_only, fields, out_rows,
        )  # fmt: skip
    else:
        turns.begin(
            rows, dice, which, flags, FEVGA, start_rows, words, turn_masks, dice_left,
            needed, larger_only, preferred_only, fields, out_rows,
        )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def masks(which, game, words, turn_masks, dice_left, needed, larger_only, preferred_only, out):
    """:func:`tapa_env.engine.turns.masks` compiled for the game of code ``game``."""
    if game == TAPA:
        turns.masks(
            which, TAPA, words, turn_masks, dice_left, needed, larger_only, preferred_only, out
        )
    elif game == TABLA:
        turns.masks(
            which, TABLA, words, turn_masks, dice_left, needed, larger_only, preferred_only, out
        )
    elif game == GULBARA:
        turns.masks(
            which, GULBARA, words, turn_masks, dice_left, needed, larger_only, preferred_only,
            out,
        )  # fmt: skip
    else:
        turns.masks(
            which, FEVGA, words, turn_masks, dice_left, needed, larger_only, preferred_only, out
        )


@nb.njit(cache=True, nogil=True)
def apply(
    actions, which, flags, game, start_rows, words, turn_masks, dice_left, needed, fields,
    rows, done,
):  # fmt: skip
    """:func:`tapa_env.engine.turns.apply` compiled for the game of code ``game``."""
    if game == TAPA:
        turns.apply(
            actions, which, flags, TAPA, start_rows, words, turn_masks, dice_left, needed,
            fields, rows, done,
        )  # fmt: skip
    elif game == TABLA:
        turns.apply(
            actions, which, flags, TABLA, start_rows, words, turn_masks, dice_left, needed,
            fields, rows, done,
        )  # fmt: skip
    elif game == GULBARA:
        turns.apply(
            actions, which, flags, GULBARA, start_rows, words, turn_masks, dice_left, needed,
            fields, rows, done,
        )  # fmt: skip
    else:
        turns.apply(
            actions, which, flags, FEVGA, start_rows, words, turn_masks, dice_left, needed,
            fields, rows, done,
        )  # fmt: skip
