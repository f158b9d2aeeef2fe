"""Plays as players write them: ``24/18 13/8*``, ``6/off``, ``13/7(2)``, ``24/18/13``, ``pass``.

The engine gives the afterstates of a turn, not its moves. This module finds, for each legal
afterstate of a ``(position, dice)``, a legal sequence of single-die checker moves that
reaches it, and writes it in the usual notation, in the mover's numbering (docs/rules.md,
"Board and frame"): points 1 to 24, the mover moving down, ``off`` below point 1.

* A move is ``FROM/TO``; a checker that takes more than one die is written once with every
  point it touches down on, ``24/18/13``.
* ``*`` follows a point where the move pins a lone opponent checker (R5), an intermediate
  point included: ``13/8*/5`` pins on 8 and frees the checker again by moving on. In Tabla
  it marks a hit (T4), and a checker entering from the bar moves from ``bar``: ``bar/20``.
  Gulbara, where nothing is pinned or hit, has no ``*``.
* The same move made by several checkers is written once with a count, ``13/7(2)``.
* Moves are listed from the highest source point down; ``pass`` when nothing can be played.
* A play that ends the game part-way (R6) is written up to the move that ended it.

When several move sequences reach the same afterstate, one text is chosen for it: the one that
moves the fewest checkers, then with the higher points first and a checker's larger die first
(``24/18/13`` rather than ``24/19/13`` for 6-5). Every afterstate of a turn has its own text.

:func:`parse_play` reads a text back, loosely: any order and spacing, ``OFF`` or ``off``, a
``*`` where it pleases (the board decides what is pinned; none in Gulbara), chains
(``24/18/13``), their separate moves (``24/18 18/13``) or their two ends (``24/13``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .game import check_dice, legal_afterstates
from .games import game as registered
from .layout import BAR_POINT, OWN_BAR, OWN_COLUMNS, POINTS
from .position import Position
from .rules import AnyRules, rules_for

OFF = 0
"""The point a borne-off checker moves to, in :attr:`Play.moves`."""
PASS = "pass"
"""The text of a turn without a legal play (R12)."""
_LISTED = 8  # a parse error lists the legal plays when there are at most this many


class NotationError(ValueError):
    """A play's text that cannot be read, or that matches no legal play of the turn."""


class Play(NamedTuple):
    """One legal play of a turn.

    Attributes:
        text: the play in notation, such as ``24/18 13/8*`` or ``pass``.
        afterstate: the position it leaves, as :func:`tapa_env.legal_afterstates` gives it.
        moves: the single-die checker moves in the order they are played, each
            ``(from, to)`` in the mover's numbering, ``to`` being :data:`OFF` (0) for a
            bear-off; empty for a pass.
    """

    text: str
    afterstate: Position
    moves: tuple[tuple[int, int], ...]


# --- the moves of each afterstate ------------------------------------------------------------


def _chains(moves: Sequence[tuple[int, int, bool]]) -> list[tuple[tuple[int, ...], tuple]]:
    """The checkers' paths: a move from a point a checker reached this turn continues its path.

    Each path is ``(points, pins)``: the points it touched, first to last, and for each point
    after the first whether landing there pinned.
    """
    paths: list[tuple[list[int], list[bool]]] = []
    for source, target, pins in moves:
        for points, marks in reversed(paths):
            if points[-1] == source:
                points.append(target)
                marks.append(pins)
                break
        else:
            paths.append(([source, target], [pins]))
    return [(tuple(points), tuple(marks)) for points, marks in paths]


def _write(paths: list[tuple[tuple[int, ...], tuple]]) -> str:
    """The text of a play's paths: highest first, repeated paths counted, ``pass`` if none."""
    if not paths:
        return PASS
    merged: dict[tuple[int, ...], list] = {}
    for points, marks in paths:
        entry = merged.setdefault(points, [0, [False] * len(marks)])
        entry[0] += 1
        entry[1] = [a or b for a, b in zip(entry[1], marks)]
    words = []
    for points in sorted(merged, reverse=True):
        count, marks = merged[points]
        text = ("bar" if points[0] == BAR_POINT else str(points[0])) + "".join(
            f"/{point if point else 'off'}{'*' if mark else ''}"
            for point, mark in zip(points[1:], marks)
        )
        words.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(words)


def _preference(paths: list[tuple[tuple[int, ...], tuple]]) -> tuple:
    """Orders the texts of one afterstate: fewest checkers moved, higher points first, a
    checker's larger die first (lower intermediate points), and of two checkers that land on
    the same lone opponent checker, the first written pins it."""
    keys = sorted(
        ((-points[0], *points[1:]), tuple(not m for m in marks)) for points, marks in paths
    )
    return (len(paths), keys)


