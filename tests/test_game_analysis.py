"""Game analysis (agents/analysis/games.py): each decision's loss against the best play by the
shipped bot at 2-ply (or 1-ply, or rollouts), each side's error rate and luck, the report as
text and as JSON. The two-ply values are checked against agents/td/search.py."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numpy as np
import pytest

from agents import Player, load_player, play_games
from agents.analysis import games as analysis
from agents.bots.players import best_in_each_turn
from agents.records import (
    GameRecord,
    RecordedGame,
    RecordedTurn,
    format_record,
    parse_record,
    write_record,
)
from agents.records.tournament import TurnLog, arena_records
from agents.td.search import ROLL_WEIGHTS, ROLLS, top_candidates, two_ply_equities
from tapa_env import Position, legal_afterstates, legal_plays, outcome
from tapa_env.results import outcomes
from tapa_env.rules import DEFAULT_RULES

ROOT = Path(__file__).resolve().parents[1]
BOT = str(ROOT / "checkpoints" / "tapa-td.pt")


def settings(**changes) -> SimpleNamespace:
    """A stand-in for analyze.py's AnalyzeConfig: the fields the analysis reads."""
    values = dict(game=None, ply=2, rollout=False, trials=36, truncate=None, seed=0, player=BOT)
    return SimpleNamespace(**{**values, **changes})


@pytest.fixture(scope="module")
def bot():
    return load_player(BOT)


class IndependentBest(Player):
    """The analysis's best play, found with agents/td/search.py: the best
    ``analysis.CANDIDATES`` plays by one ply (a play that ends the game at its points), the
    best of them at two plies."""

    name = "independent-best"

    def __init__(self, bot) -> None:
        self.bot = bot

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        values = self.bot.equities(afterstates, positions, offsets).astype(np.float64)
        ended, points = outcomes(afterstates)
        values[ended] = points[ended]
        chosen = top_candidates(values, offsets, analysis.CANDIDATES)
        scores = np.full(len(afterstates), -np.inf)
        scores[chosen] = two_ply_equities(self.bot.evaluator, afterstates, chosen, DEFAULT_RULES)
        return best_in_each_turn(scores, offsets)


def arena_record(players, names, games=2, seed=0, match_points=None) -> list[GameRecord]:
    log = TurnLog()
    results = play_games(players, games, seed=seed, match_points=match_points, record=log)
    records = arena_records(log, results, names, DEFAULT_RULES)
    return [parse_record(format_record(record)) for record in records.values()]


@pytest.fixture(scope="module")
def best_against_random(bot):
    record = arena_record((IndependentBest(bot), load_player("random")), ("best", "random"))[0]
    return record, analysis.analyze_record(record, settings())


def test_the_side_that_always_plays_the_best_loses_nothing(best_against_random):
    _, report = best_against_random
    decisions = [t for t in report["games"][0]["turns"] if t["side"] == "O" and t["decision"]]
    assert len(decisions) > 5
    assert all(turn["loss_mp"] == pytest.approx(0, abs=1e-6) for turn in decisions)
    assert all(turn["best"] == turn["play"] for turn in decisions)
    assert report["sides"]["O"]["loss_mp"] == pytest.approx(0, abs=1e-5)
    assert report["sides"]["O"]["errors"] == 0
    assert report["sides"]["X"]["loss_mp"] > 1000  # random play loses a lot


def test_the_error_rate_is_the_mean_loss_per_decision(best_against_random):
    _, report = best_against_random
    turns = report["games"][0]["turns"]
    losses = [t["loss_mp"] for t in turns if t["side"] == "X" and t["decision"]]
    totals = report["sides"]["X"]
    assert totals["decisions"] == len(losses) > 0
    assert totals["error_rate_mp"] == pytest.approx(np.mean(losses))
    assert totals["loss_mp"] == pytest.approx(sum(losses))
    assert totals["errors"] == sum(loss >= analysis.ERROR_MP for loss in losses)
    assert totals["blunders"] == sum(loss >= analysis.BLUNDER_MP for loss in losses)
    assert 0 < totals["blunders"] <= totals["errors"]
    marked = {t["error"] for t in turns if t["decision"] and t["loss_mp"] >= 80}
    assert marked == {"blunder"}
    for turn in turns:
        assert turn["decision"] == (turn["plays"] > 1)
        if not turn["decision"]:
            assert turn["loss_mp"] is None and turn["best"] is None
    luck = sum(t["luck_mp"] for t in turns if t["side"] == "X")
    assert totals["luck_mp"] == pytest.approx(luck)


