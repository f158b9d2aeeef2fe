"""Evaluation: players against each other, and what their results say.

=======================  ======================================================
module                   what it holds
=======================  ======================================================
``arena``                many games between two players, duplicate dice; the step
                         every arena takes (choose, record, play)
``luck``                 the luck of each turn, and results adjusted for it
``stats``                points per game, win rates and ratings with error bars
``round_robin``          one round robin for games and matches: chunks, workers,
                         merged results, ratings
``tournament``           ``evaluate.py``'s settings; the round robin of games, its table
``workers``              work items over worker processes, replayed when one is lost
=======================  ======================================================

Game records, the arena's games as records among them, are :mod:`agents.records`'; whole
tabla matches and their arena and round robin are :mod:`agents.match`'s.
"""
