"""Rollouts (agents/analysis/rollout.py): their dice, their results against a plain game loop, and
what must not change them (workers, batches); the one- and two-ply values beside them
(agents/analysis/positions.py); the opening table (agents/analysis/opening.py)."""

from __future__ import annotations

import subprocess
import sys
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import pytest

import agents.analysis.rollout as rollout_module
from agents import load_player
from agents.analysis.opening import (
    DOCS,
    OPENING_ROLLS,
    README_BEGIN,
    README_END,
    SUMMARY,
    document,
    main,
    markers,
    opening_table,
    readme_table,
    replace_readme_table,
)
from agents.analysis.positions import (
    SIGNIFICANT,
    analyse_position,
    format_analysis,
    one_ply_chances,
    two_ply_chances,
)
from agents.analysis.rollout import (
    THROWS,
    play_trials,
    roll_out,
    stratified_throws,
    trial_dice,
)
from agents.bots.equity import OUTCOME_POINTS, OUTCOMES, SWAP, one_hot_outcomes
from agents.bots.players import choose_one
from agents.td.search import two_ply_equities
from tapa_env import Position, legal_afterstates, outcome
from tapa_env.rules import DEFAULT_RULES

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "checkpoints" / "tapa-td.npz"


@pytest.fixture(scope="module")
def bot():
    return load_player(f"{BOT}@nobearoff")  # races played out, as the plain loop plays them


def opening_rows(dice: tuple[int, int]) -> np.ndarray:
    return np.stack([a.row for a in legal_afterstates(Position.initial(), dice)])


def position(own: dict, opp: dict, opp_pinned=(), own_pinned=()) -> Position:
    """A position from ``{point: checkers}`` of each side, the rest borne off."""
    own_counts = [own.get(p, 0) for p in range(1, 25)]
    opp_counts = [opp.get(p, 0) for p in range(1, 25)]
    return Position.from_dict(
        {
            "own": own_counts,
            "opp": opp_counts,
            "own_pinned": list(own_pinned),
            "opp_pinned": list(opp_pinned),
            "own_off": 15 - sum(own_counts),
            "opp_off": 15 - sum(opp_counts),
        }
    )


# --- the dice -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_every_block_of_36_trials_throws_each_first_and_second_roll_once(seed):
    first, second = stratified_throws(seed, np.arange(4 * THROWS))
    for block in range(4):
        part = slice(block * THROWS, (block + 1) * THROWS)
        assert sorted(first[part]) == list(range(THROWS))
        assert sorted(second[part]) == list(range(THROWS))
    first, second = stratified_throws(seed, np.arange(THROWS * THROWS))
    assert len(set(zip(first.tolist(), second.tolist()))) == THROWS * THROWS


def test_the_dice_of_the_first_two_turns_are_balanced_and_later_ones_are_the_arenas():
    trials = np.arange(2 * THROWS)
    for turn in (0, 1):
        dice = trial_dice(7, trials, np.full(len(trials), turn))
        throws = (dice[:, 0] - 1) * 6 + dice[:, 1] - 1
        assert np.bincount(throws, minlength=THROWS).tolist() == [2] * THROWS
    later = trial_dice(7, trials, np.full(len(trials), 2))
    assert later.min() >= 1 and later.max() <= 6
    assert len({tuple(d) for d in later}) > 10  # not the stratified cycle
    second = np.ones(len(trials))
    assert (trial_dice(7, trials, second) != trial_dice(8, trials, second)).any()


# --- results --------------------------------------------------------------------------------


def test_a_play_that_ends_the_game_rolls_out_to_its_result_with_no_error(bot):
    won = position({}, {1: 15})  # the mover bore off its 15th: a gammon, the other has none off
    assert outcome(won) == (1, 2)
    result = roll_out(bot, won.row[None, :], trials=36)
    assert result.equity.tolist() == [2.0] and result.stderr.tolist() == [0.0]
    assert result.outcomes.tolist() == [one_hot_outcomes(np.array([2]))[0].tolist()]


