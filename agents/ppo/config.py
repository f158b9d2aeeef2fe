"""The settings of a PPO run and their checks: the schema of ``configs/agent/ppo.yaml`` (the
``agent`` and ``learner`` groups) on top of the settings every run has
(``configs/train.yaml``, :class:`agents.runs.settings.RunConfig`).

Each field's docstring is what the YAML comments say of it. :func:`check_config` names the
first setting that cannot work, in one line, before anything runs; :func:`with_game_defaults`
fills in what ``null`` leaves to the game (the opponents mixed in, the evaluation's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from tapa_env.checks import whole_number

from ..errors import ConfigError
from ..runs.settings import RunConfig, check_run_config, eval_opponents

ACTIVATIONS = ("tanh", "relu")
SELF = "self"  # the opponent that is a frozen snapshot of the policy being trained

__all__ = [
    "ConfigError",
    "PPOAgent",
    "PPOConfig",
    "PPOLearner",
    "check_config",
    "with_game_defaults",
]


@dataclass
class PPOAgent:
    """The actor-critic network."""

    encoding: str = "expert"
    """Position encoding of the observation, the game's own: raw or expert (Tapa 248 or 258
    features, Tabla 196 or 204, Gulbara 205 or 211, Fevga 196 or 204), or contact in Tapa
    (276) and Tabla (222)."""
    hidden: Any = field(default_factory=lambda: [128, 128])
    """Hidden layer widths of the MLP: one number or a list, input side first."""
    activation: str = "tanh"
    """Hidden activation: tanh or relu."""
    shared_trunk: bool = False
    """True: the policy and value heads share the hidden layers; False: two separate MLPs."""


@dataclass
class PPOLearner:
    """PPO's rollouts, clipped updates and opponents. Steps are the agent's decisions: one
    checker move each (a Gulbara climbing double is more decisions of the same side)."""

    num_steps: int = 64
    """Steps each game is played per rollout: a rollout is parallel_games * num_steps."""
    learning_rate: float = 0.0025
    """Adam's learning rate at the start."""
    anneal_lr: bool = True
    """Let the learning rate fall linearly to 0 at total_games."""
    gamma: float = 1.0
    """Discount per decision; the game's points are the only reward, so 1 is natural."""
    gae_lambda: float = 0.95
    """λ of generalized advantage estimation: 0 one-step TD, 1 Monte Carlo."""
    num_minibatches: int = 4
    """Minibatches each rollout is split into for an epoch of updates."""
    update_epochs: int = 4
    """Passes over each rollout."""
    norm_adv: bool = True
    """Normalize the advantages within each minibatch."""
    clip_coef: float = 0.2
    """Clip range of the probability ratio in the surrogate objective."""
    clip_vloss: bool = True
    """Clip the value loss around the rollout's values as well."""
    ent_coef: float = 0.01
    """Weight of the entropy bonus."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Global gradient-norm clip."""
    target_kl: float | None = None
    """Stop an update's epochs early once the approximate KL passes this (null: never)."""
    opponent: str = SELF
    """The usual opponent: self (a frozen snapshot of the policy) or a built-in player of
    the game (Tapa: random, offensive, defensive, adaptive; Tabla: random, pubeval, safe,
    hitter; Gulbara: random, runner, blocker)."""
    snapshot_every: int = 5
    """Updates between refreshes of the frozen snapshot (opponent self)."""
    pool_size: int = 0
    """Past snapshots kept for the pool of past selves (0: no pool)."""
    pool_prob: float = 0.0
    """Probability that a rollout plays a past self sampled from the pool instead."""
    mix: list[str] | None = None
    """Built-in players mixed in as opponents; null: all of the game's (Tapa: random,
    offensive, defensive, adaptive; Tabla: random, pubeval, safe, hitter; Gulbara: random,
    runner, blocker)."""
    mix_prob: float = 0.5
    """Probability that a rollout plays one of mix (uniformly) instead."""
    opponent_sample: bool = True
    """The frozen snapshot samples its moves (true) or plays greedily (false)."""


@dataclass
class PPOConfig(RunConfig):
    """Every knob of a PPO run: the shared settings (``parallel_games`` games play at once,
    ``total_games`` ends the run) and the two groups of ``configs/agent/ppo.yaml``."""

    total_games: int = 46_000
    """Games to train for (about 4 million decisions); a finished run trains further when
    this is raised."""
    parallel_games: int = 128
    """Games played at once through the vector env."""
    eval_every: int = 10_000
    """Evaluate after every this many games (0: only at the start and the end)."""
    eval_games: int = 200
    """Duplicate-dice games against each evaluation opponent."""
    eval_opponents: list[str] | None = None
    """Players the evaluations play (built-in names or bot paths); null: random and the
    game's own (Tapa: offensive, defensive, adaptive; Tabla: pubeval, hitter, safe;
    Gulbara: runner, blocker)."""
    checkpoint_every: int = 10_000
    """Write the checkpoint after every this many games (and on Ctrl-C, SIGTERM, the end)."""
    log_every: int = 1_000
    """Log training scalars after every this many games."""
    agent: PPOAgent = field(default_factory=PPOAgent)
    learner: PPOLearner = field(default_factory=PPOLearner)

    @property
    def rollout_steps(self) -> int:
        """Decisions per rollout: ``parallel_games * learner.num_steps``."""
        return self.parallel_games * self.learner.num_steps


