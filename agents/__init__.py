"""What plays Tapa: heuristic bots, the arena, and tournaments (docs/formats.md)."""

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
