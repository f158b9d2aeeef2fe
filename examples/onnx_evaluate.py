"""Value a position's plays with an exported ONNX model, as an app in any language would.

    python export.py checkpoint=runs/default/checkpoints/bot.pt onnx=true
    python examples/onnx_evaluate.py runs/default/checkpoints/bot.onnx --dice 6 5

Needs onnxruntime (``pip install -e ".[export]"``). The model takes encoded positions and
returns outcome probabilities (docs/bot-files.md); this script uses tapa-rl only to list the
legal plays and to encode them, the two things another app would write itself.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import onnxruntime

from tapa_env import Position, Rules, legal_afterstates
from tapa_env.encoding import ENCODINGS

OUTCOMES = ("win", "win_double", "draw", "lose", "lose_double")
POINTS = np.array([1.0, 2.0, 0.0, -1.0, -2.0], dtype=np.float32)


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

    session = onnxruntime.InferenceSession(args.model, providers=["CPUExecutionProvider"])
    # The model records the bot file's metadata: the encoding and rules it was trained on.
    metadata = json.loads(session.get_modelmeta().custom_metadata_map["metadata"])
    encoding = {e.version: e for e in ENCODINGS.values()}[metadata["encoding_version"]]
    rules = Rules.from_mapping(metadata["rules"])

    # Every legal play of the roll, each an afterstate seen from the side that just moved.
    position = Position.from_key(args.position)
    plays = legal_afterstates(position, tuple(args.dice), rules)
    features = encoding.encode(np.stack([play.row for play in plays]))
    print(f"{len(plays)} plays of {args.dice[0]}-{args.dice[1]} from {position.key}")
    print(f"features: {features.dtype} {features.shape} ({encoding.version})")

    (probabilities,) = session.run(["probabilities"], {"features": features})
    equities = probabilities @ POINTS  # expected points, from the side that just moved
    print(f"{'afterstate':<32}" + "".join(f"{name:>12}" for name in OUTCOMES) + "      equity")
    for play, row, value in zip(plays, probabilities, equities):
        print(f"{play.key:<32}" + "".join(f"{p:12.4f}" for p in row) + f"  {value:+10.4f}")
    best = int(np.argmax(equities))
    print(f"best play: {plays[best].key} (equity {equities[best]:+.4f})")


if __name__ == "__main__":
    main()
