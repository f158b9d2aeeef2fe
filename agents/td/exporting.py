"""Export a training checkpoint as a portable bot file and, optionally, an ONNX model (torch).

``python export.py`` runs this (docs/bot-files.md): it reads a checkpoint
(:mod:`agents.td.checkpoint`), writes its network as a bot file (:mod:`agents.td.bot_file`, which
plays with numpy alone) and, with ``onnx=true``, as an ONNX model that takes encoded
positions and returns outcome probabilities, checked with onnxruntime against torch.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import logging
import os
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from tapa_env import generate_afterstates
from tapa_env.encoding import get_encoding
from tapa_env.rules import AnyRules
from tapa_env.selfplay import random_self_play

from ..bots.equity import OUTCOMES
from ..errors import ConfigError
from ..evaluation.tournament import check_output_path
from ..storage.files import first_line, publish, write_atomically
from . import bot_file
from .checkpoint import network_of, rules_of, shape_of
from .export_config import ExportConfig
from .network import TDNetwork

ONNX_SUFFIX = ".onnx"
CHECKSUM_SUFFIX = ".sha256"
"""The ONNX model's checksum file is the model's path with this added (``bot.onnx.sha256``)."""
ONNX_INPUT = "features"
ONNX_OUTPUT = "probabilities"
ONNX_PACKAGES = ("onnx", "onnxscript", "onnxruntime")
INSTALL_HINT = 'pip install -e ".[export]"'
ONNX_TOLERANCE = 1e-5
"""The largest absolute difference allowed between onnxruntime's and torch's probabilities."""
CHECK_AFTERSTATES = 4096
"""How many encoded afterstates the exported models are checked on."""


class ExportError(ValueError):
    """A setting or a file that cannot be exported; the one-line message names it."""


@dataclass(frozen=True)
class ExportPlan:
    """The checked paths of an export: read ``checkpoint``, write ``out`` and ``onnx``."""

    checkpoint: Path
    out: Path
    onnx: Path | None


def plan(config: ExportConfig) -> ExportPlan:
    """Check the settings and return the paths; :class:`ExportError` names what is wrong.

    Refuses an empty checkpoint path, a checkpoint that is a bot file already or another
    ``.npz`` archive (as :func:`agents.load_player` does: not a tapa-rl bot file), an ``out``
    that does not end in ``.npz`` or cannot be written, and an output path that is the
    checkpoint itself. Creates missing parent directories of the outputs; writes nothing
    else.
    """
    if not str(config.checkpoint).strip():
        raise ExportError("checkpoint= is empty: give the path of a training checkpoint")
    checkpoint = Path(str(config.checkpoint).strip()).expanduser()
    if bot_file.is_bot_file(checkpoint):
        raise ExportError(
            f"{checkpoint}: is already an exported bot file; export.py reads a training "
            "checkpoint (a .pt file that train.py wrote)"
        )
    if bot_file.is_npz_archive(checkpoint):  # numpy's archive, which holds no checkpoint
        try:
            bot_file.read(checkpoint)  # says what every player loader says of it
        except bot_file.BotFileError as error:
            raise ExportError(str(error)) from None
    if config.out is None:
        out = checkpoint.with_suffix(bot_file.SUFFIX)
        label = f"out (default {out})"
    else:
        out = Path(str(config.out).strip()).expanduser()
        label = f"out={config.out}"
        if out.suffix.lower() != bot_file.SUFFIX:
            raise ExportError(
                f"{label}: a bot file's name ends in {bot_file.SUFFIX}, such as "
                f"{out.with_suffix(bot_file.SUFFIX)}"
            )
    onnx = out.with_suffix(ONNX_SUFFIX) if config.onnx else None
    for target, what in ((out, label), (onnx, f"the ONNX model {onnx}")):
        if target is None:
            continue
        if _same_file(target, checkpoint):
            raise ExportError(
                f"{what} is the checkpoint itself; export never overwrites its checkpoint: "
                "choose another out="
            )
        try:
            check_output_path(target, label=what)
        except ConfigError as error:
            raise ExportError(str(error)) from None
    return ExportPlan(checkpoint, out, onnx)


def _same_file(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def bot_file_contents(content: dict) -> tuple[dict[str, Any], list[tuple[np.ndarray, np.ndarray]]]:
    """The metadata and layers of the bot file of a checked checkpoint ``content``."""
    shape = shape_of(content)
    metadata = bot_file.describe(
        shape.encoding,
        shape.hidden,
        shape.activation,
        rules_of(content),
        content.get("games_trained", 0),
        content.get("turns_trained", 0),
    )
    weights = content["weights"]
    layers = []
    for index in range(len(shape.hidden) + 1):
        weight, bias = bot_file.weight_names(index)
        layers.append((_array(weights[weight]), _array(weights[bias])))
    return metadata, layers


def _array(value: Any) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    return np.array(value, dtype=np.float32)


def export_bot_file(content: dict, out: Path) -> bot_file.BotFile:
    """Write the bot file of checkpoint ``content`` to ``out`` atomically; return it as read
    back from disk."""
    metadata, layers = bot_file_contents(content)
    bot_file.write(out, metadata, layers)
    return bot_file.read(out)


def check_afterstates(rules: AnyRules, count: int = CHECK_AFTERSTATES, seed: int = 0) -> np.ndarray:
    """``(count, ROW_WIDTH)`` int8 afterstates of random self-play under ``rules``, spread over
    whole games (openings to bear-offs), each in the frame of the side that just moved."""
    record = random_self_play(max(4, count // 400), seed=seed, rules=rules)
    rows, _ = generate_afterstates(record.positions, record.dice, rules)
    picks = np.linspace(0, len(rows) - 1, min(count, len(rows))).astype(np.int64)
    return rows[picks]


def torch_probabilities(network: TDNetwork, features: np.ndarray) -> np.ndarray:
    """``(B, 5)`` float32 probabilities of encoded ``features`` ``(B, input_size)`` float32."""
    with torch.no_grad():
        return network.probabilities(torch.from_numpy(features)).numpy()


def bot_file_difference(exported: bot_file.BotFile, network: TDNetwork, rows: np.ndarray) -> float:
    """The largest absolute difference between the bot file's numpy evaluator and torch over
    afterstate ``rows`` ``(B, ROW_WIDTH)`` int8: of the order of 1e-7, from the evaluator's
    fast ``exp`` and its order of sums."""
    features = get_encoding(network.shape.encoding, network.shape.game).encode(rows)
    ours = exported.evaluator().probabilities(rows)
    return float(np.abs(ours - torch_probabilities(network, features)).max())


def missing_onnx_packages() -> list[str]:
    """The packages ONNX export needs (:data:`ONNX_PACKAGES`) that are not installed."""
    return [name for name in ONNX_PACKAGES if importlib.util.find_spec(name) is None]


def require_onnx_packages() -> None:
    """Raise :class:`ExportError` naming the missing packages and the command that installs
    them, unless every package ONNX export needs is installed."""
    missing = missing_onnx_packages()
    if missing:
        raise ExportError(
            f"onnx=true needs {', '.join(ONNX_PACKAGES)}; missing: {', '.join(missing)}. "
            f"Install them with: {INSTALL_HINT}"
        )


class _Probabilities(torch.nn.Module):
    """The network with its softmax: ``features`` ``(B, F)`` -> ``probabilities`` ``(B, 5)``."""

    def __init__(self, network: TDNetwork) -> None:
        super().__init__()
        self.network = network

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.network(features), dim=-1)


@contextlib.contextmanager
def _quiet():
    """Silence the exporter's progress lines, warnings and log records (its errors still
    raise)."""
    logger = logging.getLogger("torch.onnx")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


def _torch_export(network: TDNetwork, path: Path) -> str:
    """Export ``network`` with its softmax to ``path``; the exporter that worked.

    Tries the dynamo exporter first, then the TorchScript-based one; an
    :class:`ExportError` gives both failures.
    """
    model = _Probabilities(network).eval()
    example = (torch.zeros(2, network.shape.input_size, dtype=torch.float32),)
    names = {"input_names": [ONNX_INPUT], "output_names": [ONNX_OUTPUT]}
    try:
        with _quiet():
            torch.onnx.export(
                model,
                example,
                str(path),
                dynamo=True,
                external_data=False,
                verbose=False,
                dynamic_shapes={ONNX_INPUT: {0: torch.export.Dim("batch")}},
                **names,
            )
        return "dynamo"
    except Exception as dynamo_error:
        try:
            with _quiet():
                torch.onnx.export(
                    model,
                    example,
                    str(path),
                    dynamo=False,
                    opset_version=17,
                    dynamic_axes={ONNX_INPUT: {0: "batch"}, ONNX_OUTPUT: {0: "batch"}},
                    **names,
                )
            return "torchscript"
        except Exception as legacy_error:
            raise ExportError(
                f"torch could not export the network to ONNX: dynamo exporter: "
                f"{first_line(dynamo_error)}; TorchScript exporter: "
                f"{first_line(legacy_error)}"
            ) from None


def _describe_model(path: Path, metadata: dict) -> None:
    """Record the bot file's metadata in the ONNX model's ``metadata_props``."""
    import onnx

    model = onnx.load(str(path))
    onnx.helper.set_model_props(
        model,
        {
            "format": "tapa-rl/bot-onnx",
            "encoding_version": metadata["encoding_version"],
            "outcomes": ",".join(OUTCOMES),
            "metadata": json.dumps(metadata, sort_keys=True),
        },
    )
    model.doc_string = (
        f"tapa-rl bot: {ONNX_INPUT} float32 (batch, {metadata['network']['input_size']}) "
        f"{metadata['encoding_version']}-encoded afterstates, from the side that just moved -> "
        f"{ONNX_OUTPUT} float32 (batch, 5): {', '.join(OUTCOMES)}"
    )
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def checksum_path(model: Path) -> Path:
    """The checksum file of the ONNX model at ``model``: its path with ``.sha256`` added."""
    return model.with_name(model.name + CHECKSUM_SUFFIX)


def file_sha256(path: Path) -> str:
    """The hex SHA-256 digest of the bytes of the file at ``path``."""
    hasher = hashlib.sha256()
    with Path(path).open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()


def check_onnx_checksum(model: Path) -> None:
    """Raise :class:`ExportError` with one line unless the checksum file of the ONNX model at
    ``model`` (:func:`checksum_path`) gives the SHA-256 of the model's bytes, as
    ``sha256sum -c`` checks it."""
    model = Path(model)
    sidecar = checksum_path(model)
    try:
        recorded = sidecar.read_text(encoding="ascii").split()
        actual = file_sha256(model)
    except FileNotFoundError as error:
        raise ExportError(
            f"{error.filename}: no such file; export the model again (export.py onnx=true)"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ExportError(f"{sidecar}: cannot be read ({first_line(error)})") from None
    if len(recorded) != 2 or recorded[1].lstrip("*") != model.name:
        raise ExportError(f"{sidecar}: is not the checksum file of {model.name}")
    if recorded[0].lower() != actual:
        raise ExportError(f"{model}: corrupt ONNX model: its SHA-256 does not match {sidecar.name}")


def onnx_difference(path: Path, network: TDNetwork, features: np.ndarray) -> float:
    """The largest absolute difference between onnxruntime's probabilities of the model at
    ``path`` and torch's, over ``features`` ``(B, input_size)`` float32."""
    import onnxruntime

    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (ours,) = session.run([ONNX_OUTPUT], {ONNX_INPUT: features})
    return float(np.abs(ours - torch_probabilities(network, features)).max())


