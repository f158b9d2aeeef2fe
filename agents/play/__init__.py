"""A person against a bot in any of the three games: ``play.py``'s terminal session.

=================  ==========================================================================
module             what it holds
=================  ==========================================================================
``terminal``       the settings, their checks, and the session: games, climbs, the record
``prompt``         your turn at the prompt: the plays listed, a play read, hints, mistakes
``game_texts``     what the terminal says of each game, and each game's default opponent
=================  ==========================================================================
"""
