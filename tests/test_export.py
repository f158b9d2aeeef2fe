"""export.py as a user runs it: the bot file, the ONNX model and its check, help and errors."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import PlayerSpecError, load_player
from agents.td import exporting
from agents.td.bot_file import read as read_bot_file
from agents.td.checkpoint import describe, save
from agents.td.exporting import (
    ONNX_TOLERANCE,
    ExportConfig,
    ExportError,
    check_afterstates,
    check_onnx_checksum,
    checksum_path,
    export_onnx,
    plan,
    require_onnx_packages,
)
from agents.td.network import NetworkShape, TDNetwork
from tapa_env import Position, Rules, legal_plays
from tapa_env.encoding import get_encoding

ROOT = Path(__file__).resolve().parents[1]
SHAPE = NetworkShape("raw", (24,), "sigmoid")


def make_checkpoint(shape: NetworkShape = SHAPE) -> dict:
    torch.manual_seed(2)
    network = TDNetwork(shape, init="xavier")
    return describe(network, Rules(), games=77, turns=888, config={"seed": 0})


RUN_SCRIPT = """
import runpy, sys
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run_export(*overrides: str, cwd: Path = ROOT, prefix: str = "") -> subprocess.CompletedProcess:
    """``python export.py OVERRIDES`` in ``cwd``; ``prefix``: Python run before the script."""
    script = str(ROOT / "export.py")
    if prefix:
        code = f"{prefix}\n{RUN_SCRIPT}"
        command = [sys.executable, "-c", code, script, *overrides]
    else:
        command = [sys.executable, script, *overrides]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("run") / "checkpoints" / "bot.pt"
    save(path, make_checkpoint())
    return path


