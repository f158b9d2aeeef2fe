"""Players of one's own as docs/bots.md shows them, module-level classes that
``load_player("tests.choosing_players:Racer")`` imports (from the repository's folder) and
``evaluate.py players=[tests.choosing_players:Racer,...]`` plays, in every game.

Each asks nothing but ``choose(position, dice)`` and takes no rules: the position it is
given knows its game, and ``legal_afterstates`` plays by that game's rules.
"""

from __future__ import annotations

from agents import Player
from tapa_env import Position, legal_afterstates


def pips(position: Position) -> int:
    """The mover's pip count (a checker on point p has p pips to go)."""
    return sum(point * count for point, count in enumerate(position.own, start=1))


class Racer:
    """No :class:`agents.Player`: the play that leaves the fewest pips of its own."""

    def choose(self, position: Position, dice: tuple[int, int]) -> Position:
        return min(legal_afterstates(position, dice), key=pips)


class Runner(Player):
    """A :class:`agents.Player` that implements ``choose`` only: the last legal play. It
    keeps the games of the positions it was given (``games_seen``)."""

    games_seen: set[str] = set()

    def choose(self, position: Position, dice: tuple[int, int]) -> Position:
        Runner.games_seen.add(position.game)
        return legal_afterstates(position, dice)[-1]
