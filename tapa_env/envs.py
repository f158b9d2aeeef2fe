"""Gymnasium environments over the batched engine: ``Tapa-v0``, ``Tabla-v0`` and
``Gulbara-v0``, single and native vector (the same classes, with ``game=``).

Both play from the side to move, with one of two action modes:

* ``actions="afterstate"`` (the default): an action picks one of the turn's legal
  afterstates, in the engine's order (``Discrete(3072)``). The observation is a dict of the
  encoded position (:mod:`tapa_env.encoding`) and the roll.
* ``actions="move"``: an action is one checker move, ``6 * (source - 1) + (die - 1)``
  (``Discrete(144)``; Tabla's ``Discrete(150)``, whose source 25 is the bar,
  :mod:`tapa_env.checker_moves`); a turn takes as many steps as its
  play has moves, and a turn with no legal move passes by itself. The observation is one
  flat float32 vector: the encoded position as it stands after this turn's moves so far,
  the dice still to play (a count for each face 1-6) and the player to move (0 or 1).

In Gulbara a climbing double is a turn of its own by the same side (``info["to_move"]``
says who decides; the observation's encoding carries the climb).

Without an opponent the agent plays both sides and the reward is the points of a finished
game from the side that just moved (R8, R9, R10), 0 before then. With ``opponent=`` the
agent is always player 0, the opponent's turns are played inside ``step()``, and the reward
is from the agent's side. A configurable turn limit truncates a game (R12). The games live
in a :class:`tapa_env.table.Table`.
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import error, spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .afterstates import Afterstates, TurnAfterstates
from .batch import MAX_AFTERSTATES
from .board_image import board_image
from .checker_moves import DICE_FACES, MOVE_ACTIONS, CheckerMoves, move_actions
from .checks import whole_number
from .encoding import Encoding, get_encoding
from .games import DEFAULT_GAME, game_of
from .games import game as registered
from .layout import as_rows
from .position import Position, PositionError
from .results import outcomes
from .rules import AnyRules, rules_for
from .table import ACTION_MODES, Table, opponent_player

DEFAULT_MAX_TURNS = 1000

__all__ = ["Afterstates", "TapaEnv", "TapaVectorEnv", "TurnActions", "TurnAfterstates"]


def _observation_space(encoding: Encoding, actions: str) -> spaces.Space:
    if actions == "move":
        size = encoding.size + DICE_FACES + 1
        return spaces.Box(0.0, 6.0, shape=(size,), dtype=np.float32)
    return spaces.Dict(
        {
            "position": spaces.Box(0.0, 6.0, shape=(encoding.size,), dtype=np.float32),
            "dice": spaces.Box(1, 6, shape=(2,), dtype=np.int64),
        }
    )


def _move_observations(encoding: Encoding, rows, moves: CheckerMoves, to_move) -> np.ndarray:
    """``(N, size + 7)`` float32: encoded positions, dice left per face, player to move."""
    out = np.empty((len(rows), encoding.size + DICE_FACES + 1), dtype=np.float32)
    out[:, : encoding.size] = encoding.encode(rows, check=False)
    out[:, encoding.size : -1] = moves.dice_counts()
    out[:, -1] = to_move
    return out


class TurnActions(spaces.Discrete):
    """``Discrete(K)`` whose ``sample()`` draws a legal action of the current turn.

    ``legal`` is the env's current mask (bool ``(K,)``), kept up to date by the env. A masked
    or weighted ``sample`` behaves as :class:`gymnasium.spaces.Discrete`'s.
    """

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self.legal = np.zeros(n, dtype=bool)
        self.legal[0] = True

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            choices = np.flatnonzero(self.legal)
            if not choices.size:
                return np.int64(0)
            return np.int64(choices[self.np_random.integers(choices.size)])
        return super().sample(mask=mask, probability=probability)


class TurnActionsBatch(spaces.MultiDiscrete):
    """One :class:`TurnActions` per game of a vector env; ``sample()`` draws legal actions.

    ``legal`` (afterstate mode: ``(N,)`` counts, the legal actions are ``0..count - 1``) or
    ``legal_mask`` (move mode: a bool ``(N, K)`` mask) is kept up to date by the env.
    """

    def __init__(self, n: int, num_envs: int, seed: int | None = None) -> None:
        super().__init__(np.full(num_envs, n, dtype=np.int64), seed=seed)
        self.legal = np.ones(num_envs, dtype=np.int64)
        self.legal_mask: np.ndarray | None = None

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is None and probability is None:
            if self.legal_mask is None:
                counts = self.legal
                return (self.np_random.random(len(counts)) * counts).astype(np.int64)
            # A random legal action of each row: the largest of random keys on legal entries.
            keys = self.np_random.random(self.legal_mask.shape) + self.legal_mask
            return keys.argmax(axis=1).astype(np.int64)
        return super().sample(mask=mask, probability=probability)


def _check_actions_mode(actions: str) -> str:
    if actions not in ACTION_MODES:
        raise ValueError(
            f"actions must be 'afterstate' (an index into the turn's afterstates) or 'move' "
            f"(one checker move, Discrete({MOVE_ACTIONS})), got {actions!r}"
        )
    return actions


class ResetNeededError(error.ResetNeeded, ValueError):
    """``step()`` before the first ``reset()``: Gymnasium's ``ResetNeeded``, also a ValueError."""


