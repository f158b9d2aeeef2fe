"""What a run logs survives stops and resumes exactly: after any sequence of them, every
TensorBoard tag holds each step once, the steps of a run that never stopped, and
``evaluations.jsonl`` is that run's file (TD and PPO, with train.py's TensorBoard logger)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from small_runs import ALGORITHMS, ppo_config, td_config
from tensorboard.backend.event_processing import plugin_event_accumulator
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from agents.runs.logs import TensorBoardLogger


def run(algorithm: str, run_dir: Path, logger: TensorBoardLogger | None = None, **overrides):
    """One run as train.py makes it: with its TensorBoard logger, closed at the end."""
    train, config = ALGORITHMS[algorithm]
    logger = logger or TensorBoardLogger(run_dir)
    try:
        return train(config(**overrides), run_dir, logger)
    finally:
        logger.close()


def scalar_steps(run_dir: Path) -> dict[str, list[int]]:
    """Each scalar tag's steps as TensorBoard shows them (orphaned data purged)."""
    events = EventAccumulator(str(run_dir), size_guidance={"scalars": 0, "tensors": 0})
    events.Reload()
    return {tag: [event.step for event in events.Scalars(tag)] for tag in events.Tags()["scalars"]}


def config_texts(run_dir: Path) -> int:
    """How many config texts TensorBoard shows (its server's reader: the one that purges
    text too)."""
    events = plugin_event_accumulator.EventAccumulator(str(run_dir), size_guidance={"tensors": 0})
    events.Reload()
    return len(events.Tensors("config/text_summary"))


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    """The run that never stopped, of an algorithm and settings (each run once)."""
    runs: dict[tuple, Path] = {}

    def straight_run(algorithm: str, **overrides) -> Path:
        key = (algorithm, *sorted(overrides.items()))
        if key not in runs:
            runs[key] = tmp_path_factory.mktemp(algorithm) / "straight"
            assert run(algorithm, runs[key], **overrides).status == "finished"
        return runs[key]

    return straight_run


def assert_same_logs(run_dir: Path, straight: Path) -> None:
    steps, expected = scalar_steps(run_dir), scalar_steps(straight)
    for tag, logged in steps.items():
        assert len(logged) == len(set(logged)), f"{tag}: a step twice: {logged}"
    assert steps == expected
    assert config_texts(run_dir) == 1
    history = (run_dir / "evaluations.jsonl").read_text()
    assert history == (straight / "evaluations.jsonl").read_text()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_finished_run_trained_further_logs_as_one_run(algorithm, straight, tmp_path):
    total = ppo_config().total_games if algorithm == "ppo" else td_config().total_games
    first = run(algorithm, tmp_path / "run", total_games=total // 2)
    assert first.status == "finished"
    evaluated = scalar_steps(tmp_path / "run")["eval/random/win_rate"]
    assert evaluated[-1] == first.games  # the evaluation at the checkpoint's step ...
    assert run(algorithm, tmp_path / "run").status == "finished"
    assert first.games in scalar_steps(tmp_path / "run")["eval/random/win_rate"]  # ... stays
    assert_same_logs(tmp_path / "run", straight(algorithm))


class StopOnSecondLog(TensorBoardLogger):
    """Sends this process SIGTERM after the second training scalars, as a user would."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(run_dir)
        self.logs = 0

    def scalars(self, step: int, values: dict) -> None:
        super().scalars(step, values)
        if not any(tag.startswith("eval/") for tag in values):
            self.logs += 1
            if self.logs == 2:
                os.kill(os.getpid(), signal.SIGTERM)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_run_stopped_by_sigterm_and_resumed_logs_as_one_run(algorithm, straight, tmp_path):
    # Logging more often than it checkpoints: the stop falls between two checkpoints.
    often = dict(log_every=5 if algorithm == "ppo" else 10)
    stopped = run(algorithm, tmp_path / "run", StopOnSecondLog(tmp_path / "run"), **often)
    assert stopped.status == "interrupted"
    assert run(algorithm, tmp_path / "run", **often).status == "finished"
    assert_same_logs(tmp_path / "run", straight(algorithm, **often))


class Killed(BaseException):
    """A run that ends without a word, as under ``kill -9``."""


class KilledAfterFirstEvaluation(TensorBoardLogger):
    """Ends the run like ``kill -9`` once it has evaluated after training, before its first
    checkpoint: what it logged and evaluated is on disk, nothing else."""

    def scalars(self, step: int, values: dict) -> None:
        super().scalars(step, values)
        if step > 0 and any(tag.startswith("eval/") for tag in values):
            raise Killed


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_run_killed_before_its_first_checkpoint_leaves_no_trace(algorithm, straight, tmp_path):
    killed = KilledAfterFirstEvaluation(tmp_path / "run")
    with pytest.raises(Killed):
        run(algorithm, tmp_path / "run", killed, checkpoint_every=0)
    assert not (tmp_path / "run" / "checkpoints" / "last.pt").exists()
    assert len((tmp_path / "run" / "evaluations.jsonl").read_text().splitlines()) == 2
    assert run(algorithm, tmp_path / "run").status == "finished"
    assert_same_logs(tmp_path / "run", straight(algorithm))


def test_a_new_event_file_sorts_after_one_made_the_same_second(tmp_path):
    # TensorBoard reads event files in name order; the name's host, process and counter
    # fields do not sort reliably, so a file of this second would be read after a new one.
    import time

    same_second = tmp_path / f"events.out.tfevents.{int(time.time())}.zz.999999.99"
    same_second.write_bytes(b"")
    logger = TensorBoardLogger(tmp_path)
    logger.scalars(1, {"train/loss": 0.5})
    logger.close()
    files = sorted(path.name for path in tmp_path.glob("events.out.tfevents.*"))
    assert len(files) == 2 and files[0] == same_second.name
