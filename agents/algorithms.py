"""The one list of training algorithms: what ``train.py``, :func:`agents.load_player` and the
layout test read.

Each algorithm lives whole in its package ``agents/<name>/`` and is named here by strings
alone, so that reading this list imports no algorithm (nor torch): ``load_player`` asks each
algorithm's reader only when a file is to be loaded, and ``train.py`` imports the training
function only when a run starts.

Adding one (say ``dqn``): the package ``agents/dqn/`` with its settings schema (a
:class:`agents.runs.settings.RunConfig` dataclass with its own groups), ``train(config,
run_dir, logger) -> TrainResult`` and, if it writes bot files of its own, a reader module
(``recognises(path) -> bool``, ``load(path, rules, ply) -> Player``); the settings file
``configs/agent/dqn.yaml``; and one entry in :data:`ALGORITHMS`.

>>> sorted(ALGORITHMS)
['ppo', 'td']
>>> ALGORITHMS["td"].package
'agents.td'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _named(reference: str) -> Any:
    """The object ``module:name`` names, its module imported."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Algorithm:
    """A training algorithm, by the names of its parts.

    ``config`` (``module:Class``) is its settings schema, a ``RunConfig`` dataclass that
    ``configs/agent/<name>.yaml`` names as ``/schema/<name>``; ``trainer`` (``module:function``)
    trains; ``reader`` (a module, or ``None``) reads the bot files it writes.
    """

    name: str
    config: str
    trainer: str
    reader: str | None = None

    @property
    def package(self) -> str:
        """Its package, where all of it lives: ``agents.<name>``."""
        return f"{__package__}.{self.name}"

    def schema(self) -> type:
        """Its settings' dataclass (imports the settings module only: no torch, no engine)."""
        return _named(self.config)

    def train(self, config: Any, run_dir: Path, logger: Any = None) -> Any:
        """Train in ``run_dir`` by ``config`` (a :meth:`schema` instance), resuming what it
        holds, logging to ``logger`` (an :class:`agents.runs.logs.Logger`); the
        :class:`agents.runs.settings.TrainResult`. Imports the training code."""
        return _named(self.trainer)(config, run_dir, logger)

    def bot_reader(self) -> Any:
        """The module that reads its bot files (``recognises``, ``load``), or ``None``."""
        return None if self.reader is None else importlib.import_module(self.reader)


ALGORITHMS: dict[str, Algorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        Algorithm(
            "td", "agents.td.config:TDConfig", "agents.td.training:train", "agents.td.loading"
        ),
        Algorithm(
            "ppo", "agents.ppo.config:PPOConfig", "agents.ppo.training:train", "agents.ppo.loading"
        ),
    )
}
"""The algorithms by name, the default (``agent=td``) first: ``agent=<name>`` selects
``configs/agent/<name>.yaml`` and this entry. A bot file no reader recognises is explained by
the first algorithm's reader."""
