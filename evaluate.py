"""Compare players in a round robin: ``python evaluate.py players=[offensive,random] games=2000``.

Prints a table of every pairing (points per game with a 95% confidence interval, win rate,
how the games were won) and a rating per player, and writes ``results.json`` to the run
directory (and to ``out=PATH`` when given). ``python evaluate.py --help`` lists every setting.
``record_games=DIR`` also saves every game (every match) as a game record under ``DIR``, one
folder a pairing (docs/game-records.md); a directory that holds the records of an earlier run
is refused, unless ``overwrite_records=true`` has them removed before the first game.
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

SIGINT (``Ctrl-C``) and SIGTERM (``kill``, ``timeout``) stop the run: the worker processes
are ended, one line on stderr says how many games were finished and that no results were
written (the results need every game), and the status is 130 or 143. A results file is
written whole or not at all, and so is each game record; the records of the games finished
before the stop stay. Run again to play them all: the results are those of an undisturbed run.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import NoReturn

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig
from tqdm import tqdm

from agents.errors import ConfigError, MatchError, PlayerSpecError
from agents.evaluation.tournament import (
    TournamentConfig,
    check_config,
    check_output_path,
    format_table,
    round_robin,
)
from agents.evaluation.workers import (
    STOP_SIGNALS,
    Stopped,
    WorkerDied,
    signals_held,
    stop_behind,
    stop_on_signals,
)
from agents.match.tournament import check_match_config, format_match_table, match_round_robin
from agents.records import GameRecordError, check_record_directory
from agents.records.tournament import (
    check_earlier_records,
    count,
    earlier_records,
    remove_records,
    remove_unfinished_writes,
)
from agents.storage.files import write_bytes_atomically
from entry import EntryScript

SCRIPT = EntryScript("evaluate.py")
ConfigStore.instance().store(name="evaluate_schema", node=TournamentConfig)


class Progress:
    """How far the run got, for the line a stop prints: the games (or matches) finished of
    all, and the files the results went to."""

    def __init__(self) -> None:
        self.unit = "games"
        self.total: int | None = None  # None until the settings are checked
        self.finished = 0
        self.records: str | None = None
        self.written: list[Path] = []

    def stopped(self, stop: Stopped) -> str:
        """One line: what was finished when ``stop`` came, and what was written."""
        if self.written:
            return f"stopped by {stop.signal} after the results were written whole"
        if self.total is None:
            return f"stopped by {stop.signal} before the first game: no results written"
        line = (
            f"stopped by {stop.signal} after {self.finished} of {self.total} {self.unit}: the "
            "results are incomplete, and none were written"
        )
        if self.records:
            remove_unfinished_writes(self.records)
            kept = len(earlier_records(self.records))
            if kept:
                line += (
                    f"; {count(kept, 'game record')} kept under {self.records} "
                    "(overwrite_records=true replaces them)"
                )
        return line


PROGRESS = Progress()


def stopped(stop: Stopped) -> NoReturn:
    """End the program after ``stop``: one line on stderr, and the signal's exit status.
    The workers have ended by now; a signal more changes nothing."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    print(f"{SCRIPT.name}: {PROGRESS.stopped(stop)}", file=sys.stderr)
    sys.exit(stop.status)


@hydra.main(version_base="1.3", config_path="configs", config_name="evaluate")
@SCRIPT.job
def main(cfg: DictConfig) -> None:
    try:
        evaluate(cfg, PROGRESS)
    except Stopped as stop:
        stopped(stop)
    except Exception as error:  # a compiled kernel's caller turns a Stopped into its own error
        stop = stop_behind(error)
        if stop is None:
            raise
        stopped(stop)


def evaluate(cfg: DictConfig, progress: Progress) -> None:
    """Check the settings, play the round robin, print its table and write results.json."""
    run_dir = Path(HydraConfig.get().runtime.output_dir)
    try:
        settings = SCRIPT.settings(cfg, TournamentConfig)
        match = settings.match_length is not None or settings.match_games is not None
        config = (check_match_config if match else check_config)(settings)
        with signals_held():  # a file made to check the path is removed again
            paths = [check_output_path(run_dir / "results.json")]
            if config.out:
                paths.append(check_output_path(config.out, label=f"out={config.out}"))
            earlier = []
            if config.record_games:
                label = f"record_games={config.record_games}"
                check_record_directory(config.record_games, label)
                earlier = check_earlier_records(
                    config.record_games, config.overwrite_records, label
                )
    except (ConfigError, PlayerSpecError, GameRecordError, MatchError) as error:
        SCRIPT.fail(str(error))
    if config.record_games:
        remove_unfinished_writes(config.record_games)
        if earlier:
            try:
                remove_records(earlier)
            except OSError as error:
                SCRIPT.fail(
                    f"record_games={config.record_games}: cannot remove the records of the "
                    f"earlier run: {error.filename}: {error.strerror or error}",
                    status=1,
                )
            print(
                f"{SCRIPT.name}: record_games={config.record_games}: removed the "
                f"{count(len(earlier), 'game record')} of an earlier run (overwrite_records=true)",
                file=sys.stderr,
            )
    progress.unit = "matches" if config.match_points or match else "games"
    pairings = len(config.players) * (len(config.players) - 1) // 2
    progress.total = pairings * config.games
    progress.records = config.record_games

    def finished(number: int) -> None:
        progress.finished += number
        bar.update(number)

    try:
        with tqdm(
            total=progress.total, unit=progress.unit, desc="round robin", file=sys.stderr
        ) as bar:
            results = (match_round_robin if match else round_robin)(
                config,
                progress=finished,
                notice=lambda line: bar.write(f"{SCRIPT.name}: {line}", file=sys.stderr),
            )
    except WorkerDied as error:
        SCRIPT.fail(str(error), status=1)
    with signals_held():  # the table and every results file, or a stop before them
        print((format_match_table if match else format_table)(results))
        text = json.dumps(results, indent=2) + "\n"
        for path in paths:  # a failed write is one line (entry.py), the old file left whole
            write_bytes_atomically(path, text.encode())
        progress.written = paths
        print(f"\nresults written to {', '.join(str(p) for p in paths)}")
        if config.record_games:
            print(f"game records written under {config.record_games} (docs/game-records.md)")


if __name__ == "__main__":
    with stop_on_signals():
        try:
            SCRIPT.run(main)
        except Stopped as stop:  # while Hydra set the job up, or after it
            stopped(stop)
