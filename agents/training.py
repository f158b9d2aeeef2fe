"""TD(λ) self-play training of a TD network, batched over many games through the vector env.

:func:`train` is one visible loop over ``gym.make_vec("Tapa-v0", copy=False)``: value every
afterstate of every game in one forward pass and pick each game's best (play), keep the
chosen afterstates and their predictions (record), turn each finished game into λ-returns
(targets, :mod:`agents.learner`), run minibatch steps once enough targets wait (update),
and every so often log, evaluate against the heuristic bots in the arena, and checkpoint.

One network plays both sides (Tesauro's self-play), 1-ply greedy, with optional
ε-exploration. Everything a run does is a function of its config and seed: a run stopped
after a checkpoint and started again on the same run directory continues exactly as if it
had never stopped (same weights at the end, bit for bit, on the same machine and threads).
"""

from __future__ import annotations

import json
import math
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
import torch
from tqdm import tqdm

import tapa_env  # noqa: F401  (registers Tapa-v0)
from tapa_env.encoding import get_encoding
from tapa_env.rules import Rules

from . import checkpoint
from .arena import KINDS, UNFINISHED, play_games, result_kinds
from .equity import equity, one_hot_outcomes
from .evaluator import ACTIVATIONS
from .learner import SamplePool, Trajectories, lambda_returns
from .loading import load_player
from .network import INITS, NetworkShape, TDNetwork
from .players import best_in_each_turn
from .stats import summarize
from .td_player import TDPlayer

SCHEDULES = ("constant", "linear", "cosine")
OPTIMIZERS = ("adam", "sgd")


@dataclass
class AgentConfig:
    """The network."""

    encoding: str = "raw"
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

    lr: float = 0.001
    """Learning rate at the start."""
    lr_final: float = 0.0001
    """Learning rate at total_games, for the linear and cosine schedules."""
    lr_schedule: str = "constant"
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
    total_games: int = 1_000_000
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


class Logger(Protocol):
    """Where training scalars go (TensorBoard in ``train.py``; a list in tests).

    ``resume(step)`` comes first when a run resumes: whatever was logged past ``step`` by
    the run that stopped is to be dropped.
    """

    def resume(self, step: int) -> None: ...

    def scalars(self, step: int, values: dict[str, float]) -> None: ...

    def text(self, tag: str, text: str) -> None: ...


class TrainingDiverged(RuntimeError):
    """The loss or the weights stopped being finite; the last good checkpoint is kept."""


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
    need(agent.activation in ACTIVATIONS, "agent.activation")
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
    for name in config.eval_opponents:
        try:
            load_player(name)
        except ValueError as error:
            raise ConfigError(f"eval_opponents: {error}") from None
    try:
        Rules.from_mapping(dict(config.rules))
    except ValueError as error:
        raise ConfigError(f"rules: {error}") from None
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


def choose(
    values: np.ndarray, offsets: np.ndarray, exploration: float, rng: np.random.Generator
) -> np.ndarray:
    """Each game's afterstate of highest equity, or with probability ``exploration`` a random
    one: ``(N,)`` int64 indices into each game's slice of ``values`` ``(M, 5)``."""
    choices = best_in_each_turn(equity(values), offsets)
    if exploration > 0:
        counts = np.diff(offsets)
        explore = rng.random(len(counts)) < exploration
        choices[explore] = (rng.random(int(explore.sum())) * counts[explore]).astype(np.int64)
    return choices


def final_targets(
    points: np.ndarray, terminated: np.ndarray, last_values: np.ndarray
) -> np.ndarray:
    """The target of each ended game's last afterstate: its outcome one-hot when the game
    ended by the rules, its own prediction when the turn limit cut it off."""
    return np.where(terminated[:, None], one_hot_outcomes(points), last_values)


