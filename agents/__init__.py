"""What plays Tapa: heuristic bots, trained TD bots, the arena, tournaments (docs/formats.md).

Importing this package does not import torch: trained bots play with numpy alone.
"""

from .arena import GameResults, play_games
from .loading import BUILTIN_NAMES, PlayerSpecError, load_player
from .players import Player, RandomPlayer
from .td_player import TDPlayer

__all__ = [
    "BUILTIN_NAMES",
    "GameResults",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "TDPlayer",
    "load_player",
    "play_games",
]
