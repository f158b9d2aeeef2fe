"""PPO checkpoints: written atomically, read without unpickling arbitrary objects.

A checkpoint is a ``torch.save`` file of plain containers and tensors only (read back with
``torch.load(weights_only=True)``):

``format``, ``format_version``
    ``"tapa-rl/ppo-checkpoint"`` and :data:`FORMAT_VERSION`.
``game`` (Tabla and Gulbara only)
    ``"tabla"`` or ``"gulbara"``; absent in a Tapa policy's, so that files written before
    there were other games read as they always did.
``encoding``, ``encoding_version``, ``rules``
    the observation's position encoding (the game's) and the rule flags the policy was
    trained under.
``network``
    its shape (:attr:`ActorCritic.shape`: ``inputs``, ``hidden``, ``activation``,
    ``shared_trunk``, ``actions``: the game's checker moves, absent in files written before
    Tabla's 150, which are Tapa's 144) and ``weights``, its ``state_dict``.
``steps``, ``games``, ``turns``, ``config``
    how far it trained, and the whole PPO config.
``training`` (optional)
    what resuming needs: the optimizer, the games in flight, the last observation, the
    counters, the opponents (snapshot and pool), the evaluations and every generator's state.
``checksum``
    the SHA-256 digest of all the other fields (:mod:`agents.storage.checksums`), written by
    :func:`save` and checked by :func:`read`; ``python -m agents.storage.upgrade FILE``
    brings a file written before checksums forward (:mod:`agents.storage.upgrade`).

Reading, checking and writing are every algorithm's (:mod:`agents.runs.checkpoints`); this
module names the PPO kind (:data:`KIND`) and builds its network and player.
"""

from __future__ import annotations

from pathlib import Path

from tapa_env.checker_moves import MOVE_ACTIONS, move_actions
from tapa_env.encoding import get_encoding
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import AnyRules

from ..errors import PlayerSpecError
from ..runs.checkpoints import CheckpointKind, rules_of, save, slim
from ..storage.files import check_trained_rules
from .format import FORMAT
from .network import ActorCritic, observation_size
from .player import PPOPlayer

FORMAT_VERSION = 1

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "KIND",
    "PPOCheckpointError",
    "describe",
    "network_of",
    "read",
    "read_ppo_player",
    "rules_of",
    "save",
    "slim",
]


class PPOCheckpointError(PlayerSpecError):
    """A file that is not a usable PPO checkpoint; the one-line message names the file."""


def describe(
    network: ActorCritic, encoding: str, rules: AnyRules, counts: dict, config: dict
) -> dict:
    """The checkpoint fields that describe a policy of ``rules.game`` (everything but
    ``training``); ``counts`` holds ``steps``, ``games`` and ``turns``."""
    # The default game's files stay as they were before there were other games.
    game = {} if rules.game == DEFAULT_GAME else {"game": rules.game}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **game,
        "encoding": encoding,
        "encoding_version": get_encoding(encoding, rules.game).version,
        "rules": {name: bool(value) for name, value in vars(rules).items()},
        "network": dict(network.shape),
        "weights": {k: v.detach().cpu().clone() for k, v in network.state_dict().items()},
        "steps": int(counts["steps"]),
        "games": int(counts["games"]),
        "turns": int(counts["turns"]),
        "config": config,
    }


def read(path: Path | str) -> dict:
    """Read and check a PPO checkpoint (:meth:`agents.runs.checkpoints.CheckpointKind.read`);
    :class:`PPOCheckpointError` names the file and the problem: a TD checkpoint or a bot
    file among others."""
    return KIND.read(path)


def network_of(content: dict) -> ActorCritic:
    """The actor-critic of a checkpoint, its weights loaded (shapes checked); ``ValueError``
    when its inputs or moves are not those of its game and encoding."""
    shape = content["network"]
    game = content.get("game", DEFAULT_GAME)
    inputs, actions = int(shape["inputs"]), int(shape.get("actions", MOVE_ACTIONS))
    wanted = observation_size(get_encoding(content["encoding"], game))
    if inputs != wanted:
        raise ValueError(
            f"{inputs} inputs, where {game}'s {content['encoding']} observation has {wanted}"
        )
    if actions != move_actions(game):
        raise ValueError(f"{actions} moves, where {game} has {move_actions(game)}")
    network = ActorCritic(
        inputs, list(shape["hidden"]), shape["activation"], shape["shared_trunk"], actions
    )
    network.load_state_dict(content["weights"])
    network.eval()
    return network


def read_ppo_player(
    path: Path | str, rules: AnyRules | None = None, name: str | None = None, sample: bool = False
) -> PPOPlayer:
    """The greedy (or ``sample``) :class:`PPOPlayer` of a checkpoint, named after the file;
    it plays the game and rules it was trained under.

    ``rules``, when given, are the game and rules it will play under: a policy of another
    game or trained under other rules is refused in one line
    (:class:`agents.bots.loading.PlayerSpecError`)."""
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


KIND = CheckpointKind(
    format=FORMAT,
    version=FORMAT_VERSION,
    error=PPOCheckpointError,
    label="PPO checkpoint",
    noun="tapa-rl PPO checkpoint",
    games="games",
    build=network_of,
)
"""PPO checkpoints: what :func:`read` checks and how its refusals read."""
