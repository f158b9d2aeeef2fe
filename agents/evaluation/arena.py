"""The arena: many games (or matches) between two players, in batches over the engine.

Duplicate dice by default: the games come in pairs that roll the same dice sequence, turn by
turn, with the sides swapped (each player starts one of the two), which removes most of the
luck from a comparison. Without duplicate dice the starting side alternates from game to
game. In match play (R11) each series is a match to ``match_points``; the winner of a game
starts the next, and a duplicate pair of matches shares one dice stream.

Dice are a pure function of ``(seed, stream, turn)``, so results do not depend on how the
games are split into batches or over worker processes.

Given a ``reference`` (a trained TD bot), the arena also adds up each side's luck, turn by
turn, for the luck-adjusted results of :mod:`agents.evaluation.luck`: the luck of every turn
of every game in play comes from one batched call per step, a function of the position and
the roll alone, so it too is the same however the games are split.

The match arena (:mod:`agents.match.arena`) plays by the same contract and the same step:
:func:`dice_streams` gives each series its stream, :func:`choose_turns` has each side choose
its turns, :func:`record_turns` hands them to a record, and :func:`play_turns` plays them and
says which games ended and how.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tapa_env.batch import Games
from tapa_env.layout import flip
from tapa_env.rules import Rules

from ..bots.players import Player, rules_of_players
from ..records.endings import UNFINISHED, result_kinds
from .luck import adjusted_points, turn_luck

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def _mix(value: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a well-spread 64-bit hash of each value."""
    with np.errstate(over="ignore"):
        value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return (value ^ (value >> np.uint64(31))) & _MASK64


