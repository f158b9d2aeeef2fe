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
