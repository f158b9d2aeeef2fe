"""Players that end the worker process playing them, for tests/test_lost_worker.py.

Loaded as ``crashing_players:Class`` with tests/scripts on the Python path. They kill only a
worker process (a child), never the process that runs the round robin itself; they play
uniformly at random otherwise, from the arena's generator, so their games are the same in
every run with the same seed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal

from agents import RandomPlayer

MARKER = "TAPA_TEST_KILL_MARKER"
"""The environment variable naming the file whose creation marks the one kill as done."""


def _kill_this_worker() -> None:
    if multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)


class KillsItsWorkerOnce(RandomPlayer):
    """Kills its worker process as that worker begins its second chunk, once: the first to
    create the file that ``$TAPA_TEST_KILL_MARKER`` names does it (no file, no kill)."""

    name = "kills-its-worker-once"
    made_here = 0  # players made in this process: one per chunk in a worker

    def __init__(self) -> None:
        KillsItsWorkerOnce.made_here += 1
        self.chunk_here = KillsItsWorkerOnce.made_here

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        marker = os.environ.get(MARKER)
        if self.chunk_here >= 2 and marker and _create(marker):
            _kill_this_worker()
        return super().choose_batch(positions, dice, afterstates, offsets, rng)


class KillsItsWorker(RandomPlayer):
    """Kills its worker process at its first turn, every time (a player that crashes)."""

    name = "kills-its-worker"

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        _kill_this_worker()
        return super().choose_batch(positions, dice, afterstates, offsets, rng)


class RaisesInPlay(RandomPlayer):
    """Raises an exception at its first turn: a bug in a player, not a lost worker."""

    name = "raises-in-play"

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        raise RuntimeError("a bug in this player")


def _create(path: str) -> bool:
    """Create the file ``path``; False when it exists already (another process did it)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True
