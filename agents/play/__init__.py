"""A person against a bot: ``play.py``'s terminal session (:mod:`agents.play.terminal`)."""
