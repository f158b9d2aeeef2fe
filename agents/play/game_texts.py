"""What the terminal says of each game: its introduction, its help, the bot's plays in your
numbering, how a game was won, and the opponent a game is played against by default.

>>> mirrored("24/18 13/8*", "tabla"), mirrored("24/18 13/8", "gulbara")
('1/7 12/17*', '12/6 1/20')
"""

from __future__ import annotations

import re

from tapa_env import Position

from ..bots.loading import REPOSITORY

TITLES = {"tapa": "Tapa (Plakoto)", "tabla": "Tabla (backgammon)", "gulbara": "Gulbara"}
"""Each game's name as the terminal gives it."""

SHIPPED = "checkpoints/{game}-td.pt"
"""Where each game's shipped bot is, in the repository."""
STRONGEST_BUILTIN = {"tapa": "defensive", "tabla": "pubeval", "gulbara": "runner"}
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
    """How the game is played, in a few lines, before the first game."""
    you_move = YOU_MOVE
    if game == "tapa":
        return [
            you_move,
            "X moves the other way. A checker that lands on a lone opposing checker pins it.",
            "Each side's plays are written in its own numbering: X's point p is your 25 - p.",
        ]
    if game == "tabla":
        return [
            you_move,
            "X moves the other way. A checker that lands on a lone opposing checker hits it: the",
            "hit checker goes to the bar and must come back in (bar/22) before its side moves.",
            "Each side's plays are written in its own numbering: X's point p is your 25 - p.",
        ]
    return [
        you_move,
        "X runs the same way round, from your 12 to your 1 and then 24 to 13, and bears off from",
        "your 13-18. A lone checker holds a point and nothing is hit. After the opening's first",
        "three turns a double climbs: the same side plays every higher double up to 6-6, and",
        "what it cannot play of them is handed over to the other side (G5, G6).",
        "Each side's plays are written in its own numbering: X's point p is your p + 12 (p - 12",
        "above 12).",
    ]


_EXAMPLES = {
    "tapa": """\
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  13/8*         the * marks a pin (optional when you type)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7""",
    "tabla": """\
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  13/8*         the * marks a hit (optional when you type)
  bar/22        a checker enters from the bar with a 3 (25 - 3)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7""",
    "gulbara": """\
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7
  A climbing double, and numbers handed over, are plays of their own (G5, G6).""",
}


def help_text(game: str) -> str:
    """What ``help`` answers at the prompt."""
    return f"""\
Type a play's number from the list, or the play in notation, in your numbering
(your checkers move from 24 down to 1, then off):
{_EXAMPLES[game]}
Commands: hint (the bot's best plays), list (every play), board (draw it again),
undo (take back a play before you confirm it), help, quit."""


def mirrored(text: str, game: str = "tapa") -> str:
    """A play's text in the other side's numbering: its point ``p`` is ``25 - p`` (Tapa,
    Tabla), or in Gulbara, where both run the same way, ``p + 12`` up to 12 and ``p - 12``
    above."""

    def other_point(point: int) -> int:
        if game == "gulbara":
            return point + 12 if point <= 12 else point - 12
        return 25 - point

    return re.sub(r"(?<![(\d])(\d+)(?![)\d])", lambda m: str(other_point(int(m.group(1)))), text)


def kind_of_win(game: str, points: int, winner_view: Position, winner: str, loser: str):
    """``(kind, how)`` of a won game in words: ``("a gammon", "you bore off all 15 before
    random bore off any")``. ``winner_view``: the final position in the winner's frame."""
    if points == 1:
        return "a single win", f"{winner} bore off all 15 first"
    if game == "tapa" and winner_view.own_off < 15:
        mother = "your mother" if loser == "you" else f"{loser}'s mother"
        return "a mother win", f"{mother} is pinned"
    before = f"{winner} bore off all 15 before {loser} bore off any"
    if game == "tapa":
        return "a gammon", before
    if points == 3:
        home = "your home" if winner == "you" else f"{winner}'s home"
        has = "have" if loser == "you" else "has"
        caught = f"{loser} still {has} a checker on the bar or in {home}"
        return "a backgammon", f"{before}, and {caught}"
    return "a mars", before
