"""PPO policies from their checkpoints, for :func:`agents.load_player`.

Telling a PPO checkpoint from other files reads only the small pickle inside the archive
``torch.save`` wrote, without torch: ``load_player`` asks every algorithm's reader, and a
numpy-only bot file must not cost a torch import.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from tapa_env.rules import Rules

from ..files import ZIP_MAGIC, PlayerSpecError

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


def recognises(path: Path) -> bool:
    """Whether ``path`` is a PPO checkpoint (:func:`is_ppo_checkpoint`)."""
    return is_ppo_checkpoint(path)


def load(path: Path, rules: Rules, ply: int = 1):
    """The greedy policy of a PPO checkpoint (a :class:`agents.ppo.player.PPOPlayer`) to
    play under ``rules``; a policy trained under other rules is refused. A policy chooses
    its moves itself, so it plays 1-ply only."""
    if ply != 1:
        raise PlayerSpecError(
            f"{path}@{ply}ply: a PPO policy chooses its moves itself and has no {ply}-ply "
            "search; name the file without @ply"
        )
    from .checkpoint import read_ppo_player  # torch, only for a PPO checkpoint

    return read_ppo_player(path, rules=rules, name=path.stem)
