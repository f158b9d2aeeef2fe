"""PPO in Tabla and Gulbara: a run of each game, its checkpoint, its refusals, and how the
rollout treats Tabla's bar and Gulbara's climbing doubles."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
import torch
from test_ppo import ppo_config

import tapa_env  # noqa: F401  (registers the envs)
from agents import PlayerSpecError, load_player
from agents.ppo import ConfigError, PPOCheckpointError, check_config, gae, read_ppo_player, train
from agents.ppo import checkpoint as ppo_checkpoint
from agents.ppo.config import PPOConfig, with_game_defaults
from agents.ppo.network import ActorCritic, observation_size, sample_moves
from agents.runs.settings import DEFAULT_OPPONENTS
from tapa_env.checker_moves import MOVE_ACTIONS, move_actions
from tapa_env.encoding import get_encoding
from tapa_env.layout import CLIMB
from tapa_env.rules import Rules, default_rules

ENVIRONMENT = {"tabla": "Tabla-v0", "gulbara": "Gulbara-v0"}
OTHER_GAMES = ("tabla", "gulbara")


def tiny(game: str, **overrides) -> PPOConfig:
    """A run of a second or two of ``game``, evaluated once at the end against the game's
    own players and random (``eval_opponents`` left null)."""
    settings = dict(
        game=game,
        total_games=16,
        parallel_games=8,
        num_steps=32,
        hidden=[32],
        eval_every=0,
        eval_games=4,
        checkpoint_every=0,
        log_every=8,
        progress=False,
    )
    settings.update(overrides)
    return ppo_config(**settings)


@pytest.fixture(scope="module", params=OTHER_GAMES)
def trained(request, tmp_path_factory):
    game = request.param
    result = train(tiny(game), tmp_path_factory.mktemp(f"ppo-{game}") / "run")
    return game, result


def net(game: str, seed: int = 0) -> ActorCritic:
    torch.manual_seed(seed)
    encoding = get_encoding("expert", game)
    return ActorCritic(observation_size(encoding), [32], actions=move_actions(game))


# --- Runs ----------------------------------------------------------------------------------


def test_a_run_of_each_game_trains_and_is_evaluated_against_that_games_players(trained):
    game, result = trained
    assert result.status == "finished" and result.games >= 16
    assert [name for name in result.evaluation if name != "games_trained"] == [
        "random",
        *DEFAULT_OPPONENTS[game],
    ]
    content = ppo_checkpoint.read(result.checkpoint)
    assert content["game"] == game
    assert content["encoding_version"] == get_encoding("expert", game).version
    assert content["network"]["actions"] == move_actions(game)
    assert content["network"]["inputs"] == observation_size(get_encoding("expert", game))
    assert content["config"]["learner"]["mix"] == list(with_game_defaults(tiny(game)).learner.mix)


@pytest.mark.parametrize("game", ["tapa", *OTHER_GAMES])
def test_null_mix_and_evaluation_opponents_are_the_games_own(game):
    from agents.bots.loading import GAME_BUILTINS

    config = with_game_defaults(PPOConfig(game=game))
    assert config.learner.mix == list(GAME_BUILTINS[game])
    assert config.eval_opponents == ["random", *DEFAULT_OPPONENTS[game]]
    named = with_game_defaults(ppo_config(game=game, mix=["random"], eval_opponents=["random"]))
    assert named.learner.mix == ["random"] and named.eval_opponents == ["random"]


@pytest.mark.parametrize(
    "game, overrides, named",
    [
        ("tabla", dict(mix=["random", "offensive"]), "learner.mix"),
        ("gulbara", dict(opponent="pubeval"), "learner.opponent"),
        ("tapa", dict(mix=["runner"]), "learner.mix"),
        ("gulbara", dict(eval_opponents=["hitter"]), "eval_opponents"),
    ],
)
def test_another_games_player_as_an_opponent_is_named_in_one_line(game, overrides, named):
    with pytest.raises(ConfigError) as error:
        check_config(ppo_config(game=game, **overrides))
    message = str(error.value)
    assert named in message and "\n" not in message


# --- Tabla's bar and Gulbara's climb ---------------------------------------------------------


def test_T5_the_policy_enters_from_the_bar_through_its_own_actions():
    # Against hitter the agent's checkers are hit often; a checker on the bar enters first,
    # by one of the six actions above Tapa's 144.
    env = gymnasium.make_vec("Tabla-v0", num_envs=16, actions="move", encoding="expert",
                             opponent="hitter")  # fmt: skip
    policy = net("tabla")
    obs, infos = env.reset(seed=2)
    entered = 0
    for _ in range(300):
        mask = torch.from_numpy(infos["action_mask"])
        with torch.no_grad():
            logits, _ = policy(torch.from_numpy(obs), mask)
        assert logits.shape == (16, MOVE_ACTIONS + 6)
        actions = sample_moves(logits)
        assert mask[torch.arange(16), actions].all()
        entered += int((actions >= MOVE_ACTIONS).sum())
        obs, _, _, _, infos = env.step(actions.numpy())
    assert entered > 0


def test_G5_a_climbing_double_is_more_decisions_of_the_agent_whose_returns_are_its_points():
    """The rollout sees only the agent's decisions (player 0), climbs included, so GAE chains
    them with no change of side: at γ = λ = 1 every decision's return is the points the
    agent scored in that game."""
    games, steps = 8, 400
    env = gymnasium.make_vec("Gulbara-v0", num_envs=games, actions="move", encoding="raw",
                             opponent="random")  # fmt: skip
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(4)
    to_move = np.zeros((steps, games))
    climbing = np.zeros((steps, games), dtype=bool)
    rewards = np.zeros((steps, games), dtype=np.float32)
    ended = np.zeros((steps, games), dtype=bool)
    valid = np.zeros((steps, games), dtype=bool)
    resetting = np.zeros(games, dtype=bool)
    for t in range(steps):
        table = env.unwrapped._table
        to_move[t], valid[t] = obs[:, -1], ~resetting
        climbing[t] = table.decision_rows()[:, CLIMB] > 0
        keys = rng.random(infos["action_mask"].shape) + infos["action_mask"]
        obs, reward, terminated, truncated, infos = env.step(keys.argmax(axis=1))
        resetting = terminated | truncated
        rewards[t], ended[t] = reward, resetting
    assert (to_move == 0).all()
    zeros = np.zeros((steps, games), dtype=np.float32)
    _, returns = gae(rewards, zeros, ended, np.zeros(games, np.float32), 1.0, 1.0)
    checked = 0
    for game in range(games):
        ends = np.flatnonzero(ended[:, game])
        start = 0
        for end in ends:
            points = rewards[end, game]
            assert points in (-2, -1, 1, 2)
            decisions = np.arange(start, end + 1)
            decisions = decisions[valid[decisions, game]]
            assert np.all(returns[decisions, game] == points)
            checked += int(climbing[decisions, game].sum())
            start = end + 1
    assert checked > 0  # climbing decisions were among the finished games'


# --- Checkpoints -----------------------------------------------------------------------------


def test_a_checkpoint_plays_its_game_with_the_same_probabilities(trained):
    game, result = trained
    player = read_ppo_player(result.checkpoint, default_rules(game), "saved")
    assert player.rules.game == game
    original = ppo_checkpoint.network_of(ppo_checkpoint.read(result.checkpoint))
    env = gymnasium.make_vec(ENVIRONMENT[game], num_envs=8, actions="move", encoding="expert")
    obs, infos = env.reset(seed=1)
    obs, mask = torch.from_numpy(obs), torch.from_numpy(infos["action_mask"])
    with torch.no_grad():
        assert torch.equal(player.network(obs, mask)[0], original(obs, mask)[0])
    loaded = load_player(str(result.checkpoint), default_rules(game))
    assert loaded.name == "run" and loaded.rules == default_rules(game)


def test_a_checkpoint_is_refused_in_another_game_in_one_line(trained):
    game, result = trained
    for other in ("tapa", *OTHER_GAMES):
        if other == game:
            continue
        with pytest.raises(PlayerSpecError) as error:
            load_player(str(result.checkpoint), default_rules(other))
        message = str(error.value)
        assert f"a bot for {game}, not for {other}" in message and "\n" not in message


def test_a_tapa_checkpoint_names_no_game_and_one_written_before_other_games_still_loads(
    tmp_path,
):
    network = ActorCritic(observation_size(get_encoding("raw")), [8])
    counts = {"steps": 1, "games": 1, "turns": 1}
    content = ppo_checkpoint.describe(network, "raw", Rules(), counts, {})
    assert "game" not in content  # Tapa's files stay as they were
    del content["network"]["actions"]  # as files written before Tabla's 150 moves
    path = tmp_path / "old.pt"
    ppo_checkpoint.save(path, content)
    player = read_ppo_player(path, Rules())
    assert player.rules.game == "tapa" and player.network.shape["actions"] == MOVE_ACTIONS
    with pytest.raises(PlayerSpecError, match="a bot for tapa, not for tabla"):
        load_player(str(path), default_rules("tabla"))


def test_a_checkpoint_whose_moves_are_not_its_games_is_refused_in_one_line(tmp_path):
    network = ActorCritic(observation_size(get_encoding("raw", "tabla")), [8])  # 144 moves
    counts = {"steps": 1, "games": 1, "turns": 1}
    content = ppo_checkpoint.describe(network, "raw", default_rules("tabla"), counts, {})
    path = tmp_path / "crafted.pt"
    ppo_checkpoint.save(path, content)
    with pytest.raises(PPOCheckpointError) as error:
        ppo_checkpoint.read(path)
    message = str(error.value)
    assert "corrupt PPO checkpoint" in message and "tabla has 150" in message
    assert "\n" not in message
