"""The injected source of randomness; only simulated inputs use it, never the rules."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

T = TypeVar("T")


class Randomizer(Protocol):
    """What a simulated wall or auto-player may ask of a random source."""

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, items: list[T], /) -> None: ...


def seeded(seed: int) -> Randomizer:
    """A reproducible randomizer: the same seed always gives the same draws."""
    return random.Random(seed)
