"""Game records (agents/records/, docs/game-records.md): what the writer
writes, the reader reads back and replays through the engine; a damaged record is refused with
one line naming its line; play.py saves each session's games and evaluate.py a tournament's."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents import load_player, play_games
from agents.evaluation.tournament import TournamentConfig, round_robin
from agents.records import (
    FIRST_LINE,
    GameRecord,
    GameRecordError,
    RecordedGame,
    RecordedTurn,
    Result,
    format_record,
    parse_record,
    read_record,
    record_destination,
)
from agents.records.endings import KINDS
from agents.records.tournament import TurnLog, arena_records
from tapa_env import Position
from tapa_env.board_text import draw_framed_board
from tapa_env.rules import DEFAULT_RULES, Rules

try:
    import entry_scripts
except ImportError:  # tests/ imported as a package
    from tests import entry_scripts

ROOT = Path(__file__).resolve().parents[1]
CONFIRMED_GAME = "1\n\n" * 3000  # always the first play, then Enter to confirm it


def recorded(names, games, seed, match_points=None, max_turns=1000, rules=DEFAULT_RULES):
    """Arena games between the players ``names``, as records (and the arena's results and
    turn log, to compare with)."""
    players = tuple(load_player(name, rules) for name in names)
    log = TurnLog()
    results = play_games(
        players,
        games,
        seed=seed,
        match_points=match_points,
        max_turns=max_turns,
        batch=3,
        rules=rules,
        record=log,
    )
    return arena_records(log, results, tuple(names), rules), results, log


SAMPLES = {
    "heuristics": (("offensive", "defensive"), 6, 1, None, 1000),
    "a match": (("random", "adaptive"), 4, 2, 3, 1000),
    "the shipped bot": ((str(ROOT / "checkpoints/tapa-td.pt"), "defensive"), 2, 3, None, 1000),
    "unfinished": (("random", "random"), 4, 4, None, 30),
    "an unfinished match": (("random", "offensive"), 2, 5, 5, 60),
}


@pytest.fixture(scope="module")
def samples():
    return {name: recorded(*args[:3], match_points=args[3], max_turns=args[4])
            for name, args in SAMPLES.items()}  # fmt: skip


def test_records_read_back_as_they_were_written_and_replay_the_arenas_games(samples):
    kinds, passes = set(), 0
    for records, results, log in samples.values():
        turns = log.by_series()
        index = 0
        for series, record in records.items():
            text = format_record(record)
            back = parse_record(text)
            assert format_record(back) == text
            assert back.games == record.games
            assert (back.players, back.rules, back.match_points) == (
                record.players,
                record.rules,
                record.match_points,
            )
            replayed = [turn for game in back.games for turn in game.turns]
            played = turns[series]
            assert len(replayed) == len(played)
            for turn, (mover, dice, position, afterstate) in zip(replayed, played):
                assert turn.side == "OX"[mover] and sorted(turn.dice) == sorted(dice)
                assert turn.position == Position(position)
                assert turn.afterstate == Position(afterstate)
            for game in back.games:
                points = results.points[index]
                assert game.result.kind == KINDS[results.kind[index]]
                if game.result.winner is not None:
                    assert game.result.points == abs(points)
                    assert game.result.winner == ("O" if points > 0 else "X")
                kinds.add(game.result.kind)
                passes += sum(turn.play == "pass" for turn in game.turns)
                index += 1
    assert {"single", "gammon", "mother", "unfinished"} <= kinds
    assert passes > 0


def test_a_match_record_keeps_the_score_and_the_winner_starts_the_next_game(samples):
    records, results, _ = samples["a match"]
    for record in records.values():
        text = format_record(record)
        assert "Match: 3 points" in text
        games = record.games
        assert len(games) >= 2 and max(record.score()) >= 3
        for before, after in zip(games, games[1:]):
            if before.result.winner is not None:
                assert after.starter == before.result.winner  # R11
                assert after.note == f"won game {games.index(before) + 1}"
        score = record.score()
        winner = "O" if score[0] > score[1] else "X"
        assert text.rstrip().endswith(f"Match result: {winner} wins {max(score)}-{min(score)}")


def test_an_unfinished_match_says_so(samples):
    records, _, _ = samples["an unfinished match"]
    texts = [format_record(record) for record in records.values()]
    assert any("Result: unfinished" in text for text in texts)
    for record, text in zip(records.values(), texts):
        if max(record.score()) < 5:
            score = record.score()
            assert f"Match result: unfinished at O {score[0]}, X {score[1]}" in text
        assert parse_record(text).games == record.games


# The worked example of R10 in docs/rules.md: the mover's mother is pinned, and 7/1 pins the
# opponent's mother: a draw. Mover {24: 1 pinned, 13: 13, 7: 1}, opponent {1: 1, 20: 13, 24: 1}.
DRAWN = Position.from_key("7:1,13:13,24:1|1:1,20:13,24:1|-24")


def one_turn_record(play: str, result: Result, rules: Rules = DEFAULT_RULES) -> GameRecord:
    turn = RecordedTurn("O", (6, 1), play)
    game = RecordedGame("O", "chosen", [turn], result)
    return GameRecord(("a", "b"), rules, None, [game], start=DRAWN)


def test_a_drawn_game_from_a_start_position_reads_back():
    record = one_turn_record("7/1*", Result("draw"))
    text = format_record(record)
    assert f"Start: {DRAWN.key}" in text and "Result: draw" in text
    back = parse_record(text)
    assert back.start == DRAWN and back.games == record.games
    with pytest.raises(GameRecordError, match="the game ended 'draw', but the record says"):
        parse_record(format_record(one_turn_record("7/1*", Result("mother", "O", 2))))
    # Without the draw (R10 off) the game goes on, so the play uses both dice (R6).
    rules = Rules(both_mothers_draw=False)
    with pytest.raises(GameRecordError, match="illegal play"):
        parse_record(format_record(one_turn_record("7/1*", Result("unfinished"), rules)))
    text = format_record(one_turn_record("13/12 7/1*", Result("unfinished"), rules))
    assert parse_record(text).games[0].result == Result("unfinished")


def test_a_record_may_have_comments_and_blank_lines():
    record = one_turn_record("7/1*", Result("draw"))
    lines = format_record(record).splitlines()
    lines.insert(3, "# a comment")
    lines.insert(8, "")
    assert parse_record("\n".join(lines)).games == record.games


# --- damaged records ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def match_text(samples):
    records, _, _ = samples["a match"]
    return format_record(next(iter(records.values())))


def refused(text: str) -> str:
    with pytest.raises(GameRecordError) as caught:
        parse_record(text, "m.tapa")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("m.tapa, line ")
    return message


def line_of(lines: list[str], pattern: str) -> int:
    """The 1-based number of the first line that matches ``pattern``."""
    return next(i for i, line in enumerate(lines, start=1) if re.match(pattern, line))


def test_an_illegal_play_is_refused_naming_its_line(match_text):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+5 [OX] ")
    lines[number - 1] = re.sub(r"(\d-\d)\s+.*", r"\1  24/1", lines[number - 1])
    message = refused("\n".join(lines))
    assert f"line {number}: turn 5" in message and "illegal play" in message


def test_a_pass_where_a_play_exists_is_refused(match_text):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+1 [OX] ")
    lines[number - 1] = re.sub(r"(\d-\d)\s+.*", r"\1  pass", lines[number - 1])
    assert f"line {number}: turn 1" in refused("\n".join(lines))


@pytest.mark.parametrize("roll", ["7-1", "6x5", "65", "0-3"])
def test_a_bad_roll_is_refused_naming_its_line(match_text, roll):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+3 [OX] ")
    lines[number - 1] = re.sub(r"\d-\d", roll, lines[number - 1], count=1)
    message = refused("\n".join(lines))
    assert f"line {number}: bad roll '{roll}'" in message


def test_a_missing_turn_is_refused_naming_the_line_where_it_was_due(match_text):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+7 [OX] ")
    del lines[number - 1]
    message = refused("\n".join(lines))
    assert f"line {number}: turn 8 where turn 7 is due (a turn is missing)" in message


def test_a_wrong_side_is_refused(match_text):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+4 [OX] ")
    side = lines[number - 1].split()[1]
    lines[number - 1] = lines[number - 1].replace(f" {side} ", f" {'XO'['OX'.index(side)]} ", 1)
    assert f"line {number}: turn 4 is {side}'s" in refused("\n".join(lines))


def test_a_truncated_record_is_refused_naming_its_last_line(match_text):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+9 [OX] ")
    message = refused("\n".join(lines[:number]))
    assert f"line {number}: the record ends here, truncated" in message
    message = refused("\n".join(lines[: line_of(lines, "Result:")]))  # no Match result: line
    assert "truncated" in message


@pytest.mark.parametrize("kept", [1, 3, 5, 7, -1])  # '9', '9 O', '9 O 6', '9 O 6-5', '9 O 6-5  24/'
def test_a_record_cut_in_the_middle_of_a_turn_says_so_naming_its_last_line(match_text, kept):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+9 [OX] ")
    turn = lines[number - 1].strip()
    cut = turn[:kept] if kept > 0 else turn[: turn.index("/") + 1]
    message = refused("\n".join([*lines[: number - 1], f"  {cut}"]))
    assert message.startswith(
        f"m.tapa, line {number}: the record ends in the middle of turn 9: its last line "
        f"{cut!r} is incomplete"
    ), message
    assert "expected turn" not in message  # no made-up turn that reads like the lost one
    if kept < 0:  # the play lost its end: what the reader made of it follows
        assert "illegal play" in message


def test_a_turn_line_that_is_wrong_before_the_end_shows_the_form_not_a_turn(match_text):
    lines = match_text.splitlines()
    number = line_of(lines, r"\s+9 [OX] ")
    lines[number - 1] = lines[number - 1].split()[0] + " O"
    message = refused("\n".join(lines))
    assert f"line {number}: expected turn 9 (a turn's line holds its number, side, roll" in message
    assert "as '1 O 6-5  24/18/13') or a Result: line" in message


def test_a_folder_is_no_record(tmp_path):
    with pytest.raises(GameRecordError, match=rf"^{re.escape(str(tmp_path))}: is a folder"):
        read_record(tmp_path)


@pytest.mark.parametrize(
    ("first", "phrase"),
    [
        ("Tapa game record 2", "unknown version '2' of the game record format"),
        ("Tapa game record 1.1", "unknown version '1.1'"),
        ("Backgammon match file", "not a game record: the first line must be"),
    ],
)
def test_an_unknown_version_or_another_file_is_refused_at_line_1(match_text, first, phrase):
    lines = match_text.splitlines()
    lines[0] = first
    assert f"line 1: {phrase}" in refused("\n".join(lines))


@pytest.mark.parametrize(
    ("pattern", "replacement", "phrase"),
    [
        (r"Result: .*", "Result: draw", "the game ended"),
        (r"Score: O 0, X 0", "Score: O 1, X 0", "the score before game 1 is O 0, X 0"),
        (r"Match: .*", "Match: three", "bad match length"),
        (r"Rules: .*", "Rules: pinned_blocks_bear_off=true", "does not set"),
        (r"Rules: .*", "Rules: no_pins=true", "unknown rule flag 'no_pins'"),
        (r"Date: .*", "Date: yesterday", "bad date"),
        (r"Starter: .*", "Starter: somebody", "expected 'Starter: O' or 'Starter: X'"),
        (r"Match result: .*", "Match result: X wins 9-0", "the games give"),
        (r"Game 2", "Game 3", "expected 'Game 2'"),
    ],
)
def test_other_damage_is_refused_naming_its_line(match_text, pattern, replacement, phrase):
    lines = match_text.splitlines()
    number = line_of(lines, pattern)
    lines[number - 1] = replacement
    message = refused("\n".join(lines))
    assert f"line {number}: " in message and phrase in message


def test_the_winner_of_a_game_must_start_the_next(match_text):
    lines = match_text.splitlines()
    number = [i for i, line in enumerate(lines, start=1) if line.startswith("Starter:")][1]
    side = lines[number - 1].split()[1]
    lines[number - 1] = f"Starter: {'XO'['OX'.index(side)]}"
    assert f"line {number}: {side} won game 1, so {side} starts game 2 (R11)" in refused(
        "\n".join(lines)
    )


def test_a_false_opening_throw_is_refused():
    text = format_record(one_turn_record("7/1*", Result("draw")))
    bad = text.replace("Starter: O (chosen)", "Starter: O (opening throw O 2, X 5)")
    assert "makes X start, not O (R2)" in refused(bad)
    good = text.replace("Starter: O (chosen)", "Starter: O (opening throw O 5, X 2)")
    assert parse_record(good).games[0].note == "opening throw O 5, X 2"


def test_an_unreadable_file_is_one_line(tmp_path):
    with pytest.raises(GameRecordError, match=r"^.*none\.tapa: cannot read the game record"):
        read_record(tmp_path / "none.tapa")
    binary = tmp_path / "binary.tapa"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(GameRecordError, match="is not a text file"):
        read_record(binary)
    empty = tmp_path / "empty.tapa"
    empty.write_text("")
    with pytest.raises(GameRecordError, match="line 1: empty file"):
        read_record(empty)


@pytest.mark.parametrize(
    ("saved", "encode"),
    [
        ("CRLF line ends", lambda text: text.replace("\n", "\r\n").encode()),
        ("a UTF-8 byte-order mark", lambda text: b"\xef\xbb\xbf" + text.encode()),
        ("both", lambda text: b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()),
        ("CR line ends", lambda text: text.replace("\n", "\r").encode()),
        ("UTF-16 with its mark", lambda text: text.replace("\n", "\r\n").encode("utf-16")),
    ],
)
def test_a_record_saved_by_a_windows_editor_reads_as_it_was_written(tmp_path, saved, encode):
    example = next(block for block in doc_blocks("text") if "seed=11, game 35" in block) + "\n"
    path = tmp_path / "windows.tapa"
    path.write_bytes(encode(example))
    record = read_record(path)
    assert record == parse_record(example) and format_record(record) == example
    assert parse_record("\ufeff" + example) == record  # a text read with its mark kept
    path.write_bytes(encode(example.replace("5-4  24/20 24/19", "5-4  13/8")))
    with pytest.raises(GameRecordError, match=r"windows\.tapa, line 13: turn 3, O 5-4: illegal"):
        read_record(path)  # the lines are counted as the editor counts them


def test_where_a_session_record_goes(tmp_path):
    from datetime import datetime

    now = datetime(2025, 3, 2, 10, 15, 7)
    first = record_destination(tmp_path / "games", "record=games", now)
    assert first == tmp_path / "games" / "2025-03-02_10-15-07.tapa" and first.parent.is_dir()
    first.write_text("taken")
    assert record_destination(tmp_path / "games", "record=games", now).name == (
        "2025-03-02_10-15-07-2.tapa"
    )
    assert record_destination(tmp_path / "x" / "m.tapa", "record=m", now) == tmp_path / "x/m.tapa"
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(GameRecordError, match=r"^record=file/games: cannot write into"):
        record_destination(blocker / "games", "record=file/games", now)


# --- play.py ---------------------------------------------------------------------------------


def run_play(*overrides: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess:
    """play.py against the random bot, saving its record as play.py does by default."""
    return entry_scripts.run_play("opponent=random", *overrides, stdin=stdin, cwd=cwd, records=True)


def test_play_saves_the_game_in_games_and_it_replays_to_the_final_position(tmp_path):
    done = run_play("seed=5", stdin=CONFIRMED_GAME, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    files = list((tmp_path / "games").glob("*.tapa"))
    assert len(files) == 1
    relative = files[0].relative_to(tmp_path)
    assert f"The game is recorded in {relative}\n" in done.stdout
    assert f"python analyze.py record={relative}" in done.stdout
    record = read_record(files[0])
    assert record.players == ("you", "random") and record.match_points is None
    assert "Source: play.py seed=5" in files[0].read_text()
    game = record.games[0]
    assert game.result.kind in ("single", "gammon", "mother", "draw")
    last = game.turns[-1]
    final = last.afterstate if last.side == "O" else last.afterstate.flip()  # your view
    assert draw_framed_board(final, "you", "random") in done.stdout
    assert done.stdout.count(" rolls ") == sum(turn.side == "X" for turn in game.turns)


def test_leaving_a_game_saves_it_unfinished_where_record_says(tmp_path):
    done = run_play("seed=2", "first=you", "record=mine.tapa", stdin="1\n\n1\n\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Good-bye" in done.stdout and "recorded in mine.tapa" in done.stdout
    record = read_record(tmp_path / "mine.tapa")
    game = record.games[0]
    assert game.result == Result("unfinished") and game.note == "first=you"
    assert [turn.side for turn in game.turns][:3] == ["O", "X", "O"]


def test_record_null_saves_nothing(tmp_path):
    done = run_play("seed=2", "first=you", "record=null", stdin="1\n\n1\n\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "recorded" not in done.stdout and not list(tmp_path.iterdir())


def test_a_record_that_cannot_be_written_is_one_line_before_the_game(tmp_path):
    (tmp_path / "file").write_text("")
    done = run_play("record=file/games", stdin="", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "play.py: error: record=file/games: cannot write into file/games (Not a directory)"
    ]


# --- evaluate.py -----------------------------------------------------------------------------


def test_evaluate_saves_every_game_the_same_whatever_the_workers(tmp_path):
    config = TournamentConfig(
        players=["offensive", "random", "defensive"], games=4, match_points=2, workers=1
    )
    texts = {}
    for workers in (1, 2):
        folder = tmp_path / f"w{workers}"
        results = round_robin(replace(config, workers=workers, record_games=str(folder)))
        files = sorted(folder.rglob("*.tapa"))
        assert len(files) == 3 * 4  # three pairings of four matches
        texts[workers] = {
            str(f.relative_to(folder)): re.sub(r"Date: .*", "", f.read_text()) for f in files
        }
        pairings = results["pairings"]
        for pairing in pairings:
            assert pairing["matches"]["played"] == 4
    assert texts[1] == texts[2]
    name = "01-offensive-vs-random/match-00003.tapa"
    record = read_record(tmp_path / "w1" / name)
    assert record.players == ("offensive", "random") and record.match_points == 2
    assert "Source: evaluate.py seed=0, match 3" in (tmp_path / "w1" / name).read_text()


def test_evaluate_py_says_where_the_records_went(tmp_path):
    (tmp_path / "file").write_text("")
    # The refusal side by side with the run: each start of evaluate.py takes seconds.
    refusing = subprocess.Popen(
        [sys.executable, "evaluate.py", "players=[offensive,random]", "games=2",
         f"record_games={tmp_path / 'file'}", f"hydra.run.dir={tmp_path / 'run2'}"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        done = subprocess.run(
            [sys.executable, "evaluate.py", "players=[offensive,random]", "games=2", "workers=1",
             f"record_games={tmp_path / 'g'}", f"hydra.run.dir={tmp_path / 'run'}"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        _, refused = refusing.communicate(timeout=300)
    finally:
        if refusing.poll() is None:
            refusing.kill()
            refusing.wait()
    assert done.returncode == 0, done.stderr
    assert f"game records written under {tmp_path / 'g'}" in done.stdout
    assert len(list((tmp_path / "g").rglob("*.tapa"))) == 2
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["config"]["record_games"] == str(tmp_path / "g")
    assert refusing.returncode == 2
    assert refused.splitlines() == [
        f"evaluate.py: error: record_games={tmp_path / 'file'}: {tmp_path / 'file'} is not a "
        "directory"
    ]


def test_the_first_line_names_the_format_and_its_version():
    assert FIRST_LINE == "Tapa game record 1"
    text = format_record(one_turn_record("7/1*", Result("draw")))
    assert text.splitlines()[0] == FIRST_LINE
    assert np.all([line == line.rstrip() for line in text.splitlines()])


# --- the documentation ---------------------------------------------------------------------------

DOC = ROOT / "docs" / "game-records.md"


def doc_blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.+?)\n```", DOC.read_text(), re.DOTALL)


def test_the_documented_example_is_a_record_and_its_errors_are_the_readers():
    example = next(block for block in doc_blocks("text") if "seed=11, game 35" in block)
    record = parse_record(example, "game-00035.tapa")
    assert format_record(record) == example + "\n"
    assert record.games[0].result == Result("mother", "O", 2)
    lines = example.splitlines()
    damaged = []
    for number, old, new in [
        (13, "24/20 24/19", "13/8"),
        (13, "5-4", "6-4"),
        (12, "3-3", "7-1"),
        (13, " O ", " X "),
        (32, "O wins", "X wins"),
        (1, "record 1", "record 2"),
    ]:
        changed = list(lines)
        changed[number - 1] = changed[number - 1].replace(old, new)
        damaged.append(changed)
    damaged.append(lines[:16] + lines[17:])  # turn 7 left out
    damaged.append(lines[:30])  # cut after turn 20
    damaged.append([*lines[:28], lines[28][:8]])  # cut in the middle of turn 19: ' 19 O 3-'
    errors = [block for block in doc_blocks("text") if block.startswith("game-00035.tapa, line")]
    documented = errors[0].splitlines()
    messages = []
    for changed in damaged:
        with pytest.raises(GameRecordError) as caught:
            parse_record("\n".join(changed), "game-00035.tapa")
        messages.append(str(caught.value))
    assert sorted(messages) == sorted(documented)
