"""Tabla's results (T8): a race to bear off, the bar counting as not borne off."""

from __future__ import annotations

import numpy as np

from ..race_results import race_outcomes
from .rules import TablaRules


def outcomes(rows: np.ndarray, rules: TablaRules) -> tuple[np.ndarray, np.ndarray]:
    """``(finished, value)`` of checked ``(B, ROW_WIDTH)`` rows, each in its row's frame: 1
    point, 2 for a mars, 3 for a backgammon under ``backgammon_triple``."""
    return race_outcomes(rows, bar=True, backgammon_triple=rules.backgammon_triple)
