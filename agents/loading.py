"""``load_player(spec)``: a player from a built-in name or from the path of a bot file."""

from __future__ import annotations

import pickle
import re
import warnings
from pathlib import Path

from .players import Player, RandomPlayer

BUILTIN_NAMES = ("random", "offensive", "defensive", "adaptive")
FILE_FORMAT_KEY = "format"
_ZIP_MAGIC = b"PK\x03\x04"  # the first bytes of a file torch.save wrote


class PlayerSpecError(ValueError):
    """A player name or path that names no player, or a file that holds no bot."""


def _builtin(name: str) -> Player:
    if name == "random":
        return RandomPlayer()
    from .heuristics import HEURISTIC_PLAYERS

    return HEURISTIC_PLAYERS[name]()


def load_player(spec: str | Path | Player) -> Player:
    """The player named by ``spec`` (docs/formats.md).

    ``spec`` is one of ``random``, ``offensive``, ``defensive``, ``adaptive``, or the path of
    a checkpoint or an exported bot file (leading and trailing spaces ignored); a
    :class:`Player` is returned as it is. Raises :class:`PlayerSpecError` (a ``ValueError``)
    with a one-line message for an empty or unknown name, and for a file that is missing,
    corrupt or not a tapa-rl bot, naming the file and the problem.
    """
    if isinstance(spec, Player):
        return spec
    name = str(spec).strip()
    if not name:
        raise PlayerSpecError(
            f"empty player name: use one of {', '.join(BUILTIN_NAMES)}, "
            "or the path of a checkpoint or exported bot file"
        )
    if name in BUILTIN_NAMES:
        return _builtin(name)
    path = Path(name).expanduser()
    if path.suffix or path.exists() or "/" in name or "\\" in name:
        return _load_bot_file(path)
    raise PlayerSpecError(
        f"unknown player {name!r}: use one of {', '.join(BUILTIN_NAMES)}, "
        "or the path of a checkpoint or exported bot file"
    )


def _load_bot_file(path: Path) -> Player:
    if not path.exists():
        raise PlayerSpecError(f"{path}: no such checkpoint or bot file")
    if path.is_dir():
        raise PlayerSpecError(f"{path}: is a directory, not a checkpoint or bot file")
    if not path.is_file():
        raise PlayerSpecError(f"{path}: is not a regular file, so not a checkpoint or bot file")
    import torch

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # notes on pickle protocols
            content = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch.load has no one error type for a file it cannot read
        raise PlayerSpecError(_unreadable(path, error)) from error
    if not isinstance(content, dict) or FILE_FORMAT_KEY not in content:
        raise PlayerSpecError(
            f"{path}: is not a tapa-rl checkpoint or bot file (no {FILE_FORMAT_KEY!r} field)"
        )
    raise PlayerSpecError(
        f"{path}: holds format {content[FILE_FORMAT_KEY]!r}, which this version of tapa-rl "
        "cannot load"
    )


def _unreadable(path: Path, error: Exception) -> str:
    """One line on why ``torch.load`` could not read ``path``: naming the file and the problem."""
    if isinstance(error, OSError):
        return f"{path}: cannot be read ({error.strerror or error})"
    try:
        with path.open("rb") as file:
            head = file.read(len(_ZIP_MAGIC))
    except OSError:
        head = b""
    if not head:
        return f"{path}: is empty, not a checkpoint or bot file"
    if head != _ZIP_MAGIC:  # torch.save writes a zip archive
        return f"{path}: is not a tapa-rl checkpoint or bot file (not a file torch.save wrote)"
    if isinstance(error, pickle.UnpicklingError):  # weights_only refused what it holds
        return (
            f"{path}: is not a tapa-rl checkpoint or bot file (it holds objects other than "
            "tensors and plain containers)"
        )
    # The first sentence of torch's message, less a "[enforce fail at file.cc:180] ." prefix.
    first_line = (str(error).splitlines() or [""])[0]
    detail = re.sub(r"^\[[^\]]*\][\s.]*", "", first_line).split(". ")[0].strip()
    detail = detail or type(error).__name__
    return f"{path}: cannot be read as a checkpoint or bot file (corrupt or truncated?): {detail}"
