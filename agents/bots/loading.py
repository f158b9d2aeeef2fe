"""``load_player(spec)``: a player from a built-in name, a trained bot's file, or a class.

A spec is one of

* a built-in name: ``random``, ``offensive``, ``defensive``, ``adaptive``;
* the path of a trained bot's file (a checkpoint or an exported bot file), with ``@2ply``
  or ``@3ply`` for a two- or three-ply search (:data:`PLIES`); each algorithm reads its own
  files (the readers of :data:`agents.algorithms.ALGORITHMS`); a TD bot values races exactly
  by the bear-off database (:mod:`agents.bearoff.database`), or by its network alone with a
  last ``@nobearoff``;
* ``module:Class``, a player class of your own: the module is imported (the current
  directory first on ``sys.path``) and the class made, with ``rules=`` when it takes them.

Without rules, a trained bot plays the game it was made for (its file records it), a
built-in bot its own game, and a class of your own any position it is given (a
:class:`tapa_env.Position` knows its game); with rules, a bot made for another game or
other rules is refused in one line.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import re
import sys
from pathlib import Path
from typing import Any

from tapa_env.games import DEFAULT_GAME
from tapa_env.games import game as registered
from tapa_env.rules import DEFAULT_RULES, AnyRules, default_rules

from ..errors import PlayerSpecError
from ..storage.files import check_trained_rules, first_line
from .game_bots import GAME_BOTS
from .players import ChoosingPlayer, Player, RandomPlayer

BUILTIN_NAMES = GAME_BOTS[DEFAULT_GAME].builtins
"""The default game's built-in players (Tapa's)."""

GAME_BUILTINS = {game: bots.builtins for game, bots in GAME_BOTS.items()}
"""Each game's built-in players (:data:`agents.bots.game_bots.GAME_BOTS`): ``pubeval`` is
Tesauro's benchmark of backgammon, Tabla's; the others are heuristic bots
(:mod:`agents.bots.heuristics`, :mod:`agents.bots.race_heuristics`)."""
EXTERNAL_PLAYERS = {game: bots.external for game, bots in GAME_BOTS.items() if bots.external}
"""Each game's players that another program gives, loaded by name where it is installed:
``gnubg``, GNU Backgammon's 0-ply evaluation (:mod:`agents.bots.gnubg`). They are never an
opponent by default (a run's evaluations, PPO's opponents)."""
ALL_BUILTINS = {
    name for names in (*GAME_BUILTINS.values(), *EXTERNAL_PLAYERS.values()) for name in names
}

PLIES = (1, 2, 3)
"""The search depths a trained bot's file may be named with (``@1ply``, ``@2ply``,
``@3ply``): the depths of :class:`agents.td.TDPlayer`."""

PLY_SUFFIX = re.compile(r"(.+)@(\d+)ply")
"""A trained bot's path and a search depth: ``checkpoints/tapa-td.pt@2ply``."""

NO_BEAROFF = "@nobearoff"
"""The last suffix of a TD bot's spec that values races by its network alone, not by the
exact bear-off database (``checkpoints/tapa-td.pt@2ply@nobearoff``)."""

RUN_CHECKPOINTS = ("bot.pt", "last.pt")
"""The files a training run keeps in its ``checkpoints/`` folder; a player loaded from one is
named after the run's directory (:func:`trained_name`)."""

REPOSITORY = Path(__file__).resolve().parents[2]
"""The repository this package lies in, where the shipped bots are (``checkpoints/``)."""

CLASS_SPEC = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*)")
"""``module:Class``: a dotted module name and a class name."""

_KINDS = "or the path of a checkpoint or exported bot file, or module:Class"
_DEPTHS = "1-ply (the file alone), 2-ply (@2ply) or 3-ply (@3ply)"
"""The depths of :data:`PLIES` in words, for the message that refuses another."""

__all__ = [
    "BUILTIN_NAMES",
    "CLASS_SPEC",
    "PLIES",
    "PlayerSpecError",
    "check_trained_rules",
    "first_line",
    "load_player",
    "trained_name",
]


def _builtin(name: str, rules: AnyRules | None) -> Player:
    """The built-in player ``name`` for ``rules``; without rules, for its own game (the
    first of :data:`GAME_BUILTINS` that has it)."""
    if name == "random":
        return RandomPlayer()
    if rules is None:
        rules = default_rules(
            next(
                game
                for game in GAME_BUILTINS
                if name in GAME_BUILTINS[game] + EXTERNAL_PLAYERS.get(game, ())
            )
        )
    if name not in GAME_BUILTINS[rules.game] + EXTERNAL_PLAYERS.get(rules.game, ()):
        owner = next(
            game
            for game in GAME_BUILTINS
            if name in GAME_BUILTINS[game] + EXTERNAL_PLAYERS.get(game, ())
        )
        what = f"a {registered(owner).title} bot" + (
            " (it judges pins and mothers)" if registered(owner).pins else ""
        )
        builtins = ", ".join(GAME_BUILTINS[rules.game])
        raise PlayerSpecError(
            f"{name} is {what}; for {rules.game} use {builtins}, a bot trained for it, or "
            "module:Class"
        )
    if name == "gnubg":
        from .gnubg import GnubgPlayer

        return GnubgPlayer()
    if name == "pubeval":
        from .pubeval import PubEvalPlayer

        return PubEvalPlayer()
    from .race_heuristics import WEIGHTS, RaceHeuristicPlayer

    if name in WEIGHTS:
        return RaceHeuristicPlayer(name)
    from .heuristics import HEURISTIC_PLAYERS

    return HEURISTIC_PLAYERS[name](rules=rules)


