"""Whole tabla matches between two sides, many at once, over the engines of the three games.

The randomness contract of :mod:`agents.evaluation.arena` holds: every match has a dice
stream, and a roll is a pure function of ``(seed, stream, turn)``, the turns counted over
the whole match, so the results do not depend on how the matches are batched. Matches come
in mirrored pairs: in the second of a pair the two sides swap seats (the starting score, and
who starts the first game, go with the seat). With duplicate dice (the default) a pair
shares one dice stream, so two identical sides win one match each; else each match has its
own.

Each game of a match is played in the table of its game (:class:`tapa_env.batch.Games`, one
per game of the order): a match moves to the next game's table when a game ends, and the
winner starts it (R11); after a draw, ``draw_starter`` decides, and a throw is a pure
function of the match's stream too. A side that plays to the score
(:func:`agents.match.player.plays_to_score`) is handed each turn's outcome weights from the
match equity table.

A step of each table is the games' arena's step (:mod:`agents.evaluation.arena`: the sides
choose, the record gets the turns, the turns are played and the games that end are told);
what is the match's own is what happens between its games.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tapa_env.batch import Games
from tapa_env.rules import GAMES, default_rules

from ..errors import MatchError
from ..evaluation.arena import choose_turns, dice_streams, play_turns, record_turns, roll
from ..evaluation.stats import mean_ci95
from .equity import MatchEquity
from .player import plays_to_score
from .rules import DEFAULT_MATCH, MatchRules
from .sides import MatchSide

THROW_TURN = 1 << 40
"""The turn numbers of a stream that throw for the starter after a draw (far past any game)."""


@dataclass
class MatchResults:
    """Every match the arena played, from the side of ``sides[0]``.

    Attributes:
        rules: the match rules.
        score: ``(M, 2)`` int64 final points of each side in each match.
        start: ``(M, 2)`` int64 each side's points when the match was taken up.
        unit: ``(M,)`` int64, the independent unit of each match (a mirrored pair with
            duplicate dice, else the match itself): intervals treat units as independent.
        game_match, game_number, game, points, starter, kind, turns: ``(G,)`` arrays, one
            entry per game played, in match order: its match, its number in the match (0
            the match's first), its game (index into :data:`tapa_env.rules.GAMES`), side
            0's net points, the side that started it, how it ended (index into
            :data:`agents.records.endings.KINDS`) and its turns.
    """

    rules: MatchRules
    score: np.ndarray
    start: np.ndarray
    unit: np.ndarray
    game_match: np.ndarray
    game_number: np.ndarray
    game: np.ndarray
    points: np.ndarray
    starter: np.ndarray
    kind: np.ndarray
    turns: np.ndarray

    @property
    def matches(self) -> int:
        return len(self.score)

    @property
    def wins(self) -> np.ndarray:
        """``(M,)`` bool: the matches side 0 won."""
        return self.score[:, 0] >= self.rules.length

    def win_rate(self) -> tuple[float, tuple[float, float] | None]:
        """Side 0's share of matches won and its 95% interval, the two matches of a
        mirrored pair taken together (:func:`agents.evaluation.stats.mean_ci95`)."""
        return mean_ci95(self.wins, self.unit, bounds=(0.0, 1.0))


def play_matches(
    sides: tuple[MatchSide, MatchSide],
    matches: int,
    rules: MatchRules = DEFAULT_MATCH,
    seed: int = 0,
    duplicate: bool = True,
    start_score: tuple[int, int] = (0, 0),
    games_played: int = 0,
    equity: MatchEquity | None = None,
    batch: int = 512,
    max_turns: int = 1000,
    first_stream: int = 0,
    progress: Callable[[int], None] | None = None,
    record: Callable[..., None] | None = None,
) -> MatchResults:
    """Play ``matches`` tabla matches of ``sides[0]`` against ``sides[1]``.

    Args:
        sides: the two sides (:func:`agents.match.sides.load_side`); results are side 0's.
        matches: how many (even: they come in mirrored pairs).
        rules: the match rules.
        seed: the dice seed.
        duplicate: a mirrored pair shares its dice.
        start_score: the score the matches are taken up at, side 0's first (the second
            match of each pair swaps it); ``(0, 0)`` a whole match.
        games_played: the games already played at ``start_score`` (the next game is
            ``rules.game(games_played)``); its starter is the first of the pair's seat.
        equity: the table a side that plays to the score uses (the measured one by default).
        batch: matches in play at once.
        max_turns: a game this long stops unfinished; the match goes on as after a draw.
        first_stream: the first dice stream (workers that split a comparison).
        progress: called with the matches finished so far.
        record: called at every step of every game with ``(game, matches, movers,
            positions, dice, afterstates)``: the game's name, each turn's match and side to
            move, its position and roll and the afterstate played (rows in the mover's
            frame), as :func:`agents.evaluation.arena.record_turns` hands them.
    """
    if matches < 2 or matches % 2:
        raise MatchError(
            f"matches come in mirrored pairs: matches must be even and at least 2, got {matches}"
        )
    first = (int(start_score[0]), int(start_score[1]))
    if min(first) < 0 or max(first) >= rules.length:
        raise MatchError(
            f"start score {first[0]}-{first[1]}: each side must still need points in a "
            f"match to {rules.length}"
        )
    if any(game not in sides[i].players for i in (0, 1) for game in rules.order):
        raise MatchError("each side needs a player for every game of the order (load_side)")
    if equity is None and any(plays_to_score(p) for s in sides for p in s.players.values()):
        equity = MatchEquity.measured(rules)
    series = np.arange(matches)
    unit = series // 2
    stream = dice_streams(series, duplicate, first_stream)
    mirrored = (series % 2).astype(np.int8)  # the player in seat A: 0, or 1 in the mirror
    score = np.zeros((matches, 2), dtype=np.int64)
    score[mirrored == 0] = first
    score[mirrored == 1] = first[::-1]
    start = score.copy()
    played = np.full(matches, games_played, dtype=np.int64)
    starter = mirrored.copy()  # seat A starts the first game
    turn = np.zeros(matches, dtype=np.int64)
    throws = np.zeros(matches, dtype=np.int64)
    size = min(batch, matches)
    tables = {game: Games(size, rules=default_rules(game)) for game in dict.fromkeys(rules.order)}
    slot_match = {game: np.full(size, -1, dtype=np.int64) for game in tables}
    free = {game: list(range(size - 1, -1, -1)) for game in tables}
    rng = np.random.default_rng([seed, first_stream])
    pending = deque(range(matches))
    games: list[tuple[int, ...]] = []  # match, number, game, points, starter, kind, turns
    finished_matches = 0

    def begin(match: int) -> None:
        game = rules.game(int(played[match]))
        slot = free[game].pop()
        slot_match[game][slot] = match
        dice = roll(seed, [stream[match]], [turn[match]])
        tables[game].start([slot], rng, first=[starter[match]], dice=dice)

    def thrown_starter(match: int) -> int:
        """The starter after a drawn game by ``throw``: one die each, again on a tie."""
        while True:
            throws[match] += 1
            dice = roll(seed, [stream[match]], [THROW_TURN + throws[match]])[0]
            if dice[0] != dice[1]:
                return int(mirrored[match]) if dice[0] > dice[1] else 1 - int(mirrored[match])

    def chooser(game: str, owners: np.ndarray) -> Callable:
        """How the sides choose their turns in ``game``'s table (:func:`choose_turns`),
        ``owners`` the matches of its active slots: a side that plays to the score is handed
        each match's outcome weights."""

        def choose(side: int, mine: np.ndarray, turns: tuple) -> np.ndarray:
            player = sides[side].players[game]
            if not plays_to_score(player):
                return player.choose_batch(*turns)
            ms = owners[mine]
            weights = equity.outcome_weights(
                rules.length - score[ms, side],
                rules.length - score[ms, 1 - side],
                played[ms],
                starter[ms] == side,
            )
            return player.choose_to_score(*turns, weights)

        return choose

    for _ in range(size):
        begin(pending.popleft())
    while any((slots >= 0).any() for slots in slot_match.values()):
        for game, table in tables.items():
            active = np.flatnonzero(slot_match[game] >= 0)
            if not active.size:
                continue
            owners = slot_match[game][active]
            mover, choices = choose_turns(table, active, rng, chooser(game, owners))
            if record is not None:
                record_turns(record, table, active, owners, mover, choices)
            turn[owners] += 1
            next_dice = roll(seed, stream[owners], turn[owners])
            ended, points, kinds = play_turns(
                table, active, mover, choices, rng, next_dice, max_turns
            )
            for k in np.flatnonzero(ended):
                slot, match = active[k], int(owners[k])
                side_points = int(points[k])
                games.append(
                    (
                        match,
                        int(played[match]),
                        GAMES.index(game),
                        side_points,
                        int(starter[match]),
                        int(kinds[k]),
                        int(table.turns[slot]),
                    )
                )
                if side_points > 0:
                    score[match, 0] += side_points
                    starter[match] = 0
                elif side_points < 0:
                    score[match, 1] -= side_points
                    starter[match] = 1
                elif rules.draw_starter == "throw":
                    starter[match] = thrown_starter(match)
                elif rules.draw_starter == "other":
                    starter[match] ^= 1
                played[match] += 1
                slot_match[game][slot] = -1
                free[game].append(slot)
                if score[match].max() < rules.length:
                    begin(match)
                else:
                    finished_matches += 1
                    if pending:
                        begin(pending.popleft())
            if progress is not None and ended.any():
                progress(finished_matches)
    columns = np.array(games, dtype=np.int64).reshape(-1, 7)
    columns = columns[np.lexsort((columns[:, 1], columns[:, 0]))]
    return MatchResults(
        rules=rules,
        score=score,
        start=start,
        unit=unit,
        game_match=columns[:, 0],
        game_number=columns[:, 1],
        game=columns[:, 2].astype(np.int8),
        points=columns[:, 3],
        starter=columns[:, 4].astype(np.int8),
        kind=columns[:, 5].astype(np.int8),
        turns=columns[:, 6],
    )
