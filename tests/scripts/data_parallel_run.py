"""A short data-parallel training run under torchrun, for tests/test_distributed.py.

    torchrun --standalone --nproc_per_node=2 tests/scripts/data_parallel_run.py RUN_DIR GAMES [RUNS]

Every rank records a digest of its weights and optimizer state after every update (a round
of minibatch steps, then the ranks' average) into RUN_DIR/digests-<rank>.json, so the test
can check that the ranks never drift apart. With RUNS above 1 the process trains that many
runs one after another (in RUN_DIR/run-1, run-2, ...), as a benchmark's warm-up and timed
run do, all in the one process group; the digests are those of the last.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import torch

import agents.td.training as training
from agents.runs.ranks import Ranks
from agents.td.config import LearnerConfig, TDConfig


def main() -> None:
    run_dir, games = Path(sys.argv[1]), int(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    digests = []
    real_average = Ranks.average_update

    def recording_average(self, network, optimizer):
        real_average(self, network, optimizer)
        flat = torch.cat([p.detach().reshape(-1) for p in network.parameters()])
        moments = [v for state in optimizer.state.values() for v in state.values()]
        flat = torch.cat([flat, *(v.detach().reshape(-1).float() for v in moments)])
        digests.append(hashlib.sha256(flat.numpy().tobytes()).hexdigest())

    Ranks.average_update = recording_average
    config = TDConfig(
        total_games=games,
        parallel_games=32,
        eval_every=0,
        eval_games=20,
        eval_opponents=["random"],
        checkpoint_every=0,
        log_every=0,
        progress=False,
        learner=LearnerConfig(lr_schedule="constant", batch_size=64, round_samples=512),
    )
    statuses = []
    for number in range(1, runs + 1):
        digests.clear()
        result = training.train(config, run_dir if runs == 1 else run_dir / f"run-{number}")
        statuses.append(result.status)
    rank = os.environ.get("RANK", "0")
    record = {"digests": digests, "games": result.games, "status": result.status}
    record["statuses"] = statuses
    (run_dir / f"digests-{rank}.json").write_text(json.dumps(record))


if __name__ == "__main__":
    main()
