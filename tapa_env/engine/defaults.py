"""The hooks of a plain game, for a game's ``kernels`` module to take where its rules add
nothing (:mod:`tapa_env.engine.dispatch` lists the hooks): a double is four moves of its
number, a non-double two; a double may be searched in order; no play ends the game before
its last move; and a row says nothing of whose turn comes next."""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True, nogil=True, inline="always")
def dice_to_play(row, doubles):
    """A double is four moves of its number, a non-double two."""
    return 4 if doubles else 2


@nb.njit(cache=True, nogil=True, inline="always")
def in_order(doubles, turn):
    """A double's moves may be searched with sources that never rise: any legal play can be
    reordered so without changing what it reaches or how many dice it uses."""
    return doubles


@nb.njit(cache=True, nogil=True, inline="always")
def checks_each_move(flags):
    """No move is checked for a win: bearing off the last checker, a game's only end, leaves
    nothing to move, so it is always a play's last move."""
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def ends_out_of_order(turn, flags):
    """No move of a double ends the game out of the order its sources are searched in."""
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def turn_columns(row, dice, longest, flags, fields):
    """A row that says nothing of whose turn comes next has no such columns to fill."""


@nb.njit(cache=True, nogil=True, inline="always")
def write_turn(out, index, fields, low, high, extra):
    """A row that says nothing of whose turn comes next has nothing to write."""


@nb.njit(cache=True, nogil=True, inline="always")
def records_prefixes(turn):
    """Every play is a maximal sequence of legal checker moves: no rule judges a play by the
    position it ends on, so a play that could go on is never one of its own."""
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def accepts(low, high, extra, occupied, turn):
    """Every position a play ends on is allowed."""
    return True


@nb.njit(cache=True, nogil=True, inline="always")
def has_preference(turn):
    """No rule picks among the longest plays beyond the dice."""
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def prefers(low, high, extra, occupied, turn):
    """No afterstate is preferred to another."""
    return True
