"""Fevga's results (F9): a race to bear off; a mars scores 2 unless ``single_win_only``."""

from __future__ import annotations

import numpy as np

from ..race_results import race_outcomes
from .rules import FevgaRules


def outcomes(rows: np.ndarray, rules: FevgaRules) -> tuple[np.ndarray, np.ndarray]:
    """``(finished, value)`` of checked ``(B, ROW_WIDTH)`` rows, each in its row's frame: 1
    point, 2 for a mars (1 under ``single_win_only``)."""
    finished, value = race_outcomes(rows, bar=False)
    if rules.single_win_only:
        value = np.sign(value).astype(value.dtype)
    return finished, value
