"""Each game's built-in bots, in one table: which a game has, its strongest, and the
opponents a training run is evaluated against when it names none.

The bots are the agents', not the rules', so the table lies here, keyed by the registry's
names (:mod:`tapa_env.games`); every other module reads it (:data:`GAME_BOTS`).

>>> GAME_BOTS["tabla"].strongest, GAME_BOTS["gulbara"].builtins
('pubeval', ('random', 'runner', 'blocker'))
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GAME_BOTS", "GameBots"]


@dataclass(frozen=True)
class GameBots:
    """A game's built-in bots.

    Attributes:
        builtins: its built-in players, ``random`` first (``pubeval`` is Tesauro's benchmark of
            backgammon, Tabla's; the others are heuristic bots, :mod:`agents.bots.heuristics`
            and :mod:`agents.bots.race_heuristics`).
        strongest: its strongest built-in bot (docs/bots.md): the terminal's opponent while no
            bot of the game is shipped.
        eval_opponents: the opponents a training run is evaluated against when it names none.
        external: players that another program gives, loaded by name where it is installed
            (``gnubg``, :mod:`agents.bots.gnubg`); never an opponent by default.
    """

    builtins: tuple[str, ...]
    strongest: str
    eval_opponents: tuple[str, ...]
    external: tuple[str, ...] = ()


GAME_BOTS: dict[str, GameBots] = {
    "tapa": GameBots(
        builtins=("random", "offensive", "defensive", "adaptive"),
        strongest="defensive",
        eval_opponents=("offensive", "defensive", "adaptive"),
    ),
    "tabla": GameBots(
        builtins=("random", "pubeval", "safe", "hitter"),
        strongest="pubeval",
        eval_opponents=("pubeval", "hitter", "safe"),
        external=("gnubg",),
    ),
    "gulbara": GameBots(
        builtins=("random", "runner", "blocker"),
        strongest="runner",
        eval_opponents=("runner", "blocker"),
    ),
    "fevga": GameBots(
        builtins=("random", "racer", "holder"),
        strongest="holder",
        eval_opponents=("racer", "holder"),
    ),
}
"""Each registered game's built-in bots, by the game's name, in the registry's order."""
