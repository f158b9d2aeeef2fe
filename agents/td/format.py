"""The TD checkpoint's format name, and how to tell a TD checkpoint from other files without
torch (:func:`agents.runs.checkpoints.names_format`)."""

from __future__ import annotations

from pathlib import Path

from ..runs.checkpoints import names_format

FORMAT = "tapa-rl/td-checkpoint"
"""The ``format`` field of every TD checkpoint."""


def is_td_checkpoint(path: Path | str) -> bool:
    """Whether ``path`` looks like a TD checkpoint: a ``torch.save`` archive whose pickle names
    :data:`FORMAT`. Never raises: ``False`` for PPO checkpoints and anything unreadable."""
    return names_format(path, FORMAT)
