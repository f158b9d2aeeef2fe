"""The checker-move action mode of ``Tapa-v0`` (``actions="move"``), single and vector.

Every turn the env completes move by move is one of the engine's legal afterstates of the
position and roll it started from (R6), rewards are the outcomes of the positions that end
games (R8-R10), a turn with no legal move passes by itself (R12), and the vector env of one
game agrees with the single env step by step.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from tapa_env import Position, TapaEnv, TapaVectorEnv, legal_afterstates, outcome
from tapa_env.checker_moves import MOVE_ACTIONS, action_move
from tapa_env.encoding import get_encoding

# With 6-6 the mover is blocked: 24/18 and 13/7 land on points the opponent holds.
BLOCKED = "24:10,13:5|2:1,7:2,18:2,19:2,20:2,21:2,22:2,23:2|"


def random_masked(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def test_the_move_mode_spaces():
    env = gymnasium.make("Tapa-v0", actions="move", encoding="expert")
    size = get_encoding("expert").size
    assert env.action_space.n == MOVE_ACTIONS == 144
    assert env.observation_space.shape == (size + 7,)
    assert env.observation_space.dtype == np.float32
    vector = gymnasium.make_vec("Tapa-v0", num_envs=3, actions="move")
    assert vector.single_action_space.n == 144
    assert vector.observation_space.shape == (3, get_encoding("raw").size + 7)


def test_the_observation_is_the_position_so_far_the_dice_left_and_the_mover():
    env = TapaEnv(actions="move")
    size = env.encoding.size
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    for _ in range(200):
        np.testing.assert_array_equal(obs[:size], env.encoding.encode(env.position.row)[0])
        assert obs[-1] == info["to_move"]
        left = obs[size:-1]
        first, second = env.dice
        full = np.bincount([first, second] * (2 if first == second else 1), minlength=7)[1:]
        assert (left <= full).all() and left.sum() >= 1
        obs, _, terminated, truncated, info = env.step(random_masked(rng, info["action_mask"]))
        if terminated or truncated:
            obs, info = env.reset()


def test_every_turn_played_move_by_move_is_a_legal_afterstate_and_rewards_are_outcomes():
    env = TapaEnv(actions="move")
    rng = np.random.default_rng(1)
    checked = ended = 0
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        start, dice, turn = env.position, env.dice, info["turn"]
        terminated = truncated = False
        while not (terminated or truncated):
            mask = env.action_masks()
            np.testing.assert_array_equal(mask, info["action_mask"])
            assert mask.any(), "the agent is asked to move in a turn with no legal move"
            obs, reward, terminated, truncated, info = env.step(random_masked(rng, mask))
            if info["turn"] == turn and not terminated:
                assert reward == 0
                continue
            # The turn is complete: the position now is the other side's (turn + 1), or
            # this side's again after the other side passed (turn + 2).
            played = env.position.flip() if (info["turn"] - turn) % 2 else env.position
            assert played in legal_afterstates(start, dice), (start.key, dice, played.key)
            checked += 1
            if terminated:
                result = outcome(played)
                assert result is not None and reward == result.winner * result.points
                ended += 1
            start, dice, turn = env.position, env.dice, info["turn"]
    assert checked > 500 and ended == 12


def test_the_vector_env_of_one_agrees_with_the_single_env_step_by_step():
    single = TapaEnv(actions="move", max_turns=60)
    vector = TapaVectorEnv(1, actions="move", max_turns=60)
    obs, info = single.reset(seed=5)
    vector_obs, infos = vector.reset(seed=5)
    rng = np.random.default_rng(2)
    for _ in range(400):
        np.testing.assert_array_equal(vector_obs[0], obs)
        np.testing.assert_array_equal(infos["action_mask"][0], info["action_mask"])
        assert infos["turn"][0] == info["turn"] and infos["to_move"][0] == info["to_move"]
        action = random_masked(rng, info["action_mask"])
        obs, reward, terminated, truncated, info = single.step(action)
        vector_obs, rewards, terminations, truncations, infos = vector.step(np.array([action]))
        assert (rewards[0], terminations[0], truncations[0]) == (reward, terminated, truncated)
        if terminated or truncated:
            assert infos["action_mask"][0].all(), "a game awaiting its autoreset allows all"
            obs, info = single.reset()
            vector_obs, _, _, _, infos = vector.step(np.array([0]))  # the autoreset step


def test_an_illegal_move_is_refused_naming_the_legal_moves_and_changes_nothing():
    env = TapaEnv(actions="move")
    obs, info = env.reset(options={"position": Position.initial(), "dice": (6, 5)})
    legal = [action_move(a) for a in np.flatnonzero(info["action_mask"])]
    assert legal == [(24, 5), (24, 6)]
    with pytest.raises(ValueError, match=r"action 0 \(1/off with a 1\) is not a legal move; "):
        env.step(0)
    with pytest.raises(ValueError, match="not a checker move 0..143"):
        env.step(144)
    with pytest.raises(ValueError, match="checker-move action is an integer"):
        env.step(1.5)
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    assert env.position == Position.initial()
    obs_again, _, _, _, _ = env.step(23 * 6 + 5)  # 24/18
    assert obs_again[-7 + 5 - 1] == 1  # a 5 is left to play


def test_vector_env_refuses_an_illegal_move_naming_the_game():
    env = TapaVectorEnv(3, actions="move")
    env.reset(seed=0)
    actions = np.array([random_masked(np.random.default_rng(0), m) for m in env.action_masks()])
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(~env.action_masks()[1])[0])
    rows = env._table.decision_rows().copy()
    with pytest.raises(ValueError, match="game 1: action"):
        env.step(bad)
    np.testing.assert_array_equal(env._table.decision_rows(), rows)
    with pytest.raises(ValueError, match="each a checker move 0..143"):
        env.step(actions[:2])
    env.step(actions)


def test_R12_a_turn_with_no_legal_move_passes_by_itself():
    blocked = Position.from_key(BLOCKED)
    assert legal_afterstates(blocked, (6, 6)) == [blocked]
    env = TapaEnv(actions="move")
    _, info = env.reset(seed=0, options={"position": blocked, "dice": (6, 6)})
    assert info["turn"] == 1 and info["to_move"] == 1, "the blocked side should have passed"
    assert env.position == blocked.flip()
    assert info["action_mask"].any()


def test_R12_against_an_opponent_the_agent_never_sees_a_turn_it_must_pass():
    env = TapaEnv(actions="move", opponent="random", max_turns=200)
    rng = np.random.default_rng(0)
    for seed in range(8):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            assert info["to_move"] == 0 and info["action_mask"].any()
            _, reward, terminated, truncated, info = env.step(
                random_masked(rng, info["action_mask"])
            )
            done = terminated or truncated
        assert not info["action_mask"].any(), "a finished game allows no move"
