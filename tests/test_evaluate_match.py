"""evaluate.py match_length=N: whole tabla matches between match sides, their table and JSON,
and the settings a match refuses."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_evaluate import run_evaluate

from agents.errors import ConfigError, MatchError
from agents.evaluation.tournament import TournamentConfig
from agents.match.tournament import check_match_config, match_round_robin

ROOT = Path(__file__).resolve().parents[1]


def test_evaluate_plays_whole_tabla_matches_and_reports_match_wins(tmp_path):
    out = tmp_path / "results.json"
    done = run_evaluate(
        tmp_path,
        "match_length=3",
        "games=8",
        "workers=1",
        "players=[shipped,random]",
        f"out={out}",
    )
    assert done.returncode == 0, done.stderr
    assert "Matches to 3: tabla -> gulbara -> tapa" in done.stdout
    assert "shipped vs random" in done.stdout
    pairing = json.loads(out.read_text())["pairings"][0]
    assert pairing["players"] == ["shipped", "random"]
    assert pairing["matches"] == 8 and pairing["match_length"] == 3
    assert pairing["wins"] + pairing["losses"] == 8 and pairing["draws"] == 0
    assert pairing["win_rate"] == pairing["wins"] / 8 > 0.5
    assert pairing["win_rate_ci95"][0] <= pairing["win_rate"] <= pairing["win_rate_ci95"][1]
    assert set(pairing["by_game"]) <= {"tabla", "gulbara", "tapa"} and "tabla" in pairing["by_game"]
    assert sum(g["games"] for g in pairing["by_game"].values()) == pairing["games"] >= 8


CONFIG = TournamentConfig(
    players=["shipped", "pubeval+runner+offensive"], games=4, match_length=3, workers=1
)


def test_match_results_do_not_depend_on_how_the_matches_are_split(monkeypatch):
    whole = match_round_robin(CONFIG)["pairings"][0]
    monkeypatch.setattr("agents.match.tournament.CHUNK_PAIRS", 1)  # a chunk a pair
    assert match_round_robin(CONFIG)["pairings"][0] == whole


@pytest.mark.slow
def test_match_results_do_not_depend_on_the_workers(monkeypatch):
    monkeypatch.setattr("agents.match.tournament.CHUNK_PAIRS", 1)
    one = match_round_robin(CONFIG)["pairings"][0]
    assert match_round_robin(replace(CONFIG, workers=2))["pairings"][0] == one


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"match_length": 0}, ConfigError, "match_length"),
        ({"match_points": 5}, ConfigError, "match_points and match_length"),
        ({"game": "tabla"}, ConfigError, "leave game and rules out"),
        ({"variance_reduction": True}, ConfigError, "variance_reduction"),
        ({"draw_starter": "loser"}, ConfigError, "draw_starter"),
        ({"match_order": ["tabla", "go"]}, ConfigError, "match order"),
        ({"players": ["shipped", "pubeval"]}, MatchError, "no player for gulbara, tapa"),
        ({"games": 3}, ConfigError, "even"),
    ],
)
def test_a_match_setting_that_cannot_work_is_refused_before_any_match(change, error, words):
    config = replace(TournamentConfig(players=["shipped", "random"], match_length=7), **change)
    with pytest.raises(error, match=words) as raised:
        check_match_config(config)
    assert "\n" not in str(raised.value)


def test_a_bad_match_side_ends_evaluate_in_one_line_with_status_2(tmp_path):
    done = run_evaluate(tmp_path, "match_length=7", "players=[shipped,offensive]")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "evaluate.py: error: offensive: no player for tabla, gulbara; a match of tabla, "
        "gulbara, tapa needs one for each game: 'shipped', random, or players joined by + "
        "(pubeval+runner+offensive)"
    ]


def test_evaluate_keeps_every_match_as_a_game_record_that_reads_back(tmp_path):
    from agents.records import read_record
    from agents.records.data import match_result

    folder = tmp_path / "records"
    config = replace(CONFIG, games=2, record_games=str(folder))
    pairing = match_round_robin(config)["pairings"][0]
    files = sorted((folder / "01-shipped-vs-pubeval_runner_offensive").glob("match-*.tapa"))
    assert [f.name for f in files] == ["match-00001.tapa", "match-00002.tapa"]
    won = 0
    for file in files:
        record = read_record(file)
        assert record.order == ("tabla", "gulbara", "tapa") and record.match_points == 3
        assert [g.rules.game if g.rules else record.game for g in record.games] == [
            ("tabla", "gulbara", "tapa")[n % 3] for n in range(len(record.games))
        ]
        assert max(record.score()) >= 3 > min(record.score())
        assert "wins" in match_result(record.score(), 3)
        won += record.score()[0] >= 3
    assert won == pairing["wins"]
