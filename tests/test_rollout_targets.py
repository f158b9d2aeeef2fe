"""Rollout targets (agents/td/rollout_targets.py): collect, label and fit, each small."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents import load_player
from agents.analysis.rollout import roll_out
from agents.bearoff.database import race_positions
from agents.td import checkpoint
from agents.td.loading import load
from agents.td.rollout_targets import collect, label, main, store
from tapa_env.position import check_rows

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "checkpoints" / "tabla-td.pt"


@pytest.fixture(scope="module")
def bot():
    return load(BOT)


@pytest.fixture(scope="module")
def rows(bot):
    return collect(bot, games=6, keep=0.5, seed=3, batch=4)


def test_collect_keeps_contact_afterstates_of_the_game(rows):
    assert len(rows) > 20
    check_rows(rows, "tabla")
    assert not race_positions(rows, check=False).any()
    assert len(np.unique(rows, axis=0)) > len(rows) // 2


def test_label_stores_the_rollouts_and_resumes(bot, rows, tmp_path):
    data = tmp_path / "data.npz"
    store(data, rows=rows[:40], game="tabla", labelled=0)
    label(bot, data, trials=3, truncate=2, seed=5)
    stored = np.load(data)
    assert int(stored["labelled"]) == 40
    expected = roll_out(bot, rows[:40], 3, seed=5, truncate=2, workers=1).outcomes
    assert np.allclose(stored["targets"], expected, atol=1e-6)
    assert np.allclose(stored["targets"].sum(axis=1), 1.0, atol=1e-5)
    before = data.stat().st_mtime_ns
    label(bot, data, trials=3, truncate=2, seed=5)  # nothing left to do
    assert data.stat().st_mtime_ns == before


def test_fit_trains_the_network_and_writes_a_bot(bot, rows, tmp_path):
    data, out = tmp_path / "data.npz", tmp_path / "fitted.pt"
    store(data, rows=rows[:40], game="tabla", labelled=0)
    label(bot, data, trials=3, truncate=2, seed=5)
    main(["fit", str(BOT), str(data), str(out), "--epochs", "2", "--lr", "0.01"])
    start = checkpoint.read(BOT)["weights"]
    fitted = checkpoint.read(out)
    assert fitted["config"]["rollout_targets"]["positions"] == 40
    assert fitted["encoding"] == checkpoint.read(BOT)["encoding"]
    assert not torch.equal(fitted["weights"]["layers.0.weight"], start["layers.0.weight"])
    assert load_player(str(out)).rules == bot.rules


def test_fit_without_labels_names_the_missing_step(rows, tmp_path):
    data = tmp_path / "data.npz"
    store(data, rows=rows[:40], game="tabla", labelled=0)
    with pytest.raises(SystemExit, match="run the label step first"):
        main(["fit", str(BOT), str(data), str(tmp_path / "out.pt")])


def test_bad_keep_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["collect", str(BOT), str(tmp_path / "d.npz"), "--keep", "1.5"])
    assert "--keep is a chance in (0, 1]" in capsys.readouterr().err


def test_a_missing_or_foreign_data_file_is_named(bot, tmp_path):
    with pytest.raises(SystemExit, match="no such file; write it with the collect step"):
        label(bot, tmp_path / "none.npz", trials=3, truncate=2, seed=5)
    foreign = tmp_path / "foreign.npz"
    foreign.write_text("not a data file")
    with pytest.raises(SystemExit, match="not a data file of the collect step"):
        label(bot, foreign, trials=3, truncate=2, seed=5)


def test_data_of_another_game_is_refused(rows, tmp_path):
    data = tmp_path / "data.npz"
    store(data, rows=rows[:40], game="tabla", labelled=0)
    tapa = ROOT / "checkpoints" / "tapa-td.pt"
    with pytest.raises(SystemExit, match="holds tabla afterstates, and the bot plays tapa"):
        main(["label", str(tapa), str(data)])


def test_labelling_goes_on_only_with_the_same_rollouts(bot, rows, tmp_path):
    data = tmp_path / "data.npz"
    store(data, rows=rows[:40], game="tabla", labelled=0)
    label(bot, data, trials=3, truncate=2, seed=5)
    store(data, **{**dict(np.load(data)), "labelled": 20})
    with pytest.raises(SystemExit, match="rolled out with --trials 3 --truncate 2"):
        label(bot, data, trials=36, truncate=2, seed=5)
    assert int(np.load(data)["labelled"]) == 20


def test_fit_does_not_write_over_its_bot(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["fit", str(BOT), str(tmp_path / "d.npz"), str(BOT)])
    assert "OUT is the bot" in capsys.readouterr().err