def td_step(
    network: TDNetwork,
    optimizer: torch.optim.Optimizer,
    features: torch.Tensor,
    targets: torch.Tensor,
) -> tuple[float, float]:
    """One minibatch step: cross-entropy of the predicted outcome distribution against the
    λ-return targets. Returns the loss and the mean absolute TD error in equity (points)."""
    logits = network(features)
    loss = -(targets * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        points = torch.from_numpy(np.array([1.0, 2.0, 0.0, -1.0, -2.0], dtype=np.float32))
        points = points.to(targets.device)
        error = ((torch.softmax(logits, dim=1) - targets) @ points).abs().mean()
    return loss.item(), error.item()


def make_optimizer(network: TDNetwork, learner: LearnerConfig) -> torch.optim.Optimizer:
    if learner.optimizer == "sgd":
        return torch.optim.SGD(network.parameters(), lr=learner.lr)
    return torch.optim.Adam(network.parameters(), lr=learner.lr)


@dataclass
class Counters:
    """How far a run is; all of it goes into the checkpoint."""

    games: int = 0
    turns: int = 0
    updates: int = 0
    next_log: int = 0
    next_eval: int = 0
    next_checkpoint: int = 0


@dataclass
class Window:
    """Statistics since the last log line."""

    games: int = 0
    turns: int = 0
    game_turns: int = 0
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(len(KINDS), dtype=np.int64))
    loss: float = 0.0
    error: float = 0.0
    steps: int = 0
    started: float = field(default_factory=time.perf_counter)


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


@dataclass
class TrainResult:
    """What :func:`train` did: ``status`` is ``finished``, ``interrupted`` or ``complete``
    (nothing left to train); the checkpoint path and the last evaluation."""

    status: str
    games: int
    turns: int
    checkpoint: Path
    evaluation: dict | None
    seconds: float


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


def _resume_conflicts(saved: dict, now: dict) -> list[str]:
    conflicts = []

    def walk(a: Any, b: Any, prefix: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), f"{prefix}{key}.")
        elif a != b and prefix.rstrip(".") not in RESUMABLE_CHANGES:
            conflicts.append(f"{prefix.rstrip('.')}: {a!r} in the checkpoint, {b!r} now")

    walk(saved, now, "")
    return conflicts