def test_export_writes_a_bot_file_beside_the_checkpoint_and_nothing_else(tmp_path):
    folder = tmp_path / "checkpoints"
    save(folder / "last.pt", make_checkpoint())
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    done = run_export(f"checkpoint={folder / 'last.pt'}", cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = folder / "last.npz"
    assert f"bot file: {out}" in done.stdout and "numpy evaluator vs torch" in done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["last.npz", "last.pt"]
    assert list(workdir.iterdir()) == []  # no run directory, log or config snapshot
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # readable as any new file
    exported = read_bot_file(out)
    assert exported.metadata["games_trained"] == 77
    assert load_player(out).name == "last"


def test_an_exported_bot_file_plays_in_evaluate_py(checkpoint, tmp_path):
    out = tmp_path / "bots" / "tapa.npz"
    exported = run_export(f"checkpoint={checkpoint}", f"out={out}")
    assert exported.returncode == 0, exported.stderr
    done = subprocess.run(
        [
            sys.executable,
            "evaluate.py",
            f"players=[{out},random]",
            "games=20",
            "workers=1",
            f"hydra.run.dir={tmp_path / 'evaluate'}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((tmp_path / "evaluate" / "results.json").read_text())
    pairing = results["pairings"][0]
    assert pairing["players"] == [str(out), "random"] and pairing["games"] == 20


def test_help_explains_every_setting():
    done = run_export("--help")
    assert done.returncode == 0, done.stderr
    for field in dataclasses.fields(ExportConfig):
        assert re.search(rf"^\s+{field.name}\s", done.stdout, re.M), field.name
    assert 'pip install -e ".[export]"' in done.stdout


def test_every_setting_in_the_config_file_has_a_comment():
    lines = (ROOT / "configs" / "export.yaml").read_text().split("\nhydra:")[0].splitlines()
    settings = [line for line in lines if re.match(r"^\w+:", line) and "defaults" not in line]
    assert [line.split(":")[0] for line in settings] == [
        f.name for f in dataclasses.fields(ExportConfig)
    ]
    for line in settings:
        assert lines[lines.index(line) - 1].startswith("#"), f"no comment above {line!r}"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ((), "export.py: error: checkpoint=PATH is required"),
        (("checkpoint={missing}",), "export.py: error: {missing}: no such checkpoint"),
        (("checkpoint={notes}",), "export.py: error: {notes}: is not a tapa-rl checkpoint"),
        (("checkpoint={checkpoint}", "out=bot.pt"), "a bot file's name ends in .npz"),
        (("checkpoint={checkpoint}", "onnx=maybe"), "onnx"),
        (("checkpoint={checkpoint}", "+colour=red"), "export.py: error: unknown setting 'colour'"),
        (("checkpoint={checkpoint}", "colour=red"), "colour"),
    ],
)
def test_a_bad_setting_is_a_short_message_and_status_2(checkpoint, tmp_path, overrides, message):
    notes = tmp_path / "notes.pt"
    notes.write_text("my notes\n")
    names = {"checkpoint": checkpoint, "missing": tmp_path / "missing.pt", "notes": notes}
    done = run_export(*(o.format(**names) for o in overrides), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message.format(**names) in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 8
    assert not list(checkpoint.parent.glob("*.npz")) and not list(tmp_path.glob("*.npz"))


def test_export_never_overwrites_the_checkpoint_nor_reads_a_bot_file(tmp_path):
    odd = tmp_path / "odd.npz"  # a checkpoint with a bot file's extension
    save(odd, make_checkpoint())
    with pytest.raises(ExportError, match="is the checkpoint itself"):
        plan(ExportConfig(checkpoint=str(odd)))
    with pytest.raises(ExportError, match="is the checkpoint itself"):
        plan(ExportConfig(checkpoint=str(odd), out=str(tmp_path / "." / "odd.npz")))
    regular = tmp_path / "bot.pt"
    save(regular, make_checkpoint())
    with pytest.raises(ExportError, match="the ONNX model .* is the checkpoint itself"):
        plan(
            ExportConfig(
                checkpoint=str(tmp_path / "x.onnx"), out=str(tmp_path / "x.npz"), onnx=True
            )
        )
    done = run_export(f"checkpoint={regular}", f"out={tmp_path / 'bot.npz'}")
    assert done.returncode == 0, done.stderr
    again = run_export(f"checkpoint={tmp_path / 'bot.npz'}", f"out={tmp_path / 'again.npz'}")
    assert again.returncode == 2 and "is already an exported bot file" in again.stderr
    assert odd.read_bytes()[:4] == b"PK\x03\x04" and not (tmp_path / "again.npz").exists()


# Without out= and, under -m slow (another start of export.py), with it.
@pytest.mark.parametrize("out", [None, pytest.param("x.npz", marks=pytest.mark.slow)])
def test_a_numpy_archive_that_is_no_bot_file_is_named_as_load_player_names_it(tmp_path, out):
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    with pytest.raises(PlayerSpecError) as caught:
        load_player(str(other))
    assert str(caught.value) == f"{other}: is not a tapa-rl bot file (no 'metadata' entry)"
    overrides = [f"out={tmp_path / out}"] if out else []
    done = run_export(f"checkpoint={other}", *overrides, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"export.py: error: {caught.value}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.npz"]


def test_onnx_without_its_packages_says_what_to_install_and_writes_nothing(
    checkpoint, tmp_path, monkeypatch
):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name)
    )
    with pytest.raises(
        ExportError, match=r'missing: onnxruntime\. .*pip install -e "\.\[export\]"'
    ):
        require_onnx_packages()
    monkeypatch.undo()
    out = tmp_path / "x.npz"
    done = run_export(
        f"checkpoint={checkpoint}",
        f"out={out}",
        "onnx=true",
        prefix="import sys; sys.modules['onnxruntime'] = None",
    )
    assert done.returncode == 2, done.stderr
    assert 'missing: onnxruntime. Install them with: pip install -e ".[export]"' in done.stderr
    assert list(tmp_path.iterdir()) == []


# --- ONNX: skipped where the export extra is not installed -------------------------------


@pytest.fixture(scope="module")
def onnx_export(checkpoint, tmp_path_factory):
    """``export.py onnx=true``: its output, and the paths of the bot file and the model."""
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    out = tmp_path_factory.mktemp("onnx") / "tapa.npz"
    done = run_export(f"checkpoint={checkpoint}", f"out={out}", "onnx=true")
    assert done.returncode == 0, done.stderr
    return done.stdout, out, out.with_suffix(".onnx")


def test_onnx_model_matches_torch_within_the_tolerance_export_py_reports(onnx_export):
    stdout, _, model = onnx_export
    found = re.search(r"onnxruntime vs torch: max abs difference (\S+) over 4,096", stdout)
    assert found, stdout
    assert float(found.group(1)) <= ONNX_TOLERANCE == 1e-5
    assert f"ONNX model: {model}" in stdout


def test_onnx_model_takes_features_and_gives_probabilities_for_any_batch(onnx_export):
    import onnxruntime

    _, out, model = onnx_export
    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    (features,), (probabilities,) = session.get_inputs(), session.get_outputs()
    assert (features.name, features.type) == ("features", "tensor(float)")
    assert (probabilities.name, probabilities.type) == ("probabilities", "tensor(float)")
    assert isinstance(features.shape[0], str) and features.shape[1] == 248
    assert probabilities.shape[0] == features.shape[0] and probabilities.shape[1] == 5
    metadata = json.loads(session.get_modelmeta().custom_metadata_map["metadata"])
    exported = read_bot_file(out)
    assert metadata == exported.metadata
    rows = check_afterstates(Rules(), count=301)
    encoded = get_encoding("raw").encode(rows)
    expected = exported.evaluator().probabilities(rows)
    for batch in (1, 7, 301):
        (ours,) = session.run(["probabilities"], {"features": encoded[:batch]})
        assert ours.shape == (batch, 5) and ours.dtype == np.float32
        np.testing.assert_allclose(ours, expected[:batch], atol=1e-5, rtol=0)
        np.testing.assert_allclose(ours.sum(axis=1), 1.0, atol=1e-5)


