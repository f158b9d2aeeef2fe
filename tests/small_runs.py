"""Training runs of a few seconds, of each algorithm, for the tests of what a run writes."""

from __future__ import annotations

from dataclasses import replace

from agents.ppo import train as train_ppo
from agents.ppo.config import PPOConfig
from agents.td.config import LearnerConfig, TDConfig
from agents.td.training import train as train_td


def td_config(**overrides) -> TDConfig:
    """A TD run of 100 games that evaluates, logs and checkpoints every 25; a constant
    learning rate, so that raising ``total_games`` changes nothing of what came before."""
    settings = dict(
        total_games=100,
        parallel_games=16,
        eval_every=25,
        eval_games=10,
        eval_opponents=["random"],
        checkpoint_every=25,
        log_every=25,
        progress=False,
        learner=LearnerConfig(lr=0.003, lr_schedule="constant", batch_size=64, round_samples=256),
    )
    settings.update(overrides)
    return TDConfig(**settings)


def ppo_config(**overrides) -> PPOConfig:
    """A PPO run of 48 games that evaluates, logs and checkpoints every 12; no annealing of
    the learning rate, so that raising ``total_games`` changes nothing of what came before."""
    base = PPOConfig()
    settings = dict(
        total_games=48,
        parallel_games=8,
        eval_every=12,
        eval_games=10,
        eval_opponents=["random"],
        checkpoint_every=12,
        log_every=12,
        progress=False,
        agent=replace(base.agent, hidden=[32]),
        learner=replace(base.learner, num_steps=32, anneal_lr=False),
    )
    settings.update(overrides)
    return replace(base, **settings)


ALGORITHMS = {"td": (train_td, td_config), "ppo": (train_ppo, ppo_config)}
"""Each algorithm's ``train`` and its small run's config."""

GAMES_KEY = {"td": "games_trained", "ppo": "games"}
"""Where each algorithm's checkpoint keeps its games."""
