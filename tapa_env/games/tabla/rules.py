"""Tabla's rule choices where the sources differ (docs/rules.md, T1-T10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..protocol import RuleFlags


@dataclass(frozen=True)
class TablaRules(RuleFlags):
    """Tabla's named rule choices; the defaults are those of docs/rules.md (T1-T10).

    Attributes:
        opening_roll_played: the two single dice thrown to decide who starts are the
            starter's first roll, as in backgammon (T2). ``False``: the starter rolls both
            dice again, so the first turn may be a double.
        backgammon_triple: a loser who bore off none and still has a checker on the bar or
            in the winner's home loses 3 points (T8). ``False``: such a loss is a mars, 2.

    >>> TablaRules(backgammon_triple=True).flags().tolist()
    [0, 1]
    """

    game: ClassVar[str] = "tabla"

    opening_roll_played: bool = False
    backgammon_triple: bool = False