def test_the_onnx_example_values_every_play_of_a_roll(onnx_export):
    _, _, model = onnx_export
    done = subprocess.run(
        [sys.executable, "examples/onnx_evaluate.py", str(model), "--dice", "3", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "features: float32 (" in done.stdout and ", 248) (raw-v1)" in done.stdout
    plays = int(re.search(r"^(\d+) plays of 3-1", done.stdout, re.M).group(1))
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("play "))
    rows = {}  # each play's text, as players write it, and its numbers
    for line in lines[header + 1 : -1]:
        text, *numbers = line.rsplit(maxsplit=6)
        rows[text] = np.array(numbers, dtype=float)
    legal = {play.text for play in legal_plays(Position.initial(), (3, 1))}
    assert set(rows) == legal and len(rows) == plays > 1
    assert "24/23 24/21" in rows and "24/21/20" in rows  # spaces inside a play
    for p in rows.values():
        assert p[:5].sum() == pytest.approx(1.0, abs=5e-4)
        assert p[5] == pytest.approx(p[:5] @ [1, 2, 0, -1, -2], abs=5e-4)
    best = max(rows, key=lambda text: rows[text][5])
    assert lines[-1].startswith(f"best play: {best} (equity ")


def test_the_onnx_model_has_a_checksum_file_that_sha256sum_accepts(onnx_export, tmp_path):
    _, _, model = onnx_export
    sidecar = checksum_path(model)
    assert sidecar == model.parent / "tapa.onnx.sha256"
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    assert sidecar.read_text() == f"{digest}  tapa.onnx\n"
    check_onnx_checksum(model)
    if shutil.which("sha256sum"):
        done = subprocess.run(
            ["sha256sum", "-c", sidecar.name],
            cwd=model.parent,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0 and done.stdout == "tapa.onnx: OK\n", done.stderr


def test_a_damaged_onnx_model_is_refused_in_one_line(onnx_export, tmp_path):
    _, _, model = onnx_export
    copy = tmp_path / model.name
    damaged = bytearray(model.read_bytes())
    damaged[len(damaged) // 2] ^= 0x10
    copy.write_bytes(bytes(damaged))
    checksum_path(copy).write_bytes(checksum_path(model).read_bytes())
    with pytest.raises(ExportError) as caught:
        check_onnx_checksum(copy)
    assert str(caught.value) == (
        f"{copy}: corrupt ONNX model: its SHA-256 does not match {copy.name}.sha256"
    )
    done = subprocess.run(
        [sys.executable, "examples/onnx_evaluate.py", str(copy)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [f"onnx_evaluate.py: error: {caught.value}"]
    checksum_path(copy).unlink()
    with pytest.raises(ExportError, match=r"tapa\.onnx\.sha256: no such file; export the model"):
        check_onnx_checksum(copy)
    done = subprocess.run(
        [sys.executable, "examples/onnx_evaluate.py", str(copy)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1 and "tapa.onnx.sha256: no such file" in done.stderr


def test_onnx_export_falls_back_to_the_torchscript_exporter(checkpoint, tmp_path, monkeypatch):
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    real = torch.onnx.export

    def no_dynamo(*args, **kwargs):
        if kwargs.get("dynamo", True):
            raise RuntimeError("the dynamo exporter failed")
        return real(*args, **kwargs)

    monkeypatch.setattr(torch.onnx, "export", no_dynamo)
    content = make_checkpoint()
    report = export_onnx(content, tmp_path / "x.onnx")
    assert report.exporter == "torchscript" and report.difference <= ONNX_TOLERANCE
    assert report.afterstates == 4096
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.onnx", "x.onnx.sha256"]
    check_onnx_checksum(tmp_path / "x.onnx")


def test_an_onnx_model_that_fails_its_check_is_not_written(tmp_path, monkeypatch):
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    monkeypatch.setattr(exporting, "onnx_difference", lambda *args: 0.5)
    with pytest.raises(ExportError, match=r"differ from torch's by up to 5\.00e-01"):
        export_onnx(make_checkpoint(), tmp_path / "x.onnx")
    assert list(tmp_path.iterdir()) == []
