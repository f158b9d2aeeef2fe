"""Analyse a position: ``python analyze.py position=24:15|1:15| dice=6,5``; of another game
``python analyze.py game=tabla player=BOT position=tabla/... dice=6,5``.

Lists every legal play of the roll in notation, best first, with its equity (expected points
for the side to play) at one ply, at two plies and by rollout, the rollout's standard error,
how far it is behind the best play with the standard error of that difference from the paired
trials (``*`` where it exceeds two of them), and the outcome chances (single and double wins,
draws, single and double losses);
``out=PATH`` also writes them as JSON. ``python analyze.py record=FILE`` analyses a recorded
game instead, of the game the record names (a ``game=`` given must be it, or for a tabla
match a game of its order), each game of a match by the bot ``player=`` names for its game.
``python analyze.py --help`` lists every setting.

``position=``, ``dice=``, ``record=``, ``out=`` and ``player=`` are taken as they are typed
(a key with commas, JSON in braces, ``dice=6,5``, one bot per game of a recorded match
separated by commas), not read by Hydra's grammar. Every setting is checked
before any work: a mistake exits with status 2 after one line on stderr.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig
from tqdm import tqdm

from agents.analysis.config import AnalyzeConfig
from agents.storage.files import write_bytes_atomically
from entry import EntryScript

SCRIPT = EntryScript("analyze.py")
ConfigStore.instance().store(name="analyze_schema", node=AnalyzeConfig)

VERBATIM = ("position", "dice", "record", "out", "player")
"""Settings whose values are text as typed: commas, braces and brackets are no grammar."""


def verbatim(arguments: list[str]) -> list[str]:
    """The command line with each ``KEY=VALUE`` of :data:`VERBATIM` quoted for Hydra, so that
    ``dice=6,5`` is the text ``6,5`` and not a sweep, and JSON is not a dict."""
    quoted = []
    for argument in arguments:
        key, equals, value = argument.partition("=")
        if equals and key in VERBATIM and value and value[0] not in "'\"" and value != "null":
            value = re.sub(r"(\\*)'", lambda m: 2 * m.group(1) + "\\'", value)
            value = re.sub(r"(\\+)$", lambda m: 2 * m.group(1), value)
            argument = f"{key}='{value}'"
        quoted.append(argument)
    return quoted


@hydra.main(version_base="1.3", config_path="configs", config_name="analyze")
@SCRIPT.job
def main(cfg: DictConfig) -> None:
    from agents.analysis.positions import (
        AnalyzeError,
        analyse_position,
        check_config,
        format_analysis,
    )
    from agents.errors import ConfigError
    from agents.evaluation.tournament import check_output_path
    from agents.evaluation.workers import WorkerDied

    try:
        analysis = check_config(SCRIPT.settings(cfg, AnalyzeConfig))
        config = analysis.config
        if config.out:
            check_output_path(config.out, label=f"out={config.out}")
    except (AnalyzeError, ConfigError) as error:
        SCRIPT.fail(str(error))
    if config.record:
        from agents.analysis.games import analyze_game_file, format_game_report

        if not names_the_game(HydraConfig.get().overrides.task):
            config = replace(config, game=None)  # the record names its game
        try:
            report = analyze_game_file(Path(config.record), config)
        except ValueError as error:  # a record that cannot be read: one line naming it
            SCRIPT.fail(str(error))
        print(format_game_report(report))
    else:
        bars = []  # the rollout's progress bar, made when the rollout starts

        def started(games: int) -> None:
            tqdm.monitor_interval = 0  # no monitor thread, so the workers can start by fork
            bars.append(tqdm(total=games, unit="games", desc="rollout", file=sys.stderr))

        try:
            report = analyse_position(
                analysis.player,
                analysis.position,
                analysis.dice,
                analysis.rules,
                trials=config.trials,
                candidates=config.candidates,
                seed=config.seed,
                truncate=config.truncate,
                workers=config.workers,
                progress=lambda games: bars[-1].update(games),
                rollout_started=started,
            )
        except WorkerDied as error:
            SCRIPT.fail(str(error), status=1)
        finally:
            for bar in bars:
                bar.close()
        report["player"] = config.player
        print(format_analysis(report))
    if config.out:  # a failed write is one line (entry.py), the old file left whole
        text = json.dumps(report, indent=2) + "\n"
        write_bytes_atomically(Path(config.out), text.encode())
        print(f"\nanalysis written to {config.out}")


def names_the_game(overrides: Iterable[str]) -> bool:
    """Whether the command line's ``overrides`` choose the game (``game=tabla``): a record's
    analysis then checks that it is the record's; without, the record's own is taken."""
    return any(override.lstrip("+~").partition("=")[0] == "game" for override in overrides)


def check_old_record_form(arguments: list[str]) -> None:
    """Refuse in one line ``game=FILE``, the recorded game's old key: ``game=`` names the game
    now (Hydra would answer it with a config group it cannot find). A ``game=`` that names no
    file is a misspelt game, which Hydra's refusal answers with the closest (entry.py)."""
    from tapa_env.rules import GAMES

    for argument in arguments:
        key, equals, value = argument.partition("=")
        if key == "game" and equals and value not in GAMES and names_a_file(value):
            SCRIPT.fail(
                f"game= names the game now ({', '.join(GAMES)}); give a recorded game as "
                f"record={value}"
            )


def names_a_file(value: str) -> bool:
    """Whether ``value`` reads as a file's path: a file there, a folder in it, or an
    extension (``games/x.tapa``, ``x.tapa``), not a word such as a misspelt game."""
    return Path(value).expanduser().exists() or "/" in value or "." in value or "\\" in value


if __name__ == "__main__":
    check_old_record_form(sys.argv[1:])
    sys.argv[1:] = verbatim(sys.argv[1:])
    SCRIPT.run(main)
