"""The settings of ``analyze.py``: a plain dataclass, so that ``--help`` and a mistake in the
command line are answered without loading the engine or a bot."""

from __future__ import annotations

from dataclasses import dataclass, field

from tapa_env.games import DEFAULT_GAME


def shipped_player(game: str) -> str:
    """The shipped bot of ``game``, which analyses it unless ``player=`` names another:
    ``checkpoints/<game>-td.pt``."""
    return f"checkpoints/{game}-td.pt"


DEFAULT_PLAYER = shipped_player(DEFAULT_GAME)
"""The shipped bot of the default game (Tapa's) at one ply: it values the plays and plays
the rollouts."""


@dataclass
class AnalyzeConfig:
    """Every setting of ``analyze.py``; ``python analyze.py --help`` explains them.

    A position is analysed with ``position`` and ``dice``; a recorded game with ``record``.
    """

    position: str | None = None
    """The position to analyse, mover's view: its key (``24:15|1:15|``) or its JSON."""
    dice: str | None = None
    """The roll to play in ``position``: two dice, such as ``6,5``."""
    record: str | None = None
    """A game record to analyse instead of a position (docs/game-records.md)."""
    game: str = DEFAULT_GAME
    """The game: tapa, tabla or gulbara (the config group game/, with its rules)."""
    rules: dict = field(default_factory=dict)
    """The game's rule flags (configs/game/)."""
    player: str | None = None
    """The trained bot of the game that values the plays and plays the rollouts (both
    sides); null: the game's shipped bot, ``checkpoints/<game>-td.pt``."""
    trials: int = 1296
    """Rollout games per play; 0: no rollout. A multiple of 36 balances the first rolls."""
    candidates: int = 10
    """Plays rolled out: the best this many by 2-ply; 0: every legal play."""
    truncate: int | None = None
    """Stop each rollout game after this many turns and value it by the bot; null: play on
    to the end."""
    seed: int = 0
    """Seed of the rollout dice; the same seed gives the same results."""
    workers: int = 0
    """Worker processes of the rollouts; 0 means one per core. Results do not depend on it."""
    ply: int = 2
    """Game analysis: the depth (1 or 2) that finds each decision's best play (Gulbara: 1
    until the search follows its climbing doubles)."""
    rollout: bool = False
    """Game analysis: judge each decision by rollouts instead of ``ply``."""
    out: str | None = None
    """Also write the analysis as JSON to this file."""
