"""One training run per run directory: a lock that a second run on the same directory finds
held, and a refusal that names the run holding it.

``train.py`` holds ``RUN_DIR/run.lock`` (``fcntl.flock``) while it trains. Two runs writing
one directory would interleave their evaluations, duplicate their TensorBoard points and
overwrite each other's checkpoints; the second is refused at once instead. The kernel drops
the lock when its process ends, however it ends (``kill -9`` included), so a lock left
behind never blocks the next run: the file stays, holding its last holder's description.

``train.py`` takes the lock in :class:`RunLockCallback`, a Hydra callback, before Hydra
writes the run's config snapshot (``.hydra/``), so that a refused run leaves the running
one's snapshot as it was; its job takes it again (:class:`RunLock` is re-entrant within a
process), which also covers ``--multirun`` jobs, whose directories the callback does not
see in time.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import socket
import sys
import time
from pathlib import Path
from typing import IO, Any

from hydra.core.hydra_config import HydraConfig
from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf

from ..storage.files import WriteError
from .naming import adopt_earlier_name, earlier_name, run_name

LOCK_NAME = "run.lock"
"""The lock file in a run directory."""


class RunDirectoryBusy(RuntimeError):
    """Another process trains in the run directory; the message names it and what to do."""


_held: dict[Path, RunLock] = {}
"""The run directories this process holds, by lock file: taking one again is a no-op."""


class RunLock:
    """Holds a run directory's lock while in its ``with`` block; raises
    :class:`RunDirectoryBusy` when another process holds it, :class:`WriteError` when the
    lock file cannot be made (a read-only folder)."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_NAME
        self._key = self.path.resolve()
        self._file: IO[str] | None = None

    def __enter__(self) -> RunLock:
        if self._key not in _held:
            self.acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock and write who holds it (pid, host, start, command line) into it."""
        try:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            file = self.path.open("a+")  # "a": never truncate a holder's description unlocked
        except OSError as error:
            raise WriteError(self.path, error) from None
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.seek(0)
            holder = file.read()
            file.close()
            raise RunDirectoryBusy(busy_message(self.run_dir, holder)) from None
        except OSError as error:  # a file system without locks
            file.close()
            raise WriteError(self.path, error) from None
        file.truncate(0)
        file.write(json.dumps(this_process()) + "\n")
        file.flush()
        self._file = file
        _held[self._key] = self

    def release(self) -> None:
        """Let the lock go (when this object took it); the file stays."""
        if self._file is None:
            return
        _held.pop(self._key, None)
        fcntl.flock(self._file, fcntl.LOCK_UN)
        self._file.close()
        self._file = None


def this_process() -> dict:
    """What a refused run is told of the run holding the lock."""
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "command": shlex.join(sys.orig_argv),
    }


def busy_message(run_dir: Path, holder: str) -> str:
    """One line: the run directory is in use, by whom (``holder``, the lock file's content),
    and what to do."""
    try:
        who = json.loads(holder)
        command = " ".join(str(who["command"]).split())  # one line, whatever its arguments
        process = f"pid {who['pid']} on {who['host']}, started {who['started']}: {command}"
        stop = f"stop it with kill {who['pid']} (it checkpoints first)"
    except (ValueError, TypeError, KeyError):  # it has not yet written its description
        process, stop = "a process that has just started", "stop it"
    return (
        f"{run_dir} is in use by another training run ({process}); wait for it to end, "
        f"{stop}, or train in another run directory (hydra.run.dir=...)"
    )


class RunLockCallback(Callback):
    """The Hydra callback that takes a run's lock before Hydra writes into its directory
    (``hydra.callbacks`` in ``configs/train.yaml``): a refused run prints one line,
    ``<script>: error: ...``, and exits with status 2. Under ``torchrun`` rank 0 alone
    holds the lock."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.lock: RunLock | None = None

    def on_run_start(self, config: DictConfig, **kwargs: Any) -> None:
        if os.environ.get("RANK", "0") != "0":
            return
        try:
            HydraConfig.instance().set_config(config)  # as Hydra's job does, for ${hydra:...}
            run_dir = Path(str(OmegaConf.select(config, "hydra.run.dir")))
            self._adopt_earlier_name(config, run_dir)
            lock = RunLock(run_dir)
            lock.acquire()
        except RunDirectoryBusy as error:
            print(f"{self.script}: error: {error}", file=sys.stderr)
            sys.exit(2)
        except Exception:
            return  # the job takes the lock itself, and reports what stopped it here
        self.lock = lock

    def _adopt_earlier_name(self, config: DictConfig, run_dir: Path) -> None:
        """A run directory named by this run's overrides before names changed
        (:mod:`agents.runs.naming`) takes its new name, if the run directory is named after
        its overrides (not set by ``hydra.run.dir``)."""
        job = config.hydra.job
        if run_dir.name != run_name(str(job.override_dirname)):
            return
        excluded = list(job.config.override_dirname.exclude_keys)
        earlier = run_dir.parent / earlier_name(list(config.hydra.overrides.task), excluded)
        adopt_earlier_name(run_dir, earlier, self.script)

    def on_run_end(self, config: DictConfig, **kwargs: Any) -> None:
        if self.lock is not None:
            self.lock.release()
