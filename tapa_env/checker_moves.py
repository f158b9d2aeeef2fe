"""A turn played one checker move at a time, for many games at once (compiled with numba).

The checker-move action space is ``Discrete(144)``: action ``6 * (source - 1) + (die - 1)``
moves one checker of the mover from ``source`` (1-24, the mover's numbering) ``die`` pips
toward point 1, or bears it off (R7). A move is legal when it begins some complete legal
play of what is left of the turn. That is how the rules on the dice (R6) hold exactly:

* At the start of a turn the length of its plays is the most dice any play can use, as if
  the game went on after every move (:func:`tapa_env.movegen._longest_continuation`, the
  engine's own measure). With one die of a non-double playable, the larger die's moves are
  the only legal ones when there are any.
* Later, a move is legal when, after it, the dice left can still complete a play of that
  length (again as if the game went on).
* Under ``win_checked_each_move`` (the default, R6) a move that ends the game ends the turn
  at once; the position at that moment is the play's afterstate.

So the complete plays that masked move sequences reach are exactly the engine's legal
afterstates (``tests/test_checker_moves.py`` checks this on thousands of positions, every
roll, and every rule flag). A turn with no legal move (a pass) has length 0.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import POINTS, ROW_WIDTH, as_rows
from .movegen import (
    _WIN_CHECKED_EACH_MOVE,
    _game_ended,
    _legal_sources,
    _longest_continuation,
    _lowest_bit,
    _move,
    _write_afterstate,
    turn_state,
)
from .rules import DEFAULT_RULES, AnyRules, check_rules

DICE_FACES = 6
MOVE_ACTIONS = POINTS * DICE_FACES  # 144
BAR_ACTIONS = DICE_FACES
"""Tabla's actions 144-149: a checker enters from the bar (source 25) with a 1 to a 6."""
_MAX_DICE = 4


def move_actions(game: str = "tapa") -> int:
    """The size of ``game``'s checker-move action space: 144, and 150 in Tabla (the bar)."""
    return MOVE_ACTIONS + (BAR_ACTIONS if game == "tabla" else 0)


def move_action(source: int, die: int) -> int:
    """The action that moves a checker from ``source`` (1-24, mover's numbering) by ``die``."""
    return DICE_FACES * (source - 1) + (die - 1)


def action_move(action: int) -> tuple[int, int]:
    """``(source, die)`` of a checker-move action: the inverse of :func:`move_action`."""
    action = int(action)
    return action // DICE_FACES + 1, action % DICE_FACES + 1


@nb.njit(cache=True, nogil=True)
def _begin(rows, dice, which, flags, start_rows, words, turns, dice_left, needed, larger_only):
    """Start the turns of the games ``which``: their state, dice and the length of their
    plays (0: the mover passes)."""
    stack = np.zeros((6, _MAX_DICE + 1), dtype=np.int64)
    order = np.zeros(_MAX_DICE, dtype=np.int64)
    for k in range(which.shape[0]):
        g = which[k]
        start_rows[g] = rows[g]
        low, high, pinned, occupied = turn_state(rows[g], flags, turns[g])
        words[g, 0], words[g, 1], words[g, 2], words[g, 3] = low, high, pinned, occupied
        first, second = dice[g, 0], dice[g, 1]
        larger_only[g] = False
        if first == second:
            for i in range(_MAX_DICE):
                dice_left[g, i] = first
                order[i] = first
            needed[g] = _longest_continuation(
                low, high, pinned, occupied, order, 0, 4, True, POINTS - 1, turns[g], stack
            )
            continue
        dice_left[g, 0], dice_left[g, 1] = max(first, second), min(first, second)
        dice_left[g, 2] = dice_left[g, 3] = 0
        longest = 0
        for direction in range(2):
            order[0] = first if direction == 0 else second
            order[1] = second if direction == 0 else first
            length = _longest_continuation(
                low, high, pinned, occupied, order, 0, 2, False, POINTS - 1, turns[g], stack
            )
            longest = max(longest, length)
        needed[g] = longest
        if longest == 1:
            t = turns[g]
            larger = _legal_sources(occupied, max(first, second), t[0], t[1], t[3])
            larger_only[g] = larger != 0


