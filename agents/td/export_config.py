"""The settings of ``python export.py`` (``configs/export.yaml``), apart from the export
itself (:mod:`agents.td.exporting`, which needs torch), so that ``python export.py --help``
and a refused setting do not wait for torch."""

from __future__ import annotations

from dataclasses import dataclass

from omegaconf import MISSING


@dataclass
class ExportConfig:
    """The settings of ``python export.py`` (``configs/export.yaml``).

    Attributes:
        checkpoint: the training checkpoint to export (``last.pt`` or ``bot.pt`` of a run).
        out: the bot file to write, ending in ``.npz``; ``None``: the checkpoint's path with
            the extension ``.npz``.
        onnx: also write an ONNX model of the network, to ``out`` with the extension
            ``.onnx``.
    """

    checkpoint: str = MISSING
    out: str | None = None
    onnx: bool = False
