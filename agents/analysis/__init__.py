"""Analysis: what plays are worth, by search and by playing them out.

=============  ==================================================================
module         what it holds
=============  ==================================================================
``config``     the settings of ``analyze.py`` (no engine needed to read them)
``positions``  every play of a roll at 1-ply, 2-ply and by rollout
``games``      a recorded game analysed: each play against the best, errors, luck
``rollout``    rollouts of afterstates, many games at once, over worker processes
``opening``    the opening table of the 21 rolls, by rollout
=============  ==================================================================
"""
