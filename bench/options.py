"""Command-line option types the benchmarks share."""

from __future__ import annotations

from tapa_env.checks import whole_number_argument

positive_int = whole_number_argument(1)
"""An argparse type: a positive integer, or an error naming the value."""
