"""Shared by the camera dice tests: a clock that passes half a second each time it is read."""

from __future__ import annotations


class Clock:
    """Time that passes half a second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.5
        return self.now
