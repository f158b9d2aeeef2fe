"""``python -m agents.bearoff [--out PATH]``: build the bear-off database and write its file."""

from .database import main

main()
