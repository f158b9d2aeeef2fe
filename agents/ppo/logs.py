"""What a PPO run counts and logs: its counters and the windows of training it logs.

What every algorithm shares (the logger, evaluations, the run's skeleton) is
:mod:`agents.runs`'.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..runs.logs import Logger

OUTCOMES = ("win_single", "win_double", "loss_single", "loss_double", "draw", "unfinished")


@dataclass
class Counters:
    """How far a run is (decisions, games and turns of finished games, updates) and when it
    next evaluates and checkpoints (in games); all of it goes into the checkpoint."""

    steps: int = 0
    games: int = 0
    turns: int = 0
    updates: int = 0
    next_log: float = math.inf
    next_eval: float = math.inf
    next_checkpoint: float = math.inf


@dataclass
class Window:
    """What happened since the last log line."""

    steps: int = 0
    games: int = 0
    game_turns: int = 0
    new_games: int = 0  # games not yet added to the counters
    new_turns: int = 0
    outcomes: np.ndarray = field(default_factory=lambda: np.zeros(len(OUTCOMES), np.int64))
    losses: list = field(default_factory=list)
    explained: list = field(default_factory=list)
    rate: float = 0.0
    opponents: dict = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)

    def add_games(self, points: np.ndarray, truncated: np.ndarray, turns: np.ndarray) -> None:
        """Games that just ended: the agent's ``points``, whether the turn limit cut them
        off, and their turns (both sides)."""
        kind = np.where(points > 0, np.where(points > 1, 1, 0), np.where(points < -1, 3, 2))
        kind = np.where(points == 0, 4, kind)
        kind = np.where(truncated, 5, kind)
        self.outcomes += np.bincount(kind, minlength=len(OUTCOMES))
        self.games += len(points)
        self.game_turns += int(turns.sum())
        self.new_games += len(points)
        self.new_turns += int(turns.sum())

    def count_opponent(self, name: str) -> None:
        """A rollout against ``name`` (self, pool or a bot's name)."""
        self.opponents[name] = self.opponents.get(name, 0) + 1

    def add_update(self, losses: np.ndarray, explained: float, rate: float) -> None:
        """An update's mean policy loss, value loss, entropy, approximate KL and clip
        fraction; the explained variance of its values; its learning rate."""
        self.losses.append(losses)
        self.explained.append(explained)
        self.rate = rate


def log_window(logger: Logger | None, games: int, window: Window) -> None:
    """Log ``train/``, ``games/`` and ``perf/`` scalars of a window at ``games``."""
    if logger is None:
        return
    seconds = max(time.perf_counter() - window.started, 1e-9)
    values = {
        "train/learning_rate": window.rate,
        "perf/steps_per_second": window.steps / seconds,
        "perf/games_per_second": window.games / seconds,
    }
    if window.losses:
        means = np.mean(window.losses, axis=0)
        names = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")
        values.update({f"train/{n}": float(v) for n, v in zip(names, means, strict=True)})
        values["train/explained_variance"] = float(np.nanmean(window.explained))
    if window.games:
        values["games/length"] = window.game_turns / window.games
        for index, kind in enumerate(OUTCOMES):
            values[f"games/{kind}"] = window.outcomes[index] / window.games
    rollouts = sum(window.opponents.values())
    for name, times in window.opponents.items():
        values[f"opponents/{name}"] = times / rollouts
    logger.scalars(games, values)
