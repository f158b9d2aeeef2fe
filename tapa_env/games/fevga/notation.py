"""Fevga's turns as move sequences, for writing its plays (:mod:`tapa_env.notation`).

Every sequence of single checker moves a roll allows (F4, F5, F8, and F6 and the wall after
each move where the rules check them there), in every order and of every length, tied to the
engine's legal afterstates: a sequence is a legal play when it ends on one of them and uses
as many dice as the legal plays do. The rules that judge a play by its end (F6 at the play's
end, F7's trap) are the engine's to decide; this search only finds the moves that reach them.
"""

from __future__ import annotations

from ...layout import POINTS
from ...position import Position
from ..race_notation import RaceTurn
from ..race_notation import afterstate_key as afterstate_key
from .rules import FevgaRules

_QUARTER = range(19, 25)


class FevgaTurn(RaceTurn):
    """What stays fixed while the mover of a Fevga position plays its roll."""

    def __init__(self, position: Position, dice: tuple[int, int], rules: FevgaRules) -> None:
        super().__init__(position, dice, rules)
        self.position = position
        self.dice = dice
        self.reached = 11 if rules.first_checker_past_start else 12
        self.freed = position.own_off > 0

    def moves(self, own: tuple[int, ...], die: int) -> list[int]:
        sources = super().moves(own, die)
        freed = self.freed or any(own[1 : self.reached + 1])
        if not freed and any(own[1:POINTS]):
            sources = [p for p in sources if p != POINTS]  # F5
        if not self.rules.starting_quarter_at_play_end:
            sources = [
                p for p in sources if not all(self.step(own, p, die)[0][q] for q in _QUARTER)
            ]  # F6
        return sources

    def sequences(self) -> list[tuple[tuple, tuple]]:
        """Every legal move sequence as ``(key, moves)``, each move ``(from, to, hits)``."""
        from ...game import legal_afterstates

        legal = {
            afterstate_key(after, self.position)
            for after in legal_afterstates(self.position, self.dice, rules=self.rules)
        }
        found: dict[int, list] = {}

        def search(own, dice, moves):
            key = (own, ())
            if key in legal:
                found.setdefault(len(moves), []).append((key, moves))
            if len(moves) == len(dice):
                return
            for point in self.moves(own, dice[len(moves)]):
                after, target = self.step(own, point, dice[len(moves)])
                search(after, dice, (*moves, (point, target, False)))

        for dice in self.orders:
            search(self.start, dice, ())
        if not found:
            return []
        return found[max(found)]


def sequences(position: Position, dice: tuple[int, int], rules: FevgaRules) -> list[tuple]:
    """Every legal move sequence of ``dice`` as ``(key, moves)``: ``key`` what
    :func:`afterstate_key` gives its afterstate, ``moves`` its ``(from, to, hits)`` moves."""
    return FevgaTurn(position, dice, rules).sequences()


def marked_points(afterstate: Position, start: Position) -> set[int]:
    """The points a text marks with ``*`` that tell apart plays moving the same checkers:
    none, nothing is hit."""
    return set()
