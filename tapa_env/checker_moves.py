"""A turn played one checker move at a time, for many games at once (compiled with numba).

The checker-move action space is ``Discrete(144)``: action ``6 * (source - 1) + (die - 1)``
moves one checker of the mover from ``source`` (1-24, the mover's numbering) ``die`` pips
toward point 1, or bears it off (R7). A move is legal when it begins some complete legal
play of what is left of the turn. That is how the rules on the dice (R6) hold exactly:

* At the start of a turn the length of its plays is the most dice any play can use, as if
  the game went on after every move (:func:`tapa_env.engine.search.longest_continuation`,
  the engine's own measure). With one die of a non-double playable, the larger die's moves are
  the only legal ones when there are any.
* Later, a move is legal when, after it, the dice left can still complete a play of that
  length (again as if the game went on).
* Under ``win_checked_each_move`` (the default, R6) a move that ends the game ends the turn
  at once; the position at that moment is the play's afterstate.

So the complete plays that masked move sequences reach are exactly the engine's legal
afterstates (``tests/test_checker_moves.py`` checks this on thousands of positions, every
roll, and every rule flag). A turn with no legal move (a pass) has length 0.

Tabla adds the bar as source 25 (actions 144-149: enter with a 1 to a 6); Gulbara writes its
turn columns into the afterstate when the turn is complete, or at once when the mover passes.
The kernels, one for every game, are :mod:`tapa_env.engine.turns`.
"""

from __future__ import annotations

import numpy as np

from .engine import dispatch
from .engine.search import MAX_DICE, TURN_FIELDS
from .engine.turns import DICE_FACES
from .games import DEFAULT_GAME
from .games import game as registered
from .layout import POINTS, ROW_WIDTH, as_rows
from .movegen import game_code
from .rules import DEFAULT_RULES, AnyRules, check_rules

MOVE_ACTIONS = POINTS * DICE_FACES  # 144
BAR_ACTIONS = DICE_FACES
"""Tabla's actions 144-149: a checker enters from the bar (source 25) with a 1 to a 6."""


def move_actions(game: str = DEFAULT_GAME) -> int:
    """The size of ``game``'s checker-move action space: 144, and 150 in a game with a bar
    (Tabla: entering from it)."""
    return MOVE_ACTIONS + (BAR_ACTIONS if registered(game).bar else 0)


def move_action(source: int, die: int) -> int:
    """The action that moves a checker from ``source`` (1-24, mover's numbering) by ``die``."""
    return DICE_FACES * (source - 1) + (die - 1)


def action_move(action: int) -> tuple[int, int]:
    """``(source, die)`` of a checker-move action: the inverse of :func:`move_action`."""
    action = int(action)
    return action // DICE_FACES + 1, action % DICE_FACES + 1


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
        self._code = game_code(rules)
        self.flags = rules.flags()
        self.rows = np.zeros((count, ROW_WIDTH), dtype=np.int8)
        self.dice_left = np.zeros((count, MAX_DICE), dtype=np.int64)
        self.needed = np.zeros(count, dtype=np.int64)
        self._start_rows = np.zeros((count, ROW_WIDTH), dtype=np.int8)
        self._words = np.zeros((count, 4), dtype=np.int64)
        self._turns = np.zeros((count, 4), dtype=np.int64)
        self._larger_only = np.zeros(count, dtype=np.bool_)
        self._preferred_only = np.zeros(count, dtype=np.bool_)
        self._fields = np.zeros((count, TURN_FIELDS), dtype=np.int64)
        self._masks = np.zeros((count, move_actions(self.game)), dtype=np.bool_)

    def begin(self, rows: np.ndarray, dice: np.ndarray, which: np.ndarray) -> None:
        """Start the turn of each game in ``which`` from ``rows[g]`` (mover's frame) with
        ``dice[g]`` ((count, 2) int64)."""
        which = np.asarray(which, dtype=np.int64)
        rows = as_rows(rows)
        dice = np.ascontiguousarray(dice, dtype=np.int64)
        dispatch.begin(
            rows, dice, which, self.flags, self._code, self._start_rows, self._words,
            self._turns, self.dice_left, self.needed, self._larger_only, self._preferred_only,
            self._fields, self.rows,
        )  # fmt: skip
        self._update_masks(which)

    def _update_masks(self, which: np.ndarray) -> None:
        dispatch.masks(
            which, self._code, self._words, self._turns, self.dice_left, self.needed,
            self._larger_only, self._preferred_only, self._masks,
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
        dispatch.apply(
            actions, which, self.flags, self._code, self._start_rows, self._words, self._turns,
            self.dice_left, self.needed, self._fields, self.rows, done,
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
        copy._code = self._code
        for name in self._STATE:
            setattr(copy, name, getattr(self, name)[games].copy())
        return copy

    _STATE = (
        "rows", "dice_left", "needed", "_start_rows", "_words", "_turns", "_larger_only",
        "_preferred_only", "_fields", "_masks",
    )  # fmt: skip

    def get_state(self) -> dict:
        """The turns in progress as plain arrays (for a checkpoint); :meth:`set_state` reads it."""
        return {name.lstrip("_"): getattr(self, name).copy() for name in self._STATE}

    def set_state(self, state: dict) -> None:
        """Continue the turns saved by :meth:`get_state`; ``ValueError`` when malformed."""
        for name in self._STATE:
            if name == "_fields" and "fields" not in state:
                continue  # saved before Gulbara: Tapa's turns have no such columns
            if name == "_preferred_only" and "preferred_only" not in state:
                mine = getattr(self, name)
                mine[:] = False  # saved before Fevga: no rule picked among the plays
                continue
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
