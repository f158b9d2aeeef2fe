"""The compiled core under every game: one afterstate search and one checker-move turn
machine, written over a game's hooks (:mod:`tapa_env.engine.dispatch`), with the hash table
and bit words they share. Nothing here names a game but the dispatch module."""
