"""TD bots from files, for :func:`agents.load_player`: exported bot files (numpy only) and
training checkpoints (torch, imported only for a checkpoint)."""

from __future__ import annotations

from pathlib import Path

from tapa_env.rules import AnyRules

from ..bots.loading import trained_name
from ..storage.files import check_trained_rules
from ..storage.upgrade import Upgrade, checkpoint_upgrade
from . import bot_file
from .format import is_td_checkpoint
from .player import TDPlayer


def recognises(path: Path) -> bool:
    """Whether ``path`` is a TD bot file or a TD checkpoint (told without torch)."""
    return bot_file.is_bot_file(path) or is_td_checkpoint(path)


def upgrade(path: Path) -> Upgrade:
    """What ``python -m agents.storage.upgrade`` makes of a TD bot file or checkpoint
    (:class:`agents.storage.upgrade.Upgrade`): nothing to do when it has a matching checksum,
    else, when everything else checks as :func:`load` checks it, its checksummed copy. A
    file that would not load is refused in one line, as :func:`load` refuses it."""
    path = Path(path)
    if _is_bot_file(path):
        return Upgrade("TD bot file", *bot_file.unchecksummed(path))
    from .checkpoint import KIND

    return checkpoint_upgrade(KIND, path, "TD checkpoint")


def _is_bot_file(path: Path) -> bool:
    """Whether ``path`` is read as a bot file (not as a checkpoint): by its content, or for
    a file that cannot be read, by its extension."""
    return (
        bot_file.is_bot_file(path)
        or bot_file.is_npz_archive(path)
        or path.suffix.lower() == bot_file.SUFFIX
    )


def load(path: Path, rules: AnyRules | None = None, ply: int = 1) -> TDPlayer:
    """A TD player from a bot file (:mod:`agents.td.bot_file`) or a training checkpoint
    (:mod:`agents.td.checkpoint`), named after the file (``tapa-td``, ``tapa-td@2ply`` or
    ``tapa-td@3ply``), or after its run for a run's ``checkpoints/bot.pt`` or ``last.pt``
    (:func:`agents.bots.loading.trained_name`).

    A bot file is told by its content (a zip archive with a ``metadata.npy`` entry, or of
    ``.npy`` entries only, as every ``.npz`` file is) or, for a file that cannot be read, by
    the extension ``.npz``. The player plays the game and rules its file records; given
    ``rules`` of another game or other flags, it is refused
    (:class:`~agents.errors.PlayerSpecError`); so is a file that is not a usable bot, with one
    line naming the file and the problem.
    """
    name = trained_name(path, ply)
    if _is_bot_file(path):
        exported = bot_file.read(path)
        check_trained_rules(path, exported.rules, rules)
        return TDPlayer(exported.evaluator(), name=name, ply=ply, rules=exported.rules)
    from .checkpoint import evaluator_of, read, rules_of

    content = read(path)
    check_trained_rules(path, rules_of(content), rules)
    return TDPlayer(evaluator_of(content), name=name, ply=ply, rules=rules_of(content))
