"""Exported bot files: a trained network in a numpy ``.npz`` archive; no torch needed.

A bot file is what ``python export.py`` writes (docs/bot-files.md): an uncompressed ``.npz``
archive (a zip of ``.npy`` arrays) holding

``metadata``
    ``uint8`` ``(n,)``: UTF-8 JSON text, an object with the keys of :func:`describe`
    (format and version, encoding and version, rules, network shape, output layout, how far
    it trained) and a ``checksum`` of the rest of the metadata and of every array
    (:func:`content_checksum`).
``layers.K.weight``, ``layers.K.bias``
    little-endian float32 ``(out, in)`` and ``(out,)``, as in ``torch.nn.Linear``, ``K``
    from 0 at the input to the output layer.

It loads with ``np.load(path, allow_pickle=False)``, so reading one never unpickles an
object, and playing it needs numpy and numba only: this module imports no torch.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from tapa_env.encoding import GAME_ENCODINGS, get_encoding
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import GAMES, RULES_OF_GAME, AnyRules

from ..bots.equity import OUTCOME_POINTS, OUTCOMES
from ..storage.checksums import CHECKSUM, checksum_problem, digest
from ..storage.files import (
    ZIP_MAGIC,
    PlayerSpecError,
    brief,
    check_regular_file,
    first_line,
    read_head,
    write_atomically,
)
from .dense_evaluator import DenseEvaluator
from .evaluator import ACTIVATIONS, Evaluator
from .evaluators import evaluator

FORMAT = "tapa-rl/bot"
FORMAT_VERSION = 1
SUFFIX = ".npz"
METADATA = "metadata"
"""The archive entry (``metadata.npy``) that holds the JSON metadata."""
FLOAT = np.dtype("<f4")
"""The weights' dtype in the archive: little-endian float32 on every machine."""


class BotFileError(PlayerSpecError):
    """A file that is not a usable tapa-rl bot file; the message names the file and why."""


def weight_names(layer: int) -> tuple[str, str]:
    """The archive names of layer ``layer``'s weight and bias."""
    return f"layers.{layer}.weight", f"layers.{layer}.bias"


def describe(
    encoding: str,
    hidden: list[int] | tuple[int, ...],
    activation: str,
    rules: AnyRules,
    games_trained: int,
    turns_trained: int,
) -> dict[str, Any]:
    """The metadata of a bot file, as a dict that ``json.dumps`` writes.

    Keys: ``format`` (:data:`FORMAT`), ``format_version`` (:data:`FORMAT_VERSION`), ``game``
    (``tabla`` or ``gulbara``; absent for Tapa, so that Tapa's files stay as they were),
    ``encoding`` and ``encoding_version``, ``rules`` (``{flag: bool}``), ``network``
    (``hidden`` widths input side first, ``activation``, ``input_size``, ``layers`` (the
    number of weight layers), ``output`` (``"logits"``), ``outcomes`` (the five outcome
    names in output order) and ``outcome_points`` (each outcome's points, for the equity)),
    ``games_trained`` and ``turns_trained``.
    """
    coding = get_encoding(encoding, rules.game)
    hidden = [int(width) for width in hidden]
    game = {} if rules.game == DEFAULT_GAME else {"game": rules.game}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **game,
        "encoding": coding.name,
        "encoding_version": coding.version,
        "rules": {name: bool(value) for name, value in vars(rules).items()},
        "network": {
            "hidden": hidden,
            "activation": activation,
            "input_size": coding.size,
            "layers": len(hidden) + 1,
            "output": "logits",
            "outcomes": list(OUTCOMES),
            "outcome_points": [int(points) for points in OUTCOME_POINTS],
        },
        "games_trained": int(games_trained),
        "turns_trained": int(turns_trained),
    }


