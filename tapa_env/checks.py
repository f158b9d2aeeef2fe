"""The one check of a whole-number setting, for every setting of the project: the engine's
arguments (``max_turns``, ``num_envs``), the entry scripts' settings and the command lines.

>>> whole_number(5, "games", least=1)
5
>>> whole_number(0, "games", least=1)
Traceback (most recent call last):
...
ValueError: games must be a positive integer, got 0
"""

from __future__ import annotations

import argparse
import numbers
from collections.abc import Callable


def kind_of(least: int, below: int | None = None) -> str:
    """The words for an integer of at least ``least`` (and below ``below``): ``a positive
    integer``, ``a non-negative integer``, ``an integer of at least 2``."""
    kind = {0: "a non-negative integer", 1: "a positive integer"}.get(
        least, f"an integer of at least {least}"
    )
    if below is not None:
        power = below.bit_length() - 1
        kind += f" below 2**{power}" if below == 1 << power else f" below {below}"
    return kind


def whole_number(
    value: object,
    setting: str,
    least: int = 0,
    below: int | None = None,
    error: type[Exception] = ValueError,
    optional: bool = False,
) -> int | None:
    """``value`` as an ``int`` when it is an integer (not a bool) of at least ``least`` and
    below ``below`` (``None`` as it is, when ``optional``); otherwise ``error`` with one line
    naming ``setting`` and the value."""
    if optional and value is None:
        return None
    fits = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not fits or value < least or (below is not None and value >= below):
        raise error(f"{setting} must be {kind_of(least, below)}, got {value!r}")
    return int(value)


def whole_number_argument(least: int) -> Callable[[str], int]:
    """An ``argparse`` type: an integer of at least ``least``, or a usage error naming the
    value (argparse then exits with status 2)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {kind_of(least)}, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be {kind_of(least)}, got {value}")
        return value

    return parse
