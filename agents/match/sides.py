"""A player of a tabla match: one player for each game, from one spec.

A match side is named by

* ``shipped``: each game's shipped bot (``checkpoints/<game>-td.pt``), with any suffix a
  trained bot takes (``shipped@points``);
* a player every game has (``random``, a ``module:Class`` of your own): it plays them all;
* players joined by ``+``, one for each game, each a built-in name of its game
  (``pubeval+runner+offensive``) or a trained bot's file, which knows its game
  (``runs/a/checkpoints/bot.pt+checkpoints/gulbara-td.pt+checkpoints/tapa-td.pt``).

A TD bot plays to the score (``@match``, the default in a match: :mod:`agents.match.player`);
``@points`` at the end of its part keeps it playing for points per game, at any depth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tapa_env.rules import GAMES, default_rules

from ..bots.loading import (
    ALL_BUILTINS,
    CLASS_SPEC,
    EXTERNAL_PLAYERS,
    GAME_BUILTINS,
    beside_repository,
    load_player,
)
from ..bots.players import Player
from ..errors import MatchError, PlayerSpecError
from .player import MATCH, POINTS, MatchPlayer
from .rules import DEFAULT_MATCH, MatchRules

SHIPPED = "shipped"
"""The name of the side that plays each game's shipped bot."""
_OTHER_GAME = re.compile(r"a bot for (\w+), not for")


@dataclass
class MatchSide:
    """One side of a match: its name and its player for each game of the order."""

    name: str
    players: dict[str, Player]


def load_side(spec: str | MatchSide, rules: MatchRules = DEFAULT_MATCH) -> MatchSide:
    """The match side named by ``spec`` (see the module docstring); a one-line
    :class:`~agents.errors.MatchError` or :class:`~agents.errors.PlayerSpecError` says what
    is wrong: a game without a player, a game with two, a bot of a game the match does not
    play, ``@match`` on a bot that cannot play to the score."""
    if isinstance(spec, MatchSide):
        return spec
    name = str(spec).strip()
    if not name:
        raise MatchError(
            f"empty match player: name {SHIPPED!r}, random, or one player per game joined by +"
        )
    players: dict[str, Player] = {}
    for part in _parts(name, rules):
        for game, player in _load_part(part, rules).items():
            if game in players:
                raise MatchError(
                    f"{name}: two players for {game} ({players[game].name}, {player.name})"
                )
            players[game] = player
    missing = [game for game in dict.fromkeys(rules.order) if game not in players]
    if missing:
        raise MatchError(
            f"{name}: no player for {', '.join(missing)}; a match of "
            f"{', '.join(dict.fromkeys(rules.order))} "
            f"needs one for each game: {SHIPPED!r}, random, or players joined by + "
            "(pubeval+runner+offensive)"
        )
    return MatchSide(name, {game: players[game] for game in dict.fromkeys(rules.order)})


def _parts(name: str, rules: MatchRules) -> list[str]:
    parts = [part.strip() for part in name.split("+")]
    if any(not part for part in parts):
        raise MatchError(f"{name}: an empty part between +")
    expanded = []
    for part in parts:
        base, at, suffix = part.partition("@")
        if base == SHIPPED:
            games = dict.fromkeys(rules.order)
            expanded += [f"checkpoints/{game}-td.pt{at}{suffix}" for game in games]
        else:
            expanded.append(part)
    return expanded


def _load_part(part: str, rules: MatchRules) -> dict[str, Player]:
    """The players one part gives, by game: a player every game has gives one per game."""
    mode = MATCH
    spec = part
    for suffix in (MATCH, POINTS):
        if spec.endswith(suffix):
            spec, mode = spec[: -len(suffix)], suffix
    games = list(dict.fromkeys(rules.order))
    if spec == "random" or (CLASS_SPEC.fullmatch(spec) and spec not in ALL_BUILTINS):
        found = {game: load_player(spec, default_rules(game)) for game in games}
    elif spec in ALL_BUILTINS:
        owner = [g for g in GAMES if spec in GAME_BUILTINS[g] + EXTERNAL_PLAYERS.get(g, ())][0]
        if owner not in games:
            raise MatchError(f"{spec} is a {owner} bot, and this match plays {', '.join(games)}")
        found = {owner: load_player(spec, default_rules(owner))}
    else:
        found = {_trained_game(spec, games): None}
        game = next(iter(found))
        found[game] = load_player(beside_repository(spec), default_rules(game))
    return {game: _mode(player, part, mode) for game, player in found.items()}


def _trained_game(spec: str, games: list[str]) -> str:
    """The game a trained bot's file was made for (its file says; loading it under another
    game's rules is refused with the name of its own)."""
    path = beside_repository(spec)
    try:
        load_player(path, default_rules(games[0]))
        return games[0]
    except PlayerSpecError as error:
        found = _OTHER_GAME.search(str(error))
        if not found:
            raise
        if found.group(1) not in games:
            raise MatchError(
                f"{spec}: a {found.group(1)} bot, and this match plays {', '.join(games)}"
            ) from None
        return found.group(1)


def _mode(player: Player, part: str, mode: str) -> Player:
    """``player`` playing to the score (``@match``) where it can, else as it is."""
    if mode == POINTS:
        player.name = f"{player.name}{POINTS}"
        return player
    if not hasattr(player, "evaluator"):
        if part.endswith(MATCH):
            raise MatchError(
                f"{part}: {MATCH} needs a TD bot's outcome chances; {player.name} plays as it is"
            )
        return player
    if getattr(player, "ply", 1) != 1:
        raise MatchError(
            f"{part}: playing to the score searches one ply; name it without @{player.ply}ply, "
            f"or add {POINTS} to play for points at {player.ply} plies"
        )
    return MatchPlayer(player)
