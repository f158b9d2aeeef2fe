"""The registry of games: every module of ``tapa_env`` that is not a game's own asks it.

Each game is one package here (``tapa/``, ``tabla/``, ``gulbara/``, ``fevga/``) that defines a
:class:`Game` (:mod:`tapa_env.games.protocol`): its name, its integer code, its rules class
and presets, what its board has, its texts, and the modules of its package that hold its
row checks, position format, encodings, results, notation and board lines. Reading the
registry imports no numba: a game's modules load on first use.

>>> from tapa_env.games import GAMES, game, game_of
>>> GAMES
('tapa', 'tabla', 'gulbara', 'fevga')
>>> game("tabla").code, game("tabla").env_id, game("tabla").bar
(1, 'Tabla-v0', True)
>>> game_of(game("gulbara").rules()).name
'gulbara'

The API:

* :data:`GAMES`: the names, in code order; :data:`DEFAULT_GAME`: the first, every API's
  default.
* :func:`game` (a name or a preset's name, or a :class:`Game`) -> :class:`Game`;
  :func:`game_of_code`; :func:`all_games`.
* :func:`game_of` (rules) and :func:`game_of_position` (a position, its dict or its key).
* :func:`rules_of_preset` (a game's or a preset's name) -> rules.
* :class:`UnknownGameError`: a ``ValueError`` naming the games.
"""

from __future__ import annotations

from collections.abc import Mapping

from .fevga import GAME as _FEVGA
from .gulbara import GAME as _GULBARA
from .protocol import Game, RuleFlags
from .tabla import GAME as _TABLA
from .tapa import GAME as _TAPA

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "Game",
    "RuleFlags",
    "UnknownGameError",
    "all_games",
    "game",
    "game_of",
    "game_of_code",
    "game_of_position",
    "rules_of_preset",
]

_REGISTERED: tuple[Game, ...] = (_TAPA, _TABLA, _GULBARA, _FEVGA)
_BY_NAME: dict[str, Game] = {entry.name: entry for entry in _REGISTERED}
_PRESETS: dict[str, Game] = {
    preset: entry for entry in _REGISTERED for preset in entry.presets
}  # fmt: skip

GAMES: tuple[str, ...] = tuple(entry.name for entry in _REGISTERED)
"""The names of the registered games, in code order; the first is every API's default."""
DEFAULT_GAME: str = GAMES[0]
"""The game every API plays when none is named."""

if [entry.code for entry in _REGISTERED] != list(range(len(_REGISTERED))):
    raise RuntimeError("the games' codes must be 0, 1, 2, ... in registry order")
if set(_PRESETS) & set(_BY_NAME):
    raise RuntimeError("a preset may not take the name of a game")


class UnknownGameError(ValueError):
    """A name that is neither a registered game nor a preset of one."""


def all_games() -> tuple[Game, ...]:
    """Every registered :class:`Game`, in code order."""
    return _REGISTERED


def game(name: str | Game) -> Game:
    """The :class:`Game` called ``name`` (a preset's name gives its game; a :class:`Game` is
    returned as it is); an :class:`UnknownGameError` names the games otherwise."""
    if isinstance(name, Game):
        return name
    if isinstance(name, str):
        found = _BY_NAME.get(name) or _PRESETS.get(name)
        if found is not None:
            return found
    known = ", ".join([*GAMES, *_PRESETS])
    raise UnknownGameError(f"game must be one of {known}, got {name!r}")


def game_of_code(code: int) -> Game:
    """The :class:`Game` whose kernels switch on ``code``."""
    if not isinstance(code, int) or not 0 <= code < len(_REGISTERED):
        raise UnknownGameError(f"a game's code is 0 to {len(_REGISTERED) - 1}, got {code!r}")
    return _REGISTERED[code]


def game_of(rules: object) -> Game:
    """The :class:`Game` that ``rules`` (a game's rules value or class) play."""
    name = getattr(rules, "game", None)
    entry = _BY_NAME.get(name) if isinstance(name, str) else None
    if entry is None or not isinstance(rules, (entry.rules, type)):
        raise UnknownGameError(f"{rules!r} are no registered game's rules")
    return entry


def game_of_position(position: object) -> Game:
    """The :class:`Game` of a position: a :class:`tapa_env.Position`, its interchange dict
    (``"game"``, absent for the default game) or its key (the game's prefix)."""
    if isinstance(position, Mapping):
        return game(position.get("game", DEFAULT_GAME))
    if isinstance(position, str):
        head, slash, _ = position.strip().partition("/")
        return game(head) if slash else _BY_NAME[DEFAULT_GAME]
    name = getattr(position, "game", None)
    if isinstance(name, str):
        return game(name)
    raise UnknownGameError(f"{position!r} is no position of a registered game")


def rules_of_preset(name: str) -> RuleFlags:
    """The rules played under ``name``: a game's own name plays every flag at its default,
    a preset's name its flags."""
    return game(name).preset(name)
