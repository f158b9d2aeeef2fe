"""PPO policies from their checkpoints, for :func:`agents.load_player`.

Telling a PPO checkpoint from other files needs no torch (:mod:`agents.ppo.format`):
``load_player`` asks every algorithm's reader, and a numpy-only bot file must not cost a
torch import.
"""

from __future__ import annotations

from pathlib import Path

from tapa_env.rules import AnyRules

from ..bots.loading import trained_name
from ..errors import PlayerSpecError
from ..storage.upgrade import Upgrade, checkpoint_upgrade
from .format import is_ppo_checkpoint


def recognises(path: Path) -> bool:
    """Whether ``path`` is a PPO checkpoint (:func:`is_ppo_checkpoint`)."""
    return is_ppo_checkpoint(path)


def upgrade(path: Path) -> Upgrade:
    """What ``python -m agents.storage.upgrade`` makes of a PPO checkpoint
    (:class:`agents.storage.upgrade.Upgrade`): nothing to do when it has a matching checksum,
    else, when everything else checks as :func:`load` checks it, its checksummed copy."""
    from .checkpoint import KIND  # torch, only for a PPO checkpoint

    return checkpoint_upgrade(KIND, Path(path), "PPO checkpoint")


def load(path: Path, rules: AnyRules | None = None, ply: int = 1):
    """The greedy policy of a PPO checkpoint (a :class:`agents.ppo.player.PPOPlayer`) to
    play under ``rules`` (without them, the game and rules it was trained under), named as
    :func:`agents.bots.loading.trained_name` names it (after its run for a run's
    ``checkpoints/bot.pt`` or ``last.pt``); a policy trained under other rules is refused.
    A policy chooses its moves itself, so it plays 1-ply only."""
    if ply != 1:
        raise PlayerSpecError(
            f"{path}@{ply}ply: a PPO policy chooses its moves itself and has no {ply}-ply "
            "search; name the file without @ply"
        )
    from .checkpoint import read_ppo_player  # torch, only for a PPO checkpoint

    return read_ppo_player(path, rules=rules, name=trained_name(path))
