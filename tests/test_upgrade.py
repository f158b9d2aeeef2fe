"""``python -m agents.storage.upgrade FILE``: a checkpoint or bot file written before
checksums (a shipped file with its checksum taken out) is refused with the command named, and
the command brings it forward: it checks the rest of the file, writes a checksummed copy
beside it and never touches the original; a file that has its checksum is left alone, and
a damaged or foreign one is refused in one line with status 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import PlayerSpecError, load_player
from agents.storage.checksums import CHECKSUM, UPGRADE_COMMAND
from agents.storage.upgrade import default_out, main
from tapa_env import Position, legal_afterstates
from tapa_env.rules import default_rules

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINTS = ROOT / "checkpoints"


# --- files as an older version wrote them --------------------------------------------------


def old_checkpoint(source: Path, path: Path, change=None) -> Path:
    """``source`` (a checkpoint) written again without its checksum, as before checksums;
    ``change(content)`` alters it first."""
    content = torch.load(source, map_location="cpu", weights_only=True)
    del content[CHECKSUM]
    if change is not None:
        change(content)
    torch.save(content, path)
    return path


def old_bot_file(source: Path, path: Path, change=None) -> Path:
    """``source`` (a bot file) written again with no checksum in its metadata; ``change``
    alters its ``(metadata, arrays)`` first."""
    with np.load(source, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    metadata = json.loads(arrays.pop("metadata").tobytes().decode("utf-8"))
    del metadata[CHECKSUM]
    if change is not None:
        change(metadata, arrays)
    text = json.dumps(metadata, indent=1, sort_keys=True).encode("utf-8")
    np.savez(path, metadata=np.frombuffer(text, dtype=np.uint8), **arrays)
    return path


def old_ppo_checkpoint(path: Path, game: str) -> Path:
    """A small PPO policy of ``game`` saved without a checksum."""
    from agents.ppo import checkpoint as ppo_checkpoint
    from agents.ppo.network import ActorCritic, observation_size
    from tapa_env.checker_moves import move_actions
    from tapa_env.encoding import get_encoding

    torch.manual_seed(0)
    network = ActorCritic(
        observation_size(get_encoding("expert", game)), [16], actions=move_actions(game)
    )
    counts = {"steps": 1, "games": 1, "turns": 1}
    content = ppo_checkpoint.describe(network, "expert", default_rules(game), counts, {})
    torch.save(content, path)
    return path


def upgrade(capsys, *arguments) -> tuple[int, str, str]:
    status = main([str(argument) for argument in arguments])
    out, err = capsys.readouterr()
    return status, out, err


def plays_a_move(path: Path, game: str) -> None:
    """The file loads without rules and plays a move of its game."""
    player = load_player(path)
    position = Position.initial(game)
    dice = (1, 1) if game == "gulbara" else (6, 5)
    assert player.choose(position, dice) in legal_afterstates(position, dice)


def shipped_checkpoint(name: str):
    return lambda tmp: old_checkpoint(CHECKPOINTS / name, tmp / name)


OLD_FILES = {
    "td checkpoint": ("tabla", shipped_checkpoint("tabla-td.pt")),
    "td tapa checkpoint": ("tapa", shipped_checkpoint("tapa-td.pt")),
    "td bot file": (
        "gulbara",
        lambda tmp: old_bot_file(CHECKPOINTS / "gulbara-td.npz", tmp / "gulbara-td.npz"),
    ),
    "ppo checkpoint": ("tabla", lambda tmp: old_ppo_checkpoint(tmp / "tabla-ppo.pt", "tabla")),
}
"""Each kind of file as an older version wrote it: its game and how to make it."""


# --- bringing a file forward --------------------------------------------------------------


@pytest.mark.parametrize("kind", OLD_FILES)
def test_an_old_file_is_refused_naming_the_command_and_upgraded_loads_and_plays(
    kind, tmp_path, capsys
):
    game, make = OLD_FILES[kind]
    old = make(tmp_path)
    before = old.read_bytes()
    with pytest.raises(PlayerSpecError) as caught:
        load_player(old)
    message = str(caught.value)
    assert "has no checksum" in message and "\n" not in message
    assert f"{UPGRADE_COMMAND} {old}" in message

    status, out, err = upgrade(capsys, old)
    new = default_out(old)
    assert status == 0 and not err
    assert new.name == f"{old.stem}.upgraded{old.suffix}" and new.parent == old.parent
    assert out.count("\n") == 1 and out.startswith(f"wrote {new} ")
    assert f"for {game}" in out and f"mv {new} {old}" in out
    assert old.read_bytes() == before  # the original is never touched
    plays_a_move(new, game)

    # Run again: the copy is there and is never overwritten.
    copy = new.read_bytes()
    status, out, err = upgrade(capsys, old)
    assert status == 2 and not out and err.count("\n") == 1
    assert "already exists" in err and "--out" in err
    assert new.read_bytes() == copy and old.read_bytes() == before

    # The copy has its checksum: nothing to do.
    status, out, err = upgrade(capsys, new)
    assert status == 0 and "already has a valid checksum" in out and out.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([old.name, new.name])


def test_the_copy_holds_the_same_content_with_its_checksum(tmp_path, capsys):
    old = old_checkpoint(CHECKPOINTS / "gulbara-td.pt", tmp_path / "gulbara-td.pt")
    status, _, _ = upgrade(capsys, old, "--out", tmp_path / "elsewhere.pt")
    assert status == 0 and not default_out(old).exists()
    shipped = torch.load(CHECKPOINTS / "gulbara-td.pt", weights_only=True)
    copy = torch.load(tmp_path / "elsewhere.pt", weights_only=True)
    assert copy[CHECKSUM] == shipped[CHECKSUM]  # the same content, so the same digest
    for name, tensor in shipped["weights"].items():
        assert torch.equal(copy["weights"][name], tensor)


def test_a_bot_file_copy_keeps_every_array_and_the_metadata(tmp_path, capsys):
    old = old_bot_file(CHECKPOINTS / "tabla-td.npz", tmp_path / "tabla-td.npz")
    status, _, _ = upgrade(capsys, old)
    assert status == 0
    with np.load(CHECKPOINTS / "tabla-td.npz") as shipped, np.load(default_out(old)) as copy:
        assert sorted(shipped.files) == sorted(copy.files)
        for name in shipped.files:
            if name != "metadata":
                np.testing.assert_array_equal(shipped[name], copy[name])
        assert json.loads(copy["metadata"].tobytes()) == json.loads(shipped["metadata"].tobytes())


@pytest.mark.parametrize(
    ("name", "what"),
    [("tabla-td.pt", "TD checkpoint for tabla"), ("tapa-td.npz", "TD bot file for tapa")],
)
def test_a_file_with_a_valid_checksum_is_said_so_and_nothing_is_written(
    name, what, tmp_path, capsys
):
    path = tmp_path / name
    shutil.copyfile(CHECKPOINTS / name, path)
    status, out, err = upgrade(capsys, path)
    assert status == 0 and not err
    assert out == f"{path}: already has a valid checksum ({what}); nothing written\n"
    assert [p.name for p in tmp_path.iterdir()] == [name]


# --- refusals --------------------------------------------------------------------------------


def flip_a_weight(content):
    name = sorted(content["weights"])[0]
    content["weights"][name].view(-1)[0] += 1.0


def damaged_checksummed(tmp: Path) -> Path:
    """A checkpoint whose checksum is there but does not match: damaged, not old."""
    content = torch.load(CHECKPOINTS / "tabla-td.pt", weights_only=True)
    flip_a_weight(content)
    torch.save(content, tmp / "damaged.pt")
    return tmp / "damaged.pt"


def a_nan(content):
    name = sorted(content["weights"])[1]
    content["weights"][name].view(-1)[0] = float("nan")


def another_encoding(content):
    content["encoding_version"] = "tabla-expert-v0"


def short_layer(metadata, arrays):
    arrays["layers.0.bias"] = arrays["layers.0.bias"][:-1]


def text_file(tmp: Path) -> Path:
    (tmp / "notes.pt").write_text("not a bot\n")
    return tmp / "notes.pt"


def other_arrays(tmp: Path) -> Path:
    np.savez(tmp / "other.npz", x=np.zeros(3))
    return tmp / "other.npz"


REFUSED = {
    "a checksum that does not match": (
        damaged_checksummed,
        "corrupt checkpoint or bot file: its checksum does not match its content",
    ),
    "a weight that is not finite": (
        lambda tmp: old_checkpoint(CHECKPOINTS / "tabla-td.pt", tmp / "nan.pt", a_nan),
        "is not all finite",
    ),
    "an encoding this version does not have": (
        lambda tmp: old_checkpoint(CHECKPOINTS / "tabla-td.pt", tmp / "enc.pt", another_encoding),
        "made for encoding 'tabla-expert-v0'",
    ),
    "a bot file whose weights do not fit its shape": (
        lambda tmp: old_bot_file(CHECKPOINTS / "tabla-td.npz", tmp / "short.npz", short_layer),
        "'layers.0.bias' is float32",
    ),
    "a text file": (text_file, "is not a tapa-rl checkpoint or bot file"),
    "an archive of other arrays": (other_arrays, "is not a tapa-rl bot file"),
    "no file": (lambda tmp: tmp / "missing.pt", "no such checkpoint or bot file"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_damaged_or_foreign_file_is_refused_in_one_line_with_status_2(case, tmp_path, capsys):
    make, phrase = REFUSED[case]
    path = make(tmp_path)
    files = sorted(tmp_path.iterdir())
    status, out, err = upgrade(capsys, path)
    assert status == 2 and not out
    assert err.count("\n") == 1 and err.startswith("agents.storage.upgrade: error: ")
    assert phrase in err, err
    assert sorted(tmp_path.iterdir()) == files  # nothing written


def test_an_existing_out_is_never_overwritten(tmp_path, capsys):
    old = old_checkpoint(CHECKPOINTS / "tabla-td.pt", tmp_path / "tabla-td.pt")
    taken = tmp_path / "taken.pt"
    taken.write_text("mine\n")
    status, out, err = upgrade(capsys, old, "--out", taken)
    assert status == 2 and "taken.pt already exists" in err and not out
    assert taken.read_text() == "mine\n"


# --- the command line ------------------------------------------------------------------------


def test_the_command_runs_as_documented_and_explains_itself(tmp_path):
    help_text = subprocess.run(
        [sys.executable, "-m", "agents.storage.upgrade", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert help_text.returncode == 0
    for phrase in ("checksum", "--out NEW", "never overwrites", "Exit status"):
        assert phrase in " ".join(help_text.stdout.split()), phrase
    old = old_checkpoint(CHECKPOINTS / "tabla-td.pt", tmp_path / "bot.pt")
    done = subprocess.run(
        [sys.executable, "-m", "agents.storage.upgrade", str(old)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {tmp_path / 'bot.upgraded.pt'} ")
    plays_a_move(tmp_path / "bot.upgraded.pt", "tabla")


def test_the_command_is_documented_where_checksums_are():
    text = (ROOT / "docs" / "formats.md").read_text()
    assert f"{UPGRADE_COMMAND} FILE" in text and "upgraded.pt" in text