def test_a_decided_race_rolls_out_to_its_result_with_no_error(bot):
    # Each side has one checker left on its own point 1; the opponent moves next and bears
    # it off with any roll: a single loss for the mover, whatever the dice.
    lost = position({1: 1}, {24: 1})
    result = roll_out(bot, lost.row[None, :], trials=72, seed=3)
    assert result.equity.tolist() == [-1.0] and result.stderr.tolist() == [0.0]
    assert result.outcomes[0, OUTCOMES.index("lose")] == 1.0


# A Tabla afterstate (its mover's frame) that a rollout once played under Tapa's rules,
# pinning where Tabla hits, and so valued as a double win: the mover has a checker on the bar
# against the opponent's closed board and is all but lost, most often doubly.
SHUT_OUT = [0] * 5 + [6, 0, 3] + [0] * 4 + [5] + [0] * 11 + [1, 0, 0, 1] + [0] * 6 + [1]
SHUT_OUT += [0] * 7 + [2] * 6 + [1] + [0] * (72 - 49)


def test_a_bot_rolls_out_under_its_own_games_rules():
    tabla = load_player(str(ROOT / "checkpoints" / "tabla-td.npz"))
    row = np.array([SHUT_OUT], dtype=np.int8)
    own = roll_out(tabla, row, trials=36, seed=2, truncate=4)
    assert own.equity[0] < -1.0
    stated = roll_out(tabla, row, trials=36, seed=2, truncate=4, rules=tabla.rules)
    np.testing.assert_array_equal(own.points, stated.points)
    with pytest.raises(ValueError, match="plays tabla, not tapa"):
        roll_out(tabla, row, trials=36, rules=DEFAULT_RULES)


def test_truncation_at_zero_turns_is_the_one_ply_judgement(bot):
    rows = opening_rows((4, 2))
    result = roll_out(bot, rows, trials=36, truncate=0)
    one_ply = one_ply_chances(bot.evaluator, Position.initial(), rows, bot.rules)
    np.testing.assert_allclose(result.outcomes, one_ply, atol=1e-6)
    np.testing.assert_allclose(result.equity, one_ply @ OUTCOME_POINTS, atol=1e-6)
    assert (result.stderr == 0).all()


def test_the_difference_of_two_plays_is_paired_by_trial(bot):
    rows = opening_rows((6, 5))
    result = roll_out(bot, rows, trials=72, truncate=10)
    assert result.points.shape == (2, 72)
    lead, error = result.difference(0, 1)
    assert lead == pytest.approx(result.equity[0] - result.equity[1])
    paired = result.points[0] - result.points[1]
    assert error == pytest.approx(paired.std(ddof=1) / np.sqrt(72))
    assert result.difference(1, 1) == (0.0, 0.0)
    alone = result.select(slice(1, 2))
    assert alone.equity.tolist() == result.equity[1:].tolist() and alone.points.shape == (1, 72)


def test_the_same_seed_gives_the_same_results_and_another_seed_others(bot):
    rows = opening_rows((6, 5))
    first = roll_out(bot, rows, trials=36, seed=1, truncate=8)
    again = roll_out(bot, rows, trials=36, seed=1, truncate=8)
    other = roll_out(bot, rows, trials=36, seed=2, truncate=8)
    assert first.outcomes.tolist() == again.outcomes.tolist()
    assert first.stderr.tolist() == again.stderr.tolist()
    assert first.outcomes.tolist() != other.outcomes.tolist()


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_results_do_not_depend_on_the_workers_nor_on_the_chunks(bot, monkeypatch, start):
    rows = opening_rows((3, 1))
    alone = roll_out(bot, rows, trials=48, seed=5, truncate=12, workers=1)
    monkeypatch.setattr(rollout_module, "CHUNK_GAMES", 40)  # many chunks over two workers
    monkeypatch.setattr(rollout_module, "start_context", lambda numpy_only: get_context(start))
    assert len(rollout_module.chunks(len(rows), 48)) > 2
    shared = roll_out(bot, rows, trials=48, seed=5, truncate=12, workers=2)
    assert alone.outcomes.tolist() == shared.outcomes.tolist()
    assert alone.stderr.tolist() == shared.stderr.tolist()


def test_results_do_not_depend_on_the_batch(bot):
    rows = opening_rows((5, 2))
    whole = play_trials(bot, rows, 0, 24, seed=4, truncate=20)
    small = play_trials(bot, rows, 0, 24, seed=4, truncate=20, batch=7)
    assert whole.tolist() == small.tolist()
    later = play_trials(bot, rows, 10, 14, seed=4, truncate=20)
    assert whole[:, 10:].tolist() == later.tolist()


