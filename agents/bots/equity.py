"""The outcome probabilities a TD network predicts, their equity, and the frame swap.

A network values an afterstate from the side that has just moved. It predicts the
probability of each way the game can end for that side (R8-R10), in this order:

=====  ==============  ======  =========================================================
index  name            points  meaning
=====  ==============  ======  =========================================================
0      ``win``         +1      we bear off all 15 first, the opponent has borne some off
1      ``win_double``  +2      a gammon (the opponent has none off) or its mother pinned
2      ``draw``        0       both mothers pinned (R10)
3      ``lose``        -1      the opponent bears off first, we have borne some off
4      ``lose_double`` -2      the opponent wins a gammon or pins our mother
=====  ==============  ======  =========================================================

The equity is the expected points, ``probabilities @ OUTCOME_POINTS``. The next afterstate
of a game belongs to the opponent, so its probabilities are swapped (win with lose of the
same size) before they serve as a target of ours: :func:`swap_sides`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

OUTCOMES = ("win", "win_double", "draw", "lose", "lose_double")
OUTCOME_POINTS = np.array([1.0, 2.0, 0.0, -1.0, -2.0], dtype=np.float32)
"""``(5,)`` float32: the points of each outcome, from the side that just moved."""
SWAP = np.array([3, 4, 2, 0, 1], dtype=np.int64)
"""``probabilities[..., SWAP]`` reads a prediction from the other side."""


def swap_sides(probabilities: np.ndarray) -> np.ndarray:
    """The same outcome probabilities seen by the other side: ``(..., 5)`` -> ``(..., 5)``.

    A win of the side that moved is a loss of the same size for its opponent; a draw stays
    a draw. Swapping twice gives the input back.
    """
    return probabilities[..., SWAP]


def equity(probabilities: np.ndarray) -> np.ndarray:
    """Expected points of ``(..., 5)`` outcome probabilities: ``(...)``, in ``[-2, 2]``.

    The sum runs in a compiled loop, not as ``probabilities @ OUTCOME_POINTS``: the BLAS
    matrix-vector kernel behind ``@`` can leave the floating-point invalid flag set on finite
    input, which numpy then reports as a warning.
    """
    values = np.asarray(probabilities)
    dtype = np.result_type(values.dtype, OUTCOME_POINTS.dtype)
    rows = np.ascontiguousarray(values.reshape(-1, len(OUTCOMES)), dtype=dtype)
    points = _expected_points(rows, OUTCOME_POINTS.astype(dtype))
    return points[0] if values.ndim == 1 else points.reshape(values.shape[:-1])


@nb.njit(cache=True, nogil=True)
def _expected_points(rows, weights):
    points = np.empty(rows.shape[0], dtype=rows.dtype)
    for i in range(rows.shape[0]):
        total = rows[i, 0] * weights[0]
        for k in range(1, rows.shape[1]):
            total += rows[i, k] * weights[k]
        points[i] = total
    return points


def outcome_index(points: np.ndarray) -> np.ndarray:
    """The outcome index of a finished game's points (+2, +1, 0, -1, -2) for that side.

    ``points`` is any integer array of results from the side whose frame they are in, as
    :func:`tapa_env.outcomes` gives them; returns int64 indices into :data:`OUTCOMES`.
    """
    points = np.asarray(points, dtype=np.int64)
    if points.size and (points.min() < -2 or points.max() > 2):
        raise ValueError(f"game points must be in -2..2, got {points.min()}..{points.max()}")
    return np.array([2, 0, 1, 4, 3], dtype=np.int64)[points]


def one_hot_outcomes(points: np.ndarray) -> np.ndarray:
    """``(N, 5)`` float32 targets that put all probability on each finished game's result."""
    targets = np.zeros((len(points), len(OUTCOMES)), dtype=np.float32)
    targets[np.arange(len(points)), outcome_index(points)] = 1.0
    return targets
