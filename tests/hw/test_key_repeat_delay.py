"""keys71 RISK 1 (the part that is cheap and safe): a key held with a long repeat delay
counts once. The first repeat after Windows' longest delay (1 s) came just past the 1.0 s
bound and counted as a second press; GNOME's and macOS' longest delays are about 2 s.

A slow repeat *period* (a repeat every 0.1 s or slower) is left as it is: its repeats come
as fast as a person taps, and telling them apart would hold back every second press of a
key (see /tmp/audit/fixkeys71.md)."""

from __future__ import annotations

import pytest

from companion.hw.buttons import Pick
from companion.hw.key_runs import Key, KeyRuns


def presses(sent: list[float], key: str = "2") -> list[tuple[object, float]]:
    """The presses of ``key`` arriving at the times ``sent``, each read on its own."""
    runs = KeyRuns()
    out: list[tuple[object, float]] = []
    for chunk, at in enumerate(sent, 1):
        out += runs.due(at)
        out += runs.feed(Key(key, Pick(1), at, chunk))
    return out + runs.due(sent[-1] + 5)


@pytest.mark.parametrize("delay", [1.0, 1.02, 1.5, 2.0, 2.1])
def test_a_key_held_with_a_long_repeat_delay_counts_once(delay: float) -> None:
    held = [0.0] + [delay + n * 0.033 for n in range(20)]
    assert presses(held) == [(Pick(1), 0.0)]


def test_a_key_pressed_again_after_a_pause_still_counts_dated_as_typed() -> None:
    """Held back 0.08 s to see whether it is a repeat; it counts, judged by when it came."""
    assert presses([0.0, 1.5]) == [(Pick(1), 0.0), (Pick(1), 1.5)]
    assert presses([0.0, 3.0]) == [(Pick(1), 0.0), (Pick(1), 3.0)]
