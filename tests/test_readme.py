"""Every command the README shows runs as written.

The commands are read from the README's ``bash`` blocks. A line is split at ``&&`` into
steps. Set-up steps (a virtual environment, ``pip install``, ``npm ci``, Chromium) are the
ones this test environment was made with (CI runs the README's test command itself, and
``.ci/run`` installs Chromium); every other step runs here as written, in a scratch folder
that holds the repository's entry scripts, configs, checkpoints and page, so that what the
commands write (``runs/``, ``games/``) lands there. A command that would run for long (a
training run, a server) runs until it has shown that it works, then is stopped as a user
would stop it (Ctrl-C). The training runs, which write one run directory each, run side by
side with the other steps; the steps that read ``runs/`` come after them, side by side. A
README command this test does not know fails it: add it to :data:`CHECKS`.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

SET_UP = {
    "python3 -m venv .venv",
    ". .venv/bin/activate",
    "pip install -e .",
    'pip install -e ".[test]"',
    "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu",
    "(cd web",
    "npm ci)",
    "cd web",
    "npm ci",
    "cd ..",
    "apt-get install -y chromium",
}
"""The set-up steps: what made this test's environment."""

THE_TESTS = "python -m pytest -q"
"""The README's test command: the run this test is part of."""

BESIDE = ("train.py", "evaluate.py", "play.py", "analyze.py", "export.py", "entry.py")
LINKED = ("configs", "checkpoints", "web", "docs")


def readme_commands() -> list[str]:
    """Every command line of the README's ``bash`` blocks, comments left out."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README.read_text(), re.DOTALL):
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                commands.append(" ".join(line.split()))
    return commands


def steps(command: str) -> list[str]:
    return [step.strip() for step in command.split("&&")]


def project_steps() -> list[str]:
    """The README's steps that are not set-up, in the README's order, each once."""
    found = []
    for command in readme_commands():
        for step in steps(command):
            if step not in SET_UP and step != THE_TESTS and step not in found:
                found.append(step)
    return found


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A folder from which the README's commands run as written."""
    folder = tmp_path_factory.mktemp("readme")
    for name in BESIDE:
        (folder / name).symlink_to(ROOT / name)
    for name in LINKED:
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)
    return folder


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def run(step: str, folder: Path, stdin: str = "", timeout: float = 300):
    return subprocess.run(
        shlex.split(step),
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(),
    )


@contextlib.contextmanager
def ctrl_c_reaches_the_commands():
    """While it lasts, the commands started take Ctrl-C (SIGINT) as a user's would, even when
    the tests run as a background job, whose shell starts its commands with SIGINT ignored:
    a signal this process handles is back to its default action in a program it starts."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_then_stop(step: str, folder: Path, ready, limit: float = 240) -> tuple[int, str]:
    """Start ``step``, wait until ``ready(output so far)`` or ``limit`` seconds, press Ctrl-C
    (SIGINT), and return its exit status and all it printed. Called within
    :func:`ctrl_c_reaches_the_commands`."""
    process = subprocess.Popen(
        shlex.split(step),
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment(),
    )
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.extend(iter(process.stdout.readline, "")))
    reader.start()
    try:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and process.poll() is None:
            if ready("".join(output)):
                break
            time.sleep(0.5)
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        process.wait(timeout=120)
    finally:
        if process.poll() is None:  # never leave it running (a server would hold its port)
            process.kill()
            process.wait()
        reader.join(timeout=10)
    return process.returncode, "".join(output)


def served(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def check_training(step: str, folder: Path) -> None:
    """A training run starts, is stopped by Ctrl-C after its first checkpoint's worth of
    play, writes its checkpoint and says how to resume."""
    status, output = run_then_stop(step, folder, lambda text: "self-play" in text or "ppo" in text)
    assert status == 0, output[-3000:]
    assert "run the same command to resume" in output, output[-3000:]
    run_dir = re.search(r"checkpoint: (\S+)", output).group(1)
    assert (folder / run_dir).is_file()


def check_play(step: str, folder: Path) -> None:
    done = run(step, folder, stdin="quit\n")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "you play O against" in done.stdout and "Good-bye" in done.stdout


def check_server(step: str, folder: Path) -> None:
    """The page's server answers with the page and its modules, then stops on Ctrl-C."""
    answered = []

    def ready(text: str) -> bool:
        answered.append(
            served("http://localhost:8000/") and served("http://localhost:8000/js/api.js")
        )
        return answered[-1]

    status, output = run_then_stop(step, folder, ready, limit=60)
    assert any(answered), output[-2000:]


