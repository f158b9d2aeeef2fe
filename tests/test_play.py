"""play.py: a person plays a bot in the terminal. Whole games from scripted input, the answers
to mistakes at the prompt, hint, undo, quit, end of input and Ctrl-C, a match, the board, and
the settings' errors."""

from __future__ import annotations

import dataclasses
import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from boards import board
from entry_scripts import run_play

from agents import load_player
from agents.play import terminal as play
from agents.records import read_record
from agents.records.data import describe_roll
from tapa_env import Position, legal_plays, outcome
from tapa_env.board_text import draw_framed_board, pip_counts
from tapa_env.results import Outcome
from tapa_env.rules import DEFAULT_RULES

ROOT = Path(__file__).resolve().parents[1]

KIND = r"(a single win, 1 point|a gammon, 2 points|a mother win, 2 points)"
CONFIRMED_GAME = "1\n\n" * 3000  # always the first play, then Enter to confirm it


def session(answers: str, start: Position | None = None, **settings) -> tuple[int, str]:
    """Run a session in this process on scripted ``answers``: ``(status, transcript)``."""
    config = dataclasses.replace(play.PlayConfig(opponent="random", seed=1), **settings)
    config, opponent, hinter, rules = play.check_config(config)
    out = io.StringIO()
    run = play.Session(config, opponent, hinter, rules, io.StringIO(answers), out, start=start)
    status = run.run()
    return status, out.getvalue()


def listed_plays(text: str) -> list[str]:
    """The plays of the first list in a transcript, in their numbers' order."""
    block = text.split("legal plays.\n")[1].split("Your play")[0]
    entries = [entry for line in block.splitlines() for entry in line.strip().split("  ")]
    numbered = dict(entry.strip().split(") ", 1) for entry in entries if entry.strip())
    return [numbered[str(number)] for number in range(1, len(numbered) + 1)]


def first_plays(seed: int = 1) -> list[str]:
    """The listed plays of your first turn when you start with ``seed``'s dice."""
    _, text = session("", seed=seed, first="you")
    return listed_plays(text)


# --- whole games ---------------------------------------------------------------------------


