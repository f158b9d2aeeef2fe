"""A short data-parallel training run under torchrun, for tests/test_distributed.py.

    torchrun --standalone --nproc_per_node=2 tests/scripts/data_parallel_run.py RUN_DIR GAMES

Every rank records a digest of its weights after every minibatch step into
RUN_DIR/digests-<rank>.json, so the test can check that the ranks never drift apart.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import torch

import agents.training as training
from agents.config import LearnerConfig, TrainConfig


def main() -> None:
    run_dir, games = Path(sys.argv[1]), int(sys.argv[2])
    digests = []
    real_step = training.td_step

    def recording_step(network, optimizer, features, targets, ranks=None):
        result = real_step(network, optimizer, features, targets, ranks)
        flat = torch.cat([p.detach().reshape(-1) for p in network.parameters()])
        digests.append(hashlib.sha256(flat.numpy().tobytes()).hexdigest())
        return result

    training.td_step = recording_step
    config = TrainConfig(
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
    result = training.train(config, run_dir)
    rank = os.environ.get("RANK", "0")
    record = {"digests": digests, "games": result.games, "status": result.status}
    (run_dir / f"digests-{rank}.json").write_text(json.dumps(record))


if __name__ == "__main__":
    main()
