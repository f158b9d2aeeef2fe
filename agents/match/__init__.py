"""The tabla match (docs/rules.md M1-M4): Tabla, Gulbara and Tapa in turn to a number of
points; its state, the match equity table, players that play to the score, match sides and
the match arena."""

from .arena import MatchResults, play_matches
from .equity import MatchEquity
from .player import MatchPlayer, plays_to_score
from .rules import MatchRules
from .sides import MatchSide, load_side
from .state import MatchState

__all__ = [
    "MatchEquity",
    "MatchPlayer",
    "MatchResults",
    "MatchRules",
    "MatchSide",
    "MatchState",
    "load_side",
    "play_matches",
    "plays_to_score",
]
