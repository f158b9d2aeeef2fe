"""Tabla's races use the one-sided bear-off database: Tabla bears off exactly as the tables
were played (T6), the tables equal GNU Backgammon's one-sided database (``bearoffdump``), and
a Tabla bot values its races by them."""

from __future__ import annotations

import base64
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from boards import tabla_board

from agents.bearoff.database import race_equities_after, race_positions
from agents.bearoff.store import shared_database
from agents.bearoff.tables import HOME, arrangement_index
from agents.bots.search import ROLLS
from agents.td.dense_evaluator import DenseEvaluator
from agents.td.player import TDPlayer
from tapa_env.layout import OWN_BAR, POINTS
from tapa_env.movegen import generate_afterstates
from tapa_env.rules import Rules, TablaRules

BEAROFFDUMP = Path("/usr/games/bearoffdump")
GNUBG_DATABASE = Path("/usr/share/gnubg/gnubg_os0.bd")


def random_races(count: int, seed: int) -> np.ndarray:
    """Tabla rows of races: each side 1-15 checkers spread over its home, the rest off."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(count):
        own = rng.multinomial(rng.integers(1, 16), np.ones(HOME) / HOME)
        opp = rng.multinomial(rng.integers(1, 16), np.ones(HOME) / HOME)
        rows.append(
            tabla_board(
                {p + 1: int(n) for p, n in enumerate(own) if n},
                {POINTS - p: int(n) for p, n in enumerate(opp) if n},
            ).row
        )
    return np.stack(rows)


def test_T6_tabla_bears_off_with_the_very_plays_the_tables_were_made_with():
    # The tables were played by the engine under Tapa's rules; in a race (no bar, nothing in
    # reach) Tabla's rules give the same distinct afterstates for every roll.
    races = random_races(150, seed=3)
    assert race_positions(races, check=False).all()
    rolled = np.repeat(races, len(ROLLS), axis=0)
    dice = np.tile(ROLLS, (len(races), 1))
    tabla, tabla_offsets = generate_afterstates(rolled, dice, rules=TablaRules())
    tapa, tapa_offsets = generate_afterstates(rolled, dice, rules=Rules(), check=False)
    assert np.array_equal(tabla_offsets, tapa_offsets)
    for turn in range(len(rolled)):
        mine = tabla[tabla_offsets[turn] : tabla_offsets[turn + 1]]
        theirs = tapa[tapa_offsets[turn] : tapa_offsets[turn + 1]]
        assert {r.tobytes() for r in mine} == {r.tobytes() for r in theirs}


def gnubg_arrangement(position_id: str) -> tuple[str, np.ndarray]:
    """The side (``Player`` or ``Opponent``) holding checkers in a one-sided dump's position,
    and its counts on points 1-6, decoded from gnubg's Position ID (80 bits: for each side,
    for each of its points 1-24 and the bar, as many 1s as checkers, then a 0)."""
    bits = np.unpackbits(
        np.frombuffer(base64.b64decode(position_id + "=="), dtype=np.uint8), bitorder="little"
    )
    sides, counts, run = [], [], 0
    for bit in bits:
        if bit:
            run += 1
            continue
        counts.append(run)
        run = 0
        if len(counts) == 25:
            sides.append(np.array(counts[:HOME]))
            counts = []
        if len(sides) == 2:
            break
    # The dump shows the side on roll ("Player") second in the ID.
    return ("Opponent", sides[0]) if sides[0].sum() else ("Player", sides[1])


@pytest.mark.skipif(
    not (BEAROFFDUMP.exists() and GNUBG_DATABASE.exists()),
    reason="GNU Backgammon is not installed (apt-get install -y --no-install-recommends gnubg)",
)
def test_the_tables_equal_gnu_backgammons_one_sided_database():
    database = shared_database()
    compared = 0
    for number in np.random.default_rng(11).integers(1, 54264, size=12):
        dump = subprocess.run(
            [str(BEAROFFDUMP), str(GNUBG_DATABASE), "-n", str(number)],
            capture_output=True, text=True, timeout=60, check=True,
        ).stdout  # fmt: skip
        side, counts = gnubg_arrangement(re.search(r"Position ID: (\S+)", dump).group(1))
        column = 0 if side == "Player" else 1
        table = dump.split("Rolls\tPlayer")[1].split("Average rolls")[0]
        gnubg = {}
        for line in table.splitlines()[1:]:
            fields = line.split()
            if len(fields) >= 3:
                gnubg[int(fields[0])] = float(fields[1 + column]) / 100
        ours = database.turns[arrangement_index(counts[None, :])[0]]
        for turns, chance in gnubg.items():
            assert ours[turns] == pytest.approx(chance, abs=5e-5), (counts, turns)
        mean = float(re.search(r"Mean\s+(\S+)\s+(\S+)", dump).group(1 + column))
        assert database.expected_turns[arrangement_index(counts[None, :])[0]] == pytest.approx(
            mean, abs=1e-3
        )
        compared += 1
    assert compared == 12


def test_a_tabla_bot_values_its_races_by_the_database():
    rng = np.random.default_rng(2)
    layers = [
        (rng.normal(0, 0.3, (8, 204)).astype(np.float32), np.zeros(8, np.float32)),
        (rng.normal(0, 0.5, (5, 8)).astype(np.float32), np.zeros(5, np.float32)),
    ]
    evaluator = DenseEvaluator("expert", "sigmoid", layers, game="tabla")
    player = TDPlayer(evaluator, rules=TablaRules())
    races = random_races(20, seed=5)
    exact = race_equities_after(races, check=False)[1]
    np.testing.assert_allclose(player.equities(races), exact, atol=1e-6)
    unaided = TDPlayer(evaluator, rules=TablaRules(), bearoff=False)
    assert not np.allclose(unaided.equities(races), exact, atol=1e-3)
    on_the_bar = races[:1].copy()
    on_the_bar[0, OWN_BAR] = 1  # one of the mover's off checkers put on the bar instead
    assert not race_positions(on_the_bar, check=False)[0]
