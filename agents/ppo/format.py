"""The PPO checkpoint's format name, and how to tell a PPO checkpoint from other files by
reading only the small pickle inside the archive ``torch.save`` wrote, without torch."""

from __future__ import annotations

import zipfile
from pathlib import Path

from ..files import ZIP_MAGIC

FORMAT = "tapa-rl/ppo-checkpoint"
"""The ``format`` field of every PPO checkpoint."""


def is_ppo_checkpoint(path: Path | str) -> bool:
    """Whether ``path`` looks like a PPO checkpoint: a ``torch.save`` archive whose pickle
    names :data:`FORMAT`. Never raises: ``False`` for TD checkpoints, bot files and anything
    unreadable; never opens anything but a regular file (a named pipe would block)."""
    try:
        if not Path(path).is_file():
            return False
        with open(path, "rb") as file:
            if file.read(len(ZIP_MAGIC)) != ZIP_MAGIC:
                return False
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith("/data.pkl") or n == "data.pkl"]
            if not names:
                return False
            with archive.open(names[0]) as pickled:
                return FORMAT.encode() in pickled.read(1 << 16)
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError):
        return False
