"""PPO policies from their checkpoints, for :func:`agents.load_player`.

Telling a PPO checkpoint from other files needs no torch (:mod:`agents.ppo.format`):
``load_player`` asks every algorithm's reader, and a numpy-only bot file must not cost a
torch import.
"""

from __future__ import annotations

from pathlib import Path

from tapa_env.rules import Rules

from ..bots.loading import trained_name
from ..errors import PlayerSpecError
from .format import is_ppo_checkpoint


def recognises(path: Path) -> bool:
    """Whether ``path`` is a PPO checkpoint (:func:`is_ppo_checkpoint`)."""
    return is_ppo_checkpoint(path)


def load(path: Path, rules: Rules, ply: int = 1):
    """The greedy policy of a PPO checkpoint (a :class:`agents.ppo.player.PPOPlayer`) to
    play under ``rules``, named as :func:`agents.bots.loading.trained_name` names it (after
    its run for a run's ``checkpoints/bot.pt`` or ``last.pt``); a policy trained under other
    rules is refused. A policy chooses its moves itself, so it plays 1-ply only."""
    if ply != 1:
        raise PlayerSpecError(
            f"{path}@{ply}ply: a PPO policy chooses its moves itself and has no {ply}-ply "
            "search; name the file without @ply"
        )
    from .checkpoint import read_ppo_player  # torch, only for a PPO checkpoint

    return read_ppo_player(path, rules=rules, name=trained_name(path))
