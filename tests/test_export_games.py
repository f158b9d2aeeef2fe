"""Export of Tabla and Gulbara bots: the bot file and the ONNX model know their game, play it
exactly as the checkpoint does, and are refused in another game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from test_export import ROOT, run_export

from agents import PlayerSpecError, load_player
from agents.td.bot_file import BotFileError
from agents.td.bot_file import read as read_bot_file
from agents.td.checkpoint import describe, network_of, save
from agents.td.exporting import (
    ONNX_TOLERANCE,
    bot_file_difference,
    check_afterstates,
    export_bot_file,
    export_onnx,
)
from agents.td.network import NetworkShape, TDNetwork
from tapa_env import Position, default_rules, legal_plays
from tapa_env.encoding import get_encoding
from tapa_env.rules import GulbaraRules, Rules, TablaRules

GAME_RULES = {
    "tabla": TablaRules(),
    "gulbara": GulbaraRules(unplayable_to_opponent=False),
}


def game_checkpoint(game: str) -> dict:
    torch.manual_seed(3)
    network = TDNetwork(NetworkShape("expert", (16,), "sigmoid", game=game), init="xavier")
    return describe(network, GAME_RULES[game], games=5, turns=50, config={"seed": 0})


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_a_bot_file_keeps_its_game_and_rules_and_plays_as_torch(game, tmp_path):
    content = game_checkpoint(game)
    exported = export_bot_file(content, tmp_path / f"{game}.npz")
    assert exported.metadata["game"] == exported.game == game
    assert exported.rules == GAME_RULES[game]
    assert exported.metadata["encoding_version"] == get_encoding("expert", game).version
    rows = check_afterstates(exported.rules, count=500)
    assert bot_file_difference(exported, network_of(content), rows) < 1e-5
    player = load_player(tmp_path / f"{game}.npz", GAME_RULES[game])
    assert player.name == game
    with pytest.raises(PlayerSpecError, match=f"a bot for {game}, not for tapa"):
        load_player(tmp_path / f"{game}.npz", Rules())


def test_a_tapa_bot_file_still_has_no_game_field(tmp_path):
    network = TDNetwork(NetworkShape("raw", (8,), "sigmoid"), init="xavier")
    content = describe(network, Rules(), games=1, turns=1, config={})
    exported = export_bot_file(content, tmp_path / "tapa.npz")
    assert "game" not in exported.metadata and exported.game == "tapa"


def test_a_bot_file_of_an_unknown_game_is_refused_in_one_line(tmp_path, monkeypatch):
    from agents.td import bot_file

    content = game_checkpoint("tabla")
    describe_game = bot_file.describe

    def chess(*args, **kwargs):
        return {**describe_game(*args, **kwargs), "game": "chess"}

    monkeypatch.setattr(bot_file, "describe", chess)
    export_bot_file_path = tmp_path / "chess.npz"
    with pytest.raises(BotFileError, match="a bot for the game 'chess', which this version"):
        export_bot_file(content, export_bot_file_path)


@pytest.mark.slow
def test_export_py_writes_a_gulbara_onnx_model_equal_to_torch(tmp_path):
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    import onnxruntime

    checkpoint = tmp_path / "gulbara.pt"
    content = game_checkpoint("gulbara")
    save(checkpoint, content)
    done = run_export(f"checkpoint={checkpoint}", "onnx=true")
    assert done.returncode == 0, done.stderr
    assert "gulbara-expert-v1" in done.stdout
    model = tmp_path / "gulbara.onnx"
    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    metadata = json.loads(session.get_modelmeta().custom_metadata_map["metadata"])
    assert metadata["game"] == "gulbara"
    assert metadata["rules"] == {
        "opening_turns_each_side": False,
        "unplayable_to_opponent": False,
        "six_prime_needs_checker_ahead": False,
    }
    rows = check_afterstates(GAME_RULES["gulbara"], count=300)
    features = get_encoding("expert", "gulbara").encode(rows)
    (ours,) = session.run(["probabilities"], {"features": features})
    expected = read_bot_file(tmp_path / "gulbara.npz").evaluator().probabilities(rows)
    np.testing.assert_allclose(ours, expected, atol=ONNX_TOLERANCE, rtol=0)


def test_export_onnx_of_a_tabla_bot_checks_it_on_tabla_positions(tmp_path):
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    report = export_onnx(game_checkpoint("tabla"), tmp_path / "tabla.onnx")
    assert report.difference <= ONNX_TOLERANCE and report.afterstates > 1000


def run_onnx_example(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "examples/onnx_evaluate.py", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def example_table(stdout: str) -> dict[str, np.ndarray]:
    """The example's rows: each play's text and its five probabilities and equity."""
    lines = stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("play "))
    rows = {}
    for line in lines[header + 1 : -1]:
        text, *numbers = line.rsplit(maxsplit=6)
        rows[text] = np.array(numbers, dtype=float)
    return rows


@pytest.fixture(scope="module")
def game_models(tmp_path_factory) -> dict[str, Path]:
    """A small network of each of Tabla and Gulbara as export.py writes it: the bot file and
    the ONNX model with its checksum."""
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    folder = tmp_path_factory.mktemp("onnx-games")
    models = {}
    for game in GAME_RULES:
        content = game_checkpoint(game)
        export_bot_file(content, folder / f"{game}.npz")
        export_onnx(content, folder / f"{game}.onnx")
        models[game] = folder / f"{game}.onnx"
    return models


@pytest.mark.parametrize(
    ("game", "key", "dice"),
    [
        ("tabla", None, (6, 4)),
        ("tabla", "tabla/6:5,8:3,13:5,24:1|1:2,12:5,17:3,19:5|1,0", (6, 5)),  # on the bar
        ("gulbara", None, (6, 5)),
        ("gulbara", "gulbara/13:3,16:3,20:4,24:5|1:3,4:3,8:4,12:5|own,0,0,0,3,3", (5, 5)),
    ],
)
def test_the_onnx_example_values_every_play_of_a_tabla_or_gulbara_roll(
    game_models, game, key, dice
):
    """The example reads the model's game from its metadata, lists the plays of that game
    (from its start by default), and values each as the bot file's network does."""
    model = game_models[game]
    position = Position.from_key(key) if key else Position.initial(game)
    arguments = [str(model), "--dice", *map(str, dice)]
    done = run_onnx_example(*arguments, *(["--position", key] if key else []))
    assert done.returncode == 0, done.stderr
    encoding = get_encoding("expert", game)
    assert f"plays of {dice[0]}-{dice[1]} from {position.key}\n" in done.stdout
    assert f", {encoding.size}) ({encoding.version})" in done.stdout
    plays = legal_plays(position, dice, GAME_RULES[game])
    rows = example_table(done.stdout)
    assert list(rows) == [play.text for play in plays] and len(plays) > 1
    evaluator = read_bot_file(model.with_suffix(".npz")).evaluator()
    expected = evaluator.probabilities(np.stack([play.afterstate.row for play in plays]))
    printed = np.stack(list(rows.values()))
    np.testing.assert_allclose(printed[:, :5], expected, atol=2e-4)
    np.testing.assert_allclose(printed[:, 5], expected @ [1, 2, 0, -1, -2], atol=2e-4)
    best = max(rows, key=lambda text: rows[text][5])
    assert done.stdout.splitlines()[-1].startswith(f"best play: {best} (equity ")


