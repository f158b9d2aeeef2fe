"""Checksums: every checkpoint and bot file is checked on load, so a damaged file is refused
in one line and never plays with changed weights; non-finite weights are refused too."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import PlayerSpecError, load_player, play_games
from agents.ppo import PPOConfig
from agents.ppo import checkpoint as ppo_checkpoint
from agents.ppo.config import PPOAgent, PPOLearner
from agents.ppo.network import ActorCritic, observation_size
from agents.ppo.training import train as train_ppo
from agents.storage.checksums import CHECKSUM, checksum_problem, digest, non_finite, with_checksum
from agents.td import bot_file
from agents.td import checkpoint as td_checkpoint
from agents.td.config import LearnerConfig, TDConfig
from agents.td.exporting import export_bot_file
from agents.td.network import NetworkShape, TDNetwork
from agents.td.training import train as train_td
from tapa_env import Rules
from tapa_env.encoding import get_encoding

ROOT = Path(__file__).resolve().parents[1]
FLIPS = 200
"""Bits flipped in each file, at seeded random positions over the whole file."""

TINY = dict(eval_every=0, checkpoint_every=0, progress=False, parallel_games=16)
TINY_TD = TDConfig(total_games=32, learner=LearnerConfig(batch_size=64, round_samples=512), **TINY)
TINY_PPO = PPOConfig(
    total_games=12,
    agent=PPOAgent(hidden=[32]),
    learner=PPOLearner(num_steps=64),
    eval_opponents=["random"],
    **TINY,
)


def same(a, b) -> bool:
    """Whether two loaded contents are equal value for value, type for type."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return type(a) is type(b) and (a.dtype, a.shape) == (b.dtype, b.shape) and torch.equal(a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return type(a) is type(b) and a.dtype == b.dtype and a.tobytes() == b.tobytes()
    if isinstance(a, dict):
        return type(b) is dict and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return type(b) is float and a.hex() == b.hex()
    return type(a) is type(b) and a == b


# --- the digest ----------------------------------------------------------------------------


def test_the_digest_depends_on_every_value_and_on_nothing_else():
    weights = {"w": torch.arange(6, dtype=torch.float32).reshape(2, 3), "b": torch.zeros(2)}
    content = {"format": "x", "n": 3, "ratio": 0.5, "rules": [True, None], "weights": weights}
    reordered = {key: content[key] for key in reversed(list(content))}
    assert digest(content) == digest(reordered)
    assert digest(content).startswith("sha256:") and len(digest(content)) == 71
    changes = [
        {**content, "n": 4},
        {**content, "n": 3.0},
        {**content, "n": "3"},
        {**content, "ratio": 0.5000000000000001},
        {**content, "rules": (True, None)},
        {**content, "rules": [True, False]},
        {**content, "extra": None},
        {**content, "weights": {**weights, "w": weights["w"].reshape(3, 2)}},
        {**content, "weights": {**weights, "w": weights["w"].double()}},
        {**content, "weights": {**weights, "w": weights["w"] + 1e-7}},
        {**content, "weights": {"W": weights["w"], "b": weights["b"]}},
    ]
    digests = {digest(change) for change in changes}
    assert len(digests) == len(changes) and digest(content) not in digests
    # A tensor and the numpy array of the same values are told apart by their kind.
    assert digest({"w": np.zeros(2, np.float32)}) != digest({"w": torch.zeros(2)})


def test_a_checksum_is_checked_against_the_content():
    content = with_checksum({"a": torch.ones(3), "b": [1, 2]})
    assert checksum_problem(content) is None
    assert "does not match" in checksum_problem({**content, "b": [1, 3]})
    assert "does not match" in checksum_problem({**content, CHECKSUM: 5})
    assert "has no checksum" in checksum_problem({"a": torch.ones(3), "b": [1, 2]})
    assert with_checksum(content) == content  # a second checksum replaces the first


def test_non_finite_names_the_first_weight_with_a_nan_or_an_infinity():
    weights = {"a": torch.ones(2), "b": np.array([1.0, np.inf]), "c": torch.tensor([np.nan])}
    assert non_finite(weights) == "b"
    assert non_finite({"a": torch.ones(2), "n": torch.tensor([3]), "c": weights["c"]}) == "c"
    assert non_finite({"a": torch.ones(2), "i": np.arange(3)}) is None


