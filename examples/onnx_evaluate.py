"""Value a position's plays with an exported ONNX model, as an app in any language would.

    python export.py checkpoint=runs/default/checkpoints/bot.pt onnx=true
    python examples/onnx_evaluate.py runs/default/checkpoints/bot.onnx --dice 6 5

Needs onnxruntime (``pip install -e ".[export]"``). The model takes encoded positions and
returns outcome probabilities (docs/bot-files.md); this script uses tapa-rl only to list the
legal plays, write them in notation and encode them, the things another app would write
itself. It first checks the model against the SHA-256 that export.py wrote beside it
(``bot.onnx.sha256``), as ``sha256sum -c`` would.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime

from tapa_env import Position, Rules, legal_plays
from tapa_env.encoding import ENCODINGS

OUTCOMES = ("win", "win_double", "draw", "lose", "lose_double")
POINTS = np.array([1.0, 2.0, 0.0, -1.0, -2.0], dtype=np.float32)


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
        default=Position.initial().key,
        help="the position to move from, as a Position.key, from the side to move "
        "(default: the start)",
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
    # The model records the bot file's metadata: the encoding and rules it was trained on.
    metadata = json.loads(session.get_modelmeta().custom_metadata_map["metadata"])
    encoding = {e.version: e for e in ENCODINGS.values()}[metadata["encoding_version"]]
    rules = Rules.from_mapping(metadata["rules"])

    # Every legal play of the roll in notation, and the afterstate it leaves, seen from the
    # side that just moved.
    position = Position.from_key(args.position)
    plays = legal_plays(position, tuple(args.dice), rules)
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