def test_standard_errors_shrink_with_more_trials(bot):
    rows = opening_rows((6, 5))[:1]
    few = roll_out(bot, rows, trials=72, truncate=6)
    many = roll_out(bot, rows, trials=648, truncate=6)
    assert 0 < many.stderr[0] < 0.6 * few.stderr[0]


def plain_trial(bot, row: np.ndarray, trial: int, seed: int, truncate: int | None) -> np.ndarray:
    """One trial played a turn at a time through the per-position API: the reference."""
    after = Position(row)
    turns = 0
    while True:
        ended = outcome(after, bot.rules)
        if ended is not None:
            points = ended.winner * ended.points
            result = one_hot_outcomes(np.array([points]))[0]
            return result[SWAP] if turns % 2 else result
        if truncate is not None and turns >= truncate:
            chances = bot.evaluator.probabilities(after.row[None, :])[0].astype(np.float64)
            return chances[SWAP] if turns % 2 else chances
        dice = trial_dice(seed, np.array([trial]), np.array([turns]))[0]
        after = choose_one(bot, after.flip(), (int(dice[0]), int(dice[1])), rules=bot.rules)
        turns += 1


@pytest.mark.parametrize(("dice", "truncate"), [((6, 5), None), ((2, 1), 5), ((3, 3), 9)])
def test_each_trial_is_the_game_a_plain_loop_plays(bot, dice, truncate):
    rows = opening_rows(dice)[:3]
    trials = 3 if truncate is None else 6
    batched = play_trials(bot, rows, 40, trials, seed=9, truncate=truncate)
    for p, row in enumerate(rows):
        for k in range(trials):
            expected = plain_trial(bot, row, 40 + k, 9, truncate)
            np.testing.assert_allclose(batched[p, k], expected, atol=1e-6)


def test_bad_arguments_are_refused(bot):
    rows = opening_rows((2, 1))
    with pytest.raises(ValueError, match="trials"):
        roll_out(bot, rows, trials=0)
    with pytest.raises(ValueError, match="truncate"):
        roll_out(bot, rows, trials=1, truncate=-1)
    with pytest.raises(ValueError, match="evaluator"):
        roll_out(load_player("offensive"), rows, trials=1, truncate=3)


# --- one and two plies ------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [(6, 5), (1, 1), (4, 3)])
def test_one_and_two_ply_chances_give_the_bots_own_equities(bot, dice):
    # The second turn of a game, after the opening 6-5.
    start = legal_afterstates(Position.initial(), (6, 5))[0].flip()
    rows = np.stack([a.row for a in legal_afterstates(start, dice)])
    one = one_ply_chances(bot.evaluator, start, rows, bot.rules)
    two = two_ply_chances(bot.evaluator, rows, bot.rules)
    for chances in (one, two):
        np.testing.assert_allclose(chances.sum(axis=1), 1.0, atol=1e-5)
    values, _, _ = bot.values(start, dice, rows)
    np.testing.assert_allclose(one @ OUTCOME_POINTS, values, atol=1e-5)
    expected = two_ply_equities(bot.evaluator, rows, np.arange(len(rows)), bot.rules)
    np.testing.assert_allclose(two @ OUTCOME_POINTS, expected, atol=1e-5)


def test_a_play_that_ends_the_game_is_worth_its_result_at_every_depth(bot):
    near = position({1: 1}, {24: 15})
    rows = np.stack([a.row for a in legal_afterstates(near, (2, 1))])
    for chances in (
        one_ply_chances(bot.evaluator, near, rows, bot.rules),
        two_ply_chances(bot.evaluator, rows, bot.rules),
    ):
        assert chances.tolist() == [one_hot_outcomes(np.array([2]))[0].tolist()]


# --- how far each play is behind the best -------------------------------------------------------


def rolled_out(report: dict) -> list[dict]:
    """The rolled-out plays of a report, best first."""
    return [entry for entry in report["plays"] if entry["rollout"]]


