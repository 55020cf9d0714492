"""What the bench scripts share: one percentile, by nearest rank, for all of their figures,
and the types of their options that take seconds or degrees (a whole number's are
``companion.app.arg_types``' ``positive_int`` and ``non_negative_int``).

Not a bench: the benches import it from beside them (``sys.path`` holds this folder).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` (0.95: the p95) percentile of ``values`` by nearest rank: the
    ⌈fraction·n⌉-th smallest of the n values, the least one that at least that fraction
    of them are at or below. Of n values it is the largest while fraction·n > n - 1: the
    p95 of 19 or fewer, the p99 of 99 or fewer.

    The benches computed it three ways, none this one: ``ordered[int(fraction·n)]`` was a
    rank high whenever fraction·n was whole (the 20th of 20 for the p95, not the 19th),
    and ``ordered[int(fraction·(n - 1))]`` a rank low for most n (audit hist63 N4)."""
    if not values:
        raise ValueError("no values to take a percentile of")
    ordered = sorted(values)
    # round: 0.95 * 20 is whole, but a float product may land a hair above a whole number
    rank = math.ceil(round(fraction * len(ordered), 9))
    return ordered[min(len(ordered), max(rank, 1)) - 1]


def number_from(least: float, *, above: bool = False,
                below: float | None = None) -> Callable[[str], float]:
    """An option's type (argparse ``type=``): a number of ``least`` or more (more than it if
    ``above``), and under ``below`` if given. A value out of range is a usage error naming
    the option and the range, not a traceback later on (audit scripts68 D1, N5: a sleep of
    -1 s, a tilt of -5 degrees)."""
    if below is not None:
        wanted = f"a number from {least:g} to below {below:g}"
    else:
        wanted = f"a number over {least:g}" if above else f"a number of {least:g} or more"

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value < least or (above and value == least) or (
                below is not None and value >= below):
            raise argparse.ArgumentTypeError(f"{text} is not {wanted}")
        return value

    return number


if __name__ == "__main__":
    sys.exit("bench_stats.py is not a bench: the benches import it (scripts/bench_*.py)")
