"""The games' rules, their rule choices where the sources differ (docs/rules.md, "Where the
rule texts differ" of each game), read from the registry (:mod:`tapa_env.games`).

A game's rules are a frozen dataclass of named flags, defined in the game's package
(:class:`Rules` for the default game, Tapa; ``TablaRules``, ``GulbaraRules``, ... each
registered game's rules class by its name, read from this module too). Every field defaults to
the choice of docs/rules.md; another value plays a named variant. The rules value also says
which game is played (its ``game``), so the engine, the envs and the players that take a
``rules`` play that game: the move generators and :func:`tapa_env.results.outcomes` read the
flags.

>>> from tapa_env.rules import default_rules, rules_for
>>> type(default_rules("tabla")).__name__
'TablaRules'
>>> rules_for(None, None) == DEFAULT_RULES
True
"""

from __future__ import annotations

from typing import Any

from .games import DEFAULT_GAME, GAMES, RuleFlags, UnknownGameError, all_games, game, game_of

__all__ = [
    "DEFAULT_RULES",
    "GAMES",
    "RULES_OF_GAME",
    "AnyRules",
    "Rules",
    "check_game",
    "check_rules",
    "default_rules",
    "rules_for",
    *(entry.rules.__name__ for entry in all_games()),
]

AnyRules = RuleFlags
"""Any registered game's rules (the base class of every game's rules)."""
RULES_OF_GAME: dict[str, type] = {entry.name: entry.rules for entry in all_games()}
"""Each game's rules class, by the game's name."""
_RULES_BY_NAME = {entry.rules.__name__: entry.rules for entry in all_games()}
Rules = RULES_OF_GAME[DEFAULT_GAME]
"""The rules of the default game, Tapa (:class:`tapa_env.games.tapa.rules.Rules`)."""
DEFAULT_RULES = Rules()
"""The default game's rules with every flag at its default."""


def __getattr__(name: str) -> Any:
    # Every registered game's rules class under its own name: ``from tapa_env.rules import
    # TablaRules`` reads the registry, so a new game needs no line here.
    if name in _RULES_BY_NAME:
        return _RULES_BY_NAME[name]
    raise AttributeError(f"module 'tapa_env.rules' has no attribute {name!r}")


def check_game(name: object) -> str:
    """Return ``name`` if it names a game of :data:`GAMES`; else a ``ValueError`` naming them."""
    if not isinstance(name, str) or name not in RULES_OF_GAME:
        raise UnknownGameError(f"game must be one of {', '.join(GAMES)}, got {name!r}")
    return name


def default_rules(name: str = DEFAULT_GAME) -> AnyRules:
    """The rules of docs/rules.md for the game ``name`` (every flag at its default)."""
    return RULES_OF_GAME[check_game(name)]()


def check_rules(rules: object, name: str | None = None) -> AnyRules:
    """Return ``rules`` if it is a game's rules (of the game ``name`` when given); else a
    ``ValueError`` saying what to pass."""
    if not isinstance(rules, RuleFlags) or rules.game not in RULES_OF_GAME:
        kinds = ", ".join(f"a tapa_env.{entry.rules.__name__}" for entry in all_games()[1:])
        raise ValueError(
            f"rules must be a tapa_env.Rules ({game(DEFAULT_GAME).title}'s, such as "
            f"tapa_env.DEFAULT_RULES, "
            f"Rules(both_mothers_draw=False) or Rules.from_mapping(flags)) or {kinds}, "
            f"got {rules!r}"
        )
    if name is not None and game_of(rules) is not game(check_game(name)):
        raise ValueError(f"rules {rules!r} are {rules.game}'s, not {name}'s")
    return rules


def rules_for(name: str | None, rules: AnyRules | None) -> AnyRules:
    """The rules to play: ``rules`` when given (checked against the game ``name`` when that is
    given too), else that game's defaults, else the default game's."""
    if rules is None:
        return default_rules(name if name is not None else DEFAULT_GAME)
    return check_rules(rules, name)