# --- files with one bit flipped ------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, Path]:
    """A TD run's last.pt and bot.pt, a PPO run's last.pt, and the TD bot file: the files
    the project writes, each with its training state where it has one."""
    folder = tmp_path_factory.mktemp("saved")
    td = train_td(TINY_TD, folder / "td")
    ppo = train_ppo(TINY_PPO, folder / "ppo")
    bot = folder / "td" / "checkpoints" / "bot.pt"
    export_bot_file(td_checkpoint.read(bot), folder / "bot.npz")
    return {
        "td last.pt": td.checkpoint,
        "td bot.pt": bot,
        "ppo last.pt": ppo.checkpoint,
        "bot file": folder / "bot.npz",
    }


READERS = {
    "td last.pt": td_checkpoint.read,
    "td bot.pt": td_checkpoint.read,
    "ppo last.pt": ppo_checkpoint.read,
    "bot file": lambda path: (lambda b: {"metadata": b.metadata, "layers": b.layers})(
        bot_file.read(path)
    ),
}


@pytest.mark.parametrize("kind", list(READERS))
def test_no_single_bit_flip_loads_changed_content(saved, tmp_path, kind):
    path, read = saved[kind], READERS[kind]
    original = read(path)
    data = path.read_bytes()
    rng = np.random.default_rng(14)
    positions = rng.choice(len(data) * 8, size=FLIPS, replace=False)
    refused = unchanged = 0
    flipped = tmp_path / path.name
    for position in positions:
        damaged = bytearray(data)
        damaged[position // 8] ^= 1 << (position % 8)
        flipped.write_bytes(bytes(damaged))
        try:
            loaded = read(flipped)
        except PlayerSpecError as error:
            message = str(error)
            assert message.startswith(f"{flipped}: ") and "\n" not in message, message
            refused += 1
        else:
            assert same(loaded, original), f"a flip of bit {position} loaded changed content"
            unchanged += 1
    assert refused + unchanged == FLIPS
    assert refused > FLIPS // 2  # nearly every byte of the file is content


def weight_offset(path: Path, entry: str) -> int:
    """Where the data of archive ``entry`` (its name ends so) starts in the zip at ``path``."""
    with zipfile.ZipFile(path) as archive:
        (info,) = [i for i in archive.infolist() if i.filename.endswith(entry)]
    data = path.read_bytes()
    start = info.header_offset
    name_length = int.from_bytes(data[start + 26 : start + 28], "little")
    extra_length = int.from_bytes(data[start + 28 : start + 30], "little")
    return start + 30 + name_length + extra_length


def test_a_flipped_weight_is_refused_where_torch_alone_loads_it(saved, tmp_path):
    bot = saved["td bot.pt"]
    damaged = bytearray(bot.read_bytes())
    offset = weight_offset(bot, "/data/0")
    damaged[offset + 3] ^= 0x40  # the exponent of a float32 weight: 0.14 becomes ~5e37
    corrupt = tmp_path / "bot.pt"
    corrupt.write_bytes(bytes(damaged))
    changed = torch.load(corrupt, weights_only=True)["weights"]  # torch does not notice
    assert not same(changed, td_checkpoint.read(bot)["weights"])
    with pytest.raises(td_checkpoint.CheckpointError) as caught:
        td_checkpoint.read(corrupt)
    assert str(caught.value) == (
        f"{corrupt}: corrupt checkpoint or bot file: its checksum does not match its content"
    )
    done = subprocess.run(
        [
            sys.executable,
            "evaluate.py",
            f"players=[{corrupt},random]",
            "games=2",
            f"hydra.run.dir={tmp_path / 'run'}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"evaluate.py: error: {caught.value}"]


# --- missing checksums and non-finite weights ----------------------------------------------


def td_content() -> dict:
    torch.manual_seed(0)
    return td_checkpoint.describe(
        TDNetwork(NetworkShape("raw", (8,), "sigmoid")), Rules(), 1, 1, {}
    )


def ppo_content() -> dict:
    torch.manual_seed(0)
    network = ActorCritic(observation_size(get_encoding("raw")), [8])
    counts = {"steps": 1, "games": 1, "turns": 1}
    return ppo_checkpoint.describe(network, "raw", Rules(), counts, {})


@pytest.mark.parametrize(
    ("content", "save", "read", "prefix"),
    [
        (td_content, td_checkpoint.save, td_checkpoint.read, "corrupt checkpoint"),
        (ppo_content, ppo_checkpoint.save, ppo_checkpoint.read, "corrupt PPO checkpoint"),
    ],
)
def test_checkpoints_without_a_checksum_or_with_non_finite_weights_are_refused(
    tmp_path, content, save, read, prefix
):
    good = tmp_path / "good.pt"
    save(good, content())
    assert CHECKSUM in read(good) and load_player(good).name == "good"
    older = tmp_path / "older.pt"
    torch.save(content(), older)  # as an earlier version wrote it
    for value in (float("nan"), float("inf"), float("-inf")):
        broken = content()
        name = sorted(broken["weights"])[1]
        broken["weights"][name].view(-1)[0] = value
        path = tmp_path / f"{value}.pt"
        save(path, broken)
        with pytest.raises(PlayerSpecError) as caught:
            read(path)
        assert str(caught.value) == f"{path}: {prefix}: weight {name!r} is not all finite"
        with pytest.raises(PlayerSpecError, match="is not all finite"):
            load_player(path)
    with pytest.raises(PlayerSpecError) as caught:
        read(older)
    assert str(caught.value) == (
        f"{older}: has no checksum, so its content cannot be checked (written by an older "
        f"version of tapa-rl, or damaged); python -m agents.storage.upgrade {older} checks "
        "the rest of it and writes a copy with a checksum"
    )


def test_a_good_checkpoint_still_loads_and_plays(saved):
    for kind in ("td bot.pt", "ppo last.pt", "bot file"):
        player = load_player(saved[kind])
        results = play_games((player, load_player("random")), 2, seed=1, max_turns=40)
        assert results.turns.sum() > 0


# --- the shipped bot -----------------------------------------------------------------------


def test_the_shipped_bot_and_its_bot_file_carry_checksums_of_the_same_weights():
    content = td_checkpoint.read(ROOT / "checkpoints" / "tapa-td.pt")
    assert content[CHECKSUM] == digest({k: v for k, v in content.items() if k != CHECKSUM})
    with np.load(ROOT / "checkpoints" / "tapa-td.npz", allow_pickle=False) as archive:
        metadata = json.loads(archive["metadata"].tobytes().decode("utf-8"))
        assert metadata[CHECKSUM].startswith("sha256:")
        for name, tensor in content["weights"].items():
            np.testing.assert_array_equal(archive[name], tensor.numpy())
    exported = bot_file.read(ROOT / "checkpoints" / "tapa-td.npz")
    assert exported.metadata["games_trained"] == content["games_trained"]


@pytest.mark.parametrize(
    "name", ["archive/tapa-td-v1.pt", "archive/tapa-td-expert.pt", "tapa-novice.pt"]
)
def test_the_other_committed_checkpoints_pass_their_checksums_and_play(name):
    content = td_checkpoint.read(ROOT / "checkpoints" / name)
    assert content[CHECKSUM] == digest({k: v for k, v in content.items() if k != CHECKSUM})
    player = load_player(str(ROOT / "checkpoints" / name))
    results = play_games((player, load_player("random")), 2, seed=1, max_turns=40)
    assert results.turns.sum() > 0


def test_the_shipped_bot_is_the_first_one_widened_then_given_the_contact_inputs():
    first = td_checkpoint.read(ROOT / "checkpoints" / "archive" / "tapa-td-v1.pt")
    second = td_checkpoint.read(ROOT / "checkpoints" / "archive" / "tapa-td-expert.pt")
    shipped = td_checkpoint.read(ROOT / "checkpoints" / "tapa-td.pt")
    assert first["network"]["hidden"] == [160] and second["network"]["hidden"] == [320]
    assert second["encoding"] == first["encoding"] == "expert"
    assert shipped["network"]["hidden"] == [320] and shipped["encoding"] == "contact"
    assert shipped["config"]["agent"]["start_from"] == "checkpoints/archive/tapa-td-expert.pt"
    assert shipped["rules"] == second["rules"] == first["rules"]
