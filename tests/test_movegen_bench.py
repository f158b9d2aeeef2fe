"""bench/movegen.py: the engine's rates, and in Tabla OpenSpiel's beside them, both ways."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import openspiel_backgammon as openspiel
import pytest

ROOT = Path(__file__).resolve().parents[1]
OPENSPIEL_KEYS = (
    "openspiel_positions_per_second",
    "speedup",
    "openspiel_legal_actions_per_second",
    "speedup_legal_actions",
)


def bench(*arguments: str) -> tuple[str, dict[str, float]]:
    done = subprocess.run(
        [sys.executable, "bench/movegen.py", "--pool", "100", "--repeats", "1", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    figures = dict(re.findall(r"^(\w+) ([\d.]+)$", done.stdout, re.M))
    return done.stdout, {key: float(value) for key, value in figures.items()}


@pytest.mark.skipif(not openspiel.available(), reason="open-spiel (pyspiel) is not installed")
def test_tabla_is_timed_beside_openspiels_every_play_and_its_legal_actions_alone():
    stdout, figures = bench("--game", "tabla")
    assert "from random games in OpenSpiel's backgammon" in stdout
    assert set(OPENSPIEL_KEYS) | {"positions_per_second", "afterstates_per_second"} == set(figures)
    assert all(value > 0 for value in figures.values())
    both = re.findall(r"^OpenSpiel, (.+?): +[\d,]+ positions/s; the engine in turn", stdout, re.M)
    assert both == ["every complete play, a position a call", "legal_actions alone, less the call"]
    call = re.search(r"a legal_actions call takes ([\d.]+) us, of which ([\d.]+) us", stdout)
    assert call and "is the binding's call, as a current_player call takes" in stdout


def test_tapa_is_timed_alone():
    stdout, figures = bench("--game", "tapa")
    assert "from random self-play" in stdout and "OpenSpiel" not in stdout
    assert set(figures) == {"positions_per_second", "afterstates_per_second"}
