"""``python train.py agent=ppo`` as a user runs it, and its checkpoint in evaluate.py and
play.py like any player."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents import load_player
from agents.ppo.player import PPOPlayer

ROOT = Path(__file__).resolve().parents[1]
TINY = [
    "agent=ppo",
    "total_games=24",
    "parallel_games=8",
    "learner.num_steps=32",
    "eval_every=0",
    "eval_games=20",
    "eval_opponents=[random]",
    "log_every=8",
    "agent.hidden=[32]",
    "progress=false",
]


def run(*command: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=600,
        input=stdin,
    )  # fmt: skip


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("ppo") / "run"
    done = run("train.py", f"hydra.run.dir={run_dir}", *TINY)
    assert done.returncode == 0, done.stderr
    assert re.search(r"trained at \d+ games", done.stdout), done.stdout
    assert "vs random" in done.stdout
    return run_dir


def test_help_explains_every_ppo_setting():
    import dataclasses

    from agents.ppo.config import PPOAgent, PPOConfig, PPOLearner

    done = run("train.py", "agent=ppo", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("train.py agent=ppo: train a Tapa policy by PPO")
    names = [f.name for f in dataclasses.fields(PPOConfig) if f.name not in ("agent", "learner")]
    names += [f"agent.{f.name}" for f in dataclasses.fields(PPOAgent)]
    names += [f"learner.{f.name}" for f in dataclasses.fields(PPOLearner)]
    for name in names:
        assert re.search(rf"^\s+{re.escape(name)}\s", done.stdout, re.M), name


def test_train_agent_ppo_writes_a_run_directory(trained):
    for name in ("checkpoints/last.pt", "checkpoints/bot.pt", "evaluations.jsonl",
                 ".hydra/config.yaml", "learning_curve.png"):  # fmt: skip
        assert (trained / name).is_file(), name
    assert list(trained.glob("events.out.tfevents.*"))
    row = json.loads((trained / "evaluations.jsonl").read_text().splitlines()[-1])
    assert row["games_trained"] >= 24 and 0 <= row["random"]["win_rate"] <= 1


# A long check: the default run has it in process (tests/test_ppo.py) and through train.py
# for TD (tests/test_train_script.py).
@pytest.mark.slow
def test_the_same_command_finds_the_finished_run(trained):
    done = run("train.py", f"hydra.run.dir={trained}", *TINY)
    assert done.returncode == 0, done.stderr
    assert "already trained" in done.stdout


def test_resuming_with_settings_that_change_learning_is_refused(trained):
    done = run("train.py", f"hydra.run.dir={trained}", *TINY, "learner.ent_coef=0.5")
    assert done.returncode == 2 and "learner.ent_coef" in done.stderr
    assert "Traceback" not in done.stderr


# Each refusal loads the training code first, which takes seconds: the default run leaves
# out two whose messages tests/test_ppo.py checks without train.py (-m slow runs them).
@pytest.mark.parametrize(
    "override, message",
    [
        ("learner.clip_coef=0", "learner.clip_coef"),
        pytest.param("agent.activation=sigmoid", "agent.activation", marks=pytest.mark.slow),
        pytest.param("learner.opponent=nobody", "learner.opponent", marks=pytest.mark.slow),
        ("device=cuda", "device"),
    ],
)
def test_a_bad_ppo_setting_is_one_line_and_status_2(tmp_path, override, message):
    done = run("train.py", f"hydra.run.dir={tmp_path / 'run'}", *TINY, override)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_checkpoint_is_a_player_in_evaluate(trained, tmp_path):
    bot = trained / "checkpoints" / "bot.pt"
    assert isinstance(load_player(str(bot)), PPOPlayer)
    out = tmp_path / "results.json"
    done = run("evaluate.py", f"players=[{bot},random]", "games=20", "workers=1",
               f"out={out}", f"hydra.run.dir={tmp_path / 'eval'}")  # fmt: skip
    assert done.returncode == 0, done.stderr
    pairing = json.loads(out.read_text())["pairings"][0]
    assert pairing["players"] == [str(bot), "random"] and pairing["games"] == 20


def test_the_checkpoint_is_an_opponent_in_play(trained):
    bot = trained / "checkpoints" / "bot.pt"
    done = run(
        "play.py", f"opponent={bot}", "seed=3", "confirm=false", "record=null", stdin="1\n" * 400
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"{trained.name} rolls" in done.stdout  # a run's bot.pt plays under its run's name


@pytest.mark.slow
def test_train_agent_ppo_game_tabla_and_its_bot_in_evaluate_against_pubeval(tmp_path):
    run_dir = tmp_path / "run"
    shorter = [setting for setting in TINY if not setting.startswith("total_games=")]
    done = run("train.py", "game=tabla", "total_games=8", f"hydra.run.dir={run_dir}", *shorter)
    assert done.returncode == 0, done.stderr
    assert re.search(r"trained at \d+ games", done.stdout), done.stdout
    bot = run_dir / "checkpoints" / "bot.pt"
    out = tmp_path / "results.json"
    done = run("evaluate.py", "game=tabla", f"players=[{bot},pubeval]", "games=4", "workers=1",
               f"out={out}", f"hydra.run.dir={tmp_path / 'eval'}")  # fmt: skip
    assert done.returncode == 0, done.stderr
    pairing = json.loads(out.read_text())["pairings"][0]
    assert pairing["players"] == [str(bot), "pubeval"] and pairing["games"] == 4