@dataclass(frozen=True)
class OnnxReport:
    """How an ONNX export went: the ``exporter`` used (``dynamo`` or ``torchscript``), the
    ``difference`` from torch over ``afterstates`` encoded afterstates."""

    exporter: str
    difference: float
    afterstates: int


def export_onnx(content: dict, path: Path) -> OnnxReport:
    """Write the ONNX model of checkpoint ``content`` to ``path`` atomically, checked first,
    and its SHA-256 to its checksum file (:func:`checksum_path`, as ``sha256sum`` writes it).

    The model takes ``features`` float32 ``(batch, input_size)`` and returns
    ``probabilities`` float32 ``(batch, 5)``. It is exported to a temporary file beside
    ``path``, run with onnxruntime on :data:`CHECK_AFTERSTATES` encoded afterstates and
    compared with torch; only when no probability differs by more than
    :data:`ONNX_TOLERANCE` is it renamed to ``path``. Raises :class:`ExportError` when the
    packages are missing, the export fails or the check does.
    """
    require_onnx_packages()
    path = Path(path)
    network = network_of(content).eval()
    rules = rules_of(content)
    encoding = get_encoding(network.shape.encoding, network.shape.game)
    features = encoding.encode(check_afterstates(rules))
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        exporter = _torch_export(network, Path(temporary))
        _describe_model(Path(temporary), bot_file_contents(content)[0])
        difference = onnx_difference(Path(temporary), network, features)
        if not difference <= ONNX_TOLERANCE:
            raise ExportError(
                f"the ONNX model's probabilities differ from torch's by up to {difference:.2e} "
                f"(more than {ONNX_TOLERANCE:.0e}); {path} not written"
            )
        line = f"{file_sha256(Path(temporary))}  {path.name}\n"
        publish(Path(temporary), path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    write_atomically(checksum_path(path), lambda file: file.write(line.encode("ascii")))
    return OnnxReport(exporter, difference, len(features))
