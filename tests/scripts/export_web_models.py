"""Export the networks the browser page plays (web/models) from the shipped checkpoints.

    python tests/scripts/export_web_models.py [OUT_DIR] [--only NAME ...]

For each model of :data:`MODELS` (those named by ``--only``; without it, all but the
:data:`PENDING` ones) it copies the checkpoint into a temporary folder (a training run may
write it meanwhile), runs ``python export.py checkpoint=COPY onnx=true`` there, copies the
ONNX model to ``OUT_DIR/NAME.onnx`` (``web/models`` by default) and writes
``OUT_DIR/NAME.json``, its description for
web/js/bot.js (:func:`describe`): the file's size and SHA-256, the checkpoint it comes from, the
model's input and output names and the bot file's metadata (its game, encoding, rules,
outcomes and their points). tests/test_web_bot.py checks that the committed files are what
this writes, with weights equal to the shipped checkpoints'.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.td.exporting import ONNX_INPUT, ONNX_OUTPUT  # noqa: E402

WEB_MODELS = ROOT / "web" / "models"
MODELS = {
    "tapa-td": "checkpoints/tapa-td.pt",
    "tapa-novice": "checkpoints/tapa-novice.pt",
    "tabla-td": "checkpoints/tabla-td.pt",
    "gulbara-td": "checkpoints/gulbara-td.pt",
    "fevga-td": "checkpoints/fevga-td.pt",
}
"""The page's networks by name, each with the checkpoint (relative to the repository) it is
exported from: the shipped bots of each game."""
PENDING: frozenset[str] = frozenset()
"""The models of :data:`MODELS` not shipped yet: exported only when ``--only`` names them. Their
game's page plays without them (its ``bot.model`` is null, a random level) until one is
exported; then its name leaves this set and its game's ``bot`` names it. Empty: every game's
network is shipped."""
SHIPPED = {name: checkpoint for name, checkpoint in MODELS.items() if name not in PENDING}
"""The models web/models holds, by name, with their checkpoints."""
FORMAT = "tapa-rl/web-model"
FORMAT_VERSION = 1


def model_metadata(path: Path) -> dict:
    """The bot file's metadata that an exported ONNX model records (docs/bot-files.md)."""
    import onnx

    model = onnx.load(str(path))
    properties = {prop.key: prop.value for prop in model.metadata_props}
    return json.loads(properties["metadata"])


def describe(path: Path, checkpoint: str) -> dict:
    """The description (``NAME.json``) of the ONNX model at ``path``, exported from
    ``checkpoint``."""
    content = path.read_bytes()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "model": path.name,
        "bytes": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
        "checkpoint": checkpoint,
        "input": ONNX_INPUT,
        "output": ONNX_OUTPUT,
        "metadata": model_metadata(path),
    }


def export(out: Path = WEB_MODELS, only: list[str] | None = None) -> list[Path]:
    """Export the models of :data:`MODELS` (those named in ``only``) into ``out``; the files
    written."""
    out.mkdir(parents=True, exist_ok=True)
    unknown = sorted(set(only or []) - set(MODELS))
    if unknown:
        raise SystemExit(f"export_web_models.py: no model {unknown}; the models are {list(MODELS)}")
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, checkpoint in MODELS.items():
            if (only and name not in only) or (not only and name in PENDING):
                continue
            copy = Path(scratch) / f"{name}.pt"
            shutil.copyfile(ROOT / checkpoint, copy)
            bot = Path(scratch) / f"{name}.npz"
            command = [sys.executable, "export.py", f"checkpoint={copy}", "onnx=true"]
            subprocess.run([*command, f"out={bot}"], cwd=ROOT, check=True, timeout=600)
            model = out / f"{name}.onnx"
            shutil.copyfile(bot.with_suffix(".onnx"), model)
            description = out / f"{name}.json"
            text = json.dumps(describe(model, checkpoint), indent=2, sort_keys=True)
            description.write_text(text + "\n")
            written += [model, description]
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=WEB_MODELS)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="export these models only")
    args = parser.parse_args()
    for path in export(args.out, args.only):
        print(path)


if __name__ == "__main__":
    main()
