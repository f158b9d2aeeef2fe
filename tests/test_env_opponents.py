"""Opponents in both envs and both action modes, and starting from a chosen position.

An opponent is any name or path ``agents.load_player`` takes, or a player; it plays under
the env's rules and draws from the env's generator, so the same seed gives the same games.
"""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest

from agents import Player, load_player
from tapa_env import Position, Rules, TapaEnv, TapaVectorEnv, legal_afterstates
from tapa_env.position import PositionError

MODES = ["afterstate", "move"]


def random_legal(rng, info) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def play_games(env, games: int, seed: int) -> list:
    """Every observation, reward and flag of ``games`` games with random legal actions."""
    rng = np.random.default_rng(seed)
    trace = []
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        done = False
        while not done:
            assert info["to_move"] == 0, "with an opponent every decision is the agent's"
            obs, reward, terminated, truncated, info = env.step(random_legal(rng, info))
            trace.append((np.asarray(obs["position"] if isinstance(obs, dict) else obs), reward))
            done = terminated or truncated
        trace.append((terminated, truncated, info["turn"]))
    return trace


@pytest.mark.parametrize("mode", MODES)
def test_a_named_opponent_plays_under_the_envs_rules(mode):
    # Under both_mothers_draw=False the default rules' random player chose afterstates that
    # were not legal, and the env raised within a few games.
    rules = Rules(both_mothers_draw=False, mother_needs_empty_start=False)
    env = gymnasium.make("Tapa-v0", opponent="random", rules=rules, actions=mode, max_turns=300)
    trace = play_games(env, 40, seed=0)
    assert sum(1 for t in trace if len(t) == 3 and t[0]) >= 30


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("opponent", ["random", "defensive"])
def test_the_same_seed_gives_the_same_games_against_an_opponent(mode, opponent):
    first = play_games(TapaEnv(opponent=opponent, actions=mode), 3, seed=7)
    second = play_games(TapaEnv(opponent=opponent, actions=mode), 3, seed=7)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    other = play_games(TapaEnv(opponent=opponent, actions=mode), 3, seed=8)
    assert len(other) != len(first) or any(
        not np.array_equal(a[0], b[0]) for a, b in zip(first, other, strict=True)
    )


class FirstPlay(Player):
    """Plays the first afterstate in the engine's order and counts its turns."""

    name = "first"

    def __init__(self) -> None:
        self.turns = 0
        self.batches: list[int] = []

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        self.turns += len(positions)
        self.batches.append(len(positions))
        return np.zeros(len(positions), dtype=np.int64)


class ChooseOnly:
    """Has only ``choose(position, dice)``, as docs/formats.md's player."""

    def __init__(self) -> None:
        self.rules_seen = Rules(both_mothers_draw=False)

    def choose(self, position, dice):
        return legal_afterstates(position, dice, rules=self.rules_seen)[-1]


@pytest.mark.parametrize("mode", MODES)
def test_a_player_object_and_a_choose_only_object_are_opponents(mode):
    player = FirstPlay()
    env = TapaEnv(opponent=player, actions=mode)
    play_games(env, 2, seed=1)
    assert player.turns > 20
    env = TapaEnv(opponent=ChooseOnly(), actions=mode, rules=Rules(both_mothers_draw=False))
    play_games(env, 2, seed=1)


def test_a_checkpoint_path_is_an_opponent(tmp_path):
    env = TapaEnv(opponent="checkpoints/tapa-td.npz", actions="move")
    assert env.opponent.name == "tapa-td"
    play_games(env, 1, seed=2)


def test_bad_opponents_are_refused_by_name():
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        TapaEnv(opponent="nobody")
    with pytest.raises(ValueError, match="opponent must be a player name or path"):
        TapaEnv(opponent=42)
    with pytest.raises(ValueError, match="self-play cannot take an opponent"):
        TapaEnv().opponent = "random"


