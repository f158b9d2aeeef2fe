"""A player of your own: it pins what it can, leaves as few lone checkers as it can, and runs.

It implements only ``choose(position, dice)``; the arena asks it turn by turn:

    python evaluate.py players=[examples.custom_player:CarefulPinner,random,defensive] games=100
"""

from agents import Player
from tapa_env import DEFAULT_RULES, Position, Rules, legal_afterstates


class CarefulPinner(Player):
    """The play with the most opposing checkers pinned, then the fewest lone checkers of its
    own, then the lowest pip count of its own (a checker on point p has p pips to go)."""

    name = "careful-pinner"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules  # load_player passes the rules that evaluate.py plays under

    def choose(self, position: Position, dice: tuple[int, int]) -> Position:
        def key(after: Position) -> tuple[int, int, int]:
            lone = sum(1 for count in after.own if count == 1)
            pips = sum(point * count for point, count in enumerate(after.own, start=1))
            return (-len(after.opp_pinned), lone, pips)

        return min(legal_afterstates(position, dice, rules=self.rules), key=key)
