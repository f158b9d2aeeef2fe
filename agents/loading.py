"""``load_player(spec)``: a player from a built-in name or from the path of a bot file."""

from __future__ import annotations

import zipfile
from pathlib import Path

from .players import Player, RandomPlayer

BUILTIN_NAMES = ("random", "offensive", "defensive", "adaptive")
FILE_FORMAT_KEY = "format"


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
    a checkpoint or an exported bot file; a :class:`Player` is returned as it is. Raises
    :class:`PlayerSpecError` (a ``ValueError``) for an unknown name, and for a file that is
    missing, corrupt or not a tapa-rl bot, naming the file and the problem.
    """
    if isinstance(spec, Player):
        return spec
    name = str(spec).strip()
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
    try:
        import torch

        content = torch.load(path, map_location="cpu", weights_only=True)
    except (RuntimeError, EOFError, OSError, ValueError, zipfile.BadZipFile) as error:
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise PlayerSpecError(
            f"{path}: cannot be read as a checkpoint or bot file (corrupt or truncated?): {detail}"
        ) from error
    except Exception as error:  # unpickling refused: not plain tensors and containers
        raise PlayerSpecError(
            f"{path}: is not a tapa-rl checkpoint or bot file ({type(error).__name__})"
        ) from error
    if not isinstance(content, dict) or FILE_FORMAT_KEY not in content:
        raise PlayerSpecError(
            f"{path}: is not a tapa-rl checkpoint or bot file (no {FILE_FORMAT_KEY!r} field)"
        )
    raise PlayerSpecError(
        f"{path}: holds format {content[FILE_FORMAT_KEY]!r}, which this version of tapa-rl "
        "cannot load"
    )
