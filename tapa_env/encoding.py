"""Position tensors in the TD-Gammon style: each game's named encodings, read from the
registry (:mod:`tapa_env.games`), for a whole batch in one compiled call.

Every feature is read from the mover's frame (the row's side to move, or for an afterstate
the side that just moved). Each game has a ``raw`` and an ``expert`` encoding, defined column
by column in its package's ``encoding`` module (Tapa's: :mod:`tapa_env.games.tapa.encoding`);
all start with the truncated unary units of :mod:`tapa_env.count_units`.

A checkpoint records the encoding's ``version`` (the other games' start with the game's
name), so a bot never meets an encoding it was not trained on.

>>> get_encoding("expert", "tabla").version, get_encoding("raw").size
('tabla-expert-v1', 248)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .count_units import COUNT_UNITS, UNITS
from .games import DEFAULT_GAME, all_games
from .games import game as registered
from .layout import as_rows
from .position import check_rows

__all__ = [
    "COUNT_UNITS",
    "ENCODINGS",
    "GAME_ENCODINGS",
    "UNITS",
    "Encoding",
    "encoding_names",
    "get_encoding",
]


@dataclass(frozen=True)
class Encoding:
    """A named position encoding of a game: ``size`` float32 features a row, tagged with
    ``version`` (the versions of games other than Tapa start with the game's name)."""

    name: str
    version: str
    size: int
    description: str
    game: str = DEFAULT_GAME
    extends: str | None = None
    """The encoding of the same game whose features this one's begin with, or ``None``: a
    network trained on that one can start a network on this one (``agent.start_from``)."""

    def encode(
        self, rows: np.ndarray, out: np.ndarray | None = None, *, check: bool = True
    ) -> np.ndarray:
        """Encode ``(B, ROW_WIDTH)`` rows as a ``(B, size)`` float32 array (into ``out``).

        ``check`` first checks that every row is a position
        (:func:`tapa_env.position.check_rows`, a ``PositionError`` naming the first bad row);
        ``False`` skips that, for rows the engine produced itself.
        """
        rows = check_rows(rows, self.game) if check else as_rows(rows)
        if out is None:
            out = np.empty((rows.shape[0], self.size), dtype=np.float32)
        elif out.shape != (rows.shape[0], self.size) or out.dtype != np.float32:
            raise ValueError(
                f"out must be float32 of shape {(rows.shape[0], self.size)}, "
                f"got {out.dtype} {out.shape}"
            )
        if rows.shape[0]:
            registered(self.game).encoding.encode(rows, out, self.name)
        return out


def _encodings_of(game: str) -> dict[str, Encoding]:
    """The encodings the game ``game`` defines, by name."""
    module = registered(game).encoding
    extends = getattr(module, "EXTENDS", {})
    return {
        name: Encoding(name, version, size, description, game, extends.get(name))
        for name, (version, size, description) in module.ENCODINGS.items()
    }


GAME_ENCODINGS: dict[tuple[str, str], Encoding] = {
    (entry.name, name): encoding
    for entry in all_games()
    for name, encoding in _encodings_of(entry.name).items()
}
"""Every game's encodings, by ``(game, name)``."""
ENCODINGS: dict[str, Encoding] = _encodings_of(DEFAULT_GAME)
"""The default game's encodings, by name (every game has ``raw`` and ``expert``; some have
more: :func:`encoding_names`)."""


def encoding_names(game: str = DEFAULT_GAME) -> list[str]:
    """The names of ``game``'s encodings, sorted."""
    return sorted(name for owner, name in GAME_ENCODINGS if owner == game)


def get_encoding(name: str, game: str = DEFAULT_GAME) -> Encoding:
    """The encoding called ``name`` of ``game``; a ``ValueError`` lists the known names."""
    try:
        return GAME_ENCODINGS[(game, name)]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown encoding {name!r} of {game}; choose one of {encoding_names(game)}"
        ) from None
