"""The three games of the tabla match and their rule choices where the sources differ
(docs/rules.md, "Where the rule texts differ" of each game).

A game's rules are a frozen dataclass of named flags: :class:`Rules` for Tapa,
:class:`TablaRules` for Tabla, :class:`GulbaraRules` for Gulbara. Every field defaults to the
choice of docs/rules.md; another value plays a named variant. The rules value also says which
game is played (its ``game``), so the engine, the envs and the players that take a ``rules``
play that game: the move generators and :func:`tapa_env.results.outcomes` read the flags.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

import numpy as np

GAMES = ("tapa", "tabla", "gulbara")
"""The games of the Bulgarian tabla match, by name; Tapa is every API's default."""


class _Flags:
    """What every game's rules share: the flags as an array, and reading them from a mapping."""

    game: ClassVar[str]

    def flags(self) -> np.ndarray:
        """The flags as an ``int64`` array, in field order, for the compiled kernels."""
        return np.array([int(getattr(self, f.name)) for f in fields(self)], dtype=np.int64)

    @classmethod
    def from_mapping(cls, mapping: dict):
        """Rules from a mapping of flag names to booleans (a config group, say).

        Raises ``ValueError`` naming an unknown flag or a value that is not a boolean.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise ValueError(
                f"unknown rule flag(s) {unknown} for {cls.game}; known flags: {sorted(known)}"
            )
        for name, value in mapping.items():
            if not isinstance(value, bool):
                raise ValueError(f"rule flag {name!r} must be true or false, got {value!r}")
        return cls(**mapping)


@dataclass(frozen=True)
class Rules(_Flags):
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
    """

    game: ClassVar[str] = "tapa"

    pinned_blocks_bear_off: bool = True
    mother_needs_empty_start: bool = True
    both_mothers_draw: bool = True
    win_checked_each_move: bool = True


@dataclass(frozen=True)
class TablaRules(_Flags):
    """Tabla's named rule choices; the defaults are those of docs/rules.md (T1-T10).

    Attributes:
        opening_roll_played: the two single dice thrown to decide who starts are the
            starter's first roll, as in backgammon (T2). ``False``: the starter rolls both
            dice again, so the first turn may be a double.
        backgammon_triple: a loser who bore off none and still has a checker on the bar or
            in the winner's home loses 3 points (T8). ``False``: such a loss is a mars, 2.
    """

    game: ClassVar[str] = "tabla"

    opening_roll_played: bool = False
    backgammon_triple: bool = False


@dataclass(frozen=True)
class GulbaraRules(_Flags):
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
    """

    game: ClassVar[str] = "gulbara"

    opening_turns_each_side: bool = False
    unplayable_to_opponent: bool = True
    six_prime_needs_checker_ahead: bool = False


AnyRules = Rules | TablaRules | GulbaraRules
RULES_OF_GAME: dict[str, type] = {"tapa": Rules, "tabla": TablaRules, "gulbara": GulbaraRules}
DEFAULT_RULES = Rules()


def check_game(game: object) -> str:
    """Return ``game`` if it names a game of :data:`GAMES`; else a ``ValueError`` naming them."""
    if not isinstance(game, str) or game not in RULES_OF_GAME:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    return game


def default_rules(game: str = "tapa") -> AnyRules:
    """The rules of docs/rules.md for ``game`` (every flag at its default)."""
    return RULES_OF_GAME[check_game(game)]()


def check_rules(rules: object, game: str | None = None) -> AnyRules:
    """Return ``rules`` if it is a game's rules (of ``game`` when given); else a ``ValueError``
    saying what to pass."""
    if not isinstance(rules, (Rules, TablaRules, GulbaraRules)):
        raise ValueError(
            f"rules must be a tapa_env.Rules (Tapa's, such as tapa_env.DEFAULT_RULES, "
            f"Rules(both_mothers_draw=False) or Rules.from_mapping(flags)), a "
            f"tapa_env.TablaRules or a tapa_env.GulbaraRules, got {rules!r}"
        )
    if game is not None and rules.game != check_game(game):
        raise ValueError(f"rules {rules!r} are {rules.game}'s, not {game}'s")
    return rules


def rules_for(game: str | None, rules: AnyRules | None) -> AnyRules:
    """The rules to play: ``rules`` when given (checked against ``game`` when that is given
    too), else ``game``'s defaults, else Tapa's."""
    if rules is None:
        return default_rules(game if game is not None else "tapa")
    return check_rules(rules, game)
