"""What the Hydra entry scripts share: their settings, one-line errors, and exit statuses.

``train.py``, ``evaluate.py``, ``export.py`` and ``play.py`` each make one
:class:`EntryScript`. A mistake in the command line or the settings exits with status 2
after one line on stderr (``train.py: error: ...``): what the script checks itself, and what
Hydra refuses before the job starts (``games=abc``, an unknown or mistyped key, with the
closest known names; a misspelt choice of a config group, ``game=tavla``, with the closest
choice; a run directory that cannot be created), and a damaged file the project
keeps for itself (the bear-off database), also when a worker process found it. A file that
cannot be written (a full disk, a file-size limit, a read-only folder) exits with status 1
after one line naming it and the cause. Status 1 with a traceback is left for a fault of the
program itself.

Where a script's settings live: ``configs/<script>.yaml`` holds their values and comments;
their schema is a dataclass named ``...Config`` in the ``agents`` module that does the
script's work (``agents/evaluation/tournament.py`` ``TournamentConfig``,
``agents/play/terminal.py`` ``PlayConfig``, ``agents/td/export_config.py`` ``ExportConfig``;
for ``train.py``, ``agents/runs/settings.py`` ``RunConfig`` and each algorithm's
``agents/<name>/config.py``, which ``configs/agent/<name>.yaml`` sets).
The script registers it with Hydra, and the YAML's first comment names it as
``path (Class)`` (tests/test_layout.py checks that each named file has its class).
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import sys
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import NoReturn, TypeVar

from hydra.errors import HydraException, MissingConfigException
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import ConfigAttributeError, ConfigKeyError, OmegaConfBaseException

from agents.errors import CachedFileError
from agents.storage.files import WriteError

EXIT_USAGE = 2  # a mistake in the command line or the settings, as argparse uses
EXIT_WRITE_FAILED = 1  # a file could not be written (the message names it and the cause)

# Set, Hydra lets an exception out of its entry point instead of printing it in several lines.
FULL_ERROR = "HYDRA_FULL_ERROR"

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
        known = list(schema.__dataclass_fields__)
        unknown = [key for key in cfg if key not in known]
        if unknown:
            self.fail(unknown_setting(str(unknown[0]), known))
        try:
            return OmegaConf.to_object(cfg)
        except OmegaConfBaseException as error:
            key = getattr(error, "full_key", None)
            detail = str(error).splitlines()[0]
            self.fail(f"{key}: {detail}" if key else detail)

    def job(self, task: Callable[[DictConfig], None]) -> Callable[[DictConfig], None]:
        """Decorate a script's job (under ``@hydra.main``) so that what the project refuses
        while the job runs ends the script in one line, before Hydra adds its own: a file
        that cannot be written (status 1) and a damaged file the project keeps for itself,
        also when a worker process found it (status 2)."""

        @functools.wraps(task)
        def reporting(cfg: DictConfig) -> None:
            try:
                task(cfg)
            except WriteError as error:  # a full disk, a file-size limit, a read-only folder
                self.fail(str(error), EXIT_WRITE_FAILED)
            except CachedFileError as error:  # with a worker's traceback attached
                self.fail(str(error))

        return reporting

    def run(self, main: Callable[[], None]) -> None:
        """Run a ``@hydra.main`` function. What Hydra refuses before the job starts (an
        override it cannot apply, a run directory it cannot create) is a mistake in the
        command line: one line and status 2. Exceptions from the job itself propagate."""
        asked = FULL_ERROR in os.environ  # a user debugging Hydra gets its whole story
        os.environ[FULL_ERROR] = "1"
        try:
            main()
        except SystemExit as stop:
            if stop.code == 1 and not self.job_started:
                sys.exit(EXIT_USAGE)
            raise
        except KeyboardInterrupt:
            # Ctrl-C before the job's own handling took over (while numba compiles the engine
            # on a first run, say): one line and the status of a SIGINT, not a traceback.
            print(f"\n{self.name}: stopped by Ctrl-C", file=sys.stderr)
            sys.exit(130)
        except (HydraException, OSError) as error:
            task = getattr(main, "__wrapped__", main)  # the function @hydra.main decorated
            if asked or raised_in(error.__traceback__, task):
                raise
            self.fail(hydra_refusal(error, self.known_settings()))
        finally:
            if not asked:
                os.environ.pop(FULL_ERROR, None)

    def known_settings(self) -> list[str] | None:
        """The settings of the script's schema, as it stores it for Hydra
        (``<script>_schema``); ``None`` for a script that stores none by that name."""
        from hydra.core.config_store import ConfigStore

        try:
            schema = ConfigStore.instance().load(f"{self.name.removesuffix('.py')}_schema.yaml")
        except (OSError, ValueError, LookupError):
            return None
        return [str(key) for key in schema.node]


def raised_in(traceback: TracebackType | None, function: Callable) -> bool:
    """Whether ``function`` was running when the exception of ``traceback`` was raised."""
    code = getattr(function, "__code__", None)
    while traceback is not None:
        if traceback.tb_frame.f_code is code:
            return True
        traceback = traceback.tb_next
    return False


def hydra_refusal(error: HydraException | OSError, known: Iterable[str] | None = None) -> str:
    """One line for what Hydra refused before the job: an override (a misspelt choice of a
    config group, ``game=tavla``, with the closest choice; a group the script does not have,
    with its settings ``known``) or the run directory."""
    if isinstance(error, MissingConfigException) and error.options and error.missing_cfg_file:
        return unknown_choice(error.missing_cfg_file, error.options)
    not_a_group = NOT_A_GROUP.match(str(error)) if isinstance(error, HydraException) else None
    if not_a_group and known is not None and not_a_group.group(1) not in known:
        return unknown_setting(not_a_group.group(1), known)
    cause = error.__cause__
    if isinstance(cause, (ConfigAttributeError, ConfigKeyError)) and cause.full_key:
        parent = cause.parent_node
        return unknown_setting(cause.full_key, parent.keys() if parent is not None else ())
    if isinstance(cause, OmegaConfBaseException) and getattr(cause, "full_key", None):
        key = cause.full_key
        if isinstance(getattr(cause, "child_node", None), DictConfig):
            return f"{key} is a group of settings: set one as {key}.NAME=VALUE"
        return wrong_value(key, str(cause).splitlines()[0])
    if isinstance(error, HydraException):
        lines = str(error).split("Config search path:")[0].splitlines()
        return " ".join(line.strip() for line in lines if line.strip())
    cause = error.strerror or str(error)
    if last_function(error.__traceback__) == "mkdir":
        return f"cannot create the run directory: {error.filename}: {cause}"
    return f"cannot write the run directory: {error.filename}: {cause}"


def unknown_setting(key: str, known: Iterable[str]) -> str:
    """A setting the schema lacks: the closest known names (``difflib``), or all of them."""
    parent, _, name = key.rpartition(".")
    prefix = f"{parent}." if parent else ""
    known = [str(k) for k in known if k != "hydra" or parent]
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    if close:
        return f"unknown setting {key!r}: did you mean {' or '.join(prefix + k for k in close)}?"
    within = f" of {parent}" if parent else ""
    return f"unknown setting {key!r}: the settings{within} are {', '.join(known)}"


def unknown_choice(missing: str, options: Iterable[str]) -> str:
    """A choice that a config group lacks (``game=tavla``: Hydra found no ``game/tavla``):
    the closest choice (``difflib``), and all of them."""
    group, _, name = missing.rpartition("/")
    options = [str(option) for option in options]
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    guess = f"; did you mean {close[0]}?" if close else ""
    kind = group.rpartition("/")[2]
    return f"{group}={name}: no such {kind}{guess} ({group} is one of {', '.join(options)})"


NOT_A_GROUP = re.compile(r"Could not override '([^']+)'\. No match in the defaults list")
"""Hydra's words for ``KEY=VALUE`` where ``KEY`` is a config group the script does not load."""


# OmegaConf's words for a value of the wrong type, and ours: "must be <kind>, got <value>".
EXPECTED = (
    (re.compile(r"Value '(.*)' of type '\w+' could not be converted to Integer"), "an integer"),
    (re.compile(r"Value '(.*)' of type '\w+' could not be converted to Float"), "a number"),
    (re.compile(r"Value '(.*)' is not a valid bool"), "true or false"),
)


def wrong_value(key: str, detail: str) -> str:
    """A value Hydra could not give the setting ``key`` (``total_games=abc``)."""
    for pattern, kind in EXPECTED:
        found = pattern.match(detail)
        if found:
            return f"{key} must be {kind}, got {found.group(1)!r}"
    if "is not a ListConfig, list or tuple" in detail:
        return f"{key} must be a list in brackets: {key}=[...]"
    return f"{key}: {detail}"


def last_function(traceback: TracebackType | None) -> str | None:
    """The name of the function in which the exception of ``traceback`` was raised."""
    name = None
    while traceback is not None:
        name = traceback.tb_frame.f_code.co_name
        traceback = traceback.tb_next
    return name
