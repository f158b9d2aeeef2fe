"""The rule choices where the sources differ (docs/rules.md, "Where the rule texts differ").

Every field defaults to the choice of docs/rules.md; another value plays a named variant. The move
generator and :func:`tapa_env.results` read these flags, so a variant is played and tested
with the same engine.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np


@dataclass(frozen=True)
class Rules:
    """Named rule choices; the defaults are those of docs/rules.md.

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
    """

    pinned_blocks_bear_off: bool = True
    mother_needs_empty_start: bool = True
    both_mothers_draw: bool = True
    win_checked_each_move: bool = True

    def flags(self) -> np.ndarray:
        """The flags as an ``int64`` array, in field order, for the compiled kernels."""
        return np.array([int(getattr(self, f.name)) for f in fields(self)], dtype=np.int64)

    @classmethod
    def from_mapping(cls, mapping: dict) -> Rules:
        """Rules from a mapping of flag names to booleans (a config group, say).

        Raises ``ValueError`` naming an unknown flag or a value that is not a boolean.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise ValueError(f"unknown rule flag(s) {unknown}; known flags: {sorted(known)}")
        for name, value in mapping.items():
            if not isinstance(value, bool):
                raise ValueError(f"rule flag {name!r} must be true or false, got {value!r}")
        return cls(**mapping)


DEFAULT_RULES = Rules()


def check_rules(rules: object) -> Rules:
    """Return ``rules`` if it is a :class:`Rules`; else raise ``ValueError`` saying what to pass."""
    if not isinstance(rules, Rules):
        raise ValueError(
            f"rules must be a tapa_env.Rules (such as tapa_env.DEFAULT_RULES, "
            f"Rules(both_mothers_draw=False) or Rules.from_mapping(flags)), got {rules!r}"
        )
    return rules
