"""Exported bot files: round trips, the same choices as the checkpoint, play without torch,
and a clear error for every file that is not one."""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import PlayerSpecError, load_player
from agents.bots.equity import OUTCOMES
from agents.td.bot_file import (
    FORMAT,
    FORMAT_VERSION,
    BotFile,
    BotFileError,
    content_checksum,
    describe,
    is_bot_file,
    is_npz_archive,
    read,
    write,
)
from agents.td.checkpoint import describe as describe_checkpoint
from agents.td.checkpoint import save
from agents.td.exporting import bot_file_contents, export_bot_file
from agents.td.network import NetworkShape, TDNetwork
from agents.td.player import TDPlayer
from tapa_env import DEFAULT_RULES, Position, Rules, generate_afterstates
from tapa_env.encoding import get_encoding
from tapa_env.selfplay import random_self_play

ROOT = Path(__file__).resolve().parents[1]
SHAPE = NetworkShape("raw", (40,), "sigmoid")


def make_checkpoint(shape: NetworkShape = SHAPE, rules: Rules = DEFAULT_RULES) -> dict:
    torch.manual_seed(1)
    network = TDNetwork(shape, init="xavier")
    return describe_checkpoint(network, rules, games=321, turns=7654, config={"seed": 0})


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A checkpoint and the bot file exported from it."""
    folder = tmp_path_factory.mktemp("bot")
    content = make_checkpoint()
    save(folder / "bot.pt", content)
    export_bot_file(content, folder / "bot.npz")
    return folder / "bot.pt", folder / "bot.npz"


@pytest.fixture(scope="module")
def turns():
    """10,000 positions of random self-play with their rolls, and every afterstate of each."""
    record = random_self_play(150, seed=11)
    assert len(record.positions) >= 10_000
    positions, dice = record.positions[:10_000], record.dice[:10_000]
    afterstates, offsets = generate_afterstates(positions, dice)
    return positions, dice, afterstates, offsets


def test_a_bot_file_holds_the_documented_metadata_and_the_exact_weights(tmp_path):
    shape = NetworkShape("expert", (10, 6), "tanh")
    content = make_checkpoint(shape, Rules(both_mothers_draw=False))
    exported = export_bot_file(content, tmp_path / "x.npz")
    metadata = exported.metadata
    assert metadata["format"] == FORMAT == "tapa-rl/bot"
    assert metadata["format_version"] == FORMAT_VERSION == 1
    assert (metadata["encoding"], metadata["encoding_version"]) == ("expert", "expert-v1")
    assert metadata["rules"] == {**{k: True for k in vars(Rules())}, "both_mothers_draw": False}
    assert metadata["network"] == {
        "hidden": [10, 6],
        "activation": "tanh",
        "input_size": 258,
        "layers": 3,
        "output": "logits",
        "outcomes": list(OUTCOMES),
        "outcome_points": [1, 2, 0, -1, -2],
    }
    assert (metadata["games_trained"], metadata["turns_trained"]) == (321, 7654)
    assert exported.rules == Rules(both_mothers_draw=False)
    # The archive as another language sees it: plain .npy entries, the metadata UTF-8 JSON.
    with zipfile.ZipFile(tmp_path / "x.npz") as archive:
        names = sorted(archive.namelist())
    assert names == [f"layers.{k}.{part}.npy" for k in range(3) for part in ("bias", "weight")] + [
        "metadata.npy"
    ]
    with np.load(tmp_path / "x.npz", allow_pickle=False) as archive:
        stored = json.loads(archive["metadata"].tobytes().decode("utf-8"))
        weights = {name: archive[name] for name in archive.files if name != "metadata"}
        assert stored == {**metadata, "checksum": content_checksum(metadata, weights)}
        assert stored["checksum"].startswith("sha256:") and len(stored["checksum"]) == 71
        for name, tensor in content["weights"].items():
            assert archive[name].dtype == np.float32
            np.testing.assert_array_equal(archive[name], tensor.numpy())


def test_load_player_plays_a_bot_file_exactly_as_its_checkpoint_on_10000_positions(files, turns):
    checkpoint, exported = files
    positions, dice, afterstates, offsets = turns
    ours, theirs = load_player(exported), load_player(checkpoint)
    assert isinstance(ours, TDPlayer) and ours.name == "bot" and ours.ply == 1
    a = ours.choose_batch(positions, dice, afterstates, offsets, None)
    b = theirs.choose_batch(positions, dice, afterstates, offsets, None)
    assert len(a) == 10_000
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(
        ours.evaluator.probabilities(afterstates), theirs.evaluator.probabilities(afterstates)
    )


def test_a_bot_file_plays_two_ply_with_the_suffix_as_its_checkpoint_does(files, turns):
    checkpoint, exported = files
    positions, dice, afterstates, offsets = turns
    ours, theirs = load_player(f"{exported}@2ply"), load_player(f"{checkpoint}@2ply")
    assert (ours.name, ours.ply) == ("bot@2ply", 2)
    end = 200
    sub = offsets[: end + 1]
    a = ours.choose_batch(positions[:end], dice[:end], afterstates[: sub[-1]], sub, None)
    b = theirs.choose_batch(positions[:end], dice[:end], afterstates[: sub[-1]], sub, None)
    np.testing.assert_array_equal(a, b)


NO_TORCH = """
import sys
from agents import load_player, play_games
path = sys.argv[1]
one, two = load_player(path), load_player(path + "@2ply")
results = play_games((one, two), 4, seed=3, max_turns=60)
assert results.turns.sum() > 100, results.turns
assert "torch" not in sys.modules, "torch was imported"
print("played", int(results.turns.sum()), "turns without torch")
"""


def test_a_bot_file_plays_with_numpy_alone_without_importing_torch(files):
    _, exported = files
    done = subprocess.run(
        [sys.executable, "-c", NO_TORCH, str(exported)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "without torch" in done.stdout


def test_a_bot_file_is_told_by_its_content_whatever_its_name(files, tmp_path):
    checkpoint, exported = files
    renamed = tmp_path / "my-bot.bin"
    renamed.write_bytes(exported.read_bytes())
    assert is_bot_file(renamed) and not is_bot_file(checkpoint)
    assert isinstance(load_player(renamed), TDPlayer)


def test_a_failed_write_leaves_the_previous_bot_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "bot.npz"
    metadata, layers = bot_file_contents(make_checkpoint())
    write(path, metadata, layers)
    good = path.read_bytes()

    def broken_savez(file, **arrays):
        file.write(b"PK\x03\x04 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", broken_savez)
    with pytest.raises(OSError, match="disk full"):
        write(path, metadata, layers)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.npz"]  # no temporary left


def written(
    path: Path, metadata: dict | None = None, layers=None, checksum: bool = True, **extra
) -> Path:
    """A bot file of the module's network with ``metadata`` or ``layers`` changed, written
    as another program might: with a checksum that fits what it holds (unless ``checksum``
    is false), so that each check behind the checksum's is reached."""
    good_metadata, good_layers = bot_file_contents(make_checkpoint())
    metadata = dict(metadata or good_metadata)
    weights = {}
    for index, (weight, bias) in enumerate(layers or good_layers):
        weights[f"layers.{index}.weight"], weights[f"layers.{index}.bias"] = weight, bias
    weights.update(extra)
    if checksum:
        metadata["checksum"] = content_checksum(
            metadata, {k: np.asarray(v) for k, v in weights.items()}
        )
    arrays = {"metadata": np.frombuffer(json.dumps(metadata).encode(), np.uint8), **weights}
    np.savez(path, **arrays)
    return path


