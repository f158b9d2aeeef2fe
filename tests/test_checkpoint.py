"""Checkpoints: round trips, atomic writes, and a clear error for every file that is not one."""

from __future__ import annotations

import io
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import PlayerSpecError, load_player
from agents.bots.loading import PLIES
from agents.storage.tensors import to_arrays, to_tensors
from agents.td.checkpoint import (
    FORMAT,
    CheckpointError,
    describe,
    evaluator_of,
    network_of,
    read,
    save,
    slim,
)
from agents.td.network import NetworkShape, TDNetwork
from agents.td.player import PLIES as player_plies
from agents.td.player import TDPlayer
from tapa_env import Rules, generate_afterstates
from tapa_env.selfplay import random_self_play


@pytest.fixture(scope="module")
def afterstates():
    record = random_self_play(10, seed=5)
    rows, _ = generate_afterstates(record.positions[:200], record.dice[:200])
    return rows


SMALL = NetworkShape("raw", (12,), "sigmoid")


def make_checkpoint(shape: NetworkShape = SMALL) -> dict:
    torch.manual_seed(0)
    network = TDNetwork(shape)
    return describe(network, Rules(), games=123, turns=4567, config={"seed": 0})


def write(path: Path, content) -> Path:
    save(path, content)
    return path


def test_a_checkpoint_round_trips_its_network_and_fields(tmp_path, afterstates):
    content = make_checkpoint(NetworkShape("expert", (10, 6), "tanh"))
    loaded = read(write(tmp_path / "a.pt", content))
    assert loaded["format"] == FORMAT
    assert loaded["encoding"] == "expert" and loaded["encoding_version"] == "expert-v1"
    assert loaded["network"]["hidden"] == [10, 6] and loaded["network"]["activation"] == "tanh"
    assert loaded["games_trained"] == 123 and loaded["turns_trained"] == 4567
    assert loaded["rules"] == {name: True for name in vars(Rules())}
    before = network_of(content).evaluator().probabilities(afterstates)
    after = evaluator_of(loaded).probabilities(afterstates)
    np.testing.assert_array_equal(before, after)


def test_load_player_plays_a_checkpoint_and_a_slim_bot_file_alike(tmp_path, afterstates):
    content = make_checkpoint()
    content["training"] = {"anything": torch.zeros(3)}
    full = write(tmp_path / "last.pt", content)
    bot = write(tmp_path / "bot.pt", slim(content))
    assert "training" not in read(bot)
    players = [load_player(str(full)), load_player(bot)]
    assert all(isinstance(p, TDPlayer) for p in players)
    offsets = np.array([0, 10, 25, 60])
    positions = np.zeros((3, 72), np.int8)
    dice = np.ones((3, 2), np.int64)  # the TD player values afterstates alone
    a, b = (p.choose_batch(positions, dice, afterstates[:60], offsets, None) for p in players)
    np.testing.assert_array_equal(a, b)


def test_numpy_state_survives_the_tensor_round_trip():
    state = {"a": np.arange(5, dtype=np.int8), "b": [np.ones((2, 2), np.float32), 3], "c": "x"}
    back = to_arrays(to_tensors(state))
    np.testing.assert_array_equal(back["a"], state["a"])
    assert back["a"].dtype == np.int8 and back["b"][1] == 3 and back["c"] == "x"
    buffer = io.BytesIO()
    torch.save(to_tensors(state), buffer)
    buffer.seek(0)
    assert torch.load(buffer, weights_only=True)["b"][1] == 3


def test_a_failed_write_leaves_the_previous_checkpoint_whole(tmp_path, monkeypatch):
    path = write(tmp_path / "last.pt", make_checkpoint())
    good = path.read_bytes()

    def broken_save(obj, file):
        file.write(b"PK\x03\x04 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        save(path, make_checkpoint())
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last.pt"]  # no temporary left


class Foreign:
    """An arbitrary object: a weights-only load must refuse to unpickle it."""


def test_every_bad_file_gets_a_one_line_error_naming_it(tmp_path):
    good = write(tmp_path / "good.pt", make_checkpoint())
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    corrupt = tmp_path / "corrupt.pt"
    data = bytearray(good.read_bytes())
    data[200:260] = b"\xff" * 60
    corrupt.write_bytes(bytes(data))
    empty = tmp_path / "empty.pt"
    empty.write_bytes(b"")
    text = tmp_path / "notes.pt"
    text.write_text("these are my notes\n")
    pickled = tmp_path / "pickled.pt"
    pickled.write_bytes(pickle.dumps({"format": FORMAT}))
    arbitrary = tmp_path / "arbitrary.pt"
    torch.save({"format": FORMAT, "payload": Foreign()}, arbitrary)
    foreign = tmp_path / "foreign.pt"
    torch.save({"state_dict": OrderedDict(w=torch.zeros(2))}, foreign)
    other_format = tmp_path / "other.pt"
    torch.save({"format": "somebody-else/model"}, other_format)
    cases = {
        tmp_path / "missing.pt": "no such checkpoint",
        tmp_path: "is a directory",
        truncated: "corrupt or truncated",
        empty: "is empty",
        text: "not a file torch.save wrote",
        pickled: "not a file torch.save wrote",
        arbitrary: "never unpickled",
        foreign: "no 'format' field",
        other_format: "'somebody-else/model', not a tapa-rl checkpoint",
    }
    for path, reason in cases.items():
        with pytest.raises(CheckpointError, match=reason) as caught:
            read(path)
        message = str(caught.value)
        assert str(path) in message and "\n" not in message
        with pytest.raises(PlayerSpecError, match=reason):
            load_player(str(path))
    with pytest.raises(CheckpointError) as caught:
        read(corrupt)
    assert str(corrupt) in str(caught.value)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda c: c.update(format_version=99), "format version 99"),
        (lambda c: c.update(encoding_version="raw-v0"), "encoding 'raw-v0'"),
        (lambda c: c.update(encoding="braille"), "encoding"),
        (lambda c: c.pop("weights"), "no 'weights' field"),
        (lambda c: c["network"].update(hidden=[13]), "corrupt checkpoint"),
        (lambda c: c["network"].update(activation="softplus"), "corrupt checkpoint"),
        (lambda c: c["weights"].pop("layers.0.bias"), "corrupt checkpoint"),
        (lambda c: c["rules"].update(dice_are_loaded=True), "corrupt checkpoint"),
    ],
)
def test_a_checkpoint_of_another_version_encoding_or_shape_is_refused(tmp_path, change, reason):
    content = make_checkpoint()
    change(content)
    with pytest.raises(CheckpointError, match=reason):
        read(write(tmp_path / "x.pt", content))


