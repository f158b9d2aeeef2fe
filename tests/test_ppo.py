"""PPO over checker moves: masking, GAE, settings, the player, checkpoints, resume, learning."""

from __future__ import annotations

import math
import os
import signal
from dataclasses import replace
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch

import tapa_env  # noqa: F401
from agents import load_player, play_games
from agents.evaluation.stats import summarize
from agents.ppo import (
    ActorCritic,
    ConfigError,
    PPOCheckpointError,
    PPOConfig,
    PPOPlayer,
    check_config,
    gae,
    is_ppo_checkpoint,
    read_ppo_player,
    train,
)
from agents.ppo import checkpoint as ppo_checkpoint
from agents.ppo.config import PPOAgent, PPOLearner
from agents.ppo.network import log_probs_and_entropy, observation_size, sample_moves
from tapa_env import Position, generate_afterstates, initial_rows
from tapa_env.encoding import get_encoding

ROOT = Path(__file__).resolve().parents[1]


def ppo_config(base: PPOConfig | None = None, **settings) -> PPOConfig:
    """``base`` (the defaults) with ``settings`` given by their names alone, each put in
    its group: ``hidden=[32]`` sets ``agent.hidden``, ``num_steps=8`` ``learner.num_steps``."""
    base = base or PPOConfig()
    agent = {k: v for k, v in settings.items() if k in PPOAgent.__dataclass_fields__}
    learner = {k: v for k, v in settings.items() if k in PPOLearner.__dataclass_fields__}
    shared = {k: v for k, v in settings.items() if k not in agent and k not in learner}
    return replace(
        base,
        agent=replace(base.agent, **agent),
        learner=replace(base.learner, **learner),
        **shared,
    )


def tiny(**overrides) -> PPOConfig:
    """A run of a few seconds: about 4,000 decisions (a decision a checker move; a game
    about 85 of the agent's)."""
    settings = dict(
        total_games=48,
        parallel_games=16,
        num_steps=64,
        hidden=[32],
        eval_every=0,
        eval_games=20,
        eval_opponents=["random"],
        checkpoint_every=0,
        log_every=1,
        progress=False,
    )
    settings.update(overrides)
    return ppo_config(**settings)


def network(seed: int = 0, encoding: str = "expert", hidden=(32,)) -> ActorCritic:
    torch.manual_seed(seed)
    return ActorCritic(observation_size(get_encoding(encoding)), list(hidden))


class Recorder:
    """A logger that keeps what it is given."""

    def __init__(self) -> None:
        self.logged: list[tuple[int, dict]] = []
        self.texts: dict[str, str] = {}
        self.resumed_at: int | None = None

    def resume(self, step: int) -> None:
        self.resumed_at = step

    def scalars(self, step: int, values: dict) -> None:
        self.logged.append((step, dict(values)))

    def text(self, tag: str, text: str) -> None:
        self.texts[tag] = text


