"""Train a Tapa bot by self-play: ``python train.py [agent=td] [key=value ...]``.

Reads ``configs/train.yaml``, the settings every algorithm has, and the algorithm's own from
``configs/agent/<name>.yaml`` (``agent=td``, TD(λ), by default; ``python train.py --help``
lists every setting), trains in the run directory (``runs/default`` or one named after the
overrides), logs to TensorBoard there, and resumes the run when the directory already holds
a checkpoint. Its first line names the run directory and says whether the run is new or
resumed from how many games; each evaluation prints a line above the progress bar; both, and
the report at the end, go to the run directory's ``train.log`` too, each with its time.

An algorithm is one entry of :data:`agents.algorithms.ALGORITHMS`: its config schema (an
:class:`agents.runs.settings.RunConfig` dataclass, stored for Hydra as ``/schema/<name>``,
which ``configs/agent/<name>.yaml`` names in its defaults) and its ``train(config, run_dir,
logger) -> TrainResult``, from its package ``agents/<name>/``, imported when a run starts:
``--help`` and a refused setting load only the schemas, not torch or the engine.

Every setting is checked before the first game. A mistake in the command line or the
settings, or an unusable checkpoint in the run directory, exits with status 2 after a short
message on stderr; a run that diverges exits with status 3. Ctrl-C or SIGTERM writes a
checkpoint and exits with status 0.
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import os
import re
import sys
from pathlib import Path
from typing import NoReturn

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from agents.algorithms import ALGORITHMS, Algorithm
from agents.errors import ConfigError, PlayerSpecError
from agents.runs.curve import draw_learning_curve
from agents.runs.lock import RunDirectoryBusy, RunLock
from agents.runs.logs import TensorBoardLogger, show_run_log
from agents.runs.naming import run_name
from agents.runs.settings import RunConfig, TrainingDiverged, TrainResult
from agents.storage.files import WriteError
from entry import EntryScript

for _name, _algorithm in ALGORITHMS.items():
    ConfigStore.instance().store(
        group="schema", name=_name, node=_algorithm.schema(), package="_global_"
    )


OmegaConf.register_new_resolver("run_name", run_name, replace=True)


EXIT_DIVERGED = 3
SCRIPT = EntryScript("train.py")
END_LOG = "train"
"""The logger of the run's report at its end, which goes to ``train.log`` alone."""


def check_algorithms(arguments: list[str]) -> None:
    """Refuse, in one line, an ``agent=NAME`` override that names no algorithm of
    :data:`ALGORITHMS` (Hydra would say it in many), with the closest where it is misspelt."""
    for argument in arguments:
        found = re.fullmatch(r"agent=([\w,\-]*)", argument)
        if not found:
            continue
        for name in found.group(1).split(","):
            if name not in ALGORITHMS:
                known = ", ".join(ALGORITHMS)
                close = difflib.get_close_matches(name, list(ALGORITHMS), n=1, cutoff=0.6)
                if close:
                    SCRIPT.fail(
                        f"agent={name}: no such algorithm; did you mean {close[0]}? (agent is "
                        f"one of {known})"
                    )
                SCRIPT.fail(
                    f"agent={name}: no algorithm {name!r} yet; the algorithms are {known} "
                    "(configs/agent/<name>.yaml)"
                )


@hydra.main(version_base="1.3", config_path="configs", config_name="train")
@SCRIPT.job
def main(cfg: DictConfig) -> None:
    hydra_config = HydraConfig.get()
    algorithm = ALGORITHMS[hydra_config.runtime.choices["agent"]]
    config = SCRIPT.settings(cfg, algorithm.schema())
    run_dir = Path(hydra_config.runtime.output_dir)
    reporting = os.environ.get("RANK", "0") == "0"  # under torchrun, rank 0 reports
    if reporting:
        route_logs()
    curve = None
    try:
        with RunLock(run_dir) if reporting else contextlib.nullcontext():
            result = run_training(algorithm, config, run_dir)
            if reporting and result.status != "complete":
                curve = draw_curve(run_dir)
    except RunDirectoryBusy as error:
        SCRIPT.fail(str(error))
    if reporting:
        report(result, config, run_dir, curve)


def route_logs() -> None:
    """The run's lines (the start, each evaluation) on stdout, above the progress bar, and in
    the run directory's ``train.log`` (Hydra's log file: each line with its time), where the
    report of the end goes too (:func:`report`)."""
    files = [h for h in logging.getLogger().handlers if isinstance(h, logging.FileHandler)]
    show_run_log(files)
    end = logging.getLogger(END_LOG)
    end.setLevel(logging.INFO)
    end.propagate = False
    end.handlers = files


def run_training(algorithm: Algorithm, config: RunConfig, run_dir: Path) -> TrainResult:
    """Train, logging to TensorBoard; a mistake in the settings or the checkpoint, or
    divergence, ends the script with its one line."""
    logger = TensorBoardLogger(run_dir)
    try:
        return algorithm.train(config, run_dir, logger)
    except (ConfigError, PlayerSpecError) as error:
        stop(str(error))
    except TrainingDiverged as error:
        stop(str(error), EXIT_DIVERGED)
    finally:
        logger.close()


def stop(message: str, status: int = 2) -> NoReturn:
    """End the run with its one line on stderr, which ``train.log`` keeps too."""
    logging.getLogger(END_LOG).error(message)
    SCRIPT.fail(message, status)


def draw_curve(run_dir: Path) -> Path | None:
    """The learning curve drawn into the run directory (:func:`draw_learning_curve`)."""
    try:
        return draw_learning_curve(run_dir)
    except OSError as error:
        raise WriteError(run_dir / "learning_curve.png", error) from None


def report(result: TrainResult, config: RunConfig, run_dir: Path, curve: Path | None) -> None:
    """What the run did, on stdout and in ``train.log``: how far it trained, its last
    evaluation, where its files are."""
    lines = ending(result, config, run_dir, curve)
    for line in lines:
        print(line)
        logging.getLogger(END_LOG).info(line)


def ending(result: TrainResult, config: RunConfig, run_dir: Path, curve: Path | None) -> list:
    """The lines of :func:`report`."""
    if result.status == "complete":
        return [
            f"{run_dir} already trained {result.games} games (total_games={config.total_games}); "
            "raise total_games to train further, or override a setting for a new run."
        ]
    verb = "stopped" if result.status == "interrupted" else "trained"
    lines = [f"{verb} at {result.games} games ({result.turns} turns) in {result.seconds:.0f} s"]
    if result.evaluation:
        evaluated = result.evaluation.get("games_trained", result.games)
        if evaluated != result.games:
            lines.append(f"the last evaluation, at {evaluated} games:")
        for name, value in result.evaluation.items():
            if isinstance(value, dict):
                interval = value["ppg_ci95"]  # null where the games are one duplicate pair
                shown = "[no interval]" if interval is None else "[{:+.3f}, {:+.3f}]"
                lines.append(
                    f"  vs {name:<10} win {value['win_rate']:6.1%}  ppg {value['ppg']:+.3f} "
                    f"{shown.format(*interval or ())} over {value['games']} games"
                )
    lines.append(f"checkpoint: {result.checkpoint}")
    if curve is not None:
        lines.append(f"learning curve: {curve}")
    if result.status == "interrupted":
        lines.append("run the same command to resume")
    return lines


if __name__ == "__main__":
    check_algorithms(sys.argv[1:])
    SCRIPT.run(main)
