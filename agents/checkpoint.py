"""Training checkpoints: written atomically, read without unpickling arbitrary objects.

A checkpoint is a ``torch.save`` file of plain containers and tensors only (read back with
``torch.load(weights_only=True)``), with these keys (docs/formats.md):

``format``, ``format_version``
    ``"tapa-rl/td-checkpoint"`` and :data:`FORMAT_VERSION`.
``encoding``, ``encoding_version``
    the input encoding's name and version (``raw``/``raw-v1``, ``expert``/``expert-v1``).
``rules``
    the rule flags the network was trained under (:class:`tapa_env.Rules`).
``network``
    its shape: ``hidden`` widths, ``activation``, ``input_size``, ``outcomes``.
``weights``
    the network's ``state_dict`` (``layers.K.weight`` ``(out, in)``, ``layers.K.bias``).
``games_trained``, ``turns_trained``, ``config``
    how far it trained, and the whole training config.
``training`` (optional)
    what resuming needs: the optimizer, the games in flight, the random generators' states.
    A bot file for shipping leaves it out (:func:`slim`).
"""

from __future__ import annotations

import os
import pickle
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch

from tapa_env.encoding import ENCODINGS
from tapa_env.rules import Rules

from .equity import OUTCOMES
from .evaluator import Evaluator
from .loading import PlayerSpecError
from .network import NetworkShape, TDNetwork

FORMAT = "tapa-rl/td-checkpoint"
FORMAT_VERSION = 1


class CheckpointError(PlayerSpecError):
    """A file that is not a usable tapa-rl checkpoint; the message names the file and why."""


def to_tensors(value: Any) -> Any:
    """``value`` with every numpy array turned into a tensor (so that it loads weights-only)."""
    if isinstance(value, np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(value))
    if isinstance(value, dict):
        return {key: to_tensors(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_tensors(item) for item in value)
    return value


def to_arrays(value: Any) -> Any:
    """The inverse of :func:`to_tensors`: every tensor back to a numpy array."""
    if isinstance(value, torch.Tensor):
        return value.numpy()
    if isinstance(value, dict):
        return {key: to_arrays(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_arrays(item) for item in value)
    return value


def describe(network: TDNetwork, rules: Rules, games: int, turns: int, config: dict) -> dict:
    """The checkpoint fields that describe a network (everything but ``training``)."""
    shape = network.shape
    encoding = ENCODINGS[shape.encoding]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "encoding": encoding.name,
        "encoding_version": encoding.version,
        "rules": {name: bool(value) for name, value in vars(rules).items()},
        "network": {
            "hidden": list(shape.hidden),
            "activation": shape.activation,
            "input_size": encoding.size,
            "outcomes": list(OUTCOMES),
        },
        "weights": {
            key: value.detach().cpu().clone() for key, value in network.state_dict().items()
        },
        "games_trained": int(games),
        "turns_trained": int(turns),
        "config": config,
    }


def save(path: Path, content: dict) -> None:
    """Write ``content`` to ``path`` atomically: a temporary file beside it, then a rename.

    A crash while writing leaves the previous file whole.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            torch.save(content, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def slim(content: dict) -> dict:
    """A copy of a checkpoint without its ``training`` state: small, plays, cannot resume."""
    return {key: value for key, value in content.items() if key != "training"}


def read(path: Path) -> dict:
    """Read and check a checkpoint; :class:`CheckpointError` names the file and the problem.

    Refuses what ``torch.load(weights_only=True)`` refuses (arbitrary pickled objects), and a
    truncated or corrupt file, a file of another kind, another format version, an encoding
    this version does not know, or weights that do not fit the recorded network shape.
    """
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"{path}: no such checkpoint file")
    if path.is_dir():
        raise CheckpointError(f"{path}: is a directory, not a checkpoint file")
    try:
        content = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        reason = "holds Python objects other than tensors and plain containers, refused"
        if "Weights only load failed" not in str(error):
            reason = f"cannot be unpickled ({_first_line(error)})"
        raise CheckpointError(f"{path}: not a tapa-rl checkpoint: {reason}") from None
    except (RuntimeError, EOFError, OSError, ValueError, zipfile.BadZipFile) as error:
        raise CheckpointError(
            f"{path}: cannot be read as a checkpoint (truncated or corrupt?): {_first_line(error)}"
        ) from None
    except Exception as error:  # anything else the unpickler raises on foreign bytes
        raise CheckpointError(
            f"{path}: not a tapa-rl checkpoint ({type(error).__name__}: {_first_line(error)})"
        ) from None
    check(path, content)
    return content


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def check(path: Path, content: Any) -> None:
    """Raise :class:`CheckpointError` unless ``content`` is a checkpoint this version plays."""
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        found = content.get("format") if isinstance(content, dict) else type(content).__name__
        raise CheckpointError(
            f"{path}: not a tapa-rl checkpoint (format {found!r}, expected {FORMAT!r})"
        )
    if content.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(
            f"{path}: checkpoint format version {content.get('format_version')!r}; this "
            f"version of tapa-rl reads version {FORMAT_VERSION}"
        )
    for key in ("encoding", "encoding_version", "rules", "network", "weights"):
        if key not in content:
            raise CheckpointError(f"{path}: corrupt checkpoint: no {key!r} field")
    encoding = ENCODINGS.get(content["encoding"])
    if encoding is None or encoding.version != content["encoding_version"]:
        known = ", ".join(e.version for e in ENCODINGS.values())
        raise CheckpointError(
            f"{path}: made for encoding {content['encoding_version']!r}, which this version "
            f"of tapa-rl does not have (it has {known})"
        )
    try:
        rules_of(content)
        network_of(content)
    except (ValueError, TypeError, KeyError, RuntimeError) as error:
        raise CheckpointError(f"{path}: corrupt checkpoint: {_first_line(error)}") from None


def rules_of(content: dict) -> Rules:
    """The rules a checkpoint was trained under."""
    return Rules.from_mapping(dict(content["rules"]))


def shape_of(content: dict) -> NetworkShape:
    network = content["network"]
    return NetworkShape(
        encoding=content["encoding"],
        hidden=tuple(int(h) for h in network["hidden"]),
        activation=network["activation"],
    )


def network_of(content: dict) -> TDNetwork:
    """The torch network of a checkpoint, its weights loaded (shapes checked)."""
    network = TDNetwork(shape_of(content))
    network.load_state_dict(content["weights"])
    return network


def evaluator_of(content: dict, threads: int = 1) -> Evaluator:
    """The numpy evaluator of a checkpoint's weights."""
    return network_of(content).evaluator(threads=threads)


def check_rules(path: Path, content: dict, rules: Rules) -> None:
    """Raise :class:`CheckpointError` when the checkpoint was trained under other rules."""
    trained = rules_of(content)
    if trained != rules:
        differ = sorted(k for k, v in vars(rules).items() if getattr(trained, k) != v)
        raise CheckpointError(
            f"{path}: trained under other rules ({', '.join(f'{k}={getattr(trained, k)}' for k in differ)}); "
            f"it would misjudge positions under {', '.join(f'{k}={getattr(rules, k)}' for k in differ)}"
        )
