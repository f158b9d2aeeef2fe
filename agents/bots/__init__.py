"""Bots and players: what plays a turn, and how a player is named and loaded.

===============  ================================================================
module           what it holds
===============  ================================================================
``players``      the :class:`Player` interface, random play, best play per turn
``features``     named features of afterstates, batched (what heuristics weigh)
``heuristics``   the heuristic bots: ``offensive``, ``defensive``, ``adaptive``
``equity``       the five outcome chances of a network, their equity, frame swap
``search``       one-, two- and three-ply search over any valuation, batched
``loading``      :func:`load_player`: a player from a name, a file or a class
``game_bots``    each game's built-in bots, its strongest, a run's default opponents
===============  ================================================================

Above ``agents.storage`` only; the algorithms' bots (``agents/td``, ``agents/ppo``) are
read through :mod:`agents.algorithms`, by name, so this room imports no algorithm.
"""
