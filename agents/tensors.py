"""Plain containers of tensors, the only content of the project's ``torch.save`` files, so
that they load with ``torch.load(weights_only=True)``; every algorithm's checkpoints use
these. (Imports torch; ``import agents`` does not import this module.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch


def to_tensors(value: Any) -> Any:
    """``value`` with every numpy array turned into a tensor (so that it loads weights-only)."""
    if isinstance(value, np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(value))
    if isinstance(value, dict):
        return {key: to_tensors(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_tensors(item) for item in value)
    return value


def to_arrays(value: Any) -> Any:
    """The inverse of :func:`to_tensors`: every tensor back to a numpy array."""
    if isinstance(value, torch.Tensor):
        return value.numpy()
    if isinstance(value, dict):
        return {key: to_arrays(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_arrays(item) for item in value)
    return value


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
