"""Export a trained bot for play without the training code: ``python export.py checkpoint=PATH``.

Writes the checkpoint's network as a bot file (``.npz``: the weights and JSON metadata, which
``agents.load_player`` and ``evaluate.py`` play with numpy alone) and, with ``onnx=true``, an
ONNX model of it as well (docs/bot-files.md). ``python export.py --help`` lists every setting.

Every setting is checked before anything is written. A mistake in the command line or the
settings, or a checkpoint that cannot be read, exits with status 2 after a one-line message
on stderr (``onnx=maybe`` too: entry.py turns what Hydra refuses into one line). An
ONNX model that cannot be exported or fails its check against torch is not written, and the
status is 3. The status is 1, with a traceback, only for a fault of the program itself.
"""

from __future__ import annotations

import hydra
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from agents.td.export_config import ExportConfig
from entry import EntryScript

EXIT_CHECK_FAILED = 3  # the ONNX model does not compute what the network does

SCRIPT = EntryScript("export.py")
fail = SCRIPT.fail
ConfigStore.instance().store(name="export_schema", node=ExportConfig)


@hydra.main(version_base="1.3", config_path="configs", config_name="export")
@SCRIPT.job
def main(cfg: DictConfig) -> None:
    SCRIPT.job_started = True
    if OmegaConf.is_missing(cfg, "checkpoint"):
        fail(
            "checkpoint=PATH is required: the training checkpoint to export, such as "
            "checkpoint=runs/default/checkpoints/bot.pt"
        )
    config: ExportConfig = SCRIPT.settings(cfg, ExportConfig)
    # The export needs torch: imported once the settings stand, not for --help or a mistake.
    from agents.td.checkpoint import CheckpointError, network_of, read
    from agents.td.exporting import (
        ONNX_TOLERANCE,
        ExportError,
        bot_file_difference,
        check_afterstates,
        checksum_path,
        export_bot_file,
        export_onnx,
        plan,
        require_onnx_packages,
    )

    try:
        paths = plan(config)
        content = read(paths.checkpoint)
        if paths.onnx is not None:
            require_onnx_packages()
    except (ExportError, CheckpointError) as error:
        fail(str(error))
    exported = export_bot_file(content, paths.out)
    network = exported.metadata["network"]
    print(
        f"bot file: {paths.out} ({paths.out.stat().st_size:,} bytes; "
        f"{exported.metadata['encoding_version']}, hidden {network['hidden']} "
        f"{network['activation']}, {exported.metadata['games_trained']:,} games trained)"
    )
    rows = check_afterstates(exported.rules)
    difference = bot_file_difference(exported, network_of(content), rows)
    print(
        f"  numpy evaluator vs torch: max abs difference {difference:.2e} over "
        f"{len(rows):,} afterstates"
    )
    if paths.onnx is None:
        return
    try:
        report = export_onnx(content, paths.onnx)
    except ExportError as error:
        fail(str(error), EXIT_CHECK_FAILED)
    print(f"ONNX model: {paths.onnx} ({paths.onnx.stat().st_size:,} bytes; {report.exporter})")
    print(f"  its checksum: {checksum_path(paths.onnx)} (check it with sha256sum -c)")
    print(
        f"  onnxruntime vs torch: max abs difference {report.difference:.2e} over "
        f"{report.afterstates:,} encoded afterstates (at most {ONNX_TOLERANCE:.0e} allowed)"
    )


if __name__ == "__main__":
    SCRIPT.run(main)
