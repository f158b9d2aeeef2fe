"""Compare players in a round robin: ``python evaluate.py players=[offensive,random] games=2000``.

Prints a table of every pairing (points per game with a 95% confidence interval, win rate,
how the games were won) and a rating per player, and writes ``results.json`` to the run
directory (and to ``out=PATH`` when given). ``python evaluate.py --help`` lists every setting.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf
from tqdm import tqdm

from agents.tournament import TournamentConfig, format_table, round_robin

ConfigStore.instance().store(name="evaluate_schema", node=TournamentConfig)


@hydra.main(version_base="1.3", config_path="configs", config_name="evaluate")
def main(cfg: DictConfig) -> None:
    config = TournamentConfig(**OmegaConf.to_container(cfg, resolve=True))
    per_game = "matches" if config.match_points else "games"
    pairings = len(config.players) * (len(config.players) - 1) // 2
    with tqdm(
        total=pairings * config.games, unit=per_game, desc="round robin", file=sys.stderr
    ) as bar:
        results = round_robin(config, progress=bar.update)
    print(format_table(results))
    paths = [Path(HydraConfig.get().runtime.output_dir) / "results.json"]
    if config.out:
        paths.append(Path(config.out))
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nresults written to {', '.join(str(p) for p in paths)}")


if __name__ == "__main__":
    main()
