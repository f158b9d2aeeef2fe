"""Every shell command in docs/*.md runs as written and shows what the documents show.

How a command is told from its output in a document's code blocks (the documents keep to it):

- In a ``bash`` (or ``sh``, ``shell``) block every line is a command: a line that ends in
  ``\\`` goes on on the next, and ``#`` starts a comment. Such a block shows no output.
- In a block without a language (or ``text``, ``console``), a line that starts with ``$ `` is
  a command (continued likewise), and the lines after it, up to the next ``$ `` line or the
  end of the block, are its output as the document shows it, ``...`` standing for lines left
  out. A line before any ``$ `` line that starts as a command does (``python``, ``torchrun``,
  ``node``, ..., after any ``NAME=value`` settings) is a command too, shown without output.
- ``python``, ``js``, ``json`` and ``html`` blocks are code and data, not commands.

A command is split at ``&&`` into steps. Set-up steps (``pip install``, ``npm ci``, ...) are
those that made this test environment, as in tests/test_readme.py. Every other step runs as
written (``NAME=value`` settings before it go to its environment) in a scratch folder that
holds the repository's entry scripts, configs, checkpoints, examples, benchmarks, page and
tests, and copies of the documents, so that what a command writes (``runs/``, ``games/``,
``bots/``, screenshots) lands there. :data:`CHECKS` says how each step is checked; a step it
does not know fails :func:`test_every_docs_command_is_known_here`. Where a document shows a
command's output, the output must hold every line shown, in order (the figures of a seeded
rollout, a listing); other checks look for what shows that the command did its work.

A command that would run for long (training, a server, a long benchmark) runs until it has
shown that it works, then is stopped as a user stops it, with Ctrl-C to its process group.
An interactive one (``play.py``) reads its input from the check, ``quit`` at the least. A
command that needs what this machine lacks (a second machine, a SLURM cluster) is checked as
far as it can be and then skipped with the reason. The quick steps run in the default run,
side by side; the long ones are marked ``slow``. A documented command that does not yet do
what the documents say is in :data:`FAILING`, with what it does instead: a strict expected
failure, which fails the run once the command does its part.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_readme import SET_UP as README_SET_UP
from test_readme import ctrl_c_reaches_the_commands

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

SHELL_BLOCKS = {"bash", "sh", "shell"}
OUTPUT_BLOCKS = {"", "text", "console"}
PROGRAMS = ("python", "python3", "torchrun", "tensorboard", "node", "npm", "pip", "cd", "apt-get")
LOOKS_LIKE_A_COMMAND = re.compile(rf"^(?:[A-Z_][A-Z0-9_]*=\S+ +)*(?:{'|'.join(PROGRAMS)})(?: |$)")
SETTING = re.compile(r"^([A-Z_][A-Z0-9_]*)=(\S*)$")

SET_UP = README_SET_UP | {'pip install -e ".[export]"'}
"""The set-up steps: what made this test's environment (the ``test`` extra holds ``export``)."""

BESIDE = ("train.py", "evaluate.py", "play.py", "analyze.py", "export.py", "entry.py")
LINKED = ("configs", "checkpoints", "web", "examples", "bench", "pyproject.toml")
COPIED = ("docs", "tests")
"""Copied rather than linked: commands write screenshots into docs/, and the page's tests
find the folder they write to from where tests/ lies."""


@dataclass(frozen=True)
class Command:
    """A command of a document, as written (continued lines joined, comments left out), and
    the output the document shows after it (``$`` blocks only)."""

    document: str
    text: str
    shown: tuple[str, ...] = ()


def one_line(text: str) -> str:
    return " ".join(text.split())


