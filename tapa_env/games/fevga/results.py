"""Fevga's results (F9): a race to bear off."""

from __future__ import annotations

import numpy as np

from ..race_results import race_outcomes
from .rules import FevgaRules


def outcomes(rows: np.ndarray, rules: FevgaRules) -> tuple[np.ndarray, np.ndarray]:
    """``(finished, value)`` of checked ``(B, ROW_WIDTH)`` rows, each in its row's frame: 1
    point, 2 for a mars."""
    return race_outcomes(rows, bar=False)