def legal_plays(
    position: Position, dice: tuple[int, int], rules: AnyRules | None = None
) -> list[Play]:
    """Every legal play of ``dice`` in ``position``, with its text and moves.

    One :class:`Play` per afterstate, in the order of :func:`tapa_env.legal_afterstates`;
    the texts of a turn are all different. A turn without a legal play has the one play
    ``pass``, whose afterstate is the position itself (R12; in Gulbara with its turn state
    moved on). ``rules`` default to the position's game's.
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a tapa_env.Position, got {type(position).__name__}")
    dice = check_dice(dice)
    rules = rules_for(position.game, rules)
    afterstates = legal_afterstates(position, dice, rules=rules)
    notation = registered(position.game).notation
    sequences = notation.sequences(position, dice, rules)
    best: dict = {}
    for own, moves in sequences:
        paths = _chains(moves)
        preference = _preference(paths)
        if own not in best or preference < best[own][0]:
            best[own] = (preference, paths, moves)
    plays = []
    for afterstate in afterstates:
        found = best.pop(notation.afterstate_key(afterstate, position), None)
        if found is None:
            raise RuntimeError(
                f"no move sequence of {dice[0]}-{dice[1]} reaches the afterstate "
                f"{afterstate.key} of {position.key}"
            )
        _, paths, moves = found
        text = _write(paths)
        plays.append(Play(text, afterstate, tuple((source, target) for source, target, _ in moves)))
    if best:
        extra = next(iter(best))
        raise RuntimeError(
            f"a move sequence of {dice[0]}-{dice[1]} in {position.key} reaches {extra} that the "
            "engine does not list"
        )
    return plays


def play_text(
    position: Position,
    dice: tuple[int, int],
    afterstate: Position,
    rules: AnyRules | None = None,
) -> str:
    """The text of the play of ``dice`` that turns ``position`` into ``afterstate``.

    Raises :class:`NotationError` when ``afterstate`` is not a legal afterstate of the turn.
    """
    for play in legal_plays(position, dice, rules=rules):
        if play.afterstate == afterstate:
            return play.text
    raise NotationError(
        f"{afterstate.key} is not a legal afterstate of {dice[0]}-{dice[1]} in {position.key}"
    )


# --- reading a text back -----------------------------------------------------------------------

_PATH = re.compile(r"(?P<points>[^()]+?)(?:\((?P<count>\d+)\))?")
_POINT = re.compile(r"(?P<point>\d+|off|bar)\*?")
_HELP = "write moves such as 24/18 13/8, 13/8*/5, 6/off, 13/7(2), or pass"


def _normalise(text: str) -> str:
    """Lower case, no spaces around ``/``, ``*`` and the count's brackets."""
    text = text.strip().lower()
    text = re.sub(r"\s*/\s*", "/", text)
    text = re.sub(r"\s*\(\s*", "(", text)
    text = re.sub(r"\s*\)", ")", text)
    return re.sub(r"\s+\*", "*", text)


def _steps(dice: tuple[int, int]) -> set[int]:
    """The pips one checker can move in a turn of ``dice``: one die, or several in a row."""
    first, second = dice
    if first == second:
        return {first * n for n in range(1, 5)}
    return {first, second, first + second}


def _net_counts(text: str, position: Position, dice: tuple[int, int]) -> tuple[int, ...] | None:
    """The mover's counts after the moves written in ``text``; ``None`` for ``pass``."""
    words = [word for word in re.split(r"[\s,]+", _normalise(text)) if word]
    if not words:
        raise NotationError(f"an empty play: {_HELP}")
    if words == [PASS]:
        return None
    if PASS in words:
        raise NotationError(f"{text.strip()!r} mixes 'pass' with moves: {_HELP}")
    entry = registered(position.game)
    own = [0, *position.own, position.own_bar]
    steps = _steps(dice)
    roll = f"{dice[0]}-{dice[1]}"
    for word in words:
        path = _PATH.fullmatch(word)
        names = path.group("points").split("/") if path else []
        points = [_POINT.fullmatch(name) for name in names]
        if len(names) < 2 or not all(points):
            raise NotationError(f"cannot read {word!r} as a move: {_HELP}")
        values = [match.group("point") for match in points]
        if "bar" in values and not entry.bar:
            raise NotationError(f"{word!r}: {entry.title} has no bar; {entry.landing}")
        if "*" in word and not (entry.bar or entry.pins):
            raise NotationError(
                f"{word!r}: a * marks a hit, and in {entry.title} nothing is hit or pinned "
                f"({entry.landing}); write the move without it"
            )
        if "bar" in values[1:]:
            raise NotationError(f"{word!r} moves to the bar: only a hit checker goes there")
        count = int(path.group("count") or 1)
        if not 1 <= count <= 4:
            raise NotationError(f"{word!r}: a move is made 1 to 4 times, not {count}")
        hops = list(zip(values, values[1:]))
        for source, target in hops:
            if source == "off":
                raise NotationError(f"{word!r} moves from off: a borne-off checker stays off")
            for value in (source, target):
                if value not in ("off", "bar") and not 1 <= int(value) <= POINTS:
                    raise NotationError(f"{word!r} names point {value}: points are 1 to 24")
            start = BAR_POINT if source == "bar" else int(source)
            end = OFF if target == "off" else int(target)
            if end >= start:
                raise NotationError(
                    f"{word!r} moves backwards: checkers move from higher points to lower ones "
                    "(from 24 toward 1, then off)"
                )
            if end and start - end not in steps:
                *some, last = map(str, sorted(steps))
                raise NotationError(
                    f"{word!r}: {start}/{end} is {start - end} pips, but with {roll} a checker "
                    f"moves {', '.join(some)} or {last}"
                )
            if not end and start > max(steps):
                raise NotationError(
                    f"{word!r}: {start}/off needs at least {start} pips, more than {roll} gives"
                )
            own[start] -= count
            if end:
                own[end] += count
    for point in range(1, POINTS + 2):
        if own[point] < 0:
            had = [0, *position.own, position.own_bar][point]
            moved = had - own[point]
            holds = f"which holds {had}" if had else "which holds none"
            checkers = "checker" if moved == 1 else "checkers"
            where = "the bar" if point == BAR_POINT else f"point {point}"
            raise NotationError(f"{text.strip()!r} moves {moved} {checkers} from {where}, {holds}")
    return tuple(own[1:]) if entry.bar else tuple(own[1 : POINTS + 1])


