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
    the SHA-256 digest of all the other fields (:mod:`agents.storage.checksums`), written by
    :func:`save` and checked by :func:`read`: torch's reader does not check the archive's
    CRCs, so a damaged file would otherwise load with changed weights. A file written
    before checksums is refused; ``python -m agents.storage.upgrade FILE`` checks the rest
    of it and writes a copy with its checksum (:mod:`agents.storage.upgrade`).

Reading, checking and writing are every algorithm's (:mod:`agents.runs.checkpoints`); this
module names the TD kind (:data:`KIND`) and builds its network.
"""

from __future__ import annotations

from pathlib import Path

from tapa_env.encoding import get_encoding
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import Rules

from ..bots.equity import OUTCOMES
from ..errors import PlayerSpecError
from ..runs.checkpoints import CheckpointKind, rules_of, save, slim
from .evaluator import Evaluator
from .format import FORMAT
from .network import NetworkShape, TDNetwork

FORMAT_VERSION = 1

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "KIND",
    "CheckpointError",
    "describe",
    "evaluator_of",
    "network_of",
    "read",
    "rules_of",
    "save",
    "shape_of",
    "slim",
]


class CheckpointError(PlayerSpecError):
    """A file that is not a usable tapa-rl checkpoint; the message names the file and why."""


def describe(network: TDNetwork, rules: Rules, games: int, turns: int, config: dict) -> dict:
    """The checkpoint fields that describe a network (everything but ``training``)."""
    shape = network.shape
    encoding = get_encoding(shape.encoding, shape.game)
    # The default game's files stay as they were before there were other games.
    game = {} if shape.game == DEFAULT_GAME else {"game": shape.game}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **game,
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


def read(path: Path | str) -> dict:
    """Read and check a TD checkpoint (:meth:`agents.runs.checkpoints.CheckpointKind.read`);
    :class:`CheckpointError` names the file and the problem."""
    return KIND.read(path)


def shape_of(content: dict) -> NetworkShape:
    network = content["network"]
    return NetworkShape(
        encoding=content["encoding"],
        hidden=tuple(int(h) for h in network["hidden"]),
        activation=network["activation"],
        game=content.get("game", DEFAULT_GAME),
    )


def network_of(content: dict) -> TDNetwork:
    """The torch network of a checkpoint, its weights loaded (shapes checked)."""
    network = TDNetwork(shape_of(content))
    network.load_state_dict(content["weights"])
    return network


def evaluator_of(content: dict, threads: int = 1) -> Evaluator:
    """The numpy evaluator of a checkpoint's weights."""
    return network_of(content).evaluator(threads=threads)


KIND = CheckpointKind(
    format=FORMAT,
    version=FORMAT_VERSION,
    error=CheckpointError,
    label="checkpoint",
    noun="tapa-rl checkpoint or bot file",
    games="games_trained",
    build=network_of,
)
"""TD checkpoints: what :func:`read` checks and how its refusals read."""