CRAFTED = [
    torch.zeros(40, 40),
    ["raw"],
    {"raw": 1},
    None,
    "x" * 10_000,
    3.5,
]


@pytest.mark.parametrize("algorithm", ["td", "ppo"])
def test_a_crafted_field_of_any_type_is_refused_in_one_short_line(tmp_path, algorithm):
    """Whatever a crafted file (with a checksum that fits it) holds in a field: one line."""
    from agents.ppo import checkpoint as ppo
    from agents.ppo.network import ActorCritic, observation_size
    from tapa_env.encoding import get_encoding

    if algorithm == "td":
        good, save_it, read_it = make_checkpoint, save, read
    else:
        network = ActorCritic(observation_size(get_encoding("raw")), [8])
        counts = {"steps": 1, "games": 1, "turns": 1}
        good = lambda: ppo.describe(network, "raw", Rules(), counts, {})  # noqa: E731
        save_it, read_it = ppo.save, ppo.read
    fields = ["format", "format_version", "encoding", "encoding_version", "rules", "network"]
    for field in [*fields, "weights", ("network", "hidden"), ("network", "activation")]:
        for index, value in enumerate(CRAFTED):
            content = good()
            if isinstance(field, tuple):
                content[field[0]][field[1]] = value
            else:
                content[field] = value
            path = tmp_path / f"{field}-{index}.pt"
            save_it(path, content)
            with pytest.raises(PlayerSpecError) as caught:
                read_it(path)
            message = str(caught.value)
            assert message.startswith(f"{path}: ") and "\n" not in message, message
            assert len(message) < len(str(path)) + 200, message


def test_a_bot_file_plays_two_ply_with_the_suffix(tmp_path):
    path = write(tmp_path / "bot.pt", make_checkpoint())
    one, two = load_player(str(path)), load_player(f"{path}@2ply")
    assert (one.ply, two.ply) == (1, 2)
    assert two.name == "bot@2ply"
    with pytest.raises(PlayerSpecError, match="no such checkpoint"):
        load_player(f"{tmp_path / 'missing.pt'}@2ply")


@pytest.mark.parametrize("ply", [0, 4, 10])
def test_an_unsupported_search_depth_is_named_with_the_supported_ones(tmp_path, ply):
    path = write(tmp_path / "bot.pt", make_checkpoint())
    with pytest.raises(PlayerSpecError) as caught:
        load_player(f"{path}@{ply}ply")
    assert str(caught.value) == (
        f"{path}@{ply}ply: no {ply}-ply search; a trained bot plays 1-ply (the file alone), "
        "2-ply (@2ply) or 3-ply (@3ply)"
    )
    assert load_player(f"{path}@1ply").ply == 1


def test_the_depths_a_file_may_be_named_with_are_the_players_depths():
    assert PLIES == player_plies


def test_a_zip_archive_that_torch_did_not_write_is_not_a_checkpoint(tmp_path):
    path = tmp_path / "other.pt"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("weights.npy", b"anything")
    with pytest.raises(CheckpointError) as caught:
        read(path)
    assert str(caught.value) == (
        f"{path}: is not a tapa-rl checkpoint or bot file (a zip archive, but not one "
        "torch.save wrote)"
    )


def test_load_player_refuses_a_bot_trained_under_other_rules(tmp_path):
    variant = Rules(mother_needs_empty_start=False)
    content = describe(TDNetwork(SMALL), variant, games=1, turns=1, config={})
    path = write(tmp_path / "variant.pt", content)
    with pytest.raises(PlayerSpecError, match="trained under other rules"):
        load_player(path, rules=Rules())
    assert load_player(path, rules=variant).rules == variant
    assert load_player(path).rules == variant  # no rules given: those it was trained under


def test_a_reloaded_network_makes_the_same_choices(tmp_path):
    record = random_self_play(20, seed=9)
    positions, dice = record.positions[:500], record.dice[:500]
    rows, offsets = generate_afterstates(positions, dice)
    torch.manual_seed(3)
    network = TDNetwork(SMALL)
    path = write(tmp_path / "a.pt", describe(network, Rules(), 1, 1, {}))
    before = TDPlayer(network.evaluator()).choose_batch(positions, dice, rows, offsets, None)
    after = load_player(path).choose_batch(positions, dice, rows, offsets, None)
    np.testing.assert_array_equal(before, after)
