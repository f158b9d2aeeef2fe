"""examples/pettingzoo_two_agents.py: two MaskablePPO agents trained against each other over
the PettingZoo env, with tiny settings."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "pettingzoo_two_agents", ROOT / "examples" / "pettingzoo_two_agents.py"
)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread():
    """The example trains on one thread; give the others back afterwards."""
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("seat", [0, 1])
def test_one_seat_is_a_gymnasium_env_of_the_learners_turns(seat):
    env = example.OneSeat("tabla", seat)
    assert env.observation_space.contains(env.reset(seed=3)[0])
    observation, _ = env.reset(seed=3)
    points = 0.0
    for _ in range(2_000):
        assert env.table.agent_selection == example.AGENTS[seat]
        assert observation[-1] == seat  # the learner is the player to move
        action = env.np_random.choice(np.flatnonzero(env.action_masks()))
        observation, points, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    assert terminated and points != 0 and not env.action_masks().any()


class FirstLegalMove:
    """A stand-in for a frozen model: the first legal move, and a record of what it saw."""

    def __init__(self) -> None:
        self.masks: list[np.ndarray] = []

    def predict(self, observation, action_masks, deterministic):
        assert observation.ndim == 1 and action_masks.dtype == bool and not deterministic
        self.masks.append(action_masks)
        return np.flatnonzero(action_masks)[0], None


def test_the_other_seat_is_played_by_the_model_it_is_given():
    env = example.OneSeat("tapa", 0)
    other = FirstLegalMove()
    env.play_against(other)
    env.reset(seed=1)
    while not example.game_over(env.table):
        mask = env.action_masks()
        env.step(np.flatnonzero(mask)[-1])
    assert len(other.masks) > 20 and all(mask.any() for mask in other.masks)


@pytest.mark.parametrize(("game", "rounds"), [("tapa", 2), ("gulbara", 1)])
def test_the_example_trains_saves_and_evaluates_both_agents(
    game, rounds, tmp_path, capsys, monkeypatch
):
    opponents = []  # (the learner's seat, the other seat's player) each time one is set
    play_against = example.OneSeat.play_against

    def recorded(self, other):
        opponents.append((self.seat, other))
        play_against(self, other)

    monkeypatch.setattr(example.OneSeat, "play_against", recorded)
    argv = ["--game", game, "--rounds", str(rounds), "--steps", "256", "--n-envs", "2"]
    example.main([*argv, "--eval-games", "6", "--out", str(tmp_path)])
    printed = capsys.readouterr().out
    for name in ("A", "B"):
        # Whole rollouts: 256 steps of each of the 2 envs.
        assert f"round {rounds}/{rounds}: agent {name} trained 512 steps" in printed
    assert (tmp_path / "agent_a.zip").exists() and (tmp_path / "agent_b.zip").exists()
    # Each round tells both envs of its learner the opponent: random moves in A's first only.
    told = [(seat, type(other).__name__) for seat, other in opponents[::2]]
    expected = [("player_0", "MaskablePPO"), ("player_1", "MaskablePPO")] * rounds
    expected[0] = ("player_0", "NoneType")
    assert told == expected
    bot = example.GAME_BOTS[game].strongest
    for agent in ("A (player_0)", "B (player_1)"):
        for opponent in ("random", bot):
            line = rf"{re.escape(agent)} +{opponent} +6 +[\d.]+% ± [\d.]+% +[-+][\d.]+ ± [\d.]+"
            assert re.search(line, printed), printed