def _stars(text: str) -> set[int]:
    """The points a text marks with ``*``: where it says a checker was hit (Tabla)."""
    return {int(point) for point in re.findall(r"(\d+)\*", _normalise(text))}


def parse_play(
    text: str, position: Position, dice: tuple[int, int], rules: AnyRules | None = None
) -> Position:
    """The afterstate of the play written ``text`` (in the mover's numbering), read loosely.

    Moves may come in any order and spacing, chained (``24/18/13``), separate
    (``24/18 18/13``) or by their two ends (``24/13``); ``off`` in any case; a ``*`` is
    optional and ignored (the board decides what is pinned); ``13/7(2)`` moves two checkers.
    In Tabla ``bar/20`` enters a checker; a ``*`` tells apart two plays that move the same
    checkers but hit differently (``24/18*/13`` and ``24/19/13``). In Gulbara, where
    nothing is hit, a ``*`` is refused.

    Raises:
        NotationError: (a ``ValueError``) for a text that cannot be read, or that matches no
            legal play of the turn; the one-line message names the text and lists the legal
            plays (their number, when there are many).
    """
    if not isinstance(text, str):
        raise NotationError(f"a play is a text such as '24/18 13/8', got {text!r}")
    if not isinstance(position, Position):
        raise TypeError(f"position must be a tapa_env.Position, got {type(position).__name__}")
    dice = check_dice(dice)
    rules = rules_for(position.game, rules)
    rows = np.stack([after.row for after in legal_afterstates(position, dice, rules=rules)])
    counts = _net_counts(text, position, dice)
    entry = registered(position.game)
    moved = rows[:, OWN_COLUMNS]
    if entry.bar:
        moved = np.concatenate([moved, rows[:, OWN_BAR : OWN_BAR + 1]], axis=1)
    passes = len(rows) == 1 and (moved[0] == moved_start(position)).all()
    if counts is None:
        if passes:
            return Position._trusted(rows[0], position.game)
    else:
        found = np.flatnonzero((moved == counts).all(axis=1))
        if found.size > 1:  # the same checkers moved, hitting differently (Tabla)
            stars = _stars(text)
            marks = [
                entry.notation.marked_points(Position._trusted(rows[i], entry.name), position)
                for i in found
            ]
            found = found[[mark == stars for mark in marks]]
            if found.size != 1:
                raise NotationError(
                    f"{text.strip()!r} is more than one play of {dice[0]}-{dice[1]} here; mark "
                    "each hit with * (such as 24/18*/13) to say which"
                )
        if found.size:
            return Position._trusted(rows[found[0]], position.game)
    roll = f"{dice[0]}-{dice[1]}"
    if passes:
        raise NotationError(
            f"{text.strip()!r} is not a legal play of {roll} here: nothing can be played, "
            "the only play is pass"
        )
    if len(rows) > _LISTED:
        listing = f"there are {len(rows)} legal plays"
    else:
        texts = [play.text for play in legal_plays(position, dice, rules=rules)]
        listing = "the legal plays are " + ", ".join(texts)
    if counts is None:
        raise NotationError(f"'pass' is not allowed with {roll} here: {listing}")
    raise NotationError(f"{text.strip()!r} is not a legal play of {roll} here: {listing}")


def moved_start(position: Position) -> np.ndarray:
    """The mover's counts (and its bar, in a game with one) before the turn, as
    :func:`parse_play` reads."""
    own = np.array(position.own)
    return np.append(own, position.own_bar) if registered(position.game).bar else own


def written_counts(text: str, position: Position, dice: tuple[int, int]) -> tuple[int, ...] | None:
    """The mover's checker counts on points 1 to 24 after the moves ``text`` writes, read as
    :func:`parse_play` reads them, whether or not they make a whole legal play (the first
    moves of one, say); ``None`` for ``pass``.

    Raises :class:`NotationError` for a text that cannot be read or moves that cannot be made
    (a step no die of the roll gives, a checker the point does not hold).
    """
    return _net_counts(text, position, check_dice(dice))
