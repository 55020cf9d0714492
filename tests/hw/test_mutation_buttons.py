"""Buttons and the waiting signal: edges no other test pinned (mutation round 3)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hw.buttons import Button, ButtonPanel, ButtonPins, WaitingSignal, optional_pin


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def test_item_held_exactly_the_long_press_is_menu(factory: MockFactory) -> None:
    """``long_press`` is the shortest hold that counts as MENU (held at least that long)."""
    now = [0.0]
    panel = ButtonPanel(ButtonPins(), long_press=0.5, bounce_time=None, pin_factory=factory,
                        clock=lambda: now[0])
    item = factory.pin(ButtonPins().item)
    item.drive_low()
    now[0] = 0.5
    item.drive_high()
    assert panel.poll() == [Button.MENU]
    panel.close()


def test_waiting_again_after_the_beep_ended_beeps_no_more(factory: MockFactory) -> None:
    """One beep when the wait begins: a second ``waiting(True)`` once that beep is over (the
    same wait, told again as the screen redraws) is silent."""
    signal = WaitingSignal(24, 25, beep_seconds=0.02, pin_factory=factory)
    buzzer = factory.pin(25)
    for _ in range(2):
        signal.waiting(True)
        deadline = time.monotonic() + 2
        while buzzer.state and time.monotonic() < deadline:
            time.sleep(0.01)
    assert [s.state for s in buzzer.states].count(True) == 1
    signal.close()


def test_only_a_negative_pin_is_not_fitted() -> None:
    """Config's -1 means "not fitted"; GPIO0 is a pin like any other."""
    assert (optional_pin(-1), optional_pin(0), optional_pin(25)) == (None, 0, 25)