@nb.njit(cache=True, nogil=True)
def _masks(which, words, turns, dice_left, needed, larger_only, out):
    """Write into ``out[g]`` (bool ``(144,)``) the legal moves of each game ``g`` in ``which``."""
    stack = np.zeros((6, _MAX_DICE + 1), dtype=np.int64)
    rest = np.zeros(_MAX_DICE, dtype=np.int64)
    for k in range(which.shape[0]):
        g = which[k]
        out[g, :] = False
        if needed[g] == 0:
            continue
        t = turns[g]
        low, high, pinned, occupied = words[g, 0], words[g, 1], words[g, 2], words[g, 3]
        tried = 0
        for i in range(_MAX_DICE):
            die = dice_left[g, i]
            if die == 0 or (tried >> die) & 1:
                continue
            tried |= 1 << die
            if larger_only[g] and die != dice_left[g, 0]:
                continue
            # The dice left after this one, for the rest of the play.
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
            doubles = count > 0 and rest[0] == die
            sources = _legal_sources(occupied, die, t[0], t[1], t[3])
            while sources:
                source = _lowest_bit(sources)
                sources &= sources - 1
                legal = needed[g] == 1
                if not legal:
                    after = _move(low, high, pinned, occupied, source, die, t[2])
                    further = _longest_continuation(
                        after[0], after[1], after[2], after[3], rest, 0, count, doubles,
                        POINTS - 1, t, stack,
                    )  # fmt: skip
                    legal = further >= needed[g] - 1
                if legal:
                    out[g, 6 * source + die - 1] = True


@nb.njit(cache=True, nogil=True)
def _apply(actions, which, flags, start_rows, words, turns, dice_left, needed, rows, done):
    """Play ``actions[k]`` (already checked legal) in game ``which[k]``: move the checker,
    use the die, write the position now into ``rows[g]``, and set ``done[k]`` when the turn
    is complete (its play is whole, or the move ended the game, R6)."""
    check_each_move = flags[_WIN_CHECKED_EACH_MOVE] != 0
    for k in range(which.shape[0]):
        g = which[k]
        source = actions[k] // 6
        die = actions[k] % 6 + 1
        t = turns[g]
        after = _move(words[g, 0], words[g, 1], words[g, 2], words[g, 3], source, die, t[2])
        words[g, 0], words[g, 1], words[g, 2], words[g, 3] = after
        for i in range(_MAX_DICE - 1, -1, -1):
            if dice_left[g, i] == die:
                dice_left[g, i] = 0
                break
        needed[g] -= 1
        _write_afterstate(rows, g, start_rows[g], after[0], after[1], after[2])
        own_mother_pinned = (t[1] >> (POINTS - 1)) & 1
        ended = check_each_move and _game_ended(after[2], after[3], own_mother_pinned, flags)
        done[k] = ended or needed[g] <= 0
        if done[k]:
            needed[g] = 0