def roll(seed: int, streams: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """The roll of every ``(stream, turn)``: ``(N, 2)`` int64 dice, uniform over 36 outcomes.

    A pure function of its arguments: the same stream and turn always roll the same dice.
    """
    streams = np.asarray(streams, dtype=np.uint64)
    turns = np.asarray(turns, dtype=np.uint64)
    with np.errstate(over="ignore"):
        key = _mix(np.uint64(seed & 0xFFFFFFFFFFFFFFFF) * np.uint64(0x9E3779B97F4A7C15) + streams)
        value = _mix(key ^ (turns * np.uint64(0xD1B54A32D192ED03) + np.uint64(1)))
    outcome = (value % np.uint64(36)).astype(np.int64)
    return np.stack([outcome // 6 + 1, outcome % 6 + 1], axis=1)


def dice_streams(series: np.ndarray, duplicate: bool, first_stream: int = 0) -> np.ndarray:
    """The dice stream of each series (``(S,)`` int64, the series numbered from 0): with
    ``duplicate`` the two series of a pair (``2k`` and ``2k + 1``) share one, else each has its
    own; ``first_stream`` is the first (workers that split a comparison give each chunk its
    own range)."""
    series = np.asarray(series, dtype=np.int64)
    return first_stream + (series // 2 if duplicate else series)


@dataclass
class GameResults:
    """Every game the arena played, from the side of ``players[0]``.

    Attributes:
        points: ``(G,)`` int64 net points of player 0 in each game (``+2`` .. ``-2``).
        kind: ``(G,)`` int8 index into :data:`~agents.records.endings.KINDS`: how the game
            ended.
        turns: ``(G,)`` int64 turns played.
        starter: ``(G,)`` int8, the player who moved first.
        unit: ``(G,)`` int64, the independent unit each game belongs to (a duplicate pair,
            a match or a duplicate pair of matches; else the game itself): confidence
            intervals treat units, not games, as independent.
        series: ``(G,)`` int64, the match (or single game) each game belongs to, in order.
        match_points: the match length, or ``None`` for single games.
        match_score: ``(S, 2)`` int64 points of each player in each match (match play only).
        luck: ``(G, 2)`` float64, the total luck of each player in each game, in points
            (:func:`agents.evaluation.luck.turn_luck`), when the arena had a reference; else
            ``None``.
    """

    points: np.ndarray
    kind: np.ndarray
    turns: np.ndarray
    starter: np.ndarray
    unit: np.ndarray
    series: np.ndarray
    match_points: int | None = None
    match_score: np.ndarray | None = None
    luck: np.ndarray | None = None

    @property
    def games(self) -> int:
        return len(self.points)

    def adjusted_points(self) -> np.ndarray:
        """``(G,)`` float64: each game's points less player 0's luck plus player 1's
        (:func:`agents.evaluation.luck.adjusted_points`); needs :attr:`luck`."""
        if self.luck is None:
            raise ValueError("these games were played without a reference: no luck to adjust")
        return adjusted_points(self.points, self.luck)


def play_games(
    players: tuple[Player, Player],
    games: int,
    seed: int = 0,
    duplicate: bool = True,
    match_points: int | None = None,
    max_turns: int = 1000,
    batch: int = 1024,
    rules: Rules | None = None,
    first_stream: int = 0,
    progress: Callable[[int], None] | None = None,
    record: Callable[..., None] | None = None,
    reference: Player | None = None,
) -> GameResults:
    """Play ``players[0]`` against ``players[1]``.

    Args:
        players: the two players; results are from ``players[0]``'s side.
        games: single games to play, or matches when ``match_points`` is set (even when
            ``duplicate``).
        seed: the dice seed.
        duplicate: play every dice sequence twice with the sides swapped.
        match_points: play matches to this many points (R11) instead of single games.
        max_turns: a game this long stops unfinished (0 points).
        batch: games stepped together.
        rules: the rule choices; ``None``: the players' own
            (:func:`agents.bots.players.rules_of_players`, which refuses players of
            different games).
        first_stream: the first dice stream; workers that split one comparison give each
            chunk its own range so that the split does not change the dice.
        progress: called with the number of games finished at each step.
        record: called at each step with the turns about to be played, to keep each game's
            rolls and plays (:func:`record_turns` says what it gets).
        reference: a trained TD bot (:func:`agents.evaluation.luck.load_reference`) that values each
            turn's luck; the results then hold each side's luck (:attr:`GameResults.luck`).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    rules = rules_of_players(players, rules)
    if duplicate and games % 2:
        raise ValueError(f"duplicate dice play games in pairs: games must be even, got {games}")
    if match_points is not None and match_points < 1:
        raise ValueError(f"match_points must be at least 1, got {match_points}")
    series = np.arange(games)
    unit = series // 2 if duplicate else series
    stream = dice_streams(series, duplicate, first_stream)
    # The first game of each series: the pair's two series start with opposite players.
    first_starter = (series % 2).astype(np.int8)
    rng = np.random.default_rng([seed, first_stream])
    table = Games(min(batch, games), rules=rules)
    slots = table.count
    slot_series = np.full(slots, -1, dtype=np.int64)
    slot_turn = np.zeros(slots, dtype=np.int64)  # turns rolled in the slot's series
    slot_luck = np.zeros((slots, 2), dtype=np.float64)  # each player's luck in the slot's game
    score = np.zeros((games, 2), dtype=np.int64)
    starter_now = first_starter.copy()
    pending = deque(range(games))
    records: list[tuple[int, int, int, int, int]] = []  # series, points, kind, turns, starter
    lucks: list[tuple[float, float]] = []  # each player's luck, in the order of records

    def begin(slot: int, index: int, turn: int) -> None:
        slot_series[slot] = index
        slot_turn[slot] = turn
        slot_luck[slot] = 0.0
        dice = roll(seed, [stream[index]], [turn])
        if turn == 0 and getattr(rules, "opening_roll_played", False):
            # Tabla's starter plays the two different dice thrown (T2): throw again on a
            # tie, from the same stream, so that both games of a duplicate pair agree.
            again = 1
            while dice[0, 0] == dice[0, 1]:
                dice = roll(seed, [stream[index]], [again << 32])
                again += 1
        table.start([slot], rng, first=[starter_now[index]], dice=dice)

    for slot in range(slots):
        begin(slot, pending.popleft(), 0)
    while (slot_series >= 0).any():
        active = np.flatnonzero(slot_series >= 0)
        mover, choices = choose_turns(
            table, active, rng, lambda side, mine, turns: players[side].choose_batch(*turns)
        )
        if record is not None:
            record_turns(record, table, active, slot_series[active], mover, choices)
        if reference is not None:
            slot_luck[active, mover] += turn_luck(
                reference, table.rows[active], table.dice[active], rules, slot_turn[active] == 0
            )
        slot_turn[active] += 1
        next_dice = roll(seed, stream[slot_series[active]], slot_turn[active])
        ended, points, kinds = play_turns(table, active, mover, choices, rng, next_dice, max_turns)
        for k in np.flatnonzero(ended):
            slot = active[k]
            index = slot_series[slot]
            first_points = int(points[k])
            records.append(
                (
                    index,
                    first_points,
                    int(kinds[k]),
                    int(table.turns[slot]),
                    int(starter_now[index]),
                )
            )
            lucks.append((float(slot_luck[slot, 0]), float(slot_luck[slot, 1])))
            if first_points > 0:
                score[index, 0] += first_points
            elif first_points < 0:
                score[index, 1] -= first_points
            match_over = match_points is None or score[index].max() >= match_points
            if not match_over:
                # R11: the winner starts the next game; after a draw or an unfinished game
                # the other side starts.
                if first_points:
                    starter_now[index] = 0 if first_points > 0 else 1
                else:
                    starter_now[index] ^= 1
                begin(slot, index, int(slot_turn[slot]))
            elif pending:
                begin(slot, pending.popleft(), 0)
            else:
                slot_series[slot] = -1
        if progress is not None and len(records):
            progress(len(records))
    # Completion order depends on the batch; series do not (a match's games stay in order).
    order = np.argsort([record[0] for record in records], kind="stable")
    columns = np.array(records, dtype=np.int64).reshape(-1, 5)[order]
    luck = np.array(lucks, dtype=np.float64).reshape(-1, 2)[order]
    return GameResults(
        points=columns[:, 1],
        kind=columns[:, 2].astype(np.int8),
        turns=columns[:, 3],
        starter=columns[:, 4].astype(np.int8),
        unit=unit[columns[:, 0]],
        series=columns[:, 0],
        match_points=match_points,
        match_score=score if match_points is not None else None,
        luck=luck if reference is not None else None,
    )


def choose_turns(
    table: Games,
    active: np.ndarray,
    rng: np.random.Generator,
    choose: Callable[[int, np.ndarray, tuple], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """Every turn of the ``active`` slots of ``table``, chosen by the side to move:
    ``(mover, choices)``, ``(B,)`` arrays of the side (0 or 1) and the index of its afterstate.

    ``choose(side, mine, turns)`` chooses the turns ``active[mine]`` of ``side``, side 0's
    first, where ``turns`` holds :meth:`~agents.bots.players.Player.choose_batch`'s arguments
    (positions, dice, afterstates, offsets and ``rng``); a side with no turn is not asked.
    """
    table.generate(active)
    mover = table.to_move[active].copy()
    choices = np.zeros(len(active), dtype=np.int64)
    for side in (0, 1):
        mine = np.flatnonzero(mover == side)
        if mine.size:
            which = active[mine]
            afterstates, offsets = table.turn_afterstates(which)
            turns = (table.rows[which], table.dice[which], afterstates, offsets, rng)
            choices[mine] = choose(side, mine, turns)
    return mover, choices


def record_turns(
    record: Callable[..., None],
    table: Games,
    active: np.ndarray,
    series: np.ndarray,
    mover: np.ndarray,
    choices: np.ndarray,
) -> None:
    """Hand ``record`` the turns of one step: ``record(game, series, mover, positions, dice,
    afterstates)``, the table's game and each turn's series, player to move (0 or 1), position
    and roll and the afterstate chosen (``(B, ROW_WIDTH)`` rows in the mover's frame). A
    series' turns come in the order played; its games follow each other, each as long as the
    results say (:class:`agents.records.tournament.TurnLog`)."""
    chosen = table.afterstates[table.offsets[active] + choices]
    record(
        table.game,
        series.copy(),
        mover.copy(),
        table.rows[active].copy(),
        table.dice[active].copy(),
        chosen,
    )


def play_turns(
    table: Games,
    active: np.ndarray,
    mover: np.ndarray,
    choices: np.ndarray,
    rng: np.random.Generator,
    next_dice: np.ndarray,
    max_turns: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play the chosen turns (:func:`choose_turns`) and roll each game's next: ``(ended,
    points, kinds)``, ``(B,)`` arrays of the games that ended (finished, or stopped at
    ``max_turns``), side 0's net points in each and how it ended (an index into
    :data:`~agents.records.endings.KINDS`; ``unfinished`` for a game stopped or going on)."""
    finished, points = table.play(choices, active, rng, next_dice=next_dice)
    truncated = ~finished & (table.turns[active] >= max_turns)
    kinds = np.full(len(active), UNFINISHED, dtype=np.int8)
    if finished.any():  # the rows are flipped to the next mover: flip them back
        ended = flip(table.rows[active[finished]], table.game)
        kinds[finished] = result_kinds(ended, points[finished])
    return finished | truncated, np.where(mover == 0, points, -points), kinds
