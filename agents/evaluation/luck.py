"""The luck of each turn, and game results adjusted for it (variance reduction).

Most of what separates two players over a few thousand games is the dice. A fixed reference
evaluator (a trained TD network of the game at 1-ply; for Tapa by default the shipped bot,
``checkpoints/tapa-td.pt``) says how much each roll was worth: the **luck** of a turn, in
position ``P`` with roll ``r`` thrown, is

    luck(P, r) = best(P, r) - sum over the 21 distinct rolls r' of p(r') * best(P, r')

where ``best(P, r)`` is the reference's equity (expected points, from the mover's side) of
the mover's best play of ``r``: the network's equity of each afterstate, the exact points of
a play that ends the game, and the position itself where the mover must pass; ``p(r')`` is
1/36 for a double and 2/36 for the others. A game's **adjusted result** is its points (from
the first player's side) minus the first player's total luck plus the second player's.

What each game adds:

* **Tabla** with ``opening_roll_played`` (T2): the first roll of a game is the two single
  dice that decided who starts, never a double, so the luck of that turn is weighed over the
  15 other rolls, 2/30 each (:data:`OPENING_WEIGHTS`); the caller says which turns those are
  (``opening``). Without the flag the starter throws both dice anew and its first roll is
  like any other.
* **Gulbara**'s climbing double (G5) is one roll followed by several decisions of the same
  side (each higher double), and the numbers it cannot play may be handed to the opponent,
  who plays them before it rolls (G6). Only the roll is luck: the luck of a turn is judged
  on the **turn as a whole**. ``best(P, d-d)`` follows the climb to its end, each double of
  it (and each number handed over) played as the reference plays it, best by one ply from
  the side that plays it, and is the equity of where the turn ends, the next roll due
  (:func:`turn_equities`). The later decisions of a climb throw no dice: their luck is zero
  (rows whose turn state has a double to play). In the opening (the first three turns) a
  double plays plainly and the turn ends with it.

Why the adjusted mean is an unbiased estimate of the plain one. Let ``H_t`` be everything
that happened before turn ``t``'s roll: the dice so far and every play, whatever the players
are (random, heuristic, trained). The roll of turn ``t`` does not depend on ``H_t`` (save,
under ``opening_roll_played``, which of the two distributions it is drawn from, which the
caller knows), and ``best(P_t, .)`` is a fixed function of the position ``P_t`` that ``H_t``
determines, so

    E[luck(P_t, r_t) | H_t] = sum_r p(r) best(P_t, r) - sum_r' p(r') best(P_t, r') = 0.

A decision without a roll (a climb's higher double, numbers handed over) adds nothing. Each
turn's luck is a martingale difference: the signed running total (the first player's luck
minus the second player's) is a martingale with increments bounded by 4 points, and a game
ends by ``max_turns`` at the latest, so by optional stopping its total has mean zero,
however the players play and however wrong the reference is. The adjusted result therefore
has the same mean as the points; averaging the two games of a duplicate pair, or the games
of a match, is linear and keeps that. The reference decides only how much variance goes:
were it exact and both players perfect, the luck would add up to the whole swing of the game
and the adjusted result would be the same number every game; the players' errors (what is
being measured) and the reference's own errors remain.

Everything is batched: for a batch of positions, the afterstates of all 21 rolls of all of
them come from one engine call and are valued by one network call (:mod:`agents.bots.search`);
a Gulbara climb takes one more call of each per double.
"""

from __future__ import annotations

import numpy as np

from tapa_env.games import DEFAULT_GAME, GAMES, game_of
from tapa_env.layout import CLIMB, ROW_WIDTH, next_turn
from tapa_env.movegen import generate_afterstates
from tapa_env.results import outcomes
from tapa_env.rules import DEFAULT_RULES, AnyRules

from ..bearoff.database import evaluator_of
from ..bots.loading import load_player
from ..bots.players import Player, best_in_each_turn
from ..bots.search import (
    ROLL_WEIGHTS,
    ROLLS,
    Value,
    best_afterstates,
    best_equities,
    evaluator_value,
    exact_equities,
)
from ..errors import PlayerSpecError


def shipped_reference(game: str) -> str:
    """The reference evaluator of ``game`` unless told otherwise: its shipped bot, 1-ply
    (``checkpoints/<game>-td.pt``)."""
    return f"checkpoints/{game}-td.pt"


DEFAULT_REFERENCE = shipped_reference(DEFAULT_GAME)
"""The default game's shipped bot, 1-ply: the reference of a Tapa evaluation
(:func:`shipped_reference` gives each game's)."""

OPENING_WEIGHTS = np.where(ROLLS[:, 0] == ROLLS[:, 1], 0.0, 2.0) / 30.0
"""``(21,)``: the chances of the rolls of :data:`ROLLS` on Tabla's first turn under
``opening_roll_played`` (T2): the two single dice thrown to decide who starts, never a
double, so 2/30 each of the 15 others."""

