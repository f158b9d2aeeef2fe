"""Play a bot in the terminal: ``python play.py [game=tabla] [opponent=NAME_OR_PATH] [match=7]``,
or the tabla match: ``python play.py match_length=7 [match_opponent=shipped]``.

Tapa by default; ``game=tabla`` or ``game=gulbara`` plays the match's other games (the config
group ``game/``, with each game's rule flags), against the game's shipped bot or, while it has
none, its strongest built-in bot. ``match_length=N`` plays the Bulgarian match of the three
games in turn, Tabla, Gulbara and Tapa, to N points, against a match side
(``match_opponent``: each game's shipped bot playing to the match score by default).

Draws the board from your side, lists your legal plays with numbers and their notation
(docs/formats.md, "Play notation"), and reads your play as a number or as notation; ``hint``
asks the bot, ``undo`` takes a play back before you confirm it, ``quit`` (or end of input, or
Ctrl-C) leaves. Input may be piped: a script of answers plays whole games. Each session is
saved as a game record (docs/game-records.md), by default a new file in ``games/``
(``record=PATH``; ``record=null`` saves nothing), and the last line says where.
``python play.py --help`` lists every setting.

Every setting is checked before the first game. A mistake in the command line or the
settings exits with status 2 after one line on stderr (``match=abc``, ``match_length=0`` or
past 25, an unknown player, a match side without a player for every game); leaving a game
exits with 0.
"""

from __future__ import annotations

import os
import shutil
import sys

import hydra
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig

from agents.play.match_session import open_session
from agents.play.terminal import PlayConfig, PlayError, check_config
from agents.records import GameRecordError, record_destination
from entry import EntryScript

SCRIPT = EntryScript("play.py")
ConfigStore.instance().store(name="play_schema", node=PlayConfig)


@hydra.main(version_base="1.3", config_path="configs", config_name="play")
@SCRIPT.job
def main(cfg: DictConfig) -> None:
    try:
        config, opponent, hinter, rules = check_config(SCRIPT.settings(cfg, PlayConfig))
        record_to = None
        if config.record is not None:
            record_to = record_destination(config.record, f"record={config.record}")
    except (PlayError, GameRecordError) as error:
        SCRIPT.fail(str(error))
    width = min(shutil.get_terminal_size((100, 40)).columns, 100)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history at the prompt)
        except ImportError:
            pass
    session = open_session(
        config, opponent, hinter, rules, sys.stdin, sys.stdout, width, record_to=record_to
    )
    try:
        status = session.run()
    except KeyboardInterrupt:
        print(f"\n{session.farewell()}")
        session.save_record(announce=True)
        status = 0
    except BrokenPipeError:
        quiet_stdout()
        session.save_record()
        status = 1
    sys.exit(status)


def quiet_stdout() -> None:
    """After the reader of stdout went away (``| head``): point stdout at devnull, so that
    the interpreter's last flush fails no more and the program ends quietly."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    try:
        SCRIPT.run(main)
    except BrokenPipeError:  # play.py --help | head
        quiet_stdout()
        sys.exit(1)
