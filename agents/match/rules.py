"""The rules of a match (R11, docs/rules.md "The match"), as flags where the sources differ.

The matches are values of the registry (:mod:`tapa_env.games.matches`): the Bulgarian tabla
match plays Tabla, then Gulbara, then Tapa, and round again, to 7 points; the Greek tavli
match plays Portes, Plakoto and Fevga (the first two the Greek names of Tabla and Tapa) to 7
too (3 or 5 on request).
At the start each side throws one die and the higher starts (a tie throws again); after
that the winner of the last game starts the next. A game scores its points (1 or 2: a match
plays no triple, M2; only Tapa can end drawn, with none) and the first side to reach the
match's length, at most :data:`MAX_LENGTH`, wins it.

>>> rules = MatchRules(length=5)
>>> [rules.game(number) for number in range(4)]
['tabla', 'gulbara', 'tapa', 'tabla']
>>> tavli = match_rules("tavli", length=5)
>>> tavli.order, tavli.name, [tavli.title(number) for number in range(3)]
(('tabla', 'tapa', 'fevga'), 'tavli', ['Portes', 'Plakoto', 'Fevga'])
"""

from __future__ import annotations

from dataclasses import dataclass

from tapa_env.games import UnknownGameError, all_games, game, rules_of_preset
from tapa_env.games.matches import DEFAULT_MATCH_NAME, MATCHES, match
from tapa_env.rules import GAMES, default_rules

from ..errors import MatchError

ORDER = MATCHES[DEFAULT_MATCH_NAME].order
"""The Bulgarian order of the three games (M1)."""
DRAW_STARTERS = ("throw", "same", "other")
"""Who starts the game after a drawn Tapa game (R10), which no source says: ``throw`` (the
default: both throw one die, as at the match's start, since there is no winner to start),
``same`` (the starter of the drawn game again) or ``other`` (the other side)."""
DRAWN_GAMES = tuple(entry.name for entry in all_games() if 0 in entry.outcome_names)
"""The games that can end drawn, with no points (Tapa, R10: both mothers pinned); Tabla and
Gulbara always have a winner, who scores at least a point."""
MAX_POINTS = 2
"""The most a game scores in a match: a double win (a gammon, a mars, a pinned mother); a
match plays no triple (M2)."""
MAX_LENGTH = 25
"""The longest match played: the sources name matches of 3, 5 and 7 points (7 in Bulgaria),
and backgammon's longest tournament matches go to 25. The match equity table covers every
length up to it at once (:data:`agents.match.equity.MAX_AWAY`)."""
LENGTHS = f"1 to {MAX_LENGTH}; the sources name 3, 5 and 7 (7 in Bulgaria)"


def _game_of(name: str) -> str:
    """The game a name of a match's order plays: a game's own name, or a preset's game when the
    preset plays that game's default rules (as the Greek Portes and Plakoto do); a match plays
    every game under its defaults (M2)."""
    entry = game(name)
    if rules_of_preset(name) != default_rules(entry.name):
        raise MatchError(
            f"{name} plays {entry.name} under other rules than its defaults; a match plays each "
            "game under its default rules"
        )
    return entry.name


@dataclass(frozen=True)
class MatchRules:
    """How a tabla match is played.

    Attributes:
        length: the points that win the match (M2): 7 in Bulgaria; 3, 5 or 7 in Greece;
            at most :data:`MAX_LENGTH`.
        order: the games in the order they are played, round and round (M1): Tabla,
            Gulbara, Tapa by default; any sequence of the three games (one game alone makes
            a match of that game).
        draw_starter: who starts after a drawn Tapa game (M4, :data:`DRAW_STARTERS`).
    """

    length: int = 7
    order: tuple[str, ...] = ORDER
    draw_starter: str = "throw"

    def __post_init__(self) -> None:
        length = self.length
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
            raise MatchError(
                f"match length must be a whole number from 1 to {MAX_LENGTH} (a tabla match is "
                f"played to 7 points, a tavli match to 3, 5 or 7), got {length!r}"
            )
        order = tuple(self.order) if isinstance(self.order, (list, tuple)) else None
        known = ", ".join([*GAMES, *(p for e in all_games() for p in e.presets)])
        if not order or any(not isinstance(name, str) for name in order):
            raise MatchError(
                f"match order must be a non-empty list of the games {known}, got {self.order!r}"
            )
        try:
            order = tuple(_game_of(name) for name in order)
        except UnknownGameError:
            raise MatchError(
                f"match order must be a non-empty list of the games {known}, got {self.order!r}"
            ) from None
        object.__setattr__(self, "order", order)
        if not isinstance(self.draw_starter, str) or self.draw_starter not in DRAW_STARTERS:
            raise MatchError(
                f"draw_starter must be one of {', '.join(DRAW_STARTERS)}, got {self.draw_starter!r}"
            )

    def game(self, number: int) -> str:
        """The game played as the match's game ``number`` (0 the first)."""
        return self.order[number % len(self.order)]

    @property
    def name(self) -> str:
        """The registry's match that plays this order (``tabla``, ``tavli``), or ``custom``."""
        for entry in MATCHES.values():
            if tuple(_game_of(n) for n in entry.order) == self.order:
                return entry.name
        return "custom"

    def title(self, number: int) -> str:
        """The name the match gives its game ``number``: a Greek match calls Tabla Portes and
        Tapa Plakoto."""
        if self.name in MATCHES:
            preset = MATCHES[self.name].order[number % len(self.order)]
            return preset.title()
        return game(self.game(number)).title

    def title_of(self, name: str) -> str:
        """The name the match gives the game ``name`` of its order (:meth:`title`)."""
        return self.title(self.order.index(name)) if name in self.order else game(name).title

    def decided(self, played: int) -> int:
        """How many of the match's first ``played`` games cannot have ended drawn (those not
        in :data:`DRAWN_GAMES`): each gave its winner at least a point.

        >>> MatchRules().decided(2), MatchRules().decided(3), MatchRules().decided(7)
        (2, 2, 5)
        """
        rounds, rest = divmod(played, len(self.order))
        decisive = [game not in DRAWN_GAMES for game in self.order]
        return rounds * sum(decisive) + sum(decisive[:rest])

    def to_dict(self) -> dict:
        return {"length": self.length, "order": list(self.order), "draw_starter": self.draw_starter}


DEFAULT_MATCH = MatchRules()
"""The Bulgarian match: to 7, Tabla, Gulbara, Tapa, a throw after a draw."""


def match_rules(
    games: str | None = None,
    length: int | None = None,
    order: list | tuple | None = None,
    draw_starter: str = "throw",
) -> MatchRules:
    """The rules of the registry's match ``games`` (``tabla``, the default, or ``tavli``;
    :mod:`tapa_env.games.matches`), to ``length`` points (its own when ``None``), playing
    ``order`` when given instead of its own."""
    try:
        entry = match(games if games is not None else DEFAULT_MATCH_NAME)
    except ValueError as error:
        raise MatchError(str(error)) from None
    return MatchRules(
        entry.length if length is None else length,
        tuple(entry.order if order is None else order),
        draw_starter,
    )
