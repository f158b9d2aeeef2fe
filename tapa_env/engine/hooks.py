"""A game's hooks, chosen by its integer code: with :mod:`tapa_env.engine.dispatch`, the only
modules of the engine that name games.

The search (:mod:`tapa_env.engine.search`) and the turn machine
(:mod:`tapa_env.engine.turns`) call the functions here with the game's code before the hook's
own arguments; each switches to that game's hook by a plain, static call and returns what it
returns. The code reaches them as a compile-time constant (:mod:`tapa_env.engine.dispatch`),
so each game's search is compiled on its own, its switches decided by a constant.

Every game's ``kernels`` module defines these hooks (taking from
:mod:`tapa_env.engine.defaults` those where its rules add nothing), over the search state
``(low, high, extra, occupied)`` (:mod:`tapa_env.engine.bits`; ``extra`` is the game's own
word) and the turn's four constant masks ``turn`` (the game's to define), which
``turn_state`` writes into an int64 ``(4,)`` array and the other hooks read as a tuple of
four ints (values, so that the search keeps them in registers).

A game's hooks are compiled ``inline="always"``: numba puts their bodies into the switch
compiled for that game, which is small enough for the compiler to put into the search in
turn. The switches asked after every move with the rule flags (``game_ended``) are inlined
into the search too, so that no array passes through a call there (a call that takes an array
counts references to it). So each game's search runs about as fast as one written for it alone.

=====================  ====================================================================
hook                   what it says
=====================  ====================================================================
``turn_state``         the state of a position row at the start of its mover's turn; fills
                       ``turn``
``dice_to_play``       how many dice the roll gives (a double four, a non-double two)
``legal_sources``      the sources (bit mask; 24: the bar) whose checker may move a die now
``move``               the state after one checker move
``in_order``           whether a double's moves may be searched with sources that never rise
``checks_each_move``   whether a play may end the game part-way
``ends_out_of_order``  whether a double's move out of that order may end the game at once
``game_ended``         whether the state ends the game (asked only under
                       ``checks_each_move``)
``write_afterstate``   a position row from the start row and a state
``turn_columns``       the columns a complete play's afterstates take besides the board
                       (whose turn comes next), from the dice the play uses
``write_turn``         write those columns into a finished afterstate
``records_prefixes``   whether a rule judges a play by where it ends, so that a play
                       stopping before its dice are used may be a legal one (Fevga's F6)
``accepts``            whether a play may end on a state (asked only under
                       ``records_prefixes``)
``has_preference``     whether a rule picks among the longest plays (Fevga's trap, F7)
``prefers``            whether that rule picks an afterstate (asked only under
                       ``has_preference``): when any longest play's afterstate is picked,
                       only those are legal
=====================  ====================================================================
"""

from __future__ import annotations

import numba as nb

from ..games.fevga import kernels as fevga
from ..games.gulbara import kernels as gulbara
from ..games.tabla import kernels as tabla
from ..games.tapa import kernels as tapa

# The codes of the registry (tapa_env.games).
TAPA = 0
TABLA = 1
GULBARA = 2
FEVGA = 3


@nb.njit(cache=True, nogil=True)
def turn_state(game, row, flags, turn):
    if game == TAPA:
        return tapa.turn_state(row, flags, turn)
    if game == TABLA:
        return tabla.turn_state(row, flags, turn)
    if game == GULBARA:
        return gulbara.turn_state(row, flags, turn)
    return fevga.turn_state(row, flags, turn)


@nb.njit(cache=True, nogil=True)
def dice_to_play(game, row, doubles):
    if game == TAPA:
        return tapa.dice_to_play(row, doubles)
    if game == TABLA:
        return tabla.dice_to_play(row, doubles)
    if game == GULBARA:
        return gulbara.dice_to_play(row, doubles)
    return fevga.dice_to_play(row, doubles)


@nb.njit(cache=True, nogil=True)
def legal_sources(game, low, high, extra, occupied, die, turn):
    if game == TAPA:
        return tapa.legal_sources(low, high, extra, occupied, die, turn)
    if game == TABLA:
        return tabla.legal_sources(low, high, extra, occupied, die, turn)
    if game == GULBARA:
        return gulbara.legal_sources(low, high, extra, occupied, die, turn)
    return fevga.legal_sources(low, high, extra, occupied, die, turn)


@nb.njit(cache=True, nogil=True)
def move(game, low, high, extra, occupied, source, die, turn):
    if game == TAPA:
        return tapa.move(low, high, extra, occupied, source, die, turn)
    if game == TABLA:
        return tabla.move(low, high, extra, occupied, source, die, turn)
    if game == GULBARA:
        return gulbara.move(low, high, extra, occupied, source, die, turn)
    return fevga.move(low, high, extra, occupied, source, die, turn)


