"""What every training run shares (agents/runs): evaluation while training under the run's
own rules, for each algorithm; the run skeleton's cadence."""

from __future__ import annotations

import math
from dataclasses import asdict

import pytest
from small_runs import ALGORITHMS

import agents.evaluation.arena as arena
from agents.runs.skeleton import next_multiple
from tapa_env.rules import Rules

VARIANT = Rules(both_mothers_draw=False, mother_needs_empty_start=False)


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_a_variant_rules_run_evaluates_in_its_own_game(algorithm, tmp_path, monkeypatch):
    played = []
    real_play_games = arena.play_games

    def spying(players, games, *args, **kwargs):
        played.append((kwargs.get("rules"), [getattr(p, "rules", None) for p in players]))
        return real_play_games(players, games, *args, **kwargs)

    monkeypatch.setattr(arena, "play_games", spying)
    train, config = ALGORITHMS[algorithm]
    result = train(config(rules=asdict(VARIANT), eval_opponents=["defensive"]), tmp_path / "run")
    assert result.status == "finished" and played
    for rules, player_rules in played:
        assert rules == VARIANT
        assert player_rules == [VARIANT, VARIANT]  # the network and the heuristic bot alike


def test_the_cadence_is_the_next_multiple_and_never_for_zero():
    assert next_multiple(0, 25) == 25
    assert next_multiple(25, 25) == 50
    assert next_multiple(49, 25) == 50
    assert next_multiple(10, 0) == math.inf
