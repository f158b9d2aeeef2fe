"""One run per run directory, and what a run leaves there when a write fails or a kill
interrupts one: the lock, one-line write errors with the previous checkpoint intact, the
removal of half-written files, and a ``bot.pt`` never left behind ``last.pt``."""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from entry_scripts import ROOT, load_script
from small_runs import ALGORITHMS, GAMES_KEY, td_config

from agents.ppo import checkpoint as ppo_checkpoint
from agents.runs.lock import LOCK_NAME, RunDirectoryBusy, RunLock, busy_message
from agents.runs.logs import TensorBoardLogger
from agents.storage import files
from agents.storage.files import WriteError, write_atomically
from agents.td import checkpoint as td_checkpoint
from agents.td.training import train as train_td

CHECKPOINTS = {"td": td_checkpoint, "ppo": ppo_checkpoint}
TINY = [
    "parallel_games=16",
    "eval_every=25",
    "eval_games=10",
    "eval_opponents=[random]",
    "log_every=25",
    "learner.round_samples=256",
    "learner.batch_size=64",
    "progress=false",
]


def run_train(run_dir: Path, *overrides: str, wait: bool = True, **popen):
    command = [sys.executable, "train.py", f"hydra.run.dir={run_dir}", *TINY, *overrides]
    if not wait:
        return subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, **popen)


