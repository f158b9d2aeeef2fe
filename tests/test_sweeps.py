"""Sweeps with Hydra's launchers: every job its own run directory, then one round robin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.td.checkpoint import read

ROOT = Path(__file__).resolve().parents[1]
TINY = [
    "total_games=200",
    "parallel_games=32",
    "eval_every=0",
    "eval_games=20",
    "eval_opponents=[random]",
    "progress=false",
]


def run(*arguments: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.mark.parametrize(
    "launcher", ["joblib", pytest.param("submitit_local", marks=pytest.mark.slow)]
)
def test_a_two_point_sweep_completes_in_two_run_directories(tmp_path, launcher):
    sweep = tmp_path / "sweep"
    run(
        "train.py",
        "--multirun",
        f"hydra/launcher={launcher}",
        "agent.hidden=8,12",
        *TINY,
        f"hydra.sweep.dir={sweep}",
    )
    runs = sorted(p for p in sweep.iterdir() if (p / "checkpoints").is_dir())
    # Named after the settings that change what is learned (total_games does not).
    names = ["agent.hidden-12+parallel_games-32", "agent.hidden-8+parallel_games-32"]
    assert [p.name for p in runs] == names
    widths = {read(p / "checkpoints" / "last.pt")["network"]["hidden"][0] for p in runs}
    assert widths == {8, 12}
    for path in runs:
        assert read(path / "checkpoints" / "last.pt")["games_trained"] >= 200


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_evaluate_compares_a_sweeps_checkpoints_in_one_round_robin(tmp_path):
    sweep = tmp_path / "sweep"
    run("train.py", "--multirun", "seed=1,2", *TINY, f"hydra.sweep.dir={sweep}")
    out = tmp_path / "results.json"
    run(
        "evaluate.py",
        f"players=[{sweep}/*/checkpoints/bot.pt,random]",
        "games=20",
        "workers=1",
        f"out={out}",
        f"hydra.run.dir={tmp_path / 'evaluate'}",
    )
    results = json.loads(out.read_text())
    players = list(results["ratings"])
    assert players == [
        f"{sweep}/parallel_games-32+seed-1/checkpoints/bot.pt",
        f"{sweep}/parallel_games-32+seed-2/checkpoints/bot.pt",
        "random",
    ]
    assert len(results["pairings"]) == 3