class CheckerMoves:
    """The turns of ``count`` games played a checker move at a time.

    Attributes:
        rows: ``(count, ROW_WIDTH)`` int8: each game's position as it stands after the moves
            made so far this turn, in the mover's frame.
        dice_left: ``(count, 4)`` int64: the dice still to play (0 for a die used or
            absent; a non-double's larger die first).
        needed: ``(count,)`` int64: checker moves still to make in the turn (0: none, the
            turn is complete or the mover passes).
    """

    def __init__(self, count: int, rules: AnyRules = DEFAULT_RULES) -> None:
        self.count = count
        rules = check_rules(rules)
        self.game = rules.game
        self.flags = rules.flags()
        self.rows = np.zeros((count, ROW_WIDTH), dtype=np.int8)
        self.dice_left = np.zeros((count, _MAX_DICE), dtype=np.int64)
        self.needed = np.zeros(count, dtype=np.int64)
        self._start_rows = np.zeros((count, ROW_WIDTH), dtype=np.int8)
        self._words = np.zeros((count, 4), dtype=np.int64)
        self._turns = np.zeros((count, 4), dtype=np.int64)
        self._larger_only = np.zeros(count, dtype=np.bool_)
        self._fields = np.zeros((count, 6), dtype=np.int64)
        self._masks = np.zeros((count, move_actions(self.game)), dtype=np.bool_)

    def begin(self, rows: np.ndarray, dice: np.ndarray, which: np.ndarray) -> None:
        """Start the turn of each game in ``which`` from ``rows[g]`` (mover's frame) with
        ``dice[g]`` ((count, 2) int64)."""
        which = np.asarray(which, dtype=np.int64)
        rows = as_rows(rows)
        dice = np.ascontiguousarray(dice, dtype=np.int64)
        if self.game != "tapa":
            _other_games().begin(
                rows, dice, which, self.flags, _KERNEL_GAME[self.game], self._start_rows,
                self._words, self._turns, self.dice_left, self.needed, self._larger_only,
                self._fields, self.rows,
            )  # fmt: skip
        else:
            _begin(
                rows, dice, which, self.flags, self._start_rows, self._words, self._turns,
                self.dice_left, self.needed, self._larger_only,
            )  # fmt: skip
            self.rows[which] = rows[which]
        self._update_masks(which)

    def _update_masks(self, which: np.ndarray) -> None:
        kernel = _masks if self.game == "tapa" else _other_games().masks
        kernel(
            which, self._words, self._turns, self.dice_left, self.needed, self._larger_only,
            self._masks,
        )  # fmt: skip

    @property
    def masks(self) -> np.ndarray:
        """``(count, 144)`` bool (Tabla: 150): the legal checker moves of each game now (a
        view)."""
        return self._masks

    def dice_counts(self) -> np.ndarray:
        """``(count, 6)`` int64: how many of each die face 1-6 each game still has to play."""
        faces = np.arange(1, DICE_FACES + 1)
        return (self.dice_left[:, :, None] == faces[None, None, :]).sum(axis=1)

    def play(self, actions: np.ndarray, which: np.ndarray) -> np.ndarray:
        """Make the checker move ``actions[k]`` in game ``which[k]``; returns bool ``(k,)``:
        whose turns are now complete (``rows`` then holds the afterstate).

        Raises ``ValueError`` naming the first game whose action is not a legal move now.
        """
        which = np.asarray(which, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        inside = (actions >= 0) & (actions < self._masks.shape[1])
        legal = inside.copy()
        legal[inside] = self._masks[which[inside], actions[inside]]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(self.illegal_message(int(which[bad]), actions[bad]))
        done = np.zeros(len(which), dtype=np.bool_)
        if self.game != "tapa":
            _other_games().apply(
                actions, which, _KERNEL_GAME[self.game], self._start_rows, self._words,
                self._turns, self.dice_left, self.needed, self._fields, self.rows, done,
            )  # fmt: skip
        else:
            _apply(
                actions, which, self.flags, self._start_rows, self._words, self._turns,
                self.dice_left, self.needed, self.rows, done,
            )  # fmt: skip
        self._update_masks(which[~done])
        self._masks[which[done]] = False
        return done

    def take(self, games: np.ndarray) -> CheckerMoves:
        """A new :class:`CheckerMoves` whose game ``k`` is a copy of game ``games[k]`` of this
        one, turn state and all (for searching move sequences)."""
        games = np.asarray(games, dtype=np.int64)
        copy = CheckerMoves.__new__(CheckerMoves)
        copy.count = len(games)
        copy.flags = self.flags
        copy.game = self.game
        for name in self._STATE:
            setattr(copy, name, getattr(self, name)[games].copy())
        return copy

    _STATE = (
        "rows", "dice_left", "needed", "_start_rows", "_words", "_turns", "_larger_only",
        "_fields", "_masks",
    )  # fmt: skip

    def get_state(self) -> dict:
        """The turns in progress as plain arrays (for a checkpoint); :meth:`set_state` reads it."""
        return {name.lstrip("_"): getattr(self, name).copy() for name in self._STATE}

    def set_state(self, state: dict) -> None:
        """Continue the turns saved by :meth:`get_state`; ``ValueError`` when malformed."""
        for name in self._STATE:
            if name == "_fields" and "fields" not in state:
                continue  # saved before Gulbara: Tapa's turns have no such columns
            saved = np.asarray(state[name.lstrip("_")])
            mine = getattr(self, name)
            if saved.shape != mine.shape:
                raise ValueError(
                    f"the saved turns' {name.lstrip('_')} has shape {saved.shape}, not {mine.shape}"
                )
            mine[:] = saved

    def illegal_message(self, game: int, action: object) -> str:
        """Why ``action`` is not a legal move of ``game`` now, with the legal moves."""
        legal = [int(a) for a in np.flatnonzero(self._masks[game])]
        moves = ", ".join(f"{a} ({_move_text(a)})" for a in legal[:12])
        more = ", ..." if len(legal) > 12 else ""
        size = self._masks.shape[1]
        if isinstance(action, (int, np.integer)) and 0 <= action < size:
            what = f"action {int(action)} ({_move_text(int(action))}) is not a legal move"
        else:
            what = f"action {action!r} is not a checker move 0..{size - 1}"
        return f"game {game}: {what}; the legal moves now are {moves}{more}"


def _move_text(action: int) -> str:
    source, die = action_move(action)
    if source == POINTS + 1:
        return f"bar/{POINTS + 1 - die} with a {die}"
    target = source - die
    return f"{source}/{target if target > 0 else 'off'} with a {die}"


_KERNEL_GAME = {"tabla": 1, "gulbara": 2}


def _other_games():
    """Tabla's and Gulbara's kernels (:mod:`tapa_env.checker_moves_tabla_gulbara`)."""
    from . import checker_moves_tabla_gulbara

    return checker_moves_tabla_gulbara
