"""The skeleton of every training run, whatever its algorithm: its files, how it starts afresh
or resumes, when it logs, evaluates and checkpoints, how it stops, and what it reports.

An algorithm's run (``agents/td/training.py``'s ``SelfPlayRun``, ``agents/ppo/training.py``'s
``PPORun``) is a :class:`Run` that adds what it learns with, and calls these steps:

1. :meth:`Run.saved`: removes what a killed write left half-done and reads ``last.pt`` when
   there is one, checked against this run's settings (:func:`resumable_training`);
2. :meth:`Run.catch_up_bot` and ``Evaluations.restart``: ``bot.pt`` and ``evaluations.jsonl``
   put back in step with that checkpoint;
3. the loop, under a :class:`StopRequest`, with :func:`next_multiple` for its cadence and
   :meth:`Run.progress` for its bar;
4. :meth:`Run.save` at every checkpoint, and :meth:`Run.result` at the end.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from pathlib import Path
from typing import Any

from ..storage.files import remove_leftovers
from .checkpoints import CheckpointKind, save, slim
from .settings import RunConfig, TrainResult, resumable_training, run_rules


def next_multiple(games: int, every: int) -> float:
    """The first multiple of ``every`` above ``games``; never (infinity) for ``every`` 0."""
    return (games // every + 1) * every if every else math.inf


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


class Run:
    """What every training run has: its settings and rules, its run directory's files
    (``checkpoints/last.pt``, the whole run; ``checkpoints/bot.pt``, the network alone;
    ``evaluations.jsonl``) and its checkpoints' :class:`CheckpointKind`."""

    def __init__(self, config: RunConfig, run_dir: Path, kind: CheckpointKind) -> None:
        self.config = config
        self.kind = kind
        self.run_dir = Path(run_dir)
        self.last_path = self.run_dir / "checkpoints" / "last.pt"
        self.bot_path = self.run_dir / "checkpoints" / "bot.pt"
        self.history_path = self.run_dir / "evaluations.jsonl"
        self.rules = run_rules(config.game, config.rules)
        self.started = time.perf_counter()

    def saved(self) -> dict | None:
        """The checkpoint to resume from, or ``None`` for a fresh start.

        Removes first what a killed run left half-written. Raises the kind's error for an
        unreadable ``last.pt`` and :class:`~agents.errors.ConfigError` for one of other
        settings (but for those a resumed run may change)."""
        for path in (self.last_path, self.bot_path, self.history_path):
            remove_leftovers(path)
        if not self.last_path.exists():
            return None
        content = self.kind.read(self.last_path)
        resumable_training(content, self.last_path, self.run_dir, self.config)
        return content

    def catch_up_bot(self, content: dict) -> None:
        """Write ``bot.pt`` from the checkpoint ``content`` (``last.pt``'s) when it is
        missing, unreadable or of fewer games: a kill between the two writes of
        :meth:`save` leaves it so. (Reading it may draw from torch's generator: call this
        before putting the generator's state back.)"""
        try:
            games = self.kind.read(self.bot_path)[self.kind.games]
        except ValueError:  # the kind's error: missing, or cut short
            games = -1
        if games < content[self.kind.games]:
            save(self.bot_path, slim(content))

    def save(self, content: dict) -> None:
        """Write ``last.pt`` (``content``, resumable) and ``bot.pt`` (it without its training
        state), each atomically, ``last.pt`` first."""
        save(self.last_path, content)
        save(self.bot_path, slim(content))

    def progress(self, games: int, desc: str, shown: bool = True) -> Any:
        """The run's progress bar, from ``games`` to ``total_games`` (hidden unless
        ``config.progress`` and ``shown``)."""
        from tqdm import tqdm

        return tqdm(
            total=self.config.total_games,
            initial=games,
            unit="game",
            desc=desc,
            disable=not (self.config.progress and shown),
            dynamic_ncols=True,
            mininterval=1.0,
        )

    def result(self, status: str, games: int, turns: int, evaluation: dict | None) -> TrainResult:
        """What the run did, for ``train.py`` to report; ``complete`` takes no time."""
        seconds = 0.0 if status == "complete" else time.perf_counter() - self.started
        return TrainResult(status, games, turns, self.last_path, evaluation, seconds)
