"""train.py as a user runs it: help, errors, the run directory, crashes and resumes."""

from __future__ import annotations

import dataclasses
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from agents.td.checkpoint import read
from agents.td.config import AgentConfig, LearnerConfig, TDConfig

ROOT = Path(__file__).resolve().parents[1]
TINY = [
    "total_games=300",
    "parallel_games=32",
    "eval_every=150",
    "eval_games=20",
    "eval_opponents=[random]",
    "log_every=100",
    "learner.round_samples=512",
    "learner.batch_size=64",
    "progress=false",
]


def run_train(run_dir: Path, *overrides: str, wait: bool = True):
    command = [sys.executable, "train.py", f"hydra.run.dir={run_dir}", *overrides]
    if not wait:
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_help_explains_every_setting():
    done = subprocess.run(
        [sys.executable, "train.py", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    names = [f.name for f in dataclasses.fields(TDConfig) if f.name not in ("agent", "learner")]
    names += [f"agent.{f.name}" for f in dataclasses.fields(AgentConfig)]
    names += [f"learner.{f.name}" for f in dataclasses.fields(LearnerConfig)]
    for name in names:
        assert re.search(rf"^\s+{re.escape(name)}\s", done.stdout, re.M), name


def test_every_setting_in_the_config_file_has_a_comment():
    lines = (ROOT / "configs" / "train.yaml").read_text().split("hydra:")[0].splitlines()
    for index, line in enumerate(lines):
        if re.match(r"^\s*\w+:", line) and not line.strip().startswith(("defaults", "- ")):
            is_group = line.rstrip().endswith(":")
            if not is_group:
                assert lines[index - 1].strip().startswith("#"), f"no comment above {line!r}"


# A refusal after the settings are read loads the training code first, which takes seconds:
# the default run refuses one such setting through train.py; the others' messages are checked
# without it (tests/test_training.py) and through it under -m slow.
@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("total_games=-5", "train.py: error: total_games must be a positive integer, got -5"),
        pytest.param(
            "eval_opponents=[nobody]",
            "train.py: error: eval_opponents: unknown player 'nobody'",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "agent.hidden=[80,0]",
            "train.py: error: agent: hidden must be a positive width",
            marks=pytest.mark.slow,
        ),
        ("learner.lr=fast", "learner.lr"),
        ("no_such_setting=1", "no_such_setting"),
    ],
)
def test_a_bad_setting_is_a_short_message_and_status_2(tmp_path, override, message):
    done = run_train(tmp_path / "run", override)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 8
    assert not (tmp_path / "run" / "checkpoints").exists()


def test_a_run_says_where_it_runs_and_from_what_and_logs_it_to_train_log(tmp_path):
    """The first line names the run directory, new or resumed from how many games; each
    evaluation is a line of its own; train.log keeps them and the end, each with its time."""
    run_dir = tmp_path / "run"
    short = [setting for setting in TINY if not setting.startswith("total_games=")]
    first = run_train(run_dir, "total_games=150", *short)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0] == f"{run_dir}: a new run, training to 150 games"
    assert lines[1] == f"eval at 0 games: vs random {evaluation(run_dir, 0)}"
    games = read(run_dir / "checkpoints" / "last.pt")["games_trained"]
    assert f"eval at {games} games: vs random {evaluation(run_dir, 1)}, previous " in lines[2]
    logged = (run_dir / "train.log").read_text().splitlines()
    run_line = re.compile(r"^\[[^]]*\]\[(?:agents\.runs[\w.]*|train)\]\[INFO\] - (.*)$")
    said = [found.group(1) for found in map(run_line.match, logged) if found]
    assert said == [line for line in lines if not line.startswith("[")], logged
    again = run_train(run_dir, "total_games=300", *short)
    assert again.returncode == 0, again.stderr
    start = f"{run_dir}: resumed from {games} games, training to 300 games"
    assert again.stdout.splitlines()[0] == start
    logged = (run_dir / "train.log").read_text()
    assert logged.count(": a new run, ") == 1 and logged.count(start) == 1
    assert logged.rstrip().endswith(f"learning curve: {run_dir / 'learning_curve.png'}")
    refused = run_train(run_dir, "total_games=300", "learner.lr=0.5", *short)
    assert refused.returncode == 2
    last = (run_dir / "train.log").read_text().splitlines()[-1]
    assert last.endswith(refused.stderr.strip().removeprefix("train.py: error: "))


