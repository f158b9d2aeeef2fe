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

No worker outlives the work: whatever ends it early (an item's exception, ``Ctrl-C``, the
:class:`Stopped` that SIGINT or SIGTERM raise under :func:`stop_on_signals`) ends the workers
before it goes on, and a worker ends with its parent process however that ends (on Linux).
Workers ignore SIGINT: a ``Ctrl-C`` in a terminal reaches every process of the group, and the
parent stops them itself.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any

TRIES = 3
"""How many times an item's worker may die before the work stops."""

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop the work under :func:`stop_on_signals`."""

WAKE = 0.5
"""Seconds the main thread waits for a result before it looks at the signals again."""

END_GRACE = 5.0
"""Seconds a worker ended by SIGTERM may take before it is killed."""

PR_SET_PDEATHSIG = 1  # Linux prctl(2): the signal a process gets when its parent ends

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


class Stopped(BaseException):
    """SIGINT or SIGTERM asked the program to stop (:func:`stop_on_signals`).

    Like ``KeyboardInterrupt`` it is no ``Exception``: nothing on the way out mistakes it for
    a failed item. ``signal`` is the signal's name (``SIGTERM``), ``status`` the exit status
    that tells it (128 plus its number: 130 for SIGINT, 143 for SIGTERM).
    """

    def __init__(self, number: int) -> None:
        self.number = int(number)
        super().__init__(self.signal)

    @property
    def signal(self) -> str:
        return signal.Signals(self.number).name

    @property
    def status(self) -> int:
        return 128 + self.number


class _Stopping:
    """The state of :func:`stop_on_signals`: whether its handlers are in place, how many
    blocks hold a signal back (:func:`signals_held`), and the first stop signal that came."""

    def __init__(self) -> None:
        self.reset(on=False)

    def reset(self, on: bool) -> None:
        self.on = on
        self.held = 0
        self.asked: int | None = None


_STOP = _Stopping()


def _on_signal(number: int, frame: object) -> None:
    """The handler of :data:`STOP_SIGNALS`: raise :class:`Stopped`, or keep the signal for
    the end of the :func:`signals_held` block that runs."""
    _STOP.asked = _STOP.asked or number
    if not _STOP.held:
        raise Stopped(_STOP.asked)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs (in the main thread), SIGINT and SIGTERM raise :class:`Stopped`
    there: :func:`play_in_workers` then ends its workers on the way out, and the caller says
    what was finished and exits with :attr:`Stopped.status`. Outside a :func:`signals_held`
    block it is raised at once; within one, at the block's end.

    A stop is not forgotten: where the :class:`Stopped` was lost on its way (code that turned
    it into another exception, as a compiled kernel's caller may, or swallowed it), the next
    :func:`check_stop` raises it again, and :func:`stop_behind` finds it behind another
    exception. The handlers before the block come back after it."""
    previous = {number: signal.signal(number, _on_signal) for number in STOP_SIGNALS}
    _STOP.reset(on=True)
    try:
        yield
    finally:
        _STOP.reset(on=False)
        for number, handler in previous.items():
            signal.signal(number, handler)


def check_stop() -> None:
    """Raise :class:`Stopped` if a stop signal came under :func:`stop_on_signals` (outside a
    :func:`signals_held` block): where a long piece of work may look."""
    if _STOP.on and _STOP.asked and not _STOP.held:
        raise Stopped(_STOP.asked)


def stop_behind(error: BaseException) -> Stopped | None:
    """The :class:`Stopped` that ``error`` is, or that caused it (its ``__cause__`` or
    ``__context__``, however deep), else ``None``."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, Stopped):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold a stop signal back until the end of the block, which then raises
    :class:`Stopped` (under :func:`stop_on_signals`; else nothing is held): for what must not
    stop half way, such as starting or ending worker processes, or writing the results."""
    _STOP.held += 1
    try:
        yield
    finally:
        _STOP.held -= 1
    check_stop()


@contextlib.contextmanager
def _interrupts_ignored_by_new_processes() -> Iterator[None]:
    """Under :func:`stop_on_signals`, the processes started in the block begin with SIGINT
    ignored (an ignored signal stays ignored in a new program), so that a ``Ctrl-C`` while a
    spawned worker still imports its modules prints no traceback there. This process then
    ignores SIGINT too, for the moment the block takes."""
    if not _STOP.on:
        yield
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, _on_signal)


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
        min(workers, len(batch)),
        mp_context=context,
        initializer=_join,
        initargs=(started, os.getpid()),
    )
    processes = pool._processes  # the workers, kept to read their exit codes at the end
    broken = False
    try:
        futures = {}
        with signals_held(), _interrupts_ignored_by_new_processes():  # workers start whole
            try:
                for index in batch:
                    futures[pool.submit(_play, function, index, items[index])] = index
            except BrokenProcessPool:
                broken = True  # a worker died already; the rest waits for the next pool
        for future in _completed(futures):
            index = futures[future]
            try:
                results[index] = future.result()
            except BrokenProcessPool:
                broken = True  # results that came back before the death still follow
                continue
            done[index] = True
            if finished is not None:
                finished(index)
    except BaseException:
        with signals_held():  # stopped, or an item's exception: the others are not played on
            _end(processes)
        raise
    finally:
        with signals_held():
            pool.shutdown(wait=True, cancel_futures=True)
    if not broken:
        return None
    playing = [index for index in batch if started[index] and not done[index]]
    return playing, _cause([process.exitcode for process in processes.values()])


def _completed(futures: dict[Future, int]) -> Iterator[Future]:
    """The futures as they complete (``as_completed``), waking every :data:`WAKE` seconds:
    a signal handler runs in the main thread only, and a signal that reached another thread
    would wait for the next result to wake it."""
    pending = set(futures)
    while pending:
        ready, pending = wait(pending, timeout=WAKE, return_when=FIRST_COMPLETED)
        check_stop()
        yield from ready


def _end(processes: dict) -> None:
    """End a pool's workers that still run and wait for them: SIGTERM, then SIGKILL for one
    that is still there after :data:`END_GRACE` seconds."""
    running = list(processes.values())
    for process in running:
        process.terminate()
    for process in running:
        process.join(END_GRACE)
        if process.exitcode is None:
            process.kill()
            process.join()


def _join(started: Any, parent: int) -> None:
    """A worker's start: keep the round's flags, leave SIGINT to the parent, and end with the
    parent process."""
    global _started
    _started = started
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker had its parent's handler
    _end_with_parent(parent)


def _end_with_parent(parent: int) -> None:
    """Have Linux send this process SIGTERM when its parent process ``parent`` ends, however
    it ends (``prctl(PR_SET_PDEATHSIG)``); end now if the parent has ended already."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


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