def random_turns(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Positions from random self-play and a roll for each: ``(count, W)``, ``(count, 2)``."""
    rng = np.random.default_rng(seed)
    env = gymnasium.make_vec("Tapa-v0", num_envs=count, actions="move", encoding="raw")
    env.reset(seed=seed)
    for _ in range(int(rng.integers(5, 60))):
        keys = rng.random((count, 144)) + env.action_masks()
        env.step(keys.argmax(axis=1))
    rows = env.unwrapped._table.games.rows.copy()
    return rows, rng.integers(1, 7, size=(count, 2))


# --- Masking -----------------------------------------------------------------------------------


def test_illegal_moves_get_minus_infinity_and_are_never_sampled():
    net = network()
    env = gymnasium.make_vec("Tapa-v0", num_envs=32, actions="move", encoding="expert")
    obs, infos = env.reset(seed=3)
    for _ in range(80):
        mask = infos["action_mask"]
        logits, values = net(torch.from_numpy(obs), torch.from_numpy(mask))
        assert logits.shape == (32, 144) and values.shape == (32,)
        assert torch.isneginf(logits[~torch.from_numpy(mask)]).all()
        assert torch.isfinite(logits[torch.from_numpy(mask)]).all()
        log_probs, entropy = log_probs_and_entropy(logits)
        assert torch.isfinite(entropy).all() and (entropy >= 0).all()
        assert torch.exp(log_probs).sum(dim=1).sub(1).abs().max() < 1e-5
        actions = sample_moves(logits).numpy()
        assert mask[np.arange(32), actions].all()
        obs, _, _, _, infos = env.step(actions)  # the env refuses an illegal move


def test_entropy_of_masked_logits_counts_only_the_legal_moves():
    logits = torch.full((1, 144), -math.inf)
    logits[0, [3, 40, 77]] = 0.0
    _, entropy = log_probs_and_entropy(logits)
    assert entropy.item() == pytest.approx(math.log(3))


# --- GAE ---------------------------------------------------------------------------------------


def test_gae_matches_a_hand_computed_example():
    # One game over three steps: the second step ends it (+1), the third is a new game's.
    rewards = np.array([[0.0], [1.0], [0.0]], dtype=np.float32)
    values = np.array([[0.5], [0.8], [0.2]], dtype=np.float32)
    ended = np.array([[False], [True], [False]])
    next_values = np.array([0.4], dtype=np.float32)
    gamma, lam = 0.9, 0.5
    advantages, returns = gae(rewards, values, ended, next_values, gamma, lam)
    # t=2: delta = 0 + 0.9 * 0.4 - 0.2 = 0.16, A = 0.16
    # t=1: delta = 1 - 0.8 = 0.2 (no bootstrap past the end), A = 0.2
    # t=0: delta = 0 + 0.9 * 0.8 - 0.5 = 0.22, A = 0.22 + 0.9 * 0.5 * 0.2 = 0.31
    assert advantages[:, 0] == pytest.approx([0.31, 0.2, 0.16], abs=1e-6)
    assert returns[:, 0] == pytest.approx([0.81, 1.0, 0.36], abs=1e-6)


def test_gae_with_gamma_and_lambda_one_is_the_final_points():
    rewards = np.array([[0, 0], [0, 0], [2, 0], [0, -1]], dtype=np.float32)
    values = np.random.default_rng(0).random((4, 2)).astype(np.float32)
    ended = rewards != 0
    _, returns = gae(rewards, values, ended, np.zeros(2, np.float32), 1.0, 1.0)
    assert returns[:3, 0] == pytest.approx([2, 2, 2])
    assert returns[:, 1] == pytest.approx([-1, -1, -1, -1])


# --- Settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides, named",
    [
        (dict(parallel_games=0), "parallel_games"),
        (dict(learning_rate=-1.0), "learning_rate"),
        (dict(gamma=1.5), "gamma"),
        (dict(hidden=[64, 0]), "hidden"),
        (dict(activation="sigmoid"), "activation"),
        (dict(encoding="fancy"), "encoding"),
        (dict(opponent="grandmaster"), "opponent"),
        (dict(pool_prob=0.5), "pool_size"),
        (
            dict(mix=["defensive"], mix_prob=0.7, pool_size=2, pool_prob=0.5),
            "learner.pool_prob + learner.mix_prob",
        ),
        (dict(mix=[], mix_prob=0.5), "mix"),
        (dict(eval_games=21), "eval_games"),
        (dict(eval_opponents=["nobody"]), "eval_opponents"),
        (dict(rules={"no_such_rule": True}), "rules"),
        (dict(norm_adv="yes"), "norm_adv"),
        (dict(num_steps=1, parallel_games=1, num_minibatches=4), "num_minibatches"),
    ],
)
def test_a_bad_setting_is_named_in_one_line(overrides, named):
    with pytest.raises(ConfigError) as error:
        check_config(ppo_config(**overrides))
    message = str(error.value)
    assert named in message and "\n" not in message
    assert isinstance(error.value, ValueError)


def test_an_encoding_is_checked_against_the_games_own():
    # Tapa and Tabla have a contact encoding; Gulbara has none, and says which it has.
    check_config(ppo_config(encoding="contact"))
    check_config(ppo_config(game="tabla", encoding="contact"))
    with pytest.raises(ConfigError, match=r"gulbara's \['expert', 'raw'\], got 'contact'"):
        check_config(ppo_config(game="gulbara", encoding="contact"))


def test_the_default_settings_and_the_yaml_agree():
    import yaml

    check_config(PPOConfig())
    written = yaml.safe_load((ROOT / "configs" / "agent" / "ppo.yaml").read_text())
    assert written.pop("defaults") == ["/schema/ppo", "_self_"]
    assert set(written.pop("hydra")) == {"help"}  # its own --help text
    agent, learner = written.pop("agent"), written.pop("learner")
    assert set(agent) == set(PPOAgent.__dataclass_fields__)
    assert set(learner) == set(PPOLearner.__dataclass_fields__)
    assert set(written) <= set(PPOConfig.__dataclass_fields__)
    config = replace(PPOConfig(), agent=PPOAgent(**agent), learner=PPOLearner(**learner), **written)
    check_config(config)
    assert config == PPOConfig()


# --- The player --------------------------------------------------------------------------------


def test_the_player_always_plays_a_legal_afterstate_and_is_deterministic_when_greedy():
    rows, dice = random_turns(64, seed=1)
    afterstates, offsets = generate_afterstates(rows, dice)
    greedy = PPOPlayer(network(1))
    first = greedy.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(0))
    again = greedy.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(99))
    assert first.dtype == np.int64 and first.shape == (64,)
    assert ((first >= 0) & (first < np.diff(offsets))).all()
    assert np.array_equal(first, again)
    sampling = PPOPlayer(network(1), sample=True)
    for seed in range(3):
        picks = sampling.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(seed))
        assert ((picks >= 0) & (picks < np.diff(offsets))).all()


def test_the_player_plays_whole_games_in_the_arena_and_as_the_envs_opponent():
    player = PPOPlayer(network(2))
    results = play_games((player, load_player("random")), 8, seed=5)
    assert results.games == 8
    env = gymnasium.make_vec("Tapa-v0", num_envs=4, actions="move", encoding="raw", opponent=player)
    _, infos = env.reset(seed=0)
    for _ in range(50):
        keys = np.random.default_rng(0).random((4, 144)) + infos["action_mask"]
        _, _, _, _, infos = env.step(keys.argmax(axis=1))


def test_a_single_position_is_chosen_from_its_legal_afterstates():
    player = PPOPlayer(network(3))
    start = Position._trusted(initial_rows(1)[0])
    chosen = player.choose(start, (6, 5))
    from tapa_env import legal_afterstates

    assert chosen in legal_afterstates(start, (6, 5))


def test_a_checkpoint_plays_the_same_action_probabilities(tmp_path):
    result = train(tiny(total_games=12), tmp_path / "run")
    player = read_ppo_player(result.checkpoint, tapa_env.DEFAULT_RULES, "saved")
    content = ppo_checkpoint.read(result.checkpoint)
    original = ppo_checkpoint.network_of(content)
    env = gymnasium.make_vec("Tapa-v0", num_envs=8, actions="move", encoding="expert")
    obs, infos = env.reset(seed=1)
    obs, mask = torch.from_numpy(obs), torch.from_numpy(infos["action_mask"])
    with torch.no_grad():
        assert torch.equal(player.network(obs, mask)[0], original(obs, mask)[0])
    assert player.name == "saved" and is_ppo_checkpoint(result.checkpoint)
    # agents.load_player knows it, and names it after its run (run/checkpoints/last.pt)
    assert load_player(str(result.checkpoint)).name == "run"
    with pytest.raises(ValueError, match="has no 2-ply search"):
        load_player(f"{result.checkpoint}@2ply")


def test_foreign_corrupt_and_td_files_are_refused_in_one_line(tmp_path):
    result = train(tiny(total_games=12), tmp_path / "run")
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(result.checkpoint.read_bytes()[:3000])
    empty = tmp_path / "empty.pt"
    empty.write_bytes(b"")
    text = tmp_path / "notes.pt"
    text.write_text("hello")
    td = ROOT / "checkpoints" / "tapa-td.pt"
    bot = ROOT / "checkpoints" / "tapa-td.npz"
    for path in (truncated, empty, text, td, bot, tmp_path / "missing.pt"):
        assert not is_ppo_checkpoint(path)
        with pytest.raises(PPOCheckpointError) as error:
            read_ppo_player(path)
        assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_resuming_with_settings_that_change_what_is_learned_is_refused(tmp_path):
    train(tiny(total_games=12), tmp_path / "run")
    with pytest.raises(ConfigError, match="learning_rate"):
        train(tiny(total_games=24, learning_rate=0.01), tmp_path / "run")
    done = train(tiny(total_games=12, eval_games=40), tmp_path / "run")
    assert done.status == "complete"


def test_a_stopped_and_resumed_run_ends_with_the_same_weights_bit_for_bit(tmp_path):
    config = tiny(
        total_games=72, pool_size=2, pool_prob=0.3, mix=["defensive"], mix_prob=0.3,
        snapshot_every=1, checkpoint_every=0,
    )  # fmt: skip
    straight = train(config, tmp_path / "straight")

    class StopAfter(Recorder):
        """Sends this process SIGTERM after the second update's log line."""

        def scalars(self, step, values):
            super().scalars(step, values)
            if sum("train/entropy" in v for _, v in self.logged) == 2:
                os.kill(os.getpid(), signal.SIGTERM)

    stopped = train(config, tmp_path / "resumed", StopAfter())
    assert stopped.status == "interrupted" and stopped.games < straight.games
    recorder = Recorder()
    resumed = train(config, tmp_path / "resumed", recorder)
    assert resumed.status == "finished" and recorder.resumed_at == stopped.games
    assert (resumed.games, resumed.turns) == (straight.games, straight.turns)
    a = ppo_checkpoint.read(straight.checkpoint)
    b = ppo_checkpoint.read(resumed.checkpoint)
    for key in a["weights"]:
        assert torch.equal(a["weights"][key], b["weights"][key]), key


# --- Logging and learning ----------------------------------------------------------------------


def test_the_run_logs_what_tensorboard_shows(tmp_path):
    recorder = Recorder()
    config = tiny(total_games=48, eval_every=20, eval_opponents=["random", "offensive"])
    train(config, tmp_path / "run", recorder)
    tags = set().union(*(values for _, values in recorder.logged))
    for tag in (
        "train/policy_loss", "train/value_loss", "train/entropy", "train/approx_kl",
        "train/clip_fraction", "train/explained_variance", "train/learning_rate",
        "games/length", "games/win_single", "games/loss_double", "perf/steps_per_second",
        "perf/games_per_second", "eval/random/win_rate", "eval/offensive/ppg",
    ):  # fmt: skip
        assert tag in tags, tag
    assert "config" in recorder.texts
    lines = (tmp_path / "run" / "evaluations.jsonl").read_text().splitlines()
    assert len(lines) >= 2  # the untrained policy, and later ones


def test_a_short_run_learns_to_beat_random(tmp_path):
    # About 380 games against random: the trained policy won 72% (+1.1 points a game) where
    # the same network untrained won 44% (-0.04), over these 200 duplicate games.
    config = tiny(
        total_games=385, parallel_games=32, num_steps=128, hidden=[64], learning_rate=0.003,
        opponent="random",
    )  # fmt: skip
    result = train(config, tmp_path / "run")
    rates = {}
    for name, player in (
        ("trained", read_ppo_player(result.checkpoint)),
        ("untrained", PPOPlayer(network(config.seed, hidden=config.agent.hidden))),
    ):
        games = play_games((player, load_player("random")), 200, seed=11)
        rates[name] = summarize((name, "random"), games)
    assert rates["trained"]["win_rate"] >= rates["untrained"]["win_rate"] + 0.15
    assert rates["trained"]["ppg"] >= rates["untrained"]["ppg"] + 0.5
