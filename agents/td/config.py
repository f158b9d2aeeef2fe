"""The settings of a TD(λ) training run and their checks: the schema of
``configs/agent/td.yaml`` (the ``agent`` and ``learner`` groups) on top of the settings every
run has (``configs/train.yaml``, :class:`agents.runs.settings.RunConfig`).

Each field's docstring is what ``python train.py --help`` and the YAML comments say of it.
:func:`check_config` names the first setting that cannot work, before anything runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from tapa_env.checks import whole_number

from ..errors import ConfigError
from ..runs.settings import RunConfig, check_run_config

SCHEDULES = ("constant", "linear", "cosine")
OPTIMIZERS = ("adam", "sgd")


@dataclass
class AgentConfig:
    """The network."""

    encoding: str = "expert"
    """Input encoding, the game's own: raw or expert (Tapa: 248 features, or raw plus 10
    expert features), or contact in Tapa and Tabla (expert plus each side's contact
    features: escapes, containment, shots, timing, ...)."""
    hidden: Any = 80
    """Hidden layer widths: one number (one layer) or a list, input side first."""
    activation: str = "sigmoid"
    """Hidden activation: sigmoid, tanh or relu."""
    init: str = "torch"
    """Initial weights: torch (nn.Linear's default), xavier, or small (uniform +-0.05)."""
    start_from: str | None = None
    """A TD checkpoint (.pt) whose weights a new run starts from instead of ``init`` (the same
    encoding, hidden widths and activation; its optimizer state is not taken): to train a
    bot further under a new schedule. A single hidden layer may be wider than the
    checkpoint's: its units come first and the new ones start with no say in the outputs,
    so the run starts from the same play with room to learn more. A resumed run continues
    from its own checkpoint."""
    keep_games: bool = False
    """With start_from: count the checkpoint's games as played, so that total_games, the
    learning-rate schedule, the evaluations and the curve go on from its games_trained
    instead of 0 (to finish a recipe whose run directory is gone from a shipped
    checkpoint; its optimizer state starts afresh)."""


@dataclass
class LearnerConfig:
    """TD(λ) and the optimizer."""

    lr: float = 0.002
    """Learning rate at the start."""
    lr_final: float = 0.0001
    """Learning rate at total_games, for the linear and cosine schedules."""
    lr_schedule: str = "cosine"
    """How the learning rate moves from lr to lr_final over the run: constant, linear, cosine."""
    td_lambda: float = 0.7
    """λ of the λ-returns: 0 one-step TD, 1 the game's outcome (Monte Carlo)."""
    batch_size: int = 256
    """Afterstates per minibatch step."""
    round_samples: int = 4096
    """Targets gathered (from many finished games) before a round of minibatch steps."""
    optimizer: str = "adam"
    """adam or sgd."""
    exploration: float = 0.0
    """Probability of a uniformly random play instead of the greedy one, per turn."""
    bearoff: bool = False
    """Value race afterstates (agents.bearoff.database) by the exact bear-off database instead
    of the network while playing, so that races are played exactly and the targets of every turn
    that leads into a race come from exact race chances."""


@dataclass
class TDConfig(RunConfig):
    """Every knob of ``python train.py`` (``agent=td``, the default): the shared settings of
    :class:`agents.runs.settings.RunConfig`, the network (``agent``) and TD(λ) (``learner``)."""

    agent: AgentConfig = field(default_factory=AgentConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)


def check_config(config: TDConfig) -> None:
    """Raise :class:`~agents.errors.ConfigError` naming the first setting that cannot work."""
    import torch  # here, not above: the schemas alone (train.py --help) need no torch

    from .network import INITS, NetworkShape

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ConfigError(message)

    agent, learner = config.agent, config.learner
    try:
        NetworkShape(agent.encoding, agent.hidden, agent.activation, config.game)
    except ValueError as error:
        raise ConfigError(f"agent: {error}") from None
    need(agent.init in INITS, f"agent.init must be one of {list(INITS)}, got {agent.init!r}")
    need(
        agent.start_from is None or isinstance(agent.start_from, str),
        f"agent.start_from must be the path of a TD checkpoint, got {agent.start_from!r}",
    )
    need(
        isinstance(agent.keep_games, bool),
        f"agent.keep_games must be true or false, got {agent.keep_games!r}",
    )
    need(
        not agent.keep_games or agent.start_from is not None,
        "agent.keep_games=true counts the games of agent.start_from; name that checkpoint too",
    )
    need(
        isinstance(learner.bearoff, bool),
        f"learner.bearoff must be true or false, got {learner.bearoff!r}",
    )
    need(learner.lr > 0 and math.isfinite(learner.lr), f"learner.lr must be > 0, got {learner.lr}")
    need(learner.lr_final > 0, f"learner.lr_final must be > 0, got {learner.lr_final}")
    need(
        learner.lr_schedule in SCHEDULES,
        f"learner.lr_schedule must be one of {list(SCHEDULES)}, got {learner.lr_schedule!r}",
    )
    need(
        0.0 <= learner.td_lambda <= 1.0,
        f"learner.td_lambda must be in [0, 1], got {learner.td_lambda}",
    )
    batch_size = whole_number(learner.batch_size, "learner.batch_size", 1, error=ConfigError)
    whole_number(learner.round_samples, "learner.round_samples", batch_size, error=ConfigError)
    need(
        learner.optimizer in OPTIMIZERS,
        f"learner.optimizer must be one of {list(OPTIMIZERS)}, got {learner.optimizer!r}",
    )
    need(
        0.0 <= learner.exploration <= 1.0,
        f"learner.exploration must be in [0, 1], got {learner.exploration}",
    )
    check_run_config(config)
    if config.device != "cpu":
        try:
            device = torch.device(config.device)
        except RuntimeError as error:
            raise ConfigError(f"device: {error}") from None
        need(
            device.type != "cuda" or torch.cuda.is_available(),
            f"device={config.device}: no CUDA device is available here; use device=cpu",
        )


def learning_rate(learner: LearnerConfig, games: int, total_games: int) -> float:
    """The learning rate after ``games`` of ``total_games``, by ``learner.lr_schedule``."""
    progress = min(1.0, games / max(1, total_games))
    if learner.lr_schedule == "linear":
        return learner.lr + (learner.lr_final - learner.lr) * progress
    if learner.lr_schedule == "cosine":
        return learner.lr_final + 0.5 * (learner.lr - learner.lr_final) * (
            1 + math.cos(math.pi * progress)
        )
    return learner.lr
