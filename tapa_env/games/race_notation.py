"""The move sequences of a turn of a game without pins, Tabla's or Gulbara's, for writing its
plays (:mod:`tapa_env.notation`).

A plain search over single checker moves, written from the rules (T3-T7, G3-G8): Tabla's bar
is point 25 here (written ``bar``), and a move that lands on a lone opponent checker hits it
(written ``*``); Gulbara's points with any opponent checker are closed, and under
``six_prime_needs_checker_ahead`` a move may not leave a wall of six before every opponent
checker. Only the longest plays count, and the larger die's when one die of a non-double is
all that can be played (T6). A double's moves are searched with sources that never rise (each
afterstate once), except under the wall rule, where one move may open the wall that another
would close: then in every order, as the engine searches them.
"""

from __future__ import annotations

from ..layout import BAR_POINT, CLIMB, CLIMB_DICE, OWN_BAR, POINTS
from ..position import Position
from ..rules import AnyRules
from . import game

OFF = 0
"""The point a borne-off checker moves to."""


class RaceTurn:
    """What stays fixed while the mover of a Tabla or Gulbara position plays its roll."""

    def __init__(self, position: Position, dice: tuple[int, int], rules: AnyRules) -> None:
        entry = game(position.game)
        self.bar = entry.bar
        self.opp = position.opp
        self.rules = rules
        limit = 1 if self.bar else 0  # Tabla: a lone opponent checker can be hit
        self.open = [False] + [count <= limit for count in self.opp]
        first, second = dice
        self.doubles = first == second
        count = 4
        if entry.moves_again and position.row[CLIMB] > 0:
            count = int(position.row[CLIMB_DICE])
        self.orders = [(first,) * count] if self.doubles else [(first, second), (second, first)]
        self.larger = max(first, second)
        self.start = (0, *position.own, int(position.row[OWN_BAR]) if self.bar else 0)
        self.zone = self._wall_zone() if not self.bar else 0

    def _wall_zone(self) -> int:
        """The opponent's points (its numbering, bit ``q - 1``) before its rearmost checker,
        when every opponent checker is on the board and the wall rule is played (G7)."""
        if not self.rules.six_prime_needs_checker_ahead or sum(self.opp) < 15:
            return 0
        own_numbers = [p + 13 if p <= 12 else p - 12 for p in range(1, POINTS + 1)]
        rearmost = min(q for q, n in zip(own_numbers, self.opp, strict=True) if n)
        return (1 << (rearmost - 1)) - 1

    def _walled(self, own: tuple[int, ...]) -> bool:
        held = 0
        for point in range(1, POINTS + 1):
            if own[point]:
                q = point + 12 if point <= 12 else point - 12
                held |= 1 << (q - 1)
        held &= self.zone
        return any((held >> q) & 0b111111 == 0b111111 for q in range(POINTS - 5))

    def moves(self, own: tuple[int, ...], die: int) -> list[int]:
        """Source points (25: the bar; highest first) whose checker may move ``die``."""
        if own[BAR_POINT]:
            return [BAR_POINT] if self.open[BAR_POINT - die] else []
        sources = []
        home = not any(own[7:BAR_POINT])
        highest = max((p for p in range(1, 7) if own[p]), default=0) if home else 0
        for point in range(POINTS, 0, -1):
            if not own[point]:
                continue
            target = point - die
            if (target >= 1 and self.open[target]) or (
                target < 1 and home and (target == 0 or point == highest)
            ):
                if not self.zone or not self._walled(self.step(own, point, die)[0]):
                    sources.append(point)
        return sources

    def step(self, own: tuple[int, ...], point: int, die: int):
        """``(own, to)`` after a checker moves ``die`` from ``point`` (the bar: 25)."""
        after = list(own)
        after[point] -= 1
        target = max(point - die, OFF)
        if target:
            after[target] += 1
        return tuple(after), target

    def sequences(self) -> list[tuple[tuple, tuple]]:
        """Every legal move sequence as ``(key, moves)``; each move ``(from, to, hits)``;
        ``key`` identifies the afterstate (:func:`afterstate_key`)."""
        found = []  # (own, hit points, moves, length, one larger die)

        def search(own, hit, dice, moves, highest):
            level = len(moves)
            if level == len(dice):
                found.append((own, hit, moves, level, False))
                return
            sources = [p for p in self.moves(own, dice[level]) if p <= highest]
            for point in sources:
                after, target = self.step(own, point, dice[level])
                hits = bool(target) and self.bar and self.opp[target - 1] == 1
                hits = hits and target not in hit
                search(
                    after, hit | {target} if hits else hit, dice, (*moves, (point, target, hits)),
                    point if self.doubles and not self.zone else BAR_POINT,
                )  # fmt: skip
            if not sources:
                larger = level == 1 and dice[0] == self.larger and not self.doubles
                found.append((own, hit, moves, level, larger))

        for dice in self.orders:
            search(self.start, frozenset(), dice, (), BAR_POINT)
        longest = max(entry[3] for entry in found)
        larger_only = longest == 1 and not self.doubles and any(entry[4] for entry in found)
        return [
            ((own, tuple(sorted(hit))), moves)
            for own, hit, moves, length, larger in found
            if length == longest and (larger or not larger_only)
        ]


def afterstate_key(afterstate: Position, start: Position) -> tuple:
    """What tells the afterstates of one turn apart: the mover's counts (with its bar) and
    the points where it hit, as :meth:`RaceTurn.sequences` gives them."""
    bar = int(afterstate.row[OWN_BAR]) if game(afterstate.game).bar else 0
    before, after = start.opp, afterstate.opp  # each a tuple built on every call: once
    hit = tuple(p + 1 for p in range(POINTS) if before[p] == 1 and after[p] == 0)
    return (0, *afterstate.own, bar), hit
