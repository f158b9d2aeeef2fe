"""The kinds of mistake a user can make, one class each, every one a ``ValueError`` with a
one-line message that names the problem.

The entry scripts turn each into one line on stderr and exit status 2 (``entry.py``).
This module imports nothing of ``agents``: every room may raise them.
"""

from __future__ import annotations


class PlayerSpecError(ValueError):
    """A player name or path that names no player, or a file that holds no usable bot."""


class ConfigError(ValueError):
    """A setting that cannot work (of ``train.py``, ``evaluate.py``, ``export.py`` or
    ``analyze.py``); the message names the setting."""


class CachedFileError(ValueError):
    """A file the project made for itself and keeps for later (the bear-off database) that is
    missing where it must not be built, damaged, or of another kind; the message names it
    and the command that makes it again."""


class MatchError(ValueError):
    """A tabla match that cannot be: a bad length, order of games or starter rule, a match
    state that contradicts itself, a player that cannot play every game of the match."""