def test_a_match_adds_up_its_games(bot):
    record = arena_record(
        (load_player("defensive"), load_player("random")), ("defensive", "random"),
        games=2, seed=3, match_points=3,
    )[0]  # fmt: skip
    report = analysis.analyze_record(record, settings(ply=1))
    assert len(report["games"]) >= 2 and report["match_points"] == 3
    for side in "OX":
        for key in ("decisions", "loss_mp", "errors", "blunders", "luck_mp", "turns"):
            total = sum(game["sides"][side][key] for game in report["games"])
            assert report["sides"][side][key] == pytest.approx(total)
    text = analysis.format_game_report(report)
    assert "All " in text and f"Game {len(report['games'])}:" in text


# A middle-game position with many plays, O to move (from a game of the shipped bot).
def middle_game(bot) -> tuple[Position, tuple[int, int]]:
    rng = np.random.default_rng(7)
    position = Position.initial()
    for _ in range(12):
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        after = bot.choose(position, dice)
        position = after.flip()
    assert outcome(position) is None
    return position, (4, 2)


def single_turn_record(position: Position, dice, play: str) -> GameRecord:
    game = RecordedGame("O", "chosen", [RecordedTurn("O", dice, play)])
    record = GameRecord(("a", "b"), start=position, games=[game])
    return parse_record(format_record(record))


@pytest.mark.parametrize("ply", [1, 2])
def test_a_bad_play_loses_the_best_minus_its_own_value(bot, ply):
    position, dice = middle_game(bot)
    plays = legal_plays(position, dice)
    rows = np.stack([play.afterstate.row for play in plays])
    offsets = np.array([0, len(rows)])
    values = bot.equities(rows, position.row[None, :], offsets).astype(np.float64)
    ended, points = outcomes(rows)
    values[ended] = points[ended]
    worst = int(np.argmin(values))
    if ply == 2:  # the search of agents/td/search.py, on this position alone
        searched = np.union1d(top_candidates(values, offsets, analysis.CANDIDATES), [worst])
        deeper = np.full(len(rows), -np.inf)
        deeper[searched] = two_ply_equities(bot.evaluator, rows, searched, DEFAULT_RULES)
        values = deeper
    best = int(np.argmax(values))
    record = single_turn_record(position, dice, plays[worst].text)
    report = analysis.analyze_record(record, settings(ply=ply))
    turn = report["games"][0]["turns"][0]
    assert turn["play"] == plays[worst].text and turn["best"] == plays[best].text
    expected = (values[best] - values[worst]) * 1000
    assert expected > analysis.BLUNDER_MP
    assert turn["loss_mp"] == pytest.approx(expected, abs=1e-3)
    assert turn["equity"] == pytest.approx(values[worst], abs=1e-6)
    assert turn["error"] == "blunder"
    assert report["analysis"]["method"]["name"] == f"{ply}-ply"
    assert report["sides"]["O"]["error_rate_mp"] == pytest.approx(expected, abs=1e-3)


def test_luck_averages_to_zero_over_the_rolls_and_over_random_rolls(bot):
    position, _ = middle_game(bot)
    rows = np.repeat(position.row[None, :], len(ROLLS), axis=0)
    luck = analysis.turn_luck(bot, rows, ROLLS)
    assert luck @ ROLL_WEIGHTS == pytest.approx(0, abs=1e-9)
    assert luck.std() > 0.01  # rolls differ in what they are worth
    # Each roll's luck, by the bot's own values of each play, one roll at a time.
    best = []
    for dice in ROLLS:
        afterstates = np.stack([a.row for a in legal_afterstates(position, tuple(dice))])
        values, _, _ = bot.values(position, tuple(dice), afterstates)
        best.append(values.max())
    assert luck == pytest.approx(np.array(best) - np.array(best) @ ROLL_WEIGHTS, abs=1e-6)
    thrown = np.random.default_rng(1).integers(1, 7, size=(1000, 2))
    sample = analysis.turn_luck(bot, np.repeat(position.row[None, :], 1000, axis=0), thrown)
    assert abs(sample.mean()) < 4 * sample.std() / np.sqrt(len(sample))