def hidden_widths(hidden: Any) -> tuple[int, ...]:
    """``hidden`` as a tuple of positive widths; ``ValueError`` otherwise."""
    widths = [hidden] if isinstance(hidden, int) and not isinstance(hidden, bool) else hidden
    try:
        widths = tuple(widths)
    except TypeError:
        widths = ()
    if not widths or any(isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in widths):
        raise ValueError(f"hidden must be a positive width or a list of them, got {hidden!r}")
    return widths


def check_config(config: PPOConfig) -> None:
    """Raise :class:`ConfigError` naming the first setting that cannot work."""
    # Here, not above: the schemas alone (train.py --help) need neither the engine nor numba.
    from tapa_env.encoding import encoding_names

    from ..bots.loading import GAME_BUILTINS

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ConfigError(message)

    check_run_config(config)  # first: it checks the game, which the rest depends on
    builtins = list(GAME_BUILTINS[config.game])
    need(config.device == "cpu", f"device: PPO trains on the CPU, got {config.device!r}")
    agent, learner = config.agent, config.learner
    names = encoding_names(config.game)
    need(
        agent.encoding in names,
        f"agent.encoding must be one of {config.game}'s {names}, got {agent.encoding!r}",
    )
    try:
        hidden_widths(agent.hidden)
    except ValueError as error:
        raise ConfigError(f"agent.{error}") from None
    need(
        agent.activation in ACTIVATIONS,
        f"agent.activation must be one of {list(ACTIVATIONS)}, got {agent.activation!r}",
    )
    need(isinstance(agent.shared_trunk, bool), "agent.shared_trunk must be true or false")
    for name in ("num_steps", "num_minibatches", "update_epochs", "snapshot_every"):
        whole_number(getattr(learner, name), f"learner.{name}", 1, error=ConfigError)
    whole_number(learner.pool_size, "learner.pool_size", 0, error=ConfigError)
    for name in ("anneal_lr", "norm_adv", "clip_vloss", "opponent_sample"):
        value = getattr(learner, name)
        need(isinstance(value, bool), f"learner.{name} must be true or false, got {value!r}")

    def number(name: str, low: float, high: float = math.inf, low_open: bool = False) -> None:
        value = getattr(learner, name)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        ok = ok and math.isfinite(value) and (value > low if low_open else value >= low)
        need(ok and value <= high, f"learner.{name} must be {'>' if low_open else '>='} "
             f"{low}{'' if high == math.inf else f' and <= {high}'}, got {value!r}")  # fmt: skip

    for name in ("learning_rate", "clip_coef", "max_grad_norm"):
        number(name, 0, low_open=True)
    for name in ("gamma", "gae_lambda", "pool_prob", "mix_prob"):
        number(name, 0, 1)
    for name in ("ent_coef", "vf_coef"):
        number(name, 0)
    if learner.target_kl is not None:
        number("target_kl", 0, low_open=True)
    need(
        learner.opponent == SELF or learner.opponent in builtins,
        f"learner.opponent must be {SELF!r} or one of {config.game}'s players {builtins}, "
        f"got {learner.opponent!r}",
    )
    need(
        config.rollout_steps >= learner.num_minibatches,
        f"learner.num_minibatches ({learner.num_minibatches}) must not exceed the decisions of "
        f"a rollout, parallel_games * learner.num_steps ({config.rollout_steps})",
    )
    need(
        learner.pool_prob == 0 or learner.pool_size >= 1,
        f"learner.pool_prob={learner.pool_prob} needs a pool: set learner.pool_size >= 1",
    )
    mix = builtins if learner.mix is None else learner.mix
    need(
        isinstance(mix, (list, tuple)) and all(m in builtins for m in mix),
        f"learner.mix must be null or a list of {config.game}'s players {builtins}, "
        f"got {learner.mix!r}",
    )
    need(
        learner.mix_prob == 0 or len(mix) >= 1,
        f"learner.mix_prob={learner.mix_prob} needs opponents to mix in: set learner.mix",
    )
    need(
        learner.pool_prob + learner.mix_prob <= 1.0,
        f"learner.pool_prob + learner.mix_prob must be at most 1, "
        f"got {learner.pool_prob + learner.mix_prob}",
    )


def with_game_defaults(config: PPOConfig) -> PPOConfig:
    """``config`` with what ``null`` leaves to the game written out: ``learner.mix``, the
    game's built-in players, and ``eval_opponents``, ``random`` and the game's own
    (:func:`agents.runs.settings.eval_opponents`). A run keeps this config in its
    checkpoints, so a Tapa run saved before these defaults were ``null`` resumes as it was.

    >>> with_game_defaults(PPOConfig(game="gulbara")).learner.mix
    ['random', 'runner', 'blocker']
    >>> with_game_defaults(PPOConfig(game="tabla")).eval_opponents
    ['random', 'pubeval', 'hitter', 'safe']
    """
    from ..bots.loading import GAME_BUILTINS

    mix = config.learner.mix
    opponents = config.eval_opponents
    return replace(
        config,
        learner=replace(
            config.learner, mix=list(GAME_BUILTINS[config.game]) if mix is None else list(mix)
        ),
        eval_opponents=["random", *eval_opponents(config)] if opponents is None else opponents,
    )