def write(path: Path, metadata: dict, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Write a bot file to ``path`` atomically (a temporary file beside it, then a rename).

    Args:
        path: the file to write; a crash while writing leaves a previous file whole.
        metadata: the dict of :func:`describe`.
        layers: ``[(weight, bias), ...]`` from the input to the output layer, each ``weight``
            ``(out, in)`` and ``bias`` ``(out,)``; stored as float32.
    """
    path = Path(path)
    weights = {}
    for index, (weight, bias) in enumerate(layers):
        weight_name, bias_name = weight_names(index)
        weights[weight_name] = np.ascontiguousarray(weight, dtype=FLOAT)
        weights[bias_name] = np.ascontiguousarray(bias, dtype=FLOAT)
    write_atomically(path, archive_writer(metadata, weights))


def archive_writer(metadata: dict, weights: dict[str, np.ndarray]) -> Callable[[BinaryIO], None]:
    """What writes a bot file of ``metadata`` and the arrays ``weights`` (by entry name) into
    a binary file: the metadata as JSON text with its ``checksum`` (:func:`content_checksum`)."""
    # The metadata as a reader will see it (JSON turns tuples into lists), then its checksum.
    body = json.loads(json.dumps({k: v for k, v in metadata.items() if k != CHECKSUM}))
    text = json.dumps({**body, CHECKSUM: content_checksum(body, weights)}, indent=1, sort_keys=True)
    arrays = {METADATA: np.frombuffer(text.encode("utf-8"), dtype=np.uint8), **weights}
    return lambda file: np.savez(file, **arrays)


def content_checksum(metadata: dict, arrays: dict[str, np.ndarray]) -> str:
    """The ``checksum`` of a bot file: the digest (:func:`agents.storage.checksums.digest`) of
    ``{"metadata": metadata, "arrays": arrays}``, the metadata without its ``checksum`` key
    and every array of the archive but the metadata, by entry name."""
    return digest({"metadata": metadata, "arrays": arrays})


def is_npz_archive(path: Path) -> bool:
    """Whether ``path`` is a zip archive of ``.npy`` entries only, as ``np.savez`` writes
    (a bot file or another ``.npz`` file, whatever its name; never a torch checkpoint).
    ``False`` for anything unreadable; opens regular files only."""
    try:
        if not Path(path).is_file() or read_head(path) != ZIP_MAGIC:
            return False
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
        return bool(names) and all(name.endswith(".npy") for name in names)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return False


def is_bot_file(path: Path) -> bool:
    """Whether ``path`` is a zip archive with a ``metadata.npy`` entry (by content, not name).

    ``False`` for anything else, a torch checkpoint (also a zip archive) included, and for a
    file that cannot be read; :func:`read` then says what is wrong. Opens regular files only
    (never waits on a named pipe).
    """
    try:
        if not Path(path).is_file():
            return False
        if read_head(path) != ZIP_MAGIC:
            return False
        with zipfile.ZipFile(path) as archive:
            return f"{METADATA}.npy" in archive.namelist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return False


@dataclass(frozen=True)
class BotFile:
    """A bot file, read and checked.

    Attributes:
        metadata: the JSON metadata (keys of :func:`describe`, and any newer ones), less its
            ``checksum``, which :func:`read` has checked.
        layers: ``[(weight, bias), ...]`` float32, input layer first, ``weight`` ``(out, in)``.
    """

    metadata: dict[str, Any]
    layers: list[tuple[np.ndarray, np.ndarray]]

    @property
    def game(self) -> str:
        """The game the network plays: ``tapa``, ``tabla`` or ``gulbara``."""
        return self.metadata.get("game", DEFAULT_GAME)

    @property
    def rules(self) -> AnyRules:
        """The rules the network was trained under."""
        return RULES_OF_GAME[self.game].from_mapping(dict(self.metadata["rules"]))

    def evaluator(self, threads: int = 1) -> Evaluator | DenseEvaluator:
        """The numpy evaluator of these weights: afterstate rows in, outcome probabilities out
        (the one its game's encodings fold into, :func:`agents.td.evaluators.evaluator`)."""
        activation = self.metadata["network"]["activation"]
        encoding = self.metadata["encoding"]
        return evaluator(self.game, encoding, activation, self.layers, threads=threads)


def read(path: Path) -> BotFile:
    """Read and check a bot file; :class:`BotFileError` names the file and the problem.

    Refuses a missing, empty, truncated or corrupt file, a file that is not a ``.npz``
    archive of numpy arrays or holds no tapa-rl metadata, another format version, a checksum
    that is missing or does not match the content, an encoding this version does not know,
    and weights that do not fit the recorded network shape or are not all finite.
    """
    path = Path(path)
    metadata, arrays = _archive(path)
    weights = {name: array for name, array in arrays.items() if name != METADATA}
    body = {key: value for key, value in metadata.items() if key != CHECKSUM}
    problem = checksum_problem(
        {"metadata": body, "arrays": weights, CHECKSUM: metadata.get(CHECKSUM)}, path
    )  # as content_checksum computes it
    if problem is not None:
        raise BotFileError(f"{path}: {problem}")
    _check_metadata(path, metadata)
    return BotFile(body, _layers(path, metadata, arrays))


def unchecksummed(path: Path) -> tuple[str, Callable[[BinaryIO], None] | None]:
    """The game of the bot file at ``path`` and, for a file written before checksums, what
    writes its copy with a checksum (the same metadata and arrays); ``None`` for a file
    whose checksum is there and matches.

    Everything but the checksum is checked as :func:`read` checks it, so that only a file
    that would play is brought forward; :class:`BotFileError` names the problem otherwise
    (a checksum that does not match among them: such a file is damaged, not old).
    """
    path = Path(path)
    metadata, arrays = _archive(path)
    if metadata.get(CHECKSUM) is not None:
        return read(path).game, None
    _check_metadata(path, metadata)
    _layers(path, metadata, arrays)
    weights = {name: array for name, array in arrays.items() if name != METADATA}
    return metadata.get("game", DEFAULT_GAME), archive_writer(metadata, weights)


def _archive(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """The metadata (its format and version checked) and every array of the bot file at
    ``path``; :class:`BotFileError` for a file that is none."""
    check_regular_file(path, BotFileError)
    try:
        head = read_head(path)
    except OSError as error:
        raise BotFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    if not head:
        raise BotFileError(f"{path}: is empty, not a bot file")
    if head != ZIP_MAGIC:
        raise BotFileError(f"{path}: is not a tapa-rl bot file (not an .npz archive)")
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except Exception as error:  # zipfile, zlib and numpy's format reader raise many kinds
        if "allow_pickle" in str(error):
            raise BotFileError(
                f"{path}: is not a tapa-rl bot file (it holds pickled objects, which are "
                "never unpickled)"
            ) from None
        raise BotFileError(
            f"{path}: cannot be read as a bot file (corrupt or truncated?): {first_line(error)}"
        ) from None
    for name, array in arrays.items():
        if not isinstance(array, np.ndarray):  # numpy hands over an entry that is no .npy
            what = "pickled objects, which are never unpickled"
            if not array.startswith(b"\x80"):  # every pickle protocol since 2 starts so
                what = f"an entry {name!r} that is not a numpy array"
            raise BotFileError(f"{path}: is not a tapa-rl bot file (it holds {what})")
    if METADATA not in arrays:
        raise BotFileError(f"{path}: is not a tapa-rl bot file (no {METADATA!r} entry)")
    metadata = _metadata(path, arrays[METADATA])
    _check_format(path, metadata)
    return metadata, arrays


def _metadata(path: Path, array: np.ndarray) -> dict:
    if array.dtype != np.uint8 or array.ndim != 1:
        raise BotFileError(
            f"{path}: corrupt bot file: {METADATA!r} is {array.dtype} {array.shape}, "
            "not uint8 UTF-8 JSON text"
        )
    try:
        metadata = json.loads(array.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BotFileError(
            f"{path}: corrupt bot file: its metadata is not JSON ({first_line(error)})"
        ) from None
    if not isinstance(metadata, dict) or "format" not in metadata:
        raise BotFileError(f"{path}: is not a tapa-rl bot file (no 'format' in its metadata)")
    return metadata


def _check_format(path: Path, metadata: dict) -> None:
    if metadata["format"] != FORMAT:
        raise BotFileError(
            f"{path}: holds format {metadata['format']!r}, not a tapa-rl bot file ({FORMAT!r})"
        )
    if metadata.get("format_version") != FORMAT_VERSION:
        raise BotFileError(
            f"{path}: bot file format version {metadata.get('format_version')!r}; this "
            f"version of tapa-rl reads version {FORMAT_VERSION}"
        )


def _check_metadata(path: Path, metadata: dict) -> None:
    for key in ("encoding", "encoding_version", "rules", "network"):
        if key not in metadata:
            raise BotFileError(f"{path}: corrupt bot file: no {key!r} in its metadata")
    game = metadata.get("game", DEFAULT_GAME)
    if game not in GAMES:
        raise BotFileError(
            f"{path}: a bot for the game {brief(game)}, which this version of tapa-rl does not "
            f"play (it plays {', '.join(GAMES)})"
        )
    name, version = metadata["encoding"], metadata["encoding_version"]
    encoding = GAME_ENCODINGS.get((game, name)) if isinstance(name, str) else None
    if encoding is None or encoding.version != version:
        known = ", ".join(
            f"{e.name} {e.version}" for (owner, _), e in GAME_ENCODINGS.items() if owner == game
        )
        raise BotFileError(
            f"{path}: made for encoding {name!r} version {version!r}, which this version "
            f"of tapa-rl does not have (it has {known})"
        )
    network = metadata["network"]
    if not isinstance(network, dict):
        raise BotFileError(f"{path}: corrupt bot file: 'network' is not an object")
    hidden = network.get("hidden")
    if (
        not isinstance(hidden, list)
        or not hidden
        or any(isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in hidden)
    ):
        raise BotFileError(
            f"{path}: corrupt bot file: network 'hidden' is {hidden!r}, not a list of widths"
        )
    if network.get("activation") not in ACTIVATIONS:
        raise BotFileError(
            f"{path}: corrupt bot file: unknown activation {network.get('activation')!r} "
            f"(this version knows {', '.join(ACTIVATIONS)})"
        )
    if network.get("input_size") != encoding.size:
        raise BotFileError(
            f"{path}: corrupt bot file: input_size {network.get('input_size')!r}, but the "
            f"{encoding.version} encoding has {encoding.size} features"
        )
    if network.get("outcomes") != list(OUTCOMES):
        raise BotFileError(
            f"{path}: bot file outputs {network.get('outcomes')!r}; this version of tapa-rl "
            f"plays networks whose outputs are {list(OUTCOMES)}"
        )
    if network.get("output", "logits") != "logits":
        raise BotFileError(
            f"{path}: bot file output {network.get('output')!r}; this version of tapa-rl "
            "plays networks whose outputs are logits"
        )
    try:
        RULES_OF_GAME[game].from_mapping(dict(metadata["rules"]))
    except (ValueError, TypeError) as error:
        raise BotFileError(f"{path}: corrupt bot file: {first_line(error)}") from None


def _layers(path: Path, metadata: dict, arrays: dict[str, np.ndarray]) -> list:
    network = metadata["network"]
    sizes = [network["input_size"], *network["hidden"], len(OUTCOMES)]
    layers = []
    for index, (inputs, outputs) in enumerate(zip(sizes[:-1], sizes[1:])):
        pair = []
        for name, shape in zip(weight_names(index), [(outputs, inputs), (outputs,)]):
            if name not in arrays:
                raise BotFileError(f"{path}: corrupt bot file: no {name!r} entry")
            array = arrays[name]
            if array.dtype.kind != "f" or array.dtype.itemsize != 4 or array.shape != shape:
                raise BotFileError(
                    f"{path}: corrupt bot file: {name!r} is {array.dtype} {array.shape}, the "
                    f"network shape needs float32 {shape}"
                )
            if not np.isfinite(array).all():
                raise BotFileError(f"{path}: corrupt bot file: {name!r} is not all finite")
            pair.append(array.astype(np.float32))  # native byte order
        layers.append(tuple(pair))
    return layers
