"""File safety: what every reader and writer of the project's files shares.

=============  ==================================================================
module         what it holds
=============  ==================================================================
``files``      atomic writes, one-line write errors, path checks, rules refusal
``checksums``  the SHA-256 checksum every written file carries, checked on load
``tensors``    plain containers of tensors, what ``torch.save`` files hold
``upgrade``    ``python -m agents.storage.upgrade FILE``: a checksummed copy of a
               checkpoint or bot file written before checksums
=============  ==================================================================

This room imports no other room of ``agents``: every other one may use it. (``upgrade``
asks each algorithm's reader through the registry of algorithms, by name.)
"""