def wait_for(condition, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def leftovers(run_dir: Path) -> list[str]:
    return sorted(p.name for p in run_dir.rglob("*.tmp"))


# --- The lock ---------------------------------------------------------------------------


def hold_lock(run_dir: Path) -> subprocess.Popen:
    """Another process that holds the run directory's lock until it is killed."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom agents.runs.lock import RunLock\n"
            "RunLock(sys.argv[1]).acquire()\nprint('held', flush=True)\ntime.sleep(600)",
            str(run_dir),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "held\n"
    return holder


def test_a_lock_held_by_another_process_is_refused_naming_it_until_that_process_dies(tmp_path):
    holder = hold_lock(tmp_path / "run")
    try:
        with pytest.raises(RunDirectoryBusy) as refused:
            RunLock(tmp_path / "run").acquire()
        message = str(refused.value)
        assert f"pid {holder.pid} on " in message and "agents.runs.lock" in message
        assert f"{tmp_path / 'run'} is in use" in message and "\n" not in message
    finally:
        holder.kill()  # SIGKILL: the kernel drops the lock; the file stays
        holder.wait()
    assert (tmp_path / "run" / LOCK_NAME).exists()
    with RunLock(tmp_path / "run"), RunLock(tmp_path / "run"):  # and this process may nest
        assert str(os.getpid()) in (tmp_path / "run" / LOCK_NAME).read_text()
    with RunLock(tmp_path / "run"):  # let go by both
        pass


def test_a_lock_whose_holder_has_not_yet_said_who_it_is_is_still_refused_in_one_line():
    message = busy_message(Path("runs/x"), "")
    assert message.startswith("runs/x is in use by another training run")
    assert "\n" not in message


def test_a_second_train_py_on_a_running_directory_is_refused_and_a_killed_one_blocks_nothing(
    tmp_path,
):
    run_dir = tmp_path / "run"
    first = run_train(run_dir, "total_games=100000", "checkpoint_every=0", "seed=7", wait=False)
    try:
        wait_for(lambda: (run_dir / "evaluations.jsonl").exists(), first)
        snapshot = (run_dir / ".hydra" / "config.yaml").read_text()
        (run_dir / "checkpoints").mkdir(exist_ok=True)
        leftover = run_dir / "checkpoints" / ".last.pt.k1ll3d.tmp"
        leftover.write_bytes(b"half a checkpoint")

        second = run_train(run_dir, "total_games=100", "seed=8")
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert lines[0].startswith(f"train.py: error: {run_dir} is in use by another training run")
        assert f"pid {first.pid} on " in lines[0] and "seed=7" in lines[0]
        assert (run_dir / ".hydra" / "config.yaml").read_text() == snapshot  # seed=7's
        assert leftover.exists()  # only the run holding the lock tidies
    finally:
        first.kill()  # kill -9, before its first checkpoint
        first.communicate()
    again = run_train(run_dir, "total_games=50", "seed=7")
    assert again.returncode == 0, again.stderr
    assert "trained at" in again.stdout
    assert not leftover.exists()


# --- Write errors -------------------------------------------------------------------------


def fail_writes_to(monkeypatch, name: str, error: int = errno.ENOSPC) -> None:
    """Make every write into a temporary file for ``name`` fail with ``error`` after its
    first bytes, as a disk that fills up does."""
    real_write = os.write

    def write(fd: int, data) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").split("/")[-1].startswith(f".{name}."):
            if os.fstat(fd).st_size:
                raise OSError(error, os.strerror(error))
            return real_write(fd, bytes(data[:100]))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_a_failed_write_names_the_file_and_the_cause_and_keeps_the_previous_file(
    tmp_path, monkeypatch
):
    path = tmp_path / "folder" / "file.bin"
    write_atomically(path, lambda file: file.write(b"before"))
    fail_writes_to(monkeypatch, "file.bin")
    with pytest.raises(WriteError) as failed:
        write_atomically(path, lambda file: file.write(b"after" * 1000))
    assert str(failed.value) == f"cannot write {path}: No space left on device"
    assert failed.value.errno == errno.ENOSPC
    assert path.read_bytes() == b"before" and leftovers(tmp_path) == []


@pytest.mark.parametrize("name", ["last.pt", "bot.pt", "evaluations.jsonl"])
def test_a_run_whose_write_fails_stops_with_the_file_named_and_the_next_start_catches_up(
    tmp_path, monkeypatch, name
):
    run_dir = tmp_path / "run"
    train_td(td_config(total_games=50), run_dir)
    last = run_dir / "checkpoints" / "last.pt"
    good = last.read_bytes()
    with monkeypatch.context() as patch:
        fail_writes_to(patch, name)
        with pytest.raises(WriteError) as failed:
            train_td(td_config(total_games=100), run_dir)
    where = run_dir if name == "evaluations.jsonl" else run_dir / "checkpoints"
    assert str(failed.value) == f"cannot write {where / name}: No space left on device"
    assert leftovers(run_dir) == []
    if name == "last.pt":
        assert last.read_bytes() == good
    bot = run_dir / "checkpoints" / "bot.pt"
    if name == "bot.pt":  # last.pt went ahead, bot.pt stayed behind
        assert td_checkpoint.read(bot)["games_trained"] < td_checkpoint.read(last)["games_trained"]
    resumed = train_td(td_config(total_games=100), run_dir)
    assert resumed.status == "finished"
    assert td_checkpoint.read(bot)["games_trained"] == resumed.games


def test_a_read_only_checkpoint_folder_is_one_error_and_the_checkpoint_stays(tmp_path, monkeypatch):
    run_dir = tmp_path / "run"
    train_td(td_config(total_games=50), run_dir)
    folder = run_dir / "checkpoints"
    good = (folder / "last.pt").read_bytes()
    folder.chmod(0o555)
    try:
        try:
            (folder / "probe").touch()
        except PermissionError:
            cause = "Permission denied"
        else:  # root writes anyway: refuse as a read-only file system would
            (folder / "probe").unlink()
            cause = os.strerror(errno.EROFS)
            mkstemp = files.tempfile.mkstemp

            def read_only(*args, dir, **kwargs):
                if Path(dir) == folder:
                    raise OSError(errno.EROFS, cause)
                return mkstemp(*args, dir=dir, **kwargs)

            monkeypatch.setattr(files.tempfile, "mkstemp", read_only)
        with pytest.raises(WriteError) as failed:
            train_td(td_config(total_games=100), run_dir)
    finally:
        folder.chmod(0o755)
    assert str(failed.value) == f"cannot write {folder / 'last.pt'}: {cause}"
    assert (folder / "last.pt").read_bytes() == good


def test_a_file_size_limit_ends_train_py_with_one_line_and_the_checkpoint_intact(tmp_path):
    run_dir = tmp_path / "run"
    done = run_train(run_dir, "total_games=50")
    assert done.returncode == 0, done.stderr
    last = run_dir / "checkpoints" / "last.pt"
    good = last.read_bytes()
    limit = len(good) // 2  # under a checkpoint, above every other file of the run
    assert (run_dir / "checkpoints" / "bot.pt").stat().st_size < limit

    def limit_file_size() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    failed = run_train(run_dir, "total_games=100", preexec_fn=limit_file_size)
    assert failed.returncode == 1
    assert failed.stderr.strip() == f"train.py: error: cannot write {last}: File too large"
    assert last.read_bytes() == good
    assert leftovers(run_dir) == []


def test_a_learning_curve_that_cannot_be_drawn_is_a_write_error(tmp_path):
    run_dir = tmp_path / "run"
    train_td(td_config(total_games=25), run_dir)
    (run_dir / "learning_curve.png").mkdir()  # in the way, even for root
    with pytest.raises(WriteError) as failed:
        load_script("train").draw_curve(run_dir)
    assert str(failed.value).startswith(f"cannot write {run_dir / 'learning_curve.png'}: ")


def test_tensorboard_events_that_cannot_be_written_are_a_write_error(tmp_path):
    logger = TensorBoardLogger(tmp_path / "run")
    logger.scalars(0, {"train/loss": 1.0})
    events = next((tmp_path / "run").glob("events.out.tfevents.*"))
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (events.stat().st_size + 200, hard))
    try:
        with pytest.raises(WriteError) as failed:
            for step in range(1, 100):
                logger.scalars(step, {"train/loss": 1.0, "train/td_error": 0.5})
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert str(failed.value) == f"cannot write {events}: File too large"
    with contextlib.suppress(WriteError):
        logger.close()


# --- What a killed run leaves ---------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_next_start_removes_half_written_files_and_nothing_else(tmp_path, algorithm):
    run_dir = tmp_path / "run"
    (run_dir / "checkpoints").mkdir(parents=True)
    for name in ("checkpoints/.last.pt.a1.tmp", "checkpoints/.bot.pt.b2.tmp"):
        (run_dir / name).write_bytes(b"PK\x03\x04 cut short")
    (run_dir / ".evaluations.jsonl.c3.tmp").write_text('{"games_trained": 0')
    (run_dir / "checkpoints" / "notes.tmp").write_text("the user's")
    train, config = ALGORITHMS[algorithm]
    train(config(total_games=config().total_games // 4), run_dir)
    assert leftovers(run_dir) == ["notes.tmp"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_bot_file_missing_or_behind_the_checkpoint_is_rewritten_on_the_next_start(
    tmp_path, algorithm
):
    train, config = ALGORITHMS[algorithm]
    checkpoint, games = CHECKPOINTS[algorithm], GAMES_KEY[algorithm]
    run_dir = tmp_path / "run"
    last, bot = run_dir / "checkpoints" / "last.pt", run_dir / "checkpoints" / "bot.pt"
    total = config().total_games
    train(config(total_games=total // 2), run_dir)
    shutil.copy(bot, tmp_path / "older.pt")
    train(config(), run_dir)
    trained = checkpoint.read(last)[games]

    for kill in ("missing", "behind"):  # a kill between the writes of last.pt and bot.pt
        if kill == "missing":
            bot.unlink()
        else:
            shutil.copy(tmp_path / "older.pt", bot)
            assert checkpoint.read(bot)[games] < trained
        assert train(config(), run_dir).status == "complete"
        content = checkpoint.read(bot)
        assert content[games] == trained and "training" not in content
        expected = checkpoint.read(last)["weights"]
        assert all((content["weights"][k] == expected[k]).all() for k in expected)
