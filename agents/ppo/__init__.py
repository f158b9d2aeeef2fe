"""PPO for Tapa: a masked actor-critic over checker moves, trained in the move-mode vector env.

``train(config, run_dir, logger)`` runs it (:mod:`agents.ppo.training`); ``PPOConfig`` holds
its settings (``configs/agent/ppo.yaml``); ``PPOPlayer`` plays a trained policy in the arena;
``read_ppo_player`` and ``is_ppo_checkpoint`` load its checkpoints. Importing this package
imports torch (``import agents`` does not import it).
"""

from .checkpoint import PPOCheckpointError, is_ppo_checkpoint, read_ppo_player
from .config import ConfigError, PPOConfig, check_config
from .logs import TrainingDiverged, TrainResult
from .network import ActorCritic
from .player import PPOPlayer
from .training import gae, train

__all__ = [
    "ActorCritic",
    "ConfigError",
    "PPOCheckpointError",
    "PPOConfig",
    "PPOPlayer",
    "TrainResult",
    "TrainingDiverged",
    "check_config",
    "gae",
    "is_ppo_checkpoint",
    "read_ppo_player",
    "train",
]
