"""Tapa's rule choices where the sources differ (docs/rules.md, "Where the rule texts differ")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..protocol import RuleFlags


@dataclass(frozen=True)
class Rules(RuleFlags):
    """Tapa's named rule choices; the defaults are those of docs/rules.md.

    Attributes:
        pinned_blocks_bear_off: a pinned mover checker inside its home counts as home but
            blocks every bear-off until it is freed (R7). ``False``: the other checkers may be
            borne off while it stays pinned.
        mother_needs_empty_start: pinning the opponent's mother wins only once the pinner has
            no checker left on its own 24-point; until then the game goes on, and the pinner
            wins the moment its last checker leaves (R9). ``False``: pinning the mother wins
            at once.
        both_mothers_draw: both mothers pinned ends the game at once as a draw (R10).
            ``False``: the game goes on and R9 alone decides.
        win_checked_each_move: a win is checked after every single checker move, so a play
            that wins part-way stops there (R6). ``False``: the whole play is made first and
            the game is judged on the position it leaves.

    >>> Rules(both_mothers_draw=False).flags().tolist()
    [1, 1, 0, 1]
    """

    game: ClassVar[str] = "tapa"

    pinned_blocks_bear_off: bool = True
    mother_needs_empty_start: bool = True
    both_mothers_draw: bool = True
    win_checked_each_move: bool = True
