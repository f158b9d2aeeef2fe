"""SIGTERM and SIGINT stop evaluate.py whole: its worker processes end with it, one line says
what was finished, no results file is written half or at all, every game record left is whole,
and a second run gives the results of an undisturbed one.

The processes of a run are found in /proc by a variable set in the environment of the run
alone (every process it starts inherits it) and by the run's own temporary folder on their
command line: no other process is looked at twice, and only those are ever ended.
"""

from __future__ import annotations

import multiprocessing
import operator
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from agents.evaluation.workers import (
    Stopped,
    check_stop,
    play_in_workers,
    signals_held,
    stop_behind,
    stop_on_signals,
)
from agents.records import read_record

ROOT = Path(__file__).resolve().parents[1]
MARKER = "TAPA_STOPPED_RUN"  # set in the environment of the runs these tests stop

PLAIN = ["game=tabla", "players=[pubeval,random]", "games=40000", "seed=3"]
MATCH = ["match_length=7", "players=[shipped,random]", "games=400", "seed=3"]
RUNS = {
    "plain-1": [*PLAIN, "workers=1"],
    "plain-2": [*PLAIN, "workers=2"],
    "match-1": [*MATCH, "workers=1"],
    "match-2": [*MATCH, "workers=2"],
    # Chunks of 16 games: the records of finished chunks are written all the time.
    "records-2": [*PLAIN, "workers=2", "chunk_units=8"],
}
SMALL_CHUNKS = (
    "import runpy, sys\n"
    "import agents.evaluation.tournament\n"
    "agents.evaluation.tournament.CHUNK_UNITS = int(sys.argv.pop().split('=')[1])\n"
    "sys.argv[0] = 'evaluate.py'\n"
    "runpy.run_path('evaluate.py', run_name='__main__')\n"
)
STOPPED = re.compile(
    r"evaluate\.py: stopped by (SIGTERM|SIGINT) (before the first game: no results written|"
    r"after \d+ of \d+ (games|matches): the results are incomplete, and none were written"
    r"(; \d+ game records? kept under \S+ \(overwrite_records=true replaces them\))?)"
)


# --- the processes of a run ---------------------------------------------------------------


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # gone, or another user's
        return b""


def processes_of(folder: Path) -> set[int]:
    """The live processes of the run whose environment carries ``MARKER=folder``, or whose
    command line names ``folder``."""
    marker = f"{MARKER}={folder}".encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        stat = _read(entry / "stat")
        if not stat or stat.rsplit(b")", 1)[-1].split()[0] == b"Z":  # a zombie has ended
            continue
        if marker in _read(entry / "environ").split(b"\0") or str(folder).encode() in _read(
            entry / "cmdline"
        ):
            found.add(int(entry.name))
    return found


