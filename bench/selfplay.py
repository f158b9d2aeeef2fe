"""Throughput of full TD(λ) training (play and learning) with the default config.

Runs ``agents.training.train`` with ``configs/train.yaml``'s settings for a fixed number of
self-play games (evaluations and checkpoints left out, everything else as configured), once
per thread count, after a short warm-up run that loads the compiled kernels. Prints one line
per thread count, then as its last two lines ``turns_per_second N`` and
``games_per_second N`` of the fastest.

    python bench/selfplay.py [--games 20000] [--threads 1 2]
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import replace
from pathlib import Path

from omegaconf import OmegaConf

from agents.config import TrainConfig
from agents.training import train

ROOT = Path(__file__).resolve().parents[1]


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def default_config() -> TrainConfig:
    """``configs/train.yaml`` without Hydra's own section, as a :class:`TrainConfig`."""
    settings = OmegaConf.load(ROOT / "configs" / "train.yaml")
    settings.pop("defaults")
    settings.pop("hydra")
    return OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(TrainConfig), settings))


def measure(config: TrainConfig, games: int, threads: int) -> tuple[float, float]:
    """Turns and games per second of ``games`` self-play games of training."""
    timed = replace(
        config,
        total_games=games,
        threads=threads,
        eval_every=0,
        eval_opponents=[],
        checkpoint_every=0,
        log_every=0,
        progress=False,
    )
    with tempfile.TemporaryDirectory() as run_dir:
        result = train(timed, Path(run_dir))
    return result.turns / result.seconds, result.games / result.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=20_000, help="games timed per run")
    parser.add_argument(
        "--threads", type=positive, nargs="+", default=[1, 2], help="thread counts to measure"
    )
    args = parser.parse_args()

    config = default_config()
    measure(config, min(args.games, 500), 1)  # warm-up: compiled kernels loaded
    print(
        f"default config: {config.agent.encoding} encoding, hidden {config.agent.hidden}, "
        f"{config.parallel_games} games at once, batch {config.learner.batch_size}"
    )
    best = (0.0, 0.0, 0)
    for threads in args.threads:
        turns, games = measure(config, args.games, threads)
        print(f"threads {threads}: {turns:>10,.0f} TD-updated turns/s {games:>8,.0f} games/s")
        best = max(best, (turns, games, threads))
    print(f"fastest: {best[2]} thread(s)")
    print(f"turns_per_second {best[0]:.0f}")
    print(f"games_per_second {best[1]:.0f}")


if __name__ == "__main__":
    main()
