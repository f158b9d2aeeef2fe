"""Play a bot at Tapa in the terminal: ``python play.py [opponent=NAME_OR_PATH] [match=7]``.

Draws the board from your side, lists your legal plays with numbers and their notation
(docs/formats.md, "Play notation"), and reads your play as a number or as notation; ``hint``
asks the bot, ``undo`` takes a play back before you confirm it, ``quit`` (or end of input, or
Ctrl-C) leaves. Input may be piped: a script of answers plays whole games.
``python play.py --help`` lists every setting.

Every setting is checked before the first game. A mistake in the command line or the
settings exits with status 2 after a short message on stderr (one line for what this script
checks, Hydra's few lines for an override it cannot apply); leaving a game exits with 0.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import fields

import hydra
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from agents.terminal import PlayConfig, PlayError, Session, check_config

EXIT_USAGE = 2  # a mistake in the command line or the settings, as argparse uses

ConfigStore.instance().store(name="play_schema", node=PlayConfig)
_job_started = False  # whether Hydra composed the config and called main


def play_config(cfg: DictConfig) -> PlayConfig:
    """The settings Hydra composed, as a :class:`PlayConfig` (not yet checked)."""
    names = [f.name for f in fields(PlayConfig)]
    unknown = [key for key in cfg if key not in names]
    if unknown:
        raise PlayError(f"unknown setting {unknown[0]!r}: the settings are {', '.join(names)}")
    try:
        values = OmegaConf.to_container(cfg, resolve=True)
    except OmegaConfBaseException as error:  # an interpolation that does not resolve
        key = getattr(error, "full_key", None)
        detail = str(error).splitlines()[0]
        raise PlayError(f"{key}: {detail}" if key else detail) from error
    return PlayConfig(**values)


@hydra.main(version_base="1.3", config_path="configs", config_name="play")
def main(cfg: DictConfig) -> None:
    global _job_started
    _job_started = True
    try:
        config, opponent, hinter, rules = check_config(play_config(cfg))
    except PlayError as error:
        print(f"play.py: error: {error}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    width = min(shutil.get_terminal_size((100, 40)).columns, 100)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history at the prompt)
        except ImportError:
            pass
    session = Session(config, opponent, hinter, rules, sys.stdin, sys.stdout, width)
    try:
        status = session.run()
    except KeyboardInterrupt:
        print(f"\n{session.farewell()}")
        status = 0
    except BrokenPipeError:
        quiet_stdout()
        status = 1
    sys.exit(status)


def quiet_stdout() -> None:
    """After the reader of stdout went away (``| head``): point stdout at devnull, so that
    the interpreter's last flush fails no more and the program ends quietly."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # play.py --help | head
        quiet_stdout()
        sys.exit(1)
    except SystemExit as stop:
        # Hydra exits with 1 after its message about a bad override (an unknown key, a
        # value of the wrong type) without calling main: a mistake in the command line too.
        if stop.code == 1 and not _job_started:
            sys.exit(EXIT_USAGE)
        raise
