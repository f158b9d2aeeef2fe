"""A round robin survives a lost worker process: the games it was playing are played again
(same dice, same results), the progress counts finished games only, and games that kill their
worker every time stop the run with one line."""

from __future__ import annotations

import json
import multiprocessing
import operator
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import agents.evaluation.round_robin as round_robin_module
import agents.evaluation.tournament as tournament
from agents.evaluation.round_robin import lost_line
from agents.evaluation.tournament import TournamentConfig, round_robin
from agents.evaluation.workers import TRIES, WorkerDied, play_in_workers
from agents.match.tournament import match_round_robin

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "tests" / "scripts"
MARKER = "TAPA_TEST_KILL_MARKER"  # crashing_players.MARKER


@pytest.fixture
def crashing_players(monkeypatch, tmp_path):
    """tests/scripts on the path (the spawned workers inherit it), small chunks, and the
    marker file of KillsItsWorkerOnce in ``tmp_path``; the marker's path."""
    monkeypatch.setattr(sys, "path", [str(SCRIPTS), *sys.path])
    monkeypatch.setattr(tournament, "CHUNK_UNITS", 8)  # 16 games a chunk: several per pairing
    marker = tmp_path / "killed"
    monkeypatch.setenv(MARKER, str(marker))
    return marker


def played(config: TournamentConfig) -> tuple[dict, list[int], list[str]]:
    """The results of a round robin, the progress it reported, and its notices."""
    steps: list[int] = []
    notices: list[str] = []
    results = round_robin(config, progress=steps.append, notice=notices.append)
    return results, steps, notices


def test_a_killed_worker_costs_nothing_but_time(crashing_players):
    config = TournamentConfig(
        players=["crashing_players:KillsItsWorkerOnce", "offensive"], games=96, seed=3, workers=2
    )
    crashing_players.touch()  # the kill is done already: an undisturbed run
    undisturbed, steps, notices = played(config)
    assert notices == [] and sum(steps) == 96
    crashing_players.unlink()
    results, steps, notices = played(config)
    assert crashing_players.exists()  # a worker did kill itself
    assert json.dumps(results) == json.dumps(undisturbed)
    assert sum(steps) == 96  # every game counted once: the replayed ones when they finished
    assert len(notices) == 1, notices
    found = re.fullmatch(
        r"a worker process was lost \(killed by SIGKILL\); the (\d+) games in play are played "
        r"again in a new pool, with the same dice",
        notices[0],
    )
    assert found, notices[0]
    assert 0 < int(found.group(1)) <= 2 * 16 and int(found.group(1)) % 16 == 0


def test_results_come_in_chunk_order_whoever_finishes_first(crashing_players):
    # Three pairings over two workers, and one lost worker: the results are the single
    # process's, chunk by chunk.
    crashing_players.touch()
    players = ["crashing_players:KillsItsWorkerOnce", "offensive", "random"]
    one = round_robin(TournamentConfig(players=players, games=64, seed=5, workers=1))
    crashing_players.unlink()
    two, _, notices = played(TournamentConfig(players=players, games=64, seed=5, workers=2))
    assert len(notices) == 1
    assert one["pairings"] == two["pairings"] and one["ratings"] == two["ratings"]


def test_games_that_kill_their_worker_every_time_stop_the_round_robin(crashing_players):
    players = ["offensive", "crashing_players:KillsItsWorker", "random"]
    config = TournamentConfig(players=players, games=32, workers=2)
    steps: list[int] = []
    notices: list[str] = []
    with pytest.raises(WorkerDied) as stopped:
        round_robin(config, progress=steps.append, notice=notices.append)
    message = str(stopped.value)
    assert re.fullmatch(
        r"(offensive vs crashing_players:KillsItsWorker|crashing_players:KillsItsWorker vs "
        rf"random), games \d+-\d+: its worker process died {TRIES} times \(killed by SIGKILL\)",
        message,
    ), message
    assert notices and all(
        n.startswith("a worker process was lost (killed by SIGKILL)") for n in notices
    )
    # Only offensive vs random can finish: the progress never counts more than its games.
    assert sum(steps) <= 32 and all(step > 0 for step in steps)


def test_an_exception_in_a_chunk_comes_back_as_it_is_and_is_not_replayed(crashing_players):
    config = TournamentConfig(
        players=["offensive", "crashing_players:RaisesInPlay"], games=32, workers=2
    )
    steps: list[int] = []
    notices: list[str] = []
    with pytest.raises(RuntimeError, match="a bug in this player"):
        round_robin(config, progress=steps.append, notice=notices.append)
    assert notices == [] and steps == []


