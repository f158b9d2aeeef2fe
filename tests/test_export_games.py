"""Export of Tabla and Gulbara bots: the bot file and the ONNX model know their game, play it
exactly as the checkpoint does, and are refused in another game."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from test_export import run_export

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
