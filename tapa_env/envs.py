"""Gymnasium environments over the batched engine: ``Tapa-v0``, single and native vector.

Both play from the side to move. The observation is the encoded position
(:mod:`tapa_env.encoding`) and the roll; an action picks one of the turn's legal afterstates,
in the engine's order. The reward is the points of a finished game from the side that just
moved (R8, R9, R10), 0 before then. A configurable turn limit truncates a game (R12).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import error, spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .encoding import Encoding, get_encoding
from .games import MAX_AFTERSTATES, Games
from .layout import as_rows, flip
from .position import Position
from .rules import DEFAULT_RULES, Rules

DEFAULT_MAX_TURNS = 1000


def _observation_space(encoding: Encoding) -> spaces.Dict:
    return spaces.Dict(
        {
            "position": spaces.Box(0.0, 6.0, shape=(encoding.size,), dtype=np.float32),
            "dice": spaces.Box(1, 6, shape=(2,), dtype=np.int64),
        }
    )


class TurnActions(spaces.Discrete):
    """``Discrete(K)``: an index into this turn's afterstates; ``sample()`` draws a legal one.

    ``legal`` is the number of afterstates of the current turn, kept up to date by the env.
    A masked or weighted ``sample`` behaves as :class:`gymnasium.spaces.Discrete`'s.
    """

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self.legal = 1

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            return np.int64(self.np_random.integers(self.legal))
        return super().sample(mask=mask, probability=probability)


class TurnActionsBatch(spaces.MultiDiscrete):
    """One :class:`TurnActions` per game of a vector env; ``sample()`` draws legal actions."""

    def __init__(self, n: int, num_envs: int, seed: int | None = None) -> None:
        super().__init__(np.full(num_envs, n, dtype=np.int64), seed=seed)
        self.legal = np.ones(num_envs, dtype=np.int64)

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is None and probability is None:
            return (self.np_random.random(len(self.legal)) * self.legal).astype(np.int64)
        return super().sample(mask=mask, probability=probability)


def _check_max_turns(max_turns: int) -> int:
    if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)):
        raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
    if max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer, got {max_turns}")
    return int(max_turns)


class ResetNeededError(error.ResetNeeded, ValueError):
    """``step()`` before the first ``reset()``: Gymnasium's ``ResetNeeded``, also a ValueError."""


def _reset_needed() -> ResetNeededError:
    return ResetNeededError(
        "Cannot call step() before reset(): there is no game yet; call reset() first"
    )