def test_the_report_is_json_and_text(best_against_random, tmp_path):
    record, report = best_against_random
    back = json.loads(json.dumps(report))
    assert set(back) == {
        "file", "format", "players", "rules", "match_points", "score", "analysis", "games",
        "sides",
    }  # fmt: skip
    assert set(back["analysis"]) == {"method", "player", "luck", "error_mp", "blunder_mp"}
    game = back["games"][0]
    assert set(game) == {"game", "starter", "note", "result", "turns", "sides"}
    assert set(game["turns"][0]) == {
        "game", "turn", "side", "roll", "play", "plays", "decision", "best", "equity",
        "best_equity", "loss_mp", "error", "luck_mp",
    }  # fmt: skip
    assert set(back["sides"]["O"]) == {
        "player", "turns", "decisions", "loss_mp", "error_rate_mp", "errors", "blunders",
        "luck_mp",
    }  # fmt: skip
    assert len(game["turns"]) == len(record.games[0].turns)
    text = analysis.format_game_report(report)
    assert "turn  side roll  play" in text and "best play" in text
    assert "side player" in text and "per decision" in text
    for turn in game["turns"]:
        assert turn["play"] in text
    blunder = next(t for t in game["turns"] if t["error"] == "blunder")
    row = next(line for line in text.splitlines() if line.startswith(f"{blunder['turn']:>4}  "))
    assert "??" in row and blunder["best"] in row
    # From a file, as analyze.py record=FILE calls it.
    path = write_record(tmp_path / "g.tapa", record)
    assert analysis.analyze_game_file(path, settings(ply=1))["file"] == str(path)


def test_a_player_that_values_nothing_and_a_bad_ply_are_one_line(best_against_random):
    record, _ = best_against_random
    with pytest.raises(analysis.GameAnalysisError, match="^player=defensive does not value"):
        analysis.analyze_record(record, settings(player="defensive"))
    with pytest.raises(analysis.GameAnalysisError, match="^player=nobody: unknown player"):
        analysis.analyze_record(record, settings(player="nobody"))
    with pytest.raises(analysis.GameAnalysisError, match="^ply must be 1 or 2, got 3"):
        analysis.analyze_record(record, settings(ply=3))


def test_rollouts_need_agents_rollout_and_judge_by_its_equities(bot, monkeypatch):
    position, dice = middle_game(bot)
    plays = legal_plays(position, dice)
    record = single_turn_record(position, dice, plays[-1].text)
    if importlib.util.find_spec("agents.analysis.rollout") is None:
        with pytest.raises(
            analysis.GameAnalysisError, match="rollout analysis needs agents.analysis.rollout"
        ):
            analysis.analyze_record(record, settings(rollout=True))
    rolled = []

    def roll_out(player, afterstates, trials, seed, truncate, rules, workers):
        """A stand-in that values a play by the mover's pip count: the fewer, the better."""
        rolled.append((len(afterstates), trials, seed, truncate))
        value = -(afterstates[:, :24].astype(np.float64) @ np.arange(1, 25)) / 100
        return SimpleNamespace(equity=value, stderr=np.zeros(len(value)))

    fake = ModuleType("agents.analysis.rollout")
    fake.roll_out = roll_out
    monkeypatch.setattr(analysis, "rollout_module", lambda: fake)
    report = analysis.analyze_record(record, settings(rollout=True, trials=72, seed=4))
    turn = report["games"][0]["turns"][0]
    assert len(rolled) == 1 and rolled[0][1:] == (72, 4, None)
    assert 2 <= rolled[0][0] <= analysis.ROLLOUT_PLAYS + 1
    assert report["analysis"]["method"]["name"] == "rollout"
    assert turn["loss_mp"] == pytest.approx((turn["best_equity"] - turn["equity"]) * 1000)
    assert turn["loss_mp"] >= 0


def test_the_documented_analysis_is_what_the_example_gives():
    doc = (ROOT / "docs" / "game-records.md").read_text()
    blocks = re.findall(r"```text\n(.+?)\n```", doc, re.DOTALL)
    record = parse_record(blocks[0], "game-00035.tapa")
    shipped = settings(player="checkpoints/tapa-td.pt")  # found beside the repository
    report = analysis.analyze_record(record, shipped, name="game-00035.tapa")
    text = analysis.format_game_report(report).splitlines()
    play_doc = (ROOT / "docs" / "play.md").read_text().split("### Analysing a game")[1]
    table = re.search(r"```\n(turn .+?)\n```", play_doc, re.DOTALL)[1]
    shown = blocks[3].splitlines() + table.splitlines()
    for line in shown:
        if line.strip() != "...":
            assert line in text
    example = json.loads(re.search(r"```json\n(.+?)\n```", doc, re.DOTALL)[1])
    assert set(example) == set(report) and set(example["analysis"]) == set(report["analysis"])
    turn = example["games"][0]["turns"][0]
    assert set(turn) == set(report["games"][0]["turns"][0])
    real = report["games"][0]["turns"][turn["turn"] - 1]
    for key, value in turn.items():
        assert real[key] == (pytest.approx(value, abs=0.01) if isinstance(value, float) else value)
    assert set(example["games"][0]["sides"]["X"]) == set(report["sides"]["X"])
