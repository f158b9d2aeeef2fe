"""Data-parallel training under torchrun: the ranks stay identical, rank 0 checkpoints, and
a run resumes as a single-process run does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from agents.td.checkpoint import read

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "data_parallel_run.py"


def torchrun(run_dir: Path, games: int, processes: int = 2, runs: int = 1) -> list[dict]:
    torchrun = shutil.which("torchrun", path=str(Path(sys.executable).parent)) or "torchrun"
    done = subprocess.run(
        [
            torchrun,
            "--standalone",
            f"--nproc_per_node={processes}",
            str(SCRIPT),
            str(run_dir),
            str(games),
            str(runs),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads((run_dir / f"digests-{r}.json").read_text()) for r in range(processes)]


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory) -> tuple[Path, list[dict]]:
    """One torchrun of two processes that trains three runs of 128 games one after another
    (torchrun's start takes most of the time): the folder of the runs and each rank's record,
    whose digests are the last run's."""
    run_dir = tmp_path_factory.mktemp("torchrun") / "run"
    return run_dir, torchrun(run_dir, 128, runs=3)


def check_identical_ranks(run_dir: Path, records: list[dict], games: int) -> None:
    first, second = records
    assert first["status"] == second["status"] == "finished"
    assert first["games"] == second["games"] >= games
    assert len(first["digests"]) >= 5
    assert first["digests"] == second["digests"]
    content = read(run_dir / "checkpoints" / "last.pt")
    assert len(content["training"]["other_ranks"]) == 1  # rank 1's games are kept too
    assert content["games_trained"] == first["games"]


def test_two_gloo_ranks_hold_identical_weights_and_optimizers_after_every_update(three_runs):
    run_dir, records = three_runs
    check_identical_ranks(run_dir / "run-3", records, 128)


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_two_gloo_ranks_stay_identical_over_a_longer_run_alone_in_its_process(tmp_path):
    check_identical_ranks(tmp_path / "run", torchrun(tmp_path / "run", 400), 400)


def test_one_process_trains_run_after_run_in_its_one_process_group(three_runs):
    # A process group destroyed and made again in one process (as each run once did) could
    # wait forever in its first collective; the group now lives as long as the process.
    run_dir, records = three_runs
    for record in records:
        assert record["statuses"] == ["finished"] * 3
    assert records[0]["digests"] == records[1]["digests"]
    for number in (1, 2, 3):
        assert (run_dir / f"run-{number}" / "checkpoints" / "last.pt").is_file()


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_a_data_parallel_run_resumes_to_the_same_weights(tmp_path):
    torchrun(tmp_path / "straight", 600)
    torchrun(tmp_path / "resumed", 300)
    records = torchrun(tmp_path / "resumed", 600)
    assert records[0]["digests"] == records[1]["digests"]
    straight = read(tmp_path / "straight" / "checkpoints" / "last.pt")
    resumed = read(tmp_path / "resumed" / "checkpoints" / "last.pt")
    assert straight["games_trained"] == resumed["games_trained"]
    for key in straight["weights"]:
        assert torch.equal(straight["weights"][key], resumed["weights"][key]), key


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_resuming_with_another_number_of_processes_is_refused(tmp_path):
    torchrun(tmp_path / "run", 200)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "run"), "400"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0
    assert "trained by 2 process(es)" in done.stderr and "--nproc_per_node=2" in done.stderr
