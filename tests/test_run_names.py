"""Run directories named after their overrides, in names whose paths paste into any override
(agents/runs/naming.py); a run named the earlier way is renamed once and resumed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agents.runs.naming import earlier_name, run_name

ROOT = Path(__file__).resolve().parents[1]
TINY = [
    "total_games=64",
    "parallel_games=16",
    "eval_every=0",
    "eval_games=10",
    "eval_opponents=[random]",
    "learner.round_samples=256",
    "learner.batch_size=64",
    "progress=false",
]
EXCLUDED = ("total_games", "eval_every", "eval_games", "eval_opponents", "progress")


def script(name: str, *overrides: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / name), *overrides],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_name_keeps_only_what_an_override_value_may_hold():
    assert run_name("") == "default"
    assert run_name("agent-ppo") == "agent-ppo"
    assert run_name("agent.hidden-[128,64]+seed-1") == "agent.hidden-128.64+seed-1"
    assert run_name("+experiment-tapa-td") == "+experiment-tapa-td"
    assert run_name("learner.lr-1e-4+rules.both_mothers_draw-false") == (
        "learner.lr-1e-4+rules.both_mothers_draw-false"
    )
    assert run_name("a-'x y'") == "a-_x_y_"


def test_the_earlier_name_is_the_sorted_overrides_but_the_excluded_ones():
    overrides = ["seed=1", "total_games=5", "agent.hidden=[128,64]", "+experiment=tapa-td"]
    assert earlier_name(overrides, EXCLUDED) == "+experiment=tapa-td,agent.hidden=_128,64_,seed=1"
    assert earlier_name(["total_games=9"], EXCLUDED) == "default"


@pytest.mark.slow
def test_a_run_of_the_earlier_name_is_renamed_resumed_and_its_paths_paste(tmp_path):
    earlier = tmp_path / "runs" / earlier_name(TINY, EXCLUDED)
    assert "=" in earlier.name and "," in earlier.name
    first = script("train.py", f"hydra.run.dir='{earlier}'", *TINY, cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]

    again = script("train.py", *TINY, cwd=tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    new = Path("runs") / "learner.batch_size-64+learner.round_samples-256+parallel_games-16"
    assert f"renamed the run directory runs/{earlier.name} to {new}" in again.stderr
    assert "already trained 64 games" in again.stdout
    assert not earlier.exists() and (tmp_path / new / "checkpoints" / "bot.pt").is_file()

    bot = new / "checkpoints" / "bot.pt"
    played = script("evaluate.py", f"players=[{bot},random]", "games=2", cwd=tmp_path)
    assert played.returncode == 0, played.stderr[-2000:]
    assert str(bot) in played.stdout
