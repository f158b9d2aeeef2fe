"""What the README promises of the environments: ``TapaEnv`` and ``TapaVectorEnv`` import
from ``tapa_env``; stepping before ``reset()`` says so in both envs; and ``render()``
returns the board as text by default.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tapa_env
from tapa_env import Position

# --- exports ------------------------------------------------------------------------------


def test_the_envs_import_from_the_package():
    from tapa_env import TapaEnv, TapaVectorEnv

    assert {"TapaEnv", "TapaVectorEnv"} <= set(tapa_env.__all__)
    assert isinstance(gymnasium.make("Tapa-v0").unwrapped, TapaEnv)
    assert isinstance(gymnasium.make_vec("Tapa-v0", num_envs=2), TapaVectorEnv)


def test_the_readme_opponent_example_runs():
    class FirstChoice:
        def choose(self, position, dice):
            return tapa_env.legal_afterstates(position, dice)[0]

    env = tapa_env.TapaEnv(opponent=FirstChoice())
    _, info = env.reset(seed=0)
    assert info["to_move"] == 0


# --- stepping before reset ----------------------------------------------------------------


def test_the_vector_env_says_it_needs_a_reset():
    env = gymnasium.make_vec("Tapa-v0", num_envs=4)
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
    env = gymnasium.make_vec("Tapa-v0", num_envs=2)
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
