"""What the bench scripts' figures share: one percentile, by nearest rank, for all of them.

Not a bench: the benches import it from beside them (``sys.path`` holds this folder).
"""

from __future__ import annotations

import math
from collections.abc import Sequence


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