def _reset_needed() -> ResetNeededError:
    return ResetNeededError(
        "Cannot call step() before reset(): there is no game yet; call reset() first"
    )


def _action(action: Any, legal: int, game: str = "") -> int:
    """An afterstate action as an int, or a ``ValueError`` naming the legal range."""
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


def _move(action: Any, size: int = MOVE_ACTIONS) -> int:
    """A checker-move action as an int; a ``ValueError`` for what is not an integer."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise ValueError(
            f"a checker-move action is an integer 6 * (source - 1) + (die - 1) in "
            f"0..{size - 1}, got {action!r}"
        )
    return int(action)


def read_position(value: Any) -> Position:
    """A position from a :class:`Position`, its key, its JSON dict or JSON text."""
    if isinstance(value, Position):
        return value
    if isinstance(value, dict):
        return Position.from_dict(value)
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("{"):
            try:
                return Position.from_dict(json.loads(text))
            except json.JSONDecodeError as problem:
                raise PositionError(f"the position is not valid JSON: {problem}") from None
        return Position.from_key(text)
    raise PositionError(
        f"a position is a tapa_env.Position, its key (such as '24:15|1:15|') or its JSON "
        f"dict, got {type(value).__name__}"
    )


def _start_options(
    options: dict | None, count: int, rules: AnyRules
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``reset(options=...)`` read: rows ``(count, ROW_WIDTH)`` and dice ``(count, 2)``."""
    if not options:
        return None, None
    unknown = sorted(set(options) - {"position", "dice"})
    if unknown:
        raise ValueError(f"unknown reset option(s) {unknown}: use 'position' and 'dice'")
    rows = dice = None
    if options.get("position") is not None:
        value = options["position"]
        many = isinstance(value, (list, tuple)) and count > 1
        positions = [read_position(v) for v in value] if many else [read_position(value)] * count
        if len(positions) != count:
            raise ValueError(f"give one position or {count}, one per game; got {len(positions)}")
        for position in positions:
            if position.game != rules.game:
                raise ValueError(
                    f"the position {position.key!r} is {position.game}'s; this env plays "
                    f"{rules.game}"
                )
            waiting = registered(position.game).rows.waiting_problem(position.row)
            if waiting is not None:
                raise ValueError(f"the position {position.key!r}: {waiting}")
            if outcomes(position.row[None, :], rules=rules, check=False)[0][0]:
                raise ValueError(f"the position {position.key!r} is a finished game")
        rows = np.stack([p.row for p in positions])
    if options.get("dice") is not None:
        dice = np.asarray(options["dice"])
        if dice.shape == (2,):
            dice = np.tile(dice, (count, 1))
        if (
            dice.shape != (count, 2)
            or not np.issubdtype(dice.dtype, np.integer)
            or dice.min() < 1
            or dice.max() > 6
        ):
            raise ValueError(
                f"dice must be a roll of two integers 1-6 (or {count} rolls, one per game), "
                f"got {options['dice']!r}"
            )
        dice = dice.astype(np.int64)
        if rows is not None:
            game_rows = game_of(rules).rows
            for row, roll in zip(rows, dice, strict=True):
                problem = game_rows.dice_problem(row, roll)
                if problem is not None:
                    raise ValueError(f"{problem}; leave dice out")
    return rows, dice


