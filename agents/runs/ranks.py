"""Data-parallel training with ``torch.distributed``: what the ranks agree on, and nothing more.

Under ``torchrun`` every rank (process) plays its own games with its own dice and keeps its
own targets. Every few steps the ranks agree on the games played and on whether a round of
minibatch steps is due (one collective). A round runs on every rank from the same weights,
each on its own targets; then the ranks average their updates (the weights and the
optimizer's moment estimates, in one all-reduce), so after every round the networks and
optimizers are identical again. Few collectives, since one costs about half a millisecond
on a small machine: that is what lets a second process pay.

Rank 0 alone logs, evaluates and writes checkpoints, with every rank's games in flight
gathered into the one checkpoint. Without ``torchrun`` (no ``WORLD_SIZE`` in the
environment) :class:`Ranks` is a single rank and every method is a no-op.

The process group is made once per process and kept until the process exits, however many
runs the process trains (a benchmark's warm-up and its timed run, the jobs of a Hydra
multirun): a group destroyed and made again in one process can find the keys the first one
left in torchrun's store and wait forever for peers that are gone.
"""

from __future__ import annotations

import atexit
import os
from typing import Any

import torch
import torch.distributed as dist

SYNC_STEPS = 8
"""Steps of the vector env between the ranks' agreements on counts: fewer collectives, and
the ranks' uneven steps even out in between."""


class Ranks:
    """This process's place among the ranks of a run, and the few collectives training needs.

    The process group is initialised once per process (``gloo`` on the CPU, ``nccl`` when the
    network runs on CUDA) from torchrun's environment variables.
    """

    def __init__(self, device: torch.device) -> None:
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        self.sync_every = 1 if self.world == 1 else SYNC_STEPS
        self.device = torch.device("cpu")
        if self.world > 1:
            backend = "nccl" if device.type == "cuda" else "gloo"
            if backend == "nccl":
                local = int(os.environ.get("LOCAL_RANK", "0"))
                torch.cuda.set_device(local)
                self.device = torch.device("cuda", local)
            if not dist.is_initialized():
                dist.init_process_group(backend=backend)
                atexit.register(_leave)

    @property
    def main(self) -> bool:
        """Whether this is rank 0: the one that logs, evaluates and checkpoints."""
        return self.rank == 0

    def average_update(self, network: torch.nn.Module, optimizer: torch.optim.Optimizer) -> None:
        """Replace the weights and every tensor of the optimizer's state (Adam's moments) by
        their mean over the ranks, in one all-reduce; counters such as Adam's step count are
        the same on every rank already."""
        if self.world == 1:
            return
        tensors = [p.data for p in network.parameters()]
        for parameter in network.parameters():
            state = optimizer.state.get(parameter, {})
            # The moment estimates have the parameter's shape; the step count is a scalar.
            tensors += [
                v for v in state.values() if torch.is_tensor(v) and v.shape == parameter.shape
            ]
        flat = torch.cat([t.reshape(-1) for t in tensors])
        dist.all_reduce(flat)
        flat /= self.world
        offset = 0
        for tensor in tensors:
            tensor.copy_(flat[offset : offset + tensor.numel()].view_as(tensor))
            offset += tensor.numel()

    def agree(
        self, ready_batches: int, games: int, turns: int, stop: bool
    ) -> tuple[int, int, int, bool]:
        """What every rank needs to take the same decisions after a step: the minibatches
        every rank has ready (the minimum), the games ended and turns played on all ranks
        (sums), and whether any rank was asked to stop."""
        if self.world == 1:
            return ready_batches, games, turns, stop
        mine = torch.tensor([ready_batches, games, turns, int(stop)], dtype=torch.int64)
        everyone = [torch.zeros_like(mine) for _ in range(self.world)]
        dist.all_gather(everyone, mine)  # one collective, then each rank reduces alike
        table = torch.stack(everyone)
        return (
            int(table[:, 0].min()),
            int(table[:, 1].sum()),
            int(table[:, 2].sum()),
            bool(table[:, 3].max()),
        )

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

    def close(self) -> None:
        """End a run on every rank together: a barrier, so that no rank goes on (or exits)
        while rank 0 still writes the checkpoint. The group itself stays for the next run of
        this process, and is torn down when the process exits."""
        if self.world == 1 or not dist.is_initialized():
            return
        dist.barrier()

    def broadcast(self, value: Any) -> Any:
        """Rank 0's ``value`` on every rank."""
        if self.world == 1:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0)
        return box[0]


def _leave() -> None:
    """Tear the process group down as the process exits (one that exits with the group alive
    can abort in its communication threads)."""
    if dist.is_initialized():
        dist.destroy_process_group()
