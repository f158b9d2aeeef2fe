"""The TD algorithm, whole: a TD-Gammon-style network valued over afterstates and trained by
TD(λ) self-play.

===================  ==============================================================
module               what it holds
===================  ==============================================================
``network``          the torch network (:class:`TDNetwork`) and its shape
``evaluator``        the fast numpy/numba evaluator of its weights (no torch), Tapa's
``dense_evaluator``  the same for encodings folded over point tables (Tabla, Gulbara)
``evaluators``       the evaluator of a game's network, chosen by its encodings
``player``           :class:`TDPlayer`: greedy over the afterstates, 1-ply, 2-ply or 3-ply
``search``           the batched search (:mod:`agents.bots.search`) over the network
``learner``          λ-returns of finished games, and the pool of targets
``training``         the self-play training loop, :func:`agents.td.training.train`
``config``           the settings of ``configs/agent/td.yaml`` (:class:`TDConfig`)
``checkpoint``       training checkpoints (torch), their kind and network
``format``           the checkpoints' format name; telling them apart without torch
``bot_file``         exported bot files (numpy only)
``exporting``        checkpoint -> bot file and ONNX model (``export.py``)
``export_config``    the settings of ``export.py`` (:class:`ExportConfig`), without torch
``loading``          TD bots from files, for :func:`agents.load_player`
===================  ==============================================================

Importing this package imports neither torch nor the training code: a trained bot plays
with numpy alone. ``TDPlayer`` loads on first use, so that the settings (``config``) load
without the engine.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TDPlayer"]


def __getattr__(name: str) -> Any:
    if name != "TDPlayer":
        raise AttributeError(f"module 'agents.td' has no attribute {name!r}")
    from .player import TDPlayer

    return TDPlayer