def _action(action: Any, legal: int, game: str = "") -> int:
    """``action`` as an int, or a ``ValueError`` naming the legal range."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise ValueError(
            f"{game}an action is an integer afterstate index in 0..{legal - 1} "
            f"(this turn has {legal} afterstates), got {action!r}"
        )
    if not 0 <= action < legal:
        raise ValueError(
            f"{game}action {action} is not legal: this turn has {legal} afterstates, "
            f"so the action must be in 0..{legal - 1}"
        )
    return int(action)


class TapaEnv(gym.Env):
    """One game of Tapa, played from the side to move.

    Args:
        encoding: the position encoding, ``"raw"`` or ``"expert"``.
        opponent: optional player (anything with ``choose(position, dice) -> Position``) for
            the other side; then the agent is player 0, every observation is the agent's
            turn, and the reward is from the agent's side.
        max_turns: turns (of both sides) after which a game is truncated.
        rules: the rule choices (:class:`tapa_env.Rules`).
        render_mode: ``"ansi"``, the default: ``render()`` returns the board as text;
            ``"human"``: ``render()`` and every step print it; ``None``: no rendering.

    ``info`` carries ``afterstates`` (the encoded afterstates of this turn, float32
    ``(n, size)``), ``afterstate_rows`` (their int8 rows), ``action_mask`` (bool ``(K,)``:
    the first ``n`` are legal), ``to_move`` (the player to move, 0 or 1) and ``turn``.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        encoding: str = "raw",
        opponent: Any = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        rules: Rules = DEFAULT_RULES,
        render_mode: str | None = "ansi",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use one of "
                f"{self.metadata['render_modes']} or None"
            )
        if opponent is not None and not callable(getattr(opponent, "choose", None)):
            raise ValueError("opponent must have a choose(position, dice) -> Position method")
        self.encoding = get_encoding(encoding)
        self.opponent = opponent
        self.max_turns = _check_max_turns(max_turns)
        self.rules = rules
        self.render_mode = render_mode
        self.observation_space = _observation_space(self.encoding)
        self.action_space = TurnActions(MAX_AFTERSTATES)
        self._games = Games(1, rules=rules)
        self._all = np.zeros(1, dtype=np.int64)
        self._started = False

    @property
    def position(self) -> Position:
        """The position now, from the side to move."""
        return Position._trusted(self._games.rows[0])

    @property
    def dice(self) -> tuple[int, int]:
        """The roll the side to move plays now."""
        return int(self._games.dice[0, 0]), int(self._games.dice[0, 1])

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._games.start(self._all, self.np_random)
        self._games.generate()
        self._started = True
        self._finished = False
        if self.opponent is not None:
            self._opponent_turns()  # the opponent may have the first turn (R2)
            self._games.generate()
        return self._observation(), self._info()

    def step(self, action: Any):
        if not self._started:
            raise _reset_needed()
        if self._finished:
            raise RuntimeError("the game is over: call reset() before step()")
        choice = _action(action, int(self._games.counts[0]))
        finished, points = self._games.play(np.array([choice]), self._all, self.np_random)
        reward = float(points[0])
        terminated = bool(finished[0])
        truncated = not terminated and bool(self._games.turns[0] >= self.max_turns)
        if self.opponent is not None and not (terminated or truncated):
            self._games.generate()
            opponent_points, terminated, truncated = self._opponent_turns()
            reward = -opponent_points
        if self.opponent is not None and self._games.to_move[0] == 1:
            self._show_to_agent()
        self._games.generate()
        self._finished = terminated or truncated
        if self.render_mode == "human":
            print(self.render_text())
        return self._observation(), reward, terminated, truncated, self._info()

    def _opponent_turns(self) -> tuple[float, bool, bool]:
        """Let the opponent play while it is to move; its points, terminated, truncated."""
        games = self._games
        while games.to_move[0] == 1:
            chosen = self.opponent.choose(self.position, self.dice)
            rows = games.afterstates[games.offsets[0] : games.offsets[1]]
            matches = np.flatnonzero((rows == getattr(chosen, "row", None)).all(axis=1))
            if matches.size == 0:
                raise ValueError(
                    f"the opponent chose {chosen!r}, which is not a legal afterstate of "
                    f"{self.position.key!r} with {self.dice}"
                )
            finished, points = games.play(matches[:1], self._all, self.np_random)
            if finished[0]:
                return float(points[0]), True, False
            if games.turns[0] >= self.max_turns:
                return 0.0, False, True
        return 0.0, False, False

    def _show_to_agent(self) -> None:
        """At the end of a game against the opponent, turn the board to the agent's side."""
        games = self._games
        games.rows[0] = flip(games.rows[0])
        games.to_move[0] = 0

    def _observation(self) -> dict:
        return {
            "position": self.encoding.encode(self._games.rows, check=False)[0],
            "dice": self._games.dice[0].copy(),
        }

    def _info(self) -> dict:
        games = self._games
        self.action_space.legal = int(games.counts[0])
        rows = games.afterstates[games.offsets[0] : games.offsets[1]].copy()
        mask = np.zeros(MAX_AFTERSTATES, dtype=bool)
        mask[: len(rows)] = True
        return {
            "afterstates": self.encoding.encode(rows, check=False),
            "afterstate_rows": rows,
            "action_mask": mask,
            "to_move": int(games.to_move[0]),
            "turn": int(games.turns[0]),
        }

    def render_text(self) -> str:
        """The board from the side to move, its roll and the turn."""
        side = "player 0" if self._games.to_move[0] == 0 else "player 1"
        return (
            f"{self.position}\n{side} (O) to move, rolled {self.dice[0]}-{self.dice[1]}, "
            f"turn {int(self._games.turns[0]) + 1}"
        )

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "human":
            print(self.render_text())
        return None


