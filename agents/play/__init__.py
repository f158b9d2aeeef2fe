"""A person against a bot in any of the three games: ``play.py``'s terminal session.

=================  ==========================================================================
module             what it holds
=================  ==========================================================================
``terminal``       the settings, their checks, and the session: games, climbs, the record
``match_session``  the tabla match: Tabla, Gulbara and Tapa in turn, the bot to the score
``prompt``         your turn at the prompt: the plays listed, a play read, hints, mistakes
``game_texts``     what the terminal says of each game, and each game's default opponent
=================  ==========================================================================
"""