CLIMB_LIMIT = 32
"""More forced decisions than a Gulbara turn can have (six doubles of a climb and six handed
over): a turn still going after them is a fault of the engine."""

_ROLL_INDEX = np.zeros((7, 7), dtype=np.int64)
for _index, (_low, _high) in enumerate(ROLLS):
    _ROLL_INDEX[_low, _high] = _ROLL_INDEX[_high, _low] = _index


def load_reference(spec: str, rules: AnyRules = DEFAULT_RULES) -> Player:
    """The trained TD bot that ``spec`` names (a checkpoint or bot file, 1-ply), to value
    luck under ``rules`` (its game's bot).

    Raises :class:`~agents.storage.files.PlayerSpecError` with one line for what
    :func:`~agents.bots.loading.load_player` refuses (a bot of another game or other rules
    too), for a player without a network that values afterstates (a built-in heuristic, a
    PPO policy, a class of your own) and for a search (``@2ply``, ``@3ply``).
    """
    try:
        player = load_player(spec, rules)
    except PlayerSpecError as error:
        named = str(spec).strip()
        if any(named == shipped_reference(g) for g in GAMES if g != rules.game):
            raise PlayerSpecError(
                f"{error}; the reference of a {rules.game} evaluation is a trained "
                f"{rules.game} bot, {shipped_reference(rules.game)} by default"
            ) from None
        raise
    if not hasattr(getattr(player, "evaluator", None), "equities"):
        raise PlayerSpecError(
            f"{str(spec).strip()} is no trained TD bot: the reference values every play by "
            "a TD network, so name a TD checkpoint or bot file"
        )
    if getattr(player, "ply", 1) != 1:
        raise PlayerSpecError(
            f"{str(spec).strip()}: the reference values plays at 1-ply; name the file without "
            f"@{player.ply}ply"
        )
    return player


def roll_index(dice: np.ndarray) -> np.ndarray:
    """``(N,)`` int64: the index in :data:`ROLLS` of each roll of ``(N, 2)`` ``dice``
    (either order).

    >>> roll_index(np.array([[6, 5], [5, 6], [1, 1]])).tolist()
    [19, 19, 0]
    """
    dice = np.asarray(dice, dtype=np.int64).reshape(-1, 2)
    return _ROLL_INDEX[dice[:, 0], dice[:, 1]]


def climbing(positions: np.ndarray, rules: AnyRules = DEFAULT_RULES) -> np.ndarray:
    """``(N,)`` bool: the positions whose side to move plays a double it did not roll now
    (Gulbara: a climb's higher double, or numbers handed over; G5, G6). Never in the other
    games."""
    positions = np.asarray(positions).reshape(-1, ROW_WIDTH)
    if not game_of(rules).moves_again:
        return np.zeros(len(positions), dtype=bool)
    return positions[:, CLIMB] > 0


def finish_turns(
    value: Value, afterstates: np.ndarray, values: np.ndarray, rules: AnyRules
) -> tuple[np.ndarray, np.ndarray]:
    """Gulbara turns followed to their end: each afterstate that leaves a double to play (a
    climb's next double, or numbers handed to the opponent) is followed by the best play of
    that double by one ply (``value``) from the side that plays it, and so on until a roll
    is due or the game ends.

    Args:
        value: the valuation (:mod:`agents.bots.search`).
        afterstates: ``(M, ROW_WIDTH)`` int8, each in the frame of the side that played it
            (the roller).
        values: ``(M,)`` their one-ply equities, from that side.
        rules: the rules.

    Returns:
        ``(rows, equities)``: where each turn ends, ``(M, ROW_WIDTH)`` int8 in the frame of
        the side that made its last play, and ``(M,)`` float64 its equity from the
        roller's side. Rows that leave no double to play are returned as they are.
    """
    rows = np.array(afterstates, dtype=np.int8).reshape(-1, ROW_WIDTH)
    equities = np.array(values, dtype=np.float64)
    if not game_of(rules).moves_again:
        return rows, equities
    sign = np.ones(len(rows))  # +1 where the row's side is the roller
    for _ in range(CLIMB_LIMIT):
        finished, _ = outcomes(rows, rules=rules, check=False)
        going = np.flatnonzero(~finished & (rows[:, CLIMB] > 0))
        if going.size == 0:
            return rows, equities
        following, passed = next_turn(rows[going], rules.game)
        sign[going] = np.where(passed, -sign[going], sign[going])
        dice = np.repeat(following[:, CLIMB].astype(np.int64)[:, None], 2, axis=1)
        plays, offsets = generate_afterstates(following, dice, rules=rules, check=False)
        found = exact_equities(value, plays, following, offsets, rules)
        chosen = offsets[:-1] + best_in_each_turn(found, offsets)
        rows[going] = plays[chosen]
        equities[going] = sign[going] * found[chosen]
    raise RuntimeError(f"a Gulbara turn went on for more than {CLIMB_LIMIT} forced decisions")


