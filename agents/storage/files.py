"""What the readers and writers of trained bots share: atomic writes, one-line errors, path
checks, and the refusal of a bot trained under other rules.

A write that fails (a full disk, a file-size limit, a read-only folder) raises
:class:`WriteError`, one line naming the file and the cause, and leaves the previous file whole.

Checkpoints and bot files of every algorithm (``agents/td/checkpoint.py``,
``agents/td/bot_file.py``) and :func:`agents.load_player` use these; this module imports no
other module of ``agents``, so none of them needs another's.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from tapa_env.rules import Rules

from ..errors import PlayerSpecError

ZIP_MAGIC = b"PK\x03\x04"
"""The first bytes of a zip archive: what ``torch.save`` and ``np.savez`` write."""


def first_line(error: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none): a library's
    long message cut to what a one-line error can carry."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def check_regular_file(path: Path, error: type[PlayerSpecError]) -> None:
    """Raise ``error`` naming ``path`` when it is missing, a directory or not a regular file
    (a named pipe, a device): what a reader checks before it opens a bot."""
    if not path.exists():
        raise error(f"{path}: no such checkpoint or bot file")
    if path.is_dir():
        raise error(f"{path}: is a directory, not a checkpoint or bot file")
    if not path.is_file():
        raise error(f"{path}: is not a regular file, so not a checkpoint or bot file")


def read_head(path: Path, size: int = len(ZIP_MAGIC)) -> bytes:
    """The first ``size`` bytes of ``path`` (fewer for a shorter file); raises ``OSError``."""
    with Path(path).open("rb") as file:
        return file.read(size)


class WriteError(OSError):
    """A file that could not be written; the message names it and the cause, as in
    ``cannot write runs/x/checkpoints/last.pt: No space left on device``."""

    def __init__(self, path: Path, cause: BaseException) -> None:
        strerror = getattr(cause, "strerror", None) or first_line(cause)
        super().__init__(getattr(cause, "errno", None), strerror, str(path))

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"

    def __reduce__(self):  # pickled as it was made (a process pool's worker sends it back)
        return type(self), (self.filename, OSError(self.errno, self.strerror))


def write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` with what ``write(file)`` writes into a binary file, atomically
    (:func:`write_bytes_atomically`).

    ``write`` writes into memory first: a library's own file writer (``torch.save``'s) can
    lose the cause of a failed write, which Python's ``os.write`` keeps.
    """
    buffer = io.BytesIO()
    write(buffer)
    write_bytes_atomically(path, buffer.getbuffer())


def write_bytes_atomically(path: Path, data: bytes | memoryview) -> None:
    """Write ``data`` into a temporary file beside ``path``, then rename it into place: a
    crash while writing leaves the previous file whole, and a failed write raises
    :class:`WriteError` (the temporary file removed)."""
    path = Path(path)
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
        try:
            rest = memoryview(data).cast("B")
            while rest:
                rest = rest[os.write(handle, rest) :]
            os.fsync(handle)
        finally:
            os.close(handle)
        publish(temporary, path)
    except BaseException as error:
        if temporary is not None:
            with contextlib.suppress(OSError):  # else the next start removes it
                temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise WriteError(path, error) from None
        raise


def remove_leftovers(path: Path) -> None:
    """Remove the temporary files a killed :func:`write_bytes_atomically` left beside ``path``
    (``.last.pt.*.tmp``); only the one process that writes ``path`` may call it."""
    path = Path(path)
    if path.parent.is_dir():
        for leftover in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(OSError):  # a folder it cannot change: the write says so
                leftover.unlink(missing_ok=True)


def publish(temporary: Path, path: Path) -> None:
    """Rename a finished ``temporary`` file to ``path``, readable as an ordinary new file
    would be (the temporary file is private to its owner until then)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)
    os.replace(temporary, path)


def check_trained_rules(path: Path, trained: Rules, rules: Rules | None) -> None:
    """Raise :class:`PlayerSpecError` when a bot trained under ``trained`` would play under
    other ``rules``: it would misjudge the positions where they differ. ``None`` asks for
    none in particular: the bot plays the game and rules it was trained under."""
    if rules is None or trained == rules:
        return
    if trained.game != rules.game:
        raise PlayerSpecError(
            f"{path}: a bot for {trained.game}, not for {rules.game}; it knows no other game"
        )
    differ = sorted(k for k, v in vars(rules).items() if getattr(trained, k) != v)
    trained_flags = ", ".join(f"{k}={getattr(trained, k)}" for k in differ)
    asked_flags = ", ".join(f"{k}={getattr(rules, k)}" for k in differ)
    raise PlayerSpecError(
        f"{path}: trained under other rules ({trained_flags}); it would misjudge "
        f"positions under {asked_flags}"
    )


def brief(value: Any, limit: int = 60) -> str:
    """``repr(value)`` on one line and cut to ``limit`` characters: a loaded field named in
    a one-line error, whatever a crafted file put there (a tensor's repr spans lines)."""
    return cut(repr(value), limit)


def cut(text: str, limit: int = 120) -> str:
    """``text`` on one line, cut to ``limit`` characters (``...`` marks the cut)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_exactly(value: Any, expected: str | int) -> bool:
    """Whether a loaded field is ``expected`` and of its very type: a crafted value (a
    tensor, whose ``==`` gives a tensor) is never asked for its truth."""
    return type(value) is type(expected) and value == expected
