"""PPO for Tapa, Tabla and Gulbara: a masked actor-critic over checker moves, trained in the
game's move-mode vector env.

``agents.ppo.training.train(config, run_dir, logger)`` runs it (``python train.py
agent=ppo [game=tabla|gulbara]``); ``agents.ppo.config.PPOConfig`` holds its settings
(``configs/agent/ppo.yaml``); ``agents.ppo.player.PPOPlayer`` plays a trained policy in the
arena, and ``agents.load_player`` reads its checkpoints (:mod:`agents.ppo.loading`). The
names below load on first use, so that importing this package (as ``load_player`` does to
recognise a file) does not import torch.
"""

from __future__ import annotations

import importlib
from typing import Any

_NAMES = {
    "ActorCritic": "network",
    "ConfigError": "config",
    "PPOCheckpointError": "checkpoint",
    "PPOConfig": "config",
    "PPOPlayer": "player",
    "check_config": "config",
    "gae": "training",
    "is_ppo_checkpoint": "format",
    "read_ppo_player": "checkpoint",
    "train": "training",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name not in _NAMES:
        raise AttributeError(f"module 'agents.ppo' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
