"""Data-parallel training with ``torch.distributed``: what the ranks agree on, and nothing more.

Under ``torchrun`` every rank (process) plays its own games with its own dice and keeps its
own targets; the ranks average their gradients before each optimizer step, so the networks
stay identical. Rank 0 alone logs, evaluates and writes checkpoints, with every rank's games
in flight gathered into the one checkpoint. Without ``torchrun`` (no ``WORLD_SIZE`` in the
environment) :class:`Ranks` is a single rank and every method is a no-op.
"""

from __future__ import annotations

import os
from typing import Any

import torch
import torch.distributed as dist


class Ranks:
    """This process's place among the ranks of a run, and the few collectives training needs.

    The process group is initialised once per process (``gloo`` on the CPU, ``nccl`` when the
    network runs on CUDA) from torchrun's environment variables.
    """

    def __init__(self, device: torch.device) -> None:
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        self.device = torch.device("cpu")
        if self.world > 1:
            backend = "nccl" if device.type == "cuda" else "gloo"
            if backend == "nccl":
                local = int(os.environ.get("LOCAL_RANK", "0"))
                torch.cuda.set_device(local)
                self.device = torch.device("cuda", local)
            if not dist.is_initialized():
                dist.init_process_group(backend=backend)

    @property
    def main(self) -> bool:
        """Whether this is rank 0: the one that logs, evaluates and checkpoints."""
        return self.rank == 0

    def average_gradients(self, parameters: list[torch.nn.Parameter]) -> None:
        """Replace every gradient by its mean over the ranks (one all-reduce)."""
        if self.world == 1:
            return
        grads = [p.grad for p in parameters]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat /= self.world
        offset = 0
        for grad in grads:
            grad.copy_(flat[offset : offset + grad.numel()].view_as(grad))
            offset += grad.numel()

    def agree(
        self, ready_batches: int, games: int, turns: int, stop: bool
    ) -> tuple[int, int, int, bool]:
        """What every rank needs to take the same decisions after a step: the minibatches
        every rank has ready (the minimum), the games ended and turns played on all ranks
        (sums), and whether any rank was asked to stop."""
        if self.world == 1:
            return ready_batches, games, turns, stop
        sums = torch.tensor([games, turns], dtype=torch.int64)
        dist.all_reduce(sums, op=dist.ReduceOp.SUM)
        highest = torch.tensor([-ready_batches, int(stop)], dtype=torch.int64)
        dist.all_reduce(highest, op=dist.ReduceOp.MAX)  # the max of -ready is -(the min)
        return int(-highest[0]), int(sums[0]), int(sums[1]), bool(highest[1])

    def gather(self, value: Any) -> list[Any] | None:
        """Every rank's ``value`` on rank 0 (``None`` elsewhere)."""
        if self.world == 1:
            return [value]
        gathered = [None] * self.world if self.main else None
        dist.gather_object(value, gathered, dst=0)
        return gathered

    def scatter(self, values: list[Any] | None) -> Any:
        """Rank ``r`` receives ``values[r]`` from rank 0."""
        if self.world == 1:
            return values[0]
        received = [None]
        dist.scatter_object_list(received, values if self.main else None, src=0)
        return received[0]

    def broadcast(self, value: Any) -> Any:
        """Rank 0's ``value`` on every rank."""
        if self.world == 1:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0)
        return box[0]
