"""What plays Tapa: the player interface, heuristic bots, the arena, tournaments, and one
package per learning algorithm (``agents.td``) (docs/formats.md).

Importing this package imports no algorithm and no torch: trained bots play with numpy alone.
"""

from .arena import GameResults, play_games
from .loading import BUILTIN_NAMES, PlayerSpecError, load_player
from .players import Player, RandomPlayer

__all__ = [
    "BUILTIN_NAMES",
    "GameResults",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "load_player",
    "play_games",
]
