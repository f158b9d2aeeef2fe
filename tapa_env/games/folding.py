"""What a TD network's evaluator needs of the games' encodings to fold its first layer into
per-point tables, so that it values a row without writing the row's encoded features.

Each game's ``encoding`` module says how in ``FIRST_LAYER``:

``"pins"``
    Every feature belongs to one point and one side (checkers, a pin there) or adds up over
    points, or is computed per row from the point masks (the ``expert`` and ``contact``
    features after ``RAW_SIZE``); the evaluator reads the encoding's column layout (``PINS``,
    ``OFF``, ``MOTHER``, ``RAW_SIZE``, ``EXPERT_FEATURES``, ``CONTACT_COLUMNS``) and its point
    masks (``POINT_MASKS``, ``point_masks``, ``move_own``, ``move_pin``,
    ``features_of_masks``, ``contact_of_masks``) from :data:`PINS_ENCODING`, the one encoding
    module that folds this way. Which of these a network has it takes from its first layer's
    width.
``"points"``
    The first :data:`POINT_FEATURES` features are the point units; the few after them are
    computed row by row by the game's ``row_features`` hook, which :func:`row_features` calls
    by the game's code.

Numba caches a kernel only when every call in it is static, so :func:`row_features` switches on
the registry's codes and calls each game's hook by name; a game folded over point tables adds
one branch here.

>>> first_layer("tabla"), PINS_ENCODING.FIRST_LAYER
('points', 'pins')
"""

from __future__ import annotations

import numba as nb

from ..count_units import POINT_UNITS
from . import all_games
from . import game as registered
from .fevga import GAME as _FEVGA
from .fevga.encoding import row_features as _fevga_features
from .gulbara import GAME as _GULBARA
from .gulbara.encoding import row_features as _gulbara_features
from .tabla import GAME as _TABLA
from .tabla.encoding import row_features as _tabla_features

__all__ = [
    "FIRST_LAYERS",
    "PINS_ENCODING",
    "PINS_GAME",
    "POINT_FEATURES",
    "first_layer",
    "row_features",
]

FIRST_LAYERS = ("pins", "points")
"""The ways an evaluator folds a first layer, as a game's ``encoding.FIRST_LAYER`` names them."""
POINT_FEATURES = POINT_UNITS
"""The point units at the start of every encoding folded over point tables (192)."""

_TABLA_CODE = _TABLA.code
_GULBARA_CODE = _GULBARA.code
_FEVGA_CODE = _FEVGA.code


def first_layer(game: str) -> str:
    """How an evaluator folds a first layer over the encodings of ``game`` (a name or a
    :class:`~tapa_env.games.Game`): one of :data:`FIRST_LAYERS`."""
    return registered(game).encoding.FIRST_LAYER


def _folded_by_pins() -> str:
    """The name of the one game whose encodings fold by ``"pins"``."""
    found = [entry.name for entry in all_games() if entry.encoding.FIRST_LAYER == "pins"]
    if len(found) != 1:
        raise RuntimeError(f"one game's encodings fold by pins, not {len(found)}")
    return found[0]


PINS_GAME = _folded_by_pins()
"""The game whose encodings fold by ``"pins"``."""
PINS_ENCODING = registered(PINS_GAME).encoding
"""Its encoding module: the column layout and the point masks the evaluator reads."""


@nb.njit(cache=True, nogil=True)
def row_features(code, rows, i, out, o, own_total, opp_total, expert):
    """The features after the point units of ``rows[i]`` into ``out[o]``, by the ``row_features``
    hook of the game of code ``code`` (one folded over point tables), given each side's
    checkers on the board."""
    if code == _TABLA_CODE:
        _tabla_features(rows, i, out, o, own_total, opp_total, expert)
    elif code == _GULBARA_CODE:
        _gulbara_features(rows, i, out, o, own_total, opp_total, expert)
    elif code == _FEVGA_CODE:
        _fevga_features(rows, i, out, o, own_total, opp_total, expert)
    else:
        raise ValueError("row_features: no case for this game's code (tapa_env/games/folding.py)")
