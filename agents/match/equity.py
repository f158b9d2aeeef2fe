"""Match equity for the tabla match: the chance of winning the match from every score,
game to come and starting side, computed from how each game ends between equal players.

The chances come from :mod:`agents.match.outcomes` (each game's shipped bot against itself,
from the starter's side: single, double and triple wins, draws, losses). Between equal
players, the chance ``x`` of winning the match with ``a`` points to go against ``b``, game
``k`` of the order to come and side ``s`` to start it is the chances of that game's results
times the chances after them: a win of ``n`` points leaves ``a - n`` to go (the match is won
at 0) and its winner starts game ``k + 1``; a loss leaves the opponent ``b - n``; a draw
(Tapa, R10) moves on to game ``k + 1`` with the starter of ``draw_starter``. Scores only
fall, so the table is filled from the end of the match back; a draw keeps the score, so the
values of one score, over every game and starter, are one small linear system, solved
exactly. Nothing is sampled beyond the measured game results.

A player at the table's score ``(a, b)`` with game ``k`` in play values a play by its chances
of each result (a TD network's five, :mod:`agents.bots.equity`) times the match chances after
each: :meth:`MatchEquity.outcome_weights`.

>>> table = MatchEquity.equal_games(MatchRules(length=3))
>>> round(float(table.chance(1, 1, 0, True)), 3)   # one game decides: the starter's edge
0.5
>>> round(float(table.chance(3, 3, 0, True) + table.chance(3, 3, 0, False)), 3) / 2
0.5
"""

from __future__ import annotations

import numpy as np

from ..errors import MatchError
from .outcomes import RESULTS, load_outcomes
from .rules import MAX_LENGTH, MatchRules
from .state import MatchState

MAX_AWAY = MAX_LENGTH
"""The points to go the table covers (of each side): those of the longest match
(:data:`agents.match.rules.MAX_LENGTH`), so that one table serves every length."""
NETWORK_OUTCOMES = ("win", "win_double", "draw", "lose", "lose_double")
"""The order of a TD network's outcome chances (:data:`agents.bots.equity.OUTCOMES`)."""
_WIN = {1: RESULTS.index("win1"), 2: RESULTS.index("win2"), 3: RESULTS.index("win3")}
_LOSE = {1: RESULTS.index("lose1"), 2: RESULTS.index("lose2"), 3: RESULTS.index("lose3")}
_DRAW = RESULTS.index("draw")


class MatchEquity:
    """The match equity table of one set of match rules.

    Attributes:
        rules: the match rules (its order of games and draw rule; the length only bounds
            the table from below).
        results: ``{game: (7,) chances}`` of each game's results for its starter, in the
            order of :data:`agents.match.outcomes.RESULTS`.
        table: ``(K, 2, N + 1, N + 1)`` float64, ``table[k, s, a, b]``: the chance that a
            side with ``a`` points to go wins the match against ``b`` to go, game ``k`` of
            ``rules.order`` to come, started by that side (``s = 0``) or its opponent
            (``s = 1``). ``a = 0`` is a won match (1), ``b = 0`` a lost one (0).
    """

    def __init__(
        self, rules: MatchRules, results: dict[str, np.ndarray], max_away: int = MAX_AWAY
    ) -> None:
        self.rules = rules
        missing = [game for game in dict.fromkeys(rules.order) if game not in results]
        if missing:
            raise MatchError(
                f"no measured outcomes of {', '.join(missing)} for the match equity table: "
                f"measure them with python -m agents.match.outcomes --game {missing[0]} --write "
                "(it needs the game's shipped bot), or play the match for points (@points)"
            )
        self.results = {game: np.asarray(results[game], dtype=np.float64) for game in rules.order}
        for game, chances in self.results.items():
            if (
                chances.shape != (len(RESULTS),)
                or (chances < 0).any()
                or abs(chances.sum() - 1) > 1e-9
            ):
                raise MatchError(
                    f"{game}: the chances of its {len(RESULTS)} results must add up to 1"
                )
        if isinstance(max_away, bool) or not isinstance(max_away, int):
            raise MatchError(f"max_away must be a whole number, got {max_away!r}")
        if not 1 <= max_away <= MAX_AWAY:
            raise MatchError(
                f"max_away must be from 1 to {MAX_AWAY}, the longest match, got {max_away}"
            )
        size = max(max_away, rules.length)
        self.table = _fill(rules, [self.results[g] for g in rules.order], size)

    @classmethod
    def measured(cls, rules: MatchRules | None = None, max_away: int = MAX_AWAY) -> MatchEquity:
        """The table from the stored self-play results (:func:`load_outcomes`)."""
        return cls(rules or MatchRules(), load_outcomes(), max_away)

    @classmethod
    def equal_games(cls, rules: MatchRules) -> MatchEquity:
        """A table where every game is a single point with no starter's edge: a check of the
        recursion (the chance is then that of a race of coin tosses)."""
        chances = np.zeros(len(RESULTS))
        chances[[_WIN[1], _LOSE[1]]] = 0.5
        return cls(rules, {game: chances for game in rules.order})

    def chance(self, away, away_opponent, game_index, starts) -> np.ndarray:
        """The chance of winning the match with ``away`` points to go against
        ``away_opponent``, game ``game_index`` of the order to come, started by this side
        (``starts`` true) or the other; arrays broadcast. 1 at ``away`` 0, 0 at
        ``away_opponent`` 0."""
        k = np.asarray(game_index) % len(self.rules.order)
        s = np.where(np.asarray(starts, dtype=bool), 0, 1)
        return self.table[k, s, self._clip(away), self._clip(away_opponent)]

    def _clip(self, away) -> np.ndarray:
        away = np.asarray(away, dtype=np.int64)
        if away.size and away.max() >= self.table.shape[-1]:
            raise MatchError(
                f"{int(away.max())} points to go: the table covers matches up to "
                f"{self.table.shape[-1] - 1} points (MatchEquity(..., max_away=N), at most "
                f"{MAX_AWAY})"
            )
        return np.maximum(away, 0)

    def state_chance(self, state: MatchState, player: int = 0) -> float:
        """``player``'s chance of winning the match ``state`` before its game in play (with
        the starter thrown for, an even chance of either, when it is not known)."""
        if state.over:
            return float(state.winner == player)
        a, b = state.away(player), state.away(1 - player)
        index = state.games_played % len(self.rules.order)
        if state.starter is None:
            return float(self.chance(a, b, index, [True, False]).mean())
        return float(self.chance(a, b, index, state.starter == player))

    def outcome_weights(self, away, away_opponent, game_index, started) -> np.ndarray:
        """``(..., 5)`` float64: for the side to move with ``away`` points to go against
        ``away_opponent`` in game ``game_index`` of the match (which it ``started`` or not),
        its chance of winning the match after each result of this game, in the order of a
        network's outcomes (:data:`NETWORK_OUTCOMES`): win, win double, draw, lose, lose
        double. A play's match-winning chance is its outcome chances times these."""
        a = np.asarray(away, dtype=np.int64)
        b = np.asarray(away_opponent, dtype=np.int64)
        following = np.asarray(game_index) + 1
        a, b, following, started = np.broadcast_arrays(a, b, following, np.asarray(started, bool))
        win = [self.chance(a - n, b, following, True) for n in (1, 2)]
        lose = [self.chance(a, b - n, following, False) for n in (1, 2)]
        after_draw = {
            "throw": 0.5
            * (self.chance(a, b, following, True) + self.chance(a, b, following, False)),
            "same": self.chance(a, b, following, started),
            "other": self.chance(a, b, following, ~started),
        }[self.rules.draw_starter]
        return np.stack([win[0], win[1], after_draw, lose[0], lose[1]], axis=-1)

    def to_json(self, length: int | None = None) -> dict:
        """The table as plain lists for the browser page: ``table[k][s][a][b]`` for
        ``a, b`` from 0 to ``length`` (the rules' length by default)."""
        size = (length or self.rules.length) + 1
        return {
            "order": list(self.rules.order),
            "draw_starter": self.rules.draw_starter,
            "max_away": size - 1,
            "table": np.round(self.table[:, :, :size, :size], 6).tolist(),
        }


