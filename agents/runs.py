"""What every algorithm's training run shares: the settings of ``configs/train.yaml``, their
checks, which of them a resumed run may change, what a run reports, its evaluations in the
arena and their file, and stopping cleanly on Ctrl-C or SIGTERM.

An algorithm's config schema (``agents/td/config.py``, :class:`agents.td.config.TDConfig`)
is a :class:`RunConfig` with its own groups added (``agent``, ``learner``); its settings
file is ``configs/agent/<name>.yaml``. Each field's docstring is what
``python train.py --help`` and the YAML comments say of it.
"""

from __future__ import annotations

import json
import numbers
import signal
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tapa_env.rules import Rules

from .files import write_bytes_atomically

if TYPE_CHECKING:
    from .players import Player

# The arena and the players load where they are used: the schemas alone (for ``python
# train.py --help``) need neither the engine nor numba.


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


class ConfigError(ValueError):
    """A training setting that cannot work; the message names it."""


class TrainingDiverged(RuntimeError):
    """The loss or the weights stopped being finite; the last good checkpoint is kept."""


class Logger(Protocol):
    """Where training scalars go (TensorBoard in ``train.py``; a list in tests).

    ``resume(step)`` comes first when a run resumes from its checkpoint at ``step`` games:
    whatever was logged past ``step`` by the run that stopped is to be dropped, and what was
    logged at ``step`` and before kept (a run logs and evaluates before it checkpoints, so a
    resumed run never logs at its checkpoint's step again). Without it the run starts
    afresh: whatever an earlier run in the directory logged is to be dropped.
    """

    def resume(self, step: int) -> None: ...

    def scalars(self, step: int, values: dict[str, float]) -> None: ...

    def text(self, tag: str, text: str) -> None: ...


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


EVALUATION_SEED = 1000  # evaluation dice: seed + EVALUATION_SEED + opponent index


def evaluate_player(
    player: Player, opponents: dict, games: int, seed: int, games_trained: int
) -> dict:
    """Duplicate-dice games of ``player`` against each opponent in the arena: per opponent
    ``win_rate``, ``ppg`` (points per game) with its ``ppg_ci95``, and ``games``."""
    from .arena import play_games
    from .stats import summarize

    result: dict[str, Any] = {"games_trained": games_trained}
    for index, (name, opponent) in enumerate(opponents.items()):
        played = play_games((player, opponent), games, seed=seed + EVALUATION_SEED + index)
        summary = summarize((player.name, name), played)
        result[name] = {key: summary[key] for key in ("win_rate", "ppg", "ppg_ci95", "games")}
    return result


def write_evaluations(path: Path, evaluations: list[dict]) -> None:
    """Write ``evaluations.jsonl``: the run's evaluations so far, one a line. The file is
    rewritten whole (atomically) each time, so that it holds exactly this run's evaluations
    whatever stopped an earlier run in the directory; a failed write raises
    :class:`agents.files.WriteError`."""
    lines = "".join(json.dumps(evaluation) + "\n" for evaluation in evaluations)
    write_bytes_atomically(path, lines.encode())


def log_evaluation(logger: Logger | None, path: Path, evaluations: list[dict]) -> None:
    """Write the run's ``evaluations`` (:func:`evaluate_player`'s) to ``path``
    (:func:`write_evaluations`) and log the last one's ``eval/<name>/win_rate`` and ``ppg``
    of each opponent at its games trained."""
    write_evaluations(path, evaluations)
    if logger is None:
        return
    result = evaluations[-1]
    values = {}
    for name, value in result.items():
        if isinstance(value, dict):
            values[f"eval/{name}/win_rate"] = value["win_rate"]
            values[f"eval/{name}/ppg"] = value["ppg"]
    logger.scalars(result["games_trained"], values)


def start_logging(logger: Logger | None, config: RunConfig, resumed_at: int | None) -> None:
    """Begin a run's log: a resumed run (``resumed_at`` its checkpoint's games) drops what
    the stopped one logged after its checkpoint; a new one logs its whole config once."""
    if logger is None:
        return
    if resumed_at is not None:
        logger.resume(resumed_at)
    else:
        logger.text("config", "```\n" + json.dumps(config_dict(config), indent=2) + "\n```")


def next_multiple(games: int, every: int) -> int:
    """The first multiple of ``every`` above ``games``."""
    return (games // every + 1) * every


class StopRequest:
    """Turns SIGINT and SIGTERM into a request to checkpoint and stop, while installed."""

    def __init__(self) -> None:
        self.requested: str | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, number: int, frame: Any) -> None:
        self.requested = signal.Signals(number).name
        signal.signal(number, self._previous[number])  # a second signal acts at once

    def __exit__(self, *exc: Any) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)


def whole(value: Any) -> bool:
    """Whether ``value`` is an integer and not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_run_config(config: RunConfig) -> Rules:
    """Raise :class:`ConfigError` naming the first shared setting that cannot work; the
    rules the settings name. ``device`` is the algorithm's to check (it may need torch)."""
    from .loading import load_player

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ConfigError(message)

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

    def walk(a: Any, b: Any, prefix: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), f"{prefix}{key}.")
        elif a != b and prefix.rstrip(".") not in RESUMABLE_CHANGES:
            conflicts.append(f"{prefix.rstrip('.')}: {a!r} in the checkpoint, {b!r} now")

    walk(saved, now, "")
    return conflicts
