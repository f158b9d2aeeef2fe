"""A run's checkpoints, whatever its algorithm: written atomically with their checksum, read
without unpickling arbitrary objects, checked field by field, and ``bot.pt`` kept up with
``last.pt``.

A checkpoint is a ``torch.save`` file of plain containers and tensors only (read back with
``torch.load(weights_only=True)``). Every algorithm's has ``format`` and ``format_version``,
``encoding`` and ``encoding_version``, ``rules``, ``network``, ``weights``, a count of games
trained, ``config``, optionally ``training`` (what resuming needs) and ``checksum``
(:mod:`agents.storage.checksums`). A :class:`CheckpointKind` names what differs between
algorithms: the format, its version, the error type and words, and how the network is built.
"""

from __future__ import annotations

import pickle
import re
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tapa_env.encoding import GAME_ENCODINGS
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import RULES_OF_GAME, AnyRules

from ..errors import PlayerSpecError
from ..storage.checksums import CHECKSUM, checksum_problem, non_finite, with_checksum
from ..storage.files import (
    ZIP_MAGIC,
    brief,
    check_regular_file,
    cut,
    first_line,
    is_exactly,
    read_head,
    write_atomically,
)

REQUIRED = ("encoding", "encoding_version", "rules", "network", "weights")
"""The fields every checkpoint has besides its format, version and checksum."""


@dataclass(frozen=True)
class CheckpointKind:
    """One algorithm's checkpoints: what its reader checks and how its refusals read.

    ``label`` is what one is called (``checkpoint``, ``PPO checkpoint``), ``noun`` what a
    file that is not one is said not to be (``tapa-rl checkpoint or bot file``); ``games``
    is the field that counts the games trained; ``build(content)`` makes the network of the
    content (and reads its rules), raising ``ValueError``, ``TypeError``, ``LookupError``,
    ``RuntimeError`` or ``AttributeError`` for fields that do not fit. Its rules are read
    by :func:`rules_of` first.
    """

    format: str
    version: int
    error: type[PlayerSpecError]
    label: str
    noun: str
    games: str
    build: Callable[[dict], Any]

    def read(self, path: Path | str) -> dict:
        """Read and check a checkpoint of this kind; :attr:`error` names the file and the
        problem: missing, a directory, empty, truncated or corrupt, a file of another kind,
        arbitrary pickled objects (never unpickled), another format or version, a checksum
        that is missing or does not match, an unknown encoding, fields that do not build
        the network, or weights that are not all finite."""
        path = Path(path)
        content = self.load(path)
        self.check(path, content)
        return content

    def load(self, path: Path) -> Any:
        """What ``torch.load`` reads from ``path``, tensors and plain values only, not yet
        checked; :attr:`error` in one line for a file it cannot read (:meth:`unreadable`)."""
        check_regular_file(path, self.error)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # notes on pickle protocols
                import torch

                return torch.load(path, map_location="cpu", weights_only=True)
        except Exception as error:  # torch.load has no one error type for a file it cannot read
            raise self.error(self.unreadable(path, error)) from None

    def unreadable(self, path: Path, error: Exception) -> str:
        """One line on why ``torch.load`` could not read ``path``."""
        try:
            head = read_head(path)
        except OSError as unreadable:
            return f"{path}: cannot be read ({unreadable.strerror or unreadable})"
        if not head:
            return f"{path}: is empty, not a {self.noun}"
        if head != ZIP_MAGIC:  # torch.save writes a zip archive
            return f"{path}: is not a {self.noun} (not a file torch.save wrote)"
        if not holds_pickle(path):  # another zip archive, an .npz of numpy arrays among them
            return f"{path}: is not a {self.noun} (a zip archive, but not one torch.save wrote)"
        if isinstance(error, pickle.UnpicklingError):  # weights_only refused what it holds
            return (
                f"{path}: is not a {self.noun} (it holds objects other than tensors and plain "
                "containers, which are never unpickled)"
            )
        # The first sentence of torch's message, less a "[enforce fail at file.cc:180] ." prefix.
        detail = re.sub(r"^\[[^\]]*\][\s.]*", "", first_line(error)).split(". ")[0].strip()
        detail = detail or type(error).__name__
        return f"{path}: cannot be read as a {self.label} (corrupt or truncated?): {detail}"

    def check(self, path: Path, content: Any) -> None:
        """Raise :attr:`error` unless ``content`` is a checkpoint of this kind and version.

        The checksum is checked once the format and version are known to be this version's
        (a later version may checksum otherwise), before any other field is trusted."""
        if not isinstance(content, dict) or "format" not in content:
            raise self.error(f"{path}: is not a {self.noun} (no 'format' field)")
        if not is_exactly(content["format"], self.format):
            raise self.error(
                f"{path}: holds format {brief(content['format'])}, not a {self.noun} "
                f"({self.format!r})"
            )
        if not is_exactly(content.get("format_version"), self.version):
            raise self.error(
                f"{path}: {self.label} format version {brief(content.get('format_version'))}; "
                f"this version of tapa-rl reads version {self.version}"
            )
        problem = checksum_problem(content, path)
        if problem is not None:
            raise self.error(f"{path}: {problem}")
        for key in REQUIRED:
            if key not in content:
                raise self.error(f"{path}: corrupt {self.label}: no {key!r} field")
        name, game = content["encoding"], content.get("game", DEFAULT_GAME)
        known_key = isinstance(name, str) and isinstance(game, str)
        encoding = GAME_ENCODINGS.get((game, name)) if known_key else None
        if encoding is None or not is_exactly(content["encoding_version"], encoding.version):
            mine = game if game in RULES_OF_GAME else DEFAULT_GAME
            known = ", ".join(e.version for (g, _), e in GAME_ENCODINGS.items() if g == mine)
            raise self.error(
                f"{path}: made for encoding {brief(content['encoding_version'])}, which this "
                f"version of tapa-rl does not have (it has {known})"
            )
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # torch's notes on what a crafted field holds
                rules_of(content)
                self.build(content)
        except (ValueError, TypeError, LookupError, RuntimeError, AttributeError) as error:
            raise self.error(f"{path}: corrupt {self.label}: {cut(first_line(error))}") from None
        bad = non_finite(content["weights"])
        if bad is not None:
            raise self.error(f"{path}: corrupt {self.label}: weight {bad!r} is not all finite")

    def recognises(self, path: Path | str) -> bool:
        """Whether ``path`` is a checkpoint of this kind by its format (:func:`names_format`)."""
        return names_format(path, self.format)


