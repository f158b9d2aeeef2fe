"""What the README promises of the environments: imports, text rendering, reset errors, masks.

``TapaEnv`` and ``TapaVectorEnv`` import from ``tapa_env``; ``render()`` returns the board as
text by default; stepping before ``reset()`` says so in both envs; and the vector env gives
the single env's ``action_mask``, one row per game, when made with ``action_masks=True``.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tapa_env
from tapa_env import Position
from tapa_env.batch import MAX_AFTERSTATES

# --- exports ------------------------------------------------------------------------------


def test_the_envs_import_from_the_package():
    from tapa_env import TapaEnv, TapaVectorEnv

    assert {"TapaEnv", "TapaVectorEnv"} <= set(tapa_env.__all__)
    assert isinstance(gymnasium.make("Tapa-v0").unwrapped, TapaEnv)
    assert isinstance(
        gymnasium.make_vec("Tapa-v0", num_envs=2, afterstates_info=True), TapaVectorEnv
    )


def test_the_readme_opponent_example_runs():
    class FirstChoice:
        def choose(self, position, dice):
            return tapa_env.legal_afterstates(position, dice)[0]

    env = tapa_env.TapaEnv(opponent=FirstChoice())
    _, info = env.reset(seed=0)
    assert info["to_move"] == 0


# --- stepping before reset ----------------------------------------------------------------


def test_the_vector_env_says_it_needs_a_reset():
    env = gymnasium.make_vec("Tapa-v0", num_envs=4, afterstates_info=True)
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"reset\(\)") as error:
        env.step(np.zeros(4, dtype=np.int64))
    assert isinstance(error.value, ValueError)
    assert "not legal" not in str(error.value)
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.int64))


def test_the_single_env_says_it_needs_a_reset_with_or_without_gymnasium_wrappers():
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"reset\(\)"):
        gymnasium.make("Tapa-v0").step(0)
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"reset\(\)"):
        tapa_env.TapaEnv().step(0)


# --- rendering ----------------------------------------------------------------------------


def test_the_registered_env_renders_text_by_default():
    env = gymnasium.make("Tapa-v0")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert str(env.unwrapped.position) in text


def test_the_vector_env_renders_text_by_default():
    env = gymnasium.make_vec("Tapa-v0", num_envs=2, afterstates_info=True)
    env.reset(seed=0)
    boards = env.render()
    assert len(boards) == 2 and all(str(Position.initial()) in board for board in boards)


def test_render_mode_none_is_still_accepted_through_make():
    env = gymnasium.make("Tapa-v0", render_mode=None)
    env.reset(seed=0)
    assert env.unwrapped.render_mode is None
    assert env.render() is None


def test_check_env_passes_with_its_render_check():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("Tapa-v0").unwrapped)


# --- action masks in the vector env -------------------------------------------------------


def test_vector_masks_equal_the_single_envs_for_the_same_game():
    """A vector env of one and a single env with one seed play the same game (same dice)."""
    single = tapa_env.TapaEnv()
    vector = tapa_env.TapaVectorEnv(1, afterstates_info=True, action_masks=True)
    _, info = single.reset(seed=4)
    _, infos = vector.reset(seed=4)
    rng = np.random.default_rng(4)
    compared = games = 0
    for _ in range(300):
        mask = infos["action_mask"]
        assert mask.dtype == bool and mask.shape == (1, MAX_AFTERSTATES)
        np.testing.assert_array_equal(mask[0], info["action_mask"])
        compared += 1
        action = int(rng.integers(len(info["afterstates"].rows)))
        _, _, terminated, truncated, info = single.step(action)
        _, _, _, _, infos = vector.step(np.array([action]))
        if terminated or truncated:
            games += 1
            _, info = single.reset()
            _, _, _, _, infos = vector.step(np.array([0]))  # the vector env's autoreset
    assert compared == 300 and games >= 1


def test_vector_masks_mark_each_games_legal_actions():
    env = gymnasium.make_vec("Tapa-v0", num_envs=6, afterstates_info=True, action_masks=True)
    _, infos = env.reset(seed=2)
    for _ in range(20):
        _, _, _, _, infos = env.step(env.action_space.sample())
        counts = infos["legal_counts"]
        mask = infos["action_mask"]
        assert mask.shape == (6, MAX_AFTERSTATES)
        np.testing.assert_array_equal(mask.sum(axis=1), counts)
        for game in range(6):
            assert mask[game, : counts[game]].all()
        np.testing.assert_array_equal(mask, infos["afterstates"].action_mask())


def test_without_the_option_the_missing_mask_says_how_to_get_it():
    env = gymnasium.make_vec("Tapa-v0", num_envs=2, afterstates_info=True)
    _, infos = env.reset(seed=0)
    assert "action_mask" not in infos
    with pytest.raises(KeyError, match="action_masks=True"):
        infos["action_mask"]
    with pytest.raises(KeyError):
        infos["no such key"]
    assert infos.get("action_mask") is None


@pytest.mark.parametrize("value", [1, "yes", None])
def test_action_masks_must_be_a_boolean(value):
    with pytest.raises(ValueError, match="action_masks"):
        tapa_env.TapaVectorEnv(2, afterstates_info=True, action_masks=value)
