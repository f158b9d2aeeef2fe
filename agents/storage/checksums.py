"""Checksums of what the project writes and reads back: a file's content, checked on load.

torch's zip reader does not check the archive's CRCs, so a flipped bit in a checkpoint
would load as a changed weight and be played. Every checkpoint and bot file therefore
carries a ``checksum`` field next to its content: ``sha256:`` and the hex SHA-256 digest of
the content as :func:`digest` walks it. A reader recomputes it from what it loaded and
refuses a file whose field is missing or differs (:func:`checksum_problem`), and refuses
weights that are not all finite (:func:`non_finite`).

The walk is deterministic and needs the values only, never the file's bytes, so a file
read back digests as it was written: dict items in the order of their sorted keys, lists
and tuples item by item, tensors and arrays by dtype, shape and raw bytes (C order), and
every other value by its type and a canonical text (``float.hex`` for floats). Each value
is tagged with its kind and length, so no two different contents feed the same bytes.

This module needs neither torch nor any other module of ``agents``: a numpy-only bot file
uses it too, and a value can only be a tensor where torch is already imported.
"""

from __future__ import annotations

import hashlib
import numbers
import shlex
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

CHECKSUM = "checksum"
"""The field (a checkpoint's key, a bot file's metadata key) that holds the checksum."""
ALGORITHM = "sha256"


def digest(content: Any) -> str:
    """``sha256:`` and the hex digest of ``content`` (containers, tensors, arrays, scalars)."""
    hasher = hashlib.sha256()
    _feed(hasher, content)
    return f"{ALGORITHM}:{hasher.hexdigest()}"


def with_checksum(content: Mapping) -> dict:
    """A copy of ``content`` with its :data:`CHECKSUM` field (any previous one replaced)."""
    body = {key: value for key, value in content.items() if key != CHECKSUM}
    return {**body, CHECKSUM: digest(body)}


UPGRADE_COMMAND = "python -m agents.storage.upgrade"
"""The command that brings a checkpoint or bot file written before checksums forward: it
checks the rest of the file and writes a checksummed copy (:mod:`agents.storage.upgrade`)."""


def checksum_problem(content: Mapping, path: object = None) -> str | None:
    """Why ``content`` fails its checksum (a message to follow the file's name), or ``None``
    when its :data:`CHECKSUM` field matches the rest of it. A file without one is told how
    to bring it forward (:data:`UPGRADE_COMMAND`, with ``path`` when given)."""
    recorded = content.get(CHECKSUM)
    if recorded is None:
        return (
            "has no checksum, so its content cannot be checked (written by an older version "
            f"of tapa-rl, or damaged); {UPGRADE_COMMAND} {_shell_word(path)} checks the rest of "
            "it and writes a copy with a checksum"
        )
    body = {key: value for key, value in content.items() if key != CHECKSUM}
    try:
        matches = isinstance(recorded, str) and digest(body) == recorded
    except (RecursionError, TypeError, ValueError, RuntimeError):  # a shape no writer makes
        matches = False
    if not matches:
        return "corrupt checkpoint or bot file: its checksum does not match its content"
    return None


def _shell_word(path: object) -> str:
    """``path`` as a shell reads it back (quoted where it must be); ``FILE`` without one."""
    return "FILE" if path is None else shlex.quote(str(path))


def non_finite(weights: Mapping) -> str | None:
    """The name of the first floating-point array or tensor in ``weights`` holding a NaN or
    an infinity, or ``None`` when all are finite (or ``weights`` holds none)."""
    torch = sys.modules.get("torch")
    for name in sorted(weights, key=str):
        value = weights[name]
        if torch is not None and isinstance(value, torch.Tensor):
            if value.is_floating_point() and not bool(torch.isfinite(value).all()):
                return str(name)
        elif isinstance(value, np.ndarray) and value.dtype.kind == "f":
            if not np.isfinite(value).all():
                return str(name)
    return None


def _feed(hasher: Any, value: Any) -> None:
    """Feed ``value`` to ``hasher``: a tag, a length where the kind has one, the content."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().cpu().contiguous()
        _tagged(hasher, b"T", f"{value.dtype}{tuple(value.shape)}".encode())
        _tagged(hasher, b"", value.reshape(-1).view(torch.uint8).numpy().tobytes())
    elif isinstance(value, np.ndarray):
        if value.dtype.hasobject:  # its bytes would be addresses, not values
            raise TypeError("an array of Python objects has no checksum")
        _tagged(hasher, b"A", f"{value.dtype.str}{value.shape}".encode())
        _tagged(hasher, b"", np.ascontiguousarray(value).tobytes())
    elif isinstance(value, Mapping):
        _tagged(hasher, b"D", str(len(value)).encode())
        for key in sorted(value, key=lambda key: (type(key).__name__, repr(key))):
            _feed(hasher, key)
            _feed(hasher, value[key])
    elif isinstance(value, (list, tuple)):
        _tagged(hasher, b"L" if isinstance(value, list) else b"U", str(len(value)).encode())
        for item in value:
            _feed(hasher, item)
    elif value is None or isinstance(value, bool):
        _tagged(hasher, b"B", repr(value).encode())
    elif isinstance(value, numbers.Integral):
        _tagged(hasher, b"I", str(int(value)).encode())
    elif isinstance(value, numbers.Real):
        _tagged(hasher, b"F", float(value).hex().encode())
    elif isinstance(value, str):
        _tagged(hasher, b"S", value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, (bytes, bytearray)):
        _tagged(hasher, b"Y", bytes(value))
    else:  # torch.dtype, torch.device and the like: their type and text
        _tagged(hasher, b"O", f"{type(value).__qualname__}:{value!r}".encode())


def _tagged(hasher: Any, tag: bytes, data: bytes) -> None:
    hasher.update(tag + len(data).to_bytes(8, "little") + data)