def changed(change) -> dict:
    metadata, _ = bot_file_contents(make_checkpoint())
    change(metadata)
    return metadata


def test_every_bad_bot_file_gets_a_one_line_error_naming_it(files, tmp_path):
    _, good = files
    data = good.read_bytes()
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(data[: len(data) // 2])
    corrupt = tmp_path / "corrupt.npz"
    flipped = bytearray(data)
    flipped[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64
    corrupt.write_bytes(bytes(flipped))
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    text = tmp_path / "notes.npz"
    text.write_text("these are my notes\n")
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, weights=np.zeros(3))
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, metadata=np.array([{"format": FORMAT}], dtype=object))
    _, layers = bot_file_contents(make_checkpoint())
    wide = [(np.zeros((40, 250), np.float32), layers[0][1]), layers[1]]
    nan = [(np.full_like(layers[0][0], np.nan), layers[0][1]), layers[1]]
    as_text = tmp_path / "text-metadata.npz"
    np.savez(as_text, metadata=np.array("{}"))
    not_json = tmp_path / "not-json.npz"
    np.savez(not_json, metadata=np.frombuffer(b"{format: 1", np.uint8))
    cases = {
        tmp_path / "missing.npz": "no such checkpoint or bot file",
        tmp_path: "is a directory",
        truncated: "corrupt or truncated",
        corrupt: "corrupt or truncated",
        empty: "is empty",
        text: r"not an \.npz archive",
        foreign: "no 'metadata' entry",
        pickled: "pickled objects, which are never unpickled",
        as_text: "not uint8 UTF-8 JSON text",
        not_json: "metadata is not JSON",
        written(tmp_path / "other.npz", changed(lambda m: m.update(format="somebody/model"))): (
            "'somebody/model', not a tapa-rl bot file"
        ),
        written(tmp_path / "v2.npz", changed(lambda m: m.update(format_version=2))): (
            "bot file format version 2; this version of tapa-rl reads version 1"
        ),
        written(tmp_path / "enc.npz", changed(lambda m: m.update(encoding_version="raw-v0"))): (
            "encoding 'raw' version 'raw-v0'"
        ),
        written(tmp_path / "braille.npz", changed(lambda m: m.update(encoding="braille"))): (
            "encoding 'braille' version 'raw-v1'"
        ),
        written(tmp_path / "list.npz", changed(lambda m: m.update(encoding=["raw"]))): (
            r"encoding \['raw'\]"
        ),
        written(tmp_path / "act.npz", changed(lambda m: m["network"].update(activation="gelu"))): (
            "unknown activation 'gelu'"
        ),
        written(tmp_path / "out.npz", changed(lambda m: m["network"].update(outcomes=["w"]))): (
            "outputs"
        ),
        written(tmp_path / "rules.npz", changed(lambda m: m["rules"].update(loaded_dice=True))): (
            "unknown rule flag"
        ),
        written(tmp_path / "hidden.npz", changed(lambda m: m["network"].update(hidden=[0]))): (
            "not a list of widths"
        ),
        written(tmp_path / "wide.npz", layers=wide): "'layers.0.weight' is float32 .40, 250.",
        written(tmp_path / "nan.npz", layers=nan): "'layers.0.weight' is not all finite",
        written(tmp_path / "short.npz", layers=layers[:1]): "no 'layers.1.weight' entry",
    }
    for path, reason in cases.items():
        with pytest.raises(BotFileError, match=reason) as caught:
            read(path)
        message = str(caught.value)
        assert str(path) in message and "\n" not in message, message
        with pytest.raises(PlayerSpecError, match=reason):
            load_player(str(path))


def zipped(path: Path, entries: dict[str, bytes]) -> Path:
    """A zip archive of raw ``entries``, as a crafted file would be made."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def test_crafted_bot_files_are_refused_in_one_line(tmp_path):
    metadata, layers = bot_file_contents(make_checkpoint())
    good = written(tmp_path / "good.npz")
    entries = {}
    with zipfile.ZipFile(good) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    objects = [(np.array([object()] * 4, dtype=object), layers[0][1]), layers[1]]
    double = [(weight.astype(np.float64), bias) for weight, bias in layers]
    infinite = [layers[0], (layers[1][0], np.full_like(layers[1][1], np.inf))]
    cases = {
        zipped(tmp_path / "pickle.npz", {"metadata.npy": pickle.dumps({"format": FORMAT})}): (
            r"is not a tapa-rl bot file \(it holds pickled objects, which are never unpickled"
        ),
        zipped(tmp_path / "raw.npz", {**entries, "layers.0.weight.npy": b"not an array"}): (
            "is not a tapa-rl bot file .it holds an entry 'layers.0.weight' that is not a numpy"
        ),
        zipped(tmp_path / "extra.npz", {**entries, "readme.txt": b"hello"}): (
            "is not a tapa-rl bot file .it holds an entry 'readme.txt'"
        ),
        zipped(tmp_path / "float-meta.npz", {"metadata.npy": npy(np.zeros(3))}): (
            r"'metadata' is float64 \(3,\), not uint8 UTF-8 JSON text"
        ),
        zipped(tmp_path / "square.npz", {"metadata.npy": npy(np.zeros((2, 2), np.uint8))}): (
            r"'metadata' is uint8 \(2, 2\)"
        ),
        zipped(
            tmp_path / "list-meta.npz", {"metadata.npy": npy(np.frombuffer(b"[1]", np.uint8))}
        ): ("no 'format' in its metadata"),
        written(tmp_path / "objects.npz", layers=objects, checksum=False): "pickled objects",
        written(tmp_path / "double.npz", layers=double): "'layers.0.weight' is float64",
        written(tmp_path / "inf.npz", layers=infinite): "'layers.1.bias' is not all finite",
        written(tmp_path / "no-checksum.npz", checksum=False): (
            r"has no checksum, so its content cannot be checked \(written by an older version"
        ),
        written(
            tmp_path / "bad-checksum.npz",
            {**metadata, "checksum": "sha256:" + "0" * 64},
            checksum=False,
        ): ("corrupt checkpoint or bot file: its checksum does not match its content"),
        written(tmp_path / "number-checksum.npz", {**metadata, "checksum": 7}, checksum=False): (
            "its checksum does not match its content"
        ),
    }
    assert isinstance(read(good), BotFile)
    for path, reason in cases.items():
        with pytest.raises(BotFileError, match=reason) as caught:
            read(path)
        message = str(caught.value)
        assert message.startswith(f"{path}: ") and "\n" not in message, message
        with pytest.raises(PlayerSpecError, match=reason):
            load_player(str(path))


def test_a_bot_file_whose_content_changed_after_writing_is_refused(tmp_path):
    """Each entry of a valid archive replaced by another valid one: every zip CRC is right,
    only the checksum tells."""
    good = written(tmp_path / "good.npz")
    with zipfile.ZipFile(good) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    weight = np.load(io.BytesIO(entries["layers.1.weight.npy"]))
    weight[0, 0] += 0.5
    metadata = json.loads(np.load(io.BytesIO(entries["metadata.npy"])).tobytes())
    metadata["games_trained"] += 1
    changes = {
        "layers.1.weight.npy": npy(weight),
        "metadata.npy": npy(np.frombuffer(json.dumps(metadata).encode(), np.uint8)),
    }
    for name, data in changes.items():
        path = zipped(tmp_path / f"changed-{name}.npz", {**entries, name: data})
        with pytest.raises(BotFileError, match="its checksum does not match its content"):
            read(path)


@pytest.mark.parametrize("script", ["evaluate.py", "play.py"])
def test_a_pickle_posing_as_metadata_is_one_line_in_the_scripts(tmp_path, script):
    crafted = zipped(tmp_path / "crafted.npz", {"metadata.npy": pickle.dumps({"a": 1})})
    setting = f"players=[{crafted},random]" if script == "evaluate.py" else f"opponent={crafted}"
    done = subprocess.run(
        [sys.executable, script, setting, "games=2", f"hydra.run.dir={tmp_path / 'run'}"]
        if script == "evaluate.py"
        else [sys.executable, script, setting],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        input="",
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"{script}: error: {crafted}: is not a tapa-rl bot file (it holds pickled objects, "
        "which are never unpickled)"
    ]


def test_an_npz_archive_that_is_no_bot_file_gets_one_message_whatever_its_name(tmp_path):
    for name in ("other.npz", "other.zip", "other"):
        path = tmp_path / name
        with path.open("wb") as file:
            np.savez(file, weights=np.zeros(3))
        assert is_npz_archive(path) and not is_bot_file(path)
        with pytest.raises(BotFileError) as caught:
            load_player(str(path))
        assert str(caught.value) == f"{path}: is not a tapa-rl bot file (no 'metadata' entry)"


def test_a_named_pipe_is_refused_without_waiting_on_it(tmp_path):
    for name in ("bot.npz", "bot.pt", "bot"):
        pipe = tmp_path / name
        os.mkfifo(pipe)
        assert not is_bot_file(pipe)
        with pytest.raises(PlayerSpecError, match="not a regular file"):
            load_player(str(pipe))


def test_describe_refuses_an_unknown_encoding():
    with pytest.raises(ValueError, match="unknown encoding"):
        describe("braille", [8], "sigmoid", Rules(), 0, 0)


# --- docs/bot-files.md: what another language implements from it -------------------------

BOT_FILES_DOC = ROOT / "docs" / "bot-files.md"


def documented_raw(own: np.ndarray, opp: np.ndarray, pin: np.ndarray) -> list[float]:
    """raw-v1 exactly as docs/bot-files.md states it; ``own[p]``, ``opp[p]``, ``pin[p]`` for
    points ``p`` = 1..24 (index 0 unused)."""

    def units(n):
        return [n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0]

    points = range(1, 25)
    features = [u for p in points for u in units(own[p])]
    features += [u for p in points for u in units(opp[p])]
    features += [pin[p] == -1 for p in points] + [pin[p] == 1 for p in points]
    features += [(15 - sum(own)) / 15, (15 - sum(opp)) / 15]
    features += [own[24] / 15, own[24] == 1, own[24] == 1 and pin[24] == -1]
    features += [opp[1] / 15, opp[1] == 1, opp[1] == 1 and pin[1] == 1]
    return [float(f) for f in features]


def documented_expert(own: np.ndarray, opp: np.ndarray, pin: np.ndarray) -> list[float]:
    """The ten expert-v1 features exactly as docs/bot-files.md states them."""
    points = range(1, 25)

    def own_movable(q):
        return 1 <= q <= 24 and own[q] > 0 and pin[q] != -1

    def opp_movable(q):
        return 1 <= q <= 24 and opp[q] > 0 and pin[q] != 1

    return [
        sum(own[p] * p for p in points) / 360,
        sum(opp[p] * (25 - p) for p in points) / 360,
        sum(
            own[p] == 1 and pin[p] == 0 and any(opp_movable(p - d) for d in range(1, 7))
            for p in points
        )
        / 5,
        sum(
            opp[p] == 1 and pin[p] == 0 and any(own_movable(p + d) for d in range(1, 7))
            for p in points
        )
        / 5,
        sum(pin[p] == 1 for p in points) / 5,
        sum(pin[p] == -1 for p in points) / 5,
        sum(own[p] >= 2 for p in range(1, 7)) / 6,
        sum(opp[p] >= 2 for p in range(19, 25)) / 6,
        float(own[24] == 1 and pin[24] == 0 and any(opp_movable(q) for q in range(18, 24))),
        float(opp[1] == 1 and pin[1] == 0 and any(own_movable(q) for q in range(2, 8))),
    ]


def test_the_documented_features_are_the_encodings_features():
    record = random_self_play(12, seed=4)
    rows, _ = generate_afterstates(record.positions[::3], record.dice[::3])
    rows = rows[:: max(1, len(rows) // 3000)]
    encoded = get_encoding("expert").encode(rows)
    assert get_encoding("raw").size == 248 and encoded.shape[1] == 258
    for row, ours in zip(rows, encoded):
        own, opp, pin = (np.concatenate([[0], row[k : k + 24]]).astype(int) for k in (0, 24, 48))
        documented = documented_raw(own, opp, pin) + documented_expert(own, opp, pin)
        np.testing.assert_allclose(ours, documented, rtol=1e-6, atol=1e-7)


def test_the_documented_worked_example_and_metadata_are_what_the_code_writes():
    text = BOT_FILES_DOC.read_text()
    (example,) = [json.loads(b) for b in re.findall(r"```json\n(.+?)\n```", text, re.DOTALL)]
    metadata, _ = bot_file_contents(make_checkpoint(NetworkShape("raw", (80,), "sigmoid")))
    assert set(example) == set(metadata) | {"checksum"}
    assert example["checksum"].startswith("sha256:")
    assert example["network"] == metadata["network"] and example["rules"] == metadata["rules"]
    for key in set(example) - {"network"}:  # the table gives network's keys one by one
        assert f"| `{key}`" in text or f", `{key}`" in text, key
    for key in metadata["network"]:
        assert f"`network.{key}`" in text, key
    # The opening 24/13 from the side that played it.
    after = Position.from_key("13:1,24:14|1:15|")
    assert "`13:1,24:14|1:15|`" in text
    (features,) = get_encoding("raw").encode(after.row[None])
    nonzero = {int(c): float(features[c]) for c in np.flatnonzero(features)}
    assert nonzero == {
        48: 1.0,
        92: 1.0,
        93: 1.0,
        94: 1.0,
        95: 5.5,
        96: 1.0,
        97: 1.0,
        98: 1.0,
        99: 6.0,
        242: pytest.approx(14 / 15),
        245: 1.0,
    }
