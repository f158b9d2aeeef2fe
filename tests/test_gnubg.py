"""``gnubg`` (GNU Backgammon's 0-ply evaluation) as a Tabla player: the board it is given, the
equity it plays by, its choices in positions every backgammon player knows, and its refusals.
The tests that run gnubg skip, saying why, where Debian's ``gnubg`` package is missing."""

from __future__ import annotations

import numpy as np
import pytest
from boards import tabla_board

from agents.bots import gnubg
from agents.bots.gnubg import GnubgError, GnubgPlayer, boards, mover_equity
from agents.bots.loading import load_player
from agents.evaluation.arena import play_games
from tapa_env import Position, Rules, TablaRules, legal_plays

installed = pytest.mark.skipif(
    gnubg.gnubg_program() is None,
    reason=f"GNU Backgammon is not installed ({gnubg.INSTALL_HINT})",
)


@pytest.fixture(scope="module")
def player():
    bot = load_player("gnubg", TablaRules())
    yield bot
    bot.close()


def test_the_board_gnubg_gets_puts_the_opponent_on_roll_in_its_own_numbering():
    # After our play: ours on 6 (2) and the bar (1); the opponent's on our 20 (its 5) and
    # our 1 (its 24), two on its bar.
    row = tabla_board({6: 2}, {20: 3, 1: 1}, own_bar=1, opp_bar=2).row[None, :]
    board = boards(row)[0]
    ours, theirs = board[:25], board[25:]
    assert np.flatnonzero(ours).tolist() == [5, 24] and (ours[5], ours[24]) == (2, 1)
    assert np.flatnonzero(theirs).tolist() == [4, 23, 24]
    assert (theirs[4], theirs[23], theirs[24]) == (3, 1, 2)


def test_the_movers_equity_is_minus_the_rollers_with_a_mars_worth_two():
    # The roller wins 60% (20% of all games with a mars) and loses 10% with a mars.
    chances = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]])
    assert mover_equity(chances)[0] == pytest.approx(-(0.6 + 0.2 - 0.4 - 0.1))


def test_gnubg_is_tablas_alone_and_says_how_to_install_it(monkeypatch):
    with pytest.raises(ValueError, match="gnubg is a Tabla bot"):
        load_player("gnubg", Rules())
    monkeypatch.setattr(gnubg, "gnubg_program", lambda: None)
    with pytest.raises(GnubgError, match="not installed .*apt-get install"):
        GnubgPlayer()


@installed
@pytest.mark.parametrize(
    ("dice", "best"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((6, 5), "24/18/13")],
)
def test_gnubg_makes_the_opening_points_every_player_makes(player, dice, best):
    position = Position.initial("tabla")
    plays = legal_plays(position, dice, rules=TablaRules())
    chosen = player.choose(position, dice, rules=TablaRules())
    assert next(p.text for p in plays if p.afterstate == chosen) == best


@installed
def test_a_play_that_bears_off_the_last_checker_is_a_win_and_a_mars_counts_two(player):
    won = tabla_board({}, {19: 15}).row
    single = tabla_board({}, {19: 14}).row
    lost = tabla_board({6: 14}, {24: 1}).row  # the opponent, on roll, bears off its last
    equity = player.equities(np.stack([won, single, lost]))
    assert equity[:2].tolist() == [2.0, 1.0]
    assert equity[2] == pytest.approx(-1.0, abs=0.01)


@pytest.mark.slow
@installed
def test_gnubg_beats_random_clearly_in_a_few_games(player):
    results = play_games(
        [player, load_player("random", TablaRules())], games=8, seed=1, rules=TablaRules()
    )
    assert results.points.mean() > 1.0
