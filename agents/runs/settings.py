"""The settings every training run has, whatever its algorithm (``configs/train.yaml``):
their schema, their checks, which of them a resumed run may change, and what a run reports.

An algorithm's config schema (``agents/td/config.py``, :class:`agents.td.config.TDConfig`)
is a :class:`RunConfig` with its own groups added (``agent``, ``learner``); its settings
file is ``configs/agent/<name>.yaml``. Each field's docstring is what
``python train.py --help`` and the YAML comments say of it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tapa_env.checks import whole_number
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import GAMES, RULES_OF_GAME, AnyRules

from ..bots.game_bots import GAME_BOTS
from ..errors import ConfigError

# The players load where they are used: the schemas alone (for ``python train.py --help``)
# need neither the engine nor numba.


@dataclass
class RunConfig:
    """The settings of ``train.py`` that every algorithm has (``configs/train.yaml``)."""

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
    eval_opponents: list[str] | None = None
    """Players to evaluate against (the previous evaluation's network is always added);
    ``null``: the game's own (:data:`DEFAULT_OPPONENTS`): the heuristic bots of Tapa,
    ``pubeval`` and the heuristic bots of Tabla, the heuristic bots of Gulbara."""
    checkpoint_every: int = 50_000
    """Write the checkpoint after every this many games (and on Ctrl-C, SIGTERM, the end)."""
    log_every: int = 5_000
    """Log training scalars after every this many games."""
    device: str = "cpu"
    """Where the minibatch steps run: cpu, cuda or cuda:N (play always runs on the CPU)."""
    threads: int = 1
    """CPU threads for torch and the engine; 1 is usually fastest on a busy 2-core machine."""
    game: str = DEFAULT_GAME
    """The game played: tapa, tabla or gulbara (the config group game/, with its rules)."""
    rules: dict = field(default_factory=dict)
    """The game's rule flags (tapa_env.Rules, TablaRules, GulbaraRules; configs/game/);
    a network plays only the game and rules it was trained under."""
    progress: bool = True
    """Show a progress bar."""


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
"""Settings a resumed run may change: they do not change what is learned. They are also
left out of the run directory's name (``configs/train.yaml``, ``exclude_keys``; a test
keeps the two lists equal), so that changing them finds the same run."""


class TrainingDiverged(RuntimeError):
    """The loss or the weights stopped being finite; the last good checkpoint is kept."""


@dataclass
class TrainResult:
    """What an algorithm's ``train`` did: ``status`` is ``finished``, ``interrupted`` or
    ``complete`` (nothing left to train); the checkpoint path and the last evaluation (a
    dict with ``games_trained`` and, per opponent, ``win_rate``, ``ppg``, ``ppg_ci95`` and
    ``games``)."""

    status: str
    games: int
    turns: int
    checkpoint: Path
    evaluation: dict | None
    seconds: float


DEFAULT_OPPONENTS = {game: list(bots.eval_opponents) for game, bots in GAME_BOTS.items()}
"""The evaluation opponents of a run that names none, by game
(:data:`agents.bots.game_bots.GAME_BOTS`)."""


def eval_opponents(config: RunConfig) -> list[str]:
    """The players a run is evaluated against: its own list, else its game's defaults."""
    if config.eval_opponents is not None:
        return list(config.eval_opponents)
    return list(DEFAULT_OPPONENTS.get(config.game, ["random"]))  # an unknown game fails later


def run_rules(game: object, rules: dict) -> AnyRules:
    """The rules named by a config's ``game`` and ``rules``; :class:`ConfigError` for a game
    or a flag that does not exist."""
    if game not in RULES_OF_GAME:
        raise ConfigError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    try:
        return RULES_OF_GAME[game].from_mapping(dict(rules))
    except ValueError as error:
        raise ConfigError(f"rules: {error}") from None


def check_run_config(config: RunConfig) -> AnyRules:
    """Raise :class:`ConfigError` naming the first shared setting that cannot work; the
    rules the settings name. ``device`` is the algorithm's to check (it may need torch)."""
    from ..bots.loading import load_player

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ConfigError(message)

    for name in ("total_games", "parallel_games", "max_turns", "eval_games", "threads"):
        whole_number(getattr(config, name), name, 1, error=ConfigError)
    for name in ("eval_every", "checkpoint_every", "log_every", "seed"):
        whole_number(getattr(config, name), name, 0, error=ConfigError)
    need(
        config.eval_games % 2 == 0,
        f"eval_games must be even (duplicate dice), got {config.eval_games}",
    )
    rules = run_rules(config.game, config.rules)
    if getattr(rules, "backgammon_triple", False):
        raise ConfigError(
            "rules.backgammon_triple: training counts a game as 1 or 2 points; a triple "
            "Tabla win is not learned yet"
        )
    for name in eval_opponents(config):
        try:
            load_player(name, rules)
        except ValueError as error:
            raise ConfigError(f"eval_opponents: {error}") from None
    return rules


def config_dict(config: RunConfig) -> dict:
    """The config as plain containers (for checkpoints and comparisons)."""
    return json.loads(json.dumps(asdict(config)))


def resumable_training(content: dict, path: Path, run_dir: Path, config: RunConfig) -> dict:
    """The ``training`` state of the checkpoint ``content`` read from ``path``, once it is
    known to hold one and to be of this ``config`` (but for :data:`RESUMABLE_CHANGES`);
    :class:`ConfigError` otherwise."""
    if "training" not in content:
        raise ConfigError(f"{path}: holds no training state; cannot resume")
    conflicts = resume_conflicts(content["config"], config_dict(config))
    if conflicts:
        raise ConfigError(
            f"{run_dir} holds a run with other settings ({'; '.join(conflicts)}); "
            "use another run directory, or the same settings to resume it"
        )
    return content["training"]


def resume_conflicts(saved: dict, now: dict) -> list[str]:
    """The settings that differ between a saved run and ``now`` and would change what it
    learns (all but :data:`RESUMABLE_CHANGES`); each as ``"key: saved, now"``."""
    conflicts = []
    saved = {"game": DEFAULT_GAME, **saved}  # saved before there were other games: Tapa's

    def walk(a: Any, b: Any, prefix: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), f"{prefix}{key}.")
        elif a != b and prefix.rstrip(".") not in RESUMABLE_CHANGES:
            conflicts.append(f"{prefix.rstrip('.')}: {a!r} in the checkpoint, {b!r} now")

    walk(saved, now, "")
    return conflicts
