"""Tapa's turns as move sequences, for writing its plays (:mod:`tapa_env.notation`): a plain
search over single checker moves, written from the rules (R4-R7), where a move that lands on a
lone opponent checker pins it (written ``*``)."""

from __future__ import annotations

from ...layout import OPP_PINNED, OWN_COLUMNS, OWN_PINNED, PIN, POINTS
from ...position import Position
from .rules import Rules

OFF = 0
"""The point a borne-off checker moves to."""


def sequences(position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple]:
    """Every legal move sequence of ``dice`` as ``(key, moves)``: ``key`` the mover's counts
    it leaves (:func:`afterstate_key`), ``moves`` its ``(from, to, pins)`` moves."""
    return [(bytes(own), moves) for own, _, moves in Turn(position, dice, rules).sequences()]


def afterstate_key(afterstate: Position, start: Position) -> bytes:
    """What tells the afterstates of one turn apart: the mover's counts."""
    return afterstate.row[OWN_COLUMNS].tobytes()


def marked_points(afterstate: Position, start: Position) -> set[int]:
    """The points a text marks with ``*`` that tell apart plays moving the same checkers:
    none, since the mover's counts alone tell Tapa's afterstates apart."""
    return set()


class Turn:
    """What stays fixed while the mover plays (R4, R5, R7), and the search over its moves."""

    def __init__(self, position: Position, dice: tuple[int, int], rules: Rules) -> None:
        row = position.row
        self.opp = position.opp
        pins = [int(v) for v in row[PIN : PIN + POINTS]]
        # Index p is point p; index 0 is unused.
        self.open = [False] + [
            pins[i] == OPP_PINNED or (pins[i] == 0 and self.opp[i] <= 1) for i in range(POINTS)
        ]
        self.lone = [False] + [self.opp[i] == 1 and pins[i] != OWN_PINNED for i in range(POINTS)]
        self.stuck = [False] + [pins[i] == OWN_PINNED for i in range(POINTS)]
        self.own_mother_pinned = self.stuck[POINTS]
        self.bear_off_blocked = any(self.stuck) and rules.pinned_blocks_bear_off
        self.rules = rules
        first, second = dice
        self.doubles = first == second
        self.orders = [(first,) * 4] if self.doubles else [(first, second), (second, first)]
        self.larger = max(first, second)
        self.start_own = [0, *position.own]
        self.start_pinned = frozenset(position.opp_pinned)

    def moves(self, own: list[int], die: int) -> list[int]:
        """Source points (highest first) of the checkers that may move ``die`` pips."""
        sources = []
        home = not any(own[7:])
        highest = max((p for p in range(1, 7) if own[p]), default=0) if home else 0
        for point in range(POINTS, 0, -1):
            if not own[point] or self.stuck[point]:
                continue
            target = point - die
            if target >= 1:
                if self.open[target]:
                    sources.append(point)
            elif home and not self.bear_off_blocked and (target == 0 or point == highest):
                sources.append(point)
        return sources

    def step(self, own: list[int], pinned: frozenset, point: int, die: int):
        """The state after a checker moves ``die`` from ``point``: ``(own, pinned, to, pins)``."""
        own = own.copy()
        own[point] -= 1
        if not own[point] and point in pinned:
            pinned = pinned - {point}  # the last pinner left: the checker is free (R5)
        target = max(point - die, OFF)
        pins = False
        if target:
            own[target] += 1
            if self.lone[target] and target not in pinned:
                pinned = pinned | {target}
                pins = True
        return own, pinned, target, pins

    def ended(self, own: list[int], pinned: frozenset) -> bool:
        """Whether the game is over after this checker move (R8, R9, R10)."""
        if not any(own):
            return True
        if 1 in pinned:  # the opponent's mother is pinned
            if self.own_mother_pinned and self.rules.both_mothers_draw:
                return True
            return not own[POINTS] or not self.rules.mother_needs_empty_start
        return False

    def longest(self, own: list[int], pinned: frozenset, dice: tuple[int, ...]) -> int:
        """Most of ``dice`` still playable in order, as if the game went on (R6)."""
        if not dice:
            return 0
        best = 0
        for point in self.moves(own, dice[0]):
            after, after_pinned, _, _ = self.step(own, pinned, point, dice[0])
            best = max(best, 1 + self.longest(after, after_pinned, dice[1:]))
            if best == len(dice):
                break
        return best

    def sequences(self) -> list[tuple[tuple[int, ...], frozenset, tuple]]:
        """Every legal move sequence (R6) as ``(own counts, pinned, moves)``.

        Each move is ``(from, to, pins)``. A double is searched with sources that never rise,
        which reaches every afterstate, plus the out-of-order moves that end the game.
        """
        found = []  # (own, pinned, moves, length, one larger die)
        each_move = self.rules.win_checked_each_move

        def search(own, pinned, dice, moves, highest):
            # ``highest``: the highest source the next move may take (a double's order).
            level = len(moves)
            if level == len(dice):
                found.append((own, pinned, moves, level, False))
                return
            die = dice[level]
            sources = self.moves(own, die)
            in_order = [p for p in sources if p <= highest]
            for point in sources:
                after, after_pinned, target, pins = self.step(own, pinned, point, die)
                move = (point, target, pins)
                if each_move and self.ended(after, after_pinned):
                    length = level + 1 + self.longest(after, after_pinned, dice[level + 1 :])
                    larger = length == 1 and die == self.larger
                    found.append((after, after_pinned, (*moves, move), length, larger))
                elif point <= highest:
                    search(
                        after, after_pinned, dice, (*moves, move), point if self.doubles else POINTS
                    )
            if not in_order:
                larger = level == 1 and dice[0] == self.larger and not self.doubles
                found.append((own, pinned, moves, level, larger))

        for dice in self.orders:
            search(self.start_own, self.start_pinned, dice, (), POINTS)
        longest = max(entry[3] for entry in found)
        larger_only = longest == 1 and not self.doubles and any(entry[4] for entry in found)
        return [
            (tuple(own[1:]), pinned, moves)
            for own, pinned, moves, length, larger in found
            if length == longest and (larger or not larger_only)
        ]
