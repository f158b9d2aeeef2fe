"""The settings of a training run (``configs/train.yaml``) and their checks.

Each field's docstring is what ``python train.py --help`` and ``configs/train.yaml`` say of
it. :func:`check_config` names the first setting that cannot work, before anything runs.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

from tapa_env.rules import Rules

from .loading import load_player
from .network import INITS, NetworkShape

SCHEDULES = ("constant", "linear", "cosine")
OPTIMIZERS = ("adam", "sgd")


@dataclass
class AgentConfig:
    """The network."""

    encoding: str = "expert"
    """Input encoding: raw (248 features) or expert (raw plus 10 expert features)."""
    hidden: Any = 80
    """Hidden layer widths: one number (one layer) or a list, input side first."""
    activation: str = "sigmoid"
    """Hidden activation: sigmoid, tanh or relu."""
    init: str = "torch"
    """Initial weights: torch (nn.Linear's default), xavier, or small (uniform +-0.05)."""


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


@dataclass
class TrainConfig:
    """Every knob of ``train.py``; ``python train.py --help`` prints them."""

    agent: AgentConfig = field(default_factory=AgentConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    total_games: int = 500_000
    """Self-play games to train for; a finished run trains further when this is raised."""
    parallel_games: int = 512
    """Games played at once through the vector env (one forward pass values all of them)."""
    max_turns: int = 1000
    """A self-play game still going after this many turns is cut off (no outcome target)."""
    seed: int = 0
    """Seeds the weights, the dice and the exploration: the same seed, the same run."""
    eval_every: int = 50_000
    """Evaluate after every this many games (0: only at the end)."""
    eval_games: int = 400
    """Duplicate-dice games against each opponent at an evaluation."""
    eval_opponents: list[str] = field(
        default_factory=lambda: ["offensive", "defensive", "adaptive"]
    )
    """Players to evaluate against (the previous evaluation's network is always added)."""
    checkpoint_every: int = 50_000
    """Write the checkpoint after every this many games (and on Ctrl-C, SIGTERM, the end)."""
    log_every: int = 5_000
    """Log training scalars after every this many games."""
    device: str = "cpu"
    """Where the minibatch steps run: cpu, cuda or cuda:N (play always runs on the CPU)."""
    threads: int = 1
    """CPU threads for torch and the engine; 1 is usually fastest on a busy 2-core machine."""
    rules: dict = field(default_factory=lambda: dict(vars(Rules())))
    """Rule flags (tapa_env.Rules); a network plays only the rules it was trained under."""
    progress: bool = True
    """Show a progress bar."""


class ConfigError(ValueError):
    """A training setting that cannot work; the message names it."""


def check_config(config: TrainConfig) -> None:
    """Raise :class:`ConfigError` naming the first setting that cannot work."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ConfigError(message)

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    agent, learner = config.agent, config.learner
    try:
        NetworkShape(agent.encoding, agent.hidden, agent.activation)
    except ValueError as error:
        raise ConfigError(f"agent: {error}") from None
    need(agent.init in INITS, f"agent.init must be one of {list(INITS)}, got {agent.init!r}")
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
    need(
        whole(learner.batch_size) and learner.batch_size >= 1,
        f"learner.batch_size must be a positive integer, got {learner.batch_size!r}",
    )
    need(
        whole(learner.round_samples) and learner.round_samples >= learner.batch_size,
        f"learner.round_samples must be an integer of at least learner.batch_size "
        f"({learner.batch_size}), got {learner.round_samples!r}",
    )
    need(
        learner.optimizer in OPTIMIZERS,
        f"learner.optimizer must be one of {list(OPTIMIZERS)}, got {learner.optimizer!r}",
    )
    need(
        0.0 <= learner.exploration <= 1.0,
        f"learner.exploration must be in [0, 1], got {learner.exploration}",
    )
    for name in ("total_games", "parallel_games", "max_turns", "eval_games", "threads"):
        value = getattr(config, name)
        need(whole(value) and value >= 1, f"{name} must be a positive integer, got {value!r}")
    for name in ("eval_every", "checkpoint_every", "log_every", "seed"):
        value = getattr(config, name)
        need(whole(value) and value >= 0, f"{name} must be an integer >= 0, got {value!r}")
    need(
        config.eval_games % 2 == 0,
        f"eval_games must be even (duplicate dice), got {config.eval_games}",
    )
    try:
        rules = Rules.from_mapping(dict(config.rules))
    except ValueError as error:
        raise ConfigError(f"rules: {error}") from None
    for name in config.eval_opponents:
        try:
            load_player(name, rules)
        except ValueError as error:
            raise ConfigError(f"eval_opponents: {error}") from None
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


def config_dict(config: TrainConfig) -> dict:
    """The config as plain containers (for checkpoints and comparisons)."""
    return json.loads(json.dumps(asdict(config)))


# Settings a resumed run may change: they do not change what is learned.
RESUMABLE_CHANGES = (
    "total_games",
    "eval_every",
    "eval_games",
    "eval_opponents",
    "checkpoint_every",
    "log_every",
    "device",
    "threads",
    "progress",
)


def resume_conflicts(saved: dict, now: dict) -> list[str]:
    """The settings that differ between a saved run and ``now`` and would change what it
    learns; each as ``"key: saved, now"``."""
    conflicts = []

    def walk(a: Any, b: Any, prefix: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), f"{prefix}{key}.")
        elif a != b and prefix.rstrip(".") not in RESUMABLE_CHANGES:
            conflicts.append(f"{prefix.rstrip('.')}: {a!r} in the checkpoint, {b!r} now")

    walk(saved, now, "")
    return conflicts
