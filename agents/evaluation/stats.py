"""Summaries with honest error bars: points per game, win rates, and ratings from a round robin."""

from __future__ import annotations

import math

import numpy as np

from ..records.endings import DRAW, GAMMON, MOTHER, SINGLE, UNFINISHED
from .arena import GameResults

Z95 = 1.959963984540054  # the two-sided 95% point of the normal distribution
MAX_POINTS = 2  # the most a game scores: a gammon or a mother win
MIN_UNITS = 2
"""The fewest independent units (duplicate pairs, matches or games) that give an interval."""


def mean_ci95(
    values: np.ndarray, units: np.ndarray, bounds: tuple[float, float] | None = None
) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95% confidence interval, units taken as independent;
    ``None`` for the interval when there is one unit only (a single duplicate pair, match or
    game), whose spread says nothing of the mean's noise.

    Values that share a unit (the two games of a duplicate pair, the games of a match) are
    averaged first; the interval is the normal approximation ``mean +- 1.96 * s / sqrt(n)``
    over the ``n`` unit means, with ``s`` their sample standard deviation. Every unit must
    hold the same number of values for the mean of units to equal the mean of values, which
    holds for duplicate pairs; matches are weighted by their games.

    ``bounds`` (lowest, highest), the range every value lies in, clips the interval to it:
    when nearly every value sits at one end of the range the normal approximation can reach
    past it (``[+1.970, +2.010]`` points per game), where the mean can never be.
    """
    values = np.asarray(values, dtype=np.float64)
    _, unit_index = np.unique(units, return_inverse=True)
    totals = np.bincount(unit_index, weights=values)
    sizes = np.bincount(unit_index).astype(np.float64)
    mean = float(values.mean())
    if len(totals) < MIN_UNITS:
        return mean, None
    # Ratio estimator over units: the mean of values with unit-level variance.
    residuals = (totals - mean * sizes) / sizes.mean()
    standard_error = float(np.sqrt((residuals**2).sum() / (len(totals) - 1) / len(totals)))
    low, high = mean - Z95 * standard_error, mean + Z95 * standard_error
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return mean, (low, high)


def summarize(names: tuple[str, str], results: GameResults) -> dict:
    """One pairing's figures, from the side of ``names[0]`` (docs/formats.md, "results.json").

    ``ppg_ci95``, the 95% interval of the points per game, is clipped to the possible range
    ``[-2, +2]`` (:func:`mean_ci95`), and ``None`` (null in results.json) where the games
    are one independent unit (one duplicate pair, one match, or one game without duplicate
    dice), too few to give an interval. Games played with a reference (``results.luck``) add
    ``luck_adjusted``: the same figures of each game's points less each side's luck
    (:mod:`agents.evaluation.luck`), an unbiased estimate of the same mean with its own
    interval over the same units, and each player's mean luck per game.
    """
    points = results.points
    games = results.games
    wins = int((points > 0).sum())
    losses = int((points < 0).sum())
    ppg, interval = mean_ci95(points, results.unit, bounds=(-MAX_POINTS, MAX_POINTS))
    won = points > 0
    lost = points < 0
    summary = {
        "players": list(names),
        "games": games,
        "wins": wins,
        "losses": losses,
        "draws": int((results.kind == DRAW).sum()),
        "unfinished": int((results.kind == UNFINISHED).sum()),
        "win_rate": wins / games,
        "ppg": ppg,
        "ppg_ci95": _listed(interval),
        "rates": {
            "single_wins": float((won & (results.kind == SINGLE)).mean()),
            "gammon_wins": float((won & (results.kind == GAMMON)).mean()),
            "mother_wins": float((won & (results.kind == MOTHER)).mean()),
            "single_losses": float((lost & (results.kind == SINGLE)).mean()),
            "gammon_losses": float((lost & (results.kind == GAMMON)).mean()),
            "mother_losses": float((lost & (results.kind == MOTHER)).mean()),
            "draws": float((results.kind == DRAW).mean()),
        },
        "mean_turns": float(results.turns.mean()),
    }
    if results.luck is not None:
        adjusted, interval = mean_ci95(
            results.adjusted_points(), results.unit, bounds=(-MAX_POINTS, MAX_POINTS)
        )
        summary["luck_adjusted"] = {
            "ppg": adjusted,
            "ppg_ci95": _listed(interval),
            "luck_per_game": [float(side) for side in results.luck.mean(axis=0)],
        }
    if results.match_score is not None:
        score = results.match_score
        summary["matches"] = {
            "played": len(score),
            "to_points": results.match_points,
            "won": int((score[:, 0] > score[:, 1]).sum()),
            "lost": int((score[:, 0] < score[:, 1]).sum()),
        }
    return summary


def _listed(interval: tuple[float, float] | None) -> list[float] | None:
    """An interval as results.json holds it: ``[low, high]``, or ``None`` for none."""
    return None if interval is None else [interval[0], interval[1]]


def fit_ratings(
    names: list[str], pairings: list[dict], prior_draws: float = 1.0
) -> dict[str, dict]:
    """Elo-scale Bradley-Terry ratings fitted to every pairing, with 95% intervals.

    Each game scores 1, 0.5 (draw) or 0 for the first player; the model is
    ``P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400))``, fitted by maximum likelihood
    with the ratings' mean fixed at 1500. ``prior_draws`` virtual drawn games per pairing
    keep a clean sweep finite. Intervals are ``+- 1.96`` standard errors from the observed
    information matrix.
    """
    index = {name: k for k, name in enumerate(names)}
    n = len(names)
    scale = math.log(10) / 400
    pairs = []
    for pairing in pairings:
        first, second = (index[p] for p in pairing["players"])
        decided = pairing["wins"] + pairing["losses"] + pairing["draws"]
        score = pairing["wins"] + 0.5 * pairing["draws"] + 0.5 * prior_draws
        pairs.append((first, second, score, decided + prior_draws))
    ratings = np.zeros(n)
    information = np.zeros((n, n))
    for _ in range(100):
        gradient = np.zeros(n)
        information = np.zeros((n, n))
        for first, second, score, total in pairs:
            expected = 1 / (1 + math.exp(-scale * (ratings[first] - ratings[second])))
            gradient[first] += scale * (score - total * expected)
            gradient[second] -= scale * (score - total * expected)
            weight = scale**2 * total * expected * (1 - expected)
            information[first, first] += weight
            information[second, second] += weight
            information[first, second] -= weight
            information[second, first] -= weight
        step = np.linalg.pinv(information) @ gradient
        ratings += step
        ratings -= ratings.mean()
        if np.abs(step).max() < 1e-9:
            break
    covariance = np.linalg.pinv(information)  # the sum-zero constraint fixes the level
    result = {}
    for name, k in index.items():
        error = math.sqrt(max(covariance[k, k], 0.0))
        rating = 1500 + ratings[k]
        result[name] = {
            "rating": float(rating),
            "ci95": [float(rating - Z95 * error), float(rating + Z95 * error)],
        }
    return result
