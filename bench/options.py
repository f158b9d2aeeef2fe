"""Command-line option types the benchmarks share."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """An argparse type: a positive integer, or an error naming the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value