def test_the_onnx_example_refuses_a_position_of_another_game_in_one_line(game_models):
    done = run_onnx_example(str(game_models["tabla"]), "--position", Position.initial().key)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == (
        f"onnx_evaluate.py: error: --position is a position of tapa; "
        f"{game_models['tabla']} plays tabla"
    )


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tapa", "tabla", "gulbara"])
def test_the_onnx_example_plays_each_shipped_bot_exported_by_export_py(game, tmp_path):
    """As docs/export.md shows it: export.py exports the shipped bot with onnx=true, and the
    example names the best play of the game's start, the shipped bot's own choice."""
    pytest.importorskip("onnxruntime", reason='ONNX export needs pip install -e ".[export]"')
    out = tmp_path / f"{game}.npz"
    done = run_export(f"checkpoint=checkpoints/{game}-td.pt", f"out={out}", "onnx=true")
    assert done.returncode == 0, done.stderr
    done = run_onnx_example(str(out.with_suffix(".onnx")), "--dice", "6", "4")
    assert done.returncode == 0, done.stderr
    start = Position.initial(game)
    rules = default_rules(game)
    chosen = load_player(f"{out}@nobearoff", rules).choose(start, (6, 4), rules=rules)
    best = next(play for play in legal_plays(start, (6, 4)) if play.afterstate == chosen)
    assert done.stdout.splitlines()[-1].startswith(f"best play: {best.text} (equity ")