def test_a_scripted_game_from_piped_input_ends_with_a_result():
    done = subprocess.run(
        [sys.executable, "play.py", "opponent=random", "seed=5", "record=null"],
        cwd=ROOT,
        input=CONFIRMED_GAME,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result = re.findall(rf"^(You win|random wins): {KIND}", done.stdout, re.M)
    assert len(result) == 1 or "the game is a draw" in done.stdout
    assert "Good-bye" not in done.stdout  # the game ended before the input did
    assert done.stdout.count("O  you") > 10  # the board, every turn
    assert "random rolls" in done.stdout and "(on your board: " in done.stdout


def test_a_match_to_three_points_is_played_to_its_end():
    status, text = session(CONFIRMED_GAME, match=3, seed=2)
    assert status == 0
    assert re.search(r"^(You win|random wins) the match [34]-\d\.$", text, re.M)
    games = re.findall(
        r"^Game (\d) of the match to 3\. Score: you (\d), random (\d)\.$", text, re.M
    )
    assert games[0] == ("1", "0", "0") and len(games) >= 2
    results = re.findall(r"^(You win|random wins): .*, (\d) points?", text, re.M)
    assert len(results) == len(games)
    you = sum(int(points) for who, points in results if who == "You win")
    them = sum(int(points) for who, points in results if who != "You win")
    assert max(you, them) >= 3 and min(you, them) < 3
    # R11: the winner of a game starts the next one.
    for (who, _), later in zip(results, text.split("\nGame ")[2:]):
        starter = "You won the last game" if who == "You win" else "random won the last game"
        assert later.splitlines()[1].startswith(starter)


def test_every_board_of_a_match_game_says_the_match_score():
    status, text = session(CONFIRMED_GAME, match=3, seed=2)
    assert status == 0
    blocks = text.split("\nGame ")[1:]
    assert len(blocks) >= 2
    for block in blocks:
        number, you, them = re.match(
            r"^(\d) of the match to 3\. Score: you (\d), random (\d)\.", block
        ).groups()
        shown = f"Score: you {you}, random {them} in the match to 3 (game {number})."
        lines = block.splitlines()
        scores = [line for line in lines if line.startswith("Score: you")]
        assert scores and set(scores) == {shown}
        # after every board but the one of the game's end
        assert len(scores) == sum("O  you" in line for line in lines) - 1
    _, single = session(CONFIRMED_GAME, seed=2)
    assert "Score:" not in single


def test_the_board_command_in_a_match_says_the_match_score():
    _, text = session("board\nquit\n", first="you", match=3)
    asked = text.split("): board\n")[1]
    board, after = asked.split("Score: you 0, random 0 in the match to 3 (game 1).\n")
    assert "O  you" in board and "Your play" not in board
    assert after.startswith("Your play (")


def test_rolls_are_told_the_higher_die_first_as_the_game_record_writes_them(tmp_path):
    done = run_play(
        "opponent=random", "seed=1", "record=game.tapa", stdin=CONFIRMED_GAME, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    told = re.findall(r"^(?:random rolls|You roll) (\d-\d)\b", text, re.M)
    record = read_record(tmp_path / "game.tapa")
    written = [describe_roll(turn.dice) for game in record.games for turn in game.turns]
    assert told == written  # the terminal and the record say every roll alike
    assert all(roll[0] >= roll[2] for roll in told) and any(roll[0] > roll[2] for roll in told)
    prompts = re.findall(r"^Your play \((\d)-(\d)\):", text, re.M)
    assert prompts and all(high >= low for high, low in prompts)


def test_a_runs_checkpoint_plays_under_its_runs_name(tmp_path):
    checkpoints = tmp_path / "runs" / "agent-td" / "checkpoints"
    checkpoints.mkdir(parents=True)
    shipped = (ROOT / "checkpoints" / "tapa-td.pt").read_bytes()  # a bot.pt, as runs write it
    for name in ("bot.pt", "last.pt", "tapa-mine.pt"):
        (checkpoints / name).write_bytes(shipped)
    names = {
        spec: load_player(str(checkpoints / spec)).name
        for spec in ("bot.pt", "last.pt", "bot.pt@2ply", "last.pt@3ply", "tapa-mine.pt@2ply")
    }
    assert names == {
        "bot.pt": "agent-td",
        "last.pt": "agent-td",
        "bot.pt@2ply": "agent-td@2ply",
        "last.pt@3ply": "agent-td@3ply",
        "tapa-mine.pt@2ply": "tapa-mine@2ply",  # any other file: its stem
    }
    (tmp_path / "bot.pt").write_bytes(shipped)  # no run's checkpoints/ folder: the stem
    assert load_player(str(tmp_path / "bot.pt")).name == "bot"
    done = run_play(
        "opponent=runs/agent-td/checkpoints/bot.pt@2ply", "seed=5", "first=bot", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "you play O against agent-td@2ply (X)" in done.stdout
    assert "agent-td@2ply rolls" in done.stdout and "bot rolls" not in done.stdout


def test_a_single_game_says_how_it_was_won():
    _, text = session(CONFIRMED_GAME, seed=3)
    assert re.search(rf"^(You win|random wins): {KIND} \((you|random) ", text, re.M)


# --- the prompt: mistakes, commands ------------------------------------------------------------


def test_mistakes_at_the_prompt_get_a_message_and_a_new_prompt():
    plays = first_plays()
    answers = ["0", "999", "24/1", "garbage", "", "bar/20", "13/6", "undo", "1", ""]
    status, text = session("\n".join(answers) + "\n", first="you")
    assert status == 0
    assert "There is no play 0: the plays are numbered 1 to" in text
    assert "There is no play 999: the plays are numbered 1 to" in text
    assert "'24/1': 24/1 is 23 pips" in text
    assert "Unknown command 'garbage'" in text
    assert "Type a play's number" in text
    assert "Tapa has no bar" in text
    assert "'13/6' moves 1 checker from point 13, which holds none" in text  # the roll is 3-4
    assert "Nothing to take back" in text
    assert text.split("You play")[0].count("Your play (") == 9  # a prompt for every answer
    assert f"You play {plays[0]}. Enter confirms it" in text
    assert "random rolls" in text  # the game went on to the bot's turn
    assert "Traceback" not in text


def answer_to(typed: str, width: int = 100) -> tuple[str, list[str]]:
    """What the prompt answers to ``typed`` on the first turn of seed 5 (you start with 5-5):
    its sentences, and the plays it lists (entries ``N) text`` in their numbers' order), each
    line checked to hold whole entries within ``width``."""
    config = play.PlayConfig(opponent="random", seed=5, first="you")
    config, opponent, hinter, rules = play.check_config(config)
    out = io.StringIO()
    answers = io.StringIO(f"{typed}\n")
    play.Session(config, opponent, hinter, rules, answers, out, width=width).run()
    answer = out.getvalue().split(f"Your play (5-5): {typed}\n")[1].split("Your play")[0]
    sentences, entries = [], []
    for line in answer.splitlines():
        if re.match(r"\s+\d+\) ", line):
            assert len(line) <= width, line
            entries += [entry.strip() for entry in re.split(r"\s{2,}", line.strip())]
        else:
            sentences.append(line)
    return "\n".join(sentences), sorted(entries, key=lambda entry: int(entry.split(")")[0]))


def test_an_incomplete_play_says_how_many_moves_it_makes_and_what_could_follow():
    plays = first_plays(seed=5)  # 5-5, the order of the turn's list
    assert len(plays) > 1
    sentences, entries = answer_to("24/19 24/19")
    assert "'24/19 24/19' is incomplete: it makes 2 of the 4 moves of 5-5." in sentences
    assert "The plays that begin with it:" in sentences and "not a legal" not in sentences
    moves = {play.text: play.moves for play in legal_plays(Position.initial(), (5, 5))}
    begun = [text for text in plays if moves[text].count((24, 19)) >= 2]
    assert 0 < len(begun) < len(plays)  # some plays begin otherwise
    assert entries == [f"{plays.index(text) + 1}) {text}" for text in begun]

    sentences, entries = answer_to("24/19/14")  # a chain: two of one checker's moves
    assert "'24/19/14' is incomplete: it makes 2 of the 4 moves of 5-5." in sentences
    assert entries == [
        f"{number}) {text}"
        for number, text in enumerate(plays, start=1)
        if moves[text].count((24, 19)) >= 1 and (19, 14) in moves[text]
    ]


def test_a_play_that_is_no_legal_play_lists_the_plays_breaking_only_between_them():
    plays = first_plays(seed=5)
    sentences, entries = answer_to("24/19/14/9/4/off", width=50)  # five moves of 5-5
    assert "'24/19/14/9/4/off' is not a legal play of 5-5 here." in sentences
    assert entries == [f"{number}) {text}" for number, text in enumerate(plays, start=1)]


def test_a_play_typed_in_notation_is_played():
    plays = first_plays()
    typed = plays[-1].replace("*", "").upper()
    _, text = session(f"{typed}\n\n", first="you")
    assert f"You play {plays[-1]}. Enter confirms it" in text


def test_undo_takes_the_play_back_before_it_is_confirmed():
    plays = first_plays()
    _, text = session("1\nundo\n2\n\n", first="you")
    assert f"{plays[0]} taken back." in text
    assert f"You play {plays[1]}. Enter confirms it" in text
    before_undo, after_undo = text.split("taken back.")
    assert "random rolls" not in before_undo and "random rolls" in after_undo


def test_without_confirmation_a_play_counts_at_once():
    _, text = session("1\n", first="you", confirm=False)
    assert "Enter confirms" not in text and "random rolls" in text


def test_hint_from_a_heuristic_bot_gives_its_three_best_plays_labelled_as_scores():
    _, text = session("hint\n", first="you", opponent="defensive", seed=5)  # 5-5: 5 plays
    lines = text.split("defensive's best plays (defensive's own score")[1].splitlines()[1:4]
    assert all(re.fullmatch(r"\s+\d+\) \S.*\s[-+]\d+\.\d", line) for line in lines), lines


def test_hint_from_a_trained_bot_gives_equities():
    from agents.td.network import NetworkShape, TDNetwork
    from agents.td.player import TDPlayer

    network = TDNetwork(NetworkShape("raw", (12,), "sigmoid"))
    bot = TDPlayer(network.evaluator(), name="tiny")
    config = play.PlayConfig(opponent="random", seed=5, first="you")  # 5-5: 5 plays
    out = io.StringIO()
    run = play.Session(config, bot, bot, DEFAULT_RULES, io.StringIO("hint\n"), out)
    run.run()
    text = out.getvalue()
    assert "tiny's best plays (equity: expected points for you, -2 to +2):" in text
    values = re.findall(r"^\s+\d+\) .*\s([-+]\d\.\d{3})$", text, re.M)
    assert len(values) == 3
    assert all(-2 <= float(v) <= 2 for v in values)
    assert [float(v) for v in values] == sorted((float(v) for v in values), reverse=True)


def test_hint_against_random_says_it_has_no_opinion():
    _, text = session("hint\n", first="you")
    assert "random has no opinion of plays" in text and "hint_player=" in text


def test_a_long_list_is_cut_at_show_plays_and_list_shows_it_whole():
    _, text = session("list\n", first="you", seed=5, show_plays=2)  # 5-5: 5 plays
    assert "  ... and 3 more: type list to see them all, or type the play." in text
    shown = text.split("Your play (5-5): list")[1]
    assert "  5) " in shown and "more:" not in shown


def test_list_board_and_help_answer_and_keep_the_turn():
    _, text = session("list\nboard\nhelp\n", first="you")
    assert text.count("O  you") == 2  # the board at the turn's start, and on request
    assert "Commands: hint" in text
    assert text.count("Your play (") == 4


@pytest.mark.parametrize("answers", ["quit\n", "q\n", "1\nquit\n", ""])
def test_quit_and_end_of_input_leave_cleanly(answers):
    status, text = session(answers, first="you")
    assert status == 0
    assert text.rstrip().endswith("Good-bye: the game is left unfinished.")


def test_leaving_a_match_gives_the_score():
    _, text = session("quit\n", first="you", match=5)
    assert text.rstrip().endswith("Good-bye: the match is left unfinished at you 0, random 0.")


def test_a_pass_and_a_forced_play_need_no_answer():
    # The checker on 5 is pinned and the others cannot bear off while it is (R7).
    blocked = board({5: 1, 1: 14}, {5: 1, 20: 14}, own_pinned=[5])
    _, text = session("", start=blocked, first="you", seed=4)
    assert re.search(r"^You roll \d-\d: no legal play, you pass\.$", text, re.M)
    assert "random rolls" in text
    # Two checkers left on 1 and 2: any roll bears both off, one legal play.
    racing = board({2: 1, 1: 1}, {19: 5, 22: 3, 24: 2})
    _, text = session("", start=racing, first="you")
    assert re.search(r"your only legal play, .*off.*, is played", text)
    assert "You win: a single win, 1 point (you bore off all 15 first)." in text


WON = board({}, {19: 5})  # all 15 of the mover's checkers off, 5 of the other's
GAMMON = board({}, {19: 15})
MOTHER = board({1: 1, 13: 14}, {1: 1, 20: 14}, opp_pinned=[1])


@pytest.mark.parametrize(
    ("after", "you_moved", "message"),
    [
        (WON, True, "You win: a single win, 1 point (you bore off all 15 first)."),
        (WON, False, "random wins: a single win, 1 point (random bore off all 15 first)."),
        (GAMMON, True, "You win: a gammon, 2 points (you bore off all 15 before random bore "),
        (MOTHER, True, "You win: a mother win, 2 points (random's mother is pinned)."),
        (MOTHER, False, "random wins: a mother win, 2 points (your mother is pinned)."),
    ],
)
def test_the_result_names_the_kind_of_win_and_its_points(after, you_moved, message):
    out = io.StringIO()
    run = play.Session(
        play.PlayConfig(opponent="random", match=7), load_player("random"),
        load_player("random"), DEFAULT_RULES, io.StringIO(""), out,
    )  # fmt: skip
    result = outcome(after)
    assert run.game_over(after, result, you_moved) is you_moved
    assert message in out.getvalue()
    assert run.score == ([result.points, 0] if you_moved else [0, result.points])


def test_a_draw_scores_nothing():
    run = play.Session(
        play.PlayConfig(opponent="random", seed=1, match=3),
        load_player("random"),
        load_player("random"),
        DEFAULT_RULES,
        io.StringIO(""),
        out := io.StringIO(),
    )
    drawn = board({24: 1, 13: 13, 1: 1}, {1: 1, 20: 13, 24: 1}, own_pinned=[24], opp_pinned=[1])
    assert run.game_over(drawn, Outcome(0, 0), you_moved=True) is None
    assert "Both mothers are pinned: the game is a draw, no points." in out.getvalue()
    assert run.score == [0, 0]


# --- the board ------------------------------------------------------------------------------


def test_the_board_shows_both_sides_pins_pips_and_borne_off_counts():
    position = board({24: 9, 13: 1, 8: 3, 2: 1}, {1: 10, 8: 1, 20: 2, 19: 1}, opp_pinned=[8])
    text = draw_framed_board(position, "you", "defensive")
    lines = text.splitlines()
    assert lines[0].split() == [str(p) for p in range(13, 25)]
    assert lines[-1].split() == [str(p) for p in range(12, 0, -1)]
    assert pip_counts(position) == (9 * 24 + 13 + 3 * 8 + 2, 10 * 24 + 17 + 2 * 5 + 6)
    assert "X  defensive" in lines[1] and "O  you" in lines[10]
    assert f"pips {pip_counts(position)[1]}" in lines[2] and "borne off  1" in lines[2]
    assert f"pips {pip_counts(position)[0]}" in lines[11] and "borne off  1" in lines[11]
    column_8 = lines[-1].index(" 8 ") + 1
    assert [line[column_8] for line in lines[8:13]] == [" ", "O", "O", "O", "x"]
    assert "x: X pinned under O" in text and "o: O pinned under X" not in text
    column_24 = lines[0].index("24")
    assert [line[column_24 + 1] for line in lines[2:7]] == ["O", "O", "O", "O", "9"]


def test_a_checker_of_yours_pinned_on_your_start_is_drawn_under_the_pinners():
    position = board({24: 1, 13: 14}, {24: 2, 1: 13}, own_pinned=[24])
    text = draw_framed_board(position, "you", "bot")
    lines = text.splitlines()
    column_24 = lines[0].index("24") + 1
    assert [line[column_24] for line in lines[2:5]] == ["o", "X", "X"]
    assert "o: O pinned under X" in text


def test_the_bots_plays_are_also_shown_in_your_numbering():
    assert play.mirrored("24/18/13 6/off(2)") == "1/7/12 19/off(2)"
    assert play.mirrored("13/8*/5") == "12/17*/20"


# --- the command line -----------------------------------------------------------------------


def assert_one_line_error(done: subprocess.CompletedProcess, *phrases: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("play.py: error: ")
    for phrase in phrases:
        assert phrase in lines[0]
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("override", "phrases"),
    [
        ("opponent=champion", ["unknown player 'champion'", "random, offensive"]),
        ("opponent=missing/tapa-td.pt", ["missing/tapa-td.pt: no such", "opponent=defensive"]),
        ("match=-1", ["match must be a non-negative integer, got -1"]),
        ("match=26", ["match=26: a match is played to at most 25 points"]),
        ("match=100000", ["match=100000: a match is played to at most 25 points"]),
        ("first=me", ["first must be one of roll, you, bot, got 'me'"]),
        ("+colour=red", ["unknown setting 'colour'", "opponent, match, seed"]),
        ("hint_player=nobody", ["unknown player 'nobody'"]),
    ],
)
def test_a_bad_setting_is_one_line_and_status_2(override, phrases):
    assert_one_line_error(run_play("opponent=random", override), *phrases)


def test_a_missing_bot_file_says_what_to_do(tmp_path):
    done = run_play("opponent=checkpoints/none-such.pt", cwd=tmp_path)
    assert_one_line_error(done, "checkpoints/none-such.pt: no such", "opponent=defensive", "train")


def test_the_default_opponent_is_the_shipped_bot():
    assert play.PlayConfig().opponent is None  # the game's own default
    assert play.DEFAULT_OPPONENT == "checkpoints/tapa-td.pt@2ply"
    config, opponent, _, _ = play.check_config(play.PlayConfig(seed=1))
    assert config.opponent == play.DEFAULT_OPPONENT and opponent.name == "tapa-td@2ply"


@pytest.mark.parametrize("override", ["match=abc", "confirm=maybe", "colour=red"])
def test_hydras_own_override_errors_are_brief_with_status_2(override):
    done = run_play("opponent=random", override)
    assert done.returncode == 2, done.stderr
    assert override.split("=")[0] in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 8


def test_help_explains_every_setting():
    done = run_play("--help")
    assert done.returncode == 0, done.stderr
    for field in dataclasses.fields(play.PlayConfig):
        assert re.search(rf"^\s+{field.name}\s", done.stdout, re.M), field.name


def test_every_setting_in_the_config_file_has_a_comment():
    text = (ROOT / "configs" / "play.yaml").read_text()
    lines = text.split("hydra:")[0].splitlines()
    settings = [line for line in lines if re.match(r"^\w+:", line) and line != "defaults:"]
    from_group = ("game", "rules")  # the config group game/ sets them, as in evaluate.py
    assert [line.split(":")[0] for line in settings] == [
        field.name for field in dataclasses.fields(play.PlayConfig) if field.name not in from_group
    ]
    assert "\n  - game: tapa\n" in text
    for line in settings:
        above = lines[lines.index(line) - 1]
        assert above.startswith("#"), f"no comment above {line!r}"


def test_a_trained_bot_file_is_an_opponent(tmp_path):
    from agents.td.checkpoint import describe, save
    from agents.td.network import NetworkShape, TDNetwork
    from tapa_env import Rules

    path = tmp_path / "tiny.pt"
    save(path, describe(TDNetwork(NetworkShape("raw", (8,), "sigmoid")), Rules(), 1, 1, {}))
    done = run_play(f"opponent={path}", "seed=1", "first=bot", stdin="hint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "tiny rolls" in done.stdout
    assert "tiny's best plays (equity: expected points for you" in done.stdout
    assert "Good-bye" in done.stdout


def test_end_of_input_and_ctrl_c_leave_without_a_traceback():
    done = run_play("opponent=random", "first=you", stdin="")
    assert done.returncode == 0 and "Good-bye" in done.stdout and done.stderr == ""
    process = subprocess.Popen(
        [sys.executable, "play.py", "opponent=random", "first=you", "record=null"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen = b""
    deadline = time.monotonic() + 120
    while b"Your play" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            seen += os.read(process.stdout.fileno(), 4096)
    assert b"Your play" in seen
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert b"Good-bye: the game is left unfinished." in out
    assert b"Traceback" not in err


def test_a_closed_stdout_ends_the_game_quietly():
    """As ``python play.py ... | head`` does once ``head`` has had its lines."""
    read, write = os.pipe()
    os.close(read)  # nobody reads: every write to stdout fails with a broken pipe
    try:
        done = subprocess.run(
            [sys.executable, "play.py", "opponent=random", "seed=5", "record=null"],
            cwd=ROOT,
            input=CONFIRMED_GAME,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 1


def test_the_shipped_bot_is_found_from_any_folder(tmp_path):
    # The default opponent, checkpoints/tapa-td.pt@2ply, is found beside the repository when
    # the folder play.py runs from has no checkpoints/ of its own.
    done = run_play(stdin="quit\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "you play O against tapa-td@2ply" in done.stdout
