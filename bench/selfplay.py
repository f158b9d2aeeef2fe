"""Throughput of full TD(λ) training (play and learning) with the default config.

Runs ``agents.td.training.train`` with ``configs/train.yaml``'s settings (and the game's of
``configs/game/``: ``--game tapa``, ``tabla`` or ``gulbara``) for a fixed number of
self-play games (evaluations and checkpoints left out, everything else as configured), once
per thread count in one process, and once per process count as a data-parallel run under
``torchrun`` (one thread a process), each after a short warm-up run that loads the compiled
kernels. Prints one line per setting, the scaling of processes over one single-threaded
process, then as its last two lines ``turns_per_second N`` and ``games_per_second N`` of the
fastest.

    python bench/selfplay.py [--game tapa] [--games 20000] [--threads 1 2] [--processes 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from omegaconf import OmegaConf
from options import positive_int

from agents.td.config import TDConfig
from agents.td.training import train

ROOT = Path(__file__).resolve().parents[1]
TORCHRUN_TIMEOUT = 1800
"""Seconds a data-parallel measurement may take before it is reported as hung."""


GAMES = ("tapa", "tabla", "gulbara")


def default_config(game: str = "tapa") -> TDConfig:
    """``configs/agent/td.yaml``, ``configs/train.yaml`` and ``configs/game/GAME.yaml`` (what
    ``python train.py game=GAME`` composes) without Hydra's own sections, as a
    :class:`TDConfig`."""
    layers = []
    for name in ("agent/td.yaml", "train.yaml", f"game/{game}.yaml"):
        settings = OmegaConf.load(ROOT / "configs" / name)
        settings.pop("defaults", None)
        settings.pop("hydra", None)
        layers.append(settings)
    return OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(TDConfig), *layers))


def measure(config: TDConfig, games: int, threads: int) -> tuple[float, float]:
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


def run_processes(processes: int, games: int, game: str) -> tuple[float, float]:
    """Turns and games per second of a data-parallel run of ``processes`` under torchrun."""
    torchrun = shutil.which("torchrun", path=str(Path(sys.executable).parent)) or "torchrun"
    try:
        done = subprocess.run(
            [
                torchrun,
                "--standalone",
                f"--nproc_per_node={processes}",
                __file__,
                "--worker",
                "--games",
                str(games),
                "--game",
                game,
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
            timeout=TORCHRUN_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise SystemExit(
            f"torchrun with {processes} processes did not finish in {TORCHRUN_TIMEOUT} s"
        ) from None
    if done.returncode != 0:
        raise SystemExit(f"torchrun failed:\n{done.stderr[-2000:]}")
    turns, games_rate = done.stdout.split("worker_result")[1].split()[:2]
    return float(turns), float(games_rate)


def worker(games: int, game: str) -> None:
    """One rank of a data-parallel run: rank 0 prints the rates of the whole run."""
    config = default_config(game)
    measure(config, min(games, 500), 1)
    turns, games_rate = measure(config, games, 1)
    if os.environ.get("RANK", "0") == "0":
        print(f"worker_result {turns} {games_rate}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="tapa", help="the game played")
    parser.add_argument("--games", type=positive_int, default=20_000, help="games timed per run")
    parser.add_argument(
        "--threads", type=positive_int, nargs="+", default=[1, 2], help="thread counts to measure"
    )
    parser.add_argument(
        "--processes",
        type=positive_int,
        nargs="*",
        default=[2],
        help="process counts to measure under torchrun (none: skip)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.games, args.game)
        return

    config = default_config(args.game)
    measure(config, min(args.games, 500), 1)  # warm-up: compiled kernels loaded
    print(
        f"{args.game}, default config: {config.agent.encoding} encoding, "
        f"hidden {config.agent.hidden}, "
        f"{config.parallel_games} games at once per process, batch {config.learner.batch_size}"
    )
    results = {}
    for threads in args.threads:
        results[f"1 process, {threads} thread(s)"] = measure(config, args.games, threads)
    for processes in args.processes:
        if processes > 1:
            results[f"{processes} processes (torchrun)"] = run_processes(
                processes, args.games, args.game
            )
    for label, (turns, games) in results.items():
        print(f"{label:<28} {turns:>10,.0f} TD-updated turns/s {games:>8,.0f} games/s")
    single = results.get("1 process, 1 thread(s)")
    for label, (turns, _) in results.items():
        if single and "processes" in label:
            print(f"scaling: {label} / 1 process, 1 thread = {turns / single[0]:.2f}")
    fastest = max(results, key=lambda label: results[label][0])
    print(f"fastest: {fastest}")
    print(f"turns_per_second {results[fastest][0]:.0f}")
    print(f"games_per_second {results[fastest][1]:.0f}")


if __name__ == "__main__":
    main()
