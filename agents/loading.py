"""``load_player(spec)``: a player from a built-in name or from the path of a bot file."""

from __future__ import annotations

import re
from pathlib import Path

from tapa_env.rules import DEFAULT_RULES, Rules

from .players import Player, RandomPlayer

BUILTIN_NAMES = ("random", "offensive", "defensive", "adaptive")


class PlayerSpecError(ValueError):
    """A player name or path that names no player, or a file that holds no bot."""


def first_line(error: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none): a library's
    long message cut to what a one-line error can carry."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _builtin(name: str, rules: Rules) -> Player:
    if name == "random":
        return RandomPlayer()
    from .heuristics import HEURISTIC_PLAYERS

    return HEURISTIC_PLAYERS[name](rules=rules)


def load_player(spec: str | Path | Player, rules: Rules = DEFAULT_RULES) -> Player:
    """The player named by ``spec`` (docs/formats.md).

    ``spec`` is one of ``random``, ``offensive``, ``defensive``, ``adaptive``, or the path of
    a checkpoint or an exported bot file (leading and trailing spaces ignored); a trained
    bot plays 1-ply, or 2-ply with the suffix ``@2ply`` (``checkpoints/tapa-td.pt@2ply``). A
    :class:`Player` is returned as it is. ``rules`` are the rules the player will play
    under: a trained bot made for other rules is refused, since it would misjudge positions.

    Raises :class:`PlayerSpecError` (a ``ValueError``) with a one-line message for an empty
    or unknown name, and for a file that is missing, corrupt or not a tapa-rl bot, naming
    the file and the problem.
    """
    if isinstance(spec, Player):
        return spec
    name = str(spec).strip()
    if not name:
        raise PlayerSpecError(
            f"empty player name: use one of {', '.join(BUILTIN_NAMES)}, "
            "or the path of a checkpoint or exported bot file"
        )
    if name in BUILTIN_NAMES:
        return _builtin(name, rules)
    ply = 1
    found = re.fullmatch(r"(.+)@([12])ply", name)
    if found:
        name, ply = found.group(1), int(found.group(2))
    path = Path(name).expanduser()
    if path.suffix or path.exists() or "/" in name or "\\" in name:
        return _load_bot_file(path, rules, ply)
    raise PlayerSpecError(
        f"unknown player {name!r}: use one of {', '.join(BUILTIN_NAMES)}, "
        "or the path of a checkpoint or exported bot file"
    )


def _load_bot_file(path: Path, rules: Rules, ply: int = 1) -> Player:
    """A TD player from an exported bot file (:mod:`agents.bot_file`, numpy only) or a
    training checkpoint (:mod:`agents.checkpoint`, which needs torch).

    A bot file is told by its content (a zip archive with a ``metadata.npy`` entry) or, for
    a file that cannot be read, by the extension ``.npz``; torch is imported only for a
    checkpoint. A bot made for other rules than ``rules`` is refused.
    """
    from . import bot_file
    from .td_player import TDPlayer

    name = path.stem if ply == 1 else f"{path.stem}@{ply}ply"
    if bot_file.is_bot_file(path) or path.suffix.lower() == bot_file.SUFFIX:
        exported = bot_file.read(path)
        check_trained_rules(path, exported.rules, rules)
        return TDPlayer(exported.evaluator(), name=name, ply=ply, rules=exported.rules)
    from . import ppo  # imports torch, as a TD checkpoint needs it too

    if ppo.is_ppo_checkpoint(path):
        if ply != 1:
            raise PlayerSpecError(f"{path}: a PPO policy plays its moves; it has no @{ply}ply")
        return ppo.read_ppo_player(path, rules, name)
    from .checkpoint import evaluator_of, read, rules_of

    content = read(path)
    check_trained_rules(path, rules_of(content), rules)
    return TDPlayer(evaluator_of(content), name=name, ply=ply, rules=rules_of(content))


def check_trained_rules(path: Path, trained: Rules, rules: Rules) -> None:
    """Raise :class:`PlayerSpecError` when a bot trained under ``trained`` would play under
    other ``rules``: it would misjudge the positions where they differ."""
    if trained == rules:
        return
    differ = sorted(k for k, v in vars(rules).items() if getattr(trained, k) != v)
    trained_flags = ", ".join(f"{k}={getattr(trained, k)}" for k in differ)
    asked_flags = ", ".join(f"{k}={getattr(rules, k)}" for k in differ)
    raise PlayerSpecError(
        f"{path}: trained under other rules ({trained_flags}); it would misjudge "
        f"positions under {asked_flags}"
    )