def check_tensorboard(step: str, folder: Path) -> None:
    status, output = run_then_stop(step, folder, lambda text: "http://" in text, limit=120)
    assert "TensorBoard" in output and "http://" in output, output[-2000:]


def check_evaluate(step: str, folder: Path) -> None:
    done = run(step, folder)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "results written to" in done.stdout


def check_export(step: str, folder: Path) -> None:
    done = run(step, folder)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "bot file:" in done.stdout
    assert (folder / "runs" / "default" / "checkpoints" / "bot.npz").is_file()


def check_random_game(step: str, folder: Path) -> None:
    done = run(step, folder)
    assert done.returncode == 0, done.stderr[-3000:]
    game = step.split()[-1]
    assert done.stdout.startswith(game.capitalize()), done.stdout[:200]
    assert " wins a " in done.stdout or "the game is a draw" in done.stdout, done.stdout[-500:]


def check_match_table(step: str, folder: Path) -> None:
    done = run(step, folder)
    assert done.returncode == 0, done.stderr[-3000:]
    for game in ("Tabla", "Gulbara", "Tapa"):
        assert f"**{game} to come, you start it.**" in done.stdout
    assert "| 7 |" in done.stdout


CHECKS = {
    "python -m tapa_env --game tapa": check_random_game,
    "python -m tapa_env --game tabla": check_random_game,
    "python -m tapa_env --game gulbara": check_random_game,
    "python -m tapa_env --game fevga": check_random_game,
    "python play.py": check_play,
    "python -m http.server -d web": check_server,
    "python train.py": check_training,
    "python train.py agent.hidden=[128,64] seed=1": check_training,
    "python train.py agent=ppo": check_training,
    "python train.py game=tabla": check_training,
    "python train.py game=fevga": check_training,
    "tensorboard --logdir runs": check_tensorboard,
    "python evaluate.py players=[runs/default/checkpoints/bot.pt,defensive,adaptive]": (
        check_evaluate
    ),
    "python export.py checkpoint=runs/default/checkpoints/bot.pt": check_export,
    "python play.py match_length=7": check_play,
    "python play.py game=fevga": check_play,
    "python play.py match_games=tavli": check_play,
    "python evaluate.py game=fevga players=[holder,racer,random] games=100": check_evaluate,
    "python evaluate.py match_games=tavli match_length=3 games=20": check_evaluate,
    "python evaluate.py match_length=7 players=[shipped,pubeval+runner+offensive] games=100": (
        check_evaluate
    ),
    "python -m agents.match 7": check_match_table,
}
"""How each of the README's own commands is run, by the step as the README writes it."""


def test_every_readme_command_is_known_here():
    unknown = [step for step in project_steps() if step not in CHECKS]
    assert not unknown, f"README commands this test does not run: {unknown}"
    assert THE_TESTS in " ".join(readme_commands())


def test_the_set_up_commands_are_the_two_documented_ones():
    commands = readme_commands()
    assert (
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && python train.py"
        in (commands)
    )
    tests = (
        "(cd web && npm ci) && python3 -m venv .venv && . .venv/bin/activate && pip install -e "
        '".[test]" && python -m pytest -q'
    )
    assert tests in commands


def reads_runs(step: str) -> bool:
    """Whether ``step`` reads what the training runs write (``runs/``)."""
    return "runs" in re.split(r"[\s=\[\],/]+", step)


def test_every_readme_command_runs_as_written(scratch):
    steps = project_steps()
    trainings = [step for step in steps if CHECKS[step] is check_training]
    after_them = [step for step in steps if reads_runs(step)]
    assert trainings and after_them and not set(trainings) & set(after_them)
    with ctrl_c_reaches_the_commands():
        with ThreadPoolExecutor(len(trainings)) as pool:
            started = [pool.submit(check_training, step, scratch) for step in trainings]
            for step in steps:
                if step not in trainings and step not in after_them:
                    CHECKS[step](step, scratch)
            for training in started:
                training.result()
        with ThreadPoolExecutor(len(after_them)) as pool:
            started = [pool.submit(CHECKS[step], step, scratch) for step in after_them]
            for later in started:
                later.result()


def test_the_readmes_boards_of_every_game_are_the_engines():
    from tapa_env import GAMES, Position

    text = (ROOT / "README.md").read_text()
    boards = re.findall(r"<td><pre>\n(.*?)\n</pre></td>", text, flags=re.S)
    assert boards == [str(Position.initial(game)) for game in GAMES]
