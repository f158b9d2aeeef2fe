"""Batched generation of every legal afterstate (docs/rules.md), the public front of the engine.

:func:`generate_afterstates` checks its input, picks the game from the rules and runs the
compiled search over the batch, on one thread or several. The search is one for every game
(:mod:`tapa_env.engine.search`, whose docstring says how a turn is searched); a game's rules
enter through its hooks (``tapa_env/games/<game>/kernels.py``, listed in
:mod:`tapa_env.engine.hooks`), and :mod:`tapa_env.engine.dispatch` compiles it for each game.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .engine.dispatch import generate_batch
from .engine.table import ENTRY_CAPACITY
from .games import game_of
from .layout import CLIMB, NEXT, as_rows
from .position import PositionError, check_rows
from .rules import DEFAULT_RULES, AnyRules, rules_for


def game_code(rules: AnyRules) -> int:
    """The integer code of the game ``rules`` are for (the registry's, tapa_env.games), which
    the compiled engine switches on (tapa_env/engine/hooks.py)."""
    return game_of(rules).code


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
        game: a name of :data:`tapa_env.games.GAMES`, when ``rules`` is ``None`` (or to
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
    if check and game_of(rules).moves_again:
        _check_turn_states(rows, dice)
    flags = rules.flags()
    code = game_code(rules)
    threads = check_threads(threads) or os.cpu_count() or 1
    if threads <= 1 or rows.shape[0] < 2 * threads:
        return _checked(generate_batch(rows, dice, flags, code), 0)
    bounds = np.linspace(0, rows.shape[0], threads + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(
            pool.map(
                lambda start, stop: _checked(
                    generate_batch(rows[start:stop], dice[start:stop], flags, code),
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


def _check_turn_states(rows: np.ndarray, dice: np.ndarray) -> None:
    """In a game where a side may move again (Gulbara's climbing doubles, G5), the rows
    must be their mover's turn, and a climb takes its own double."""
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
    "tapa_env: compiling the rules engine once (up to about 40 s); "
    "later runs load it from numba's cache"
)
_compile_noticed = False


def _notice_first_compile() -> None:
    """On the first call, say on stderr that the engine compiles when numba's cache lacks it."""
    global _compile_noticed
    _compile_noticed = True
    if not _in_numba_cache(generate_batch):
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
            f"position {start + overflowed} of the batch has more than {ENTRY_CAPACITY} "
            "distinct afterstates, more than the engine's table holds"
        )
    return afterstates, offsets
