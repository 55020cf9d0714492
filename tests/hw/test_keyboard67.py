"""The terminal typed at as a line, and its auto-repeat of a held key (input audit 67).

D1: a number key then Enter, as at a shell prompt: the number chose, and the Enter confirmed
the highlighted option of the menu it brought (a typed D4 taken as 1, a d100's 7 as 71).
D2: a held key is sent again after the terminal's repeat delay (250-660 ms), then every
25-40 ms: each was a press (a held 2 ended a fight, a held 3 rolled a second table).

The keys are written to a pty as a terminal sends them, and read on a clock of the test's
(the keyboard's ``clock``): the time between two reads is set, not slept.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from companion.hw import keyboard
from companion.hw.buttons import Button, Pick, Press
from companion.hw.keyboard import (
    ENTER_AFTER_NUMBER_SECONDS,
    KeyboardInput,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class TimedKeys(KeyboardInput):
    """The keyboard, its wait for a key kept back (a held key's next repeat?) passing on the
    test's clock: the keys the terminal sends in that time are written then."""

    def __init__(self, terminal: Terminal) -> None:
        super().__init__(terminal.slave, clock=terminal.clock)
        self.terminal = terminal

    def _ready(self, wait: float) -> bool:
        if wait > 0:
            self.terminal.send_until(self.clock.now + wait)  # type: ignore[attr-defined]
        return super()._ready(0.0)


class Terminal:
    """A pty the keyboard reads, and the keys written to it at the times given (``at``), or as
    scheduled (``send``: a key held)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.clock = Clock()
        self.keys = TimedKeys(self)
        self.scheduled: list[tuple[float, bytes]] = []

    def send(self, seconds: float, typed: bytes) -> None:
        self.scheduled.append((100.0 + seconds, typed))

    def send_until(self, now: float) -> None:
        """The scheduled keys sent by ``now``, the clock moved to the last (or to ``now``)."""
        due = [s for s in self.scheduled if s[0] <= now + 1e-9]
        self.scheduled = [s for s in self.scheduled if s[0] > now + 1e-9]
        if due:
            os.write(self.master, b"".join(typed for _, typed in due))
            time.sleep(0.01)  # through the pty
        self.clock.now = due[-1][0] if due else now

    def at(self, seconds: float, typed: bytes = b"") -> list[Press]:
        """What a poll at ``seconds`` reads, ``typed`` (and the keys scheduled) written
        before it."""
        self.send_until(100.0 + seconds)
        if typed:
            os.write(self.master, typed)
            time.sleep(0.01)  # through the pty
        return self.keys.poll()

    def close(self) -> None:
        self.keys.close()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def term() -> Iterator[Terminal]:
    terminal = Terminal()
    yield terminal
    terminal.close()


# D1: the Enter typed after a number


@pytest.mark.parametrize("later", [0.15, 0.2, 0.6, 0.95])
def test_enter_after_a_number_key_is_the_numbers_end(term: Terminal, later: float) -> None:
    assert term.at(0.0, b"3") == [Pick(2)]
    assert term.at(later, b"\n") == []  # not the next menu's confirm
    assert term.at(later + 2.0, b"\n") == [Button.ATTACK]  # a deliberate Enter counts


def test_enter_typed_with_its_number_in_one_read(term: Terminal) -> None:
    assert term.at(0.0, b"3\r") == [Pick(2)]
    assert term.at(0.5, b"07\n") == [Pick(9), Pick(6)]  # a d100's 07, then Enter


def test_enter_after_the_window_or_another_key_confirms(term: Terminal) -> None:
    assert term.at(0.0, b"3") == [Pick(2)]
    assert term.at(ENTER_AFTER_NUMBER_SECONDS, b"\n") == [Button.ATTACK]
    assert term.at(5.0, b"4") == [Pick(3)]
    assert term.at(5.2, b"\x1b[B") == [Button.MENU]  # ↓ to another option
    assert term.at(5.4, b"\n") == [Button.ATTACK]


def test_a_and_space_after_a_number_still_confirm(term: Terminal) -> None:
    assert term.at(0.0, b"3") == [Pick(2)]
    assert term.at(0.2, b"a") == [Button.ATTACK]
    assert term.at(5.0, b"3") == [Pick(2)]
    assert term.at(5.2, b" ") == [Button.ATTACK]


# D2: a key held


def held(delay: float, period: float, hold: float) -> list[float]:
    """When a terminal sends a key held ``hold`` seconds: at once, after its repeat delay,
    then every repeat period."""
    times = [0.0]
    t = delay
    while t <= hold:
        times.append(t)
        t += period
    return times


@pytest.mark.parametrize(("delay", "period"), [(0.25, 0.033), (0.5, 0.033), (0.66, 0.04)],
                         ids=["linux-console", "gnome", "x-default"])
@pytest.mark.parametrize("hold", [0.45, 0.6, 0.8, 1.5])
def test_a_held_key_is_one_press(term: Terminal, delay: float, period: float,
                                 hold: float) -> None:
    """Polled every 0.05 s as a menu polls, the key written as the terminal sends it held."""
    for t in held(delay, period, hold):
        term.send(t, b"2")
    got: list[Press] = []
    poll = 0.0
    while poll <= hold + 0.5:
        got += term.at(poll)
        poll = round(poll + 0.05, 6)
    assert got == [Pick(1)]
    assert term.at(hold + 1.0, b"2") == [Pick(1)]  # pressed again: a press


def test_a_held_keys_repeats_read_at_once_are_dropped(term: Terminal) -> None:
    """A slow poll (a screen drawn) reads a held key's first repeat with those after it."""
    assert term.at(0.0, b"a") == [Button.ATTACK]
    assert term.at(0.7, b"aaaaa") == []
    assert term.at(0.75, b"a") == []


def test_a_first_repeat_caught_while_kept_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first repeat, alone in its read, is kept back: the next repeat, come in that time
    on a real terminal's time, says the key is held. (The wait is made long here, so that the
    write 50 ms later is surely in it on a busy machine; the poll returns as it comes.)"""
    monkeypatch.setattr(keyboard, "KEY_HELD_WAIT_SECONDS", 5.0)
    master, slave = os.openpty()
    clock = Clock()
    keys = KeyboardInput(slave, clock=clock)
    try:
        os.write(master, b"2")
        time.sleep(0.01)
        assert keys.poll() == [Pick(1)]
        clock.now += 0.5  # the terminal's repeat delay
        os.write(master, b"2")
        time.sleep(0.01)
        writer = threading.Timer(0.05, os.write, (master, b"2"))
        writer.start()
        started = time.monotonic()
        assert keys.poll() == []
        writer.join()
        assert time.monotonic() - started < 4.0  # not the whole wait
        clock.now += 0.03
        os.write(master, b"2")
        time.sleep(0.01)
        assert keys.poll() == []  # the run goes on
    finally:
        keys.close()
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("apart", [0.15, 0.2, 0.3, 0.6])
def test_a_deliberate_double_press_counts_twice(term: Terminal, apart: float) -> None:
    assert term.at(0.0, b"a") == [Button.ATTACK]
    assert term.at(apart, b"a") == [Button.ATTACK]
    assert term.at(apart * 2, b"3") == [Pick(2)]
    assert term.at(apart * 3, b"3") == [Pick(2)]  # a d100's 33


def test_two_keys_typed_fast_both_count(term: Terminal) -> None:
    assert term.at(0.0, b"17") == [Pick(0), Pick(6)]
    assert term.at(0.05, b"b") == [Button.FLEE]
    assert term.at(0.1, b"\x1b") == []  # Esc alone waits a poll (an arrow's start?)
    assert term.at(0.15) == [Button.FLEE]  # another key than b, both flee


def test_a_held_arrow_runs_down_the_menu(term: Terminal) -> None:
    assert term.at(0.0, b"\x1b[B") == [Button.MENU]
    assert term.at(0.3, b"\x1b[B" * 3) == [Button.MENU] * 3
    assert term.at(0.35, b"m") == [Button.MENU]
    assert term.at(0.38, b"m") == [Button.MENU]