def test_the_opponent_can_be_replaced_between_turns():
    env = TapaVectorEnv(4, actions="move", opponent="random")
    env.reset(seed=0)
    replacement = FirstPlay()
    env.opponent = replacement
    rng = np.random.default_rng(0)
    for _ in range(30):
        env.step(np.array([random_legal(rng, {"action_mask": m}) for m in env.action_masks()]))
    assert replacement.turns > 0


@pytest.mark.parametrize("mode", MODES)
def test_the_vector_env_plays_the_opponents_turns_of_all_games_in_one_call(mode):
    player = FirstPlay()
    env = TapaVectorEnv(32, actions=mode, opponent=player, max_turns=400)
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(3)
    points, ended = [], 0
    for _ in range(600):
        assert (infos["to_move"] == 0).all()
        masks = env.action_masks()
        actions = np.array([random_legal(rng, {"action_mask": m}) for m in masks])
        obs, rewards, terminations, truncations, infos = env.step(actions)
        points.extend(rewards[terminations].tolist())
        ended += int(terminations.sum())
    assert ended > 20 and set(points) <= {-2.0, -1.0, 0.0, 1.0, 2.0}
    assert any(p < 0 for p in points) and any(p > 0 for p in points)  # both sides win
    assert max(player.batches) > 16, "the opponent should be asked for many games at once"


@pytest.mark.parametrize("env_class", [TapaEnv, TapaVectorEnv])
@pytest.mark.parametrize("mode", MODES)
def test_reset_from_a_position_given_as_a_position_a_key_or_json(env_class, mode):
    position = Position.from_key("24:13,13:2|1:14,8:1|")
    for given in (position, position.key, position.to_dict(), json.dumps(position.to_dict())):
        env = env_class(actions=mode) if env_class is TapaEnv else env_class(2, actions=mode)
        env.reset(seed=0, options={"position": given, "dice": (6, 5)})
        rows = env._table.decision_rows()
        np.testing.assert_array_equal(rows[0], position.row)
        np.testing.assert_array_equal(env._table.games.dice[0], [6, 5])
        assert (env._table.games.to_move == 0).all()


def test_reset_from_one_position_per_game_in_the_vector_env():
    positions = [Position.initial(), Position.from_key("24:13,13:2|1:14,8:1|")]
    env = TapaVectorEnv(2, actions="move")
    env.reset(seed=0, options={"position": positions, "dice": [[6, 5], [3, 1]]})
    assert [Position(row) for row in env._table.decision_rows()] == positions
    np.testing.assert_array_equal(env._table.games.dice, [[6, 5], [3, 1]])


@pytest.mark.parametrize(
    "options, message",
    [
        ({"position": "24:15|1:15"}, "a position key has the form"),
        ({"position": "{not json"}, "not valid JSON"),
        ({"position": {"own": [1]}}, "position keys: missing"),
        ({"position": 3.5}, "a position is a tapa_env.Position, its key"),
        ({"position": "1:1,13:14|1:1,20:14|+1"}, "is a finished game"),
        ({"dice": (0, 7)}, "dice must be a roll of two integers 1-6"),
        ({"dice": "65"}, "dice must be a roll of two integers 1-6"),
        ({"where": 1}, r"unknown reset option\(s\) \['where'\]"),
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_bad_reset_options_are_refused_by_name(options, message, mode):
    env = TapaEnv(actions=mode)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options=options)
    assert issubclass(PositionError, ValueError)


def test_the_agent_starts_from_the_given_position_against_an_opponent():
    position = Position.from_key("24:13,13:2|1:14,8:1|")
    env = TapaEnv(opponent="defensive", actions="move")
    _, info = env.reset(seed=0, options={"position": position, "dice": (6, 5)})
    assert info["to_move"] == 0 and info["turn"] == 0
    assert env.position == position and env.dice == (6, 5)


def test_load_player_opponent_is_the_one_the_env_uses():
    env = TapaEnv(opponent="adaptive", rules=Rules(pinned_blocks_bear_off=False))
    assert type(env.opponent) is type(load_player("adaptive"))
    assert env.opponent.rules == Rules(pinned_blocks_bear_off=False)
