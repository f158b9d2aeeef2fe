"""Train a Tapa bot by self-play: ``python train.py [agent=td] [key=value ...]``.

Reads ``configs/train.yaml``, the settings every algorithm has, and the algorithm's own from
``configs/agent/<name>.yaml`` (``agent=td``, TD(λ), by default; ``python train.py --help``
lists every setting), trains in the run directory (``runs/default`` or one named after the
overrides), logs to TensorBoard there, and resumes the run when the directory already holds
a checkpoint.

An algorithm is one entry of :data:`ALGORITHMS`: its config schema (an
:class:`agents.runs.RunConfig` dataclass, stored for Hydra as ``/schema/<name>``, which
``configs/agent/<name>.yaml`` names in its defaults) and its ``train(config, run_dir,
logger) -> TrainResult``, from its package ``agents/<name>/``, imported when a run starts:
``--help`` and a refused setting load only the schemas, not torch or the engine.

Every setting is checked before the first game. A mistake in the command line or the
settings, or an unusable checkpoint in the run directory, exits with status 2 after a short
message on stderr; a run that diverges exits with status 3. Ctrl-C or SIGTERM writes a
checkpoint and exits with status 0.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from agents.curve import draw_learning_curve
from agents.files import PlayerSpecError, WriteError
from agents.ppo.config import PPOConfig
from agents.run_lock import RunDirectoryBusy, RunLock
from agents.runs import ConfigError, Logger, RunConfig, TrainingDiverged, TrainResult
from agents.td.config import TDConfig
from entry import EntryScript


@dataclass(frozen=True)
class Algorithm:
    """A training algorithm: its settings' schema and the function that trains.

    ``config`` is a :class:`RunConfig` dataclass with the algorithm's own groups (``agent``,
    ``learner``); ``trainer`` names its training function as ``module:function``, imported
    by :meth:`train` (with torch and the engine) when a run starts.
    """

    config: type[RunConfig]
    trainer: str

    def train(self, config: RunConfig, run_dir: Path, logger: Logger | None) -> TrainResult:
        """Train in ``run_dir``, resuming what it holds. Raises :class:`ConfigError` or
        :class:`PlayerSpecError` for a setting or a checkpoint it cannot use,
        :class:`TrainingDiverged` when training diverges."""
        module, _, function = self.trainer.partition(":")
        return getattr(importlib.import_module(module), function)(config, run_dir, logger)


ALGORITHMS: dict[str, Algorithm] = {
    "td": Algorithm(TDConfig, "agents.td.training:train"),
    "ppo": Algorithm(PPOConfig, "agents.ppo.training:train"),
}
"""The algorithms by name: ``agent=<name>`` selects ``configs/agent/<name>.yaml`` and this
entry. Adding one: a package ``agents/<name>/``, that file, and an entry here."""

for _name, _algorithm in ALGORITHMS.items():
    ConfigStore.instance().store(
        group="schema", name=_name, node=_algorithm.config, package="_global_"
    )


def run_name(overrides: str) -> str:
    """The run directory's name: ``default`` without overrides, else the overrides."""
    return re.sub(r"[^A-Za-z0-9_.,=+-]", "_", overrides) or "default"


OmegaConf.register_new_resolver("run_name", run_name, replace=True)


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


EXIT_WRITE_FAILED = 1
EXIT_DIVERGED = 3
SCRIPT = EntryScript("train.py")


def check_algorithms(arguments: list[str]) -> None:
    """Refuse, in one line, an ``agent=NAME`` override that names no algorithm of
    :data:`ALGORITHMS` (Hydra would say it in many)."""
    for argument in arguments:
        found = re.fullmatch(r"agent=([\w,\-]*)", argument)
        if not found:
            continue
        for name in found.group(1).split(","):
            if name not in ALGORITHMS:
                SCRIPT.fail(
                    f"agent={name}: no algorithm {name!r} yet; the algorithms are "
                    f"{', '.join(ALGORITHMS)} (configs/agent/<name>.yaml)"
                )


@hydra.main(version_base="1.3", config_path="configs", config_name="train")
def main(cfg: DictConfig) -> None:
    hydra_config = HydraConfig.get()
    algorithm = ALGORITHMS[hydra_config.runtime.choices["agent"]]
    config = SCRIPT.settings(cfg, algorithm.config)
    run_dir = Path(hydra_config.runtime.output_dir)
    reporting = os.environ.get("RANK", "0") == "0"  # under torchrun, rank 0 reports
    curve = None
    try:
        with RunLock(run_dir) if reporting else contextlib.nullcontext():
            result = run_training(algorithm, config, run_dir)
            if reporting and result.status != "complete":
                curve = draw_curve(run_dir)
    except RunDirectoryBusy as error:
        SCRIPT.fail(str(error))
    except WriteError as error:
        SCRIPT.fail(str(error), EXIT_WRITE_FAILED)
    if reporting:
        report(result, config, run_dir, curve)


def run_training(algorithm: Algorithm, config: RunConfig, run_dir: Path) -> TrainResult:
    """Train, logging to TensorBoard; a mistake in the settings or the checkpoint, or
    divergence, ends the script with its one line."""
    logger = TensorBoardLogger(run_dir)
    try:
        return algorithm.train(config, run_dir, logger)
    except (ConfigError, PlayerSpecError) as error:
        SCRIPT.fail(str(error))
    except TrainingDiverged as error:
        SCRIPT.fail(str(error), EXIT_DIVERGED)
    finally:
        logger.close()


def draw_curve(run_dir: Path) -> Path | None:
    """The learning curve drawn into the run directory (:func:`draw_learning_curve`)."""
    try:
        return draw_learning_curve(run_dir)
    except OSError as error:
        raise WriteError(run_dir / "learning_curve.png", error) from None


def report(result: TrainResult, config: RunConfig, run_dir: Path, curve: Path | None) -> None:
    """What the run did: how far it trained, its last evaluation, where its files are."""
    if result.status == "complete":
        print(
            f"{run_dir} already trained {result.games} games (total_games={config.total_games}); "
            "raise total_games to train further, or override a setting for a new run."
        )
        return
    verb = "stopped" if result.status == "interrupted" else "trained"
    print(f"{verb} at {result.games} games ({result.turns} turns) in {result.seconds:.0f} s")
    if result.evaluation:
        evaluated = result.evaluation.get("games_trained", result.games)
        if evaluated != result.games:
            print(f"the last evaluation, at {evaluated} games:")
        for name, value in result.evaluation.items():
            if isinstance(value, dict):
                low, high = value["ppg_ci95"]
                print(
                    f"  vs {name:<10} win {value['win_rate']:6.1%}  ppg {value['ppg']:+.3f} "
                    f"[{low:+.3f}, {high:+.3f}] over {value['games']} games"
                )
    print(f"checkpoint: {result.checkpoint}")
    if curve is not None:
        print(f"learning curve: {curve}")
    if result.status == "interrupted":
        print("run the same command to resume")


if __name__ == "__main__":
    check_algorithms(sys.argv[1:])
    SCRIPT.run(main)