def children_of(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        stat = _read(entry / "stat") if entry.name.isdigit() else b""
        fields = stat.rsplit(b")", 1)[-1].split()
        if len(fields) > 1 and fields[0] != b"Z" and int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def survivors(folder: Path, patience: float = 60.0) -> set[int]:
    """The run's processes still there once they had ``patience`` seconds to end (the
    resource tracker ends when the last of the others has)."""
    deadline = time.monotonic() + patience
    while (left := processes_of(folder)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def end(pids: set[int]) -> None:
    """SIGKILL for processes of a run that outlived it, so that a failed test leaves none."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# --- stopping evaluate.py -----------------------------------------------------------------


def start(folder: Path, overrides: list[str]) -> subprocess.Popen:
    """evaluate.py with ``overrides``, its run directory, out= and records in ``folder``
    (a last ``chunk_units=N`` sets the games of a chunk to 2N)."""
    environment = dict(os.environ, **{MARKER: str(folder)})
    environment.pop("HYDRA_FULL_ERROR", None)
    records = f"record_games={folder / 'records'}"
    arguments = command(folder / "run", folder / "out.json", [records, *overrides])
    with (folder / "stdout").open("w") as out, (folder / "stderr").open("w") as err:
        return subprocess.Popen(
            arguments, cwd=ROOT, stdout=out, stderr=err, env=environment, start_new_session=True
        )


def send(run: subprocess.Popen, sent: int, group: bool) -> int:
    """Send ``sent`` to the run, or to its whole process group (as a terminal's ``Ctrl-C``
    and ``timeout`` do), and wait for it; its exit status as the shell gives it (143 for a
    death by SIGTERM too)."""
    try:
        if group:
            os.killpg(run.pid, sent)  # the run leads a session of its own
        else:
            run.send_signal(sent)
        status = run.wait(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    return 128 - status if status < 0 else status


def stop(folder: Path, overrides: list[str], delay: float, sent=signal.SIGTERM) -> int:
    """Start evaluate.py, send it ``sent`` after ``delay`` seconds, and wait for it."""
    run = start(folder, overrides)
    time.sleep(delay)
    return send(run, sent, group=False)


def check_what_a_stop_left(folder: Path, status: int, sent=signal.SIGTERM) -> None:
    """No process of the run, the status of the signal, one line saying what was finished,
    no results file, and nothing but whole game records."""
    left = survivors(folder)
    end(left)
    assert not left, f"processes outlived the stopped run: {sorted(left)}"
    stderr = (folder / "stderr").read_text()
    assert status == 128 + sent, stderr
    assert "Traceback" not in stderr, stderr
    if stderr.strip():  # else the signal came while Python imported evaluate.py's modules
        assert STOPPED.fullmatch(stderr.rstrip().splitlines()[-1]), stderr
    assert not (folder / "run" / "results.json").exists()
    assert not (folder / "out.json").exists()
    records = folder / "records"
    if records.exists():
        leftovers = [p for p in records.rglob("*") if p.is_file() and p.suffix != ".tapa"]
        assert not leftovers, leftovers
        for path in records.rglob("*.tapa"):
            read_record(path)  # whole: a cut file fails to parse


@pytest.mark.parametrize("run", [run for run in RUNS if run != "records-2"])
def test_sigterm_ends_evaluate_and_its_workers_at_any_moment(tmp_path, run):
    # One moment a run, from before the players are loaded to games in play.
    delay = random.Random(run).uniform(0.5, 8.0)
    status = stop(tmp_path, RUNS[run], delay)
    check_what_a_stop_left(tmp_path, status)


def test_a_stop_while_records_are_written_leaves_only_whole_records(tmp_path):
    run = start(tmp_path, RUNS["records-2"])
    deadline = time.monotonic() + 120
    while not any((tmp_path / "records").rglob("*.tapa")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(random.Random(3).uniform(0.0, 1.5))  # writes go on in both workers
    status = send(run, signal.SIGTERM, group=False)
    check_what_a_stop_left(tmp_path, status)
    line = (tmp_path / "stderr").read_text().rstrip().splitlines()[-1]
    kept = len(list((tmp_path / "records").rglob("*.tapa")))
    assert kept and f"; {kept} game records kept under {tmp_path / 'records'} " in line, line


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS)
def test_sigterm_ends_evaluate_and_its_workers_ten_times_in_ten(tmp_path, run):
    moments = random.Random(f"{run} ten")
    for attempt in range(10):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        status = stop(folder, RUNS[run], moments.uniform(0.3, 12.0))
        check_what_a_stop_left(folder, status)


def until_workers_play(run: subprocess.Popen, workers: int, timeout: float = 120.0) -> None:
    """Wait until the run has ``workers`` worker processes, then a moment more."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and run.poll() is None:
        spawned = [
            pid
            for pid in children_of(run.pid)
            if b"spawn_main" in _read(Path(f"/proc/{pid}/cmdline"))
        ]
        if len(spawned) >= workers:
            time.sleep(1.0)
            return
        time.sleep(0.1)
    raise AssertionError("the run started no workers")


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "timeout"])
def test_a_signal_to_the_whole_process_group_ends_the_run_in_one_line(tmp_path, sent):
    # A terminal's Ctrl-C, and timeout's SIGTERM, reach every process of the group: the
    # workers leave SIGINT to the parent, which ends them, and die of SIGTERM themselves.
    run = start(tmp_path, RUNS["plain-2"])
    until_workers_play(run, 2)
    status = send(run, sent, group=True)
    check_what_a_stop_left(tmp_path, status, sent)
    stderr = (tmp_path / "stderr").read_text()
    assert STOPPED.fullmatch(stderr.rstrip().splitlines()[-1]), stderr
    assert "KeyboardInterrupt" not in stderr and "worker process was lost" not in stderr


def command(folder: Path, out: Path, overrides: list[str]) -> list[str]:
    """evaluate.py (or, with a last ``chunk_units=N``, its chunks of 2N games) writing its
    results into ``folder`` and ``out``."""
    script = ["-c", SMALL_CHUNKS] if overrides[-1].startswith("chunk_units=") else ["evaluate.py"]
    return [sys.executable, *script, f"hydra.run.dir={folder}", f"out={out}", *overrides]


