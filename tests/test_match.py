"""The tabla match (docs/rules.md, M1-M4): its rules and state, the match equity table, the
player that plays to the score, match sides and the match arena."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from agents.bots.equity import OUTCOME_POINTS
from agents.bots.loading import load_player
from agents.errors import MatchError
from agents.match.arena import play_matches
from agents.match.equity import MatchEquity
from agents.match.outcomes import RESULTS, load_outcomes, starter_counts
from agents.match.player import MatchPlayer
from agents.match.rules import MAX_LENGTH, ORDER, MatchRules
from agents.match.sides import load_side
from agents.match.state import MatchState
from tapa_env import Position, legal_afterstates
from tapa_env.rules import GAMES, default_rules


def test_M1_games_come_tabla_gulbara_tapa_and_round_again():
    rules = MatchRules()
    assert [rules.game(n) for n in range(7)] == [
        "tabla",
        "gulbara",
        "tapa",
        "tabla",
        "gulbara",
        "tapa",
        "tabla",
    ]
    assert [MatchRules(order=["tapa"]).game(n) for n in range(3)] == ["tapa"] * 3


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"length": 0}, "match length"),
        ({"length": 2.5}, "match length"),
        ({"length": True}, "match length"),
        ({"order": []}, "match order"),
        ({"order": ["tabla", "chess"]}, "match order"),
        ({"draw_starter": "winner"}, "draw_starter"),
    ],
)
def test_M2_bad_match_rules_are_refused_in_one_line(kwargs, words):
    with pytest.raises(MatchError, match=words) as error:
        MatchRules(**kwargs)
    assert "\n" not in str(error.value)


def test_M2_the_first_to_reach_the_length_wins_the_match():
    state = MatchState(MatchRules(length=3), (2, 1), games_played=3, starter=0)
    assert not state.over and state.winner is None and state.away(0) == 1
    won = state.after_game(+2)
    assert won.over and won.winner == 0 and won.score == (3, 1)
    with pytest.raises(MatchError, match="over"):
        won.after_game(+1)


def test_M3_the_winner_of_a_game_starts_the_next():
    state = MatchState(starter=0)
    assert state.after_game(-1).starter == 1
    assert state.after_game(+2).starter == 0
    assert MatchState(starter=1).after_game(+1).starter == 0
    assert state.after_game(-1).game == "gulbara"


@pytest.mark.parametrize("rule, expected", [("throw", None), ("same", 1), ("other", 0)])
def test_M4_who_starts_after_a_drawn_tapa_game(rule, expected):
    state = MatchState(MatchRules(draw_starter=rule), (1, 1), games_played=2, starter=1)
    assert state.game == "tapa"
    after = state.after_game(0)
    assert after.starter == expected and after.score == (1, 1) and after.game == "tabla"


def test_match_state_json_round_trips_with_a_position():
    position = Position.initial("gulbara")
    state = MatchState(MatchRules(length=5), (2, 1), 4, 0).with_position(position, to_move=1)
    data = state.to_dict()
    assert data["game"] == "gulbara" and data["position"]["game"] == "gulbara"
    assert MatchState.from_dict(data) == state


@pytest.mark.parametrize(
    "change, words",
    [
        (
            {
                "score": [7, 2],
                "games_played": 6,
                "starter": 0,
                "to_move": 0,
                "position": Position.initial("tabla").to_dict(),
            },
            "over",
        ),
        ({"score": [7, 7], "games_played": 7}, "only one side"),
        ({"score": [6, 5], "games_played": 2}, "at most 2 points"),
        ({"game": "tapa"}, "game 'tapa'"),
        ({"starter": 2}, "starter"),
        (
            {"position": Position.initial("tapa").to_dict(), "to_move": 0, "starter": 0},
            "position is of tapa",
        ),
        ({"position": Position.initial("tabla").to_dict()}, "both or neither"),
        ({"length": -1}, "match length"),
    ],
)
def test_a_bad_match_json_names_the_problem(change, words):
    data = {**MatchState().to_dict(), **change}
    with pytest.raises(MatchError, match=words) as error:
        MatchState.from_dict(data)
    assert "\n" not in str(error.value)


def test_M2_a_match_is_played_to_at_most_25_points_wherever_a_length_enters():
    assert MAX_LENGTH == 25
    assert MatchRules(length=MAX_LENGTH).length == MAX_LENGTH
    for length in (MAX_LENGTH + 1, 1000, 100_000, 2**100):
        with pytest.raises(MatchError, match="from 1 to 25") as error:
            MatchRules(length=length)
        assert "\n" not in str(error.value)
        with pytest.raises(MatchError, match="from 1 to 25"):
            MatchState.from_dict({**MatchState().to_dict(), "length": length})
    with pytest.raises(MatchError, match="max_away must be from 1 to 25"):
        MatchEquity(MatchRules(length=3), load_outcomes(), max_away=100_000)
    longest = MatchEquity.measured(MatchRules(length=MAX_LENGTH))
    assert longest.table.shape[-1] == MAX_LENGTH + 1
    assert 0.45 < longest.state_chance(MatchState(MatchRules(length=MAX_LENGTH))) < 0.55


def test_evaluate_refuses_a_match_past_the_longest_before_any_match():
    from agents.errors import ConfigError
    from agents.evaluation.tournament import TournamentConfig
    from agents.match.tournament import check_match_config

    config = TournamentConfig(players=["shipped", "random"], match_length=100_000)
    with pytest.raises(ConfigError, match="from 1 to 25") as error:
        check_match_config(config)
    assert "\n" not in str(error.value)


def test_evaluate_py_ends_a_match_past_the_longest_in_one_line_with_status_2(tmp_path):
    done = _run(
        "evaluate.py", f"hydra.run.dir={tmp_path / 'run'}", "players=[shipped,random]",
        "match_length=100000",
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "from 1 to 25" in lines[0] and "100000" in lines[0]


def test_the_table_command_prints_up_to_the_longest_match_and_refuses_longer():
    printed = _run("-m", "agents.match", "25")
    assert printed.returncode == 0
    assert "| 25 | " in printed.stdout and printed.stdout.count("to come, you start it") == 3
    for length in ("26", "100000", "0"):
        done = _run("-m", "agents.match", length)
        assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
        assert done.stderr.splitlines()[-1] == (
            "python -m agents.match: error: the match length must be from 1 to 25 (a tabla "
            f"match is played to 3, 5 or 7 points), got {length}"
        )


def _run(*args: str):
    """``python ARGS`` at the repository's root."""
    import subprocess
    import sys
    from pathlib import Path

    return subprocess.run(
        [sys.executable, *args], cwd=Path(__file__).resolve().parents[1],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.parametrize(
    "change, words",
    [
        ({"starter": True}, "starter must be 0, 1 or null, got True"),
        ({"starter": 1.0}, "starter must be 0, 1 or null, got 1.0"),
        ({"starter": False}, "starter must be 0, 1 or null, got False"),
        (
            {"to_move": 0.0, "starter": 0, "position": Position.initial("tabla").to_dict()},
            "to_move must be 0, 1 or null, got 0.0",
        ),
        (
            {"to_move": True, "starter": 0, "position": Position.initial("tabla").to_dict()},
            "to_move must be 0, 1 or null, got True",
        ),
        ({"games_played": 2.0, "score": [1, 1]}, "games_played must be a whole number"),
        ({"score": [1.0, 1], "games_played": 2}, "match score must be two whole numbers"),
        ({"length": 7.0}, "match length must be a whole number"),
        ({"score": [6, 0], "games_played": 2}, "6-0 after 2 games: a game scores at most 2"),
        ({"score": [3, 0], "games_played": 1}, "3-0 after 1 game: a game scores at most 2"),
        ({"score": [100, 0], "games_played": 60}, "100-0 in a match to 7: points past the"),
        ({"score": [8, 3], "games_played": 6}, "8-3 in a match to 7"),
        ({"score": [0, 0], "games_played": 2}, "0-0 after 2 games: 2 of them were tabla and"),
        ({"score": [1, 0], "games_played": 3}, "1-0 after 3 games: 2 of them"),
        ({"score": [2, 0], "games_played": 4}, "2-0 after 4 games: 3 of them"),
        ({"game": ["tabla"]}, "game must be the name of a game (a string), got ['tabla']"),
        ({"game": {"name": "tabla"}}, "game must be the name of a game (a string)"),
        ({"game": 0}, "game must be the name of a game (a string), got 0"),
        ({"draw_starter": ["throw"]}, "draw_starter must be one of"),
        ({"draw_starter": {"rule": "throw"}}, "draw_starter must be one of"),
        ({"order": [["tabla"], "gulbara"]}, "match order"),
        ({"order": [{"game": "tabla"}]}, "match order"),
        (
            {
                "starter": 0,
                "to_move": 0,
                "position": {**Position.initial("tabla").to_dict(), "game": ["tabla"]},
            },
            "position: game must be the name of a game (a string), got ['tabla']",
        ),
    ],
)
def test_a_match_json_of_a_wrong_type_or_an_impossible_score_is_refused_in_one_line(change, words):
    data = {**MatchState().to_dict(), **change}
    with pytest.raises(MatchError) as error:
        MatchState.from_dict(data)
    message = str(error.value)
    assert words in message and "\n" not in message


@pytest.mark.parametrize(
    "score, games_played, order",
    [
        ((0, 0), 3, ("tapa",)),  # three drawn Tapa games
        ((1, 1), 3, ORDER),  # Tabla and Gulbara won, Tapa drawn
        ((4, 2), 3, ORDER),  # two doubles and a single
        ((7, 0), 4, ORDER),  # 6-0 after three doubles, then a double past the length
        ((1, 0), 1, ORDER),
    ],
)
def test_every_score_the_games_can_give_is_read(score, games_played, order):
    rules = MatchRules(order=order)
    starter = 0 if max(score) < rules.length else None
    state = MatchState(rules, score, games_played, starter)
    assert MatchState.from_dict(state.to_dict()) == state


def test_a_match_json_with_a_missing_or_unknown_key_is_refused():
    data = MatchState().to_dict()
    del data["score"]
    data["cube"] = 1
    with pytest.raises(MatchError, match="missing score; unknown cube"):
        MatchState.from_dict(data)


def test_stored_outcomes_are_each_games_self_play_from_the_starters_side():
    chances = load_outcomes()
    assert set(chances) == set(GAMES)
    for game, row in chances.items():
        assert row.sum() == pytest.approx(1.0) and (row >= 0).all()
        assert row[RESULTS.index("win3")] == 0 == row[RESULTS.index("lose3")]
        if game != "tapa":
            assert row[RESULTS.index("draw")] == 0  # only Tapa draws (R10)
    assert starter_counts(np.array([2, -1, 1, 0]), np.array([0, 1, 1, 0])).tolist() == [
        1,
        1,
        0,
        1,
        1,
        0,
        0,
    ]


def _plain_chance(results, rules, a, b, k, s, depth=0):
    """The match equity table by plain recursion: draws followed 12 deep (their chance is
    well under 1%, so the cut changes nothing at 1e-9)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if depth > 12:
        return 0.5
    chances = results[rules.game(k)]
    following = (k + 1) % len(rules.order)
    total = 0.0
    for n in (1, 2, 3):
        win, lose = chances[RESULTS.index(f"win{n}")], chances[RESULTS.index(f"lose{n}")]
        mine, theirs = (win, lose) if s == 0 else (lose, win)
        total += mine * _plain_chance(results, rules, a - n, b, following, 0, depth)
        total += theirs * _plain_chance(results, rules, a, b - n, following, 1, depth)
    draw = chances[RESULTS.index("draw")]
    if draw:
        starters = {"throw": (0, 1), "same": (s,), "other": (1 - s,)}[rules.draw_starter]
        total += draw * np.mean(
            [_plain_chance(results, rules, a, b, following, t, depth + 1) for t in starters]
        )
    return total


@pytest.mark.parametrize("draw_starter", ["throw", "same", "other"])
def test_the_table_equals_a_plain_recursion_over_the_measured_results(draw_starter):
    results = load_outcomes()
    results["tapa"] = results["tapa"].copy()
    results["tapa"][RESULTS.index("draw")] += 0.01  # draws that matter to the check
    results["tapa"] /= results["tapa"].sum()
    rules = MatchRules(length=5, draw_starter=draw_starter)
    table = MatchEquity(rules, results, max_away=5)
    plain = functools.lru_cache(maxsize=None)(
        lambda a, b, k, s: _plain_chance(results, rules, a, b, k, s)
    )
    for a in range(1, 6):
        for b in range(1, 6):
            for k in range(3):
                for s in (0, 1):
                    assert table.table[k, s, a, b] == pytest.approx(plain(a, b, k, s), abs=1e-9)


def test_the_table_is_a_zero_sum_between_the_two_sides():
    table = MatchEquity.measured(MatchRules(length=7)).table
    mine = table[:, 0, 1:, 1:]
    theirs = table[:, 1, 1:, 1:].transpose(0, 2, 1)
    np.testing.assert_allclose(mine + theirs, 1.0, atol=1e-12)


def test_equal_single_point_games_give_the_coin_toss_race():
    table = MatchEquity.equal_games(MatchRules(length=7))
    # Winning a race to a before b with an even chance each game.
    from math import comb

    for a in range(1, 8):
        for b in range(1, 8):
            race = sum(comb(a + b - 1, i) for i in range(a, a + b)) / 2 ** (a + b - 1)
            assert table.chance(a, b, 0, True) == pytest.approx(race, abs=1e-12)


def test_the_starting_side_has_the_edge_of_its_game():
    table = MatchEquity.measured(MatchRules(length=1))
    results = load_outcomes()
    for k, game in enumerate(MatchRules().order):
        starter_wins = sum(results[game][RESULTS.index(f"win{n}")] for n in (1, 2, 3))
        draw = results[game][RESULTS.index("draw")]
        assert table.chance(1, 1, k, True) == pytest.approx(
            starter_wins + draw * float(table.chance(1, 1, k + 1, [True, False]).mean())
        )


def test_outcome_weights_order_the_results_and_see_the_score():
    table = MatchEquity.measured(MatchRules(length=7))
    weights = table.outcome_weights(np.arange(1, 8)[:, None], np.arange(1, 8)[None, :], 0, True)
    win, win_double, draw, lose, lose_double = np.moveaxis(weights, -1, 0)
    assert (win_double >= win).all() and (win > draw).all() and (draw > lose).all()
    assert (lose >= lose_double).all()
    assert (weights[0, :, :2] == 1).all()  # one point to go: any win wins the match
    assert (weights[:, 0, 3:] == 0).all()  # the opponent one away: any loss loses it
    # 6-5 to 7, the leader to move: a gammon win is worth no more than a single one, a
    # gammon loss costs the match where a single loss does not.
    leader = table.outcome_weights(1, 2, 0, True)
    assert leader[0] == leader[1] == 1 and leader[4] == 0 < leader[3]


def test_with_points_as_weights_the_match_player_plays_as_the_bot():
    rules = default_rules("tabla")
    bot = load_player("checkpoints/tabla-td.pt", rules)
    player = MatchPlayer(bot)
    rng = np.random.default_rng(3)
    from agents.evaluation.arena import play_games  # noqa: F401 (positions from real play)
    from tapa_env.batch import Games

    table = Games(64, rules=rules)
    table.start(np.arange(64), rng)
    for _ in range(12):
        table.generate()
        choices = bot.choose_batch(table.rows, table.dice, table.afterstates, table.offsets, rng)
        table.play(choices, np.arange(64), rng)
    table.generate()
    weights = np.tile(OUTCOME_POINTS.astype(np.float64), (64, 1))
    assert (
        player.choose_to_score(
            table.rows, table.dice, table.afterstates, table.offsets, rng, weights
        )
        == bot.choose_batch(table.rows, table.dice, table.afterstates, table.offsets, rng)
    ).all()


def test_a_plays_match_chance_is_its_outcome_chances_times_the_weights():
    """Tabla, the leader 1 away, the trailer 2 away."""
    rules = default_rules("tabla")
    player = MatchPlayer(load_player("checkpoints/tabla-td.pt", rules))
    table = MatchEquity.measured(MatchRules(length=7))
    position = Position.initial("tabla")
    afterstates = legal_afterstates(position, (6, 5), rules=rules)
    rows = np.stack([a.row for a in afterstates])
    offsets = np.array([0, len(rows)])
    weights = table.outcome_weights([1], [2], [0], [True])
    chances = player.match_chances(position.row[None, :], rows, offsets, weights)
    probabilities = player.bot.evaluator.probabilities(rows)
    expected = probabilities.astype(np.float64) @ weights[0]
    np.testing.assert_allclose(chances, expected, rtol=1e-6)


def test_match_sides_name_a_player_for_every_game():
    side = load_side("pubeval+runner+offensive")
    assert {g: p.name for g, p in side.players.items()} == {
        "tabla": "pubeval",
        "gulbara": "runner",
        "tapa": "offensive",
    }
    shipped = load_side("shipped")
    assert all(isinstance(p, MatchPlayer) for p in shipped.players.values())
    assert not any(isinstance(p, MatchPlayer) for p in load_side("shipped@points").players.values())
    assert set(load_side("random", MatchRules(order=["gulbara"])).players) == {"gulbara"}
    assert set(load_side("shipped", MatchRules(order=["tapa", "tabla"])).players) == {
        "tapa",
        "tabla",
    }


@pytest.mark.parametrize(
    "spec, words",
    [
        ("pubeval", "no player for gulbara, tapa"),
        ("runner+runner+pubeval+offensive", "two players for gulbara"),
        ("shipped@2ply", "searches one ply"),
        ("random@match", "needs a TD bot"),
        ("pubeval+runner", "no player for tapa"),
        ("", "empty match player"),
        ("pubeval++runner", "empty part"),
    ],
)
def test_a_match_side_that_cannot_play_the_match_is_refused_in_one_line(spec, words):
    with pytest.raises(MatchError, match=words) as error:
        load_side(spec)
    assert "\n" not in str(error.value)


def _check_matches(results, length):
    for m in range(results.matches):
        games = results.game_match == m
        numbers = results.game_number[games]
        assert (numbers == np.arange(len(numbers))).all()
        order = [GAMES[g] for g in results.game[games]]
        assert order == [results.rules.game(n) for n in range(len(order))]
        points = results.points[games]
        won = (points[points > 0].sum(), -points[points < 0].sum())
        assert tuple(results.score[m] - results.start[m]) == won
        assert max(results.score[m]) >= length > min(results.score[m])
        # The winner of a game starts the next one (R11).
        starters = results.starter[games]
        for after, result in zip(starters[1:], points[:-1]):
            if result:
                assert after == (0 if result > 0 else 1)


def test_whole_matches_follow_the_match_rules():
    sides = (load_side("shipped"), load_side("pubeval+runner+offensive"))
    results = play_matches(sides, 12, MatchRules(length=5), seed=4, batch=5)
    _check_matches(results, 5)
    assert results.matches == 12 and results.wins.mean() > 0.5
    again = play_matches(sides, 12, MatchRules(length=5), seed=4, batch=12)
    assert (again.score == results.score).all()  # however batched, the same matches
    assert (again.points == results.points).all()


def test_identical_sides_split_every_mirrored_pair_of_duplicate_matches():
    side = load_side("shipped@points")
    results = play_matches((side, side), 8, MatchRules(length=3), seed=2, start_score=(1, 2))
    _check_matches(results, 3)
    assert (results.start[0::2] == [1, 2]).all() and (results.start[1::2] == [2, 1]).all()
    assert results.wins.reshape(-1, 2).sum(axis=1).tolist() == [1] * 4
    assert results.win_rate() == (0.5, (0.5, 0.5))


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"matches": 3}, "mirrored pairs"),
        ({"matches": 2, "start_score": (7, 0)}, "start score"),
    ],
)
def test_play_matches_refuses_what_cannot_be_played(kwargs, words):
    side = load_side("random")
    with pytest.raises(MatchError, match=words):
        play_matches((side, side), **kwargs)


def test_the_table_in_the_docs_is_the_table_the_bots_use():
    from pathlib import Path

    from agents.match.equity import markdown

    text = (Path(__file__).resolve().parents[1] / "docs" / "match.md").read_text()
    table = markdown(MatchEquity.measured(MatchRules(length=7)), 7)
    assert table in text