def joined(lines: list[str]) -> list[str]:
    """``lines`` with every line that ends in ``\\`` joined to the next."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1] + " " + line.strip()
        else:
            out.append(line)
    return out


def document_commands(path: Path) -> list[Command]:
    """The commands of one document, in its order."""
    found = []
    for language, body in re.findall(r"^```(\w*)\n(.*?)^```", path.read_text(), re.S | re.M):
        lines = body.splitlines()
        if language in SHELL_BLOCKS:
            for line in joined(lines):
                line = re.sub(r"(^|\s+)#.*$", "", line).strip()
                if line:
                    found.append(Command(path.name, one_line(line)))
        elif language in OUTPUT_BLOCKS:
            command: list[str] | None = None
            shown: list[str] = []
            for line in lines + ["$ "]:
                if line.startswith("$ "):
                    if command:
                        found.append(Command(path.name, one_line(" ".join(command)), tuple(shown)))
                    command, shown = [line[2:]], []
                elif command is not None and command[-1].endswith("\\"):
                    command[-1] = command[-1][:-1]
                    command.append(line)
                elif command is not None:
                    shown.append(line)
                elif LOOKS_LIKE_A_COMMAND.match(line):
                    found.append(Command(path.name, one_line(line)))
    return found


def docs_commands() -> list[Command]:
    return [command for path in sorted(DOCS.glob("*.md")) for command in document_commands(path)]


def steps(command: str) -> list[str]:
    return [step.strip() for step in command.split("&&")]


def docs_steps() -> dict[str, list[tuple[str, ...]]]:
    """Every step of the documents that is not set-up, in their order, each once, with the
    outputs the documents show for it."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for command in docs_commands():
        for step in steps(command.text):
            if step not in SET_UP:
                shown = found.setdefault(step, [])
                if command.shown:
                    shown.append(command.shown)
    return found


# --- running a step --------------------------------------------------------------------------


def split(step: str) -> tuple[dict[str, str], list[str]]:
    """A step's ``NAME=value`` settings and its words, as the shell reads them."""
    words = shlex.split(step)
    settings = {}
    while words and SETTING.match(words[0]):
        name, value = SETTING.match(words.pop(0)).groups()
        settings[name] = value
    return settings, words


