"""Work items over worker processes, replayed when a worker process is lost.

A worker that dies (``kill -9``, the out-of-memory killer, a crash in a player's own code)
breaks its whole ``ProcessPoolExecutor``: every item then unfinished fails with
``BrokenProcessPool``. :func:`play_in_workers` keeps the results that came back, starts a
fresh pool and plays the other items again. That is right when an item is a pure function
of its arguments, as a chunk of arena games is (its dice depend only on the seed, the dice
stream and the turn), so an item played again gives the same result.

An item that was in play when a worker died is played next on its own, in a pool of one,
so that a second death names the item that caused it. An item whose worker dies
:data:`TRIES` times stops the work with :class:`WorkerDied`. An exception raised by an item
itself is no lost worker: it comes back as it is, and nothing is played again.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any

TRIES = 3
"""How many times an item's worker may die before the work stops."""

_started: Any = None  # in a worker: one flag per item of the round, set as it starts one


def start_context(numpy_only: bool) -> BaseContext:
    """How to start worker processes: fork on Linux for work that needs only numpy and
    compiled kernels (``numpy_only``, a TD bot's rollouts say) when this process runs no
    other Python thread, else spawn.

    A forked worker begins with everything this process has imported and compiled, so it
    starts at once; a spawned one imports the modules and loads the compiled kernels again
    (over a second of CPU each). A process with another Python thread (a progress bar's
    monitor, a thread pool) is never forked, since a lock that thread held would stay locked
    in the child, nor is work that may run torch (its thread pool cannot follow a fork), nor
    a process on another system, where fork is unsafe or missing. The native threads of
    numpy's BLAS are made safe across a fork by the library itself. Results never depend on
    the start method.
    """
    if numpy_only and sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class WorkerDied(RuntimeError):
    """The worker processes kept dying; ``str()`` is one line naming the item and the cause."""


def play_in_workers(
    function: Callable[..., Any],
    items: Sequence[tuple],
    workers: int,
    context: BaseContext,
    describe: Callable[[int], str],
    finished: Callable[[int], None] | None = None,
    lost: Callable[[list[int], str], None] | None = None,
) -> list:
    """``[function(*item) for item in items]``, played by ``workers`` processes.

    Args:
        function: a module-level function (worker processes import it by name).
        items: the arguments of each call.
        workers: the most worker processes at a time.
        context: the multiprocessing context the workers start in.
        describe: names item ``i`` in the message of :class:`WorkerDied`.
        finished: called with ``i`` when item ``i`` has come back (once per item).
        lost: called when a worker died, with the items that were in play (and are
            played again) and the cause (``killed by SIGKILL``).

    Returns the results in the order of ``items``, whichever worker finished first. Raises
    :class:`WorkerDied` when one item's worker died :data:`TRIES` times, or when workers
    died :data:`TRIES` times in a row before starting any item.
    """
    results: list = [None] * len(items)
    done = [False] * len(items)
    deaths = [0] * len(items)
    alone: list[int] = []  # items in play when a worker died: each is played next on its own
    fruitless = 0  # rounds in a row that broke before any item started or finished
    while not all(done):
        batch = alone[:1] or [index for index in range(len(items)) if not done[index]]
        before = sum(done)
        broken = _round(function, items, batch, workers, context, results, done, finished)
        if broken is None:
            alone = alone[1:]
            fruitless = 0
            continue
        playing, cause = broken
        for index in playing:
            deaths[index] += 1
            if deaths[index] >= TRIES:
                raise WorkerDied(
                    f"{describe(index)}: its worker process died {deaths[index]} times ({cause})"
                )
        fruitless = 0 if playing or sum(done) > before else fruitless + 1
        if fruitless >= TRIES:
            raise WorkerDied(
                f"worker processes died {fruitless} times before playing anything ({cause})"
            )
        alone = list(dict.fromkeys(playing + alone))
        if lost is not None:
            lost(playing, cause)
    return results


def _round(
    function: Callable[..., Any],
    items: Sequence[tuple],
    batch: list[int],
    workers: int,
    context: BaseContext,
    results: list,
    done: list[bool],
    finished: Callable[[int], None] | None,
) -> tuple[list[int], str] | None:
    """Play ``items[batch]`` in a fresh pool, filling ``results`` and ``done``.

    Returns ``None`` when every item came back, else (after a worker died) the items that
    had started and not come back, and the cause of the death.
    """
    started = context.RawArray("b", len(items))
    pool = ProcessPoolExecutor(
        min(workers, len(batch)), mp_context=context, initializer=_join, initargs=(started,)
    )
    processes = pool._processes  # the workers, kept to read their exit codes at the end
    broken = False
    try:
        futures = {}
        try:
            for index in batch:
                futures[pool.submit(_play, function, index, items[index])] = index
        except BrokenProcessPool:
            broken = True  # a worker died already; the rest of the batch waits for the next pool
        for future in as_completed(futures):
            index = futures[future]
            try:
                results[index] = future.result()
            except BrokenProcessPool:
                broken = True  # results that came back before the death still follow
                continue
            done[index] = True
            if finished is not None:
                finished(index)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    if not broken:
        return None
    playing = [index for index in batch if started[index] and not done[index]]
    return playing, _cause([process.exitcode for process in processes.values()])


def _join(started: Any) -> None:
    """A worker's start: keep the round's flags."""
    global _started
    _started = started


def _play(function: Callable[..., Any], index: int, item: tuple) -> Any:
    """In a worker: flag item ``index`` as started, then play it."""
    _started[index] = 1
    return function(*item)


def _cause(exit_codes: list[int | None]) -> str:
    """Why a pool's worker died, from its workers' exit codes: when one dies, the pool ends
    the others with SIGTERM, so another signal or status is the first death's."""
    ended = [code for code in exit_codes if code]
    first = [code for code in ended if code != -signal.SIGTERM] or ended
    if not first:
        return "it ended without an exit status"
    code = first[0]
    if code > 0:
        return f"exit status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"
