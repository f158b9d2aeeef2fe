"""What a training run logs, whatever its algorithm: the :class:`Logger` it logs to, what it
logs first (:func:`start_logging`), TensorBoard's event files (:class:`TensorBoardLogger`,
what ``train.py`` gives every run), and the run's own lines: where it runs and from how many
games (:func:`log_start`) and each evaluation (``agents.runs.evaluations``), logged through
Python's :mod:`logging` under :data:`RUN_LOG`, which ``train.py`` shows on stdout, above
the progress bar (:func:`show_run_log`), and writes to the run directory's ``train.log``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Protocol

from ..storage.files import WriteError
from .settings import RunConfig, config_dict

RUN_LOG = "agents.runs"
"""The logger of the run's own lines (and of every module of ``agents.runs``)."""


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


def start_logging(logger: Logger | None, config: RunConfig, resumed_at: int | None) -> None:
    """Begin a run's log: a resumed run (``resumed_at`` its checkpoint's games) drops what
    the stopped one logged after its checkpoint; a new one logs its whole config once."""
    if logger is None:
        return
    if resumed_at is not None:
        logger.resume(resumed_at)
    else:
        logger.text("config", "```\n" + json.dumps(config_dict(config), indent=2) + "\n```")


def start_line(run_dir: Path, total_games: int, resumed: bool, games: int) -> str:
    """The run's first line: its directory, whether it is new or resumed, from how many
    games, and to how many."""
    shown = os.path.relpath(run_dir) if Path(run_dir).is_absolute() else str(run_dir)
    if shown.startswith(".."):
        shown = str(run_dir)
    if resumed:
        return f"{shown}: resumed from {games} games, training to {total_games} games"
    begun = f" from {games} games" if games else ""
    return f"{shown}: a new run{begun}, training to {total_games} games"


def log_start(run_dir: Path, config: RunConfig, resumed: bool, games: int) -> None:
    """Log the run's first line (:func:`start_line`)."""
    logging.getLogger(__name__).info(start_line(run_dir, config.total_games, resumed, games))


class AboveProgress(logging.Handler):
    """Writes each message on a line of stdout above the progress bar (``tqdm.write``), so
    that the bar is drawn again below it rather than broken."""

    def emit(self, record: logging.LogRecord) -> None:
        from tqdm import tqdm

        try:
            tqdm.write(self.format(record), file=sys.stdout)
        except Exception:  # a handler never raises: logging reports it its own way
            self.handleError(record)


def show_run_log(files: list[logging.Handler]) -> None:
    """Send the run's own lines (:data:`RUN_LOG`, INFO) to stdout, above the progress bar,
    and to the handlers ``files`` (``train.py``: the run directory's ``train.log``), and
    nowhere else."""
    log = logging.getLogger(RUN_LOG)
    log.setLevel(logging.INFO)
    log.propagate = False
    console = AboveProgress()
    console.setFormatter(logging.Formatter("%(message)s"))
    log.handlers = [console, *files]


class TensorBoardLogger:
    """Scalars and text into TensorBoard event files in the run directory.

    Each run appends an event file. Its first event tells TensorBoard to drop what earlier
    files logged from ``purge_step`` on: everything for a fresh start (a run killed before
    its first checkpoint logged for nothing), and, for a resumed run, what came after the
    checkpoint it resumes from (:meth:`resume`). What was logged up to the checkpoint stays,
    so every step of every tag is there exactly once after any stops and resumes.

    A failed write raises :class:`WriteError` naming the event file.
    """

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.purge_step = 0
        self._writer = None

    @property
    def writer(self):
        if self._writer is None:
            from torch.utils.tensorboard import SummaryWriter

            self._quiet_writer_thread()
            self._wait_for_a_later_second()
            with self._reporting():
                self._writer = SummaryWriter(log_dir=str(self.run_dir), purge_step=self.purge_step)
        return self._writer

    def _wait_for_a_later_second(self) -> None:
        """TensorBoard reads a directory's event files in the order of their names, which
        begin with the second the file was made (then host, process and a counter, which do
        not sort reliably). A new file must come after every earlier one, so that its purge
        applies to them: when the newest was made this very second, wait for the next."""
        made = [
            int(parts[3])
            for path in Path(self.run_dir).glob("events.out.tfevents.*")
            if len(parts := path.name.split(".")) > 3 and parts[3].isdigit()
        ]
        while made and int(time.time()) <= max(made):
            time.sleep(0.05)

    def resume(self, step: int) -> None:
        self.purge_step = step + 1  # the checkpoint's own step was logged before it

    def scalars(self, step: int, values: dict[str, float]) -> None:
        with self._reporting():
            for tag, value in values.items():
                self.writer.add_scalar(tag, value, step)
            self.writer.flush()

    def text(self, tag: str, text: str) -> None:
        with self._reporting():
            self.writer.add_text(tag, text)
            self.writer.flush()

    def close(self) -> None:
        if self._writer is not None:
            with self._reporting():
                self._writer.close()

    @contextlib.contextmanager
    def _reporting(self):
        """Turn a failed write of the event file into a :class:`WriteError` naming it."""
        try:
            yield
        except OSError as error:
            events = self.run_dir / "events.out.tfevents.*"
            if self._writer is not None:
                event_writer = self._writer.file_writer.event_writer
                events = Path(getattr(event_writer, "_file_name", events))
            raise WriteError(events, error) from None

    @staticmethod
    def _quiet_writer_thread() -> None:
        """No traceback from the thread that writes the events when a write fails: the next
        call here raises the same error, which ``train.py`` reports in one line (each call
        flushes, so none is left for the thread alone)."""
        import threading

        default = threading.excepthook
        if getattr(default, "quiet_event_writer", False):
            return

        def hook(args) -> None:
            writer_thread = type(args.thread).__name__ == "_AsyncWriterThread"
            if not (writer_thread and isinstance(args.exc_value, OSError)):
                default(args)

        hook.quiet_event_writer = True
        threading.excepthook = hook
