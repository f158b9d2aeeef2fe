"""What the Hydra entry scripts share: their settings, one-line errors, and exit statuses.

``train.py``, ``evaluate.py``, ``export.py`` and ``play.py`` each make one
:class:`EntryScript`. A mistake in the command line or the settings exits with status 2
after a short message on stderr: one line (``train.py: error: ...``) for what the script
checks, Hydra's few lines for an override Hydra cannot apply (``games=abc``, an unknown key).
Status 1 with a traceback is left for a fault of the program itself.

Where a script's settings live: ``configs/<script>.yaml`` holds their values and comments; their
schema is a dataclass named ``...Config`` in the ``agents`` module that does the script's work
(``agents/tournament.py`` ``TournamentConfig``, ``agents/terminal.py`` ``PlayConfig``,
``agents/td/exporting.py`` ``ExportConfig``; for ``train.py``, ``agents/runs.py`` ``RunConfig``
and each algorithm's ``agents/<name>/config.py``, which ``configs/agent/<name>.yaml`` sets).
The script registers it with Hydra, and the YAML's first comment names it as
``path (Class)`` (tests/test_layout.py checks that each named file has its class).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn, TypeVar

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

EXIT_USAGE = 2  # a mistake in the command line or the settings, as argparse uses

Settings = TypeVar("Settings")


class EntryScript:
    """One entry script: its name for messages, and whether Hydra got as far as its job."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.job_started = False

    def fail(self, message: str, status: int = EXIT_USAGE) -> NoReturn:
        """One line on stderr naming the script and the problem, then exit with ``status``."""
        print(f"{self.name}: error: {message}", file=sys.stderr)
        sys.exit(status)

    def settings(self, cfg: DictConfig, schema: type[Settings]) -> Settings:
        """The settings Hydra composed, as a ``schema`` dataclass (not yet checked): an
        unknown key (``+colour=red``) or an interpolation that does not resolve fails."""
        self.job_started = True
        known = schema.__dataclass_fields__
        unknown = [key for key in cfg if key not in known]
        if unknown:
            self.fail(f"unknown setting {unknown[0]!r}: the settings are {', '.join(known)}")
        try:
            return OmegaConf.to_object(cfg)
        except OmegaConfBaseException as error:
            key = getattr(error, "full_key", None)
            detail = str(error).splitlines()[0]
            self.fail(f"{key}: {detail}" if key else detail)

    def run(self, main: Callable[[], None]) -> None:
        """Run a ``@hydra.main`` function. Hydra exits with 1 after its message about an
        override it cannot apply, before the job starts: a mistake in the command line too."""
        try:
            main()
        except SystemExit as stop:
            if stop.code == 1 and not self.job_started:
                sys.exit(EXIT_USAGE)
            raise