@nb.njit(cache=True, nogil=True)
def in_order(game, doubles, turn):
    if game == TAPA:
        return tapa.in_order(doubles, turn)
    if game == TABLA:
        return tabla.in_order(doubles, turn)
    if game == GULBARA:
        return gulbara.in_order(doubles, turn)
    return fevga.in_order(doubles, turn)


@nb.njit(cache=True, nogil=True, inline="always")
def checks_each_move(game, flags):
    if game == TAPA:
        return tapa.checks_each_move(flags)
    if game == TABLA:
        return tabla.checks_each_move(flags)
    if game == GULBARA:
        return gulbara.checks_each_move(flags)
    return fevga.checks_each_move(flags)


@nb.njit(cache=True, nogil=True, inline="always")
def ends_out_of_order(game, turn, flags):
    if game == TAPA:
        return tapa.ends_out_of_order(turn, flags)
    if game == TABLA:
        return tabla.ends_out_of_order(turn, flags)
    if game == GULBARA:
        return gulbara.ends_out_of_order(turn, flags)
    return fevga.ends_out_of_order(turn, flags)


@nb.njit(cache=True, nogil=True, inline="always")
def game_ended(game, low, high, extra, occupied, turn, flags):
    if game == TAPA:
        return tapa.game_ended(low, high, extra, occupied, turn, flags)
    if game == TABLA:
        return tabla.game_ended(low, high, extra, occupied, turn, flags)
    if game == GULBARA:
        return gulbara.game_ended(low, high, extra, occupied, turn, flags)
    return fevga.game_ended(low, high, extra, occupied, turn, flags)


@nb.njit(cache=True, nogil=True)
def write_afterstate(game, out, index, row, low, high, extra):
    if game == TAPA:
        tapa.write_afterstate(out, index, row, low, high, extra)
    elif game == TABLA:
        tabla.write_afterstate(out, index, row, low, high, extra)
    elif game == GULBARA:
        gulbara.write_afterstate(out, index, row, low, high, extra)
    else:
        fevga.write_afterstate(out, index, row, low, high, extra)


@nb.njit(cache=True, nogil=True)
def turn_columns(game, row, dice, longest, flags, fields):
    if game == TAPA:
        tapa.turn_columns(row, dice, longest, flags, fields)
    elif game == TABLA:
        tabla.turn_columns(row, dice, longest, flags, fields)
    elif game == GULBARA:
        gulbara.turn_columns(row, dice, longest, flags, fields)
    else:
        fevga.turn_columns(row, dice, longest, flags, fields)


@nb.njit(cache=True, nogil=True)
def write_turn(game, out, index, fields, low, high, extra):
    if game == TAPA:
        tapa.write_turn(out, index, fields, low, high, extra)
    elif game == TABLA:
        tabla.write_turn(out, index, fields, low, high, extra)
    elif game == GULBARA:
        gulbara.write_turn(out, index, fields, low, high, extra)
    else:
        fevga.write_turn(out, index, fields, low, high, extra)


@nb.njit(cache=True, nogil=True, inline="always")
def records_prefixes(game, turn):
    if game == TAPA:
        return tapa.records_prefixes(turn)
    if game == TABLA:
        return tabla.records_prefixes(turn)
    if game == GULBARA:
        return gulbara.records_prefixes(turn)
    return fevga.records_prefixes(turn)


@nb.njit(cache=True, nogil=True, inline="always")
def accepts(game, low, high, extra, occupied, turn):
    if game == TAPA:
        return tapa.accepts(low, high, extra, occupied, turn)
    if game == TABLA:
        return tabla.accepts(low, high, extra, occupied, turn)
    if game == GULBARA:
        return gulbara.accepts(low, high, extra, occupied, turn)
    return fevga.accepts(low, high, extra, occupied, turn)


@nb.njit(cache=True, nogil=True, inline="always")
def has_preference(game, turn):
    if game == TAPA:
        return tapa.has_preference(turn)
    if game == TABLA:
        return tabla.has_preference(turn)
    if game == GULBARA:
        return gulbara.has_preference(turn)
    return fevga.has_preference(turn)


@nb.njit(cache=True, nogil=True, inline="always")
def prefers(game, low, high, extra, occupied, turn):
    if game == TAPA:
        return tapa.prefers(low, high, extra, occupied, turn)
    if game == TABLA:
        return tabla.prefers(low, high, extra, occupied, turn)
    if game == GULBARA:
        return gulbara.prefers(low, high, extra, occupied, turn)
    return fevga.prefers(low, high, extra, occupied, turn)