class _OpponentSeat:
    """The ``opponent`` property both envs share; they keep their games in ``_table``."""

    _table: Table
    rules: AnyRules

    @property
    def opponent(self) -> Any:
        """The other side's player (``None``: self-play). Assigning a new one (a name, a
        path, a player) takes effect from the next opponent turn, as for a pool of past
        selves; assigning ``None`` to an env made with an opponent, or the reverse, is not
        allowed, since the observations' point of view would change."""
        return self._table.opponent

    @opponent.setter
    def opponent(self, value: Any) -> None:
        player = opponent_player(value, self.rules)
        if (player is None) != (self._table.opponent is None):
            raise ValueError(
                "an env made for self-play cannot take an opponent, nor the reverse: make a new env"
            )
        self._table.opponent = player


class TapaEnv(_OpponentSeat, gym.Env):
    """One game of Tapa (or Tabla, or Gulbara: ``game=``), played from the side to move.

    Args:
        encoding: the position encoding, ``"raw"`` or ``"expert"``.
        actions: ``"afterstate"`` (the default) or ``"move"`` (one checker move a step).
        opponent: the other side: a player name or path (as ``agents.load_player`` takes:
            ``"random"``, ``"defensive"``, ``"checkpoints/tapa-td.pt@2ply"``, a bot file), a
            player, or any object with ``choose(position, dice)``. It plays under ``rules``
            and draws from the env's generator. The agent is then player 0, every
            observation is its turn, and the reward is from its side.
        max_turns: turns (of both sides) after which a game is truncated.
        rules: the rule choices (:class:`tapa_env.Rules`, ``TablaRules``, ``GulbaraRules``);
            ``None``: the game's own.
        game: a game's name in the registry (:mod:`tapa_env.games`; Tapa the default): what
            each game's env id (``Tabla-v0``, ``Gulbara-v0``) sets.
        render_mode: ``"ansi"``, the default: ``render()`` returns the board as text;
            ``"human"``: ``render()`` and every step print it; ``"rgb_array"``: an image
            (:mod:`tapa_env.board_image`); ``None``: no rendering.

    ``info`` carries ``action_mask`` (bool: which actions are legal now; also
    :meth:`action_masks`), ``to_move`` (the player to move, 0 or 1) and ``turn`` (turns
    played); in the afterstate mode also ``afterstates`` (:class:`TurnAfterstates`: the
    turn's afterstate rows and their encoding).

    ``reset(options={"position": p, "dice": (6, 5)})`` starts from a position (a
    :class:`Position`, its key or its JSON; the side to move in it is the agent against an
    opponent) and, optionally, a roll.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        encoding: str = "raw",
        opponent: Any = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        rules: AnyRules | None = None,
        render_mode: str | None = "ansi",
        actions: str = "afterstate",
        game: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use one of "
                f"{self.metadata['render_modes']} or None"
            )
        self.rules = rules_for(game, rules)
        self.game = self.rules.game
        self.encoding = get_encoding(encoding, self.game)
        self.actions = _check_actions_mode(actions)
        self.max_turns = whole_number(max_turns, "max_turns", 1)
        self.render_mode = render_mode
        self.observation_space = _observation_space(self.encoding, self.actions)
        size = move_actions(self.game) if self.actions == "move" else MAX_AFTERSTATES
        self.action_space = TurnActions(size)
        player = opponent_player(opponent, self.rules)
        self._table = Table(1, self.actions, self.rules, self.max_turns, player)
        self._all = np.zeros(1, dtype=np.int64)
        self._started = False
        self._finished = False

    @property
    def position(self) -> Position:
        """The position the agent decides in now, from the side to move (in the move mode,
        after this turn's checker moves so far)."""
        return Position._trusted(self._table.decision_rows()[0], self.game)

    @property
    def dice(self) -> tuple[int, int]:
        """The roll of the turn being played."""
        dice = self._table.games.dice[0]
        return int(dice[0]), int(dice[1])

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rows, dice = _start_options(options, 1, self.rules)
        self._table.start(self._all, self.np_random, rows=rows, dice=dice)
        self._started = True
        self._finished = bool(self._table.over[0])
        self._prepare()
        return self._observation(), self._info()

    def step(self, action: Any):
        if not self._started:
            raise _reset_needed()
        if self._finished:
            raise RuntimeError("the game is over: call reset() before step()")
        table = self._table
        if self.actions == "move":
            action = _move(action, move_actions(self.game))
        else:
            action = _action(action, int(table.games.counts[0]))
        rewards, terminated, truncated = table.act(np.array([action]), self._all, self.np_random)
        self._finished = bool(table.over[0])
        self._prepare()
        if self.render_mode == "human":
            print(self.render_text())
        return (
            self._observation(),
            float(rewards[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            self._info(),
        )

    def _prepare(self) -> None:
        """After a reset or a step: the afterstates of the next decision, the legal actions."""
        if self.actions == "afterstate":
            self._table.games.generate()
        self.action_space.legal = self.action_masks()

    def action_masks(self) -> np.ndarray:
        """Bool ``(K,)``: which actions are legal now (``K`` = 3072 afterstate actions, or
        144 checker moves; in the move mode none once the game is over)."""
        table = self._table
        if self.actions == "move":
            return table.moves.masks[0].copy()
        mask = np.zeros(MAX_AFTERSTATES, dtype=bool)
        mask[: int(table.games.counts[0])] = True
        return mask

    def _observation(self):
        table = self._table
        rows = table.decision_rows()
        if self.actions == "move":
            return _move_observations(self.encoding, rows, table.moves, table.games.to_move)[0]
        return {
            "position": self.encoding.encode(rows, check=False)[0],
            "dice": table.games.dice[0].copy(),
        }

    def _info(self) -> dict:
        games = self._table.games
        info = {
            "action_mask": self.action_masks(),
            "to_move": int(games.to_move[0]),
            "turn": int(games.turns[0]),
        }
        if self.actions == "afterstate":
            rows = games.afterstates[games.offsets[0] : games.offsets[1]].copy()
            info["afterstates"] = TurnAfterstates(rows, self.encoding)
        return info

    def render_text(self) -> str:
        """The board from the side to move, its roll and the turn."""
        side = "player 0" if self._table.games.to_move[0] == 0 else "player 1"
        return (
            f"{self.position}\n{side} (O) to move, rolled {self.dice[0]}-{self.dice[1]}, "
            f"turn {int(self._table.games.turns[0]) + 1}"
        )

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "rgb_array":
            return board_image(self._table.decision_rows()[0], self.game)
        if self.render_mode == "human":
            print(self.render_text())
        return None


_DEFAULT_ENV = registered(DEFAULT_GAME).env_id


class VectorInfos(dict):
    """The ``infos`` dict of :class:`TapaVectorEnv`, a plain ``dict``, except that asking for
    a key the env was not made to give says how to get it."""

    def __missing__(self, key: Any) -> Any:
        if key == "action_mask":
            raise KeyError(
                "action_mask: make the vector env with action_masks=True, e.g. "
                f"gym.make_vec({_DEFAULT_ENV!r}, num_envs=N, action_masks=True), for a bool (N, K) "
                "mask in every step's infos, or call env.action_masks()"
            )
        if key == "afterstates":
            raise KeyError(
                "afterstates: read env.afterstates (the flat afterstates of every game), or "
                "make the vector env with afterstates_info=True to have them in infos"
            )
        raise KeyError(key)


class TapaVectorEnv(_OpponentSeat, gym.vector.VectorEnv):
    """``num_envs`` games of Tapa stepped by one batched engine call, each from its mover.

    Next-step autoreset (``metadata["autoreset_mode"]``): the step after a game terminates
    or truncates starts a new game there, ignoring that game's action and returning reward 0.

    Takes the arguments of :class:`TapaEnv` (``actions``, ``opponent``, ...). Against an
    opponent the agent is player 0 in every game and the opponent's turns of all games are
    played with one ``choose_batch`` call a turn.

    ``infos`` carries ``to_move`` (int8: the player to move in each game) and ``turn``. In
    the afterstate mode :attr:`afterstates` (:class:`Afterstates`: the flat afterstates of
    all games with offsets, encoded on demand, with a padded view and an action mask) and
    ``infos["legal_counts"]`` (afterstates per game) say what each action plays; with
    ``afterstates_info=True`` the afterstates are in ``infos["afterstates"]`` too (they are
    not by default, since an object there stops ``DictInfoToList``). With
    ``action_masks=True`` infos carry ``action_mask``, bool ``(N, K)`` (it is ``N * K``
    bytes a step, 3 MB at 1,024 games, which makes a step about a fifth slower;
    :meth:`action_masks` computes it when asked). In the move mode ``infos["action_mask"]``
    (bool ``(N, 144)``) is always there; a game that waits for its autoreset allows every
    action, since the next step ignores it.

    ``render()`` returns each game's board as text (``render_mode="ansi"``, the default),
    or as an image (``"rgb_array"``); ``None`` turns it off.

    With ``copy=False`` (as Gymnasium's vector envs offer), the encoded afterstates are
    written into one of two buffers that the env reuses in turn: they stay valid through the
    next step and are overwritten by the one after. That saves allocating tens of megabytes
    a step at 1,024 games; copy what you keep longer. The default, ``copy=True``, gives a
    fresh array every step.

    ``reset(options={"position": ..., "dice": ...})`` starts every game from one position
    (or from a list of ``num_envs`` positions) and optionally a roll (or ``num_envs``
    rolls); games that restart later start from the initial position.
    """

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        encoding: str = "raw",
        max_turns: int = DEFAULT_MAX_TURNS,
        rules: AnyRules | None = None,
        threads: int = 1,
        copy: bool = True,
        render_mode: str | None = "ansi",
        action_masks: bool = False,
        actions: str = "afterstate",
        opponent: Any = None,
        afterstates_info: bool = False,
        game: str | None = None,
    ) -> None:
        num_envs = whole_number(num_envs, "num_envs", 1)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use 'ansi', 'rgb_array' or None"
            )
        for name, value in (("action_masks", action_masks), ("afterstates_info", afterstates_info)):
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        self.num_envs = int(num_envs)
        self.rules = rules_for(game, rules)
        self.game = self.rules.game
        self.encoding = get_encoding(encoding, self.game)
        self.actions = _check_actions_mode(actions)
        self.max_turns = whole_number(max_turns, "max_turns", 1)
        player = opponent_player(opponent, self.rules)
        self.render_mode = render_mode
        size = move_actions(self.game) if self.actions == "move" else MAX_AFTERSTATES
        self.single_observation_space = _observation_space(self.encoding, self.actions)
        self.single_action_space = TurnActions(size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = TurnActionsBatch(size, self.num_envs)
        self._table = Table(
            self.num_envs, self.actions, self.rules, self.max_turns, player, threads
        )
        self._everyone = np.arange(self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)
        self.copy = copy
        self.action_masks_in_info = bool(action_masks)
        self.afterstates_info = bool(afterstates_info)
        self._started = False
        self._buffers: list[np.ndarray] = [np.empty((0, self.encoding.size), np.float32)] * 2
        self._steps = 0
        self._afterstates: Afterstates | None = None

    @property
    def afterstates(self) -> Afterstates:
        """The afterstates of every game's turn now (afterstate mode): what actions play."""
        if self.actions != "afterstate":
            raise AttributeError("afterstates: the move mode's actions are checker moves")
        if self._afterstates is None:
            raise _reset_needed()
        return self._afterstates

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rows, dice = _start_options(options, self.num_envs, self.rules)
        self._table.start(self._everyone, self.np_random, rows=rows, dice=dice)
        self._needs_reset = self._table.over.copy()
        self._started = True
        return self._observations(), self._infos()

    def step(self, actions: Any):
        if not self._started:
            raise _reset_needed()
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(self._shape_message(actions))
        table = self._table
        playing = np.flatnonzero(~self._needs_reset)
        restarting = np.flatnonzero(self._needs_reset)
        rewards, terminations, truncations = table.act(actions[playing], playing, self.np_random)
        if restarting.size:
            table.start(restarting, self.np_random)
        self._needs_reset = terminations | truncations
        return self._observations(), rewards, terminations, truncations, self._infos()

    def _shape_message(self, actions: np.ndarray) -> str:
        if self.actions == "move":
            what = f"a checker move 0..{move_actions(self.game) - 1}"
        else:
            counts = self._table.games.counts
            ranges = ", ".join(f"game {i}: 0..{c - 1}" for i, c in enumerate(counts[:4]))
            more = ", ..." if len(counts) > 4 else ""
            what = f"an index into that game's afterstates ({ranges}{more})"
        return (
            f"actions must be {self.num_envs} integers, one per game, each {what}; "
            f"got {actions.dtype} {actions.shape}"
        )

    def action_masks(self) -> np.ndarray:
        """Bool ``(N, K)``: row ``i`` marks game ``i``'s legal actions now (``K`` = 3072
        afterstate actions or 144 checker moves; a game waiting for its autoreset allows
        every checker move)."""
        if self.actions == "afterstate":
            return np.arange(MAX_AFTERSTATES)[None, :] < self._table.games.counts[:, None]
        masks = self._table.moves.masks.copy()
        masks[self._needs_reset] = True
        return masks

    def _observations(self):
        table = self._table
        rows = table.decision_rows()
        if self.actions == "move":
            return _move_observations(self.encoding, rows, table.moves, table.games.to_move)
        return {
            "position": self.encoding.encode(rows, check=False),
            "dice": table.games.dice.copy(),
        }

    def _infos(self) -> dict:
        games = self._table.games
        infos = VectorInfos(to_move=games.to_move.copy(), turn=games.turns.copy())
        if self.actions == "move":
            infos["action_mask"] = self.action_masks()
            self.action_space.legal_mask = infos["action_mask"]
            return infos
        games.generate()
        self.action_space.legal = games.counts
        self._afterstates = Afterstates(
            games.afterstates,
            games.offsets,
            self.encoding,
            out=self._encoding_buffer(),
            positions=games.rows.copy(),
        )
        infos["legal_counts"] = games.counts
        if self.afterstates_info:
            infos["afterstates"] = self._afterstates
        if self.action_masks_in_info:
            infos["action_mask"] = self._afterstates.action_mask()
        return infos

    def _encoding_buffer(self) -> np.ndarray | None:
        """With ``copy=False``, the buffer this step's encoded afterstates go into."""
        if self.copy:
            return None
        self._steps += 1
        needed = len(self._table.games.afterstates)
        buffer = self._buffers[self._steps % 2]
        if len(buffer) < needed:
            buffer = np.empty((needed + needed // 4 + 64, self.encoding.size), np.float32)
            self._buffers[self._steps % 2] = buffer
        return buffer[:needed]

    def get_state(self) -> dict:
        """Everything needed to continue these games later: positions, rolls, turns, who is
        to move, which games restart on the next step, the turns in progress (move mode) and
        the dice generator's state.

        Plain numpy arrays and a dict, for a training checkpoint; :meth:`set_state` reads it.
        """
        games = self._table.games
        state = {
            "rows": games.rows.copy(),
            "dice": games.dice.copy(),
            "turns": games.turns.copy(),
            "to_move": games.to_move.copy(),
            "needs_reset": self._needs_reset.copy(),
            "np_random": self.np_random.bit_generator.state,
        }
        if self.actions == "move":
            state["moves"] = self._table.moves.get_state()
        return state

    def set_state(self, state: dict) -> dict:
        """Continue the games saved by :meth:`get_state`; returns this turn's ``infos``.

        Raises ``ValueError`` when the state is of another number of games or malformed.
        """
        table = self._table
        games = table.games
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
            if self.actions == "move":
                table.moves.set_state(state["moves"])
        except (KeyError, TypeError) as problem:
            raise ValueError(f"not a saved vector env state: {problem}") from None
        games.rows[:], games.dice[:], games.turns[:], games.to_move[:] = rows, dice, turns, to_move
        self._needs_reset = needs_reset
        table.over[:] = needs_reset
        self._np_random = generator
        self._started = True
        return self._infos()

    def render(self) -> tuple | None:
        rows = self._table.decision_rows()
        if self.render_mode == "rgb_array":
            return tuple(board_image(row, self.game) for row in rows)
        if self.render_mode != "ansi":
            return None
        return tuple(
            f"{Position._trusted(row, self.game)}\nrolled {d[0]}-{d[1]}"
            for row, d in zip(rows, self._table.games.dice)
        )
