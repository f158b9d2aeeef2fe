"""The registry of matches: the games a match plays in turn, its usual length, who starts.

A match is a value here, like a game: its name, its games (a game's name or a preset's, such
as the Greek ``portes``) in the order they are played, round and round, and its length by
default. Every match plays the same way (docs/rules.md, M1-M4, played by ``agents.match``):
one die each decides the first game's starter, then the winner of a game starts the next; a
game scores 1 or 2; the first side to the length wins.

>>> from tapa_env.games.matches import MATCHES, match
>>> sorted(MATCHES)
['tabla', 'tavli']
>>> match("tavli").order, match("tavli").length
(('portes', 'plakoto', 'fevga'), 7)
"""

from __future__ import annotations

from dataclasses import dataclass

from . import game


@dataclass(frozen=True)
class Match:
    """A match of the registry.

    Attributes:
        name: its name on the command line (``match_games=tavli``) and in files.
        title: its name in a sentence.
        order: the games it plays in turn, each a game's or a preset's name.
        length: the points that win it unless another length is asked for.
        lengths: the lengths its sources name, for messages.
    """

    name: str
    title: str
    order: tuple[str, ...]
    length: int
    lengths: str

    def __post_init__(self) -> None:
        for name in self.order:
            game(name)  # an unknown game or preset stops the registry from loading


MATCHES: dict[str, Match] = {
    "tabla": Match(
        name="tabla",
        title="the Bulgarian tabla match",
        order=("tabla", "gulbara", "tapa"),
        length=7,
        lengths="7 in Bulgaria",
    ),
    "tavli": Match(
        name="tavli",
        title="the Greek tavli match",
        order=("portes", "plakoto", "fevga"),
        length=7,
        lengths="3, 5 or 7 in Greece",
    ),
}
"""Every registered match, by name: the first is the default."""
DEFAULT_MATCH_NAME = "tabla"
"""The match played when none is named (``match_length=7`` alone)."""


def match(name: str) -> Match:
    """The :class:`Match` called ``name``; a ``ValueError`` names the matches otherwise."""
    if not isinstance(name, str) or name not in MATCHES:
        raise ValueError(f"match_games must be one of {', '.join(MATCHES)}, got {name!r}")
    return MATCHES[name]
