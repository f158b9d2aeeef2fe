"""Cost of valuing afterstates: the numpy evaluator against encoding plus torch's forward pass.

Afterstates of a fixed pool of (position, roll) pairs from seeded random self-play are valued
by an 80-unit sigmoid network, one thread: by ``agents.td.evaluator.Evaluator`` from their
positions (what training and play use), and by encoding them and running the torch network.
Prints nanoseconds per afterstate for each encoding, then as its last line
``evaluator_ns_per_afterstate N`` for the default (expert) encoding.

    python bench/evaluator.py [--pool 8000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from options import positive_int

from agents.td.network import NetworkShape, TDNetwork
from tapa_env import generate_afterstates
from tapa_env.encoding import get_encoding
from tapa_env.selfplay import random_self_play


def best_seconds(run, repeats: int) -> float:
    run()  # warm-up: compiled code loaded, buffers sized
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=positive_int, default=8000, help="(position, roll) pairs")
    parser.add_argument("--repeats", type=positive_int, default=5, help="passes; the best is kept")
    args = parser.parse_args()

    torch.set_num_threads(1)
    record = random_self_play(max(1, args.pool // 50), seed=0)
    positions, dice = record.positions[: args.pool], record.dice[: args.pool]
    afterstates, offsets = generate_afterstates(positions, dice)
    print(f"{len(positions)} turns, {len(afterstates)} afterstates")
    expert = 0.0
    for name in ("raw", "expert"):
        network = TDNetwork(NetworkShape(name, (80,), "sigmoid"))
        evaluator = network.evaluator()
        encoding = get_encoding(name)

        def numpy_pass(evaluator=evaluator) -> None:
            evaluator.probabilities(afterstates, positions, offsets, check=False)

        def torch_pass(network=network, encoding=encoding) -> None:
            with torch.no_grad():
                network.probabilities(torch.from_numpy(encoding.encode(afterstates, check=False)))

        ours = best_seconds(numpy_pass, args.repeats) / len(afterstates) * 1e9
        theirs = best_seconds(torch_pass, args.repeats) / len(afterstates) * 1e9
        print(
            f"{name:>6}: evaluator {ours:6.0f} ns/afterstate, encode + torch {theirs:6.0f} "
            f"ns/afterstate ({theirs / ours:.1f}x)"
        )
        expert = ours
    print(f"evaluator_ns_per_afterstate {np.round(expert):.0f}")


if __name__ == "__main__":
    main()