def test_each_play_is_behind_the_best_by_the_paired_trials_with_its_standard_error(bot):
    report = analyse_position(
        bot, Position.initial(), (4, 4), bot.rules, trials=72, candidates=0, truncate=4, seed=3
    )
    plays = rolled_out(report)
    assert len(plays) == len(legal_afterstates(Position.initial(), (4, 4))) > 2
    rows = np.stack([Position.from_key(entry["afterstate"]).row for entry in plays])
    again = roll_out(bot, rows, trials=72, seed=3, truncate=4)  # the same trials, best first
    best = plays[0]["rollout"]
    assert not {"behind", "behind_stderr", "significant"} & set(best)
    for k, entry in enumerate(plays[1:], start=1):
        rolled = entry["rollout"]
        behind, error = again.difference(0, k)  # per trial: the same dice for both plays
        assert rolled["behind"] == pytest.approx(behind)
        assert rolled["behind"] == pytest.approx(best["equity"] - rolled["equity"])
        assert rolled["behind_stderr"] == pytest.approx(error)
        paired = again.points[0] - again.points[k]
        assert error == pytest.approx(paired.std(ddof=1) / np.sqrt(72))
        assert rolled["significant"] == (rolled["behind"] > SIGNIFICANT * error)
    marks = [entry["rollout"]["significant"] for entry in plays[1:]]
    assert any(marks) and not all(marks)  # this seed has both (a check of the table below)
    lines = format_analysis(report).splitlines()
    assert "±se    diff    ±se" in next(line for line in lines if "rollout" in line and "#" in line)
    for entry in plays[1:]:
        line = next(line for line in lines if f"  {entry['play']}  " in line)
        mark = "*" if entry["rollout"]["significant"] else " "
        assert (
            f"{-entry['rollout']['behind']:+.3f}  {entry['rollout']['behind_stderr']:.3f} {mark}"
            in line
        )
    assert "*: behind by more than 2 standard errors" in " ".join(lines)


def test_exact_differences_are_significant_and_one_trial_marks_none(bot):
    exact = analyse_position(
        bot, Position.initial(), (2, 1), bot.rules, trials=36, candidates=0, truncate=0
    )
    for entry in rolled_out(exact)[1:]:  # the 1-ply judgement: no noise at all
        rolled = entry["rollout"]
        assert rolled["behind_stderr"] == 0.0
        assert rolled["significant"] == (rolled["behind"] > 0)
    once = analyse_position(
        bot, Position.initial(), (4, 4), bot.rules, trials=1, candidates=0, truncate=4
    )
    assert not any(entry["rollout"]["significant"] for entry in rolled_out(once)[1:])


# --- the opening table ------------------------------------------------------------------------


def test_the_opening_table_has_every_roll_and_its_rolled_out_plays(bot):
    reports = opening_table(bot, trials=2, candidates=2, truncate=2)
    assert [tuple(report["dice"]) for report in reports] == list(OPENING_ROLLS)
    assert len(OPENING_ROLLS) == 21 and len(set(OPENING_ROLLS)) == 21
    for report in reports:
        plays = legal_afterstates(Position.initial(), tuple(report["dice"]))
        assert len(report["plays"]) == len(plays)
        rolled = [entry for entry in report["plays"] if entry["rollout"]]
        assert len(rolled) == min(2, len(plays))
        assert report["plays"][: len(rolled)] == rolled  # the rolled-out plays first
        equities = [entry["rollout"]["equity"] for entry in rolled]
        assert equities == sorted(equities, reverse=True)
    short = readme_table(reports)
    assert len(short.splitlines()) == 2 + 21
    for report in reports:  # every play but the best says how far behind it is
        rolled = [entry["rollout"] for entry in report["plays"] if entry["rollout"]]
        assert "behind" not in rolled[0]
        for other in rolled[1:]:
            assert other["behind"] == pytest.approx(rolled[0]["equity"] - other["equity"])
            assert other["behind_stderr"] >= 0
    text = document(reports, 2, "python -m agents.analysis.opening --trials 2", 1.0, 2)
    assert all(f"## {high}-{low}" in text for high, low in OPENING_ROLLS)
    assert "python -m agents.analysis.opening --trials 2" in text