@pytest.mark.parametrize(
    ("in_play", "played", "line"),
    [
        (
            0,
            "matches",
            "a worker process was lost (killed by SIGKILL) before any match was in play: "
            "nothing is played again; the matches go on in a new pool",
        ),
        (
            1,
            "games",
            "a worker process was lost (killed by SIGKILL); the 1 game in play is played again "
            "in a new pool, with the same dice",
        ),
        (
            64,
            "matches",
            "a worker process was lost (killed by SIGKILL); the 64 matches in play are played "
            "again in a new pool, with the same dice",
        ),
    ],
)
def test_the_line_of_a_lost_worker_says_what_is_played_again(in_play, played, line):
    assert lost_line("killed by SIGKILL", in_play, played) == line


def test_a_match_round_robin_says_nothing_was_in_play_when_no_match_was(monkeypatch):
    # Workers lost twice: first before any of them took a chunk, then with one pair in play.
    def losing(function, items, workers, context, describe, finished=None, lost=None):
        lost([], "killed by SIGKILL")
        lost([0], "killed by SIGKILL")
        return [function(*item) for item in items]

    monkeypatch.setattr(round_robin_module, "play_in_workers", losing)
    notices: list[str] = []
    config = TournamentConfig(
        players=["random", "pubeval+runner+offensive"], games=2, match_length=1, workers=2
    )
    match_round_robin(config, notice=notices.append)
    assert notices == [
        lost_line("killed by SIGKILL", 0, "matches"),
        lost_line("killed by SIGKILL", 2, "matches"),
    ]
    assert "the 0 matches" not in notices[0] and "before any match was in play" in notices[0]


def run_evaluate(tmp_path: Path, *overrides: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(SCRIPTS)]))
    return subprocess.run(
        [sys.executable, "evaluate.py", f"hydra.run.dir={tmp_path / 'run'}", *overrides],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
    )


def test_evaluate_stops_in_one_line_when_games_kill_their_worker_every_time(tmp_path):
    out = tmp_path / "results.json"
    done = run_evaluate(
        tmp_path,
        "players=[crashing_players:KillsItsWorker,offensive,random]",
        "games=4",
        "workers=2",
        f"out={out}",
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.rstrip("\n").split("\n")
    errors = [line for line in lines if "error" in line]
    assert errors == [lines[-1]], done.stderr
    assert re.fullmatch(
        r"evaluate\.py: error: crashing_players:KillsItsWorker vs (offensive|random), "
        rf"games 1-4: its worker process died {TRIES} times \(killed by SIGKILL\)",
        lines[-1],
    ), lines[-1]
    assert "a worker process was lost (killed by SIGKILL)" in done.stderr
    # The bar shows finished games only: at most offensive vs random's 4 of the 12.
    shown = [int(n) for n in re.findall(r"\| *(\d+)/12 \[", done.stderr)]
    assert shown and max(shown) <= 4, done.stderr
    assert not out.exists() and not (tmp_path / "run" / "results.json").exists()
    assert done.stdout == ""


# --- agents.evaluation.workers on its own ------------------------------------------------

SPAWN = multiprocessing.get_context("spawn")


def test_play_in_workers_returns_the_results_in_the_order_of_the_items():
    items = [(abs, -number) for number in range(12)]
    finished: list[int] = []
    results = play_in_workers(operator.call, items, 3, SPAWN, str, finished=finished.append)
    assert results == list(range(12))
    assert sorted(finished) == list(range(12))


def test_the_item_that_kills_its_worker_is_named_though_others_were_in_play():
    items = [(abs, -1), (abs, -2), (signal.raise_signal, signal.SIGKILL), (abs, -3)]
    finished: list[int] = []
    lost: list[tuple[list[int], str]] = []
    with pytest.raises(WorkerDied) as stopped:
        play_in_workers(
            operator.call,
            items,
            2,
            SPAWN,
            lambda index: f"item {index}",
            finished=finished.append,
            lost=lambda playing, cause: lost.append((playing, cause)),
        )
    assert (
        str(stopped.value) == f"item 2: its worker process died {TRIES} times (killed by SIGKILL)"
    )
    assert 2 not in finished and len(finished) == len(set(finished))
    assert lost and all(cause == "killed by SIGKILL" for _, cause in lost)
    assert [2] in [playing for playing, _ in lost]  # played alone, it died alone


def test_workers_that_die_before_playing_anything_stop_the_work(tmp_path, monkeypatch):
    # The workers cannot import the function's module (gone after the parent imported it).
    (tmp_path / "vanishing_work.py").write_text("def double(x):\n    return 2 * x\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    import vanishing_work

    try:
        (tmp_path / "vanishing_work.py").unlink()
        with pytest.raises(WorkerDied, match=rf"^worker processes died {TRIES} times before"):
            play_in_workers(vanishing_work.double, [(1,), (2,)], 2, SPAWN, str)
    finally:
        del sys.modules["vanishing_work"]
