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
``checksum``
    the SHA-256 digest of all the other fields (:mod:`agents.checksums`), written by
    :func:`save` and checked by :func:`read`: torch's reader does not check the archive's
    CRCs, so a damaged file would otherwise load with changed weights.
"""

from __future__ import annotations

import pickle
import re
import warnings
import zipfile
from pathlib import Path
from typing import Any

import torch

from tapa_env.encoding import ENCODINGS
from tapa_env.rules import Rules

from ..checksums import CHECKSUM, checksum_problem, non_finite, with_checksum
from ..equity import OUTCOMES
from ..files import (
    ZIP_MAGIC,
    PlayerSpecError,
    check_regular_file,
    first_line,
    read_head,
    write_atomically,
)
from ..tensors import brief, cut, is_exactly
from .evaluator import Evaluator
from .network import NetworkShape, TDNetwork

FORMAT = "tapa-rl/td-checkpoint"
FORMAT_VERSION = 1


class CheckpointError(PlayerSpecError):
    """A file that is not a usable tapa-rl checkpoint; the message names the file and why."""


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
    """Write ``content`` and its ``checksum`` to ``path`` atomically: a temporary file beside
    it, then a rename.

    A crash while writing leaves the previous file whole.
    """
    checked = with_checksum(content)
    write_atomically(path, lambda file: torch.save(checked, file))


def slim(content: dict) -> dict:
    """A copy of a checkpoint without its ``training`` state (nor its checksum, which
    :func:`save` writes anew): small, plays, cannot resume."""
    return {key: value for key, value in content.items() if key not in ("training", CHECKSUM)}


def read(path: Path) -> dict:
    """Read and check a checkpoint; :class:`CheckpointError` names the file and the problem.

    Refuses what ``torch.load(weights_only=True)`` refuses (arbitrary pickled objects), and a
    missing, empty, truncated or corrupt file, a file of another kind, a file whose checksum
    is missing or does not match its content, another format version, an encoding this
    version does not know, weights that do not fit the recorded network shape, and weights
    that are not all finite.
    """
    path = Path(path)
    check_regular_file(path, CheckpointError)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # notes on pickle protocols
            content = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch.load has no one error type for a file it cannot read
        raise CheckpointError(_unreadable(path, error)) from None
    check(path, content)
    return content


def _unreadable(path: Path, error: Exception) -> str:
    """One line on why ``torch.load`` could not read ``path``: naming the file and the problem."""
    try:
        head = read_head(path)
    except OSError as unreadable:
        return f"{path}: cannot be read ({unreadable.strerror or unreadable})"
    if not head:
        return f"{path}: is empty, not a checkpoint or bot file"
    if head != ZIP_MAGIC:  # torch.save writes a zip archive
        return f"{path}: is not a tapa-rl checkpoint or bot file (not a file torch.save wrote)"
    if not holds_pickle(path):  # another zip archive, an .npz of numpy arrays among them
        return (
            f"{path}: is not a tapa-rl checkpoint or bot file (a zip archive, but not one "
            "torch.save wrote)"
        )
    if isinstance(error, pickle.UnpicklingError):  # weights_only refused what it holds
        return (
            f"{path}: is not a tapa-rl checkpoint or bot file (it holds objects other than "
            "tensors and plain containers, which are never unpickled)"
        )
    # The first sentence of torch's message, less a "[enforce fail at file.cc:180] ." prefix.
    detail = re.sub(r"^\[[^\]]*\][\s.]*", "", first_line(error)).split(". ")[0].strip()
    detail = detail or type(error).__name__
    return f"{path}: cannot be read as a checkpoint or bot file (corrupt or truncated?): {detail}"


def holds_pickle(path: Path) -> bool:
    """Whether the zip archive at ``path`` has the ``data.pkl`` entry of every archive
    ``torch.save`` writes (``True`` when it cannot tell: torch's reader then says why)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return any(name.endswith("/data.pkl") for name in archive.namelist())
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return True


def check(path: Path, content: Any) -> None:
    """Raise :class:`CheckpointError` unless ``content`` is a checkpoint this version plays.

    Its checksum is checked once its format and version are known to be this version's (a
    later version may checksum otherwise), before any other field is trusted."""
    if not isinstance(content, dict) or "format" not in content:
        raise CheckpointError(
            f"{path}: is not a tapa-rl checkpoint or bot file (no 'format' field)"
        )
    if not is_exactly(content["format"], FORMAT):
        raise CheckpointError(
            f"{path}: holds format {brief(content['format'])}, not a tapa-rl checkpoint "
            f"({FORMAT!r})"
        )
    if not is_exactly(content.get("format_version"), FORMAT_VERSION):
        raise CheckpointError(
            f"{path}: checkpoint format version {brief(content.get('format_version'))}; this "
            f"version of tapa-rl reads version {FORMAT_VERSION}"
        )
    problem = checksum_problem(content)
    if problem is not None:
        raise CheckpointError(f"{path}: {problem}")
    for key in ("encoding", "encoding_version", "rules", "network", "weights"):
        if key not in content:
            raise CheckpointError(f"{path}: corrupt checkpoint: no {key!r} field")
    name = content["encoding"]
    encoding = ENCODINGS.get(name) if isinstance(name, str) else None
    if encoding is None or not is_exactly(content["encoding_version"], encoding.version):
        known = ", ".join(e.version for e in ENCODINGS.values())
        raise CheckpointError(
            f"{path}: made for encoding {brief(content['encoding_version'])}, which this version "
            f"of tapa-rl does not have (it has {known})"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's notes on what a crafted field holds
            rules_of(content)
            network_of(content)
    except (ValueError, TypeError, LookupError, RuntimeError, AttributeError) as error:
        raise CheckpointError(f"{path}: corrupt checkpoint: {cut(first_line(error))}") from None
    bad = non_finite(content["weights"])
    if bad is not None:
        raise CheckpointError(f"{path}: corrupt checkpoint: weight {bad!r} is not all finite")


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