def test_the_opening_tables_are_written_only_with_write(tmp_path, capsys):
    docs, summary = tmp_path / "opening.md", tmp_path / "analysis.md"
    begin, end = markers("tapa", whole=True)
    tabla = "\n".join(markers("tabla", whole=True))
    docs.write_text(f"intro\n{begin}\nthe published table\n{end}\n{tabla}\nthe tabla table\n")
    summary.write_text(f"intro\n{README_BEGIN}\nthe published short table\n{README_END}\n")
    before = docs.read_text(), summary.read_text()
    arguments = ["--trials", "1", "--candidates", "1", "--workers", "1", "--player", str(BOT)]
    arguments += ["--docs", str(docs), "--summary", str(summary)]
    main(arguments)  # a trial run: the table printed, nothing written
    printed = capsys.readouterr().out
    assert (docs.read_text(), summary.read_text()) == before
    assert printed.startswith("| roll | best play |") and len(printed.splitlines()) >= 2 + 21
    assert "nothing written" in printed and "--write" in printed
    main([*arguments, "--write"])
    printed = capsys.readouterr().out
    assert "published" not in docs.read_text() + summary.read_text()
    assert f"--trials 1 --candidates 1 --seed 0 --player {BOT} --write" in docs.read_text()
    assert docs.read_text().startswith(f"intro\n{begin}\nThe side that starts")
    assert docs.read_text().endswith(f"{end}\n{tabla}\nthe tabla table\n")  # kept
    assert summary.read_text().startswith(f"intro\n{README_BEGIN}\n| roll | best play |")
    assert f"written to {docs} and {summary}" in printed


def test_the_opening_help_says_that_only_write_writes(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "writes nothing unless --write is given" in text
    assert "--write write the tables" in text


def test_write_is_refused_before_the_rollouts_when_the_summary_has_no_markers(tmp_path, capsys):
    summary = tmp_path / "analysis.md"
    summary.write_text("no markers\n")
    with pytest.raises(SystemExit) as stopped:
        main(["--write", "--player", str(BOT), "--summary", str(summary)])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert f"{summary} has no lines" in error and len(error.splitlines()) == 1


def test_the_readme_table_goes_between_its_markers():
    readme = f"intro\n{README_BEGIN}\nold\n{README_END}\nrest\n"
    assert (
        replace_readme_table(readme, "new") == f"intro\n{README_BEGIN}\nnew\n{README_END}\nrest\n"
    )
    with pytest.raises(ValueError, match="markers|no lines"):
        replace_readme_table("no markers here", "new")


def test_the_shipped_opening_table_is_in_the_analysis_docs_and_the_whole_one_beside_it():
    summary = SUMMARY.read_text()  # docs/analysis.md: the README links it
    table = summary.split(README_BEGIN)[1].split(README_END)[0]
    rolls = [line.split("|")[1].strip() for line in table.strip().splitlines()[2:]]
    assert rolls == [f"{high}-{low}" for high, low in OPENING_ROLLS]
    docs = DOCS.read_text()
    assert "python -m agents.analysis.opening" in docs and "(opening.md)" in summary
    assert (SUMMARY.parent, DOCS.parent) == (ROOT / "docs", ROOT / "docs")


START_METHOD = """
import threading, sys
from agents.evaluation.workers import start_context
if sys.argv[1] == "thread":
    threading.Thread(target=threading.Event().wait, daemon=True).start()
print(start_context(numpy_only=sys.argv[2] == "numpy").get_start_method())
"""


@pytest.mark.parametrize(
    ("threads", "work", "method"),
    [
        ("alone", "numpy", "fork"),
        ("thread", "numpy", "spawn"),  # a lock the other thread held stays locked after fork
        ("alone", "torch", "spawn"),  # torch's thread pool cannot follow a fork
    ],
)
def test_workers_start_by_fork_only_for_numpy_work_from_a_process_with_one_thread(
    threads, work, method
):
    done = subprocess.run(
        [sys.executable, "-c", START_METHOD, threads, work],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        check=True,
        timeout=600,
    )
    assert done.stdout.strip() == method


def test_only_players_that_need_no_torch_say_so(bot):
    from agents.bots.players import RandomPlayer

    assert bot.numpy_only  # a TD bot values plays by the numpy evaluator
    assert not RandomPlayer().numpy_only  # the default: a player may use anything