def train(
    config: TrainConfig,
    run_dir: Path,
    logger: Logger | None = None,
    on_evaluation: Callable[[dict], None] | None = None,
) -> TrainResult:
    """Train by self-play until ``config.total_games``, resuming ``run_dir`` if it holds a
    checkpoint. Writes ``run_dir/checkpoints/last.pt`` (resumable), ``bot.pt`` (the same
    network without the training state) and ``evaluations.jsonl``; logs to ``logger``.

    Raises :class:`ConfigError` for a bad setting or a checkpoint of an incompatible run,
    :class:`TrainingDiverged` when the loss or weights stop being finite.
    """
    check_config(config)
    started = time.perf_counter()
    run_dir = Path(run_dir)
    last_path = run_dir / "checkpoints" / "last.pt"
    bot_path = run_dir / "checkpoints" / "bot.pt"
    history_path = run_dir / "evaluations.jsonl"
    agent, learner = config.agent, config.learner
    rules = Rules.from_mapping(dict(config.rules))
    encoding = get_encoding(agent.encoding)
    device = torch.device(config.device)
    torch.set_num_threads(config.threads)

    # One seeding block: the weights, the dice (the env's generator), the exploration.
    torch.manual_seed(config.seed)
    network = TDNetwork(NetworkShape(agent.encoding, agent.hidden, agent.activation), agent.init)
    network.to(device)
    optimizer = make_optimizer(network, learner)
    rng = np.random.default_rng([config.seed, 1])
    env = gym.make_vec(
        "Tapa-v0",
        num_envs=config.parallel_games,
        encoding=agent.encoding,
        max_turns=config.max_turns,
        rules=rules,
        threads=config.threads,
        copy=False,
    )
    trajectories = Trajectories(config.parallel_games)
    pool = SamplePool(learner.round_samples, learner.batch_size)
    counters = Counters(
        next_log=config.log_every,
        next_eval=config.eval_every or config.total_games,
        next_checkpoint=config.checkpoint_every or config.total_games,
    )
    evaluations: list[dict] = []
    previous: TDPlayer | None = None  # the network of the previous evaluation
    previous_weights: dict | None = None
    saved_config = config_dict(config)

    if last_path.exists():
        content = checkpoint.read(last_path)
        if "training" not in content:
            raise ConfigError(f"{last_path}: holds no training state (a bot file?); cannot resume")
        conflicts = _resume_conflicts(content["config"], saved_config)
        if conflicts:
            raise ConfigError(
                f"{run_dir} holds a run with other settings ({'; '.join(conflicts)}); "
                "use another run directory, or the same settings to resume it"
            )
        network.load_state_dict(content["weights"])
        state = checkpoint.to_arrays(content["training"])
        optimizer.load_state_dict(content["training"]["optimizer"])
        rng.bit_generator.state = state["rng"]
        torch.set_rng_state(content["training"]["torch_rng"])
        trajectories.load_state_dict(state["trajectories"])
        pool.load_state_dict(state["pool"])
        counters = Counters(**{k: int(v) for k, v in state["counters"].items()})
        evaluations = list(state["evaluations"])
        if content["training"]["previous"] is not None:
            previous_weights = content["training"]["previous"]
            previous_network = TDNetwork(network.shape)
            previous_network.load_state_dict(previous_weights)
            previous = TDPlayer(previous_network.evaluator(), name="previous")
        # Evaluations logged after the checkpoint, by a run that was killed, are dropped.
        history_path.write_text("".join(json.dumps(e) + "\n" for e in evaluations))
        if logger is not None:
            logger.resume(counters.games)
        infos = env.unwrapped.set_state(state["env"])
        resetting = np.asarray(state["env"]["needs_reset"], dtype=bool)
        if config.total_games <= counters.games:
            env.close()
            return TrainResult(
                "complete",
                counters.games,
                counters.turns,
                last_path,
                evaluations[-1] if evaluations else None,
                0.0,
            )
    else:
        _, infos = env.reset(seed=config.seed)
        resetting = np.zeros(config.parallel_games, dtype=bool)
        if logger is not None:
            logger.text("config", "```\n" + json.dumps(saved_config, indent=2) + "\n```")

    def save_checkpoint() -> None:
        content = checkpoint.describe(network, rules, counters.games, counters.turns, saved_config)
        training = {
            "optimizer": optimizer.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "rng": rng.bit_generator.state,
            "env": env.unwrapped.get_state(),
            "trajectories": trajectories.state_dict(),
            "pool": pool.state_dict(),
            "counters": asdict(counters),
            "evaluations": evaluations,
            "previous": previous_weights,
        }
        content["training"] = checkpoint.to_tensors(training)
        checkpoint.save(last_path, content)
        checkpoint.save(bot_path, checkpoint.slim(content))

    opponents = {name: load_player(name) for name in config.eval_opponents}

    def evaluate(evaluator) -> dict:
        player = TDPlayer(evaluator, name="td")
        results = {"games_trained": counters.games}
        against = dict(opponents)
        if previous is not None:
            against["previous"] = previous
        for index, (name, opponent) in enumerate(against.items()):
            games = play_games(
                (player, opponent), config.eval_games, seed=config.seed + 1000 + index
            )
            summary = summarize(("td", name), games)
            results[name] = {
                "win_rate": summary["win_rate"],
                "ppg": summary["ppg"],
                "ppg_ci95": summary["ppg_ci95"],
                "games": summary["games"],
            }
        return results

    evaluator = network.evaluator()
    window = Window()
    bar = tqdm(
        total=config.total_games,
        initial=counters.games,
        unit="game",
        desc="self-play",
        disable=not config.progress,
        dynamic_ncols=True,
    )
    status = "finished"
    with StopRequest() as stop:
        while counters.games < config.total_games:
            # Play: value every afterstate of every game at once; each game plays its best.
            afterstates = infos["afterstates"]
            values = evaluator.probabilities(
                afterstates.rows, afterstates.positions, afterstates.offsets
            )
            choices = choose(values, afterstates.offsets, learner.exploration, rng)

            # Record: the chosen afterstates of the games in play (a game restarting on this
            # step ignores its action) and what the network predicted for them.
            playing = np.flatnonzero(~resetting)
            chosen = afterstates.offsets[playing] + choices[playing]
            trajectories.append(playing, afterstates.rows[chosen], values[chosen])
            _, points, terminated, truncated, infos = env.step(choices)
            resetting = terminated | truncated
            counters.turns += len(playing)
            window.turns += len(playing)

            # Targets: λ-returns of every game that has just ended.
            if resetting.any():
                ended = np.flatnonzero(resetting)
                rows, predicted, offsets = trajectories.take(ended)
                last = offsets[1:] - 1
                finals = final_targets(points[ended], terminated[ended], predicted[last])
                pool.add(rows, lambda_returns(predicted, finals, offsets, learner.td_lambda))
                kinds = result_kinds(rows[last], points[ended])
                kinds[~terminated[ended]] = UNFINISHED
                window.kinds += np.bincount(kinds, minlength=len(KINDS))
                window.game_turns += int(np.diff(offsets).sum())
                window.games += len(ended)
                counters.games += len(ended)
                bar.update(len(ended))

            # Update: a round of minibatch steps once enough targets wait.
            batches = pool.round(rng)
            if batches:
                rate = learning_rate(learner, counters.games, config.total_games)
                for group in optimizer.param_groups:
                    group["lr"] = rate
                for rows, targets in batches:
                    features = torch.from_numpy(encoding.encode(rows)).to(device)
                    loss, error = td_step(
                        network, optimizer, features, torch.from_numpy(targets).to(device)
                    )
                    window.loss += loss
                    window.error += error
                    window.steps += 1
                    counters.updates += 1
                if not (
                    math.isfinite(loss)
                    and all(bool(torch.isfinite(p).all()) for p in network.parameters())
                ):
                    bar.close()
                    env.close()
                    raise TrainingDiverged(
                        f"training diverged after {counters.games} games (loss {loss}); the "
                        f"last good checkpoint, if any, is kept at {last_path}. Lower "
                        "learner.lr or try another seed."
                    )
                evaluator = network.evaluator()

            if counters.games >= counters.next_log and config.log_every:
                _log_window(
                    logger,
                    counters,
                    window,
                    learning_rate(learner, counters.games, config.total_games),
                )
                window = Window()
                counters.next_log = _next(counters.games, config.log_every)
            finishing = counters.games >= config.total_games
            if counters.games >= counters.next_eval or finishing:
                result = evaluate(evaluator)
                evaluations.append(result)
                _log_evaluation(logger, history_path, result)
                bar.set_postfix_str(_summary(result), refresh=False)
                if on_evaluation is not None:
                    on_evaluation(result)
                previous = TDPlayer(evaluator, name="previous")
                previous_weights = {
                    k: v.detach().cpu().clone() for k, v in network.state_dict().items()
                }
                counters.next_eval = _next(counters.games, config.eval_every or config.total_games)
            if counters.games >= counters.next_checkpoint or finishing:
                counters.next_checkpoint = _next(
                    counters.games, config.checkpoint_every or config.total_games
                )
                save_checkpoint()
            if stop.requested:
                save_checkpoint()
                status = "interrupted"
                break
    bar.close()
    env.close()
    return TrainResult(
        status,
        counters.games,
        counters.turns,
        last_path,
        evaluations[-1] if evaluations else None,
        time.perf_counter() - started,
    )


