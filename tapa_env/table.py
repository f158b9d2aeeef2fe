"""The games of an environment: who decides, how a decision is made, and what it earns.

A :class:`Table` holds ``count`` games (:class:`tapa_env.batch.Games`) in which the
environment's agent makes the decisions, either a whole play at a time (``"afterstate"``
actions: an index into the turn's afterstates) or a checker move at a time (``"move"``
actions, :mod:`tapa_env.checker_moves`). Without an opponent the agent plays both sides
(self-play); with one, the agent is always player 0 and the opponent's turns are played
inside the table, batched over every game where it is to move. In the move mode a turn with
no legal move passes by itself.

Rewards are the points of a finished game: from the side that made the last decision in
self-play, from the agent's side against an opponent. No Gymnasium here: the envs
(:mod:`tapa_env.envs`) are thin views over a table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .batch import Games
from .checker_moves import CheckerMoves
from .layout import as_rows, climb_dice, flip
from .rules import Rules

ACTION_MODES = ("afterstate", "move")


class Table:
    """``count`` games played by an agent, optionally against an opponent.

    Attributes:
        games: the games (rows in the frame of the side to move).
        moves: the turns in progress, checker move by checker move (``"move"`` mode only).
        over: ``(count,)`` bool: the game has terminated or been truncated.
    """

    def __init__(
        self,
        count: int,
        actions: str,
        rules: Rules,
        max_turns: int,
        opponent: Any = None,
        threads: int = 1,
    ) -> None:
        if actions not in ACTION_MODES:
            raise ValueError(
                f"actions must be 'afterstate' (an index into the turn's afterstates) or "
                f"'move' (one checker move, Discrete(144)), got {actions!r}"
            )
        self.actions = actions
        self.games = Games(count, rules=rules, threads=threads)
        self.moves = CheckerMoves(count, rules) if actions == "move" else None
        self.opponent = opponent
        self.max_turns = max_turns
        self.over = np.zeros(count, dtype=bool)

    @property
    def count(self) -> int:
        return self.games.count

    def start(
        self,
        which: np.ndarray,
        rng: np.random.Generator,
        rows: np.ndarray | None = None,
        dice: np.ndarray | None = None,
    ) -> np.ndarray:
        """Start new games in ``which``: from the initial position with a random first player
        (R2), or from ``rows`` (``(len(which), ROW_WIDTH)``, the agent to move) with ``dice``
        or a roll. Plays the opponent's and forced turns up to the agent's first decision.

        Returns ``(len(which),)`` float64: points the agent already has when a game ended
        before its first decision (only a given position can do that).
        """
        which = np.asarray(which, dtype=np.int64)
        games = self.games
        if rows is None:
            games.start(which, rng, dice=dice)
        else:
            games.rows[which] = as_rows(rows)
            games.turns[which] = 0
            games.to_move[which] = 0
            if dice is None:
                dice = climb_dice(rows, rng.integers(1, 7, size=(len(which), 2)), games.game)
            games.dice[which] = dice
        self.over[which] = False
        rewards = np.zeros(self.count)
        terminated = np.zeros(self.count, dtype=bool)
        truncated = np.zeros(self.count, dtype=bool)
        self._begin_decisions(which)
        self._settle(which, rng, rewards, terminated, truncated)
        return rewards[which]

    def act(
        self, actions: np.ndarray, which: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Make the agent's decision ``actions[k]`` in game ``which[k]`` (none may be over).

        Returns ``(rewards, terminated, truncated)``, each ``(count,)``, non-zero only for
        ``which``. Raises ``ValueError`` naming the game of an illegal action, before any
        game changes.
        """
        which = np.asarray(which, dtype=np.int64)
        rewards = np.zeros(self.count)
        terminated = np.zeros(self.count, dtype=bool)
        truncated = np.zeros(self.count, dtype=bool)
        if self.moves is None:
            self._complete(which, None, np.asarray(actions), rng, rewards, terminated, truncated)
        else:
            done = self.moves.play(actions, which)
            finishing = which[done]
            chosen = self.moves.rows[finishing]
            self._complete(finishing, chosen, None, rng, rewards, terminated, truncated)
        self._settle(which, rng, rewards, terminated, truncated)
        return rewards, terminated, truncated

    def _complete(self, which, chosen, choices, rng, rewards, terminated, truncated) -> None:
        """Play the agent's complete plays (rows ``chosen`` or afterstate ``choices``)."""
        if choices is not None:
            finished, points = self.games.play(choices, which, rng)
        else:
            finished, points = self.games.play_rows(chosen, which, rng)
        # In self-play the reward is the mover's; the agent is the mover either way.
        rewards[which] = points
        self._end_turns(which, finished, rewards, terminated, truncated)
        self._begin_decisions(which[~self.over[which]])

    def _end_turns(self, which, finished, rewards, terminated, truncated) -> None:
        """Mark games that a turn just ended, or that reached the turn limit (R12)."""
        terminated[which] |= finished
        cut = ~finished & (self.games.turns[which] >= self.max_turns)
        truncated[which] |= cut
        self.over[which[finished | cut]] = True

    def _begin_decisions(self, which: np.ndarray) -> None:
        """In the move mode, start the checker-move turns of games where the agent decides."""
        if self.moves is None or not len(which):
            return
        deciding = which[self._agent_to_move(which)]
        self.moves.begin(self.games.rows, self.games.dice, deciding)

    def _agent_to_move(self, which: np.ndarray) -> np.ndarray:
        if self.opponent is None:
            return np.ones(len(which), dtype=bool)
        return self.games.to_move[which] == 0

    def _settle(self, which, rng, rewards, terminated, truncated) -> None:
        """Play the opponent's turns and the agent's forced passes (move mode) until each
        game of ``which`` waits for the agent's decision or is over."""
        games = self.games
        pending = which[~self.over[which]]
        while len(pending):
            agent = self._agent_to_move(pending)
            passing = (
                pending[agent & (self.moves.needed[pending] == 0)]
                if self.moves is not None
                else pending[:0]
            )
            opponent = pending[~agent]
            if not len(passing) and not len(opponent):
                break
            if len(opponent):
                games.generate(opponent)
                afterstates, offsets = games.turn_afterstates(opponent)
                choices = choose(self.opponent, games, opponent, afterstates, offsets, rng)
                finished, points = games.play(choices, opponent, rng)
                rewards[opponent] = -points
                self._end_turns(opponent, finished, rewards, terminated, truncated)
            if len(passing):
                # The pass's afterstate: the position itself (in Gulbara with its turn moved on).
                finished, _ = games.play_rows(self.moves.rows[passing], passing, rng)
                self._end_turns(passing, finished, rewards, terminated, truncated)
            moved = np.concatenate([opponent, passing]).astype(np.int64)
            self._begin_decisions(moved[~self.over[moved]])
            pending = pending[~self.over[pending]]
        self._show_to_agent(which)
        if self.moves is not None:
            ended = which[self.over[which]]
            self.moves.rows[ended] = games.rows[ended]
            self.moves.needed[ended] = 0
            self.moves.masks[ended] = False

    def _show_to_agent(self, which: np.ndarray) -> None:
        """Against an opponent, turn the board of a game that ended to the agent's side."""
        if self.opponent is None:
            return
        turned = which[self.over[which] & (self.games.to_move[which] == 1)]
        self.games.rows[turned] = flip(self.games.rows[turned], self.games.game)
        self.games.to_move[turned] = 0

    def decision_rows(self) -> np.ndarray:
        """``(count, ROW_WIDTH)`` int8: the position each game's agent decides in, mover's
        frame (in the move mode, after the checker moves made so far this turn)."""
        return self.games.rows if self.moves is None else self.moves.rows


