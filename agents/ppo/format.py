"""The PPO checkpoint's format name, and how to tell a PPO checkpoint from other files without
torch (:func:`agents.runs.checkpoints.names_format`)."""

from __future__ import annotations

from pathlib import Path

from ..runs.checkpoints import names_format

FORMAT = "tapa-rl/ppo-checkpoint"
"""The ``format`` field of every PPO checkpoint."""


def is_ppo_checkpoint(path: Path | str) -> bool:
    """Whether ``path`` looks like a PPO checkpoint: a ``torch.save`` archive whose pickle
    names :data:`FORMAT`. Never raises: ``False`` for TD checkpoints, bot files and anything
    unreadable."""
    return names_format(path, FORMAT)
