"""``python -m agents.storage.upgrade FILE [--out NEW]``: bring a checkpoint or bot file
written before checksums forward.

tapa-rl refuses a file without a checksum (:mod:`agents.storage.checksums`): it cannot tell
an old file from a damaged one. This command checks everything else a loader checks (the
format and its version, the game, the encoding and its version, the rules, the network's
shape and its weights, all finite), and when the file passes it writes a copy with its
checksum beside it, ``NAME.upgraded.pt`` (``NAME.upgraded.npz`` for a bot file) or ``NEW``.
It never overwrites a file and never changes the original.

===========================================  ======  ============================================
the file                                     status  what the command does
===========================================  ======  ============================================
written before checksums, otherwise sound    0       writes the copy; one line names it
has a checksum that matches                  0       writes nothing; one line says so
damaged, foreign, not a tapa-rl file         2       writes nothing; one line on stderr says why
``NEW`` exists, or a wrong command line      2       writes nothing; one line on stderr
the copy cannot be written (a full disk)     1       writes nothing; one line on stderr
===========================================  ======  ============================================

Each algorithm's reader (:data:`agents.algorithms.ALGORITHMS`) checks its own files: the
first that recognises the file is asked ``upgrade(path)`` for an :class:`Upgrade`; the
first algorithm's reader explains a file that none recognises. The copy is read back by the
same reader before the command says it is written.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from tapa_env.games import DEFAULT_GAME

from ..errors import PlayerSpecError
from .checksums import CHECKSUM, UPGRADE_COMMAND, with_checksum
from .files import WriteError, first_line

SUFFIX = ".upgraded"
"""What the default name of the copy adds before the file's extension."""

PROGRAM = "agents.storage.upgrade"
"""How the command names itself in its one-line errors."""


@dataclass(frozen=True)
class Upgrade:
    """What an algorithm's reader makes of a file it recognises.

    ``what`` names the kind of file (``TD checkpoint``, ``TD bot file``), ``game`` the game
    it plays; ``write`` writes the checksummed copy into a binary file, ``None`` when the
    file already has a checksum that matches its content.
    """

    what: str
    game: str
    write: Callable[[BinaryIO], object] | None


class UpgradeError(PlayerSpecError):
    """A file that cannot be brought forward, or a copy that cannot be placed; one line."""


def checkpoint_upgrade(kind: Any, path: Path, what: str) -> Upgrade:
    """The :class:`Upgrade` of a ``torch.save`` checkpoint of ``kind`` (an algorithm's
    :class:`agents.runs.checkpoints.CheckpointKind`): its content is checked by
    ``kind.check`` as a loader checks it, all but a missing checksum, which the copy gets.

    Raises ``kind.error`` in one line naming the problem: a file that is not one, another
    format version, a checksum that does not match (a damaged file, not an old one), an
    unknown encoding, fields that do not build the network, weights not all finite."""
    import torch

    path = Path(path)
    content = kind.load(path)
    if not isinstance(content, dict) or content.get(CHECKSUM) is not None:
        kind.check(path, content)  # a foreign file, or one that has its checksum
        return Upgrade(what, str(content.get("game", DEFAULT_GAME)), None)
    try:
        checked = with_checksum(content)
    except (RecursionError, TypeError, ValueError, RuntimeError) as error:  # no writer's shape
        raise kind.error(f"{path}: corrupt {kind.label}: {first_line(error)}") from None
    kind.check(path, checked)  # every field but the checksum, which is now its own
    game = str(content.get("game", DEFAULT_GAME))
    return Upgrade(what, game, lambda file: torch.save(checked, file))


def default_out(path: Path) -> Path:
    """Where the copy of ``path`` goes by default: beside it, ``NAME.upgraded.EXT``."""
    return path.with_name(f"{path.stem}{SUFFIX}{path.suffix}")


def inspect_file(path: Path) -> Upgrade:
    """The :class:`Upgrade` of ``path``, by the first algorithm's reader that recognises it;
    a :class:`~agents.errors.PlayerSpecError` in one line for a file that is not a usable
    checkpoint or bot file of any."""
    from ..algorithms import ALGORITHMS

    readers = [a.bot_reader() for a in ALGORITHMS.values() if a.reader is not None]
    readers = [r for r in readers if callable(getattr(r, "upgrade", None))]
    for reader in readers:
        if reader.recognises(path):
            return reader.upgrade(path)
    return readers[0].upgrade(path)