def stop_and_run_again(tmp_path: Path, overrides: list[str], playing) -> None:
    """An undisturbed run, the same run stopped by SIGTERM once ``playing(run, folder)``
    says games are in play, and the same run again: the last gives the first's results.json,
    and the stop wrote none."""
    out = tmp_path / "results.json"

    def results_of(folder: Path) -> bytes:
        done = subprocess.run(
            command(folder, out, overrides), cwd=ROOT, capture_output=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        return out.read_bytes()

    undisturbed = results_of(tmp_path / "first")
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    environment = dict(os.environ, **{MARKER: str(stopped)})
    with (stopped / "stderr").open("w") as err:
        run = subprocess.Popen(
            command(stopped / "run", out, overrides),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=environment,
            start_new_session=True,
        )
    playing(run)
    assert send(run, signal.SIGTERM, group=False) == 143
    assert not survivors(stopped)
    line = (stopped / "stderr").read_text().rstrip().splitlines()[-1]
    assert re.fullmatch(r"evaluate\.py: stopped by SIGTERM after \d+ of \d+ games: .*", line)
    assert out.read_bytes() == undisturbed  # the stop wrote nothing
    assert not (stopped / "run" / "results.json").exists()
    assert results_of(tmp_path / "again") == undisturbed


def test_a_run_again_after_a_stop_gives_the_results_of_an_undisturbed_run(tmp_path):
    # Chunks of 16 games, each saved as records when done: the stop comes after the first.
    records = tmp_path / "records"
    overrides = [
        "game=tabla",
        "players=[pubeval,random]",
        "games=48",
        "seed=5",
        "workers=2",
        f"record_games={records}",
        "overwrite_records=true",  # every run the same settings, the same results.json
        "chunk_units=8",
    ]

    def first_chunk_done(run: subprocess.Popen) -> None:
        began, deadline = time.time(), time.monotonic() + 120
        while time.monotonic() < deadline:  # a record of this run's, not the first run's
            if any(p.stat().st_mtime > began for p in records.rglob("*.tapa") if p.exists()):
                return
            time.sleep(0.05)

    stop_and_run_again(tmp_path, overrides, first_chunk_done)


@pytest.mark.slow
def test_a_run_again_after_a_stop_of_a_longer_run_gives_its_undisturbed_results(tmp_path):
    overrides = ["game=tabla", "players=[pubeval,random]", "games=4000", "seed=5", "workers=2"]
    stop_and_run_again(tmp_path, overrides, lambda run: until_workers_play(run, 2))


# --- agents.evaluation.workers on its own --------------------------------------------------

SPAWN = multiprocessing.get_context("spawn")


def signal_when(condition, number: int = signal.SIGTERM) -> threading.Thread:
    """A thread that sends this process ``number`` once ``condition()`` holds."""

    def watch() -> None:
        deadline = time.monotonic() + 120
        while not condition() and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(os.getpid(), number)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def spawned_workers() -> set[int]:
    return {
        pid
        for pid in children_of(os.getpid())
        if b"spawn_main" in _read(Path(f"/proc/{pid}/cmdline"))
    }


def test_a_stop_signal_ends_the_workers_before_play_in_workers_gives_up():
    items = [(time.sleep, 600)] * 4
    seen: set[int] = set()

    def two_workers() -> bool:
        seen.update(spawned_workers())
        return len(seen) >= 2

    before = signal.getsignal(signal.SIGTERM)
    with stop_on_signals():
        watcher = signal_when(two_workers)
        with pytest.raises(Stopped) as stopped:
            play_in_workers(operator.call, items, 2, SPAWN, str)
        watcher.join()
    assert stopped.value.signal == "SIGTERM" and stopped.value.status == 143
    assert len(seen) == 2 and not (seen & spawned_workers())
    assert signal.getsignal(signal.SIGTERM) is before  # the handlers before are back


def test_signals_in_a_held_block_stop_at_its_end_as_the_first_of_them():
    before = signal.getsignal(signal.SIGINT)
    finished = False
    with stop_on_signals():
        with pytest.raises(Stopped, match="SIGINT"):
            with signals_held():
                os.kill(os.getpid(), signal.SIGINT)
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.1)  # the handlers run: neither stops the block
                finished = True
    assert finished
    assert signal.getsignal(signal.SIGINT) is before


def test_a_stop_lost_on_its_way_is_raised_again_and_found_behind_another_error():
    with stop_on_signals():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1.0)
        except Stopped as stop:  # as a compiled kernel's caller does
            lost = stop
        with pytest.raises(Stopped, match="SIGTERM"):
            check_stop()
    check_stop()  # outside stop_on_signals: nothing to raise
    try:
        raise SystemError("a result with an exception set") from lost
    except SystemError as error:
        assert stop_behind(error) is lost
    assert stop_behind(RuntimeError("a fault")) is None


def test_without_stop_on_signals_a_held_block_changes_nothing():
    before = signal.getsignal(signal.SIGINT)
    with signals_held():
        assert signal.getsignal(signal.SIGINT) is before


def test_a_worker_ends_with_its_parent_however_the_parent_ends(tmp_path):
    # The parent is killed by SIGKILL, which it cannot handle: the kernel ends its worker.
    script = (
        "import multiprocessing, operator, sys, time\n"
        "from agents.evaluation.workers import play_in_workers\n"
        "if __name__ == '__main__':\n"
        "    play_in_workers(operator.call, [(time.sleep, 600)], 1,\n"
        "                    multiprocessing.get_context('spawn'), str)\n"
    )
    environment = dict(os.environ, **{MARKER: str(tmp_path)})
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=environment)
    try:
        deadline = time.monotonic() + 120
        while len(processes_of(tmp_path)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)  # the parent, its worker and the resource tracker
        time.sleep(1.0)  # the worker has begun its item
        assert len(processes_of(tmp_path)) >= 3
    finally:
        parent.kill()
        parent.wait()
    left = survivors(tmp_path)
    end(left)
    assert not left
