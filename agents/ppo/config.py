"""The settings of a PPO run (``configs/agent/ppo.yaml``) and their checks.

Each field's docstring is what the YAML file says of it. :func:`check_config` names the
first setting that cannot work, in one line, before anything runs.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from tapa_env.encoding import ENCODINGS
from tapa_env.rules import Rules

from ..loading import BUILTIN_NAMES, load_player

ACTIVATIONS = ("tanh", "relu")
SELF = "self"  # the opponent that is a frozen snapshot of the policy being trained


class ConfigError(ValueError):
    """A PPO setting that cannot work; the one-line message names it."""


@dataclass
class PPOConfig:
    """Every knob of a PPO run. Steps are the agent's checker-move decisions."""

    encoding: str = "expert"
    """Position encoding of the observation: raw (248 features) or expert (258)."""
    hidden: Any = field(default_factory=lambda: [128, 128])
    """Hidden layer widths of the MLP: one number or a list, input side first."""
    activation: str = "tanh"
    """Hidden activation: tanh or relu."""
    shared_trunk: bool = False
    """True: the policy and value heads share the hidden layers; False: two separate MLPs."""
    total_steps: int = 4_000_000
    """Agent decisions (checker moves, over all games) to train for; raise it to train further."""
    num_envs: int = 128
    """Games played at once through the vector env."""
    num_steps: int = 64
    """Steps each game is played per rollout: a rollout is num_envs * num_steps decisions."""
    learning_rate: float = 0.0025
    """Adam's learning rate at the start."""
    anneal_lr: bool = True
    """Let the learning rate fall linearly to 0 at total_steps."""
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
    """Stop an update's epochs early once the approximate KL passes this (None: never)."""
    opponent: str = SELF
    """The usual opponent: self (a frozen snapshot of the policy) or random, offensive,
    defensive, adaptive."""
    snapshot_every: int = 5
    """Updates between refreshes of the frozen snapshot (opponent self)."""
    pool_size: int = 0
    """Past snapshots kept for the pool of past selves (0: no pool)."""
    pool_prob: float = 0.0
    """Probability that a rollout plays a past self sampled from the pool instead."""
    mix: list[str] = field(default_factory=lambda: ["random", "offensive", "defensive", "adaptive"])
    """Built-in players mixed in as opponents (random, offensive, defensive, adaptive)."""
    mix_prob: float = 0.5
    """Probability that a rollout plays one of mix (uniformly) instead."""
    opponent_sample: bool = True
    """The frozen snapshot samples its moves (True) or plays greedily (False)."""
    max_turns: int = 1000
    """A game still going after this many turns (both sides) is cut off, with 0 points."""
    seed: int = 0
    """Seeds the weights, the dice, the sampling and the opponent schedule."""
    eval_every: int = 20_000
    """Evaluate after every this many games (0: only at the start and the end)."""
    eval_games: int = 200
    """Duplicate-dice games against each evaluation opponent."""
    eval_opponents: list[str] = field(
        default_factory=lambda: ["random", "offensive", "defensive", "adaptive"]
    )
    """Players the evaluations play (built-in names or bot paths)."""
    checkpoint_every: int = 20_000
    """Write the checkpoint after every this many games (and on Ctrl-C, SIGTERM, the end)."""
    log_every: int = 1
    """Log training scalars after every this many updates."""
    threads: int = 1
    """CPU threads for torch and the engine; 1 is usually fastest on a busy machine."""
    rules: dict = field(default_factory=lambda: dict(vars(Rules())))
    """Rule flags (tapa_env.Rules); a policy plays only the rules it was trained under."""
    progress: bool = True
    """Show a progress bar."""

    @property
    def rollout_steps(self) -> int:
        """Decisions per rollout: ``num_envs * num_steps``."""
        return self.num_envs * self.num_steps

    @property
    def iterations(self) -> int:
        """Rollouts (and updates) in the whole run."""
        return -(-self.total_steps // self.rollout_steps)


NOT_LEARNED = (
    "total_steps",
    "eval_every",
    "eval_games",
    "eval_opponents",
    "checkpoint_every",
    "log_every",
    "threads",
    "progress",
)
"""Settings that may change when a run resumes: they do not change what is learned (as
for TD runs, a larger total_steps trains further and stretches the annealing)."""


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

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ConfigError(message)

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def flag(value: Any) -> bool:
        return isinstance(value, bool)

    need(
        config.encoding in ENCODINGS,
        f"encoding must be one of {sorted(ENCODINGS)}, got {config.encoding!r}",
    )
    try:
        hidden_widths(config.hidden)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    need(
        config.activation in ACTIVATIONS,
        f"activation must be one of {list(ACTIVATIONS)}, got {config.activation!r}",
    )
    for name in ("total_steps", "num_envs", "num_steps", "num_minibatches", "update_epochs"):
        value = getattr(config, name)
        need(whole(value) and value >= 1, f"{name} must be a positive integer, got {value!r}")
    for name in ("snapshot_every", "max_turns", "eval_games", "threads", "log_every"):
        value = getattr(config, name)
        need(whole(value) and value >= 1, f"{name} must be a positive integer, got {value!r}")
    for name in ("pool_size", "eval_every", "checkpoint_every", "seed"):
        value = getattr(config, name)
        need(whole(value) and value >= 0, f"{name} must be an integer >= 0, got {value!r}")
    need(
        config.rollout_steps >= config.num_minibatches,
        f"num_minibatches ({config.num_minibatches}) must not exceed num_envs * num_steps "
        f"({config.rollout_steps})",
    )
    for name in ("anneal_lr", "norm_adv", "clip_vloss", "shared_trunk", "opponent_sample"):
        value = getattr(config, name)
        need(flag(value), f"{name} must be true or false, got {value!r}")
    need(flag(config.progress), f"progress must be true or false, got {config.progress!r}")

    def positive(name: str) -> None:
        value = getattr(config, name)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        need(ok and math.isfinite(value) and value > 0, f"{name} must be > 0, got {value!r}")

    for name in ("learning_rate", "clip_coef", "max_grad_norm"):
        positive(name)
    for name in ("gamma", "gae_lambda", "pool_prob", "mix_prob"):
        value = getattr(config, name)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        need(ok and 0.0 <= value <= 1.0, f"{name} must be in [0, 1], got {value!r}")
    for name in ("ent_coef", "vf_coef"):
        value = getattr(config, name)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        need(ok and math.isfinite(value) and value >= 0, f"{name} must be >= 0, got {value!r}")
    if config.target_kl is not None:
        positive("target_kl")
    need(
        config.opponent == SELF or config.opponent in BUILTIN_NAMES,
        f"opponent must be {SELF!r} or one of {list(BUILTIN_NAMES)}, got {config.opponent!r}",
    )
    need(
        config.pool_prob == 0 or config.pool_size >= 1,
        f"pool_prob={config.pool_prob} needs a pool: set pool_size >= 1",
    )
    need(
        isinstance(config.mix, (list, tuple)) and all(m in BUILTIN_NAMES for m in config.mix),
        f"mix must be a list of {list(BUILTIN_NAMES)}, got {config.mix!r}",
    )
    need(
        config.mix_prob == 0 or len(config.mix) >= 1,
        f"mix_prob={config.mix_prob} needs opponents to mix in: set mix, e.g. [defensive]",
    )
    need(
        config.pool_prob + config.mix_prob <= 1.0,
        f"pool_prob + mix_prob must be at most 1, got {config.pool_prob + config.mix_prob}",
    )
    need(
        config.eval_games % 2 == 0,
        f"eval_games must be even (duplicate dice), got {config.eval_games!r}",
    )
    try:
        rules = Rules.from_mapping(dict(config.rules))
    except (ValueError, TypeError) as error:
        raise ConfigError(f"rules: {error}") from None
    need(
        isinstance(config.eval_opponents, (list, tuple)),
        f"eval_opponents must be a list of players, got {config.eval_opponents!r}",
    )
    for name in config.eval_opponents:
        try:
            load_player(name, rules)
        except ValueError as error:
            raise ConfigError(f"eval_opponents: {error}") from None


def config_dict(config: PPOConfig) -> dict:
    """The config as plain containers (JSON-ready), for checkpoints and the logged text."""
    values = asdict(config)
    values["hidden"] = list(hidden_widths(config.hidden))
    values["mix"] = list(config.mix)
    values["eval_opponents"] = list(config.eval_opponents)
    values["rules"] = {k: bool(v) for k, v in dict(config.rules).items()}
    return values


def resume_conflicts(saved: dict, current: dict) -> list[str]:
    """The settings that differ between a saved run and this one and change what is learned,
    each as ``name: saved -> now``."""
    conflicts = []
    for name in sorted(set(saved) | set(current)):
        if name in NOT_LEARNED:
            continue
        if saved.get(name) != current.get(name):
            conflicts.append(f"{name}: {saved.get(name)!r} -> {current.get(name)!r}")
    return conflicts