class Afterstates:
    """Every legal afterstate of every game of a vector env, as one flat batch.

    ``rows`` is int8 ``(M, ROW_WIDTH)`` and game ``i`` owns ``rows[offsets[i]:offsets[i + 1]]``;
    an action of game ``i`` indexes into its own slice. ``positions`` is int8
    ``(N, ROW_WIDTH)``: the position each game's afterstates were played from, in the same
    (mover's) frame. ``encoded`` is the float32
    ``(M, size)`` encoding, computed on first use (into ``out`` when given); ``padded()``
    gives ``(N, width, size)`` with a mask, for those who want a dense view.
    """

    def __init__(
        self,
        rows: np.ndarray,
        offsets: np.ndarray,
        encoding: Encoding,
        out: np.ndarray | None = None,
        positions: np.ndarray | None = None,
    ) -> None:
        self.rows = rows
        self.offsets = offsets
        self.positions = positions
        self.encoding = encoding
        self._out = out

    @property
    def counts(self) -> np.ndarray:
        """``(N,)`` int64: afterstates per game."""
        return np.diff(self.offsets)

    @cached_property
    def encoded(self) -> np.ndarray:
        """``(M, size)`` float32: the encoded afterstates, in the order of ``rows``."""
        return self.encoding.encode(self.rows, out=self._out, check=False)

    def game(self, index: int) -> np.ndarray:
        """The encoded afterstates of game ``index``: ``(counts[index], size)`` float32."""
        return self.encoded[self.offsets[index] : self.offsets[index + 1]]

    def padded(self, width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """A dense view: ``(N, width, size)`` float32 zero-padded, and its ``(N, width)`` mask.

        ``width`` defaults to the largest count of this step.
        """
        counts = self.counts
        width = int(counts.max()) if width is None else width
        if counts.max() > width:
            raise ValueError(f"a game has {counts.max()} afterstates, more than width {width}")
        mask = np.arange(width)[None, :] < counts[:, None]
        dense = np.zeros((len(counts), width, self.encoding.size), dtype=np.float32)
        dense[mask] = self.encoded
        return dense, mask

    def action_mask(self) -> np.ndarray:
        """``(N, K)`` bool: which actions of the ``Discrete(K)`` action space are legal."""
        return np.arange(MAX_AFTERSTATES)[None, :] < self.counts[:, None]

    def __len__(self) -> int:
        return len(self.offsets) - 1


class VectorInfos(dict):
    """The ``infos`` dict of :class:`TapaVectorEnv`, a plain ``dict``, except that asking for
    an ``"action_mask"`` the env was not made to give says how to get one."""

    def __missing__(self, key: Any) -> Any:
        if key == "action_mask":
            raise KeyError(
                "action_mask: make the vector env with action_masks=True, e.g. "
                "gym.make_vec('Tapa-v0', num_envs=N, action_masks=True), for a bool (N, K) "
                "mask in every step's infos, or call infos['afterstates'].action_mask()"
            )
        raise KeyError(key)


class TapaVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of Tapa stepped by one batched engine call, each from its mover.

    Next-step autoreset (``metadata["autoreset_mode"]``): the step after a game terminates
    or truncates starts a new game there, ignoring that game's action and returning reward 0.

    ``infos`` carries ``afterstates`` (:class:`Afterstates`: the flat afterstates of all games
    with offsets, encoded on demand, with a padded view and an action mask),
    ``legal_counts`` (afterstates per game), ``to_move`` (int8: the player to move in each
    game) and ``turn``. With ``action_masks=True`` it also carries ``action_mask``, bool
    ``(N, K)``: row ``i`` is game ``i``'s mask, as the single env's ``info["action_mask"]``
    (the first ``legal_counts[i]`` actions are legal). It is off by default because it is
    ``N * K`` bytes a step (3 MB at 1,024 games, which makes a step about a fifth slower);
    ``infos["afterstates"].action_mask()`` computes the same array when asked.

    ``render()`` returns each game's board as text (``render_mode="ansi"``, the default;
    ``None`` turns it off).

    With ``copy=False`` (as Gymnasium's vector envs offer), ``afterstates.encoded`` is
    written into one of two buffers that the env reuses in turn: it stays valid through the
    next step and is overwritten by the one after. That saves allocating tens of megabytes
    a step at 1,024 games; copy what you keep longer. The default, ``copy=True``, gives a
    fresh array every step.
    """

    metadata = {
        "render_modes": ["ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        encoding: str = "raw",
        max_turns: int = DEFAULT_MAX_TURNS,
        rules: Rules = DEFAULT_RULES,
        threads: int = 1,
        copy: bool = True,
        render_mode: str | None = "ansi",
        action_masks: bool = False,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        if not isinstance(action_masks, (bool, np.bool_)):
            raise ValueError(f"action_masks must be True or False, got {action_masks!r}")
        self.num_envs = int(num_envs)
        self.encoding = get_encoding(encoding)
        self.max_turns = _check_max_turns(max_turns)
        self.rules = rules
        self.render_mode = render_mode
        self.single_observation_space = _observation_space(self.encoding)
        self.single_action_space = TurnActions(MAX_AFTERSTATES)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = TurnActionsBatch(MAX_AFTERSTATES, self.num_envs)
        self._games = Games(self.num_envs, rules=rules, threads=threads)
        self._everyone = np.arange(self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)
        self.copy = copy
        self.action_masks = bool(action_masks)
        self._started = False
        self._buffers: list[np.ndarray] = [np.empty((0, self.encoding.size), np.float32)] * 2
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._games.start(self._everyone, self.np_random)
        self._games.generate()
        self._needs_reset[:] = False
        self._started = True
        return self._observations(), self._infos()

    def step(self, actions: Any):
        if not self._started:
            raise _reset_needed()
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            counts = self._games.counts
            ranges = ", ".join(f"game {i}: 0..{c - 1}" for i, c in enumerate(counts[:4]))
            more = ", ..." if len(counts) > 4 else ""
            raise ValueError(
                f"actions must be {self.num_envs} integers, one per game, each an index into "
                f"that game's afterstates ({ranges}{more}); got {actions.dtype} {actions.shape}"
            )
        games = self._games
        playing = np.flatnonzero(~self._needs_reset)
        restarting = np.flatnonzero(self._needs_reset)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=bool)
        finished, points = games.play(actions[playing], playing, self.np_random)
        rewards[playing] = points
        terminations[playing] = finished
        truncations = ~terminations & (games.turns >= self.max_turns)
        truncations[restarting] = False
        if restarting.size:
            games.start(restarting, self.np_random)
        games.generate()
        self._needs_reset = terminations | truncations
        return self._observations(), rewards, terminations, truncations, self._infos()

    def _observations(self) -> dict:
        return {
            "position": self.encoding.encode(self._games.rows, check=False),
            "dice": self._games.dice.copy(),
        }

    def _infos(self) -> dict:
        games = self._games
        self.action_space.legal = games.counts
        afterstates = Afterstates(
            games.afterstates,
            games.offsets,
            self.encoding,
            out=self._encoding_buffer(),
            positions=games.rows.copy(),
        )
        infos = VectorInfos(
            afterstates=afterstates,
            legal_counts=games.counts,
            to_move=games.to_move.copy(),
            turn=games.turns.copy(),
        )
        if self.action_masks:
            infos["action_mask"] = afterstates.action_mask()
        return infos

    def _encoding_buffer(self) -> np.ndarray | None:
        """With ``copy=False``, the buffer this step's encoded afterstates go into."""
        if self.copy:
            return None
        self._steps += 1
        needed = len(self._games.afterstates)
        buffer = self._buffers[self._steps % 2]
        if len(buffer) < needed:
            buffer = np.empty((needed + needed // 4 + 64, self.encoding.size), np.float32)
            self._buffers[self._steps % 2] = buffer
        return buffer[:needed]

    def get_state(self) -> dict:
        """Everything needed to continue these games later: positions, rolls, turns, who is
        to move, which games restart on the next step, and the dice generator's state.

        Plain numpy arrays and a dict, for a training checkpoint; :meth:`set_state` reads it.
        """
        games = self._games
        return {
            "rows": games.rows.copy(),
            "dice": games.dice.copy(),
            "turns": games.turns.copy(),
            "to_move": games.to_move.copy(),
            "needs_reset": self._needs_reset.copy(),
            "np_random": self.np_random.bit_generator.state,
        }

    def set_state(self, state: dict) -> dict:
        """Continue the games saved by :meth:`get_state`; returns this turn's ``infos``.

        Raises ``ValueError`` when the state is of another number of games or malformed.
        """
        games = self._games
        try:
            rows = as_rows(np.asarray(state["rows"]))
            if rows.shape[0] != self.num_envs:
                raise ValueError(
                    f"the saved state holds {rows.shape[0]} games, this env {self.num_envs}"
                )
            dice = np.asarray(state["dice"], dtype=np.int64).reshape(self.num_envs, 2)
            turns = np.asarray(state["turns"], dtype=np.int64).reshape(self.num_envs)
            to_move = np.asarray(state["to_move"], dtype=np.int8).reshape(self.num_envs)
            needs_reset = np.asarray(state["needs_reset"], dtype=bool).reshape(self.num_envs)
            generator = np.random.default_rng()
            generator.bit_generator.state = state["np_random"]
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a saved vector env state: {error}") from None
        games.rows[:], games.dice[:], games.turns[:], games.to_move[:] = rows, dice, turns, to_move
        self._needs_reset = needs_reset
        self._np_random = generator
        self._started = True
        games.generate()
        return self._infos()

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode != "ansi":
            return None
        return tuple(
            f"{Position._trusted(row)}\nrolled {d[0]}-{d[1]}"
            for row, d in zip(self._games.rows, self._games.dice)
        )
