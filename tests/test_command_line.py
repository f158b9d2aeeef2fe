"""The project run as programs, in subprocesses: the first-compile notice, ``python -m tapa_env``
into a closed pipe and with bad options, the benchmarks' checks of their options, and the
entry scripts' one-line answer to a setting Hydra cannot apply.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapa_env.games import GAMES

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


@pytest.mark.slow  # a long check: python -m pytest -m slow
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


# --- python -m tapa_env refuses options that make no sense ----------------------------------


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--seed", "-1", "must be a non-negative integer, got -1"),
        ("--seed", "one", "expected a non-negative integer, got 'one'"),
        ("--max-turns", "0", "must be a positive integer, got 0"),
        ("--max-turns", "-5", "must be a positive integer, got -5"),
    ],
)
def test_the_random_game_refuses_a_bad_option_as_a_usage_error(option, value, message):
    result = python("-m", "tapa_env", option, value)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        f"python -m tapa_env: error: argument {option}: {message}"
    )
    assert "Traceback" not in result.stderr


# --- a setting Hydra cannot apply is one line naming it -------------------------------------


def one_line_error(result: subprocess.CompletedProcess, script: str) -> str:
    """The one line a refused command line printed, after checking that it is all it did."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{script}: error: ")
    return lines[0].removeprefix(f"{script}: error: ")


@pytest.mark.parametrize(
    ("script", "overrides", "message"),
    [
        ("train.py", ["total_games=abc"], "total_games must be an integer, got 'abc'"),
        ("train.py", ["learner.lr=abc"], "learner.lr must be a number, got 'abc'"),
        (
            "train.py",
            ["agent.hiddn=[40]"],
            "unknown setting 'agent.hiddn': did you mean agent.hidden?",
        ),
        (
            "train.py",
            ["games=10"],
            "unknown setting 'games': did you mean game or eval_games or total_games?",
        ),
        ("train.py", ["agent=ppo", "learner.clip_cof=0.1"], "did you mean learner.clip_coef or "),
        ("train.py", ["learner=fast"], "learner is a group of settings"),
        ("evaluate.py", ["games=abc"], "games must be an integer, got 'abc'"),
        ("evaluate.py", ["gams=10"], "unknown setting 'gams': did you mean games or game?"),
        ("evaluate.py", ["players=random"], "players must be a list in brackets"),
        ("export.py", ["onnx=maybe"], "onnx must be true or false, got 'maybe'"),
        ("play.py", ["match=abc"], "match must be an integer, got 'abc'"),
        (
            "play.py",
            ["oponent=random"],
            "unknown setting 'oponent': did you mean opponent or match_opponent?",
        ),
    ],
)
def test_a_setting_hydra_cannot_apply_is_one_line_naming_it(script, overrides, message):
    result = python(script, *overrides)
    assert message in one_line_error(result, script)
    assert "+" not in result.stderr  # no advice to append a key that the schema lacks


@pytest.mark.parametrize("script", ["train.py", "evaluate.py", "play.py", "analyze.py"])
def test_a_misspelt_game_is_one_line_with_the_closest_game(script, tmp_path):
    result = python(script, "game=tavla", f"hydra.run.dir={tmp_path}")
    games = ", ".join(sorted(path.stem for path in (ROOT / "configs" / "game").glob("*.yaml")))
    assert one_line_error(result, script) == (
        f"game=tavla: no such game; did you mean tabla? (game is one of {games})"
    )


@pytest.mark.parametrize(
    ("script", "overrides", "message"),
    [
        ("train.py", ["agent=tdd"], "agent=tdd: no such algorithm; did you mean td? "),
        ("train.py", ["agent=dqn"], "agent=dqn: no algorithm 'dqn' yet; the algorithms are td, "),
        ("train.py", ["+experiment=tapa-tdd"], "experiment=tapa-tdd: no such experiment; did "),
        ("play.py", ["game=chess"], "game=chess: no such game (game is one of fevga, gulbara, "),
        (
            "evaluate.py",
            ["hydra/job_logging=disabld"],
            "hydra/job_logging=disabld: no such job_logging; did you mean disabled? (",
        ),
        ("export.py", ["game=tavla"], "unknown setting 'game': the settings are checkpoint, "),
        ("analyze.py", ["game=games/x.tapa"], f"game= names the game now ({', '.join(GAMES)})"),
    ],
)
def test_a_choice_a_config_group_lacks_is_one_line_naming_the_choices(script, overrides, message):
    result = python(script, *overrides)
    assert one_line_error(result, script).startswith(message)


@pytest.mark.parametrize(
    "overrides",
    [["foo=1"], ["+foo=1"], ["agent=ppo", "foo=1"], ["--multirun", "seed=1,2", "foo=1"]],
)
def test_an_unknown_setting_with_no_near_name_lists_the_settings(overrides):
    message = one_line_error(python("train.py", *overrides), "train.py")
    assert message.startswith("unknown setting 'foo': the settings are total_games, ")
    assert "learner" in message and "hydra" not in message


@pytest.mark.parametrize("script", ["train.py", "evaluate.py"])
def test_a_run_directory_that_cannot_be_made_is_one_line(tmp_path, script):
    (tmp_path / "file").write_text("a file, not a folder")
    run_dir = tmp_path / "file" / "run"
    message = one_line_error(python(script, f"hydra.run.dir={run_dir}"), script)
    assert message.startswith(f"cannot create the run directory: {tmp_path / 'file'}")
    assert message.endswith(": Not a directory")


def test_a_fault_inside_the_job_still_ends_in_its_traceback(tmp_path):
    """Only what Hydra refuses before the job becomes one line: an OSError that the job
    itself raises is a fault of the program, status 1 with a traceback."""
    (tmp_path / "app.py").write_text(
        "import hydra\n"
        "from entry import EntryScript\n"
        "SCRIPT = EntryScript('app.py')\n"
        "@hydra.main(version_base='1.3', config_path=None, config_name=None)\n"
        "def main(cfg):\n"
        "    SCRIPT.job_started = True\n"
        "    open('no/such/folder/file.txt', 'w')\n"
        "if __name__ == '__main__':\n"
        "    SCRIPT.run(main)\n"
    )
    done = subprocess.run(
        [sys.executable, "app.py", f"hydra.run.dir={tmp_path / 'run'}"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr
    assert done.stderr.splitlines()[-1].startswith("FileNotFoundError:")


@pytest.mark.parametrize("arguments", [["--help"], ["onnx=maybe"], ["+colour=red"]])
def test_export_help_and_a_refused_setting_load_no_torch(arguments):
    """export.py's settings live apart from the export (agents/td/export_config.py): help and
    a mistake answer without waiting for torch."""
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['export.py', *{arguments!r}]\n"
        "try:\n"
        "    runpy.run_path('export.py', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    status = stop.code\n"
        "print(status, 'torch' in sys.modules)\n"
    )
    done = python("-c", script)
    status = 0 if arguments == ["--help"] else 2
    assert done.stdout.splitlines()[-1] == f"{status} False", done.stderr


def test_ctrl_c_before_the_job_handles_it_ends_in_one_line_with_status_130(capsys):
    """A Ctrl-C that reaches the entry point (on a first run, while numba compiles the
    engine, before a script's own handling of it) ends the script in one line."""
    from entry import EntryScript

    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as stop:
        EntryScript("train.py").run(interrupted)
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip() == "train.py: stopped by Ctrl-C"
