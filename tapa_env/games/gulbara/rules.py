"""Gulbara's rule choices where the sources differ (docs/rules.md, G1-G10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..protocol import RuleFlags


@dataclass(frozen=True)
class GulbaraRules(RuleFlags):
    """Gulbara's named rule choices; the defaults are those of docs/rules.md (G1-G10).

    Attributes:
        opening_turns_each_side: doubles play as in backgammon in each side's own first three
            turns (G5). ``False``: in the game's first three turns, both sides' together.
        unplayable_to_opponent: once a climbing double has begun, the numbers its roller
            cannot play (the rest of that double, then the higher ones) pass to the opponent,
            who plays them before its own roll, double by double, losing what it cannot play
            (G6). ``False``: they are lost, with the rest of the climb.
        six_prime_needs_checker_ahead: a checker move may not leave a wall of six points in
            the opponent's path unless an opponent checker is already past it (G7).
            ``False``: walls of any length are allowed.

    >>> GulbaraRules().flags().tolist()
    [0, 1, 0]
    """

    game: ClassVar[str] = "gulbara"

    opening_turns_each_side: bool = False
    unplayable_to_opponent: bool = True
    six_prime_needs_checker_ahead: bool = False
