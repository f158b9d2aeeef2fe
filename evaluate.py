"""Compare players in a round robin: ``python evaluate.py players=[offensive,random] games=2000``.

Prints a table of every pairing (points per game with a 95% confidence interval, win rate,
how the games were won) and a rating per player, and writes ``results.json`` to the run
directory (and to ``out=PATH`` when given). ``python evaluate.py --help`` lists every setting.
``record_games=DIR`` also saves every game (every match) as a game record under ``DIR``, one
folder a pairing (docs/game-records.md).
With ``match_length=7`` the players play whole tabla matches (Tabla, Gulbara, Tapa in turn;
:mod:`agents.match`) and the table gives matches won with their interval.
With ``variance_reduction=true`` every pairing also shows its luck-adjusted points per game
(:mod:`agents.evaluation.luck`): the same mean, estimated with much less noise.

Every setting is checked before the first game. A mistake in the command line or the
settings exits with status 2 after one line on stderr, for what this script checks (an
unknown player, ``games=-1``, ``out=`` a directory) and for what Hydra refuses (``games=abc``,
an unknown key, a run directory that cannot be created). The status is 1, with a traceback,
only for a fault of the program itself.

A worker process that is lost (killed, out of memory) costs only the games it was playing:
they are played again in a new pool with the same dice, so the results are those of an
undisturbed run, and one line on stderr says so. When the same games kill their worker
three times, the run stops with one line naming them and the cause, and status 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig
from tqdm import tqdm

from agents.errors import ConfigError, MatchError, PlayerSpecError
from agents.evaluation.game_record import GameRecordError, check_record_directory
from agents.evaluation.tournament import (
    TournamentConfig,
    check_config,
    check_output_path,
    format_table,
    round_robin,
)
from agents.evaluation.workers import WorkerDied
from agents.match.tournament import check_match_config, format_match_table, match_round_robin
from agents.storage.files import write_bytes_atomically
from entry import EntryScript

SCRIPT = EntryScript("evaluate.py")
ConfigStore.instance().store(name="evaluate_schema", node=TournamentConfig)


@hydra.main(version_base="1.3", config_path="configs", config_name="evaluate")
@SCRIPT.job
def main(cfg: DictConfig) -> None:
    run_dir = Path(HydraConfig.get().runtime.output_dir)
    try:
        settings = SCRIPT.settings(cfg, TournamentConfig)
        match = settings.match_length is not None
        config = (check_match_config if match else check_config)(settings)
        paths = [check_output_path(run_dir / "results.json")]
        if config.out:
            paths.append(check_output_path(config.out, label=f"out={config.out}"))
        if config.record_games:
            check_record_directory(config.record_games, f"record_games={config.record_games}")
    except (ConfigError, PlayerSpecError, GameRecordError, MatchError) as error:
        SCRIPT.fail(str(error))
    per_game = "matches" if config.match_points or match else "games"
    pairings = len(config.players) * (len(config.players) - 1) // 2
    try:
        with tqdm(
            total=pairings * config.games, unit=per_game, desc="round robin", file=sys.stderr
        ) as bar:
            results = (match_round_robin if match else round_robin)(
                config,
                progress=bar.update,
                notice=lambda line: bar.write(f"{SCRIPT.name}: {line}", file=sys.stderr),
            )
    except WorkerDied as error:
        SCRIPT.fail(str(error), status=1)
    print((format_match_table if match else format_table)(results))
    text = json.dumps(results, indent=2) + "\n"
    for path in paths:  # a failed write is one line (entry.py), the old file left whole
        write_bytes_atomically(path, text.encode())
    print(f"\nresults written to {', '.join(str(p) for p in paths)}")
    if config.record_games:
        print(f"game records written under {config.record_games} (docs/game-records.md)")


if __name__ == "__main__":
    SCRIPT.run(main)
