"""Evaluation: players against each other, and what their results say.

=======================  ======================================================
module                   what it holds
=======================  ======================================================
``arena``                many games or matches between two players, duplicate dice
``luck``                 the luck of each turn, and results adjusted for it
``stats``                points per game, win rates and ratings with error bars
``tournament``           a round robin: ``evaluate.py``'s settings, table and JSON
``tournament_records``   the arena's games saved as game records
``game_record``          the game-record text format: written and read back
``record_data``          a game record as data: games, turns, results of each game
``record_reader``        a game record read back, every play replayed
``workers``              work items over worker processes, replayed when one is lost
=======================  ======================================================
"""
