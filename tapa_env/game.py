"""The per-position API of docs/formats.md, a thin view over the batched engine."""

from __future__ import annotations

import numpy as np

from .games import game as registered
from .movegen import generate_afterstates
from .position import Position
from .results import Outcome, outcomes
from .rules import AnyRules, rules_for


def check_dice(dice: object) -> tuple[int, int]:
    """Return ``dice`` as a pair of ints, or raise ``ValueError`` saying what is wrong."""
    if not isinstance(dice, (tuple, list, np.ndarray)) or len(dice) != 2:
        raise ValueError(f"dice must be a pair of integers 1-6, got {dice!r}")
    pair = []
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, (int, np.integer)) or not 1 <= die <= 6:
            raise ValueError(f"dice must be a pair of integers 1-6, got {dice!r}")
        pair.append(int(die))
    return pair[0], pair[1]


def legal_afterstates(
    position: Position, dice: tuple[int, int], rules: AnyRules | None = None
) -> list[Position]:
    """Every distinct position the mover can reach by a complete legal play of ``dice``.

    The afterstates stay in the mover's frame, in a deterministic order; ``[position]`` when
    the mover must pass (R12; in Gulbara with its turn state moved on). ``rules`` default to
    those of the position's game. A Gulbara position must be its mover's turn (``next`` is
    ``"own"``), and with a climb to play ``dice`` is that double (G5).
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a tapa_env.Position, got {type(position).__name__}")
    first, second = check_dice(dice)
    rules = rules_for(position.game, rules)
    # A game whose side may move again checks that the position is its mover's turn.
    afterstates, _ = generate_afterstates(
        position.row[None, :], np.array([[first, second]]), rules=rules,
        check=registered(position.game).moves_again,
    )  # fmt: skip
    return [Position._trusted(row, position.game) for row in afterstates]


def outcome(position: Position, rules: AnyRules | None = None) -> Outcome | None:
    """``None`` while the game goes on, else the :class:`Outcome` in ``position``'s frame.
    ``rules`` default to those of the position's game."""
    if not isinstance(position, Position):
        raise TypeError(f"position must be a tapa_env.Position, got {type(position).__name__}")
    rules = rules_for(position.game, rules)
    finished, value = outcomes(position.row[None, :], rules=rules, check=False)
    if not finished[0]:
        return None
    points = int(abs(value[0]))
    return Outcome(winner=int(np.sign(value[0])), points=points)