def load_player(spec: str | Path | Player, rules: AnyRules | None = None) -> Player:
    """The player named by ``spec`` (docs/formats.md), to play under ``rules``, or without
    them the game it was made for.

    ``spec`` is one of ``random``, ``offensive``, ``defensive``, ``adaptive`` (or another
    game's built-in bot, :data:`GAME_BUILTINS`), the path of a checkpoint or an exported bot
    file (leading and trailing spaces ignored), or ``module:Class`` (see
    :func:`load_class`). A trained bot plays 1-ply, or 2-ply or 3-ply with the suffix
    ``@2ply`` or ``@3ply`` (``checkpoints/tapa-td.pt@2ply``), and a TD bot values races by
    its network alone with a last ``@nobearoff``.

    Without ``rules`` a trained bot plays the game and rules its file records
    (``load_player("checkpoints/tabla-td.pt")`` plays Tabla), a built-in bot its own game,
    and a class of your own is made without them. With ``rules``, a bot made for another
    game or other rules is refused, since it would misjudge positions. A :class:`Player` is
    returned as it is.

    Raises :class:`PlayerSpecError` (a ``ValueError``) with a one-line message for an empty
    or unknown name, for a file that is missing, corrupt or not a tapa-rl bot, and for a
    class that cannot be imported or made or is not a player, naming what is wrong.
    """
    if isinstance(spec, Player):
        return spec
    name = str(spec).strip()
    if not name:
        raise PlayerSpecError(f"empty player name: use one of {', '.join(BUILTIN_NAMES)}, {_KINDS}")
    if name in ALL_BUILTINS:
        return _builtin(name, rules)
    if name.endswith(NO_BEAROFF) and name != NO_BEAROFF:
        player = load_player(name[: -len(NO_BEAROFF)], rules)
        if not hasattr(player, "bearoff"):
            raise PlayerSpecError(
                f"{name}: {NO_BEAROFF} is for TD bots, which value races by the bear-off "
                f"database; {player.name} does not"
            )
        player.bearoff = False
        player.name += NO_BEAROFF
        return player
    ply = 1
    found = PLY_SUFFIX.fullmatch(name)
    if found:
        name, ply = found.group(1), int(found.group(2))
        if ply not in PLIES:
            raise PlayerSpecError(
                f"{found.group(0)}: no {ply}-ply search; a trained bot plays {_DEPTHS}"
            )
    path = Path(name).expanduser()
    if CLASS_SPEC.fullmatch(name) and not path.exists():
        if ply != 1:
            raise PlayerSpecError(
                f"{name}@{ply}ply: the @{ply}ply search is for trained bots (a checkpoint or "
                "bot file), not for a class"
            )
        return load_class(name, rules)
    if path.suffix or path.exists() or "/" in name or "\\" in name:
        return _load_trained(path, rules, ply)
    raise PlayerSpecError(
        f"unknown player {name!r}: use one of {', '.join(BUILTIN_NAMES)}, {_KINDS}"
    )


def trained_name(path: Path, ply: int = 1) -> str:
    """The name of a trained bot read from ``path``, with ``@2ply`` or ``@3ply`` for a
    deeper search: a run's ``RUN_DIR/checkpoints/bot.pt`` or ``last.pt``
    (:data:`RUN_CHECKPOINTS`) is named after ``RUN_DIR`` (``agent-ppo`` for
    ``runs/agent-ppo/checkpoints/bot.pt``: every run's files have the same names), any other
    file by its stem (``tapa-td`` for ``checkpoints/tapa-td.pt``)."""
    name = path.stem
    if path.name in RUN_CHECKPOINTS and path.parent.name == "checkpoints":
        run = Path(os.path.abspath(path)).parent.parent.name  # "." and ".." resolved
        name = run or name
    return name if ply == 1 else f"{name}@{ply}ply"


def beside_repository(spec: str) -> str:
    """``spec`` with a relative path that names no file here but one in the repository (the
    shipped bot, ``checkpoints/tapa-td.pt@2ply``) made absolute, so that the scripts find it
    from any directory; any other spec as it is (stripped)."""
    name = spec.strip()
    path = Path(name.split("@")[0]).expanduser()
    if name in BUILTIN_NAMES or path.is_absolute() or path.exists():
        return name
    return str(REPOSITORY / name) if (REPOSITORY / path).exists() else name