def environment(settings: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a documented command: this one's, without a terminal's size (a
    test worker may carry one), so that play.py lays out its plays as the documents show
    them, at its width without a terminal."""
    inherited = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return {**inherited, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(settings or {})}


def run(step: str, folder: Path, stdin: str = "", timeout: float = 1800):
    settings, words = split(step)
    return subprocess.run(
        words,
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(settings),
    )


@contextlib.contextmanager
def started(step: str, folder: Path):
    """``step`` running in a process group of its own, and the list its output (stdout and
    stderr, as it comes, progress bars' updates without a newline too) grows in; on leaving,
    the group is killed if it still runs."""
    settings, words = split(step)
    process = subprocess.Popen(
        words,
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=environment(settings),
        start_new_session=True,
    )
    output: list[str] = []

    def read() -> None:
        while chunk := os.read(process.stdout.fileno(), 1 << 16):
            output.append(chunk.decode(errors="replace"))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        yield process, output
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=120)
    finally:
        if process.poll() is None:  # never leave it running (a server would hold its port)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(timeout=10)
        process.stdout.close()


def ctrl_c(process: subprocess.Popen) -> None:
    """Ctrl-C as a terminal sends it: SIGINT to the foreground process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGINT)


def run_then_stop(
    step: str, folder: Path, ready: Callable[[str], bool], limit: float = 600
) -> tuple[int, str]:
    """Start ``step``, wait until ``ready(output so far)`` or ``limit`` seconds, press Ctrl-C,
    and return its exit status and all it printed. Called within
    ``ctrl_c_reaches_the_commands``."""
    with started(step, folder) as (process, output):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and process.poll() is None:
            if ready("".join(output)):
                break
            time.sleep(0.5)
        ctrl_c(process)
    return process.returncode, "".join(output)


def said(done: subprocess.CompletedProcess) -> str:
    return f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"


def stamped(line: str) -> str:
    """``line`` with a date and time as file names hold them (``2026-12-03_09-20-41``) made
    the same for every time."""
    return re.sub(r"\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d", "DATE_TIME", line)


def assert_shows(output: str, shown: tuple[str, ...], step: str) -> None:
    """``output`` holds every line the document shows after ``step``, in order (``...`` and
    blank lines aside; trailing spaces and the times in file names do not count)."""
    lines = [stamped(line.rstrip()) for line in output.splitlines()]
    at = 0
    for expected in (stamped(line.rstrip()) for line in shown):
        if not expected.strip() or expected.strip() == "...":
            continue
        try:
            at = lines.index(expected, at) + 1
        except ValueError:
            pytest.fail(
                f"{step}: the documents show\n{expected}\nwhich it did not print:\n{output[-6000:]}"
            )


# --- how each step is checked -------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """How a step is checked: ``how(step, folder, shown)``. ``tier`` is ``quick`` (the
    default run), ``training`` (slow: the training runs, side by side), ``after`` (slow: run
    once the training runs have stopped, since it reads what they write), ``long`` (slow, a
    test of its own) or ``lacking`` (what this machine lacks: checked as far as it can be,
    then skipped). ``after`` names the steps whose output it reads, which run first."""

    how: Callable[[str, Path, list[tuple[str, ...]]], None]
    tier: str = "quick"
    after: tuple[str, ...] = ()


def finishes(
    *expected: str | re.Pattern,
    stdin: str = "",
    files: tuple[str, ...] = (),
    status: int = 0,
) -> Callable:
    """The step ends with ``status``, prints each of ``expected`` (a text, or a pattern it
    matches), writes ``files`` and shows what the documents show."""

    def check(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
        done = run(step, folder, stdin=stdin)
        assert done.returncode == status, said(done)
        for text in expected:
            found = (
                text.search(done.stdout) if isinstance(text, re.Pattern) else text in done.stdout
            )
            assert found, f"{step}: no {text!r} in\n{said(done)}"
        for name in files:
            assert (folder / name).is_file(), f"{step} wrote no {name}"
        for lines in shown:
            assert_shows(done.stdout, lines, step)

    return check


def plays(*expected: str, stdin: str = "quit\n") -> Callable:
    """``play.py`` reads ``stdin`` as typed answers (``quit`` leaves) and says good-bye."""
    return finishes("you play O against", *expected, "Good-bye", stdin=stdin)


RESUME = "run the same command to resume"
RUN_STARTS = re.compile(r": (?:a new run|resumed from [\d,]+ games), training to ")
"""The first line of a training run (docs/training.md, "What it prints")."""


def train_then_stop(step: str, folder: Path, runs: int, limit: float = 900) -> tuple[int, str]:
    """Start a training command of ``runs`` runs (a sweep's jobs, one by one or side by side)
    and stop them as a user does: Ctrl-C once every run started so far plays (its first line,
    then its progress bar, and no other run started in the last 5 seconds), then wait for
    them to stop, and again for the runs the sweep starts next, until ``runs`` have stopped.
    Returns the exit status and all it printed."""
    with started(step, folder) as (process, output):
        deadline = time.monotonic() + limit
        seen, since = 0, time.monotonic()
        while process.poll() is None and time.monotonic() < deadline:
            text = "".join(output)
            starts = list(RUN_STARTS.finditer(text))
            if len(starts) != seen:
                seen, since = len(starts), time.monotonic()
            stopped = text.count(RESUME)
            after = text[starts[-1].end() :] if starts else ""
            if (
                stopped < seen
                and ("self-play" in after or "ppo" in after)
                and time.monotonic() - since >= 5
            ):
                ctrl_c(process)
                while process.poll() is None and "".join(output).count(RESUME) < seen:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.5)
                if seen >= runs:
                    break
            time.sleep(0.5)
        if process.poll() is None and "".join(output).count(RESUME) < runs:
            ctrl_c(process)
    return process.returncode, "".join(output)


def trains(*expected: str, runs: int = 1, launcher: bool = False) -> Callable:
    """A training run (or a sweep of ``runs``) starts, is stopped with Ctrl-C once it plays,
    writes its checkpoint and says how to resume. Under a ``launcher`` (torchrun) the run's
    processes stop so, and the launcher itself ends as it does on Ctrl-C, with its own
    ``SignalException``."""

    def check(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
        status, output = train_then_stop(step, folder, runs)
        stopped = launcher and "SignalException: Process" in output and "got signal: 2" in output
        assert status == 0 or stopped, output[-3000:]
        assert output.count(RESUME) == runs == len(RUN_STARTS.findall(output)), output[-3000:]
        for text in expected:
            assert text in output, f"{step}: no {text!r} in\n{output[-3000:]}"
        written = re.findall(r"checkpoint: (\S+)", output)
        assert len(written) == runs, output[-3000:]
        for path in written:
            assert (folder / path).is_file(), f"{step} wrote no {path}:\n{output[-3000:]}"

    return check


def stops(ready: str, *expected: str, limit: float = 900) -> Callable:
    """A long command runs until its output matches the pattern ``ready``, then is stopped
    with Ctrl-C; its output matches each of the patterns ``expected``."""

    def check(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
        status, output = run_then_stop(
            step, folder, lambda text: re.search(ready, text, re.M), limit=limit
        )
        assert re.search(ready, output, re.M), output[-3000:]
        for pattern in expected:
            assert re.search(pattern, output, re.M), f"{step}: no {pattern!r} in\n{output[-3000:]}"

    return check


def served(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def serves(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
    """The page's server answers with the page and its modules, then stops on Ctrl-C."""
    answered = []

    def ready(text: str) -> bool:
        answered.append(
            served("http://localhost:8000/") and served("http://localhost:8000/js/api.js")
        )
        return answered[-1]

    run_then_stop(step, folder, ready, limit=60)
    assert any(answered), f"{step}: nothing served at http://localhost:8000/"


def tensorboard(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
    status, output = run_then_stop(step, folder, lambda text: "http://" in text, limit=120)
    assert "TensorBoard" in output and "http://" in output, output[-2000:]


def screenshots(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
    """The page's tests pass in headless Chromium and leave their screenshots in the scratch
    folder's copy of docs/screenshots."""
    if not shutil.which("chromium"):
        pytest.skip(f"{step}: needs Debian's chromium (apt-get install -y chromium)")
    before = time.time()
    done = run(step, folder)
    assert done.returncode == 0, said(done)
    taken = [path for path in (folder / "docs" / "screenshots").glob("*.png")]
    assert any(path.stat().st_mtime >= before for path in taken), f"{step} took no screenshot"


OPENING_TIME = re.compile(r" in [\d.]+\s+(?:seconds|minutes|hours)(?=\s+with\s+\d+\s+worker)")


def writes_the_opening_tables(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
    """The opening tables' command writes docs/opening.md and docs/analysis.md of the
    repository it runs from (``python -m`` takes the packages from the folder it runs in):
    here a copy of the packages and documents in a folder of its own, whose documents must
    come out as the repository's are, word for word: the same plays in the same order, each
    figure within one of its last digit, the time the rollouts took aside."""
    copy = folder / "opening"
    if not copy.exists():
        copy.mkdir()
        for name in ("agents", "tapa_env"):
            shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "docs").mkdir()
        (copy / "checkpoints").symlink_to(ROOT / "checkpoints", target_is_directory=True)
    for name in ("opening.md", "analysis.md"):
        shutil.copy(ROOT / "docs" / name, copy / "docs" / name)
    done = subprocess.run(
        shlex.split(step),
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=6 * 3600,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert done.returncode == 0, said(done)
    for name in ("opening.md", "analysis.md"):
        # word by word: the time taken, left out, may wrap its paragraph otherwise
        written = OPENING_TIME.sub("", (copy / "docs" / name).read_text()).split()
        published = OPENING_TIME.sub("", (ROOT / "docs" / name).read_text()).split()
        assert len(written) == len(published), f"{step} writes another docs/{name}"
        for at, (ours, theirs) in enumerate(zip(written, published, strict=True)):
            where = " ".join(published[max(0, at - 12) : at + 3])
            assert agree(ours, theirs), f"{step} writes {ours} in docs/{name} for: ...{where}"


NUMBER = re.compile(r"[-+]?\d+\.(\d+)")


def agree(written: str, published: str) -> bool:
    """Whether two lines are the same but for figures one apart in their last digit: the
    rollouts' sums can end a hair apart where the machine's floating point does."""
    if NUMBER.sub("#", written) != NUMBER.sub("#", published):
        return False
    for ours, theirs in zip(NUMBER.finditer(written), NUMBER.finditer(published), strict=True):
        unit = 10.0 ** -len(theirs.group(1))
        if abs(float(ours.group()) - float(theirs.group())) > 1.5 * unit:
            return False
    return True


def needs_a_second_machine(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
    """Two machines meet at the first one's address; this test has one machine."""
    assert shutil.which("torchrun"), "torchrun is not installed"
    host = re.search(r"--rdzv_endpoint=([^:\s]+)", step).group(1)
    done = run("torchrun --help", folder)
    assert done.returncode == 0 and "--rdzv_endpoint" in done.stdout, said(done)
    pytest.skip(f"{step}: needs a second machine, {host}, running the same command with it")


def needs_slurm(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
    """The sweep's jobs go to a SLURM cluster. Without one, Hydra reads the launcher and its
    settings as the command gives them, as far as it goes before it submits anything."""
    settings, words = split(step)
    launcher = [word for word in words if word.startswith("hydra")]
    done = run(shlex.join(["python", "train.py", *launcher, "--cfg", "hydra"]), folder)
    assert done.returncode == 0, said(done)
    assert "submitit_slurm" in done.stdout and "partition: cpu" in done.stdout, said(done)
    assert "timeout_min: 60" in done.stdout, said(done)
    if not shutil.which("sbatch"):
        pytest.skip(f"{step}: needs a SLURM cluster to submit to (no sbatch here)")
    trains(runs=4)(step, folder, shown)


def in_a_folder_of_its_own(check: Callable) -> Callable:
    """``check`` in a new scratch folder beside ``folder``, whose ``runs/`` is empty."""

    def checked(step: str, folder: Path, shown: list[tuple[str, ...]]) -> None:
        own = folder.parent / f"{folder.name}-{abs(hash(step))}"
        if not own.exists():
            own.mkdir()
            for name in (*BESIDE, *LINKED):
                (own / name).symlink_to(folder / name)
        check(step, own, shown)

    return checked


# --- the steps of the documents, and how each is checked -------------------------------------

TRAININGS = (
    "python train.py",
    "torchrun --standalone --nproc_per_node=2 train.py",
    "python train.py agent.hidden=[128,64] seed=1",
    "python train.py game=tabla",
    "python train.py game=gulbara rules.unplayable_to_opponent=false",
    "python train.py agent=ppo game=tabla",
    "python train.py agent=ppo game=gulbara total_games=30000",
    "python train.py --multirun agent.hidden=40,80 seed=1,2",
)
"""The training runs, which run side by side before the steps that read what they write."""

SWEEP = "python train.py --multirun agent.hidden=40,80 seed=1,2"
JOBLIB_SWEEP = "python train.py --multirun hydra/launcher=joblib agent.hidden=40,80 seed=1,2"
EXPORTED = "python export.py checkpoint=runs/default/checkpoints/bot.pt"
TAPA_ONNX = (
    "python export.py checkpoint=runs/default/checkpoints/bot.pt out=bots/tapa.npz onnx=true",
    "python export.py checkpoint=runs/default/checkpoints/last.pt out=bots/tapa.npz onnx=true",
)
TABLA_ONNX = "python export.py checkpoint=checkpoints/tabla-td.pt out=bots/tabla.npz onnx=true"
WRITTEN = "results written to"

CHECKS: dict[str, Check] = {
    # analysis.md
    "python analyze.py position='24:15|1:15|' dice=4,4 trials=0": Check(
        finishes("No rollout (trials=0)", "24/20(4)")
    ),
    "python analyze.py position='24:15|1:15|' dice=6,5": Check(
        finishes("Rollout: 1296 trials", "24/19 24/18"), "long"
    ),
    "python analyze.py position='13:2,18:1,19:1,24:11|1:13,6:1,7:1|' dice=3,1": Check(
        finishes(), "long"
    ),
    "python analyze.py position='13:2,18:1,19:1,24:11|1:13,6:1,7:1|' dice=3,1 out=plays.json": (
        Check(finishes("24/21 19/18", files=("plays.json",)), "long")
    ),
    "python analyze.py position='24:15|1:15|' dice=5,2 truncate=10 candidates=0 trials=2592": (
        Check(finishes("Rollout: 2592 trials", "truncated at 10 turns"), "long")
    ),
    "python analyze.py game=tabla position='tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0' "
    "dice=6,4 trials=648 candidates=4": Check(finishes("player checkpoints/tabla-td.pt")),
    "python analyze.py game=gulbara position='gulbara/13:3,16:3,20:4,24:5|1:3,4:3,8:4,12:5|own,"
    "0,0,0,3,3' dice=5,5 trials=324 candidates=3": Check(
        finishes("player checkpoints/gulbara-td.pt")
    ),
    "python evaluate.py game=tabla players=[checkpoints/tabla-td.pt,pubeval] games=400 "
    "variance_reduction=true reference=checkpoints/tabla-td.pt": Check(
        # the figures of docs/analysis.md's table of luck in Tabla and Gulbara
        finishes("+0.550 [ +0.430, +0.670]", "+0.472 [ +0.426, +0.518] 2.6x narrower", WRITTEN),
        "long",
    ),
    "python evaluate.py game=gulbara players=[checkpoints/gulbara-td.pt,runner] games=400 "
    "variance_reduction=true reference=checkpoints/gulbara-td.pt": Check(
        finishes("+1.062 [ +0.944, +1.181]", "+1.050 [ +0.985, +1.116] 1.8x narrower", WRITTEN),
        "long",
    ),
    "python -m agents.analysis.opening --trials 5184 --candidates 5 --seed 0 --write": Check(
        writes_the_opening_tables, "long"
    ),
    "python -m agents.analysis.opening --game tabla --trials 5184 --candidates 5 --seed 0 "
    "--write": Check(writes_the_opening_tables, "long"),
    "python -m agents.analysis.opening --game gulbara --trials 5184 --candidates 5 --seed 0 "
    "--write": Check(writes_the_opening_tables, "long"),
    # bot-files.md and export.md
    EXPORTED: Check(finishes("bot file: runs/default/checkpoints/bot.npz"), "after", TRAININGS),
    "python evaluate.py players=[runs/default/checkpoints/bot.npz,adaptive]": Check(
        finishes(WRITTEN), "after", (EXPORTED,)
    ),
    **{
        export: Check(finishes("ONNX model: bots/tapa.onnx"), "after", TRAININGS)
        for export in TAPA_ONNX
    },
    "python examples/onnx_evaluate.py bots/tapa.onnx --dice 6 5": Check(
        finishes("(expert-v1)", "best play: "), "after", TAPA_ONNX
    ),
    TABLA_ONNX: Check(finishes("ONNX model: bots/tabla.onnx", files=("bots/tabla.onnx",))),
    "python examples/onnx_evaluate.py bots/tabla.onnx --dice 6 4": Check(
        finishes(), after=(TABLA_ONNX,)
    ),
    # bots.md
    "python evaluate.py players=[checkpoints/tapa-td.pt,offensive] variance_reduction=true": (
        Check(finishes("luck-adjusted", WRITTEN), "long")
    ),
    "python evaluate.py players=[examples.custom_player:CarefulPinner,random,defensive] "
    "games=100": Check(
        # docs/bots.md: it wins 90 of 100 games against random and 11 of 100 against defensive
        finishes(
            re.compile(r"CarefulPinner vs random +100 .* 90\.0% "),
            re.compile(r"CarefulPinner vs defensive +100 .* 11\.0% "),
            WRITTEN,
        ),
        "long",
    ),
    "python evaluate.py": Check(finishes(WRITTEN), "long"),  # shown in docs/bots.md
    # match.md
    "python evaluate.py match_length=7": Check(
        stops(r"[1-9]\d*/6000 \[", r"stopped by SIGINT after \d+ of 6000 matches"), "long"
    ),
    "python evaluate.py match_length=7 players=[shipped,pubeval+runner+offensive] games=1000": (
        Check(finishes(WRITTEN), "long")
    ),
    "python play.py match_length=7": Check(plays("A tabla match to 7 points"), "long"),
    "python -m agents.match 7": Check(finishes("**Tabla to come, you start it.**"), "long"),
    # docs/match.md's first row: 6-5, Tabla to come
    "python bench/match_play.py --matches 8000": Check(
        stops(r"^6-5\s+Tabla .*\n", r"^6-5\s+Tabla\s+51\.7% \[\s*50\.8%,\s+52\.6%\]\s+63\.6%"),
        "long",
    ),
    "python play.py match_games=tavli": Check(plays("A tavli match to 7 points"), "long"),
    "python evaluate.py match_games=tavli games=1000": Check(finishes(WRITTEN), "long"),
    "python -m agents.match 7 --match tavli": Check(
        finishes("**Portes to come, you start it.**"), "long"
    ),
    # docs/match.md's tavli table, first row: 6-5, Portes to come
    "python bench/match_play.py --matches 8000 --match tavli": Check(
        stops(r"^6-5\s+Portes .*\n", r"^6-5\s+Portes\s+51\.2% \[\s*50\.2%,\s+52\.1%\]\s+63\.3%"),
        "long",
    ),
    # opening.md: above; play.md
    "python play.py": Check(plays("tapa-td@2ply"), "long"),
    "python play.py opponent=defensive match=7": Check(plays("a match to 7 points")),
    "python play.py opponent=runs/default/checkpoints/bot.pt@2ply hint_player=adaptive": Check(
        plays(), "after", TRAININGS
    ),
    "python play.py opponent=checkpoints/tapa-td.pt@3ply": Check(plays("tapa-td@3ply")),
    "python play.py game=tabla": Check(
        plays("Tabla (backgammon): you play O against tabla-td@2ply")
    ),
    "python play.py game=gulbara opponent=blocker": Check(
        plays("Gulbara: you play O against blocker")
    ),
    "python play.py game=tabla seed=1 first=you": Check(plays(stdin="1\n\n" * 3 + "quit\n")),
    "python play.py game=gulbara seed=1 first=you": Check(plays(stdin="1\n\n" * 18 + "quit\n")),
    "python play.py match_length=3 seed=7 confirm=false": Check(
        finishes("bot wins the match to 3", stdin="hint\n" + "1\n" * 400)
    ),
    "python -m http.server -d web": Check(serves, "long"),
    # training.md
    **{training: Check(trains(), "training") for training in TRAININGS if training != SWEEP},
    SWEEP: Check(trains(runs=4), "training"),
    "python train.py total_games=1200000": Check(
        trains("resumed from"), "after", ("python train.py",)
    ),
    "tensorboard --logdir runs": Check(tensorboard, "after", TRAININGS),
    "python evaluate.py players=[runs/default/checkpoints/last.pt,defensive,adaptive]": Check(
        finishes(WRITTEN), "after", TRAININGS
    ),
    "python evaluate.py game=tabla players=[runs/game-tabla/checkpoints/bot.pt,random]": Check(
        finishes(WRITTEN), "after", TRAININGS
    ),
    "python evaluate.py game=tabla players=[runs/agent-ppo+game-tabla/checkpoints/bot.pt,"
    "pubeval]": Check(finishes(WRITTEN), "after", TRAININGS),
    # A run resumes with as many processes as started it: this one needs a runs/default of its
    # own, not the one python train.py started (docs/training.md says so).
    "torchrun --standalone --nproc_per_node=2 train.py": Check(
        in_a_folder_of_its_own(trains(launcher=True)), "training"
    ),
    "torchrun --nnodes=2 --nproc_per_node=2 --node_rank=0 --rdzv_backend=c10d "
    "--rdzv_endpoint=first-host:29500 --rdzv_id=tapa train.py": Check(
        needs_a_second_machine, "lacking"
    ),
    JOBLIB_SWEEP: Check(in_a_folder_of_its_own(trains(runs=4)), "long"),
    "python train.py --multirun hydra/launcher=submitit_slurm hydra.launcher.partition=cpu "
    "hydra.launcher.timeout_min=60 agent.hidden=40,80 seed=1,2": Check(needs_slurm, "lacking"),
    "python evaluate.py 'players=[runs/sweep/*/checkpoints/bot.pt,defensive]'": Check(
        finishes(WRITTEN), "after", (SWEEP,)
    ),
    # web.md
    "python tests/scripts/export_web_vectors.py /tmp/tapa-web-vectors": Check(finishes(), "long"),
    "python tests/scripts/export_web_game_vectors.py /tmp/tapa-web-vectors": Check(
        finishes(), "long"
    ),
    "TAPA_WEB_VECTORS=/tmp/tapa-web-vectors node --test web/test/": Check(
        finishes("# fail 0"),
        "long",
        (
            "python tests/scripts/export_web_vectors.py /tmp/tapa-web-vectors",
            "python tests/scripts/export_web_game_vectors.py /tmp/tapa-web-vectors",
        ),
    ),
    "TAPA_SCREENSHOTS=docs/screenshots python -m pytest tests/test_web_page.py "
    "tests/test_web_page_games.py tests/test_web_match.py": Check(screenshots, "long"),
}
"""How each step of the documents is checked, by the step as they write it."""


def tier(name: str) -> list[str]:
    return [step for step in docs_steps() if step in CHECKS and CHECKS[step].tier == name]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A folder from which the documents' commands run as written."""
    folder = tmp_path_factory.mktemp("docs")
    for name in BESIDE:
        (folder / name).symlink_to(ROOT / name)
    for name in LINKED:
        (folder / name).symlink_to(ROOT / name, target_is_directory=(ROOT / name).is_dir())
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.png")
    for name in COPIED:
        shutil.copytree(ROOT / name, folder / name, ignore=ignore)
    return folder


def run_side_by_side(selected: list[str], folder: Path, width: int) -> None:
    """Check ``selected`` steps, ``width`` at a time, each once the steps it reads from (of
    ``selected``) are done; then fail with every failure, if any."""
    shown = docs_steps()
    finished = {step: threading.Event() for step in selected}
    failures: dict[str, str] = {}
    slots = threading.Semaphore(width)

    def work(step: str) -> None:
        try:
            for before in CHECKS[step].after:
                if before in finished:
                    finished[before].wait()
                if before in failures:
                    raise AssertionError(f"not run: {before} failed")
            with slots:
                CHECKS[step].how(step, folder, shown[step])
        except BaseException as error:  # noqa: BLE001  (pytest's outcomes are BaseExceptions)
            failures[step] = f"{type(error).__name__}: {error}"
        finally:
            finished[step].set()

    threads = [threading.Thread(target=work, args=(step,)) for step in selected]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, "\n\n".join(f"{step}\n  {why}" for step, why in failures.items())


# --- the tests ---------------------------------------------------------------------------


def test_every_docs_command_is_known_here():
    unknown = [step for step in docs_steps() if step not in CHECKS]
    assert not unknown, f"commands of docs/ this test does not run: {unknown}"
    for step, check in CHECKS.items():
        assert set(check.after) <= set(CHECKS), f"{step} runs after a step this test lacks"


def test_the_commands_are_read_as_the_convention_says(tmp_path):
    (tmp_path / "a.md").write_text(
        "```bash\npython a.py x=1   # a comment\n# a comment alone\npython b.py \\\n"
        "    y=2 && python c.py\n```\n\n```\n$ python d.py \\\n    z=3\nits output\n\n...\n"
        "more\n$ python e.py\n```\n\n```\npython f.py\n```\n\n```text\nno command here\n```\n"
        "\n```python\nprint(1)\n```\n"
    )
    found = document_commands(tmp_path / "a.md")
    assert found == [
        Command("a.md", "python a.py x=1"),
        Command("a.md", "python b.py y=2 && python c.py"),
        Command("a.md", "python d.py z=3", ("its output", "", "...", "more")),
        Command("a.md", "python e.py"),
        Command("a.md", "python f.py"),
    ]
    assert split("NAME=/tmp/x node --test web/") == ({"NAME": "/tmp/x"}, ["node", "--test", "web/"])
    assert_shows("a\nb  \nc\nd\n", ("b", "...", "d"), "step")
    assert_shows("in games/2026-12-04_14-34-45.tapa\n", ("in games/2026-12-03_09-20-41.tapa",), "")
    with pytest.raises(pytest.fail.Exception):
        assert_shows("a\nb\n", ("b", "a"), "step")
    assert agree("| 24/22(4) | +0.129 | 21.2 |", "| 24/22(4) | +0.129 | 21.1 |")
    assert not agree("| 24/22(4) | +0.131 | 21.1 |", "| 24/22(4) | +0.129 | 21.1 |")
    assert not agree("| 24/22(2) | +0.129 | 21.1 |", "| 24/22(4) | +0.129 | 21.1 |")


def test_the_docs_quick_commands_run_as_written(scratch):
    quick = tier("quick")
    assert TABLA_ONNX in quick and "python play.py game=tabla" in quick
    with ctrl_c_reaches_the_commands():
        run_side_by_side(quick, scratch, width=3)


@pytest.mark.slow
def test_the_docs_training_commands_and_what_reads_their_runs_run_as_written(scratch):
    trainings, after = tier("training"), tier("after")
    assert set(trainings) == set(TRAININGS) and after
    with ctrl_c_reaches_the_commands():
        run_side_by_side(trainings, scratch, width=4)
        run_side_by_side(after, scratch, width=2)


FAILING = {
    JOBLIB_SWEEP: "Ctrl-C ends Hydra's joblib launcher with a KeyboardInterrupt, and the jobs "
    "it runs end with it before they write their checkpoints and say how to resume",
}
"""Documented commands that do not yet do what the documents say, and why."""


def long_steps() -> list:
    return [
        pytest.param(step, marks=pytest.mark.xfail(reason=FAILING[step], strict=True))
        if step in FAILING
        else step
        for step in tier("long")
    ]


@pytest.mark.slow
@pytest.mark.parametrize("step", long_steps(), ids=lambda step: step[:90])
def test_a_long_docs_command_runs_as_written(step, scratch):
    with ctrl_c_reaches_the_commands():
        run_side_by_side([*CHECKS[step].after, step], scratch, width=1)


@pytest.mark.parametrize("step", tier("lacking"), ids=lambda step: step[:90])
def test_a_docs_command_that_needs_what_this_machine_lacks(step, scratch):
    CHECKS[step].how(step, scratch, docs_steps()[step])
