"""PettingZoo environments: two agents, ``player_0`` and ``player_1``, at one table.

The turn-based (AEC) API of PettingZoo's classic board games, over the same engine and the
same two action modes as the Gymnasium env (:mod:`tapa_env.envs`), for every registered game::

    from tapa_env.pettingzoo import env

    table = env(action_mode="move")  # game=: any of tapa_env.games.GAMES or a preset
    table.reset(seed=7)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            action = None
        else:
            action = table.action_space(agent).sample(observation["action_mask"])
        table.step(action)

* ``agent_selection`` is the player to decide: the side to move, or in Gulbara the side that
  plays a climbing double's next turn or takes over its numbers; a turn with one legal play
  (a pass among them) is a decision of its agent in the afterstate mode; in the move mode a
  turn without a legal checker move passes by itself, as in the Gymnasium env.
* ``observe(agent)`` is a dict: ``"observation"``, float32 ``(size + 7,)``, the position
  encoded from that agent's side (the mover's frame for the agent to move, the board turned
  round for the other), the dice still to play (a count for each face 1-6: a double counts
  4 until its moves are made) and the player to move (0 or 1); ``"action_mask"``, int8
  ``(K,)``, the legal actions (all 0 for the agent that waits).
* Actions: ``"afterstate"``, an index into the turn's afterstates (``Discrete(3072)``;
  ``infos[agent]["afterstates"]`` holds them encoded, ``"afterstate_rows"`` as rows);
  ``"move"``, one checker move ``6 * (source - 1) + (die - 1)`` (``Discrete(144)``, Tabla's
  ``Discrete(150)``).
* A finished game's points go to both agents, ``+p`` to the winner and ``-p`` to the loser
  (R8-R10 and each game's own scoring); a game that reaches ``max_turns`` is truncated for
  both with no points (R12).

A game is played through here exactly as through ``gymnasium.make(env_id, actions=...)``
without an opponent (the same seed and actions give the same dice, positions and points).
There is no ``parallel_env``: in these games one side moves at a time, so there is nothing
for agents to do at once.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:  # pragma: no cover - the extra is not installed
    raise ImportError(
        'tapa_env.pettingzoo needs PettingZoo: pip install -e ".[pettingzoo]"'
    ) from None

from .batch import MAX_AFTERSTATES
from .checker_moves import DICE_FACES, CheckerMoves, move_actions
from .envs import DEFAULT_MAX_TURNS, TapaEnv
from .games import DEFAULT_GAME
from .games import game as registered
from .layout import as_rows, flip
from .position import Position
from .rules import AnyRules, check_rules

AGENTS = ("player_0", "player_1")
"""The two agents, by the player each is (0 or 1: the engine's ``to_move``)."""
RESET_OPTIONS = ("position", "dice")

__all__ = ["AGENTS", "TapaAECEnv", "env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment :func:`raw_env` makes, in PettingZoo's order-enforcing wrapper (a
    clear error for ``step()``, ``observe()`` or ``render()`` before ``reset()``)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def raw_env(
    game: str = DEFAULT_GAME,
    action_mode: str = "afterstate",
    encoding: str = "raw",
    max_turns: int = DEFAULT_MAX_TURNS,
    render_mode: str | None = None,
    rules: AnyRules | None = None,
    **flags: bool,
) -> TapaAECEnv:
    """A :class:`TapaAECEnv`; see it for the arguments."""
    return TapaAECEnv(game, action_mode, encoding, max_turns, render_mode, rules, **flags)


def _rules(name: str, rules: AnyRules | None, flags: dict[str, bool]) -> AnyRules:
    """The rules to play: ``rules``, or the game's (or preset's) own, with ``flags`` set."""
    entry = registered(name)
    base = entry.preset(name) if rules is None else check_rules(rules, entry.name)
    if flags:
        type(base).from_mapping(flags)  # names an unknown flag or a value that is no bool
        base = dataclasses.replace(base, **flags)
    return base


class TapaAECEnv(AECEnv):
    """One game between ``player_0`` and ``player_1``, a decision at a time.

    Args:
        game: a registered game's name (:data:`tapa_env.games.GAMES`) or a preset's.
        action_mode: ``"afterstate"`` (a whole play a step) or ``"move"`` (a checker move).
        encoding: the position encoding (``"raw"``, ``"expert"``, or the game's others).
        max_turns: turns (of both sides) after which a game is truncated.
        render_mode: ``"ansi"`` (``render()`` returns the board as text), ``"human"`` (it
            prints, and so does every step), or ``None``.
        rules: the game's rules value; ``None``: the game's (or preset's) own.
        **flags: rule flags to change, by name (``both_mothers_draw=False``).

    ``reset(seed=..., options={"position": p, "dice": (6, 5)})`` starts from a position
    (the side to move in it is ``player_0``) and a roll, as the Gymnasium env does.
    """

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": f"{DEFAULT_GAME}_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        action_mode: str = "afterstate",
        encoding: str = "raw",
        max_turns: int = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
        rules: AnyRules | None = None,
        **flags: bool,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use 'ansi', 'human' or None"
            )
        self.rules = _rules(game, rules, flags)
        self.game = self.rules.game
        self.table = TapaEnv(
            encoding=encoding,
            max_turns=max_turns,
            rules=self.rules,
            render_mode="ansi",
            actions=action_mode,
        )
        self.action_mode = self.table.actions
        self.encoding = self.table.encoding
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        size = move_actions(self.game) if self.action_mode == "move" else MAX_AFTERSTATES
        width = self.encoding.size + DICE_FACES + 1
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 6.0, shape=(width,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in AGENTS}
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def to_move(self) -> int:
        """The player who decides now (0 or 1)."""
        return int(self.table._table.games.to_move[0])

    @property
    def position(self):
        """The position the agent to move decides in, from its side (:class:`Position`)."""
        return self.table.position

    @property
    def dice(self) -> tuple[int, int]:
        """The roll of the turn being played."""
        return self.table.dice

    def moves_to(self, afterstate: Position | np.ndarray) -> list[int]:
        """The checker-move actions that play ``afterstate`` from the current decision (the
        move mode), in order: how a player that picks a whole play (an afterstate of
        ``legal_afterstates(self.position, self.dice)``) plays it through :meth:`step`.

        ``afterstate`` is a :class:`Position` or a row, in the mover's frame. A search over
        copies of the turn in progress; ``ValueError`` in the afterstate mode, or when no
        sequence of legal moves from here reaches ``afterstate``.
        """
        if self.action_mode != "move":
            raise ValueError(
                "moves_to needs the move mode (action_mode='move'); in the afterstate mode an "
                "afterstate is an action itself"
            )
        if not self._started:
            raise RuntimeError("Cannot call moves_to() before reset(): call reset() first")
        target = as_rows(afterstate.row if isinstance(afterstate, Position) else afterstate)[0]
        turn = self.table._table.moves.take([0])
        found = _search(turn, target) if turn.needed[0] else None  # 0: the game is over
        if found is None:
            raise ValueError(
                f"{self.agent_selection}: no sequence of legal checker moves from "
                f"{self.position.key} with {self.dice[0]}-{self.dice[1]} reaches "
                f"{Position._trusted(target, self.game).key}"
            )
        return found

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if options:
            unknown = sorted(set(options) - set(RESET_OPTIONS))
            if unknown:
                warnings.warn(
                    f"reset options {unknown} are not read: this env reads {list(RESET_OPTIONS)}",
                    stacklevel=2,
                )
            options = {key: options[key] for key in RESET_OPTIONS if key in options}
        self.table.reset(seed=seed, options=options or None)
        self._started = True
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        over = self.table._finished
        self.terminations = dict.fromkeys(AGENTS, over)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.agent_selection = AGENTS[self.to_move]
        self._update_infos()

    def step(self, action: Any) -> None:
        if not self._started:
            raise RuntimeError("Cannot call step() before reset(): call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        try:
            _, reward, terminated, truncated, _ = self.table.step(action)
        except ValueError as problem:
            raise ValueError(f"{agent}: {problem}") from None
        if terminated:
            other = AGENTS[1 - AGENTS.index(agent)]
            self.rewards[agent], self.rewards[other] = float(reward), -float(reward)
        self.terminations = dict.fromkeys(self.agents, bool(terminated))
        self.truncations = dict.fromkeys(self.agents, bool(truncated))
        self.agent_selection = AGENTS[self.to_move] if not (terminated or truncated) else agent
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        inner = self.table._table
        rows = inner.decision_rows()[:1]
        mover = self.to_move
        if player != mover:
            rows = flip(rows, self.game)
        observation = np.empty(self.encoding.size + DICE_FACES + 1, dtype=np.float32)
        observation[: self.encoding.size] = self.encoding.encode(rows, check=False)[0]
        observation[self.encoding.size : -1] = self._dice_counts()
        observation[-1] = mover
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if player == mover and not self.table._finished:
            mask[:] = self.table.action_masks()
        return {"observation": observation, "action_mask": mask}

    def _dice_counts(self) -> np.ndarray:
        inner = self.table._table
        if self.action_mode == "move":
            return inner.moves.dice_counts()[0]
        first, second = self.table.dice
        counts = np.zeros(DICE_FACES, dtype=np.int64)
        if first == second:
            counts[first - 1] = 4
        else:
            counts[[first - 1, second - 1]] = 1
        return counts

    def _update_infos(self) -> None:
        turn = int(self.table._table.games.turns[0])
        self.infos = {agent: {"to_move": self.to_move, "turn": turn} for agent in self.agents}
        over = self.table._finished
        if self.action_mode == "afterstate" and not over and self.agent_selection in self.infos:
            games = self.table._table.games
            rows = games.afterstates[games.offsets[0] : games.offsets[1]].copy()
            info = self.infos[self.agent_selection]
            info["afterstate_rows"] = rows
            info["afterstates"] = self.encoding.encode(rows, check=False)

    def render(self) -> str | None:
        if not self._started:
            raise RuntimeError("Cannot call render() before reset(): call reset() first")
        if self.render_mode == "ansi":
            return self.table.render_text()
        if self.render_mode == "human":
            print(self.table.render_text())
        return None

    def close(self) -> None:
        self.table.close()


def _search(turn: CheckerMoves, target: np.ndarray) -> list[int] | None:
    """The moves from ``turn`` (one game, a turn in progress) that complete it at ``target``,
    or ``None``: breadth first, every legal move of every turn state of a depth at once, and
    one of each state (the orders of the same moves meet again)."""
    paths: list[list[int]] = [[]]
    while True:
        parents, actions = np.nonzero(turn.masks)
        children = turn.take(parents)
        done = children.play(actions, np.arange(len(parents)))
        reached = np.flatnonzero(done & (children.rows == target).all(axis=1))
        if len(reached):
            return [*paths[parents[reached[0]]], int(actions[reached[0]])]
        going = np.flatnonzero(~done)
        if not len(going):
            return None
        states = np.concatenate(
            [
                np.ascontiguousarray(value[going]).reshape(len(going), -1).view(np.uint8)
                for value in children.get_state().values()
            ],
            axis=1,
        )
        first: dict[bytes, int] = {}
        for k, state in zip(going, states):
            first.setdefault(state.tobytes(), int(k))
        kept = np.fromiter(first.values(), dtype=np.int64)
        paths = [[*paths[parents[k]], int(actions[k])] for k in kept]
        turn = children.take(kept)