def write_new(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path``, which must not exist, with what ``write`` writes: into a temporary
    file beside it, then linked into place, so that a file that appears meanwhile is never
    replaced and a crash leaves no half-written copy. :class:`UpgradeError` when ``path``
    exists; :class:`~agents.storage.files.WriteError` when it cannot be written."""
    buffer = io.BytesIO()
    write(buffer)
    temporary = None
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
        try:
            rest = buffer.getbuffer()
            while rest:
                rest = rest[os.write(handle, rest) :]
            os.fsync(handle)
        finally:
            os.close(handle)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise UpgradeError(_exists(path)) from None
        except OSError:  # a file system without hard links: the rename, after a last look
            if path.exists():
                raise UpgradeError(_exists(path)) from None
            os.replace(temporary, path)
    except OSError as error:
        raise WriteError(path, error) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)


def upgrade(path: Path | str, out: Path | str | None = None) -> tuple[Upgrade, Path | None]:
    """Bring the checkpoint or bot file at ``path`` forward: the :class:`Upgrade` found and
    the copy written (``out``, by default :func:`default_out`), or ``None`` when the file
    already has a matching checksum and nothing was written.

    Raises :class:`~agents.errors.PlayerSpecError` (one line) for a file that is damaged,
    foreign or not usable, :class:`UpgradeError` when the copy's path exists,
    :class:`~agents.storage.files.WriteError` when it cannot be written. The original is
    only read."""
    path = Path(path).expanduser()
    found = inspect_file(path)
    if found.write is None:
        return found, None
    target = default_out(path) if out is None else Path(out).expanduser()
    if target.is_dir():
        example = target / default_out(path).name
        raise UpgradeError(f"{target} is a directory: name the copy's file, such as {example}")
    if target.exists() or target.is_symlink():
        raise UpgradeError(_exists(target))
    if not target.parent.is_dir():
        raise UpgradeError(f"{target}: its folder {target.parent} does not exist")
    write_new(target, found.write)
    try:
        again = inspect_file(target)
    except PlayerSpecError as error:  # never: the copy holds what was checked
        target.unlink(missing_ok=True)
        raise UpgradeError(f"{target}: the copy does not read back ({error}); removed") from None
    if again.write is not None:
        target.unlink(missing_ok=True)
        raise UpgradeError(f"{target}: the copy has no checksum; removed")
    return found, target


def _exists(path: Path) -> str:
    return f"{path} already exists, and is never overwritten: name another copy with --out NEW"


def written_line(path: Path, found: Upgrade, target: Path) -> str:
    """The line that says what was written and how to use it."""
    old, new = shlex.quote(str(path)), shlex.quote(str(target))
    return (
        f"wrote {new} (the {found.what} for {found.game} of {old}, with a checksum; {old} is "
        f"unchanged): use {new} where {old} went, or put it in its place: mv {new} {old}"
    )


def parser() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog=UPGRADE_COMMAND,
        description=(
            "Bring a checkpoint (.pt) or exported bot file (.npz) written before tapa-rl "
            "gave its files checksums forward. tapa-rl refuses such a file, since it cannot "
            "tell an old file from a damaged one. This command checks everything else a "
            "loader checks (format and version, game, encoding and version, rules, the "
            "network's shape, finite weights) and writes a copy with its checksum beside "
            "the file. It never overwrites a file and never changes the original."
        ),
        epilog=(
            "Exit status: 0 when the copy was written or the file already has a valid "
            "checksum (then nothing is written); 2 for a damaged or foreign file, a copy "
            "that exists already, or a wrong command line; 1 when the copy cannot be "
            f"written. Example: {UPGRADE_COMMAND} runs/old/checkpoints/last.pt writes "
            "runs/old/checkpoints/last.upgraded.pt; move it over last.pt to resume the run."
        ),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: one line on stdout when it wrote or found nothing to do, one on
    stderr otherwise; the exit status of the module's table."""
    arguments = parser()
    arguments.add_argument("file", metavar="FILE", help="the checkpoint or bot file to upgrade")
    arguments.add_argument(
        "--out",
        metavar="NEW",
        help=(
            "where to write the copy (default: beside FILE, NAME.upgraded.pt or "
            "NAME.upgraded.npz); an existing file is refused"
        ),
    )
    options = arguments.parse_args(argv)
    path = Path(options.file).expanduser()
    try:
        found, target = upgrade(path, options.out)
    except WriteError as error:
        print(f"{PROGRAM}: error: {error}", file=sys.stderr)
        return 1
    except PlayerSpecError as error:
        print(f"{PROGRAM}: error: {first_line(error)}", file=sys.stderr)
        return 2
    if target is None:
        what = f"{found.what} for {found.game}"
        print(f"{path}: already has a valid checksum ({what}); nothing written")
    else:
        print(written_line(path, found, target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