def _load_trained(path: Path, rules: AnyRules | None, ply: int) -> Player:
    """A trained bot from its file, read by the first algorithm's reader that recognises it
    (:data:`agents.algorithms.ALGORITHMS`); the first algorithm's reader explains a file
    that none recognises. Without ``rules`` it plays those its file records."""
    from ..algorithms import ALGORITHMS

    readers = [a.bot_reader() for a in ALGORITHMS.values() if a.reader is not None]
    for reader in readers:
        if reader.recognises(path):
            return reader.load(path, rules, ply)
    return readers[0].load(path, rules, ply)


def load_class(spec: str, rules: AnyRules | None = None) -> Player:
    """The player that ``module:Class`` names, made (``Class(rules=rules)`` when its
    constructor takes ``rules``, else ``Class()``; without ``rules``, ``Class()``, or
    ``Class(rules=DEFAULT_RULES)`` when its constructor needs them).

    The module is imported with the current directory first on ``sys.path``, as ``python``
    itself does for a script or ``-m``. The class is a :class:`Player` subclass that
    implements ``choose`` or ``choose_batch``, or any class with a
    ``choose(position, dice)`` method (it is then wrapped in a :class:`ChoosingPlayer`).
    A player whose ``name`` is not its own is named ``spec``. A player made for ``rules``
    that keeps no ``rules`` of its own is given them: they say which game's positions the
    rows of :meth:`Player.choose_batch` are (the arena's way of asking it).

    Raises :class:`PlayerSpecError` with one line for a missing module, a module that fails
    to import, a missing class, a class that is not a player, and a constructor that fails.
    """
    found = CLASS_SPEC.fullmatch(spec)
    if not found:
        raise PlayerSpecError(f"{spec!r} is not module:Class (such as mybots:GreedyPlayer)")
    module_name, class_name = found.groups()
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            raise PlayerSpecError(
                f"{spec}: no module named {missing!r} in the current directory ({here}) "
                "or on the Python path"
            ) from None
        raise PlayerSpecError(
            f"{spec}: importing {module_name} failed: {first_line(error)}"
        ) from None
    except Exception as error:  # whatever the module raises while it runs
        raise PlayerSpecError(
            f"{spec}: importing {module_name} failed: {type(error).__name__}: {first_line(error)}"
        ) from None
    made = getattr(module, class_name, None)
    if made is None:
        where = getattr(module, "__file__", None) or module_name
        raise PlayerSpecError(f"{spec}: module {module_name} ({where}) has no {class_name!r}")
    if not inspect.isclass(made):
        raise PlayerSpecError(
            f"{spec}: {class_name} is not a class (its type is {type(made).__name__})"
        )
    if issubclass(made, Player):
        if not Player.implements_choice(made):
            raise PlayerSpecError(
                f"{spec}: {class_name} implements neither choose(position, dice) nor "
                "choose_batch(positions, dice, afterstates, offsets, rng)"
            )
    elif not callable(getattr(made, "choose", None)):
        raise PlayerSpecError(
            f"{spec}: {class_name} is not a player: it is no agents.Player and has no "
            "choose(position, dice) method"
        )
    try:
        parameters = inspect.signature(made).parameters.values()
    except (TypeError, ValueError):
        parameters = []
    takes_rules = any(p.name == "rules" or p.kind is p.VAR_KEYWORD for p in parameters)
    needs_rules = any(p.name == "rules" and p.default is p.empty for p in parameters)
    try:
        if rules is not None and takes_rules:
            player = made(rules=rules)
        elif needs_rules:
            player = made(rules=DEFAULT_RULES)
        else:
            player = made()
    except Exception as error:  # whatever the constructor raises
        raise PlayerSpecError(
            f"{spec}: {class_name}() failed: {type(error).__name__}: {first_line(error)}"
        ) from None
    if not isinstance(player, Player):
        return ChoosingPlayer(player, name=spec, rules=rules)
    if player.name == Player.name:  # the class did not name its players
        player.name = spec
    if rules is not None and getattr(player, "rules", None) is None:
        with contextlib.suppress(AttributeError):  # a read-only property: its own affair
            player.rules = rules
    return player


def opponent_player(opponent: Any, rules: AnyRules = DEFAULT_RULES) -> Player:
    """An environment's opponent as a player, to play under ``rules``: a name or path that
    :func:`load_player` reads, or any object with ``choose(position, dice)`` (wrapped in a
    :class:`ChoosingPlayer`); a ``ValueError`` naming what it got otherwise. The rules
    engine finds this function by its entry point (``tapa_env.table.PLAYER_LOADERS``)."""
    if isinstance(opponent, (str, os.PathLike)):
        return load_player(opponent, rules=rules)
    if isinstance(opponent, Player):
        return opponent
    if callable(getattr(opponent, "choose", None)):
        return ChoosingPlayer(opponent, type(opponent).__name__, rules=rules)
    raise ValueError(
        "opponent must be a player name or path (as agents.load_player takes: 'random', "
        "'defensive', 'checkpoints/tapa-td.pt@2ply', a bot file) or an object with "
        f"choose_batch(...) or choose(position, dice), got {opponent!r}"
    )