def _fill(rules: MatchRules, results: list[np.ndarray], size: int) -> np.ndarray:
    """The table of :class:`MatchEquity` (see the module docstring for the recursion)."""
    games = len(rules.order)
    table = np.zeros((games, 2, size + 1, size + 1))
    table[:, :, 0, 1:] = 1.0
    unknowns = 2 * games  # x[k, s] at one score, k * 2 + s

    def known(a, b, k, s):
        """The table at a score already filled (or a finished match)."""
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return table[k % games, s, a, b]

    for a in range(1, size + 1):
        for b in range(1, size + 1):
            matrix = np.eye(unknowns)
            constant = np.zeros(unknowns)
            for k, chances in enumerate(results):
                following = (k + 1) % games
                for s in (0, 1):
                    row = 2 * k + s
                    for n in (1, 2, 3):
                        # The starter's win of n: ours when we start (s = 0).
                        starter_wins, starter_loses = chances[_WIN[n]], chances[_LOSE[n]]
                        ours, theirs = (
                            (starter_wins, starter_loses)
                            if s == 0
                            else (starter_loses, starter_wins)
                        )
                        constant[row] += ours * known(a - n, b, following, 0)
                        constant[row] += theirs * known(a, b - n, following, 1)
                    draw = chances[_DRAW]
                    if draw:
                        if rules.draw_starter == "throw":
                            matrix[row, 2 * following] -= draw / 2
                            matrix[row, 2 * following + 1] -= draw / 2
                        else:
                            nxt = s if rules.draw_starter == "same" else 1 - s
                            matrix[row, 2 * following + nxt] -= draw
            solved = np.linalg.solve(matrix, constant)
            table[:, :, a, b] = solved.reshape(games, 2)
    return table


def markdown(table: MatchEquity, length: int) -> str:
    """The table of a match to ``length`` as Markdown: one table per game to come, for the
    side that starts it (the other side's chances are one minus these, read across)."""
    lines = []
    for k in range(len(table.rules.order)):
        lines += [
            f"**{table.rules.title(k)} to come, you start it.** Rows: your points to go; "
            "columns: your opponent's.",
            "",
            "| to go | " + " | ".join(str(b) for b in range(1, length + 1)) + " |",
            "| ---: | " + " | ".join("---:" for _ in range(length)) + " |",
        ]
        for a in range(1, length + 1):
            cells = " | ".join(f"{table.table[k, 0, a, b]:.3f}" for b in range(1, length + 1))
            lines.append(f"| {a} | {cells} |")
        lines.append("")
    return "\n".join(lines)