def evaluation(run_dir: Path, index: int) -> str:
    """The win rate against random of the run's evaluation ``index``, as the line shows it."""
    lines = (run_dir / "evaluations.jsonl").read_text().splitlines()
    return f"{json.loads(lines[index])['random']['win_rate']:.0%}"


def test_the_evaluation_line_is_each_opponents_win_rate_by_its_full_name():
    from agents.runs.evaluations import summary

    result = {"games_trained": 25000}
    rates = {"offensive": 0.55, "defensive": 0.2, "adaptive": 0.3, "previous": 0.5}
    for name, rate in rates.items():
        result[name] = {"win_rate": rate, "ppg": 0.0, "ppg_ci95": None, "games": 400}
    line = summary(result)
    assert line == (
        "eval at 25000 games: vs offensive 55%, defensive 20%, adaptive 30%, previous 50%"
    )
    assert len(line) <= 80


def test_a_run_directory_holds_config_events_checkpoints_and_the_curve(tmp_path):
    run_dir = tmp_path / "run"
    done = run_train(run_dir, *TINY)
    assert done.returncode == 0, done.stderr
    assert "trained at" in done.stdout and "vs random" in done.stdout
    assert (run_dir / ".hydra" / "config.yaml").exists()
    assert (run_dir / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for name in ("last.pt", "bot.pt"):
        content = read(run_dir / "checkpoints" / name)
        assert content["games_trained"] >= 300 and content["config"]["total_games"] == 300
    evaluations = [json.loads(line) for line in (run_dir / "evaluations.jsonl").open()]
    assert [e["games_trained"] >= 150 for e in evaluations] == [False, True, True]
    events = EventAccumulator(str(run_dir))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    for tag in ("train/td_error", "games/length", "games/gammon", "perf/turns_per_second"):
        assert tag in tags
    assert {"eval/random/win_rate", "eval/previous/ppg"} <= tags
    assert "config/text_summary" in events.Tags()["tensors"]

    # evaluate.py plays the checkpoint while the same command starts again on the finished run
    # (each start takes seconds, mostly on one core).
    evaluate = subprocess.Popen(
        [
            sys.executable,
            "evaluate.py",
            f"players=[{run_dir}/checkpoints/last.pt,random]",
            "games=20",
            "workers=1",
            f"hydra.run.dir={tmp_path / 'evaluate'}",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        again = run_train(run_dir, *TINY)
        assert again.returncode == 0 and "already trained" in again.stdout
        _, evaluate_errors = evaluate.communicate(timeout=300)
    finally:
        if evaluate.poll() is None:
            evaluate.kill()
            evaluate.wait()
    assert evaluate.returncode == 0, evaluate_errors
    results = json.loads((tmp_path / "evaluate" / "results.json").read_text())
    pairing = results["pairings"][0]
    assert pairing["players"] == [f"{run_dir}/checkpoints/last.pt", "random"]
    assert pairing["games"] == 20 and pairing["win_rate"] > 0.5


def wait_for_checkpoint(path: Path, process: subprocess.Popen, games: int) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode()
        try:
            if path.exists() and read(path)["games_trained"] >= games:
                return
        except ValueError:
            pass  # caught between the temporary file and the rename: not possible; retry
        time.sleep(0.2)
    raise AssertionError("no checkpoint came")


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_kill_9_loses_only_the_games_since_the_checkpoint(tmp_path):
    overrides = [*TINY, "total_games=900", "checkpoint_every=200", "eval_every=0"]
    straight = run_train(tmp_path / "straight", *overrides)
    assert straight.returncode == 0, straight.stderr
    process = run_train(tmp_path / "killed", *overrides, wait=False)
    wait_for_checkpoint(tmp_path / "killed" / "checkpoints" / "last.pt", process, 200)
    process.kill()  # SIGKILL: no chance to write anything
    process.wait()
    resumed = run_train(tmp_path / "killed", *overrides)
    assert resumed.returncode == 0, resumed.stderr
    a = read(tmp_path / "straight" / "checkpoints" / "last.pt")
    b = read(tmp_path / "killed" / "checkpoints" / "last.pt")
    assert a["games_trained"] == b["games_trained"]
    for key in a["weights"]:
        assert torch.equal(a["weights"][key], b["weights"][key])


# A long check: the default run stops runs by SIGTERM in process (tests/test_resume_logs.py)
# and train.py by Ctrl-C, which says how to resume (tests/test_readme.py).
@pytest.mark.slow
def test_sigterm_writes_a_checkpoint_and_says_how_to_resume(tmp_path):
    overrides = [*TINY, "total_games=100000", "checkpoint_every=100", "eval_every=0"]
    last = tmp_path / "run" / "checkpoints" / "last.pt"
    process = run_train(tmp_path / "run", *overrides, wait=False)
    wait_for_checkpoint(last, process, 100)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "stopped at" in out.decode() and "run the same command to resume" in out.decode()
    games = read(last)["games_trained"]
    assert 100 <= games < 100000
    assert f"stopped at {games} games" in out.decode()


@pytest.mark.parametrize("arguments", [["--help"], ["agent=ppo", "--help"], ["total_games=abc"]])
def test_help_and_a_refused_setting_load_neither_torch_nor_the_engine(arguments):
    """What ``--help`` or a refused setting needs is the settings' schemas: torch, numba (the
    engine) and matplotlib load with the training code, when a run starts."""
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['train.py', *{arguments!r}]\n"
        "try:\n"
        "    runpy.run_path('train.py', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    status = stop.code\n"
        "heavy = sorted({'torch', 'numba', 'matplotlib'} & set(sys.modules))\n"
        "print(status, heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    status = 2 if "total_games=abc" in arguments else 0
    assert done.stdout.splitlines()[-1] == f"{status} []", done.stderr


def test_a_stopped_run_says_when_its_last_evaluation_was(capsys, tmp_path):
    import train
    from agents.runs.settings import TrainResult
    from agents.td.config import TDConfig

    evaluation = {
        "games_trained": 0,
        "offensive": {"win_rate": 0.04, "ppg": -1.8, "ppg_ci95": [-1.9, -1.7], "games": 400},
    }
    stopped = TrainResult("interrupted", 35774, 3371082, tmp_path / "last.pt", evaluation, 88.0)
    train.report(stopped, TDConfig(), tmp_path, None)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "stopped at 35774 games (3371082 turns) in 88 s",
        "the last evaluation, at 0 games:",
        "  vs offensive  win   4.0%  ppg -1.800 [-1.900, -1.700] over 400 games",
    ]
    evaluation["games_trained"] = 35774  # evaluated at the end: nothing to say
    train.report(stopped, TDConfig(), tmp_path, None)
    assert "the last evaluation" not in capsys.readouterr().out


def test_an_evaluation_of_one_duplicate_pair_has_no_interval_to_report(capsys, tmp_path):
    import train
    from agents.runs.settings import TrainResult
    from agents.td.config import TDConfig

    evaluation = {
        "games_trained": 200,
        "offensive": {"win_rate": 0.5, "ppg": 0.5, "ppg_ci95": None, "games": 2},  # eval_games=2
    }
    done = TrainResult("finished", 200, 18000, tmp_path / "last.pt", evaluation, 3.0)
    train.report(done, TDConfig(), tmp_path, None)
    lines = capsys.readouterr().out.splitlines()
    assert "  vs offensive  win  50.0%  ppg +0.500 [no interval] over 2 games" in lines
