"""PPO checkpoints: written atomically, read without unpickling arbitrary objects.

A checkpoint is a ``torch.save`` file of plain containers and tensors only (read back with
``torch.load(weights_only=True)``):

``format``, ``format_version``
    ``"tapa-rl/ppo-checkpoint"`` and :data:`FORMAT_VERSION`.
``encoding``, ``rules``
    the observation's position encoding and the rule flags the policy was trained under.
``network``
    its shape (:attr:`ActorCritic.shape`: ``inputs``, ``hidden``, ``activation``,
    ``shared_trunk``) and ``weights``, its ``state_dict``.
``steps``, ``games``, ``turns``, ``config``
    how far it trained, and the whole PPO config.
``training`` (optional)
    what resuming needs: the optimizer, the games in flight, the last observation, the
    counters, the opponents (snapshot and pool), the evaluations and every generator's state.
``checksum``
    the SHA-256 digest of all the other fields (:mod:`agents.checksums`), written by
    :func:`save` and checked by :func:`read`.
"""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path
from typing import Any

import torch

from tapa_env.encoding import ENCODINGS
from tapa_env.rules import Rules

from ..checksums import checksum_problem, non_finite, with_checksum
from ..files import ZIP_MAGIC, PlayerSpecError, check_trained_rules, first_line, write_atomically
from ..tensors import brief, cut, is_exactly
from .format import FORMAT
from .network import ActorCritic
from .player import PPOPlayer

FORMAT_VERSION = 1


class PPOCheckpointError(PlayerSpecError):
    """A file that is not a usable PPO checkpoint; the one-line message names the file."""


def describe(network: ActorCritic, encoding: str, rules: Rules, counts: dict, config: dict) -> dict:
    """The checkpoint fields that describe a policy (everything but ``training``);
    ``counts`` holds ``steps``, ``games`` and ``turns``."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "encoding": encoding,
        "encoding_version": ENCODINGS[encoding].version,
        "rules": {name: bool(value) for name, value in vars(rules).items()},
        "network": dict(network.shape),
        "weights": {k: v.detach().cpu().clone() for k, v in network.state_dict().items()},
        "steps": int(counts["steps"]),
        "games": int(counts["games"]),
        "turns": int(counts["turns"]),
        "config": config,
    }


def save(path: Path, content: dict) -> None:
    """Write ``content`` and its ``checksum`` to ``path`` atomically (temporary file, then
    ``os.replace``)."""
    checked = with_checksum(content)
    write_atomically(path, lambda file: torch.save(checked, file))


def read(path: Path | str) -> dict:
    """Read and check a PPO checkpoint; :class:`PPOCheckpointError` names the file and the
    problem: missing, empty, truncated or corrupt, another kind of file (a TD checkpoint, a
    bot file), another format version, a checksum that is missing or does not match the
    content, an unknown encoding, or weights that do not fit or are not all finite."""
    path = Path(path)
    if not path.is_file():
        what = "is a directory" if path.is_dir() else "no such file"
        raise PPOCheckpointError(f"{path}: {what}, not a PPO checkpoint")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            content = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch.load has no one error type for a file it cannot read
        raise PPOCheckpointError(_unreadable(path, error)) from None
    check(path, content)
    return content


def _unreadable(path: Path, error: Exception) -> str:
    with path.open("rb") as file:
        head = file.read(len(ZIP_MAGIC))
    if not head:
        return f"{path}: is empty, not a PPO checkpoint"
    if head != ZIP_MAGIC:
        return f"{path}: is not a PPO checkpoint (not a file torch.save wrote)"
    if isinstance(error, pickle.UnpicklingError):
        return f"{path}: is not a PPO checkpoint (it holds objects other than tensors)"
    return (
        f"{path}: cannot be read as a PPO checkpoint (corrupt or truncated?): {first_line(error)}"
    )


def check(path: Path, content: Any) -> None:
    """Raise :class:`PPOCheckpointError` unless ``content`` is a PPO checkpoint this version
    reads."""
    if not isinstance(content, dict) or not is_exactly(content.get("format"), FORMAT):
        found = isinstance(content, dict) and "format" in content
        what = f"holds format {brief(content['format'])}" if found else "has no 'format' field"
        raise PPOCheckpointError(f"{path}: is not a PPO checkpoint ({what}, not {FORMAT!r})")
    if not is_exactly(content.get("format_version"), FORMAT_VERSION):
        raise PPOCheckpointError(
            f"{path}: PPO checkpoint format version {brief(content.get('format_version'))}; this "
            f"version of tapa-rl reads version {FORMAT_VERSION}"
        )
    problem = checksum_problem(content)
    if problem is not None:
        raise PPOCheckpointError(f"{path}: {problem}")
    name = content.get("encoding")
    encoding = ENCODINGS.get(name) if isinstance(name, str) else None
    if encoding is None or not is_exactly(content.get("encoding_version"), encoding.version):
        raise PPOCheckpointError(
            f"{path}: made for encoding {brief(content.get('encoding_version'))}, which this "
            "version of tapa-rl does not have"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's notes on what a crafted field holds
            rules_of(content)
            network_of(content)
    except (ValueError, TypeError, LookupError, RuntimeError, AttributeError) as error:
        raise PPOCheckpointError(
            f"{path}: corrupt PPO checkpoint: {cut(first_line(error))}"
        ) from None
    bad = non_finite(content["weights"])
    if bad is not None:
        raise PPOCheckpointError(
            f"{path}: corrupt PPO checkpoint: weight {bad!r} is not all finite"
        )


def rules_of(content: dict) -> Rules:
    """The rules a checkpoint's policy was trained under."""
    return Rules.from_mapping(dict(content["rules"]))


def network_of(content: dict) -> ActorCritic:
    """The actor-critic of a checkpoint, its weights loaded (shapes checked)."""
    shape = content["network"]
    network = ActorCritic(
        int(shape["inputs"]), list(shape["hidden"]), shape["activation"], shape["shared_trunk"]
    )
    network.load_state_dict(content["weights"])
    network.eval()
    return network


def read_ppo_player(
    path: Path | str, rules: Rules | None = None, name: str | None = None, sample: bool = False
) -> PPOPlayer:
    """The greedy (or ``sample``) :class:`PPOPlayer` of a checkpoint, named after the file.

    ``rules``, when given, are the rules it will play under: a policy trained under others
    is refused (:class:`agents.loading.PlayerSpecError`)."""
    path = Path(path)
    content = read(path)
    trained = rules_of(content)
    if rules is not None:
        check_trained_rules(path, trained, rules)
    return PPOPlayer(
        network_of(content),
        encoding=content["encoding"],
        name=name or path.stem,
        sample=sample,
        rules=trained,
    )