def turn_equities(value: Value, positions: np.ndarray, rules: AnyRules) -> np.ndarray:
    """``(N, 21)`` float64: for each position (a roll due, mover's frame) and each roll of
    :data:`ROLLS`, the equity by ``value`` of the mover's best play, from the mover's side;
    in Gulbara of the whole turn (:func:`finish_turns`)."""
    if not game_of(rules).moves_again:
        return best_equities(value, positions, rules)
    rows, best = best_afterstates(value, positions, rules)
    _, equities = finish_turns(value, rows.reshape(-1, ROW_WIDTH), best.reshape(-1), rules)
    return equities.reshape(best.shape)


def best_play_equities(
    reference: Player, positions: np.ndarray, rules: AnyRules = DEFAULT_RULES
) -> np.ndarray:
    """``(N, 21)`` float64: for each position (``(N, ROW_WIDTH)`` rows, mover's frame, a
    roll due) and each roll of :data:`ROLLS`, the reference's equity of the mover's best
    play, in points from the mover's side (exact points where the play ends the game; the
    position itself, valued by the network, where the mover must pass; in Gulbara where the
    whole turn ends, :func:`turn_equities`)."""
    positions = np.asarray(positions, dtype=np.int8).reshape(-1, positions.shape[-1])
    return turn_equities(evaluator_value(evaluator_of(reference)), positions, rules)


def roll_weights(count: int, opening: np.ndarray | None, rules: AnyRules) -> np.ndarray:
    """``(count, 21)``: the chances of the 21 rolls on each turn: :data:`ROLL_WEIGHTS`, and
    :data:`OPENING_WEIGHTS` on the ``opening`` turns under Tabla's ``opening_roll_played``."""
    weights = np.tile(ROLL_WEIGHTS, (count, 1))
    if opening is not None and getattr(rules, "opening_roll_played", False):
        opening = np.asarray(opening, dtype=bool).reshape(-1)
        if opening.shape != (count,):
            raise ValueError(f"opening must say of each of the {count} turns, got {opening.shape}")
        weights[opening] = OPENING_WEIGHTS
    return weights


def turn_luck(
    reference: Player,
    positions: np.ndarray,
    dice: np.ndarray,
    rules: AnyRules = DEFAULT_RULES,
    opening: np.ndarray | None = None,
) -> np.ndarray:
    """``(N,)`` float64: the luck of each turn, in points from the mover's side.

    Args:
        reference: a trained TD bot of the game (:func:`load_reference`), whose network
            values plays.
        positions: ``(N, ROW_WIDTH)`` int8, each turn's position before the roll, mover's
            frame.
        dice: ``(N, 2)``, the roll thrown in each (a Gulbara climb's double where the
            position has one to play).
        rules: the rules the plays are made under.
        opening: ``(N,)`` bool, the turns whose roll was a game's opening throw (T2); under
            Tabla's ``opening_roll_played`` it was never a double, and their luck is weighed
            over the 15 other rolls. Ignored under other rules.

    The luck is the equity of the best play of the roll thrown minus the probability-weighted
    mean of the best play's equity over the rolls (:func:`best_play_equities`); over the
    rolls it averages to zero in every position. A Gulbara decision without a roll of its own
    (:func:`climbing`) has no luck.
    """
    positions = np.asarray(positions, dtype=np.int8).reshape(-1, ROW_WIDTH)
    dice = np.asarray(dice, dtype=np.int64).reshape(-1, 2)
    weights = roll_weights(len(positions), opening, rules)
    thrown = roll_index(dice)
    if (weights[np.arange(len(positions)), thrown] == 0).any():
        raise ValueError("an opening throw under opening_roll_played is never a double (T2)")
    luck = np.zeros(len(positions))
    rolled = np.flatnonzero(~climbing(positions, rules))
    if rolled.size:
        best = best_play_equities(reference, positions[rolled], rules)
        mean = (best * weights[rolled]).sum(axis=1)
        luck[rolled] = best[np.arange(len(rolled)), thrown[rolled]] - mean
    return luck


def adjusted_points(points: np.ndarray, luck: np.ndarray) -> np.ndarray:
    """``(G,)`` float64: each game's points (first player's side) less the first player's
    luck plus the second player's; ``luck`` is ``(G, 2)``, each player's total luck."""
    luck = np.asarray(luck, dtype=np.float64)
    return np.asarray(points, dtype=np.float64) - luck[:, 0] + luck[:, 1]
