"""The framed terminal board of each game (tapa_env/board_terminal.py): every point's checkers
read back from the drawing equal the position's on positions of random games, Tabla's bar
with each side's hit checkers, Gulbara's path and the state of its turn (G5, G6)."""

from __future__ import annotations

import doctest
import re

import pytest
from boards import gulbara_board, tabla_board

import tapa_env.board_terminal as board_terminal
import tapa_env.board_text as board_text
from tapa_env import Position
from tapa_env.board_terminal import draw_terminal_board
from tapa_env.board_text import draw_board, draw_framed_board, pip_counts
from tapa_env.games.gulbara.board import climb_line
from tapa_env.rules import default_rules
from tapa_env.selfplay import random_self_play


def drawn_points(text: str) -> dict[int, tuple[str, int]]:
    """Each point's colour and checkers as the drawing shows them: ``{point: ("O", 3)}``, read
    from the edge inward (a number in a cell counts the whole stack)."""
    lines = text.splitlines()
    found = {}
    for labels, rows in ((lines[0], lines[2:7]), (lines[14], lines[12:7:-1])):
        for match in re.finditer(r"\d+", labels):
            column = match.end() - 1  # the cells are right-aligned under their labels
            cells = [row[column - 1 : column + 1].strip() for row in rows]
            letters = [cell for cell in cells if cell in ("O", "X")]
            numbers = [int(cell) for cell in cells if cell.isdigit()]
            count = numbers[0] if numbers else len(letters)
            found[int(match.group())] = (letters[0] if letters else "", count)
    return found


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_every_points_checkers_are_drawn_as_the_position_has_them(game):
    play = random_self_play(4, seed=3, rules=default_rules(game))
    for row in play.positions[::7]:
        position = Position(row, game)
        points = drawn_points(draw_terminal_board(position, "you", "bot"))
        for point in range(1, 25):
            own, opp = position.own[point - 1], position.opp[point - 1]
            expected = ("O", own) if own else ("X", opp) if opp else ("", 0)
            assert points[point] == expected, (position.key, point)


def test_tablas_bar_holds_each_sides_hit_checkers_and_the_notes_count_them():
    position = tabla_board({6: 5, 8: 3, 13: 4}, {1: 2, 12: 5, 17: 3, 19: 4}, own_bar=3, opp_bar=1)
    lines = draw_terminal_board(position, "you", "hitter").splitlines()
    bar = lines[0].index("18") + 5  # the bar's middle column, between 18 and 19
    column = [line[bar] for line in lines[2:13]]
    assert column == [" ", " ", " ", " ", "X", "A", "O", "O", "O", " ", " "]  # from the middle
    assert "BAR" in lines[7] and lines[1].count("+---+") == 1
    assert "borne off  0   on the bar 1" in lines[2]  # X's notes
    assert "borne off  0   on the bar 3" in lines[11]  # O's notes
    assert f"pips {pip_counts(position)[0]}" in lines[11]
    quiet = draw_terminal_board(tabla_board({6: 15}, {19: 15}), "you", "hitter")
    assert "on the bar" not in quiet


def test_gulbaras_board_says_where_x_runs_and_what_comes_next():
    text = draw_terminal_board(gulbara_board({24: 15}, {12: 15}), "you", "runner")
    lines = text.splitlines()
    assert "runs 12 to 1, then 24 to 13; home 13-18" in lines[3]  # beside X's notes
    assert "runs 24 to 13, then 12 to 1; home 1-6" in lines[12]  # beside yours
    assert lines[-1] == "O rolls next; turns so far: O 3 or more, X 3 or more"
    assert "|BAR|" not in text and "| |" in lines[7]


@pytest.mark.parametrize(
    ("turn", "line"),
    [
        ({"next": "opp"}, "X rolls next; turns so far: O 3 or more, X 3 or more"),
        ({"climb": 4, "climb_dice": 4}, "O plays 4-4 next, its double climbing on to 6-6 (G5)"),
        ({"climb": 6, "climb_dice": 4}, "O plays 6-6 next, the top of its climb (G5)"),
        (
            {"climb": 5, "climb_dice": 2, "handed": True},
            "O plays 2 dice of 5-5 next, handed over by X (G6)",
        ),
        ({"climb": 6, "climb_dice": 4, "handed": True}, "O plays 6-6 next, handed over by X (G6)"),
        (
            {"climb": 6, "climb_dice": 1, "handed": True},
            "O plays 1 die of 6-6 next, handed over by X (G6)",
        ),
    ],
)
def test_G5_G6_the_climb_line_says_which_double_comes_next(turn, line):
    position = gulbara_board({24: 13, 20: 2}, {12: 14, 18: 1}, **turn)
    assert climb_line(position).startswith(line)


@pytest.mark.parametrize(
    ("turns", "next_", "shown"),
    [((0, 0), "own", "O rolls next; turns so far: O 0, X 0"),
     ((1, 2), "own", "O rolls next; turns so far: O 1, X 2"),
     ((3, 2), "opp", "X rolls next; turns so far: O 3 or more, X 2"),
     ((3, 3), "own", "O rolls next; turns so far: O 3 or more, X 3 or more")],
)  # fmt: skip
def test_G5_a_position_counts_turns_to_3_so_its_boards_say_3_or_more(turns, next_, shown):
    own = {24: 15} if turns[0] == 0 else {24: 13, 20: 2}
    opp = {12: 15} if turns[1] == 0 else {12: 14, 8: 1}
    position = gulbara_board(own, opp, next=next_, own_turns=turns[0], opp_turns=turns[1])
    for board in (draw_terminal_board(position, "you", "runner"), str(position)):
        assert board.splitlines()[-1] == shown


def test_G5_a_board_shows_the_turns_its_caller_counted():
    position = gulbara_board({24: 13, 20: 2}, {12: 14, 8: 1}, climb=4, climb_dice=4)
    line = "O plays 4-4 next, its double climbing on to 6-6 (G5); turns so far: O 29, X 28"
    assert climb_line(position, (29, 28)) == line
    assert draw_terminal_board(position, "you", "runner", turns=(29, 28)).endswith(line)
    assert draw_board(position, (29, 28)).endswith("; turns so far: O 29, X 28")


def test_tapas_board_is_the_framed_board_with_its_pins():
    position = Position.from_key("8:1,21:1,24:13|1:14,8:1|+8")
    assert draw_terminal_board(position, "you", "bot") == draw_framed_board(position, "you", "bot")


def test_the_modules_docstring_examples_hold():
    assert doctest.testmod(board_terminal).failed == 0
    assert doctest.testmod(board_text).failed == 0
