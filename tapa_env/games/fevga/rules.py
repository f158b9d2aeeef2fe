"""Fevga's rule choices where the sources differ (docs/rules.md, F1-F11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..protocol import RuleFlags


@dataclass(frozen=True)
class FevgaRules(RuleFlags):
    """Fevga's named rule choices; the defaults are those of docs/rules.md (F1-F11).

    Attributes:
        first_checker_past_start: the first checker frees the others once it passes the
            opponent's starting point, the mover's 11 or lower (F5). ``False``: once it
            reaches the opponent's starting quarter, the mover's 12 or lower.
        starting_quarter_at_play_end: the rule against holding all six points of the
            starting quarter is checked on a play's final position only (F6). ``False``:
            after every checker move.
        trap_means_no_move: the opponent is trapped when none of its checkers can move any
            number (F7). ``False``: when all of its checkers stand on one point with the six
            points in front of it held.
        trap_forbidden: no play may leave the opponent trapped when another play does not
            (F7). ``False``: the trap may be built, and must be opened on the next turn.
        six_prime_needs_checker_ahead: a checker move may not leave six points in a row of
            the opponent's path held unless an opponent checker is already past them (F7).
        single_win_only: every win scores 1 point, the loser's borne-off checkers none or
            not (F9, the Turkish reading). ``False``: 2 points (a mars) when the loser bore
            off none.

    >>> FevgaRules().flags().tolist()
    [0, 0, 0, 0, 0, 0]
    """

    game: ClassVar[str] = "fevga"

    first_checker_past_start: bool = False
    starting_quarter_at_play_end: bool = False
    trap_means_no_move: bool = False
    trap_forbidden: bool = False
    six_prime_needs_checker_ahead: bool = False
    single_win_only: bool = False