def choose(opponent, games: Games, which, afterstates, offsets, rng) -> np.ndarray:
    """The opponent's choice in each game of ``which``: an index into its afterstates."""
    choices = np.asarray(
        opponent.choose_batch(games.rows[which], games.dice[which], afterstates, offsets, rng)
    )
    if choices.shape != (len(which),) or not np.issubdtype(choices.dtype, np.integer):
        raise ValueError(
            f"the opponent {opponent!r} returned {choices.dtype} {choices.shape} from "
            f"choose_batch; it must return {len(which)} integers, one afterstate index a turn"
        )
    return choices.astype(np.int64)


PLAYER_LOADERS = "tapa_env.players"
"""The entry-point group of the function that turns an opponent that is not yet a player (a
name, a path, an object with ``choose(position, dice)``) into one. The rules engine knows no
bot: the package that has them (``agents``, whose ``pyproject.toml`` names
``agents.bots.loading:opponent_player``) registers it, and a name works once it is installed."""


def opponent_player(opponent: Any, rules: Rules) -> Any:
    """The opponent an env plays against: ``None`` (self-play), a player (an object with
    ``choose_batch``) as it is, or what the installed player loader makes of anything else
    under ``rules`` (:data:`PLAYER_LOADERS`)."""
    if opponent is None or callable(getattr(opponent, "choose_batch", None)):
        return opponent
    loader = _player_loader()
    if loader is None:
        raise ValueError(
            f"opponent {opponent!r} is not a player (an object with choose_batch(...)), and no "
            f"player loader is installed to make one of it (entry points {PLAYER_LOADERS!r}: "
            "pip install the project, whose agents package reads names and bot files)"
        )
    return loader(opponent, rules)


def _player_loader() -> Any:
    """The installed player loader (the first of the group), or ``None``."""
    from importlib.metadata import entry_points

    for entry in sorted(entry_points(group=PLAYER_LOADERS), key=lambda e: e.name):
        return entry.load()
    return None
