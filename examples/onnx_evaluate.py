"""Value a position's plays with an exported ONNX model, as an app in any language would.

    python export.py checkpoint=runs/default/checkpoints/bot.pt onnx=true
    python examples/onnx_evaluate.py runs/default/checkpoints/bot.onnx --dice 6 5
    python export.py checkpoint=checkpoints/tabla-td.pt out=bots/tabla.npz onnx=true
    python examples/onnx_evaluate.py bots/tabla.onnx --dice 6 4

Needs onnxruntime (``pip install -e ".[export]"``). The model takes encoded positions and
returns outcome probabilities (docs/bot-files.md); this script uses tapa-rl only to list the
legal plays, write them in notation and encode them, the things another app would write
itself. The model's metadata names its game (Tapa, Tabla or Gulbara), its rules and its
encoding; the position (by default the game's start) must be of that game. It first checks
the model against the SHA-256 that export.py wrote beside it (``bot.onnx.sha256``), as
``sha256sum -c`` would.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime

from tapa_env import GulbaraRules, Position, PositionError, Rules, TablaRules, legal_plays
from tapa_env.encoding import GAME_ENCODINGS

OUTCOMES = ("win", "win_double", "draw", "lose", "lose_double")
POINTS = np.array([1.0, 2.0, 0.0, -1.0, -2.0], dtype=np.float32)
RULES = {"tapa": Rules, "tabla": TablaRules, "gulbara": GulbaraRules}


def checksum_problem(model: Path) -> str | None:
    """Why the model at ``model`` fails the checksum in ``model.sha256`` (``None`` if it
    passes): the file's SHA-256 must be the first word of that file's line."""
    sidecar = model.with_name(model.name + ".sha256")
    if not sidecar.is_file():
        return f"{sidecar}: no such file, so {model} cannot be checked; export it again"
    recorded = sidecar.read_text(encoding="ascii", errors="replace").split()
    if not recorded or recorded[0].lower() != hashlib.sha256(model.read_bytes()).hexdigest():
        return f"{model}: corrupt ONNX model: its SHA-256 does not match {sidecar.name}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="the .onnx file that export.py onnx=true wrote")
    parser.add_argument(
        "--position",
        help="the position to move from, as a Position.key, from the side to move "
        "(default: the start of the model's game)",
    )
    parser.add_argument("--dice", type=int, nargs=2, default=(6, 5), help="the roll")
    args = parser.parse_args()

    model = Path(args.model)
    if not model.is_file():
        parser.error(f"{model}: no such file")
    problem = checksum_problem(model)
    if problem:
        sys.exit(f"onnx_evaluate.py: error: {problem}")
    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    # The model records the bot file's metadata: its game (absent for Tapa), and the
    # encoding and rules it was trained on.
    metadata = json.loads(session.get_modelmeta().custom_metadata_map["metadata"])
    game = metadata.get("game", "tapa")
    encoding = GAME_ENCODINGS.get((game, metadata["encoding"]))
    if game not in RULES or encoding is None or encoding.version != metadata["encoding_version"]:
        sys.exit(
            f"onnx_evaluate.py: error: {model}: a model of the game {game!r} with the encoding "
            f"{metadata['encoding_version']!r}, which this version of tapa-rl does not have"
        )
    rules = RULES[game].from_mapping(metadata["rules"])

    # Every legal play of the roll in notation, and the afterstate it leaves, seen from the
    # side that just moved.
    try:
        position = Position.from_key(args.position or Position.initial(game).key)
    except PositionError as error:
        parser.error(f"--position: {error}")
    if position.game != game:
        parser.error(f"--position is a position of {position.game}; {model} plays {game}")
    try:
        plays = legal_plays(position, tuple(args.dice), rules)
    except ValueError as error:
        parser.error(f"--dice {args.dice[0]} {args.dice[1]}: {error}")
    features = encoding.encode(np.stack([play.afterstate.row for play in plays]))
    print(f"{len(plays)} plays of {args.dice[0]}-{args.dice[1]} from {position.key}")
    print(f"features: {features.dtype} {features.shape} ({encoding.version})")

    (probabilities,) = session.run(["probabilities"], {"features": features})
    equities = probabilities @ POINTS  # expected points, from the side that just moved
    width = max(24, *(len(play.text) + 2 for play in plays))
    print(f"{'play':<{width}}" + "".join(f"{name:>12}" for name in OUTCOMES) + "      equity")
    for play, row, value in zip(plays, probabilities, equities):
        print(f"{play.text:<{width}}" + "".join(f"{p:12.4f}" for p in row) + f"  {value:+10.4f}")
    best = int(np.argmax(equities))
    print(f"best play: {plays[best].text} (equity {equities[best]:+.4f})")


if __name__ == "__main__":
    main()
