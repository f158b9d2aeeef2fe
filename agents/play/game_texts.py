"""What the terminal says of each game: its introduction, its help, the bot's plays in your
numbering, how a game was won, and the opponent a game is played against by default.

>>> mirrored("24/18 13/8*", "tabla"), mirrored("24/18 13/8", "gulbara")
('1/7 12/17*', '12/6 1/20')
"""

from __future__ import annotations

import re

from tapa_env import Position
from tapa_env.games import DEFAULT_GAME, all_games
from tapa_env.games import game as registered

from ..bots.game_bots import GAME_BOTS
from ..bots.loading import REPOSITORY

TITLES = {entry.name: entry.full_title for entry in all_games()}
"""Each game's name as the terminal gives it (the registry's ``full_title``)."""

SHIPPED = "checkpoints/{game}-td.pt"
"""Where each game's shipped bot is, in the repository."""
STRONGEST_BUILTIN = {game: bots.strongest for game, bots in GAME_BOTS.items()}
"""Each game's strongest built-in bot (docs/bots.md), the opponent while no bot is shipped."""


def default_opponent(game: str) -> str:
    """The opponent of ``play.py game=GAME`` when none is named: the game's shipped bot at
    two plies when the repository has one (``checkpoints/tabla-td.pt@2ply``), else the
    game's strongest built-in bot."""
    shipped = SHIPPED.format(game=game)
    if (REPOSITORY / shipped).exists():
        return f"{shipped}@2ply"
    return STRONGEST_BUILTIN[game]


YOU_MOVE = "You move from your 24 (top right) round to your 1 (bottom right) and bear off there;"


def introduction(game: str) -> list[str]:
    """How the game is played, in a few lines, before the first game (the registry's
    ``how_to_play``, after how you move)."""
    return [YOU_MOVE, *registered(game).how_to_play]


def help_text(game: str) -> str:
    """What ``help`` answers at the prompt."""
    return f"""\
Type a play's number from the list, or the play in notation, in your numbering
(your checkers move from 24 down to 1, then off):
{registered(game).play_examples}
Commands: hint (the bot's best plays), list (every play), board (draw it again),
undo (take back a play before you confirm it), help, quit."""


def mirrored(text: str, game: str = DEFAULT_GAME) -> str:
    """A play's text in the other side's numbering, by the registry's ``opponent_points``:
    its point ``p`` is ``25 - p`` (Tapa, Tabla), or in Gulbara, where both run the same way,
    ``p + 12`` up to 12 and ``p - 12`` above."""
    points = registered(game).opponent_points

    def other_point(point: int) -> int:
        return points[point - 1] if 1 <= point <= len(points) else point

    return re.sub(r"(?<![(\d])(\d+)(?![)\d])", lambda m: str(other_point(int(m.group(1)))), text)


def kind_of_win(game: str, points: int, winner_view: Position, winner: str, loser: str):
    """``(kind, how)`` of a won game in words: ``("a gammon", "you bore off all 15 before
    random bore off any")``. ``winner_view``: the final position in the winner's frame."""
    if points == 1:
        return "a single win", f"{winner} bore off all 15 first"
    pins = registered(game).pins  # a double win by a pinned mother, else a gammon
    if pins and winner_view.own_off < 15:
        mother = "your mother" if loser == "you" else f"{loser}'s mother"
        return "a mother win", f"{mother} is pinned"
    before = f"{winner} bore off all 15 before {loser} bore off any"
    if pins:
        return "a gammon", before
    if points == 3:
        home = "your home" if winner == "you" else f"{winner}'s home"
        has = "have" if loser == "you" else "has"
        caught = f"{loser} still {has} a checker on the bar or in {home}"
        return "a backgammon", f"{before}, and {caught}"
    return "a mars", before