def _next(games: int, every: int) -> int:
    """The first multiple of ``every`` above ``games``."""
    return (games // every + 1) * every


def _summary(result: dict) -> str:
    parts = [
        f"{name[:3]} {value['win_rate']:.0%}"
        for name, value in result.items()
        if isinstance(value, dict)
    ]
    return "eval: " + " ".join(parts)


def _log_window(logger: Logger | None, counters: Counters, window: Window, rate: float) -> None:
    if logger is None:
        return
    seconds = max(time.perf_counter() - window.started, 1e-9)
    values = {
        "train/learning_rate": rate,
        "perf/games_per_second": window.games / seconds,
        "perf/turns_per_second": window.turns / seconds,
    }
    if window.steps:
        values["train/loss"] = window.loss / window.steps
        values["train/td_error"] = window.error / window.steps
    if window.games:
        values["games/length"] = window.game_turns / window.games
        for index, kind in enumerate(KINDS):
            values[f"games/{kind}"] = window.kinds[index] / window.games
    logger.scalars(counters.games, values)


def _log_evaluation(logger: Logger | None, path: Path, result: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as file:
        file.write(json.dumps(result) + "\n")
    if logger is None:
        return
    values = {}
    for name, value in result.items():
        if isinstance(value, dict):
            values[f"eval/{name}/win_rate"] = value["win_rate"]
            values[f"eval/{name}/ppg"] = value["ppg"]
    logger.scalars(result["games_trained"], values)
