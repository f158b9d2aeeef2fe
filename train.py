"""Train a Tapa bot by TD(λ) self-play: ``python train.py [key=value ...]``.

Reads ``configs/train.yaml`` (``python train.py --help`` lists every setting), trains in the
run directory (``runs/default`` or one named after the overrides), logs to TensorBoard there,
and resumes the run when the directory already holds a checkpoint.

Every setting is checked before the first game. A mistake in the command line or the
settings, or an unusable checkpoint in the run directory, exits with status 2 after a short
message on stderr; a run that diverges exits with status 3. Ctrl-C or SIGTERM writes a
checkpoint and exits with status 0.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from agents.checkpoint import CheckpointError
from agents.config import ConfigError, TrainConfig
from agents.curve import draw_learning_curve
from agents.training import TrainingDiverged, train
from entry import EntryScript

ConfigStore.instance().store(name="train_schema", node=TrainConfig)


def run_name(overrides: str) -> str:
    """The run directory's name: ``default`` without overrides, else the overrides."""
    return re.sub(r"[^A-Za-z0-9_.,=+-]", "_", overrides) or "default"


OmegaConf.register_new_resolver("run_name", run_name, replace=True)


class TensorBoardLogger:
    """Scalars and text into TensorBoard event files in the run directory."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.purge_step: int | None = None
        self._writer = None

    @property
    def writer(self):
        if self._writer is None:
            from torch.utils.tensorboard import SummaryWriter

            self._writer = SummaryWriter(log_dir=str(self.run_dir), purge_step=self.purge_step)
        return self._writer

    def resume(self, step: int) -> None:
        self.purge_step = step

    def scalars(self, step: int, values: dict[str, float]) -> None:
        for tag, value in values.items():
            self.writer.add_scalar(tag, value, step)
        self.writer.flush()

    def text(self, tag: str, text: str) -> None:
        self.writer.add_text(tag, text)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


EXIT_DIVERGED = 3
SCRIPT = EntryScript("train.py")


@hydra.main(version_base="1.3", config_path="configs", config_name="train")
def main(cfg: DictConfig) -> None:
    config: TrainConfig = SCRIPT.settings(cfg, TrainConfig)
    run_dir = Path(HydraConfig.get().runtime.output_dir)
    logger = TensorBoardLogger(run_dir)
    try:
        result = train(config, run_dir, logger)
    except (ConfigError, CheckpointError) as error:
        SCRIPT.fail(str(error))
    except TrainingDiverged as error:
        SCRIPT.fail(str(error), EXIT_DIVERGED)
    finally:
        logger.close()
    if os.environ.get("RANK", "0") != "0":
        return  # under torchrun, rank 0 reports
    if result.status == "complete":
        print(
            f"{run_dir} already trained {result.games} games (total_games={config.total_games}); "
            "raise total_games to train further, or override a setting for a new run."
        )
        return
    curve = draw_learning_curve(run_dir)
    verb = "stopped" if result.status == "interrupted" else "trained"
    print(f"{verb} at {result.games} games ({result.turns} turns) in {result.seconds:.0f} s")
    if result.evaluation:
        for name, value in result.evaluation.items():
            if isinstance(value, dict):
                low, high = value["ppg_ci95"]
                print(
                    f"  vs {name:<10} win {value['win_rate']:6.1%}  ppg {value['ppg']:+.3f} "
                    f"[{low:+.3f}, {high:+.3f}] over {value['games']} games"
                )
    print(f"checkpoint: {result.checkpoint}")
    if curve is not None:
        print(f"learning curve: {curve}")
    if result.status == "interrupted":
        print("run the same command to resume")


if __name__ == "__main__":
    SCRIPT.run(main)
