"""A clock the boot service's held stop is timed by (review62c's and review62e's tests;
tidy72c: no test module imports another)."""

from __future__ import annotations


class FakeClock:
    """time as show_stop sees it: monotonic() and sleep(), the latter moving the former."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
