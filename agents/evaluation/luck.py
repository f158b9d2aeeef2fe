"""The luck of each turn, and game results adjusted for it (variance reduction).

Most of what separates two players over a few thousand games is the dice. A fixed reference
evaluator (a trained TD network at 1-ply; by default the shipped bot,
``checkpoints/tapa-td.pt``) says how much each roll was worth: the **luck** of a turn, in
position ``P`` with roll ``r`` thrown, is

    luck(P, r) = best(P, r) - sum over the 21 distinct rolls r' of p(r') * best(P, r')

where ``best(P, r)`` is the reference's equity (expected points, from the mover's side) of
the mover's best play of ``r``: the network's equity of each afterstate, the exact points of
a play that ends the game, and the position itself where the mover must pass; ``p(r')`` is
1/36 for a double and 2/36 for the others. A game's **adjusted result** is its points (from
the first player's side) minus the first player's total luck plus the second player's.

Why the adjusted mean is an unbiased estimate of the plain one. Let ``H_t`` be everything
that happened before turn ``t``'s roll: the dice so far and every play, whatever the players
are (random, heuristic, trained). The roll of turn ``t`` does not depend on ``H_t``, and
``best(P_t, .)`` is a fixed function of the position ``P_t`` that ``H_t`` determines, so

    E[luck(P_t, r_t) | H_t] = sum_r p(r) best(P_t, r) - sum_r' p(r') best(P_t, r') = 0.

Each turn's luck is a martingale difference: the signed running total (the first player's
luck minus the second player's) is a martingale with increments bounded by 4 points, and a
game ends by ``max_turns`` at the latest, so by optional stopping its total has mean zero,
however the players play and however wrong the reference is. The adjusted result therefore
has the same mean as the points; averaging the two games of a duplicate pair, or the games
of a match, is linear and keeps that. The reference decides only how much variance goes:
were it exact and both players perfect, the luck would add up to the whole swing of the game
and the adjusted result would be the same number every game; the players' errors (what is
being measured) and the reference's own errors remain.

Everything is batched: for a batch of positions, the afterstates of all 21 rolls of all of
them come from one engine call and are valued by one network call (:mod:`agents.bots.search`).
"""

from __future__ import annotations

import numpy as np

from tapa_env.rules import DEFAULT_RULES, Rules

from ..bearoff.database import evaluator_of
from ..bots.loading import load_player
from ..bots.players import Player
from ..bots.search import ROLL_WEIGHTS, ROLLS, best_equities, evaluator_value
from ..errors import PlayerSpecError

DEFAULT_REFERENCE = "checkpoints/tapa-td.pt"
"""The reference evaluator of :func:`turn_luck` unless told otherwise: the shipped bot, 1-ply."""

_ROLL_INDEX = np.zeros((7, 7), dtype=np.int64)
for _index, (_low, _high) in enumerate(ROLLS):
    _ROLL_INDEX[_low, _high] = _ROLL_INDEX[_high, _low] = _index


def load_reference(spec: str, rules: Rules = DEFAULT_RULES) -> Player:
    """The trained TD bot that ``spec`` names (a checkpoint or bot file, 1-ply), to value
    luck under ``rules``.

    Raises :class:`~agents.storage.files.PlayerSpecError` with one line for what
    :func:`~agents.bots.loading.load_player` refuses, for a player without a network that values
    afterstates (a built-in heuristic, a PPO policy, a class of your own) and for a search
    (``@2ply``, ``@3ply``).
    """
    player = load_player(spec, rules)
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
    (either order)."""
    dice = np.asarray(dice, dtype=np.int64).reshape(-1, 2)
    return _ROLL_INDEX[dice[:, 0], dice[:, 1]]


def best_play_equities(
    reference: Player, positions: np.ndarray, rules: Rules = DEFAULT_RULES
) -> np.ndarray:
    """``(N, 21)`` float64: for each position (``(N, ROW_WIDTH)`` rows, mover's frame) and
    each roll of :data:`ROLLS`, the reference's equity of the mover's best play, in points
    from the mover's side (exact points where the play ends the game; the position itself,
    valued by the network, where the mover must pass)."""
    positions = np.asarray(positions, dtype=np.int8).reshape(-1, positions.shape[-1])
    return best_equities(evaluator_value(evaluator_of(reference)), positions, rules)


def turn_luck(
    reference: Player, positions: np.ndarray, dice: np.ndarray, rules: Rules = DEFAULT_RULES
) -> np.ndarray:
    """``(N,)`` float64: the luck of each turn, in points from the mover's side.

    Args:
        reference: a trained TD bot (:func:`load_reference`), whose network values plays.
        positions: ``(N, ROW_WIDTH)`` int8, each turn's position before the roll, mover's
            frame.
        dice: ``(N, 2)``, the roll thrown in each.
        rules: the rules the plays are made under.

    The luck is the equity of the best play of the roll thrown minus the probability-weighted
    mean of the best play's equity over the 21 rolls (:func:`best_play_equities`); over the
    rolls it averages to zero in every position.
    """
    best = best_play_equities(reference, positions, rules)
    thrown = best[np.arange(len(best)), roll_index(dice)]
    return thrown - best @ ROLL_WEIGHTS


def adjusted_points(points: np.ndarray, luck: np.ndarray) -> np.ndarray:
    """``(G,)`` float64: each game's points (first player's side) less the first player's
    luck plus the second player's; ``luck`` is ``(G, 2)``, each player's total luck."""
    luck = np.asarray(luck, dtype=np.float64)
    return np.asarray(points, dtype=np.float64) - luck[:, 0] + luck[:, 1]