def names_format(path: Path | str, format_name: str) -> bool:
    """Whether ``path`` is a ``torch.save`` archive whose pickle names ``format_name``, read
    without torch (an algorithm's reader asks it before it imports torch). Never raises:
    ``False`` for anything unreadable; never opens anything but a regular file (a named pipe
    would block)."""
    try:
        if not Path(path).is_file() or read_head(path) != ZIP_MAGIC:
            return False
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith("data.pkl")]
            if not names:
                return False
            with archive.open(names[0]) as pickled:
                return format_name.encode() in pickled.read(1 << 16)
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError):
        return False


def rules_of(content: dict) -> AnyRules:
    """The game and rules a checkpoint's network was trained under (a checkpoint written
    before there were other games has no ``game``: Tapa)."""
    game = content.get("game", DEFAULT_GAME)
    if game not in RULES_OF_GAME:
        raise ValueError(f"game {brief(game)} is none of {', '.join(RULES_OF_GAME)}")
    return RULES_OF_GAME[game].from_mapping(dict(content["rules"]))


def holds_pickle(path: Path) -> bool:
    """Whether the zip archive at ``path`` has the ``data.pkl`` entry of every archive
    ``torch.save`` writes (``True`` when it cannot tell: torch's reader then says why)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return any(name.endswith("/data.pkl") for name in archive.namelist())
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return True


def save(path: Path, content: dict) -> None:
    """Write ``content`` and its ``checksum`` to ``path`` atomically: a temporary file beside
    it, then a rename. A crash while writing leaves the previous file whole; a failed write
    raises :class:`agents.storage.files.WriteError`."""
    import torch

    checked = with_checksum(content)
    write_atomically(path, lambda file: torch.save(checked, file))


def slim(content: dict) -> dict:
    """A copy of a checkpoint without its ``training`` state (nor its checksum, which
    :func:`save` writes anew): small, plays, cannot resume; what ``bot.pt`` holds."""
    return {key: value for key, value in content.items() if key not in ("training", CHECKSUM)}
