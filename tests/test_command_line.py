"""The project run as programs, in subprocesses: the first-compile notice, ``python -m tapa_env``
into a closed pipe, and the benchmarks' checks of their options.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTICE = "tapa_env: compiling the rules engine once"


def environment(**extra: str) -> dict[str, str]:
    """This process's environment, importing this checkout's packages first."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def python(*args: str, **extra_env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environment(**extra_env),
        capture_output=True,
        text=True,
        timeout=600,
    )


# --- the first compile is announced once ----------------------------------------------------

PLAY = (
    "import numpy as np, tapa_env; "
    "print(len(tapa_env.generate_afterstates(tapa_env.initial_rows(1), np.array([[6, 5]]))[0]))"
)


def test_the_first_compile_is_announced_on_stderr_and_later_runs_are_quiet(tmp_path):
    cache = str(tmp_path / "numba-cache")
    imported = python("-c", "import tapa_env", NUMBA_CACHE_DIR=cache)
    assert imported.returncode == 0, imported.stderr
    assert NOTICE not in imported.stderr  # importing compiles nothing

    first = python("-c", PLAY, NUMBA_CACHE_DIR=cache)
    assert first.returncode == 0, first.stderr
    notices = [line for line in first.stderr.splitlines() if NOTICE in line]
    assert len(notices) == 1, first.stderr
    assert "numba's cache" in notices[0]
    assert NOTICE not in first.stdout and first.stdout.split() == ["2"]

    second = python("-c", PLAY, NUMBA_CACHE_DIR=cache)
    assert second.returncode == 0, second.stderr
    assert NOTICE not in second.stderr
    assert second.stdout.split() == ["2"]


# --- python -m tapa_env into a closed pipe ---------------------------------------------------


@pytest.mark.parametrize("args", [["--boards"], []], ids=["boards", "moves"])
def test_a_closed_stdout_ends_the_game_quietly(args):
    """As ``python -m tapa_env --boards | head`` does once ``head`` has had its lines."""
    read, write = os.pipe()
    os.close(read)  # nobody reads: every write to stdout fails with a broken pipe
    try:
        result = subprocess.run(
            [sys.executable, "-m", "tapa_env", *args],
            cwd=ROOT,
            env=environment(),
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    finally:
        os.close(write)
    assert result.stderr == ""
    assert result.returncode == 1


def test_the_game_prints_in_full_to_an_open_pipe():
    result = python("-m", "tapa_env", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Tapa: O and X play random legal moves.")
    assert "wins" in result.stdout or "draw" in result.stdout or "No result" in result.stdout


# --- the benchmarks refuse options that make no sense --------------------------------------


@pytest.mark.parametrize(
    ("bench", "option", "value", "message"),
    [
        ("movegen", "--pool", "-5", "must be a positive integer, got -5"),
        ("movegen", "--pool", "0", "must be a positive integer, got 0"),
        ("movegen", "--repeats", "0", "must be a positive integer, got 0"),
        ("movegen", "--repeats", "two", "expected a positive integer, got 'two'"),
        ("env", "--turns", "-1", "must be a positive integer, got -1"),
        ("arena", "--games", "0", "must be a positive integer, got 0"),
        ("arena", "--games", "7", "must be even"),
        ("arena", "--repeats", "-3", "must be a positive integer, got -3"),
    ],
)
def test_benchmarks_refuse_non_positive_numbers(bench, option, value, message):
    result = python(str(Path("bench") / f"{bench}.py"), f"{option}={value}")
    assert result.returncode == 2
    assert f"argument {option}: {message}" in result.stderr
    assert "Traceback" not in result.stderr
