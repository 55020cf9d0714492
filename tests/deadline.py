"""A deadline for a call that ends by itself, such as a command replaying a capture to its
end: were a regression to keep it waiting for more, the test fails instead of hanging the
suite (the call runs in the main thread, where the alarm signal interrupts it)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import pytest


@contextmanager
def ends_within(seconds: float, what: str) -> Iterator[None]:
    """Fail the test if the ``with`` body has not ended after ``seconds``."""

    def expired(signum: int, frame: FrameType | None) -> None:
        pytest.fail(f"{what} did not end within {seconds:g} s", pytrace=False)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
